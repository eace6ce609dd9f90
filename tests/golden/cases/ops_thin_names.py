"""The thin names of ``mindspore.ops``: older primitive names (Pack, Unpack, GatherV2, SplitV, ...), aliases and
in-place forms (fills, pows, top_k, clamp_, zero_, ...), view primitives, debugging and graph-syntax helpers
(tail, ms_next, environ_*, ...). Helpers the wheel runs only inside a graph are recorded through ``ms.jit``;
forms the CPU wheel has no kernel for are answered by an equivalent program (``VIA``)."""
_X = "x = Tensor(np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32))\n"


def _jit(expr: str, **tensors: str) -> str:
    """``expr`` (calls of the helpers as ``ops.NAME``) run inside a jit-compiled Cell method; ``tensors`` are made
    in ``__init__`` and read as ``self.NAME`` (a graph cannot name ``Tensor`` itself)."""
    names = sorted({w.split("(")[0] for w in expr.replace("ops.", " ops.").split() if w.startswith("ops.")})
    init = "".join(f"        self.{n[4:]} = {n}\n" for n in names)
    init += "".join(f"        self.{k} = {v}\n" for k, v in tensors.items())
    body = expr
    for n in names:
        body = body.replace(n + "(", f"self.{n[4:]}(")
    return (f"class N(nn.Cell):\n    def __init__(self):\n        super().__init__()\n{init}"
            f"    @ms.jit\n    def construct(self):\n        return {body}\nresult = N()()")


_DUMP = ("import os, tempfile, glob\nd = tempfile.mkdtemp()\n"
         "def dumped():\n    return sorted((os.path.basename(p), np.load(p).tolist()) for p in glob.glob(os.path.join(d, '*.npy')))\n")

