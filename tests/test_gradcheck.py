"""gradcheck / gradgradcheck: catches wrong gradients, passes right ones, fast mode agrees."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import ops


def sq(x):
    return x * x


def good_bprop(x, out, dout):
    return (2 * x * dout,)


def bad_bprop(x, out, dout):
    # wrong only at the last element: 2x everywhere except 2.5x there
    w = np.full(x.shape, 2.0)
    w.reshape(-1)[-1] = 2.5
    return (x * ms.Tensor(w.astype(x.asnumpy().dtype)) * dout,)


def custom(bprop):
    return ops.Custom(sq, lambda x: x, lambda x: x, func_type="pyfunc", bprop=bprop)


def test_passes_correct_gradients():
    x = ms.Tensor(np.linspace(0.1, 1.0, 12).reshape(3, 4))
    assert ms.gradcheck(lambda a: ops.sin(a * a + a), (x,), raise_exception=False).passed
    assert ms.gradcheck(custom(good_bprop), (x,), raise_exception=False).passed
    y = ms.Tensor(np.ones((4, 2)))
    rep = ms.gradcheck(lambda a, b: (ops.matmul(a, b), ops.exp(a).sum()), (x, y))
    assert rep.passed and [r.index for r in rep.inputs] == [0, 1]


def test_catches_a_wrong_bprop_and_names_the_worst_element():
    x = ms.Tensor(np.arange(1.0, 7.0).reshape(2, 3))
    with pytest.raises(ms.GradcheckError) as e:
        ms.gradcheck(custom(bad_bprop), (x,))
    report = e.value.report
    assert not report.passed and isinstance(e.value, AssertionError)
    r = report.inputs[0]
    assert r.worst_input == (1, 2) and r.worst_output == (0, (1, 2))
    assert r.analytic_value == pytest.approx(15.0) and r.numerical_value == pytest.approx(12.0, rel=1e-6)
    assert r.max_abs_error == pytest.approx(3.0, rel=1e-6)
    assert r.analytic.shape == (6, 6) and r.numerical.shape == (6, 6)
    text = str(report)
    assert "FAILED" in text and "d output[0][1, 2] / d input[0][1, 2]: analytic 15, numerical 12" in text
    html = report._repr_html_()
    assert "mk-gradcheck" in html and "FAIL" in html and "[1, 2]" in html


def test_no_exception_mode_returns_failed_report():
    rep = ms.gradcheck(custom(bad_bprop), (ms.Tensor([1.0, 2.0]),), raise_exception=False)
    assert not rep and rep.worst is rep.inputs[0]


def test_fast_mode_agrees_with_full_mode_on_failures():
    x = ms.Tensor(np.random.default_rng(0).random((20, 20)) + 0.5)
    full = ms.gradcheck(custom(bad_bprop), (x,), raise_exception=False, fast_mode=False)
    fast = ms.gradcheck(custom(bad_bprop), (x,), raise_exception=False, fast_mode=True)
    assert not full.passed and not fast.passed and fast.mode == "fast"
    assert fast.inputs[0].worst_input == full.inputs[0].worst_input == (19, 19)
    assert fast.inputs[0].max_abs_error == pytest.approx(full.inputs[0].max_abs_error)
    ok = ms.gradcheck(custom(good_bprop), (x,), fast_mode=True)
    assert ok.passed and ok.mode == "fast" and ok.inputs[0].analytic is None  # no full Jacobian needed


def test_default_mode_switches_to_fast_for_large_inputs():
    big = ms.Tensor(np.random.default_rng(1).random((80,)))
    assert ms.gradcheck(lambda a: ops.tanh(a), (big,)).mode == "fast"
    assert ms.gradcheck(lambda a: ops.tanh(a), (ms.Tensor([0.5]),)).mode == "full"


def test_float32_inputs_are_checked_in_float64_and_non_float_inputs_skipped():
    x = ms.Tensor(np.array([0.3, 0.7], np.float32))
    rep = ms.gradcheck(lambda a, k: a * k, (x, ms.Tensor([2, 3], ms.int32)))
    assert rep.passed and [r.index for r in rep.inputs] == [0]
    with pytest.raises(ValueError, match="no floating-point Tensor inputs"):
        ms.gradcheck(lambda k: k * 2, (ms.Tensor([1, 2]),))


def test_gradgradcheck_passes_and_catches_non_differentiable_bprop():
    assert ms.gradgradcheck(lambda a: ops.sin(a) * a, (ms.Tensor([0.2, 0.9]),), raise_exception=False).passed
    # a bprop computed in numpy (not with ops) has no second derivative: gradgradcheck must notice
    numpy_bprop = ops.Custom(sq, lambda x: x, lambda x: x, func_type="pyfunc",
                             bprop=lambda x, out, dout: (ms.Tensor(2 * x.asnumpy() * dout.asnumpy()),))
    rep = ms.gradgradcheck(numpy_bprop, (ms.Tensor([0.5, 1.5]),), raise_exception=False)
    assert not rep.passed and rep.order == 2 and "gradgradcheck FAILED" in str(rep)
