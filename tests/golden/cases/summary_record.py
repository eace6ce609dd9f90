"""SummaryRecord: the events a summary file holds (decoded by a small reader here: the record framing and the
protobuf wire format, with PNG images decoded by PIL), the file's name, and the argument errors."""
# ruff: noqa: E501
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _protobuf_wire import WIRE  # noqa: E402  (the wire format and the event-file framing, shared)
_READER = """
import io, os, re, struct, tempfile
from PIL import Image
""" + WIRE + """
def _d(v): return struct.unpack('<d', v)[0]
def _f(v): return struct.unpack('<f', v)[0]
def _one(f, n, conv, default=None): return conv(f[n][-1]) if n in f else default

def _packed_varints(parts):
    vals = []
    for p in parts:
        if isinstance(p, int):
            vals.append(p); continue
        i = 0
        while i < len(p):
            v, i = _varint(p, i); vals.append(v)
    return vals

def _packed_floats(parts):
    vals = []
    for p in parts:
        vals += [x[0] for x in struct.iter_unpack('<f', p)]
    return vals

def _value(b):
    f = _fields(b)
    tag = f[1][0].decode()
    if 3 in f:
        return (tag, 'scalar', _f(f[3][0]))
    if 8 in f:
        t = _fields(f[8][0])
        return (tag, 'tensor', _packed_varints(t.get(1, [])), _one(t, 2, int), _packed_floats(t.get(3, [])))
    if 9 in f:
        h = _fields(f[9][0])
        buckets = []
        for bk in h.get(1, []):
            bf = _fields(bk)
            buckets.append((_one(bf, 1, _d), _one(bf, 2, _d), _one(bf, 3, int)))
        return (tag, 'histogram', buckets, [_one(h, n, int, 0) for n in (2, 3, 4, 8)],
                [_one(h, n, _d) for n in (5, 6, 7)])
    if 4 in f:
        im = _fields(f[4][0])
        pixels = np.asarray(Image.open(io.BytesIO(im[4][0])).convert('RGB'))
        return (tag, 'image', [_one(im, n, int) for n in (1, 2, 3)], pixels)
    return (tag, 'other')

def read_summary(path):
    events = []
    for body in _records(open(path, 'rb').read()):
        f = _fields(body)
        ev = {'step': _one(f, 2, int, 0)}
        if 3 in f:
            ev['version'] = f[3][0].decode()
        if 5 in f:
            ev['values'] = [_value(v) for v in _fields(f[5][0]).get(1, [])]
        events.append(ev)
    return events

def summary_files(d):
    return sorted(n for n in os.listdir(d) if '.out.events.summary.' in n)

def shape_of_name(name):
    return re.sub(r'summary\\.\\d+\\.\\d+\\.[^.]*?(_|$)', r'summary.T.D.HOST\\1', name)
"""

