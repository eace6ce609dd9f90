"""FlopsUtilizationCollector (the FLOPs line it prints in GRAPH_MODE: MatMul/BatchMatMul/Conv2D forward and
backward of one step; the per-step timing lines are left out, they are timings) and SummaryLandscape (the loss
landscape computed from the weights a SummaryCollector saved: grid, path and convergence point, and the tags
and shapes of the summary it writes)."""
# ruff: noqa: E501

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

OPTIONS = {name: {"message": True} for name in CASES if "error" in name or name == "flops_pynative_raises"}
