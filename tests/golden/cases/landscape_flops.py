"""FlopsUtilizationCollector (the FLOPs line it prints in GRAPH_MODE: MatMul/BatchMatMul/Conv2D forward and
backward of one step; the per-step timing lines are left out, they are timings) and SummaryLandscape (the loss
landscape computed from the weights a SummaryCollector saved: grid, path and convergence point, and the tags
and shapes of the summary it writes)."""
# ruff: noqa: E501
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _protobuf_wire import WIRE  # noqa: E402  (the wire format and the event-file framing, shared)

_FLOPS = """
import io, contextlib
import mindspore.dataset as ds
from mindspore.train import Model, FlopsUtilizationCollector

def flops_lines(net, x, y, loss=None, batch=None, epochs=1, mode=0, **kw):
    ms.set_context(mode=mode)
    try:
        d = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(batch or x.shape[0] // 2)
        crit = loss or nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        model = Model(net, crit, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            model.train(epochs, d, callbacks=[FlopsUtilizationCollector(d.get_dataset_size(), **kw)],
                        dataset_sink_mode=False)
        lines = buf.getvalue().splitlines()
        return [l for l in lines if 'flops is' in l], sum(l.startswith('Train per step time: ') and ' mfu:' in l for l in lines)
    finally:
        ms.set_context(mode=1)

rng = np.random.default_rng(0)
def data(shape, classes, n):
    return rng.random(shape, dtype=np.float32), rng.integers(0, classes, (n,)).astype(np.int32)
"""