CASES = {
    "scalar_tensor_histogram": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d) as sr:
    sr.add_value('scalar', 'loss', Tensor(0.5))
    sr.add_value('tensor', 't', Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
    sr.add_value('histogram', 'h', Tensor(np.array([1., 2., 3., 4.5, 7.], np.float32)))
    r1 = sr.record(3)
    sr.add_value('scalar', 'loss', Tensor(np.array([0.25], np.float32)))
    sr.add_value('scalar', 'acc', Tensor(np.array([[7]], np.int32)))
    r2 = sr.record(4)
    r3 = sr.record(5)
    path = sr.log_dir
result = (r1, r2, r3, read_summary(path))
""",
    "file_name": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d, file_prefix="xx_", file_suffix="_yy") as sr:
    empty = os.listdir(d)
    sr.record(1)
    after_empty_record = os.listdir(d)
    sr.add_value('scalar', 'a', Tensor(1.5))
    sr.record(2)
    sr.flush()
    name = os.path.basename(sr.log_dir)
    same_dir = os.path.dirname(sr.log_dir) == os.path.realpath(d)
result = (empty, after_empty_record, shape_of_name(name), same_dir, summary_files(d) == [name],
          read_summary(os.path.join(d, name)))
""",
    "default_names": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(d) as sr:
    sr.add_value('scalar', 'a', Tensor(1.0))
    sr.record(0)
result = shape_of_name(summary_files(d)[0])
""",
    "images": _READER + """
d = tempfile.mkdtemp()
rs = np.random.RandomState(0)
with ms.SummaryRecord(log_dir=d) as sr:
    sr.add_value('image', 'unit', Tensor(rs.rand(2, 3, 4, 5).astype(np.float32)))
    sr.add_value('image', 'grey10', Tensor((rs.rand(10, 1, 3, 2) * 9 - 3).astype(np.float32)))
    sr.add_value('image', 'bytes', Tensor(rs.randint(0, 255, (1, 3, 2, 2)).astype(np.uint8)))
    sr.add_value('image', 'const', Tensor(np.full((1, 3, 2, 2), 4.0, np.float32)))
    sr.add_value('image', 'two_channels', Tensor(np.ones((1, 2, 2, 2), np.float32)))
    sr.record(7)
    path = sr.log_dir
result = read_summary(path)
""",
    "histograms": _READER + """
d = tempfile.mkdtemp()
rs = np.random.RandomState(1)
with ms.SummaryRecord(log_dir=d) as sr:
    sr.add_value('histogram', 'special', Tensor(np.array([1.0, np.nan, np.inf, -np.inf, 2.0, np.nan], np.float32)))
    sr.add_value('histogram', 'const', Tensor(np.full((3, 2), 2.5, np.float32)))
    sr.add_value('histogram', 'ints', Tensor(np.array([1, 5, 9, 2, 2, 3, 8], np.int32)))
    sr.add_value('histogram', 'many', Tensor(rs.randn(1000).astype(np.float32)))
    sr.add_value('histogram', 'mid', Tensor(rs.randn(37).astype(np.float64)))
    sr.add_value('histogram', 'allnan', Tensor(np.array([np.nan, np.nan], np.float32)))
    sr.record(1)
    path = sr.log_dir
result = read_summary(path)
""",
    "tensor_dtypes": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d) as sr:
    sr.add_value('tensor', 'i32', Tensor(np.array([[1, -2], [3, 4]], np.int32)))
    sr.add_value('tensor', 'f16', Tensor(np.array([0.5, 1.25], np.float16)))
    sr.add_value('tensor', 'f64', Tensor(np.array([0.1, 2.0], np.float64)))
    sr.add_value('tensor', 'b', Tensor(np.array([True, False])))
    sr.add_value('tensor', 'u8', Tensor(np.array([200, 3], np.uint8)))
    sr.record(2)
    path = sr.log_dir
result = read_summary(path)
""",
    "mode_filter_and_duplicates": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d) as sr:
    sr.set_mode('eval')
    sr.add_value('scalar', 'x', Tensor(1.0))
    sr.add_value('scalar', 'x', Tensor(2.0))
    sr.add_value('histogram', 'h', Tensor(np.array([1.0, 2.0], np.float32)))
    r1 = sr.record(10, plugin_filter=lambda p: p == 'scalar')
    sr.set_mode('train')
    sr.add_value('histogram', 'h2', Tensor(np.array([1.0, 2.0], np.float32)))
    r2 = sr.record(11, plugin_filter=lambda p: p == 'scalar')
    sr.add_value('tensor', 't', Tensor(np.array([3.0], np.float32)))
    r3 = sr.record(12)
    path = sr.log_dir
result = (r1, r2, r3, read_summary(path))
""",
    "closed": _READER + """
d = tempfile.mkdtemp()
sr = ms.SummaryRecord(log_dir=d)
sr.add_value('scalar', 'x', Tensor(1.0))
sr.record(1)
sr.close()
r = sr.record(2)
sr.flush()
try:
    with sr:
        pass
    entered = 'entered'
except ValueError as e:
    entered = str(e)