CASES = {
    # ---- older primitive names ------------------------------------------------------------------
    "pack": _X + "result = (ops.Pack(1)((x, x * 2)), ops.Pack()([x, x]), ops.Pack(-1)((x, x)).shape)",
    "pack_grad": _X + "result = ms.grad(lambda a: (ops.Pack(1)((a, a * a)) * Tensor([[[1.0], [2.0]]])).sum())(x)",
    "unpack": _X + "result = (ops.Unpack(1)(x), ops.Unpack()(x), ops.Unpack(-1)(x))",
    "unpack_grad": _X + "result = ms.grad(lambda a: ops.Unpack(1)(a)[2].sum() * 3)(x)",
    "gatherv2": _X + "result = ops.GatherV2()(x, Tensor([2, 0]), 1)",
    "expand": "result = (ops.Expand()(Tensor([[1.0], [2.0]]), Tensor([2, 3])), ops.Expand()(Tensor([1, 2], ms.int32), Tensor([3, 2])))",
    "expand_int64": "result = ops.Expand()(Tensor([1, 2]), Tensor([3, 2]))",
    "expand_grad": "result = ms.grad(lambda a: (ops.Expand()(a, Tensor([2, 3])) * Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum())(Tensor([[1.0], [2.0]]))",
    "nan_to_num": "v = Tensor([np.nan, np.inf, -np.inf, 1.5], ms.float32)\nresult = (ops.NanToNum()(v), ops.NanToNum(nan=1.0, posinf=2.0, neginf=3.0)(v), ops.NanToNum()(Tensor([np.nan, np.inf], ms.float16)))",
    "splitv": _X + "result = ops.SplitV([1, 2], 1, 2)(x)",
    "splitv_minus_one": _X + "result = ops.SplitV([1, -1], 1, 2)(x)",
    "lerp_scalar": _X + "result = ops.LerpScalar()(x, x * 2 + 1, 0.25)",
    "log_softmax_ext": _X + "result = ops.LogSoftmaxExt()(x, 1)",
    "log_softmax_ext_dim0": _X + "result = ops.LogSoftmaxExt()(x, 0)",
    "fills_prim": _X + "result = ops.Fills()(x, 2.5)",
    "fill_diagonal": _X + "result = (ops.FillDiagonal(9.0)(x), ops.FillDiagonal(7.0, True)(Tensor(np.zeros((7, 3), np.float32))), x)",
    "confusion_matrix": "result = ops.ConfusionMatrix(4)(Tensor([0, 1, 1, 3], ms.int32), Tensor([0, 2, 1, 3], ms.int32))",
    "confusion_matrix_weights": "result = ops.ConfusionMatrix(4, 'float32')(Tensor([0, 1, 1, 3], ms.int32), Tensor([0, 2, 1, 3], ms.int32), Tensor([1.0, 2.0, 3.0, 4.0]))",
    "dropout_do_mask": _X + "result = ops.DropoutDoMask()(x, Tensor(np.array([0b101101] + [0] * 15, np.uint8)), Tensor(0.5, ms.float32))",
    "dynamic_shape": _jit("ops.DynamicShape()(self.t)", t="Tensor(np.ones((2, 3), np.float32))"),
    "dtype_to_enum": "result = tuple(ops.DtypeToEnum()('op', 'arg', t) for t in (ms.bool_, ms.int8, ms.int32, ms.int64, ms.uint8, ms.float16, ms.float32, ms.float64, ms.complex64))",
    "transpose_views": _X + "result = (ops.TransposeView()(x, (1, 0)), ops.TransposeExtView()(x, 0, 1), ops.TransposeExtView()(x, -1, 0))",
    "transpose_view_grad": _X + "result = ms.grad(lambda a: (ops.TransposeView()(a, (1, 0)) * Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum())(x)",
    "select_view": _X + "result = (ops.SelectView()(x, 1, 0), ops.SelectView()(x, 0, 1), ops.SelectView()(x, 1, -1))",
    "copy_with_slice": _X + "y = ops.CopyWithSlice()(x, x * 2)\nresult = (y, x)",
    "scatter_non_aliasing_add": "p = ms.Parameter(Tensor([1.0, 2.0, 3.0, 4.0]), name='p')\ny = ops.ScatterNonAliasingAdd()(p, Tensor(np.array([[0], [2], [0]], np.int32)), Tensor([5.0, 6.0, 7.0]))\nresult = (y, p.value())",
    "scatter_non_aliasing_add_int64": "p = ms.Parameter(Tensor([1.0, 2.0, 3.0]), name='p')\nresult = ops.ScatterNonAliasingAdd()(p, Tensor([[0], [2]]), Tensor([5.0, 6.0]))",
    "update_state_reusing": _X + "result = (ops.UpdateState()(1, x), ops.UpdateState()(x, 2), ops.Reusing()(x))",
    "pyfunc": _X + "def f(a, b):\n    return a * b, a + 1\nresult = ops.PyFunc(f, [ms.float32, ms.float32], [(2, 3), (2, 3)], [ms.float32, ms.float32], [(2, 3), (2, 3)])(x, x)",
    "dump_gradient": _X + "import os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'g.npy')\nresult = (ops.DumpGradient()(p, x, 'in'), ms.grad(lambda a: (ops.DumpGradient()(p, a * 2, 'in') * a).sum())(x))",
    "tensor_dump": _X + _DUMP + "r = (ops.TensorDump()(os.path.join(d, 'a'), x), ops.TensorDump('in')(os.path.join(d, 'b'), Tensor([1, 2], ms.int32)))\nimport time\ntime.sleep(0.5)\nresult = (r, [n.split('_')[:2] for n, _ in dumped()], [v for _, v in dumped()])",
    "tensor_dump_empty": _X + "result = ops.TensorDump()('', x)",
    "float_status": _X + "result = (ops.FloatStatus()(x), ops.FloatStatus()(Tensor([1.0, np.inf])), ops.FloatStatus()(Tensor([np.nan])))",
    "move_to_prim": _X + "result = ops.MoveTo()(x, 'CPU', True)",
    # ---- functions ------------------------------------------------------------------------------
    "clamp_": _X + "y = ops.clamp_(x, -1.0, 2.0)\nresult = (y, x)",
    "expand_as": _X + "result = (ops.expand_as(Tensor([1.0, 2.0, 3.0]), x), ops.expand_as(Tensor([[1], [2]]), x))",
    "expand_as_grad": _X + "result = ms.grad(lambda a: (ops.expand_as(a, x) * x).sum())(Tensor([1.0, 2.0, 3.0]))",
    "fills": _X + "result = (ops.fills(x, 2.0), ops.fills(Tensor([1, 2], ms.int32), 3))",
    "fills_int64": "result = ops.fills(Tensor([1, 2]), 2)",
    "pows": _X + "result = (ops.pows(x, 2.0), ops.pows(x, x), str(ops.pows), type(ops.pows).__name__)",
    "pows_grad": _X + "result = ms.grad(lambda a: ops.pows(a, 3.0).sum())(x)",
    "type_as": _X + "result = (ops.type_as(x, Tensor([1], ms.int32)), ops.type_as(Tensor([1, 2]), x))",
    "top_k": _X + "result = (ops.top_k(x, 2), ops.top_k(Tensor([3, 1, 2], ms.int32), 1))",
    "top_k_grad": _X + "result = ms.grad(lambda a: ops.top_k(a, 2)[0].sum())(x)",
    "einsum_ext": _X + "result = (ops.einsum_ext('ij,kj->ik', x, x), ops.einsum_ext('ij->j', x))",
    "reshape_": _X + "result = (ops.reshape_(x, (3, 2)), ops.reshape_(x, (-1,)), str(ops.reshape_), type(ops.reshape_).__name__)",
    "zero_": _X + "y = ops.zero_(x)\nresult = (y, x)",
    "inplace_sigmoid": _X + "y = ops.inplace_sigmoid(x)\nresult = (y, x)",
    "tensor_range": "result = (ops.tensor_range(0, 5, 2), ops.tensor_range(Tensor(0.0), Tensor(1.0), Tensor(0.25)), str(ops.tensor_range), type(ops.tensor_range).__name__)",
    "scalar_to_array": _jit("ops.scalar_to_array(2.5), ops.scalar_to_array(3)"),
    "scalar_to_array_prim": _jit("ops.ScalarToArray()(1.5)"),
    "array_to_scalar": _jit("ops.array_to_scalar(self.t)", t="Tensor(2.5)"),
    "tail": _jit("ops.tail((1, 2, 3)), ops.tail((4,))"),
    "iterators": _jit("ops.ms_next((1, 2, 3)), ops.ms_hasnext((1, 2, 3)), ops.ms_hasnext(()), ops.iter_converter((1, 2))"),
    "slice_getitem": "result = tuple(ops.SliceGetItem(slice(1, 5, 2), a) for a in ('start', 'stop', 'step'))",
    "add_flags": "def f(a):\n    return a + 1\ng = ops.add_flags(f, defer_inline=True, k=1)\nh = ops.add_flags(k=2)(f)\nresult = (g(2), g is f, g._func_graph_flags, h._func_graph_flags)",
    "mixed_precision_cast": _X + "result = (ops.mixed_precision_cast(ms.float16, x), ops.mixed_precision_cast(ms.float16, (x, 1, Tensor([1]))), ops.mixed_precision_cast(ms.float32, x.astype(ms.float16)))",
    "ones_like_for_grad": "result = ops._ones_like_for_grad((Tensor([1.0, 2.0]), Tensor(3), (Tensor([[2]], ms.int32),)))",
    "grad_class": _X + "y = x + 1\ndef f(a, b):\n    return (a * a * b).sum()\nresult = (ops._Grad(get_all=True)(f)(x, y), ops._Grad()(f)(x, y), ops._Grad(get_by_position=True)(f, None, (1,))(x, y), ops._Grad(get_value=True)(f)(x, y))",
    "grad_class_same_tensor_twice": _X + "def f(a, b):\n    return (a * a * b).sum()\nresult = ops._Grad(get_all=True)(f)(x, x)",
    "grad_class_int_position": _X + "def f(a, b):\n    return (a * b).sum()\nresult = ops._Grad(get_by_position=True)(f, None, 1)(x, x)",
    "vmap_class": "def f(a):\n    return a * 2 + 1\nresult = ops._Vmap()(f, 0, 0)(Tensor([[1.0, 2.0], [3.0, 4.0]]))",
    "move_to": _X + "result = ops.move_to(x, 'CPU')",
    "tensordump": _X + _DUMP + "r = (ops.tensordump(os.path.join(d, 'c'), x), ops.tensordump(os.path.join(d, 'e'), x, 'in'))\nimport time\ntime.sleep(0.5)\nresult = (r, [n.split('_')[:2] for n, _ in dumped()], [v for _, v in dumped()])",
    "tensordump_bad_mode": _X + "result = ops.tensordump('a', x, 'all')",
    "tensordump_bad_mode2": _X + "result = ops.tensordump('a', x, 'both')",
    "tensordump_bad_tensor": "result = ops.tensordump('a', [1.0])",
    "environ": _jit("ops.environ_get(ops.environ_set(ops.environ_create(), ops.embed(self.k), self.v), ops.embed(self.k), self.d)",
                    k="Tensor([1.0])", v="Tensor([2.0])", d="Tensor([0.0])"),
    # ---- the helper modules and the rest of the graph helpers -----------------------------------------
    "signature_module": ("sig = ops.signature\ns = sig.make_sig('x', sig.sig_rw.RW_WRITE, dtype=sig.sig_dtype.T)\n"
                         "result = (str(sig.sig_rw.RW_WRITE), str(sig.sig_dtype.T1), str(sig.sig_kind.KIND_VAR_POSITIONAL), "
                         "str(sig.sig_rw.RW_READ), type(s).__name__)"),
    "arg_handler": ("h = ops.arg_handler\nresult = (h.to_pair('Op', 'a', 2), h.to_pair('Op', 'a', (1, 2)), h.to_kernel_size('Op', 'k', 3), "
                    "h.to_kernel_size('Op', 'k', (1, 1, 2, 3)), h.to_strides('Op', 's', [1, 2]), h.to_dilations('Op', 'd', 2), "
                    "h.to_rates('Op', 'r', (1, 1, 4, 5)), h.to_output_padding('Op', 'p', 0), h.to_2d_paddings('Op', 'p', 1), "
                    "h.to_2d_paddings('Op', 'p', (1, 2)), h.arg_invalid_info('Op', 'a', 'z'), h.generator_handler('Op', 'g', (1, 'x')))"),
    "arg_handler_invalid": "result = ops.arg_handler.to_strides('MaxPool', 'strides', 'x')",
    "arg_dtype_cast": ("c = ops.arg_dtype_cast\nresult = (c.tuple_to_list((1, 2)), c.list_to_tuple([1, 2]), c.int_to_float(3), "
                       "c.scalar_to_tuple(2), c.tensor_to_tuple(Tensor([1, 2])), c.is_integral_mstype(ms.int32), "
                       "c.is_integral_mstype(ms.float32), c.is_floating_point_mstype(ms.float16), c.is_sequence_shape_unknown((2, 3)), "
                       "c.DtypeToEnum()('a', 'b', ms.int32))"),
    "array_reduce": _jit("ops.array_reduce(self.fn, self.t, (0,))", fn="ops.Add()",
                         t="Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))"),
    "add_attr": _X + "def f(a):\n    return a * 2\nresult = ops._add_attr(f, cast_type=1)(x)",
}