CASES = {
    "flops_dense": _FLOPS + "result = flops_lines(nn.Dense(10, 5), *data((64, 10), 5, 64))",
    "flops_dense_computility": _FLOPS + "result = flops_lines(nn.Dense(10, 5), *data((64, 10), 5, 64), computility=10e6)",
    "flops_dense_shard_only": _FLOPS + "result = flops_lines(nn.Dense(10, 5, has_bias=False), *data((16, 10), 5, 16), full_flops=False)",
    "flops_dense_stack": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Dense(10, 7), nn.ReLU(), nn.Dense(7, 5)]), *data((64, 10), 5, 64))",
    "flops_dense_stack3_epochs": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Dense(10, 7), nn.ReLU(), nn.Dense(7, 6), nn.Dense(6, 5)]), *data((60, 10), 5, 60), batch=20, epochs=2)",
    "flops_conv_dense": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Conv2d(3, 4, 3, pad_mode='valid'), nn.Flatten(), nn.Dense(4 * 6 * 6, 5)]), *data((8, 3, 8, 8), 5, 8))",
    "flops_conv_stack": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Conv2d(3, 4, 3, pad_mode='same', has_bias=True), nn.ReLU(), nn.Conv2d(4, 2, 3, stride=2, pad_mode='pad', padding=1), nn.Flatten(), nn.Dense(2 * 4 * 4, 5)]), *data((8, 3, 8, 8), 5, 8))",
    "flops_conv_grouped_dilated": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Conv2d(4, 6, 3, pad_mode='valid'), nn.Conv2d(6, 4, 2, group=2, dilation=2, pad_mode='valid'), nn.Flatten(), nn.Dense(4 * 6 * 6, 3)]), *data((6, 4, 10, 10), 3, 6), batch=3)",
    "flops_conv_mse": _FLOPS + "result = flops_lines(nn.SequentialCell([nn.Conv2d(3, 4, 3, pad_mode='valid'), nn.Flatten()]), rng.random((8, 3, 5, 5), dtype=np.float32), rng.random((8, 36), dtype=np.float32), loss=nn.MSELoss())",
    "flops_batch_matmul": _FLOPS + """
class BMM(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.full((4, 4, 5), 0.1, np.float32)), name='w')
        self.bmm = ops.BatchMatMul()
        self.bmm_t = ops.BatchMatMul(transpose_b=True)
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(8, 5)
    def construct(self, x):
        h = self.bmm(x, self.w)
        return self.dense(self.flatten(self.bmm_t(h, self.w)))
result = flops_lines(BMM(), rng.random((8, 2, 4), dtype=np.float32), rng.integers(0, 5, (8,)).astype(np.int32))
""",
    "flops_dataset_sink": _FLOPS + """
ms.set_context(mode=0)
try:
    d = ds.NumpySlicesDataset({"x": np.ones((64, 10), np.float32), "y": np.zeros((64,), np.int32)}, shuffle=False).batch(16)
    net = nn.Dense(10, 5)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean'), nn.Momentum(net.trainable_params(), 0.01, 0.9)).train(2, d, callbacks=[FlopsUtilizationCollector(4)], dataset_sink_mode=True)
    lines = buf.getvalue().splitlines()
    result = [l for l in lines if 'flops is' in l], sum(l.startswith('Train per step time: ') for l in lines)
finally:
    ms.set_context(mode=1)
""",
    "flops_ma_collector_files": _FLOPS + """
import os, tempfile
log_dir = tempfile.mkdtemp()
os.environ['MA_LOG_DIR'] = log_dir
try:
    printed = flops_lines(nn.Dense(10, 5), *data((16, 10), 5, 16), enable_ma_collector=True)
finally:
    del os.environ['MA_LOG_DIR']
files = sorted(os.listdir(log_dir))
flops = [l.rsplit(' ', 1)[0] for l in open(os.path.join(log_dir, 'flops_rank_0.txt')).read().splitlines()]
steps = [l.split(' ')[0] for l in open(os.path.join(log_dir, 'time_step_rank_0.txt')).read().splitlines()]
result = printed, files, flops, steps
""",
    "flops_pynative_raises": _FLOPS + "result = flops_lines(nn.Dense(10, 5), *data((8, 10), 5, 8), mode=1)",
    "flops_pynative_quiet": _FLOPS + "result = flops_lines(nn.Dense(10, 5), *data((8, 10), 5, 8), mode=1, enable_ma_collector=True, computility=1)",
    "flops_error_data_size_zero": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(0)",
    "flops_error_data_size_negative": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(-3)",
    "flops_error_data_size_float": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(1.5)",
    "flops_error_data_size_bool": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(True)",
    "flops_error_data_size_str": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector('2')",
    "flops_error_full_flops": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(2, full_flops=1)",
    "flops_error_ma_collector": "from mindspore.train import FlopsUtilizationCollector\nFlopsUtilizationCollector(2, enable_ma_collector='x')",
    "flops_attributes": "from mindspore.train import FlopsUtilizationCollector\nc = FlopsUtilizationCollector(4, computility=2, enable_ma_collector=True)\nd = FlopsUtilizationCollector(4, computility=1, enable_ma_collector=True)\nresult = (c.verbose, d.verbose, c.data_size, c.computility, c.full_flops, c.ma, c.mfu_calculated, c.batch_step_size)",
}

