"""Metrics: values worked out by hand, accumulation across updates, errors."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


def test_accuracy_accumulates_and_converts_onehot():
    m = nn.Accuracy()
    m.update(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))
    m.update(ms.Tensor(np.array([[0.3, 0.7]], np.float32)), np.array([[0, 1]]))
    assert m.eval() == pytest.approx(2 / 3)
    assert isinstance(m.eval(), float)
    m.clear()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        m.eval()


def test_multilabel_and_value_check():
    m = nn.Accuracy("multilabel")
    assert m(np.array([[1, 0], [1, 1]]), np.array([[1, 0], [0, 1]])) == 0.5
    with pytest.raises(ValueError, match="should be 0 or 1"):
        m(np.array([[2, 0]]), np.array([[1, 0]]))


def test_precision_recall_fbeta_by_hand():
    x = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
    y = np.array([0, 0, 1])
    np.testing.assert_allclose(nn.Precision()(x, y), [0.5, 0.0])
    np.testing.assert_allclose(nn.Recall()(x, y), [0.5, 0.0])
    np.testing.assert_allclose(nn.F1()(x, y), [0.5, 0.0])
    with pytest.raises(TypeError, match="average"):
        p = nn.Precision()
        p.update(x, y)
        p.eval(average=1)
    with pytest.raises(ValueError, match="'beta' must be greater than 0"):
        nn.Fbeta(0)


def test_topk_regression_loss_and_indexes():
    assert nn.TopKCategoricalAccuracy(2)(np.array([[0.5, 0.3, 0.2]]), np.array([1])) == 1.0
    with pytest.raises(TypeError, match="'k' should be int"):
        nn.TopKCategoricalAccuracy(1.0)
    assert nn.MAE()(np.array([[1.0, 2.0]]), np.array([[0.0, 0.0]])) == 3.0
    assert nn.MSE().set_indexes([1, 0])(np.array([0.0]), np.array([3.0])) == 9.0
    loss = nn.Loss()
    loss.update(ms.Tensor(1.0))
    loss.update(np.array([2.0, 4.0]))
    assert loss.eval() == 2.0
    with pytest.raises(ValueError, match="needs 1 input"):
        loss.update(1, 2)
    with pytest.raises(ValueError, match="must be a list"):
        nn.MAE().set_indexes((0, 1))


def test_get_metric_fn_names_and_get_metrics():
    assert type(nn.get_metric_fn("F1")).__name__ == "F1"
    assert "top_5_accuracy" in nn.names()
    with pytest.raises(KeyError, match="not implemented in mskernel"):
        nn.get_metric_fn("dice")
    with pytest.raises(TypeError, match="must be None, dict or set"):
        nn.get_metrics(["acc"])
    with pytest.raises(TypeError, match="must be Metric"):
        nn.get_metrics({"a": 1})
    assert ms.train.Accuracy is nn.Accuracy and ms.Accuracy is nn.Accuracy