again = ms.SummaryRecord(log_dir=d)
again.close()
result = (r, entered, len(read_summary(sr.log_dir)))
""",
    "export_npy": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d, export_options={'tensor_format': 'npy'}) as sr:
    sr.add_value('tensor', 'w/a b', Tensor(np.arange(4, dtype=np.float32)))
    sr.add_value('scalar', 's', Tensor(2.0))
    sr.record(3)
    path = sr.log_dir
exports = sorted(n for n in os.listdir(d) if n.startswith('export_'))
tdir = os.path.join(d, exports[0], 'tensor')
files = sorted(os.listdir(tdir))
result = (len(exports), files, np.load(os.path.join(tdir, files[0])), read_summary(path))
""",
    "one_instance": """
import tempfile
d = tempfile.mkdtemp()
sr = ms.SummaryRecord(log_dir=d)
try:
    ms.SummaryRecord(log_dir=d)
finally:
    sr.close()
""",
    "train_namespace": """
from mindspore.train import SummaryRecord
import tempfile
with SummaryRecord(tempfile.mkdtemp()) as sr:
    result = sr.record(0)
result = (result, SummaryRecord is ms.SummaryRecord)
""",
}

_ERRORS = {
    "prefix_type": "ms.SummaryRecord(log_dir=d, file_prefix=1)",
    "prefix_chars": "ms.SummaryRecord(log_dir=d, file_prefix='a b')",
    "suffix_chars": "ms.SummaryRecord(log_dir=d, file_suffix='-x')",
    "max_file_size_type": "ms.SummaryRecord(log_dir=d, max_file_size='x')",
    "raise_exception_type": "ms.SummaryRecord(log_dir=d, raise_exception=1)",
    "log_dir_type": "ms.SummaryRecord(log_dir=None)",
    "log_dir_blank": "ms.SummaryRecord(log_dir='  ')",
    "export_key": "ms.SummaryRecord(log_dir=d, export_options={'x': 'npy'})",
    "export_format": "ms.SummaryRecord(log_dir=d, export_options={'tensor_format': 'csv'})",
    "bad_mode": "sr.set_mode('x')",
    "bad_plugin": "sr.add_value('foo', 'a', Tensor(1.0))",
    "empty_name": "sr.add_value('scalar', '', Tensor(1.0))",
    "name_not_str": "sr.add_value('scalar', 3, Tensor(1.0))",
    "value_not_tensor": "sr.add_value('scalar', 'a', 1.0)",
    "scalar_not_single": "sr.add_value('scalar', 'a', Tensor([1.0, 2.0]))",
    "image_not_4d": "sr.add_value('image', 'a', Tensor([1.0, 2.0]))",
    "tensor_0d": "sr.add_value('tensor', 'a', Tensor(1.0))",
    "histogram_0d": "sr.add_value('histogram', 'a', Tensor(1.0))",
    "step_float": "sr.record(1.5)",
    "step_bool": "sr.record(True)",
    "train_network_type": "sr.record(1, train_network=3)",
}
for _name, _stmt in _ERRORS.items():
    _uses_sr = _stmt.startswith("sr.")
    CASES[f"error_{_name}"] = (
        "import tempfile\nd = tempfile.mkdtemp()\n"
        + ("sr = ms.SummaryRecord(log_dir=d)\ntry:\n    " + _stmt + "\nfinally:\n    sr.close()\n" if _uses_sr
           else _stmt + "\n")
        + "ms.SummaryRecord(log_dir=d).close()\n")

OPTIONS = {name: {"message": True} for name in CASES if name.startswith("error_") or name == "one_instance"}

_TRAIN = _READER + """
from mindspore.train import Model
import mindspore.dataset as ds
def dense_net(n_in):
    net = nn.Dense(n_in, 1)
    net.weight.set_data(Tensor(np.linspace(-0.5, 0.5, n_in).reshape(1, n_in).astype(np.float32)))
    net.bias.set_data(Tensor(np.array([0.1], np.float32)))
    return net
def train(net, x, y, epochs, **kw):
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss_fn=nn.MSELoss(), optimizer=opt)
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)
    d = tempfile.mkdtemp()
    model.train(epochs, data, callbacks=[ms.SummaryCollector(d, **kw)], dataset_sink_mode=False)
    name = [n for n in summary_files(d) if n.endswith('_MS')]
    return read_summary(os.path.join(d, name[0]))
"""
_XY = "x = np.random.RandomState(3).rand(8, 2).astype(np.float32)\ny = x.sum(1, keepdims=True) * 0.3\n"