VIA = {
    "gatherv2": _X + "result = ops.Gather()(x, Tensor([2, 0]), 1)",
    "splitv": _X + "result = ops.split(x, [1, 2], 1)",
    "splitv_minus_one": _X + "result = ops.split(x, [1, 2], 1)",
    "lerp_scalar": _X + "result = ops.lerp(x, x * 2 + 1, 0.25)",
    "log_softmax_ext": _X + "result = ops.log_softmax(x, 1)",
    "log_softmax_ext_dim0": _X + "result = ops.log_softmax(x, 0)",
    "fills_prim": _X + "result = ops.full_like(x, 2.5)",
    "confusion_matrix": ("m = np.zeros((4, 4), np.int32)\nnp.add.at(m, (np.array([0, 1, 1, 3]), np.array([0, 2, 1, 3])), 1)\n"
                         "result = Tensor(m)"),
    "confusion_matrix_weights": ("m = np.zeros((4, 4), np.float32)\nnp.add.at(m, (np.array([0, 1, 1, 3]), np.array([0, 2, 1, 3])), "
                                 "np.array([1.0, 2.0, 3.0, 4.0], np.float32))\nresult = Tensor(m)"),
    "dropout_do_mask": _X + "bits = np.unpackbits(np.array([0b101101], np.uint8), bitorder='little')[:6].reshape(2, 3).astype(np.float32)\nresult = x * Tensor(bits) / 0.5",
    "float_status": _X + "result = (Tensor([0.0]), Tensor([1.0]), Tensor([1.0]))",
    "move_to_prim": _X + "result = x",
    "clamp_": _X + "x = ops.clamp(x, -1.0, 2.0)\nresult = (x, x)",
    "fills": _X + "result = (ops.full_like(x, 2.0), ops.full_like(Tensor([1, 2], ms.int32), 3))",
    "type_as": _X + "result = (x.astype(ms.int32), Tensor([1, 2]).astype(ms.float32))",
    "array_to_scalar": "result = Tensor(2.5).asnumpy().item()",
    "einsum_ext": _X + "a = x.asnumpy()\nresult = (Tensor(np.einsum('ij,kj->ik', a, a)), Tensor(np.einsum('ij->j', a)))",
    "scatter_non_aliasing_add": "p = ms.Parameter(Tensor([1.0, 2.0, 3.0, 4.0]), name='p')\ny = ops.ScatterNdAdd()(p, Tensor(np.array([[0], [2], [0]], np.int32)), Tensor([5.0, 6.0, 7.0]))\nresult = (y, p.value())",
    "zero_": _X + "x = ops.zeros_like(x)\nresult = (x, x)",
    "inplace_sigmoid": _X + "x = ops.sigmoid(x)\nresult = (x, x)",
    "move_to": _X + "result = x",
}

