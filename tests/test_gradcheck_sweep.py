"""gradcheck's step sweep, held to numpy: a disagreement caused by the step (truncation, rounding) clears at
another step, a jump within the stencil is left out and said so, and a wrong gradient fails at every step.

The ops are pyfunc Custom ops whose bprops are closed-form derivatives evaluated with numpy; the expected
difference quotients are computed here with numpy from their formulas.
"""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops


def numpy_op(forward, derivative):
    """A pyfunc op with bprop ``derivative(x) * dout`` (numpy, float64)."""
    return ops.Custom(forward, lambda s: s, lambda d: d, func_type="pyfunc",
                      bprop=lambda x, out, dout: (ms.Tensor(derivative(x.asnumpy()) * dout.asnumpy()),))


def check(op, x, **kw):
    return ms.gradcheck(op, (ms.Tensor(x),), raise_exception=False, **kw)


MODES = pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
X = np.random.default_rng(0).uniform(-1, 1, 20)

exp3 = numpy_op(lambda x: np.exp(3 * x), lambda x: 3 * np.exp(3 * x))


# -- truncation: a step too large ----------------------------------------------------------------------------------
@MODES
@pytest.mark.parametrize("eps", [0.1, 0.05])
def test_truncation_at_a_large_step_clears_at_a_smaller_one(eps, fast):
    """exp(3x) with the 2-point stencil errs by about (3h)**2 / 6 relative: 1.5% at h = 0.1, 0.4% at 0.05, over
    rtol 1e-3; a quarter of the step brings it to 0.09% / 0.02%."""
    passed = check(exp3, X, eps=eps, fast_mode=fast)
    assert passed.passed, str(passed)
    assert passed.worst_rel_error < 1e-3
    failed = check(exp3, X, eps=eps, fast_mode=fast, sweep=False)
    assert not failed.passed
    r = failed.worst
    k = r.worst_input[0]
    # the quotient at eps alone is the 2-point formula's, numpy's: exp(3x) sinh(3h) / h
    assert r.numerical_value == pytest.approx(np.exp(3 * X[k]) * np.sinh(3 * eps) / eps, rel=1e-9)
    assert r.analytic_value == 3 * np.exp(3 * X[k])
    assert r.verdict == "mismatch" and r.sweep == []  # no other step was tried


def test_the_sweep_shows_the_truncation_falling_with_the_step():
    report = check(exp3, X, eps=0.1, fast_mode=False)
    r = report.inputs[0]
    assert r.verdict == "ok" and r.not_smooth == 0
    steps, errors = zip(*r.sweep)
    assert steps[0] == 0.1 and sorted(steps) == pytest.approx([0.025, 0.05, 0.1, 0.2, 0.4])
    k = r.worst_input[0]
    for h, e in r.sweep:  # each step's error is the 2-point formula's, from numpy
        assert e == pytest.approx(abs(np.exp(3 * X[k]) * (np.sinh(3 * h) / h - 3)), rel=1e-6)
    by_step = dict(r.sweep)
    assert by_step[0.025] < by_step[0.05] < by_step[0.1] < by_step[0.2] < by_step[0.4]
    # the element is shown at the step where it agrees
    assert r.numerical_value == pytest.approx(np.exp(3 * X[k]) * np.sinh(3 * 0.025) / 0.025, rel=1e-9)


# -- rounding: a step too small ------------------------------------------------------------------------------------
def test_a_tiny_step_on_a_function_rounded_once_per_value_is_within_the_rounding_allowance():
    """x sin x at eps 1e-13: the quotient's rounding (about u |f| / h ~ 1e-3 of f) is what the allowance bounds,
    so the check passes at eps alone (the sweep is not needed)."""
    op = numpy_op(lambda x: x * np.sin(x), lambda x: np.sin(x) + x * np.cos(x))
    for fast in (True, False):
        report = check(op, X, eps=1e-13, fast_mode=fast, sweep=False)
        assert report.passed and report.worst_rel_error < 1e-2, str(report)


SHIFT = 1000.0
shifted = numpy_op(lambda x: (x + SHIFT) - SHIFT, np.ones_like)  # the identity, computed through x + 1000


@MODES
def test_rounding_inside_the_function_at_a_small_step_clears_at_a_larger_one(fast):
    """(x + 1000) - 1000 is x rounded to a spacing of 1.1e-13 (ulp(1000)), which the allowance cannot see (it
    bounds the rounding of the values returned, ~1e-16). At eps 2e-11 the quotient errs by up to 2.8e-3; at 4 eps
    by at most 7e-4 < rtol: the sweep finds it, and nothing is left out."""
    failed = check(shifted, X, eps=2e-11, fast_mode=fast, sweep=False)
    assert not failed.passed
    passed = check(shifted, X, eps=2e-11, fast_mode=fast)
    assert passed.passed, str(passed)
    assert all(r.not_smooth == 0 for r in passed.inputs)


def test_rounding_quotient_is_numpys():
    h = 2e-11
    r = check(shifted, X, eps=h, fast_mode=False, sweep=False).worst
    k = r.worst_input[0]
    up, down = X[k] + h, X[k] - h
    want = (((up + SHIFT) - SHIFT) - ((down + SHIFT) - SHIFT)) / (up - down)
    # (forming the quotient as sum(w_k / h * f_k), as gradcheck does, rounds each term by u |f| / h ~ 3e-6 here)
    assert r.numerical_value == pytest.approx(want, abs=2e-5)
    assert abs(want - 1) > 1e-3  # numpy: the rounding is beyond rtol at this step


# -- not smooth: a jump within the stencil -------------------------------------------------------------------------
POINTS = np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 0.3, 1.7, -0.6])  # five integers (floor jumps there), three not
floor = numpy_op(np.floor, np.zeros_like)


