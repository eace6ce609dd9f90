"""The remaining top-level names: bfloat16/float8/int4 tensors (printing, casts, arithmetic, gradients), QuantDtype
and _null, mutable tuples under grad, meta tensors, ReduceLROnPlateau."""
# ruff: noqa: E501
_BF = """
x = Tensor([1.5, 2.25, 3.1], ms.bfloat16)
"""
_TRAIN = """
from mindspore import nn
from mindspore.train import Model, ReduceLROnPlateau
import mindspore.dataset as ds
ms.set_seed(1)
net = nn.Dense(2, 1)
opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
model = Model(net, loss_fn=nn.MSELoss(), optimizer=opt)
data = ds.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.ones((4, 1), np.float32)}, shuffle=False)
"""
_MUT = """
from mindspore import mutable
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
    def construct(self, z):
        return self.matmul(z[0], z[1])
z = mutable((Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=ms.float32),
             Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=ms.float32)))
"""
_HOOKS = """
log = []
def pack_hook(t):
    log.append(("pack", t.asnumpy().tolist()))
    return t * 2
def unpack_hook(t):
    log.append(("unpack", t.asnumpy().tolist()))
    return t
"""

CASES = {
    "bf16_print": _BF + "print(x); print(repr(x)); print(x.dtype, repr(x.dtype))\nresult = x.astype(ms.float32)",
    "bf16_print_2d": "t = Tensor(np.arange(12).reshape(3, 4) / 7, ms.bfloat16)\nprint(t); print(repr(t))\nresult = t.astype(ms.float32)",
    "bf16_print_values": "t = Tensor([-1.5, 100000.0, 1e-5, 1e10, 3.0], ms.bfloat16)\nprint(t); print(repr(t)); print(repr(Tensor(1.5, ms.bfloat16)))\nresult = t.astype(ms.float64)",
    "bf16_print_long": "t = Tensor(np.arange(20, dtype=np.float32) * 1.1, ms.bfloat16)\nprint(t); print(repr(t))",
    "bf16_arith": _BF + "outs = [x + x, x - x * 2, x / (x + 1), -x, x * 2, x + 1.0, x + Tensor([1, 1, 1], ms.int32)]\nprint([str(o.dtype) for o in outs])\nresult = [o.astype(ms.float32) for o in outs]",
    "bf16_promote": _BF + "a = x + Tensor([1.0, 1, 1], ms.float16); b = x + Tensor([1.0, 1, 1], ms.float32)\nresult = [str(a.dtype), str(b.dtype), a, b]",
    "bf16_cast": _BF + "outs = [x.astype(ms.float16), x.astype(ms.int32), x.astype(ms.float64), Tensor([1.1, 2.7]).astype(ms.bfloat16), Tensor([1, 3]).astype(ms.bfloat16)]\nprint(outs[3], outs[4])\nresult = [o if o.dtype != ms.bfloat16 else o.astype(ms.float32) for o in outs]",
    "bf16_method": "t = Tensor(np.array([1.1, 2.2], np.float32)).bfloat16()\nprint(t, t.dtype)\nresult = t.astype(ms.float32)",
    "bf16_grad_mul": _BF + "g = ms.grad(lambda a: a * a)(x)\nprint(g, g.dtype)\nresult = g.astype(ms.float32)",
    "bf16_grad_cast": "g = ms.grad(lambda a: a.astype(ms.bfloat16) * 3)(Tensor([1.0, 2.0]))\nprint(g, g.dtype)\nresult = g",
    "bf16_tolist": _BF + "result = [x.tolist(), x[0].item(), x[1:].astype(ms.float32), ops.cat([x, x]).astype(ms.float32), x.reshape(3, 1).shape]",
    "bf16_parameter": "p = ms.Parameter(Tensor([1.0, 2.0], ms.bfloat16), name='w')\nprint(p, p.dtype)",
    "float8_print": "a = Tensor([1.5, 300.0, -0.1], ms.float8_e4m3fn); b = Tensor([1.5, 300.0, -0.1], ms.float8_e5m2)\nprint(repr(a)); print(repr(b)); print(a.dtype, repr(a.dtype), b.dtype, repr(b.dtype))",
    "int4_print": "t = Tensor([1, 7, -8], ms.qint4x2)\nprint(repr(t)); print(t); print(t.dtype, repr(ms.qint4x2))",
    "dtype_names": "print(ms.bfloat16, repr(ms.bfloat16), ms.hifloat8, repr(ms.hifloat8), ms.bfloat16 == ms.float16)",
    "quant_dtype": "q = ms.QuantDtype\nprint(q.INT8, repr(q.INT8), q.INT8.value(), q.UINT16.value(), len(list(q)), [m.name for m in q][:3])",
    "null": "print(ms._null, repr(ms._null), ms._null == ms._null)",
    "mutable_grad_operation": _MUT + "ms.set_context(mode=ms.GRAPH_MODE)\ntry:\n    result = ops.GradOperation()(Net())(z)\nfinally:\n    ms.set_context(mode=ms.PYNATIVE_MODE)",
    "mutable_type": "from mindspore import mutable\nt = mutable((1, 2)); l = mutable([1, 2], True)\nresult = [isinstance(t, tuple), isinstance(l, list), t == (1, 2), t.__ms_mutable__, l.__ms_dynamic_len__]",
    "swap_tensors": "a = Tensor([1.0, 2.0]); b = Tensor([[1, 2, 3]], ms.int32); ia, ib = id(a), id(b)\nms.swap_tensors(a, b)\nresult = [a, b, id(a) == ia, id(b) == ib]",
    "swap_parameters": "p = ms.Parameter(Tensor([5.0]), name='w'); q = ms.Parameter(Tensor([7.0, 8.0]), name='v')\nms.swap_tensors(p, q)\nresult = [p, q, p.name, q.name]",
    "ckpt_to_safetensors": "import os, tempfile\nd = tempfile.mkdtemp()\nms.save_checkpoint({'w': ms.Parameter(Tensor([1.0, 2.0])), 'b': ms.Parameter(Tensor([3], ms.int32))}, os.path.join(d, 'net.ckpt'))\nms.ckpt_to_safetensors(os.path.join(d, 'net.ckpt'), os.path.join(d, 'out'), name_map={'w': 'weight'})\nfrom safetensors.numpy import load_file\nloaded = load_file(os.path.join(d, 'out', 'net.safetensors'))\nresult = [sorted(os.listdir(os.path.join(d, 'out'))), {k: loaded[k] for k in sorted(loaded)}]",
    "ckpt_convert_bad_path": "ms.ckpt_to_safetensors('/no/such.ckpt')",
    "ckpt_convert_bad_suffix": "import os, tempfile\nd = tempfile.mkdtemp(); f = os.path.join(d, 'x.txt'); open(f, 'w').close()\nms.safetensors_to_ckpt(f)",
    "ckpt_convert_no_rank": "import tempfile\nms.ckpt_to_safetensors(tempfile.mkdtemp())",
    "saved_hooks_mul": _HOOKS + "def f(x, y):\n    with ms.saved_tensors_hooks(pack_hook, unpack_hook):\n        return (x * y * x).sum()\nout, (gx, gy) = ms.value_and_grad(f, grad_position=(0, 1))(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))\nresult = [out, gx, gy, sorted(log)]",
    "saved_hooks_sin": _HOOKS + "def f(x):\n    with ms.saved_tensors_hooks(pack_hook, unpack_hook):\n        return ops.sin(x).sum()\nresult = [ms.grad(f)(Tensor([0.5, 1.0])), log]",
    "saved_hooks_docstring": "def pack_hook(x):\n    print('packing ', x)\n    return x + 1\ndef unpack_hook(x):\n    print('unpacking ', x)\n    return x\ndef forward_fn(x, y):\n    with ms.saved_tensors_hooks(pack_hook, unpack_hook):\n        out = x * y\n    print('forward end')\n    return out\nx = ops.ones(2, dtype=ms.float32)\ny = ops.ones(2, dtype=ms.float32)\nresult = ms.value_and_grad(forward_fn, grad_position=(0, 1))(x, y)",
    "saved_hooks_outside": _HOOKS + "def f(x):\n    with ms.saved_tensors_hooks(pack_hook, unpack_hook):\n        pass\n    return (x * x).sum()\nresult = [ms.grad(f)(Tensor([2.0])), log]",
    "hal_queries": "h = ms.hal\nresult = [h.device_count('CPU'), h.is_available('CPU'), h.is_initialized('CPU'), h.get_device_name(0, 'CPU'), h.get_arch_list(), h.get_device_capability(0, 'CPU'), h.get_device_properties(0, 'CPU')]\nprint(h.memory_summary())",
    "multiprocessing_names": "import mindspore.multiprocessing as mp\nresult = [mp.cpu_count() >= 1, callable(mp.Process), callable(mp.Queue), callable(mp.get_context)]",
    "set_dump_cell": "import warnings\nnet = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])\nwith warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    ms.set_dump(net)\nresult = [net[0].get_flags().get('dump'), net.get_flags().get('dump'), [str(x.message) for x in w]]",
    "set_dump_bad": "ms.set_dump(3)",
    "set_dump_bad_enabled": "ms.set_dump(nn.ReLU(), enabled=1)",
    "mindio": "result = [ms.mindio_preload('net.ckpt'), ms.set_mindio_server_info(8)]",
    "mindio_bad_capacity": "ms.set_mindio_server_info(0)",
    "mindio_bad_name": "ms.mindio_preload(3)",
    "enable_dynamic": "f = ms.enable_dynamic(y=Tensor(shape=[None, 3], dtype=ms.float32))(lambda x, y: x + y)\nresult = f(Tensor([1.0]), Tensor([2.0]))",
    "enable_dynamic_bad": "ms.enable_dynamic(y=3)",
    "device_ctx": "with ms.DeviceCtx('CPU') as c:\n    r = Tensor([1.0]) + 1\nresult = [r, c.name, c.device_id]",
    "device_ctx_bad": "with ms.DeviceCtx('NPU'):\n    pass",
    "device_ctx_bad_id": "with ms.DeviceCtx('CPU', -1):\n    pass",
    "backup_restore_train": _TRAIN + "import os, tempfile\nfrom mindspore.train import BackupAndRestore\nd = tempfile.mkdtemp()\nmodel.train(2, data.batch(2), callbacks=[BackupAndRestore(d, delete_checkpoint=False)], dataset_sink_mode=False)\nsaved = ms.load_checkpoint(os.path.join(d, 'backup.ckpt'))\nnet2 = nn.Dense(2, 1)\nmodel2 = Model(net2, loss_fn=nn.MSELoss(), optimizer=nn.SGD(net2.trainable_params(), 0.0))\ndata2 = ds.NumpySlicesDataset({'x': np.ones((4, 2), np.float32), 'y': np.ones((4, 1), np.float32)}, shuffle=False)\nmodel2.train(1, data2.batch(2), callbacks=[BackupAndRestore(d)], dataset_sink_mode=False)\nresult = [sorted(saved), [net2.weight.asnumpy().tolist() == saved['weight'].asnumpy().tolist()], os.listdir(d)]",
    "backup_bad_freq": "from mindspore.train import BackupAndRestore\nimport tempfile\nBackupAndRestore(tempfile.mkdtemp(), save_freq=0)",
    "backup_bad_freq_type": "from mindspore.train import BackupAndRestore\nimport tempfile\nBackupAndRestore(tempfile.mkdtemp(), save_freq='x')",
    "backup_bad_delete": "from mindspore.train import BackupAndRestore\nimport tempfile\nBackupAndRestore(tempfile.mkdtemp(), delete_checkpoint=1)",
    "request_exit_sigkill": "import signal, tempfile\nfrom mindspore.train import OnRequestExit\nOnRequestExit(directory=tempfile.mkdtemp(), sig=signal.SIGKILL)",
    "request_exit_paths": "import os, tempfile\nfrom mindspore.train import OnRequestExit\nd = tempfile.mkdtemp()\ncb = OnRequestExit(directory=d, file_name='M')\nresult = [os.path.relpath(cb.train_name, d), os.path.relpath(cb.eval_name, d), cb.exit, cb.key]",
    "profiler_files": "import os, tempfile, csv\nfrom mindspore import Profiler\nd = tempfile.mkdtemp()\np = Profiler(output_path=d)\nx = Tensor(np.ones((4, 4), np.float32))\nfor _ in range(3):\n    y = ops.sin(ops.exp(x))\np.analyse()\nsub = [e for e in os.listdir(d) if e.endswith('_ascend_ms')][0]\nfiles = sorted(os.path.relpath(os.path.join(r, f), os.path.join(d, sub)) for r, _, fs in os.walk(os.path.join(d, sub)) for f in fs if not f.endswith('.log'))\nrows = list(csv.reader(open(os.path.join(d, sub, 'FRAMEWORK', 'cpu_op_type_info_0.csv'))))\ndetail = list(csv.reader(open(os.path.join(d, sub, 'FRAMEWORK', 'cpu_op_detail_info_0.csv'))))\nresult = [[f for f in files if f.startswith(('FRAMEWORK/cpu_op', 'ASCEND_PROFILER_OUTPUT/trace'))], rows[0], sorted((r[0], r[1]) for r in rows[1:]), detail[0], sorted((r[0], r[1], r[4]) for r in detail[1:])]",
    "load_segmented": "import os, tempfile\nd = tempfile.mkdtemp()\nms.save_checkpoint({'a': ms.Parameter(Tensor([1.0]))}, os.path.join(d, 'part0.ckpt'))\nms.save_checkpoint({'b': ms.Parameter(Tensor([2.0, 3.0]))}, os.path.join(d, 'part1.ckpt'))\nnet = nn.Dense(1, 1)\np = ms.load_segmented_checkpoints(d)\nresult = {k: p[k] for k in sorted(p)}",
    "load_segmented_bad_type": "ms.load_segmented_checkpoints(3)",
    "load_segmented_bad_dir": "ms.load_segmented_checkpoints('/no/such/dir')",
    "device_context_cpu": "from mindspore import device_context\nresult = [device_context.cpu.device_count(), device_context.cpu.is_available(), device_context.cpu.op_tuning.threads_num(4)]",
    "device_context_bad_threads": "ms.device_context.cpu.op_tuning.threads_num(0)",
    "device_context_bad_threads_type": "ms.device_context.cpu.op_tuning.threads_num('a')",
    "reduce_lr_train": _TRAIN + "cb = ReduceLROnPlateau(monitor='loss', factor=0.5, patience=0, verbose=True, mode='max', min_lr=0.02)\nmodel.train(4, data.batch(2), callbacks=[cb], dataset_sink_mode=False)\nresult = [opt.learning_rate, cb.wait, cb.cooldown_counter]",
    "reduce_lr_cooldown": _TRAIN + "cb = ReduceLROnPlateau(monitor='loss', factor=0.5, patience=1, mode='max', cooldown=1)\nmodel.train(6, data.batch(2), callbacks=[cb], dataset_sink_mode=False)\nresult = [opt.learning_rate, cb.wait, cb.cooldown_counter]",
    "reduce_lr_bad_factor": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(factor=1.5)",
    "reduce_lr_bad_patience": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(patience=-1)",
    "reduce_lr_bad_mode": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(mode='up')",
    "reduce_lr_bad_monitor": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(monitor=3)",
    "reduce_lr_bad_min_delta": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(min_delta='a')",
    "reduce_lr_bad_verbose": "from mindspore.train import ReduceLROnPlateau\nReduceLROnPlateau(verbose=1)",
    "meta_tensor": "# last: the wheel reports its meta copy error at later synchronisations\nd = Tensor(np.ones((2, 1), np.int32), device='meta')\nprint(d.is_meta, d.shape, d.dtype, d.device); print(d); print(repr(d))\nresult = [(d + 1).is_meta, Tensor(np.ones(2)).to('meta').is_meta, Tensor([1.0]).is_meta]",
}

OPTIONS = {name: {"stdout": True} for name in CASES}
OPTIONS["ckpt_convert_no_rank"] = {"message_parts": ["For 'ckpt_to_safetensors', no directories starting with 'rank' found in"],
                                   "why": "the temporary directory's name"}
OPTIONS["ckpt_convert_bad_suffix"] = {"message_parts": ["For safetensors_to_ckpt, the input file must be a .safetensors file, but got /tmp/", "/x.txt"],
                                      "why": "the temporary directory's name"}
for _name in CASES:
    if _name.startswith(("reduce_lr_bad", "ckpt_convert_bad_path", "set_dump_bad", "mindio_bad", "enable_dynamic_bad",
                         "device_ctx_bad", "backup_bad", "request_exit_sigkill",
                         "load_segmented_bad", "device_context_bad")):
        OPTIONS[_name]["message"] = True
# the wheel prints "[pid] Start parsing profiling data: <dir>" (a pid and a time stamp); mskernel's library code
# does not print (it logs), so the files are compared and the text is not
OPTIONS["profiler_files"] = {}