CASES.update({
    "collector_every_2_steps": _TRAIN + _XY + "result = train(dense_net(2), x, y, 2, collect_freq=2)\n",
    "collector_default_freq": _TRAIN + _XY + "result = train(dense_net(2), x, y, 3)\n",
    "collector_regular_no_metric": _TRAIN + _XY + """
result = train(dense_net(2), x, y, 1, collect_freq=1,
               collect_specified_data={'collect_metric': False, 'histogram_regular': '^bias'})
""",
    "collector_only_specified": _TRAIN + _XY + """
result = train(dense_net(2), x, y, 1, collect_freq=3, keep_default_action=False,
               collect_specified_data={'collect_metric': True})
""",
    "collector_image_input": _TRAIN + """
x = np.random.RandomState(4).rand(4, 1, 2, 2).astype(np.float32)
y = x.reshape(4, 4).sum(1, keepdims=True)
net = nn.SequentialCell([nn.Flatten(), dense_net(4)])
result = train(net, x, y, 1, collect_freq=1)
""",
    "collector_two_instances": _TRAIN + _XY + """
net = dense_net(2)
model = Model(net, loss_fn=nn.MSELoss(), optimizer=nn.Momentum(net.trainable_params(), 0.05, 0.9))
data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2)
model.train(1, data, callbacks=[ms.SummaryCollector(tempfile.mkdtemp()), ms.SummaryCollector(tempfile.mkdtemp())],
            dataset_sink_mode=False)
""",
})
_COLLECTOR_ERRORS = {
    "freq_zero": "collect_freq=0",
    "freq_float": "collect_freq=1.5",
    "tensor_freq_neg": "collect_tensor_freq=-1",
    "max_file_size_str": "max_file_size='1'",
    "unknown_key": "collect_specified_data={'x': 1}",
    "bad_regular": "collect_specified_data={'histogram_regular': '('}",
    "regular_type": "collect_specified_data={'histogram_regular': 3}",
    "metric_type": "collect_specified_data={'collect_metric': 'yes'}",
    "specified_type": "collect_specified_data=[1]",
    "keep_default_type": "keep_default_action=1",
    "export_key": "export_options={'y': None}",
}
for _name, _kw in _COLLECTOR_ERRORS.items():
    CASES[f"collector_error_{_name}"] = f"import tempfile\nms.SummaryCollector(tempfile.mkdtemp(), {_kw})\n"
CASES["collector_error_dir_type"] = "ms.SummaryCollector(3)\n"
OPTIONS.update({name: {"message": True} for name in CASES if name.startswith("collector_error_")
                or name == "collector_two_instances"})
OPTIONS["error_export_format"] = {
    "message_parts": ['For "SummaryRecord", the export_format {\'csv\'} of "export_options" are unsupported for '
                      "tensor_format, expect the follow values: ["],
    "why": "the wheel lists the allowed values from a set, whose order changes with the process's string hashing"}

CASES.update({
    "summary_operators": _READER + """
d = tempfile.mkdtemp()
with ms.SummaryRecord(log_dir=d) as sr:
    ops.ScalarSummary()('sc', Tensor(0.5))
    ops.TensorSummary()('te', Tensor([1.0, 2.0]))
    ops.HistogramSummary()('hi', Tensor([1.0, 2.0, 4.0]))
    ops.ImageSummary()('im', Tensor(np.ones((1, 3, 2, 2), np.float32) * 0.5))
    sr.add_value('scalar', 'added', Tensor(1.5))
    ops.ScalarSummary()('sc', Tensor(0.75))
    r1 = sr.record(1)
    sr.set_mode('eval')
    ops.ScalarSummary()('kept', Tensor(2.5))
    r2 = sr.record(2)
    sr.set_mode('train')
    r3 = sr.record(3)
    path = sr.log_dir
result = (r1, r2, r3, read_summary(path))
""",
    "summary_operator_in_network": _TRAIN + _XY + """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = dense_net(2)
        self.summary = ops.ScalarSummary()
    def construct(self, x):
        out = self.dense(x)
        self.summary('out_mean', out.mean())
        return out
result = train(Net(), x, y, 1, collect_freq=2)
""",
    "summary_operator_bad_value": """
import tempfile
with ms.SummaryRecord(log_dir=tempfile.mkdtemp()) as sr:
    ops.TensorSummary()('te', Tensor(1.0))
    sr.record(1)
""",
})
OPTIONS["summary_operator_bad_value"] = {"message": True}
