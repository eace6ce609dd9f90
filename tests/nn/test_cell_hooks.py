"""Cell hooks: order, replaced values and gradients, removal, errors, higher-order gradients."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


class Mul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def construct(self, x):
        return x * self.w


def test_forward_hooks_replace_inputs_and_outputs():
    net, log = Mul(), []
    net.register_forward_pre_hook(lambda c, args: log.append("pre") or (args[0] + 1,))
    net.register_forward_hook(lambda c, args, out: log.append("post") or out * 10)
    out = net(ms.Tensor(np.array([1.0, 1.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [40.0, 60.0])
    assert log == ["pre", "post"]


def test_backward_hooks_change_gradients_and_run_in_order():
    net, log = Mul(), []
    net.register_backward_pre_hook(lambda c, go: log.append(("pre", go[0].asnumpy().tolist())) or (go[0] * 2,))
    net.register_backward_hook(lambda c, gi, go: log.append(("post", gi[0].asnumpy().tolist(),
                                                             go[0].asnumpy().tolist())) or (gi[0] + 1,))
    x = ms.Tensor(np.array([1.0, 1.0], np.float32))
    gx, gw = ms.grad(net, 0, net.trainable_params())(x)
    np.testing.assert_allclose(gx.asnumpy(), [5.0, 7.0])  # 2 * w, then + 1
    np.testing.assert_allclose(gw[0].asnumpy(), [2.0, 2.0])  # weights see the pre-hook's doubling
    assert log == [("pre", [1.0, 1.0]), ("post", [4.0, 6.0], [2.0, 2.0])]


def test_removed_hooks_are_not_called_and_forward_values_unchanged():
    net, log = Mul(), []
    handles = [net.register_backward_hook(lambda c, gi, go: log.append(1)),
               net.register_backward_pre_hook(lambda c, go: log.append(2)),
               net.register_forward_hook(lambda c, a, o: log.append(3))]
    for h in handles:
        h.remove()
        h.remove()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), [2.0, 3.0])
    assert log == []


def test_hook_errors():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int."):
        Mul().register_backward_pre_hook(1)
    net = Mul()
    net.register_backward_hook(lambda c, gi, go: (gi[0], gi[0]))
    with pytest.raises(TypeError, match="backward hook return value size is 2 not equal to expect grad input size 1"):
        ms.grad(net)(ms.Tensor(np.array([1.0, 2.0], np.float32)))


def test_always_call_forward_hook_runs_when_construct_fails():
    class Bad(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")
    log = []
    net = Bad()
    net.register_forward_hook(lambda c, a, o: log.append(o), always_call=True)
    with pytest.raises(ValueError, match="boom"):
        net(ms.Tensor(1.0))
    assert log == [None]


def test_bprop_cell_ignores_forward_hooks_but_keeps_bprop():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout * 100,)
    net = Clip()
    net.register_forward_hook(lambda c, a, o: o * 0)
    x = ms.Tensor(np.array([1.0], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [2.0])
    np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), [100.0])


def test_backward_hook_second_order():
    class Sq(nn.Cell):
        def construct(self, x):
            return x * x
    net = Sq()
    net.register_backward_hook(lambda c, gi, go: (gi[0] * 3,))
    x = ms.Tensor(np.array([2.0], np.float32))
    first = ms.grad(lambda a: net(a).sum())
    np.testing.assert_allclose(first(x).asnumpy(), [12.0])
    # the second backward passes through the input node again, so the hook scales it too: 3 * (3 * 2)
    np.testing.assert_allclose(ms.grad(lambda a: first(a).sum())(x).asnumpy(), [18.0])
