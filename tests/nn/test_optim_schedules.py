"""AdamWeightDecay/RMSProp/Adagrad/LARS and the learning-rate schedules: behaviour the goldens cannot show
(LARS, which the CPU wheel cannot run; optimizers driven by schedules inside Model-style loops) and error paths."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


def _param(values, name="w"):
    return ms.Parameter(ms.Tensor(np.asarray(values, np.float32)), name=name)


def test_lars_scales_the_gradient_by_the_trust_ratio_and_leaves_filtered_parameters_alone():
    w, b = _param([3.0, 4.0]), _param([1.0], "bias")
    opt = nn.LARS(nn.SGD([w, b], learning_rate=1.0, weight_decay=0.5), coefficient=0.1)
    g = np.array([0.0, 10.0], np.float32)
    opt((ms.Tensor(g), ms.Tensor([2.0])))
    trust = 0.1 * 5.0 / (10.0 + 0.5 * 5.0 + 1e-5)
    np.testing.assert_allclose(w.asnumpy(), [3.0, 4.0] - trust * (g + 0.5 * np.array([3.0, 4.0])), rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), [-1.0])  # 'bias' is filtered out: a plain SGD step, no decay


def test_lars_clip_and_learning_rate_access():
    w = _param([3.0, 4.0])
    opt = nn.LARS(nn.Momentum([w], learning_rate=0.01, momentum=0.0), coefficient=1.0, use_clip=True)
    opt((ms.Tensor([0.0, 1.0]),))
    np.testing.assert_allclose(w.asnumpy(), [3.0, 4.0 - 0.01 * 1.0], rtol=1e-6)  # min(trust / lr, 1) = 1
    assert float(opt.get_lr().asnumpy()) == pytest.approx(0.01)
    with pytest.raises(TypeError, match="must be an Optimizer"):
        nn.LARS(object())


def test_schedule_driven_optimizer_uses_the_rate_of_each_step():
    w = _param([0.0])
    opt = nn.SGD([w], learning_rate=nn.WarmUpLR(1.0, 2))
    for _ in range(3):
        opt((ms.Tensor([1.0]),))
    np.testing.assert_allclose(w.asnumpy(), [-(0.0 + 0.5 + 1.0)])
    assert "learning_rate" not in [n for n, _ in opt.parameters_and_names()]


def test_list_rates_and_group_rates_are_parameters_named_as_mindspore():
    w, b = _param([1.0]), _param([1.0], "b")
    names = [n for n, _ in nn.Adagrad([w], learning_rate=[0.1, 0.2]).parameters_and_names()]
    assert "learning_rate.learning_rate" in names
    names = [n for n, _ in nn.RMSProp([{"params": [w]}, {"params": [b], "lr": 0.5}], 0.1).parameters_and_names()]
    assert {"learning_rate", "learning_rate_group_1"} <= set(names)


def test_schedules_keep_the_step_shape_and_dtype():
    out = nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0)(ms.Tensor(np.array([[0, 2], [4, 8]], np.int32)))
    assert out.shape == (2, 2) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [[0.1, 0.055], [0.01, 0.01]], rtol=1e-6)


ERRORS = [
    (lambda: nn.CosineDecayLR(0.1, 0.01, 4), ValueError, "'max_lr' must be greater than the 'min_lr'"),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError, "'decay_steps' must be int and must > 0, but got '0'"),
    (lambda: nn.ExponentialDecayLR("0.1", 0.9, 2), TypeError, "'learning_rate' must be a number"),
    (lambda: nn.PolynomialDecayLR(0.1, -0.01, 4, 1.0), ValueError, "'end_learning_rate' must be greater than"),
    (lambda: nn.WarmUpLR(0.1, 0), ValueError, "'warmup_steps' must be int and must > 0, but got '0'"),
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1]), ValueError, "the size of 'milestone' must be same"),
    (lambda: nn.piecewise_constant_lr([5, 2], [0.1, 0.2]), ValueError, "sorted list of increasing ints"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1), ValueError, "'total_step' must be int and must > 0"),
    (lambda: nn.cosine_decay_lr(0.2, 0.1, 4, 1, 1), ValueError, "'max_lr' must be greater"),
    (lambda: nn.warmup_lr(0.1, 4, 1, 0), ValueError, "'warmup_epoch' must be int and must > 0, but got '0'"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 6.0, 2, 2), TypeError, "The 'total_step' must be int, but got 'float'"),
    (lambda: nn.AdamWeightDecay([_param([1.0])], beta1=1.0), ValueError, "'beta1' must be in range"),
    (lambda: nn.AdamWeightDecay([_param([1.0])], eps=0.0), ValueError, "'eps' must be greater than 0"),
    (lambda: nn.RMSProp([_param([1.0])], epsilon=0.0), ValueError, "'epsilon' must be greater than 0"),
    (lambda: nn.RMSProp([_param([1.0])], momentum=-1.0), ValueError, "must be at least 0"),
    (lambda: nn.Adagrad([_param([1.0])], accum=-0.1), ValueError, "'accum' must be at least 0"),
    (lambda: nn.Adagrad([_param([1.0])], weight_decay=-1.0), ValueError,
     "'weight_decay' must be float and must >= 0, but got '-1.0'"),
]


@pytest.mark.parametrize("call, exc, text", ERRORS, ids=[e[2][:30] for e in ERRORS])
def test_errors(call, exc, text):
    with pytest.raises(exc, match=text):
        call()