_LAND = """
import io, os, json, struct, shutil, tempfile, contextlib
import mindspore.dataset as ds
from mindspore.train import Model, Loss, SummaryCollector, SummaryLandscape
""" + WIRE + """
def _ints(parts):
    vals = []
    for wire, v in parts:
        if wire == 0:
            vals.append(v)
        else:
            j = 0
            while j < len(v):
                x, j = _varint(v, j); vals.append(x)
    return vals

def _floats(parts):
    vals = []
    for wire, v in parts:
        vals.extend(struct.unpack('<%df' % (len(v) // 4), v))
    return vals

def _tensor(b):
    f = _wire_fields(b)
    dims = _ints(f.get(1, []))
    vals = np.array(_floats(f.get(3, [])), np.float32).reshape(dims)
    return {'dims': dims, 'data_type': _ints(f.get(2, [(0, 0)]))[-1], 'values': vals}

def _point(b):
    f = _wire_fields(b)
    return {axis: _tensor(f[n][-1][1]) for n, axis in ((1, 'x'), (2, 'y'), (3, 'z')) if n in f}

def _landscape(b):
    f = _wire_fields(b)
    out = {'landscape': _point(f[1][-1][1])}
    if 2 in f:
        p = _wire_fields(f[2][-1][1])
        out['path'] = {'intervals': _ints(p.get(1, [])), 'points': _point(p[2][-1][1])}
    m = _wire_fields(f[3][-1][1])
    out['metadata'] = (m[1][-1][1].decode(), m[2][-1][1].decode(), _ints(m.get(3, [(0, 0)]))[-1])
    out['convergence'] = _point(f[4][-1][1])
    return out

def read_landscapes(folder):
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith('_MS'):
            continue
        for record in _records(open(os.path.join(folder, name), 'rb').read()):
            ev = _wire_fields(record)
            step = _ints(ev.get(2, [(0, 0)]))[-1]
            for _, summ in ev.get(5, []):
                for _, val in _wire_fields(summ).get(1, []):
                    vf = _wire_fields(val)
                    if 10 in vf:
                        found.append((step, vf[1][-1][1].decode(), _landscape(vf[10][-1][1])))
    return found

X = np.linspace(-1, 1, 32 * 4, dtype=np.float32).reshape(32, 4) ** 3 + np.tile(np.linspace(0, 0.5, 4, dtype=np.float32), (32, 1))
Y = (np.arange(32) % 3).astype(np.int32)

def dense_net():
    return nn.Dense(4, 3, weight_init=Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)), bias_init='zeros')

def dataset(x=None, y=None, batch=4):
    return ds.NumpySlicesDataset({"x": X if x is None else x, "y": Y if y is None else y}, shuffle=False).batch(batch)

LOSS = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

def train(folder, landscape, make_net=dense_net, epochs=1, data=dataset, lr=0.1):
    net = make_net()
    model = Model(net, LOSS, nn.Momentum(net.trainable_params(), lr, 0.9))
    sc = SummaryCollector(folder, collect_specified_data={"collect_landscape": landscape})
    model.train(epochs, data(), callbacks=[sc], dataset_sink_mode=False)

def saved(folder):
    meta = json.load(open(os.path.join(folder, 'ckpt_dir', 'train_metadata.json')))
    meta['model_params_file_map'] = {k: os.path.basename(v) for k, v in meta['model_params_file_map'].items()}
    return meta, sorted(os.listdir(os.path.join(folder, 'ckpt_dir')))

def generate(folder, make_net=dense_net, data=dataset, seed=1, **kw):
    def callback_fn():
        net = make_net()
        metrics = {"Loss": Loss()}
        return Model(net, LOSS, metrics=metrics), net, data(), metrics
    out = tempfile.mkdtemp()
    np.random.seed(seed)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        SummaryLandscape(folder).gen_landscapes_with_multi_process(callback_fn, output=out, **kw)
    found = read_landscapes(out)
    shutil.rmtree(out)
    lines = buf.getvalue().splitlines()
    return found, [l.rsplit(' is ', 1)[0] for l in lines], [float(l.rsplit(' is ', 1)[1].rstrip('.')) for l in lines if ' loss is ' in l]

folder = tempfile.mkdtemp()
"""

_STEPS = '{"landscape_size": 4, "unit": "step", "create_landscape": {"train": True, "result": True}, "num_samples": 16, "intervals": [[1, 2, 3, 4, 5], [4, 5, 6]]}'

