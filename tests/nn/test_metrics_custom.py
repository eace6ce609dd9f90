"""Metrics written by users (MindSpore's documented pattern), and the base class's conversions and errors."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.train import Metric, rearrange_inputs


class MyMAE(Metric):
    """The custom metric of MindSpore's ``Metric`` docs: its own state names, ``update`` not rearranged."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._abs_error_sum = 0
        self._samples_num = 0

    def update(self, *inputs):
        y_pred = inputs[0].asnumpy()
        y = inputs[1].asnumpy()
        self._abs_error_sum += np.abs(y - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self):
        return self._abs_error_sum / self._samples_num


def test_documented_custom_metric_runs():
    x = ms.Tensor(np.array([[0.1, 0.2, 0.6, 0.9], [0.1, 0.2, 0.6, 0.9]]), ms.float32)
    y = ms.Tensor(np.array([[0.1, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1]]), ms.float32)
    y2 = ms.Tensor(np.array([[0.1, 0.25, 0.7, 0.9], [0.1, 0.25, 0.7, 0.9]]), ms.float32)
    metric = MyMAE().set_indexes([0, 2])
    metric.clear()
    metric.update(x, y, y2)  # update is not decorated: the indexes do not apply
    expected = np.abs(y.asnumpy() - x.asnumpy()).sum() / 2
    assert metric.eval() == pytest.approx(float(expected)) and metric.indexes == [0, 2]


def test_subclass_without_base_init_and_convert_data():
    class Mean(Metric):
        def __init__(self):  # no super().__init__(): indexes still read as None
            self.clear()

        def clear(self):
            self.total, self.n = 0.0, 0

        @rearrange_inputs
        def update(self, *inputs):
            values = self._convert_data(inputs[0])
            self.total += float(values.sum())
            self.n += values.size

        def eval(self):
            return self.total / self.n

    m = Mean()
    assert m.indexes is None
    assert m([1.0, 2.0, 6.0]) == 3.0
    with pytest.raises(TypeError, match="must be tensor, list or numpy.ndarray, but got <class 'tuple'>"):
        m.update((1.0,))
    assert m.set_indexes([1])(None, ms.Tensor([4.0])) == 4.0


def test_loss_metric_shapes_and_empty():
    loss = nn.Loss()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        loss.eval()
    with pytest.raises(ValueError, match="must be 1, but got 2"):
        loss.update(np.ones((2, 2)))
    loss.update(np.array(3.0))  # a 0-d loss counts as one value
    loss.update([1.0, 2.0, 3.0])
    assert loss.eval() == pytest.approx((3.0 + 2.0) / 2)
    mae = nn.MAE()
    with pytest.raises(RuntimeError, match="'MAE' can not be calculated"):
        mae.eval()
    mae.update(np.array([[1.0], [2.0]]), np.array([1.5, 4.0]))  # labels reshaped to the predictions
    assert mae.eval() == pytest.approx((0.5 + 2.0) / 2)
