"""Metrics written by users (MindSpore's documented pattern), and the base class's conversions and errors."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.train import Metric, rearrange_inputs


class GapPerRow(Metric):
    """A user metric in the documented shape (clear/update/eval, state of its own, ``update`` not rearranged)."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self.gap = 0.0
        self.rows = 0

    def update(self, *inputs):
        guess, truth = inputs[0].asnumpy(), inputs[1].asnumpy()
        self.gap += float(np.abs(truth - guess).sum())
        self.rows += len(truth)

    def eval(self):
        return self.gap / self.rows


def test_user_metric_without_rearrange_ignores_indexes():
    a = ms.Tensor(np.array([[0.5, 1.0, 2.0], [1.5, 0.0, 1.0]]), ms.float32)
    b = ms.Tensor(np.zeros((2, 3)), ms.float32)
    c = ms.Tensor(np.ones((2, 3)), ms.float32)
    metric = GapPerRow().set_indexes([0, 2])
    metric.update(a, b, c)  # update is not decorated with rearrange_inputs: it sees (a, b), not (a, c)
    assert metric.indexes == [0, 2]
    assert metric.eval() == pytest.approx(float(np.abs(a.asnumpy()).sum()) / 2)


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
