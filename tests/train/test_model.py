"""Model.train/eval/fit/predict driving callbacks, with a small in-memory dataset of our own."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.train import Callback, History, LossMonitor, Model


class Lin(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[1.0], [-1.0]], np.float32)), name="w")

    def construct(self, x):
        return ms.ops.matmul(x, self.w)


class MSE(nn.Cell):
    def construct(self, out, label):
        return ((out - label) ** 2).mean()


class Sgd(nn.Cell):
    def __init__(self, params, lr=0.1):
        super().__init__()
        self.parameters = ms.ParameterTuple(params)
        self.lr = lr

    def construct(self, grads):
        for p, g in zip(self.parameters, grads):
            p.set_data(p - self.lr * g)
        return True


class Rows:
    """A dataset with MindSpore's iterator protocol: one iterator, StopIteration at each epoch's end."""

    def __init__(self, n=3):
        self.x = [np.array([[float(i), 1.0]], np.float32) for i in range(n)]
        self.y = [np.array([[float(i)]], np.float32) for i in range(n)]
        self.resets = 0

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        rows = [(ms.Tensor(a), ms.Tensor(b)) for a, b in zip(self.x, self.y)]

        class It:
            i = 0

            def __iter__(self):
                return self

            def __next__(self):
                if self.i >= len(rows):
                    self.i = 0
                    raise StopIteration
                self.i += 1
                return rows[self.i - 1]
        return It()

    def get_dataset_size(self):
        return len(self.x)

    def reset(self):
        self.resets += 1


def _model(**kw):
    net = Lin()
    return net, Model(net, MSE(), Sgd(net.trainable_params()), **kw)


def test_train_builds_train_one_step_and_prints_loss(capsys):
    net, model = _model()
    assert type(model.train_network).__name__ == "TrainOneStepCell"
    ds = Rows()
    model.train(2, ds, callbacks=LossMonitor(3))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["epoch: 1 step: 3", "epoch: 2 step: 3"]
    assert ds.resets == 2
    assert net.training  # set_train() by build_train_network


def test_steps_epochs_and_stop_request():
    seen = []

    class Stop(Callback):
        def on_train_step_end(self, rc):
            cb = rc.original_args()
            seen.append((cb.cur_epoch_num, cb.cur_step_num, cb.batch_num, cb.mode))
            if cb.cur_step_num == 4:
                rc.request_stop()
    _, model = _model()
    model.train(5, Rows(), callbacks=[Stop()])
    assert seen == [(1, 1, 3, "train"), (1, 2, 3, "train"), (1, 3, 3, "train"), (2, 4, 3, "train")]


def test_eval_fit_history_and_predict(capsys):
    net, model = _model(metrics={"loss", "mae"})
    before = model.eval(Rows())
    assert set(before) == {"loss", "mae"} and all(isinstance(v, float) for v in before.values())
    # by hand: outputs x·w = i - 1 against labels i -> error 1 everywhere
    assert before["mae"] == pytest.approx(1.0) and before["loss"] == pytest.approx(1.0)
    h = History()
    model.fit(2, Rows(), Rows(), callbacks=[h, LossMonitor(0)])
    assert h.epoch == {"epoch": [1, 2]} and sorted(h.history) == ["loss", "mae", "net_output"]
    assert capsys.readouterr().out.count("Eval result: epoch") == 2  # printed at each epoch end of fit
    out = model.predict(ms.Tensor(np.array([[1.0, 1.0]], np.float32)))
    assert out.shape == (1, 1)


def test_loss_fn_needs_two_columns_and_errors():
    _, model = _model()

    class Three(Rows):
        def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
            return iter([(ms.Tensor(self.x[0]), ms.Tensor(self.y[0]), ms.Tensor(self.y[0]))])
    with pytest.raises(ValueError, match="should return two elements, but got 3"):
        model.train(1, Three())
    with pytest.raises(ValueError, match="'metrics' can not be None"):
        model.eval(Rows())
    with pytest.raises(TypeError, match="valid_frequency"):
        model.fit(1, Rows(), valid_frequency="1")
    with pytest.raises(ValueError, match="'eval_indexes' must be a list or None"):
        Model(Lin(), metrics={"acc"}, eval_network=nn.Cell(), eval_indexes=[0])
    with pytest.raises(TypeError, match="must be bool"):
        model.train(1, Rows(), dataset_sink_mode=1)
    with pytest.raises(TypeError, match="types of input data"):
        model.predict([1.0])
    with pytest.raises(TypeError, match="'network' must be Cell"):
        Model(lambda x: x)


def test_sink_mode_runs_step_by_step():
    seen = []

    class Spy(Callback):
        def on_train_step_end(self, rc):
            seen.append((rc.original_args().cur_step_num, rc.original_args().dataset_sink_mode))
    _, model = _model()
    model.train(1, Rows(), callbacks=[Spy()], dataset_sink_mode=True)
    assert seen == [(1, False), (2, False), (3, False)]
