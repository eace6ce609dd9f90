"""nn wrappers: TrainOneStepCell, loss scaling cells, ForwardValueAndGrad, LossBase (values checked by hand)."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


class Lin(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")

    def construct(self, x):
        return (self.w * x).sum()


class Sgd(nn.Cell):
    def __init__(self, params, lr=0.5):
        super().__init__()
        self.parameters = ms.ParameterTuple(params)
        self.lr = lr
        self.calls = 0

    def construct(self, grads):
        self.calls += 1
        for p, g in zip(self.parameters, grads):
            p.set_data(p - self.lr * g)
        return True


def test_train_one_step_updates_and_returns_loss():
    net = Lin()
    step = nn.TrainOneStepCell(net, Sgd(net.trainable_params()))
    loss = step(ms.Tensor(np.array([2.0, 1.0], np.float32)))
    assert float(loss.asnumpy()) == 0.0
    np.testing.assert_allclose(net.w.asnumpy(), [0.0, -2.5])
    assert [p.name for p in step.weights] == ["w"]


def test_train_one_step_sens_scales_gradients():
    net = Lin()
    _, grads = nn.TrainOneStepCell(net, Sgd(net.trainable_params(), 0.0), sens=3.0, return_grad=True)(
        ms.Tensor(np.array([2.0, 1.0], np.float32)))
    np.testing.assert_allclose(grads["w"].asnumpy(), [6.0, 3.0])


def test_train_one_step_errors():
    net = Lin()
    with pytest.raises(ValueError, match="'sens' can not be 0"):
        nn.TrainOneStepCell(net, Sgd(net.trainable_params()), sens=0)
    with pytest.raises(TypeError, match="optimizer"):
        nn.TrainOneStepCell(net, object())
    with pytest.raises(TypeError, match="network"):
        nn.TrainOneStepCell(lambda x: x, Sgd(net.trainable_params()))


def test_with_grad_cell_and_forward_value_and_grad():
    net = Lin()
    x = ms.Tensor(np.array([2.0, 1.0], np.float32))
    (g,) = nn.WithGradCell(net)(x)
    np.testing.assert_allclose(g.asnumpy(), [2.0, 1.0])
    loss, (gw,) = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)(x)
    assert float(loss.asnumpy()) == 0.0
    np.testing.assert_allclose(gw.asnumpy(), [2.0, 1.0])
    with pytest.raises(TypeError, match="must be cell, function type or method type"):
        nn.ForwardValueAndGrad(3)


def test_loss_scale_cell_skips_overflowing_step_and_adjusts_scale():
    net = Lin()
    opt = Sgd(net.trainable_params(), 1.0)
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2, scale_window=1)
    step = nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=upd)
    loss, overflow, scale = step(ms.Tensor(np.array([np.inf, 1.0], np.float32)))
    assert bool(overflow.asnumpy()) and opt.calls == 0
    assert float(scale.asnumpy()) == 4.0
    np.testing.assert_allclose(net.w.asnumpy(), [1.0, -2.0])
    loss, overflow, scale = step(ms.Tensor(np.array([1.0, 1.0], np.float32)))
    assert not bool(overflow.asnumpy()) and opt.calls == 1
    np.testing.assert_allclose(net.w.asnumpy(), [0.0, -3.0])  # gradients unscaled before the update
    assert float(scale.asnumpy()) == 8.0


def test_loss_scale_cell_errors_and_fixed_scale():
    net = Lin()
    with pytest.raises(ValueError, match=r"shape of 'scale_sense' must be \(1,\) or \(\)"):
        nn.TrainOneStepWithLossScaleCell(net, Sgd(net.trainable_params()), ms.Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="must be Cell or Tensor"):
        nn.TrainOneStepWithLossScaleCell(net, Sgd(net.trainable_params()), 2.0)
    step = nn.TrainOneStepWithLossScaleCell(net, Sgd(net.trainable_params()), nn.FixedLossScaleUpdateCell(4.0))
    with pytest.raises(TypeError, match="'sens' must be Tensor"):
        step.set_sense_scale(2.0)
    _, _, scale = step(ms.Tensor(np.array([1.0, 1.0], np.float32)))
    assert float(scale.asnumpy()) == 4.0


def test_loss_base_reductions_and_dtype():
    class L(nn.wrap.LossBase):
        def construct(self, x, w=1.0):
            return self.get_loss(x, w)
    x = ms.Tensor(np.array([[1, 2], [3, 5]], np.float16))
    out = L()(x)
    assert out.dtype == ms.float16 and float(out.asnumpy()) == 2.75
    assert L("none")(x).shape == (2, 2)
    with pytest.raises(ValueError, match="'reduction' must be in"):
        L("max")
