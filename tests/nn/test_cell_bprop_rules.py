"""A Cell's user bprop is checked with MindSpore's rules and messages (``CheckBpropOut``): the
number of gradients and their type; None means no gradient. A gradient of another dtype or of a shape
the input broadcasts to is fitted to the input, as the 2.10 wheel's PyNative does (measured: cast,
summed over the broadcast axes); any other shape is MindSpore's RuntimeError."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


class Affine(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y


def _net(bprop):
    return type("Net", (Affine,), {"bprop": bprop})()


X = ms.Tensor(np.array([1.0, 2.0], np.float32))
PREFIX = "For user defined method 'bprop' of net 'Net', "
CASES = [
    (lambda s, x, y, out, dout: (dout,), TypeError,
     "the number of return values(gradients) should be equal to the number of input arguments except 'out' and "
     "'dout', which is: 2, but got:1."),
    (lambda s, x, y, out, dout: (dout, 3), TypeError,
     "the 1th return value(gradient of the 1th argument) should be Tensor, but got int, and the value is 3."),
]


@pytest.mark.parametrize("bprop, exc, message", CASES, ids=["count", "type"])
def test_bad_bprop_result_raises_mindsporeS_error(bprop, exc, message) -> None:
    with pytest.raises(exc) as info:
        ms.grad(_net(bprop), grad_position=(0, 1))(X, X)
    assert str(info.value) == PREFIX + message


def test_none_result_and_none_gradients() -> None:
    with pytest.raises(TypeError, match="^The python function output is none.$"):
        ms.grad(_net(lambda s, x, y, out, dout: None), grad_position=(0, 1))(X, X)
    gx, gy = ms.grad(_net(lambda s, x, y, out, dout: (dout * 3, None)), grad_position=(0, 1))(X, X)
    np.testing.assert_array_equal(gx.asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(gy.asnumpy(), [0.0, 0.0])


def test_a_single_tensor_is_wrapped_as_pynative_does() -> None:
    class One(nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return 5 * dout

    np.testing.assert_array_equal(ms.grad(One())(X).asnumpy(), [5.0, 5.0])


def test_integer_inputs_get_the_bprop_values_as_in_mindspore() -> None:
    net = _net(lambda s, x, y, out, dout: (2 * dout, 4 * dout))
    x, y = ms.Tensor(np.array([1, 2], np.int32)), ms.Tensor(np.array([3, 4], np.int32))
    gx, gy = ms.grad(net, grad_position=(0, 1))(x, y)
    assert gx.dtype == ms.int32
    np.testing.assert_array_equal(gx.asnumpy(), [2, 2])
    np.testing.assert_array_equal(gy.asnumpy(), [4, 4])


def test_a_gradient_of_another_dtype_is_cast_to_the_input_dtype() -> None:
    f16 = np.array([0.5, 1.5], np.float16)
    gx, gy = ms.grad(_net(lambda s, x, y, out, dout: (ms.Tensor(f16), dout)), grad_position=(0, 1))(X, X)
    assert gx.dtype == ms.float32
    np.testing.assert_array_equal(gx.asnumpy(), f16.astype(np.float32))
    n = ms.Tensor(np.array([2, 3], np.int32))
    given = np.array([0.7, -1.7], np.float32)
    gx, gn = ms.grad(_net(lambda s, x, y, out, dout: (dout, ms.Tensor(given))), grad_position=(0, 1))(X, n)
    assert gn.dtype == ms.int32
    np.testing.assert_array_equal(gn.asnumpy(), given.astype(np.int32))  # truncated, as a cast does


def test_a_gradient_the_input_broadcasts_to_is_summed_back() -> None:
    given = np.arange(6, dtype=np.float32).reshape(3, 2)
    gx, _ = ms.grad(_net(lambda s, x, y, out, dout: (ms.Tensor(given), dout)), grad_position=(0, 1))(X, X)
    np.testing.assert_array_equal(gx.asnumpy(), given.sum(axis=0))


@pytest.mark.parametrize("shape", [(3,), (1,), (), (2, 3)])
def test_a_gradient_of_another_shape_raises_mindsporeS_error(shape) -> None:
    bad = ms.Tensor(np.ones(shape, np.float32))
    with pytest.raises(RuntimeError) as info:
        ms.grad(_net(lambda s, x, y, out, dout: (bad, dout)), grad_position=(0, 1))(X, X)
    got = "{" + ", ".join(map(str, shape)) + "}"
    assert str(info.value) == ("For grad interface or custom function, grad tensor should be broadcast to expected "
                               f"shape, but got [const vector]{got} vs [const vector]{{2}}")
