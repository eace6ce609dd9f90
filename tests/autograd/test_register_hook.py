"""Tensor.register_hook: on computed tensors (every later use goes through the hook), on grad
inputs and Parameters, removable, with both engines."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


def test_hook_on_an_intermediate_scales_the_gradient_of_its_later_uses() -> None:
    seen = []

    def f(x, y):
        z = x * y
        z.register_hook(lambda g: seen.append(g.asnumpy().copy()) or g * 2)
        return (z * y).sum()

    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    gx, gy = ms.grad(f, grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(seen[0], [3.0, 4.0])       # d(sum(z*y))/dz = y
    np.testing.assert_array_equal(gx.asnumpy(), [18.0, 32.0])  # 2 * y * y
    np.testing.assert_array_equal(gy.asnumpy(), [9.0, 24.0])  # 2 * y * x (hooked) + z = 3xy


def test_hook_returning_none_keeps_the_gradient_and_a_bad_return_is_an_error() -> None:
    def keep(x):
        y = x * 3
        y.register_hook(lambda g: None)
        return y.sum()

    np.testing.assert_array_equal(ms.grad(keep)(ms.Tensor([1.0])).asnumpy(), [3.0])

    def bad(x):
        y = x * 3
        y.register_hook(lambda g: 1.0)
        return y.sum()

    with pytest.raises(TypeError, match="A tensor hook must return a Tensor or None"):
        ms.grad(bad)(ms.Tensor([1.0]))


def test_hooks_on_inputs_and_parameters_and_removal() -> None:
    x = ms.Tensor([1.0, 2.0])
    handle = x.register_hook(lambda g: g + 100)
    np.testing.assert_array_equal(ms.grad(lambda x: (x * 2).sum())(x).asnumpy(), [102.0, 102.0])
    handle.remove()
    np.testing.assert_array_equal(ms.grad(lambda x: (x * 2).sum())(x).asnumpy(), [2.0, 2.0])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0]), name="w")

        def construct(self, x):
            return (x * self.w).sum()

    net = Net()
    net.w.register_hook(lambda g: -g)
    gw, = ms.grad(net, grad_position=None, weights=net.trainable_params())(ms.Tensor([5.0]))
    np.testing.assert_array_equal(gw.asnumpy(), [-5.0])


def test_hook_registered_outside_grad_is_never_called() -> None:
    calls = []
    y = ms.Tensor([1.0]) * 2
    y.register_hook(lambda g: calls.append(g))
    assert calls == []