OPTIONS = {
    "gatherv2": {"why": "in PyNative the CPU wheel hands GatherV2's three inputs to Gather, which takes four"},
    "splitv": {"why": "the CPU wheel has no SplitV kernel (Unsupported op [SplitV] on CPU)"},
    "splitv_minus_one": {"why": "the CPU wheel has no SplitV kernel (Unsupported op [SplitV] on CPU)"},
    "lerp_scalar": {"why": "the CPU wheel has no LerpScalar kernel"},
    "fills_prim": {"why": "the CPU wheel has no Fills kernel"},
    "confusion_matrix": {"why": "the CPU wheel has no ConfusionMatrix kernel; counted with numpy"},
    "confusion_matrix_weights": {"why": "the CPU wheel has no ConfusionMatrix kernel; summed with numpy"},
    "dropout_do_mask": {"why": "the CPU wheel has no DropoutDoMask kernel; the mask's bits (lowest first) unpacked "
                                "with numpy"},
    "float_status": {"why": "the CPU wheel has no FloatStatus kernel; its documented answer: [1.] when any "
                            "element is inf or nan, [0.] otherwise"},
    "move_to_prim": {"why": "the CPU wheel has no MoveTo kernel; to the CPU it is the identity"},
    "clamp_": {"why": "the CPU wheel has no InplaceClampScalar kernel"},
    "fills": {"why": "the CPU wheel has no Fills kernel"},
    "type_as": {"why": "the CPU wheel has no TypeAs kernel"},
    "einsum_ext": {"why": "einsum_ext only supports Ascend in the wheel (and its Einsum has no CPU kernel): numpy's einsum"},
    "scatter_non_aliasing_add": {"why": "the CPU wheel has no ScatterNonAliasingAdd kernel; ScatterNdAdd does the same"},
    "log_softmax_ext": {"why": "the CPU wheel has no LogSoftmaxExt kernel", "atol": 1e-5},
    "log_softmax_ext_dim0": {"why": "the CPU wheel has no LogSoftmaxExt kernel", "atol": 1e-5},
    "expand_int64": {"message": True},
    "arg_handler_invalid": {"message": True},
    "array_reduce": {"differs": "the wheel has no evaluator for array_reduce (\"Operator 'array_reduce' is invalid\", "
                                "in a graph too); mskernel folds the axes with the function",
                     "oracle": "result = as_tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32).sum(0))"},
    "array_to_scalar": {"why": "the CPU wheel has no array_to_scalar kernel (Unsupported op [array_to_scalar] on CPU)"},
    "dynamic_shape": {"differs": "the wheel has no evaluator for DynamicShape (\"Operator 'DynamicShape' is invalid\", "
                                 "in a graph too); mskernel gives the shape as an int64 Tensor, as ops.shape's "
                                 "Tensor form (its deprecation note points to ops.shape)",
                      "oracle": "result = as_tensor(np.array([2, 3], np.int64))"},
    "environ": {"differs": "the wheel's graph has no evaluator for EnvironGet (\"Operator 'EnrironGet' is invalid\"); "
                           "mskernel gives the value bound to the key",
                "oracle": "result = as_tensor(np.array([2.0], np.float32))"},
    "grad_class_same_tensor_twice": {"differs": "the wheel identifies a gradient's inputs by object, so one Tensor "
                                                "passed twice gets the sum of both gradients at each position "
                                                "(3x^2 for x*x*x); mskernel differentiates each argument position",
                                     "oracle": "x = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)\n"
                                               "result = (as_tensor(2 * x * x), as_tensor(x * x))"},
    "grad_class_int_position": {"message": True},
    "scalar_to_array": {"differs": "the wheel has no evaluator for ScalarToArray (\"Operator 'ScalarToArray' is invalid\", in "
                                   "a graph too); mskernel makes the 0-d Tensor its deprecation note points to "
                                   "(scalar_to_tensor)",
                        "oracle": "result = (as_tensor(np.asarray(2.5, np.float32)), as_tensor(np.asarray(3, np.int64)))"},
    "scalar_to_array_prim": {"differs": "the wheel has no evaluator for ScalarToArray (\"Operator 'ScalarToArray' is "
                                        "invalid\"); mskernel makes the 0-d Tensor",
                             "oracle": "result = as_tensor(np.asarray(1.5, np.float32))"},
    "zero_": {"why": "the CPU wheel has no InplaceZero kernel"},
    "inplace_sigmoid": {"why": "the CPU wheel has no InplaceSigmoid kernel"},
    "move_to": {"why": "the CPU wheel has no MoveTo kernel; to the CPU it is the identity"},
    "fills_int64": {"message_parts": ["For primitive[Fills], the input argument[x] must be a type of",
                                      "but got Tensor[Int64]"], "why": "the set of accepted dtypes is printed"},
    "scatter_non_aliasing_add_int64": {"message": True},
    "tensor_dump_empty": {"message": True},
    "tensordump_bad_mode": {"message": True},
    "tensordump_bad_mode2": {"message": True},
    "tensordump_bad_tensor": {"message": True},
}
