"""A Cell's user bprop is checked with MindSpore's rules and messages (``CheckBpropOut``): the
number of gradients, their type, dtype and shape; None means no gradient."""
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
    (lambda s, x, y, out, dout: (dout.astype(ms.float16), dout), TypeError,
     "the 0th return value(gradient of the 0th argument) should have the same dtype as the 0th argument, "
     "which is:Float32, but got: Float16."),
    (lambda s, x, y, out, dout: (ms.Tensor(np.ones(3, np.float32)), dout), ValueError,
     "the 0th return value(gradient of the 0th argument) should have the same shape as the 0th argument, "
     "which is:[2], but got: [3]."),
]


@pytest.mark.parametrize("bprop, exc, message", CASES, ids=["count", "type", "dtype", "shape"])
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
