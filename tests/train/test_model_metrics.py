"""How Model feeds its metrics (eval_indexes, a custom eval network) and runs fit's validation, against numpy."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.train import MAE, Callback, Loss, Model

from tests.train.test_model import Lin, MSE, Rows, Sgd

X = np.array([[float(i), 1.0] for i in range(3)], np.float32)
Y = np.array([[float(i)] for i in range(3)], np.float32)
W = np.array([[1.0], [-1.0]], np.float32)


class Shuffled(nn.Cell):
    """An eval network returning (label, loss, prediction): metrics must find each by eval_indexes."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x, y):
        pred = self.net(x)
        return y, ((pred - y) ** 2).mean(), pred


class PredAndLabel(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x, y):
        return self.net(x), y


def test_eval_indexes_route_loss_and_prediction_label():
    net = Lin()
    model = Model(net, metrics={"mae": MAE(), "loss": Loss()}, eval_network=Shuffled(net), eval_indexes=[1, 2, 0])
    got = model.eval(Rows())
    pred = X @ W
    assert got["mae"] == pytest.approx(float(np.abs(pred - Y).mean()))
    assert got["loss"] == pytest.approx(float(np.mean((pred - Y) ** 2)))


def test_without_eval_indexes_every_metric_gets_all_outputs():
    net = Lin()
    model = Model(net, metrics={"mae": MAE()}, eval_network=PredAndLabel(net))
    assert model.eval(Rows())["mae"] == pytest.approx(float(np.abs(X @ W - Y).mean()))


def test_too_few_outputs_for_eval_indexes():
    net = Lin()
    model = Model(net, metrics={"mae": MAE()}, eval_network=PredAndLabel(net), eval_indexes=[0, 1, 1])
    with pytest.raises(ValueError, match=r"The length of 'outputs' must be >= 3, but got 2"):
        model.eval(Rows())


def test_fit_validates_at_listed_epochs_and_restores_cb_params():
    seen = []

    class Spy(Callback):
        def on_eval_end(self, rc):
            cb = rc.original_args()
            seen.append(("eval", cb.cur_epoch_num, cb.mode, cb.cur_step_num, cb.batch_num))

        def on_train_epoch_end(self, rc):
            cb = rc.original_args()
            seen.append(("epoch", cb.cur_epoch_num, cb.mode, cb.cur_step_num, sorted(cb.get("eval_results", {}))))

    net = Lin()
    model = Model(net, MSE(), Sgd(net.trainable_params()), metrics={"mae"})
    model.fit(3, Rows(), Rows(2), valid_frequency=[2], callbacks=[Spy()])
    assert seen == [("epoch", 1, "train", 3, []),
                    ("eval", 2, "eval", 2, 2),
                    ("epoch", 2, "train", 6, ["eval_loss", "mae"]),
                    ("epoch", 3, "train", 9, [])]


def test_predict_and_eval_put_the_backbone_in_inference_and_train_back():
    net = Lin()
    model = Model(net, MSE(), Sgd(net.trainable_params()), metrics={"mae"})
    model.predict(ms.Tensor(X))
    assert not net.training
    model.train(1, Rows())
    assert net.training
    model.eval(Rows())
    assert not net.training