@MODES
def test_floor_at_its_jumps_passes_with_the_jumps_left_out_and_said(fast):
    report = check(floor, POINTS, fast_mode=fast)
    assert report.passed, str(report)
    r = report.inputs[0]
    assert r.not_smooth == 5
    numerical = np.diag(r.numerical)
    # at the integers, the quotient is the jump over the stencil's width, 1 / (2 eps): numpy's
    np.testing.assert_allclose(numerical[:5], 1 / (2e-6), rtol=1e-6)
    np.testing.assert_array_equal(numerical[5:], 0.0)
    assert "5 elements not counted: the function jumps within the stencil there" in str(report)
    assert report.summary().endswith("(in float64; 5 elements not counted: not differentiable there)")


def test_max_rel_error_is_not_inflated_by_derivatives_near_zero():
    # d/dx (sin^2 + cos^2) = 0 everywhere: the differences are round-off, relative to atol / rtol, not to 0
    one = numpy_op(lambda x: np.sin(x) ** 2 + np.cos(x) ** 2, np.zeros_like)
    report = check(one, POINTS, fast_mode=False)
    assert report.passed and report.inputs[0].max_abs_error > 0  # round-off is there...
    assert report.inputs[0].max_rel_error < 1e-6 and report.worst_rel_error < 1e-6  # ...and stays small


@MODES
def test_a_wrong_gradient_on_the_smooth_part_still_fails(fast):
    wrong = numpy_op(lambda x: np.floor(x) + x * x, lambda x: 2.2 * x)  # d/dx = 2x away from the integers
    report = check(wrong, POINTS, fast_mode=fast)
    assert not report.passed
    r = report.inputs[0]
    assert r.not_smooth == 5 and r.verdict == "mismatch"
    k = r.worst_input[0]
    assert k in (5, 6, 7) and r.analytic_value == pytest.approx(2.2 * POINTS[k])
    assert r.numerical_value == pytest.approx(2 * POINTS[k], rel=1e-6)
    ones = numpy_op(np.floor, np.ones_like)  # floor's derivative is 0 where it has one
    assert not check(ones, POINTS, fast_mode=fast).passed


# -- a wrong gradient is not a jump ----------------------------------------------------------------------------------
def test_a_jump_is_an_error_growing_at_every_smaller_step():
    from mskernel.gradcheck.differences import sweep_verdict

    steps = [1.0, 0.25, 0.5, 2.0, 4.0]  # as gradcheck passes them: the dtype's step first
    jump = [0.5 / h for h in steps]  # J / (2h): floor's jump in a 2-point stencil
    assert sweep_verdict(steps, jump, [1e-3] * 5) == "not smooth"
    # a wrong gradient whose error is flat over the steps and small at the largest one only (truncation there
    # cancelling part of it), or that rounding noise makes grow from end to end without growing at every step
    flat = {0.25: 1.35e-5, 0.5: 1.31e-5, 1.0: 1.2e-5, 2.0: 1.1e-5, 4.0: 1.5e-6}
    assert sweep_verdict(steps, [flat[h] for h in steps], [1.3e-6] * 5) == "mismatch"
    noisy = {0.25: 2.0, 0.5: 0.4, 1.0: 1.0, 2.0: 0.3, 4.0: 0.1}
    assert sweep_verdict(steps, [noisy[h] for h in steps], [1e-3] * 5) == "mismatch"


def test_a_wrong_gradient_where_the_derivative_is_small_is_not_called_a_jump():
    """x*y + sin(y) in float32 at x = -0.95669, y = -0.2974322: d/dy = x + cos(y) = -5.98e-4 (numpy), and a
    bprop 2% off there fails. (Before the sweep required growth at every step, truncation at 4 eps cancelled
    part of the error, the element was called "not smooth", left out, and the check passed.)"""
    x, y = np.float32(-0.95669), np.float32(-0.2974322)
    dy = float(np.float64(x) + np.cos(np.float64(y)))
    assert -6e-4 < dy < -5.9e-4

    def bprop(a, b, out, dout):
        a, b, d = (t.asnumpy().astype(np.float64) for t in (a, b, dout))
        return ms.Tensor((b * d).astype(np.float32)), ms.Tensor((1.02 * (a + np.cos(b)) * d).astype(np.float32))
    op = ops.Custom(lambda a, b: a * b + np.sin(b), lambda *s: s[0], lambda *d: d[0], func_type="pyfunc",
                    bprop=bprop)
    report = ms.gradcheck(op, (ms.Tensor(np.array([x])), ms.Tensor(np.array([y]))), cast_float64=False,
                          fast_mode=False, raise_exception=False)
    assert not report.passed, str(report)
    r = report.inputs[1]
    assert not r.passed and r.not_smooth == 0 and r.verdict == "mismatch"
    assert r.analytic_value == float(np.float32(1.02 * dy))


@pytest.mark.parametrize("scale", [1.02, 1.5])
def test_rounding_noise_that_grows_as_the_step_shrinks_does_not_hide_a_wrong_gradient(scale):
    """(x + 1e10) - 1e10 is x rounded to 1.9e-6 (ulp(1e10)): at eps 1e-6 its quotients are rounding noise, which
    grows as the step shrinks, like a jump's. Such elements are not left out as jumps, so a bprop off by 2% or
    50% fails (it passed, with every element "not counted", before)."""
    shifted = numpy_op(lambda x: (x + 1e10) - 1e10, lambda x: scale * np.ones_like(x))
    x = np.random.default_rng(0).uniform(-1, 1, 50)
    for fast in (True, False):
        report = check(shifted, x, fast_mode=fast)
        assert not report.passed, str(report)
        assert report.inputs[0].not_smooth == 0