CASES.update({
    "landscape_saved_by_collector": _LAND + f"train(folder, {_STEPS})\nresult = saved(folder)",
    "landscape_pca_and_random": _LAND + f"train(folder, {_STEPS})\nresult = generate(folder, device_ids=[0])",
    "landscape_unit_epoch": _LAND + "train(folder, {'landscape_size': 3, 'unit': 'epoch', 'create_landscape': {'train': True, 'result': False}, 'num_samples': 8, 'intervals': [[1, 2, 3, 4]]}, epochs=4, lr=0.05)\nresult = saved(folder), generate(folder, device_ids=[3])",
    "landscape_random_only_override": _LAND + f"train(folder, {_STEPS})\nresult = generate(folder, device_ids=[0], seed=5, collect_landscape={{'landscape_size': 5, 'create_landscape': {{'train': False, 'result': True}}, 'num_samples': 8}}), saved(folder)",
    "landscape_override_intervals": _LAND + f"train(folder, {_STEPS})\nresult = generate(folder, device_ids=[7], collect_landscape={{'landscape_size': 3, 'intervals': [[2, 3, 4, 6]], 'create_landscape': {{'train': True, 'result': False}}}}), saved(folder)",
    "landscape_conv_batchnorm": _LAND + """
def conv_net():
    net = nn.SequentialCell([nn.Conv2d(1, 2, 3, pad_mode='valid', weight_init='ones', has_bias=True, bias_init='zeros'), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Dense(2 * 2 * 2, 3, weight_init=Tensor(np.linspace(-0.5, 0.5, 24, dtype=np.float32).reshape(3, 8)), bias_init='zeros')])
    return net
CX = np.linspace(-1, 1, 16 * 16, dtype=np.float32).reshape(16, 1, 4, 4) ** 2
def conv_data():
    return dataset(CX, (np.arange(16) % 3).astype(np.int32), batch=4)
train(folder, {'landscape_size': 3, 'unit': 'step', 'create_landscape': {'train': True, 'result': True}, 'num_samples': 8, 'intervals': [[1, 2, 3, 4]]}, make_net=conv_net, data=conv_data, lr=0.05)
result = saved(folder), generate(folder, make_net=conv_net, data=conv_data, device_ids=[0])
""",
    "landscape_default_collector": _LAND + """
net = dense_net()
Model(net, LOSS, nn.Momentum(net.trainable_params(), 0.1, 0.9)).train(1, dataset(), callbacks=[SummaryCollector(folder)], dataset_sink_mode=False)
result = saved(folder)
""",
    "landscape_error_device_ids_none": _LAND + f"train(folder, {_STEPS})\ngenerate(folder)",
    "landscape_error_device_ids_int": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=0)",
    "landscape_error_device_ids_range": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[8])",
    "landscape_error_device_ids_type": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=['a'])",
    "landscape_error_no_metadata": _LAND + "generate(folder, device_ids=[0])",
    "landscape_error_override_key": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'size': 3}})",
    "landscape_error_override_size": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'landscape_size': 300}})",
    "landscape_error_override_unit": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'unit': 'batch'}})",
    "landscape_error_override_create_one_key": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'create_landscape': {{'train': True}}}})",
    "landscape_error_override_intervals_short": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'intervals': [[1, 2]]}})",
    "landscape_error_override_intervals_float": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'intervals': [[1, 2, 3.0]]}})",
    "landscape_error_override_num_samples": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'num_samples': 1.5}})",
    "landscape_error_interval_not_saved": _LAND + f"train(folder, {_STEPS})\ngenerate(folder, device_ids=[0], collect_landscape={{'intervals': [[1, 2, 30]]}})",
    "landscape_error_collector_unit": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'unit': 'batch', 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_size": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'landscape_size': 2, 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_size_type": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'landscape_size': 4.0, 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_key": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'bad': 1, 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_no_intervals": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'landscape_size': 4}})",
    "landscape_error_collector_interval_short": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'intervals': [[1, 2]]}})",
    "landscape_error_collector_interval_item": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'intervals': [[1, 2, '3']]}})",
    "landscape_error_collector_interval_list": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'intervals': [(1, 2, 3)]}})",
    "landscape_error_collector_create_key": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'create_landscape': {'train': True, 'res': False}, 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_create_value": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'create_landscape': {'train': 1}, 'intervals': [[1, 2, 3]]}})",
    "landscape_error_collector_num_samples": _LAND + "SummaryCollector(folder, collect_specified_data={'collect_landscape': {'num_samples': None, 'intervals': [[1, 2, 3]]}})",
})

OPTIONS = {name: {"message": True} for name in CASES if "error" in name or name == "flops_pynative_raises"}
OPTIONS.update({name: {"rtol": 1e-4, "atol": 1e-5} for name in CASES if name.startswith("landscape_") and "error" not in name})
OPTIONS["landscape_error_no_metadata"] = {"message": True}
