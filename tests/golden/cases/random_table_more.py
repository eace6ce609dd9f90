"""The second wave of random programs over the op table ([21]): the ops added to the table after
tests/golden/cases/random_table.py was recorded, with their own seed and programs named ``table2_*``.

Same rules as random_table.py (its ``PRELUDE``, inputs and program builder): one line per new op in ``TEMPLATES``,
the ops the CPU wheel cannot run in ``WHEEL_CANNOT`` (the measured error), those without a program in ``NOT_HERE``.
Drawing a wave on its own keeps every program recorded for an earlier wave byte-identical; a chain of new ops ends,
at times, in one of the earlier waves' differentiable ops. A later wave is a third file like this one.
"""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("golden_cases_random_table_wave1",
                                               Path(__file__).resolve().parent / "random_table.py")
WAVE1 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(WAVE1)  # type: ignore[union-attr]

_BOX = "Tensor(np.array([[0.1, 0.2, 0.8, 0.9]]), ms.float32), Tensor(np.array([0]), ms.int32), (3, 3)"
TEMPLATES = {
    # thin: older primitive names, views, aliases
    '_pack': ('d', ['ops.Pack(1)(({b}, {b} * 2))', 'ops.Pack()(({a}, {a} * 0.5))']),
    '_unpack': ('d', ['ops.Unpack(1)({a})', 'ops.Unpack()({a})']),
    '_expand': ('d', ['ops.Expand()({b}, Tensor(np.array([2, 3, 4]), ms.int32))']),
    '_nan_to_num_prim': ('d', ['ops.NanToNum(nan=0.5, posinf=2.0, neginf=-2.0)({a})', 'ops.NanToNum()({a})']),
    '_fill_diagonal_prim': ('v', ['ops.FillDiagonal(5.0)({b})', 'ops.FillDiagonal(-1.0, True)({a}.reshape(6, 4))']),
    '_transpose_view': ('d', ['ops.TransposeView()({a}, (2, 0, 1))']),
    '_transpose_ext_view': ('d', ['ops.TransposeExtView()({a}, 0, 2)', 'ops.TransposeExtView()({a}, -1, 1)']),
    '_select_view': ('d', ['ops.SelectView()({a}, 1, 1)', 'ops.SelectView()({a}, -1, 2)']),
    '_copy_with_slice': ('d', ['ops.CopyWithSlice()(ops.zeros_like({a}), {a})']),
    '_reusing': ('d', ['ops.Reusing()({a})']),
    'expand_as': ('d', ['ops.expand_as({b}, {a})', '{b}.expand_as({a})']),
    'type_as': ('v', ['{a}.type_as(ints({b}))']),
    'top_k': ('d', ['ops.top_k({a}, 2)', 'ops.top_k({a}, 3, sorted=True)']),
    # image, detection, recurrent and loss primitives (landed 02:20)
    '_max_pool_with_argmax': ('d', ['ops.MaxPoolWithArgmax(kernel_size=2, strides=1)({a}.reshape(1, 2, 3, 4))']),
    '_resize_area': ('v', ['ops.ResizeArea()({a}.reshape(1, 3, 4, 2), Tensor(np.array([5, 3]), ms.int32))']),
    '_resize_bicubic': ('d', ['ops.ResizeBicubic()({a}.reshape(1, 2, 3, 4), Tensor(np.array([5, 6]), ms.int32))']),
    '_crop_and_resize_primitive': ('d', ['ops.CropAndResize()({a}.reshape(1, 3, 4, 2), ' + _BOX + ')']),
    'crop_and_resize': ('d', ['ops.crop_and_resize({a}.reshape(1, 3, 4, 2), ' + _BOX + ')']),
    '_roi_align': ('d', ['ops.ROIAlign(2, 2, 1.0, 2)({a}.reshape(1, 2, 3, 4), '
                         'Tensor(np.array([[0, 0.5, 0.5, 3.0, 2.0]]), ms.float32))']),
    '_ctc_loss_v1': ('d', ['ops.CTCLoss()(ops.log_softmax({a}.reshape(4, 2, 3), -1), '
                           'Tensor(np.array([[0, 0], [0, 1], [1, 0]]), ms.int64), Tensor(np.array([1, 0, 1]), ms.int32), '
                           'Tensor(np.array([4, 3]), ms.int32))']),
    '_grid_sampler_3d': ('d', ['ops.GridSampler3D()({a}.reshape(1, 1, 2, 3, 4), '
                               'ops.tanh({a}).reshape(1, 1, 2, 4, 3)[..., :3] * 0.9)']),
    '_lstm': ('v', ['ops.LSTM(4, 3, 1, True, False, 0.0)({a}.reshape(2, 3, 4), ops.zeros((1, 3, 3), ms.float32), '
                    'ops.zeros((1, 3, 3), ms.float32), ops.tile({b}.reshape(-1) * 0.2, (9,)).reshape(108, 1, 1))']),
}

