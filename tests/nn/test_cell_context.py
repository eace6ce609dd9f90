"""nn.Cell registration, custom Cell bprop, set_context/set_device."""
import warnings

import numpy as np
import pytest

import mskernel as ms
from mskernel import context, nn, ops


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0]))
        self.frozen = ms.Parameter(ms.Tensor([0.5]), requires_grad=False)

    def construct(self, x):
        return x * self.w + self.frozen


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.b = ms.Parameter(ms.Tensor(1.0), name="bias")

    def construct(self, x):
        return (self.inner(x) * self.b).sum()


def test_parameters_and_cells_registered_by_attribute():
    net = Outer()
    assert [n for n, _ in net.parameters_and_names()] == ["b", "inner.w", "inner.frozen"]
    # MindSpore renames the parameters of a sub-cell to their path when it is assigned (auto_prefix)
    assert [p.name for p in net.trainable_params()] == ["bias", "inner.w"]
    assert [n for n, _ in net.cells_and_names()] == ["", "inner"]
    assert Inner().w.name == "w"  # an unnamed parameter takes its attribute name
    net.b = ms.Tensor(2.0)  # a Tensor assigned to a parameter's attribute sets its data (MindSpore)
    assert [n for n, _ in net.parameters_and_names()] == ["b", "inner.w", "inner.frozen"]
    assert net.b.name == "bias" and net.b.asnumpy() == 2.0


def test_cell_grad_with_weights():
    net = Outer()
    gx, (gb, gw) = ms.grad(net, 0, weights=net.trainable_params())(ms.Tensor([3.0, 4.0]))
    np.testing.assert_allclose(gx.asnumpy(), [1.0, 2.0])
    assert gb.item() == pytest.approx(3.0 + 8.0 + 1.0)
    np.testing.assert_allclose(gw.asnumpy(), [3.0, 4.0])


def test_cell_without_super_init_fails_clearly():
    class Bad(nn.Cell):
        def __init__(self):
            self.p = ms.Parameter(1.0)
    with pytest.raises(AttributeError, match=r"please call Cell.__init__\(\) firstly"):
        Bad()


def test_custom_cell_bprop_replaces_backward():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout * 100,)
    g = ms.grad(lambda t: Clip()(t).sum())(ms.Tensor([1.0, 2.0]))
    np.testing.assert_allclose(g.asnumpy(), [100.0, 100.0])


def test_set_context_modes_and_device_warning():
    context._reset_for_tests()
    try:
        ms.set_context(mode=ms.GRAPH_MODE)
        assert ms.get_context("mode") == 0
        with pytest.raises(ValueError, match="'mode' should be"):
            ms.set_context(mode=5)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ms.set_device("GPU")
            ms.set_context(device_target="GPU")
        msgs = [str(x.message) for x in w]
        assert len(msgs) == 1 and "run on the CPU" in msgs[0]
        with pytest.raises(RuntimeError, match="'mindspore.set_device' can not be modified"):
            ms.set_device("Ascend")
        with pytest.raises(ValueError, match=r"'device_target' must be one of \['CPU', 'GPU', 'Ascend'\], but got TPU"):
            ms.set_device("TPU")
        assert ms.get_current_device().device_target == "GPU"
        # code still runs (on the CPU)
        assert (ops.mul(ms.Tensor(2.0), 3)).item() == 6.0
    finally:
        context._reset_for_tests()
        ms.set_context(mode=ms.PYNATIVE_MODE)
