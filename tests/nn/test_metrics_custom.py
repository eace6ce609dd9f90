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
        guess, truth = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self.gap += float(np.abs(truth - guess).sum())
        self.rows += len(truth)

    def eval(self):
        return self.gap / self.rows


class PickedGap(GapPerRow):
    """The same metric with ``update`` rearranged, made without running Metric.__init__."""

    __init__ = GapPerRow.clear
    update = rearrange_inputs(GapPerRow.update)


A = np.array([[0.5, 1.0, 2.0], [1.5, 0.0, 1.0]], np.float32)


def test_user_metric_without_rearrange_ignores_indexes():
    metric = GapPerRow().set_indexes([0, 2])
    metric.update(ms.Tensor(A), np.zeros((2, 3)), [[1.0] * 3] * 2)  # sees (a, b), not (a, c)
    assert metric.indexes == [0, 2]
    assert metric.eval() == pytest.approx(float(np.abs(A).sum()) / 2)


def test_rearranged_update_and_conversions():
    metric = PickedGap()
    assert metric.indexes is None  # no Metric.__init__: the picks read as unset
    with pytest.raises(TypeError, match="must be tensor, list or numpy.ndarray, but got <class 'tuple'>"):
        metric.update((1.0,), [1.0])
    metric.set_indexes([0, 2]).update(ms.Tensor(A), None, [[1.0] * 3] * 2)
    assert metric.eval() == pytest.approx(float(np.abs(1.0 - A).sum()) / 2)


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
