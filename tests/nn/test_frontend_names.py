"""Front-end names every MindSpore file imports: jit, mutable, initializers, dynamic-shape
placeholders with Cell.set_inputs, integer Parameters, init_parameters_data."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.common.initializer import (Constant, HeNormal, HeUniform, Normal, One, TruncatedNormal, Uniform,
                                         XavierUniform, Zero, initializer)


# ---------------------------------------------------------------- jit and mutable
def test_jit_every_form_runs_eagerly_and_keeps_gradients() -> None:
    @ms.jit
    def bare(x):
        return x * x

    @ms.jit(capture_mode="ast", jit_level="O1", dynamic=1)
    def with_options(x):
        return x * 3

    functional = ms.jit(lambda x: x + 1)
    x = ms.Tensor([2.0])
    assert (bare(x).asnumpy(), with_options(x).asnumpy(), functional(x).asnumpy()) == ([4.0], [6.0], [3.0])
    assert bare.__name__ == "bare"
    np.testing.assert_array_equal(ms.grad(bare)(x).asnumpy(), [4.0])

    class Net(nn.Cell):
        @ms.jit
        def construct(self, x):
            return x - 1

    net = Net()
    bound = ms.jit(net)  # MindSpore 2.10: the Cell's construct, bound to it
    assert bound.__self__ is net and bound(x).asnumpy() == [1.0] and net(x).asnumpy() == [1.0]
    assert ms.jit(3) == 3  # 2.10 returns what it cannot compile unchanged (and logs a warning)


def test_mutable_returns_its_input_and_checks_types() -> None:
    t = ms.Tensor([1.0])
    assert ms.mutable(t) is t and ms.mutable([1, 2], dynamic_len=True) == [1, 2]
    with pytest.raises(TypeError, match="For 'mutable', the 'input_data' should be one of"):
        ms.mutable("text")
    with pytest.raises(TypeError, match="when the 'dynamic_len' is True, the 'input_data' should be one of"):
        ms.mutable(3, dynamic_len=True)


# ---------------------------------------------------------------- initializers
@pytest.fixture
def seeded():
    np.random.seed(1234)


def test_distributions_have_mindsporeS_parameters(seeded) -> None:
    n = initializer(Normal(sigma=0.5, mean=1.0), [200, 100], ms.float64).asnumpy()
    assert abs(n.mean() - 1.0) < 0.01 and abs(n.std() - 0.5) < 0.01
    u = initializer(Uniform(scale=0.2), [200, 100], ms.float32).asnumpy()
    assert u.dtype == np.float32 and -0.2 <= u.min() < -0.19 and 0.19 < u.max() <= 0.2
    x = initializer(XavierUniform(gain=2.0), [30, 20], ms.float32).asnumpy()
    bound = 2.0 * math.sqrt(6.0 / 50)
    assert -bound <= x.min() and x.max() <= bound and x.max() > 0.9 * bound
    h = initializer(HeUniform(), [64, 16, 3, 3], ms.float32).asnumpy()  # fan_in = 16 * 9
    he_bound = math.sqrt(3.0) * math.sqrt(2.0) / math.sqrt(16 * 9)
    assert h.max() <= he_bound and h.max() > 0.95 * he_bound
    g = initializer(HeNormal(mode="fan_out", nonlinearity="relu"), [400, 100], ms.float64).asnumpy()
    assert abs(g.std() - math.sqrt(2.0) / math.sqrt(400)) < 0.003
    t = initializer(TruncatedNormal(sigma=1.0), [1000], ms.float64).asnumpy()
    assert t.min() >= -2.0 and t.max() <= 2.0


def test_names_numbers_tensors_and_tensor_init(seeded) -> None:
    assert initializer("zeros", (2, 2), ms.float32).asnumpy().sum() == 0
    np.testing.assert_array_equal(initializer("ones", [3], ms.int32).asnumpy(), [1, 1, 1])
    np.testing.assert_array_equal(initializer(2.5, [2], ms.float32).asnumpy(), [2.5, 2.5])
    np.testing.assert_array_equal(initializer(Constant(7), [1], ms.float32).asnumpy(), [7.0])
    assert initializer("xavier_uniform", [4, 4]).dtype == ms.float32
    w = ms.Parameter(initializer(Normal(0.02), [8, 4], ms.float32), name="w")
    assert w.shape == (8, 4) and w.requires_grad
    t = ms.Tensor(shape=(3, 2), dtype=ms.float32, init=One())
    np.testing.assert_array_equal(t.asnumpy(), np.ones((3, 2)))
    assert ms.Tensor(shape=(2,), dtype=ms.float32, init=Zero()).asnumpy().tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="the 'init' name must be one of"):
        initializer("gaussian", [2])
    with pytest.raises(ValueError, match="'fan_in' and 'fan_out' can not be computed"):
        initializer(XavierUniform(), [5])
    with pytest.raises(ValueError, match="the shape of the Tensor init \\[2\\] must be the same as 'shape' \\[3\\]"):
        initializer(ms.Tensor([1.0, 2.0]), [3])


# ---------------------------------------------------------------- dynamic shapes, integer parameters
class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.steps = ms.Parameter(ms.Tensor(np.array([0], np.int32)), name="steps")  # an integer counter

    def construct(self, x):
        return x * self.w


def test_placeholder_and_set_inputs() -> None:
    p = ms.Tensor(shape=[None, 2], dtype=ms.float32)
    assert p.shape == (-1, 2) and repr(p) == "Tensor(shape=[-1, 2], dtype=Float32, value=<placeholder>)"
    with pytest.raises(RuntimeError, match="is a dynamic-shape placeholder"):
        p.asnumpy()
    net = Scale()
    net.set_inputs(p)
    assert net.get_inputs() == (p,)
    np.testing.assert_array_equal(net(ms.Tensor(np.ones((5, 2), np.float32))).asnumpy(), np.tile([2.0, 3.0], (5, 1)))
    with pytest.raises(ValueError, match=r"input 0 has shape \[5, 3\], which does not match the shape \[-1, 2\]"):
        net(ms.Tensor(np.ones((5, 3), np.float32)))
    with pytest.raises(TypeError, match="input 0 has dtype Float64, but set_inputs declared Float32"):
        net(ms.Tensor(np.ones((5, 2))))


def test_integer_parameters_get_no_gradient_and_no_error() -> None:
    net = Scale()
    assert net.steps.requires_grad and not net.steps.grad_fn
    weights = net.trainable_params()
    assert [p.name for p in weights] == ["w", "steps"]
    x = ms.Tensor(np.array([1.0, 1.0], np.float32))
    gw, gsteps = ms.grad(lambda x: net(x).sum(), grad_position=None, weights=weights)(x)
    np.testing.assert_array_equal(gw.asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(gsteps.asnumpy(), [0])
    assert net.init_parameters_data() == {}