_KERNEL = "RuntimeError: Kernel select failed: Unsupported op [{}] on CPU"
_MCCL = "RuntimeError: {} only support mccl_world_group on CPU, but got hccl_world_group"
WHEEL_CANNOT = {
    '_gather_v2': ("RuntimeError: For Operator[Gather], the inputs number should be 4 but got 3. (its documented "
                   "three inputs)"),
    '_split_v': _KERNEL.format('SplitV'),
    '_scalar_to_array_prim': 'RuntimeError: prim:ScalarToArray has no attr:__infer__',
    'scalar_to_array': 'RuntimeError: prim:ScalarToArray has no attr:__infer__',
    '_dynamic_shape': 'RuntimeError: prim:DynamicShape has no attr:__infer__',
    '_lerp_scalar': 'RuntimeError: The kernel LerpScalar unregistered.',
    '_log_softmax_ext': 'RuntimeError: The kernel LogSoftmaxExt unregistered.',
    'fills': _KERNEL.format('Fills'),
    '_confusion_matrix': _KERNEL.format('ConfusionMatrix'),
    '_dropout_gen_mask': _KERNEL.format('DropoutGenMask'),
    '_dropout_do_mask': _KERNEL.format('DropoutDoMask'),
    '_scatter_non_aliasing_add': _KERNEL.format('ScatterNonAliasingAdd'),
    '_float_status': _KERNEL.format('FloatStatus'),
    'move_to': _KERNEL.format('MoveTo'),
    'clamp_': 'RuntimeError: The kernel InplaceClampScalar unregistered.',
    'zero_': 'RuntimeError: The kernel InplaceZero unregistered.',
    'inplace_sigmoid': 'RuntimeError: The kernel InplaceSigmoid unregistered.',
    'einsum_ext': 'NotImplementedError: einsum only supports Ascend.',
    # comm: collectives over a group of one (the CPU wheel has no group without a launched cluster)
    '_all_reduce_primitive': 'the process dies (no message) before any communication group is initialised',
    '_all_gather_primitive': _MCCL.format('AllGather'),
    '_broadcast_primitive': _MCCL.format('Broadcast'),
    '_reduce_scatter_primitive': _KERNEL.format('ReduceScatter'),
    '_all_to_all_primitive': _KERNEL.format('AlltoAll'),
    '_barrier_primitive': _KERNEL.format('Barrier'),
    '_reduce_primitive': _KERNEL.format('Reduce'),
    '_collective_gather_primitive': _KERNEL.format('CollectiveGather'),
    '_collective_scatter_primitive': _KERNEL.format('CollectiveScatter'),
    '_all_gather_v_primitive': _KERNEL.format('AllGatherV'),
    '_reduce_scatter_v_primitive': _KERNEL.format('ReduceScatterV'),
    '_all_to_all_v_primitive': _KERNEL.format('AlltoAllV'),
    '_all_to_all_v_c_primitive': _KERNEL.format('AlltoAllVC'),
    '_all_swap_primitive': 'RuntimeError: The pointer[recv_size_tensor] is null.',
    'all_gather_matmul': 'RuntimeError: The kernel AllGatherMatmul unregistered.',
    'matmul_reduce_scatter': 'RuntimeError: The kernel MatmulReduceScatter unregistered.',
    '_space_to_batch': _KERNEL.format('SpaceToBatch'),
    '_batch_to_space': _KERNEL.format('BatchToSpace'),
    '_extract_image_patches': _KERNEL.format('ExtractImagePatches'),
    '_rnnt_loss': _KERNEL.format('RNNTLoss'),
    '_basic_lstm_cell': _KERNEL.format('BasicLSTMCell'),
    'rotated_iou': _KERNEL.format('RotatedIou'),
    '_depthwise_conv2d_native': _KERNEL.format('DepthwiseConv2dNative'),
}

_SIDE = "a side effect, not a value (tests/golden/cases/ops_thin_names.py compares it)"
NOT_HERE = {
    '_dtype_to_enum': "takes an op's name, an argument's name and a dtype, not tensors (ops_thin_names compares it)",
    '_update_state': "a graph-syntax helper: returns its first argument, no tensor computation",
    '_py_func': "calls a Python function given to it (tests/golden/cases/ops_thin_names.py compares it)",
    '_dump_gradient': _SIDE,
    '_tensor_dump': _SIDE,
    'tensordump': _SIDE,
    '_ctc_loss_kernel': "the kernel behind CTCLoss and ctc_loss (drawn through them)",
    '_rnnt_loss_kernel': "the kernel behind RNNTLoss (the CPU wheel has no RNNTLoss kernel)",
    '_sample_distorted_bounding_box_v2': "a random draw (seeded by the wheel's own generator)",
}

PRELUDE = WAVE1.PRELUDE
PROGRAMS = WAVE1.programs(TEMPLATES, seed=2111, prefix="table2", old=WAVE1.TEMPLATES)
_ALL = {**WAVE1.TEMPLATES, **TEMPLATES}
CASES = {name: WAVE1._program(chain, d, 19000 + i, _ALL) for i, (name, (chain, d)) in enumerate(PROGRAMS.items())}
