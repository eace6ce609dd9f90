"""gradcheck in each dtype, held to oracles that share no code with it.

Every op checked here is a ``pyfunc`` Custom op (or a hybrid kernel) whose bprop is a closed-form derivative
written in this file and evaluated with numpy in float64, so an op is right or wrong by construction:
a correct bprop must pass (no false alarm) and one scaled by a few percent must fail. Expected values
(derivatives, float64 outputs, overflow) come from numpy. The closed forms themselves are checked against
numpy's complex-step derivative (exact to rounding for analytic functions), not against mskernel.
"""
from __future__ import annotations

import ast
import importlib.util
import re
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mskernel as ms
from mskernel import ops
from mskernel.gradcheck import TOLERANCES, AgainstFloat64, GradcheckReport, check_bound_op, tolerance_for
from mskernel.hybrid import kernel
from mskernel.hybrid.intrinsics import output_tensor
from mskernel.hybrid.portability.issue import PortabilityWarning
from tests.hybrid.corpus import CASES

TUTORIALS = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "restored"


# -- the oracle: smooth functions and their closed-form derivatives -----------------------------------------------
@dataclass(frozen=True)
class Smooth:
    """A function as numpy computes it in its inputs' dtype, its partial derivatives (float64 numpy closed
    forms) and a range to draw inputs from."""

    name: str
    forward: Callable[..., np.ndarray]
    partials: Sequence[Callable[..., np.ndarray]]
    lo: float
    hi: float

    @property
    def arity(self) -> int:
        return len(self.partials)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


SMOOTH = {f.name: f for f in [
    Smooth("x_sin_x", lambda x: x * np.sin(x), [lambda x: np.sin(x) + x * np.cos(x)], -3, 3),
    Smooth("tanh", np.tanh, [lambda x: 1 - np.tanh(x) ** 2], -2, 2),
    Smooth("exp", np.exp, [np.exp], -2, 2),
    Smooth("square", lambda x: x * x, [lambda x: 2 * x], -2, 2),
    Smooth("softplus", lambda x: np.log1p(np.exp(x)), [_sigmoid], -3, 3),
    Smooth("xy_sin_y", lambda x, y: (x * y + np.sin(y)).astype(x.dtype), [lambda x, y: y, lambda x, y: x + np.cos(y)],
           -2, 2),
]}


def pyfunc_op(fn: Smooth, scale: float = 1.0):
    """``fn`` as a pyfunc Custom op whose bprop is ``scale`` times the closed-form derivative (numpy, float64,
    rounded to the input's dtype): right for ``scale == 1``, wrong by ``scale - 1`` otherwise."""
    def bprop(*args):
        xs, dout = args[:-2], args[-1]
        wide = [x.asnumpy().astype(np.float64) for x in xs]
        d = dout.asnumpy().astype(np.float64)
        return tuple(ms.Tensor((scale * p(*wide) * d).astype(x.asnumpy().dtype)) for p, x in zip(fn.partials, xs))
    return ops.Custom(fn.forward, lambda *s: s[0], lambda *d: d[0], func_type="pyfunc", bprop=bprop)


def numpy_op(forward: Callable, derivative: Callable):
    """A one-input pyfunc op with bprop ``derivative(x) * dout`` (numpy, float64, rounded to x's dtype)."""
    def bprop(x, out, dout):
        a = x.asnumpy()
        return (ms.Tensor((derivative(a.astype(np.float64)) * dout.asnumpy().astype(np.float64)).astype(a.dtype)),)
    return ops.Custom(forward, lambda s: s, lambda d: d, func_type="pyfunc", bprop=bprop)


def draw(fn: Smooth, dtype: str, n: int, seed: int, lo: float | None = None, hi: float | None = None) -> tuple:
    rng = np.random.default_rng(seed)
    lo, hi = (fn.lo if lo is None else lo), (fn.hi if hi is None else hi)
    return tuple(ms.Tensor(rng.uniform(lo, hi, n).astype(dtype)) for _ in range(fn.arity))


def own(fn: Smooth, xs: tuple, scale: float = 1.0, fast: bool = False, **kw) -> GradcheckReport:
    """gradcheck in the inputs' own dtype, never raising."""
    return ms.gradcheck(pyfunc_op(fn, scale), xs, cast_float64=False, fast_mode=fast, raise_exception=False, **kw)


@pytest.mark.parametrize("name", sorted(SMOOTH))
def test_the_oracles_closed_forms_are_the_derivatives(name):
    """Each closed form against the complex-step derivative Im f(x + ih) / h, h = 1e-30 (no subtraction, so
    exact to rounding): the oracle the rest of the file trusts is itself right."""
    fn = SMOOTH[name]
    rng = np.random.default_rng(0)
    xs = [rng.uniform(fn.lo, fn.hi, 40) for _ in range(fn.arity)]
    for k, partial in enumerate(fn.partials):
        shifted = [x + 1e-30j if j == k else x.astype(complex) for j, x in enumerate(xs)]
        np.testing.assert_allclose(partial(*xs), fn.forward(*shifted).imag / 1e-30, rtol=1e-12, atol=1e-14)


# -- 1. the table --------------------------------------------------------------------------------------------------
UNIT_ROUNDOFF = {"float64": 2.0 ** -53, "float32": 2.0 ** -24, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}
JAX_RTOL = {"float32": 2e-3, "float16": 1e-2, "bfloat16": 1e-1}


def test_the_table_has_one_row_per_float_dtype():
    assert list(TOLERANCES) == ["float64", "float32", "float16", "bfloat16"]
    assert all(row.dtype == name for name, row in TOLERANCES.items())


def test_float64_row_is_torchs_gradcheck_defaults():
    row = TOLERANCES["float64"]
    assert (row.eps, row.points, row.atol, row.rtol, row.vs_float64) == (1e-6, 2, 1e-5, 1e-3, 0.0)
    assert "torch" in row.source


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_low_precision_rows(dtype):
    row, u = TOLERANCES[dtype], UNIT_ROUNDOFF[dtype]
    assert row.points == 4
    assert row.eps == pytest.approx(u ** 0.2, rel=1e-12)  # the 4-point stencil's balance of h**4 and u / h
    assert row.rtol == row.vs_float64 == JAX_RTOL[dtype]
    assert row.atol == pytest.approx(2 * u, rel=0.25)  # two roundoffs (rounded to one digit for display)
    assert "JAX" in row.source and "u**(1/5)" in row.source
    with pytest.raises(AttributeError):  # frozen: a report's row cannot be edited under it
        row.rtol = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("spelling, row", [
    ("float16", "float16"), ("Float32", "float32"), ("bfloat16", "bfloat16"),
    (np.float16, "float16"), (np.dtype("float32"), "float32"), (np.float64, "float64"),
    (ms.float16, "float16"), (ms.float32, "float32"), (ms.float64, "float64"),
    ("complex64", "float32"), (np.complex128, "float64"), (ms.complex64, "float32"),
])
def test_tolerance_for_every_spelling(spelling, row):
    assert tolerance_for(spelling) is TOLERANCES[row]


@pytest.mark.parametrize("dtype, named", [("int32", "int32"), (np.int32, "int32"), (ms.int32, "int32"),
                                          ("float8", "float8"), (np.bool_, "bool")])
def test_unknown_dtype_raises_naming_it(dtype, named):
    with pytest.raises(ValueError, match=named) as e:
        tolerance_for(dtype)
    assert "float64, float32, float16, bfloat16" in str(e.value)


def test_band_text():
    assert TOLERANCES["float64"].band() == "float64: eps 1e-06 (2-point stencil), atol 1e-05, rtol 0.001"
    assert TOLERANCES["float32"].band() == \
        "float32: eps 0.036 (4-point stencil), atol 1e-07, rtol 0.002; against float64 within 0.002"
    assert TOLERANCES["float16"].band() == \
        "float16: eps 0.22 (4-point stencil), atol 0.001, rtol 0.01; against float64 within 0.01"
    # a report's band shows the numbers the check used: the row's, or those given
    x = ms.Tensor(np.array([0.5, 1.5], np.float16))
    assert own(SMOOTH["square"], (x,)).band() == "float16: eps 0.22 (4-point stencil), atol 0.001, rtol 0.01"
    given_ = own(SMOOTH["square"], (x,), eps=0.1, atol=0.01, rtol=0.05)
    assert given_.band() == "float16: eps 0.1 (4-point stencil), atol 0.01, rtol 0.05"
    assert (given_.eps, given_.atol, given_.rtol) == (0.1, 0.01, 0.05)


def test_the_check_runs_in_the_dtype_it_says():
    x16 = ms.Tensor(np.array([0.5, 1.5], np.float16))
    x32 = ms.Tensor(np.array([0.5, 1.5], np.float32))
    fn = SMOOTH["xy_sin_y"]
    mixed = own(fn, (x16, x32))  # the least precise input's row governs
    assert (mixed.checked_in, mixed.dtype, mixed.tolerance) == ("float16", "float16", TOLERANCES["float16"])
    wide = ms.gradcheck(pyfunc_op(fn), (x16, x32), raise_exception=False)  # cast_float64 (default)
    assert (wide.checked_in, wide.dtype, wide.tolerance, wide.eps) == ("float64", "float16", TOLERANCES["float64"],
                                                                       1e-6)


# -- 2. no false alarm in the inputs' own dtype --------------------------------------------------------------------
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
@pytest.mark.parametrize("n", [3, 50, 1000])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name", sorted(SMOOTH))
def test_correct_bprop_passes_in_its_own_dtype(name, dtype, n, fast):
    fn = SMOOTH[name]
    for seed in range(3):
        report = own(fn, draw(fn, dtype, n, seed), fast=fast, seed=seed)
        assert report.passed, (seed, str(report))
        assert report.checked_in == dtype and report.mode == ("fast" if fast else "full")
        assert all(r.not_smooth == 0 for r in report.inputs), (seed, str(report))  # nothing left out


@settings(derandomize=True, database=None, max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SMOOTH)), dtype=st.sampled_from(["float16", "float32"]),
       n=st.sampled_from([1, 3, 50, 1000]), fast=st.booleans(), seed=st.integers(0, 2 ** 32 - 1), data=st.data())
def test_correct_bprop_passes_on_drawn_inputs(name, dtype, n, fast, seed, data):
    """Random draws with hypothesis's edge values (0, the range's ends, subnormals, repeats) in front."""
    fn = SMOOTH[name]
    xs = []
    for x in draw(fn, dtype, n, seed):
        values = x.asnumpy().copy()
        head = data.draw(st.lists(st.floats(fn.lo, fn.hi, width=16 if dtype == "float16" else 32),
                                  max_size=min(n, 5)))
        values[:len(head)] = head
        xs.append(ms.Tensor(values))
    report = own(fn, tuple(xs), fast=fast, seed=seed % 1000)
    assert report.passed, str(report)


# -- 3. a wrong bprop is caught in its own dtype -------------------------------------------------------------------
# float16 resolves a derivative to about 1% only where it is not small beside the function's own value: the
# difference quotient's rounding is bounded by ~3u*|f|/h (h = 0.22), i.e. about 0.6% of |f|, on top of atol
# 1e-3 and rtol 1%. So float16 can miss a 2% error where every derivative is small beside |f|:
#   - tanh (or exp) on 3 elements all near |x| = 1 or beyond (|tanh'| <= 0.42 while |tanh| >= 0.76);
#   - softplus on [-1, 1], where softplus(x) > softplus'(x) everywhere: a 2% error is below the bound at every
#     element and is caught only when rounding noise happens to push one element over (about 2 in 3 draws of
#     50 elements). softplus is therefore tested as "caught" in float32 only.
CAUGHT_IN_FLOAT16 = sorted(set(SMOOTH) - {"softplus"})


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
@pytest.mark.parametrize("name", CAUGHT_IN_FLOAT16)
def test_a_two_percent_error_is_caught_in_float16(name, fast):
    fn = SMOOTH[name]
    for seed in range(5):
        xs = draw(fn, "float16", 50, seed, -1, 1)
        report = own(fn, xs, scale=1.02, fast=fast, seed=seed)
        assert not report.passed, (seed, str(report))
        assert report.checked_in == "float16"
        bad = report.worst
        assert bad is not None and bad.verdict == "mismatch"
        # the worst element: the wrong bprop's value, and a numerical derivative near numpy's closed form
        k = bad.worst_input[0]
        at = [x.asnumpy()[k].astype(np.float64) for x in xs]
        exact = fn.partials[bad.index](*at)
        assert bad.worst_output == (0, (k,))
        assert bad.analytic_value == float(np.float16(1.02 * exact))
        assert bad.numerical_value == pytest.approx(exact, rel=0.01, abs=2e-3)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
@pytest.mark.parametrize("name", sorted(SMOOTH))
def test_a_half_percent_error_is_caught_in_float32(name, fast):
    fn = SMOOTH[name]
    for seed in range(3):
        report = own(fn, draw(fn, "float32", 50, seed, -1, 1), scale=1.005, fast=fast, seed=seed)
        assert not report.passed, (seed, str(report))
        assert report.worst.verdict == "mismatch"


def test_a_wrong_bprop_is_located_in_its_own_dtype():
    """Only element 7 of 20 is wrong (by 3%): full mode names it, with the bprop's value and numpy's derivative."""
    x = np.random.default_rng(4).uniform(0.5, 1.5, 20).astype(np.float16)
    wrong = np.ones(20)
    wrong[7] = 1.03
    op = numpy_op(lambda a: np.exp(a), lambda a: wrong * np.exp(a))
    report = ms.gradcheck(op, (ms.Tensor(x),), cast_float64=False, fast_mode=False, raise_exception=False)
    r = report.worst
    assert not report.passed and r.worst_input == (7,) and r.worst_output == (0, (7,))
    assert r.analytic_value == float(np.float16(1.03 * np.exp(np.float64(x[7]))))
    assert r.numerical_value == pytest.approx(np.exp(np.float64(x[7])), rel=5e-3)
    # the Jacobians in full: the bprop's, and differences near numpy's exp (float16 resolves about 0.5%)
    np.testing.assert_array_equal(r.analytic, np.diag((wrong * np.exp(x.astype(np.float64))).astype(np.float16)))
    np.testing.assert_allclose(np.diag(r.numerical), np.exp(x.astype(np.float64)), rtol=5e-3)
    off = r.numerical - np.diag(np.diag(r.numerical))  # an elementwise op: no cross terms (the weights' rounding)
    assert np.abs(off).max() < 1e-12


# -- 5. the gate: check_bound_op -----------------------------------------------------------------------------------
FLOAT_CASES = sorted(n for n, c in CASES.items() if any(d.startswith("float") for d in c.dtypes))
NO_FLOAT_OUTPUT = {"special_values"}  # isnan/isinf/isfinite flags: int32 outputs only


@lru_cache(maxsize=None)
def corpus_op(name: str):
    func = CASES[name].func
    return ops.Custom(func, func_type="hybrid" if getattr(func, "ms_kernel_flag", False) else "akg")


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name", FLOAT_CASES)
def test_every_float_corpus_kernel_passes_the_gate(name, dtype):
    """No false alarm: the derived backward of each float corpus kernel, checked in float64 on the example,
    and its run in float16/float32 against its float64 run (rounding, piecewise and NaN-input kernels included:
    jumps are left out, not called wrong)."""
    tensors, attrs = CASES[name].inputs(np.random.default_rng(0), "float32", 4, 5)
    example = tuple(t.astype(dtype) if t.dtype.kind == "f" else t for t in tensors)
    before = [t.copy() for t in example]
    if name in NO_FLOAT_OUTPUT:  # nothing to differentiate: said so, not passed
        with pytest.raises(ValueError, match="no floating-point output"):
            check_bound_op(corpus_op(name), (*example, *attrs), float64=True)
        return
    with np.errstate(invalid="ignore"):
        report = check_bound_op(corpus_op(name), (*example, *attrs), float64=True)
    assert report.passed, str(report)
    assert report.summary().startswith("gradients checked: ok, worst relative error ")
    assert f"(in float64, and {dtype} against it" in report.summary()  # (and any element left out: a jump)
    assert report.against_float64 is not None and report.against_float64.dtype == dtype
    for b, t in zip(before, example):  # the user's example arrays are left as they were
        np.testing.assert_array_equal(b, t)


def _tutorial(tmp_path: Path, program: str):
    """The tutorial's kernels and bprop (its function definitions only, importing ``mskernel.ops``), as a
    module in ``tmp_path`` (a real file, so the hybrid parser reads their source)."""
    text = (TUTORIALS / program).read_text()
    defs = [ast.get_source_segment(text, n) for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    path = tmp_path / f"tutorial_{Path(program).stem}.py"
    path.write_text("import mskernel.ops as ops\n\n\n" + "\n\n\n".join(defs) + "\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not TUTORIALS.is_dir(), reason=f"MindSpore's tutorials are read from {TUTORIALS}")
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_the_tutorials_kernels_at_the_gate(dtype, tmp_path):
    x = np.array([1.0, 4.0, 9.0], dtype)
    # seed 001 (pyfunc square with a pyfunc bprop 2 x dout): right, in its own dtype and in float64
    t1 = _tutorial(tmp_path, "seed_001_pyfunc_bprop.py")
    square = ops.Custom(t1.square, lambda x: x, lambda x: x, bprop=t1.bprop(), func_type="pyfunc")
    assert check_bound_op(square, (x,), float64=False, names=["x"]).summary().endswith(f"(in {dtype})")
    assert check_bound_op(square, (x,), float64=True, names=["x"]).passed
    # seed 003 (akg): square_grad is a right kernel, checked through its derived backward ...
    t3 = _tutorial(tmp_path, "seed_003_akg_bprop.py")
    grad_kernel = ops.Custom(t3.square_grad, lambda x, _: x, lambda x, _: x, func_type="akg")
    dout = np.array([0.5, -1.0, 2.0], dtype)
    assert check_bound_op(grad_kernel, (x, dout), float64=True, names=["x", "dout"]).passed
    # ... while its square reads its own unwritten output (y[i0] = y[i0] * y[i0]: zeros here), so its bprop
    # 2 x dout is not its derivative (0): the gate says so, at the largest x
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PortabilityWarning)
        zero_square = ops.Custom(t3.square, lambda x: x, lambda x: x, bprop=t3.bprop(), func_type="akg")
        report = check_bound_op(zero_square, (x,), float64=True, names=["x"])
    assert not report.passed
    assert report.summary() == ("gradients checked in float64: FAILED for input 0 (x), worst at "
                                "d out[0][2] / d in[2]: analytic 18 vs numerical 0")


@kernel
def sin_times(x, y):
    z = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        z[i] = sin(x[i]) * y[i]  # noqa: F821 (a DSL intrinsic)
    return z


def _sin_times_bprop(scale_y: float):
    def bprop(x, y, out, dout):
        a, b, d = (t.asnumpy().astype(np.float64) for t in (x, y, dout))
        dt = x.asnumpy().dtype
        return ms.Tensor((np.cos(a) * b * d).astype(dt)), ms.Tensor((scale_y * np.sin(a) * d).astype(dt))
    return bprop


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_a_hybrid_kernels_bprop_off_by_two_percent_is_caught_in_float64(dtype):
    rng = np.random.default_rng(5)
    x, y = rng.uniform(-1.5, 1.5, 8).astype(dtype), rng.uniform(-1, 1, 8).astype(dtype)
    right = ops.Custom(sin_times, lambda a, b: a, lambda a, b: a, func_type="hybrid", bprop=_sin_times_bprop(1.0))
    assert check_bound_op(right, (x, y), float64=True, names=["x", "y"]).passed
    wrong = ops.Custom(sin_times, lambda a, b: a, lambda a, b: a, func_type="hybrid", bprop=_sin_times_bprop(1.02))
    report = check_bound_op(wrong, (x, y), float64=True, names=["x", "y"])
    assert not report.passed and report.checked_in == "float64" and report.dtype == dtype
    assert [r.passed for r in report.inputs] == [True, False]
    r = report.worst
    k = r.worst_input[0]
    sin_x = np.sin(np.float64(x[k]))  # d z / d y = sin x, numpy's
    assert r.worst_output == (0, (k,)) and r.analytic_value == pytest.approx(1.02 * sin_x, rel=1e-12)
    assert r.numerical_value == pytest.approx(sin_x, rel=1e-6)
    assert report.summary().startswith("gradients checked in float64: FAILED for input 1 (y), worst at "
                                       f"d out[0][{k}] / d in[{k}]: analytic ")
    # the run in the user's dtype agrees with the float64 run: the same bprop, wrong in both
    assert report.against_float64 is not None and report.against_float64.passed


def square_into_float32(x):
    y = output_tensor(x.shape, "float32")
    for i in range(x.shape[0]):
        y[i] = float32(x[i] * x[i])  # noqa: F821 (a DSL intrinsic)
    return y


def _square_bprop(scale: float):
    def bprop(x, out, dout):
        a = x.asnumpy()
        return (ms.Tensor((scale * 2 * a.astype(np.float64) * dout.asnumpy().astype(np.float64)).astype(a.dtype)),)
    return bprop


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_a_kernel_writing_float32_is_differenced_at_float32s_step(dtype):
    """A kernel whose output is float32 whatever it reads is float32 in the float64 check too: at float64's
    step (1e-6) its quotients carry ~6e-8 / 1e-6 = 6% noise, and a bprop 2% off passed the gate (18 of 20 draws).
    Differenced at float32's row instead, 2% (and 0.5%) errors fail and the right bprop passes."""
    right = ops.Custom(square_into_float32, func_type="akg", bprop=_square_bprop(1.0))
    for seed in range(5):
        x = np.random.default_rng(seed).uniform(-1, 1, 10).astype(dtype)
        report = check_bound_op(right, (x,), float64=True, names=["x"])
        assert report.passed, str(report)
        assert report.checked_in == "float64" and report.tolerance is TOLERANCES["float32"]
        for scale in (1.02, 1.005):
            wrong = ops.Custom(square_into_float32, func_type="akg", bprop=_square_bprop(scale))
            report = check_bound_op(wrong, (x,), float64=True, names=["x"])
            assert not report.passed, (seed, scale, str(report))
            k = report.worst.worst_input[0]
            assert report.worst.analytic_value == pytest.approx(scale * 2 * float(x[k]), rel=1e-6)


def exp_kernel(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = exp(x[i])  # noqa: F821 (a DSL intrinsic)
    return y


def test_overflow_in_float16_fails_against_float64_naming_the_output():
    op = ops.Custom(exp_kernel, func_type="akg")
    x = np.linspace(0.0, 12.0, 7).astype(np.float16)
    report = check_bound_op(op, (x,), float64=True, names=["x"])
    assert not report.passed and all(r.passed for r in report.inputs)  # the Jacobians agree in float64
    against = report.against_float64
    assert isinstance(against, AgainstFloat64) and not against.passed and against.dtype == "float16"
    out = against.items[0]
    assert out.what == "output 0" and not out.passed
    assert out.worst == (6,) and out.got == np.inf and out.want == pytest.approx(np.exp(12.0), rel=1e-12)
    assert np.exp(np.float64(x[6])) > np.finfo(np.float16).max  # numpy: exp(12) is beyond float16
    assert [d.what for d in against.items] == ["output 0", "gradient of x"] and not against.items[1].passed
    assert against.worst.what == "output 0"
    assert report.summary().startswith("gradients checked: FAILED in float16 against float64: output 0: ")
    assert "inf at [6] where float64 gives 162755" in report.summary()
    assert "float16 against float64 (within 0.01): FAILED" in str(report)
    # below the overflow, float16 is within its tolerance; float32 holds exp(12) with room to spare
    assert check_bound_op(op, (np.linspace(0.0, 3.0, 7).astype(np.float16),), float64=True).passed
    assert check_bound_op(op, (x.astype(np.float32),), float64=True).passed


def one_minus_cos_over_square(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        c = cos(x[i])  # noqa: F821 (a DSL intrinsic)  -- a local of the kernel's dtype: cos rounded to float16
        y[i] = (1.0 - c) / (x[i] * x[i])
    return y


def test_catastrophic_cancellation_in_float16_fails_against_float64():
    op = ops.Custom(one_minus_cos_over_square, func_type="akg")
    x = np.linspace(0.02, 0.1, 5).astype(np.float16)
    report = check_bound_op(op, (x,), float64=True, names=["x"])
    assert all(r.passed for r in report.inputs)  # in float64 the kernel and its derived backward are right
    assert not report.passed and not report.against_float64.passed
    out = report.against_float64.items[0]
    wide = x.astype(np.float64)
    want = (1 - np.cos(wide)) / wide ** 2  # numpy, float64: about 1/2
    assert np.float16(np.cos(wide[0])) == 1.0  # numpy: in float16, cos(0.02) is 1, and 1 - cos(x) is 0
    assert out.what == "output 0" and not out.passed
    assert out.worst == (0,) and out.got == 0.0 and out.want == pytest.approx(want[0], rel=1e-12)
    assert not report.against_float64.items[1].passed  # and the gradient, which the cancellation feeds
    assert report.summary().startswith("gradients checked: FAILED in float16 against float64: ")
    assert "[FAIL] output 0: " in str(report)
    # away from the cancellation, the same kernel in float16 is fine
    assert check_bound_op(op, (np.linspace(1.0, 2.0, 5).astype(np.float16),), float64=True).passed


# -- 6. reports ----------------------------------------------------------------------------------------------------
def test_summary_text_when_passed():
    x = ms.Tensor(np.linspace(-1, 1, 9).astype(np.float16))
    report = own(SMOOTH["tanh"], (x,))
    assert re.fullmatch(r"gradients checked: ok, worst relative error \de-0\d \(in float16\)", report.summary())
    wide = check_bound_op(pyfunc_op(SMOOTH["tanh"]), (x.asnumpy(),), float64=True)
    assert re.fullmatch(r"gradients checked: ok, worst relative error \de-\d\d \(in float64, and float16 against it\)",
                        wide.summary())


def test_summary_text_when_failed_names_input_and_values():
    fn = SMOOTH["xy_sin_y"]
    x, y = np.array([0.3, -0.7, 1.1]), np.array([0.5, 0.2, -0.4])
    report = check_bound_op(pyfunc_op(fn, 1.5), (x, y), float64=False, names=["x", "y"])
    assert not report.passed
    m = re.fullmatch(r"gradients checked in float64: FAILED for input (\d) \((\w)\), worst at d out\[0\]\[(\d)\] / "
                     r"d in\[(\d)\]: analytic (\S+) vs numerical (\S+)", report.summary())
    assert m, report.summary()
    i, name, k, k2 = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
    assert name == "xy"[i] and k == k2
    exact = fn.partials[i](x[k], y[k])
    assert float(m.group(5)) == pytest.approx(1.5 * exact, rel=1e-5)
    assert float(m.group(6)) == pytest.approx(exact, rel=1e-5)


def test_worst_relative_error_is_small_when_passing():
    fn = SMOOTH["x_sin_x"]
    for fast in (True, False):
        r64 = ms.gradcheck(pyfunc_op(fn), draw(fn, "float64", 30, 1), fast_mode=fast)
        assert r64.passed and 0 < r64.worst_rel_error < 1e-6
        r16 = own(fn, draw(fn, "float16", 30, 1), fast=fast)
        assert r16.passed and r16.worst_rel_error < 0.05


def test_worst_relative_error_is_not_inflated_by_zero_derivatives():
    """sin^2 + cos^2 is 1: its derivative is 0 everywhere and the differences are rounding noise, which is not
    a relative error of 1 (noise / noise)."""
    one = numpy_op(lambda x: np.sin(x) ** 2 + np.cos(x) ** 2, np.zeros_like)
    for dtype, bound in (("float64", 1e-6), ("float32", 0.1), ("float16", 0.1)):
        x = ms.Tensor(np.random.default_rng(0).uniform(-3, 3, 40).astype(dtype))
        for fast in (True, False):
            report = ms.gradcheck(one, (x,), cast_float64=False, fast_mode=fast, raise_exception=False)
            assert report.passed and report.worst_rel_error < bound, (dtype, fast, str(report))
            if not fast:
                assert np.abs(report.inputs[0].numerical).max() > 0  # there was noise to be inflated by


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_nan_gradients_fail(dtype):
    x = ms.Tensor(np.linspace(-1, 1, 9).astype(dtype))
    nan_bprop = numpy_op(lambda a: a * a, lambda a: np.where(a > 0.5, np.nan, 2 * a))
    for fast in (True, False):
        report = ms.gradcheck(nan_bprop, (x,), cast_float64=False, fast_mode=fast, raise_exception=False)
        assert not report.passed and np.isnan(report.worst.analytic_value), str(report)
    gate = check_bound_op(nan_bprop, (x.asnumpy(),), float64=True, names=["x"])
    assert not gate.passed and "FAILED for input 0 (x)" in gate.summary() and "analytic nan" in gate.summary()


def test_gradcheck_error_carries_the_report():
    fn = SMOOTH["exp"]
    xs = draw(fn, "float16", 10, 0, -1, 1)
    with pytest.raises(ms.GradcheckError) as e:
        ms.gradcheck(pyfunc_op(fn, 1.05), xs, cast_float64=False)
    report = e.value.report
    assert isinstance(report, GradcheckReport) and not report.passed and report.checked_in == "float16"
    assert isinstance(e.value, AssertionError) and str(e.value) == str(report)
    assert str(report).startswith("gradcheck FAILED (full mode, float16: eps 0.22 (4-point stencil)")


@kernel
def cube_f32_only(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * x[i]
    return y


def test_a_hybrid_op_registered_for_float32_only_is_checked_in_float32_and_says_so():
    from mskernel.ops import CustomRegOp, DataType

    info = (CustomRegOp("cube").input(0, "x").output(0, "y")
            .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())
    x = np.array([0.5, 1.0, -2.0], np.float32)
    right = ops.Custom(cube_f32_only, func_type="hybrid", reg_info=info)
    report = check_bound_op(right, (x,), float64=True, names=["x"])
    assert report.passed and report.checked_in == "float32" and report.against_float64 is None
    assert report.summary().endswith("(in float32; the op does not take float64 (TypeError))")
    wrong = ops.Custom(cube_f32_only, func_type="hybrid", reg_info=info,
                       bprop=lambda x, out, dout: (2 * x * x * dout,))  # 3 x^2 is right
    bad = check_bound_op(wrong, (x,), float64=True, names=["x"])
    assert not bad.passed and bad.worst.worst_input == (2,)  # |x| largest: 8 vs 12
    assert bad.worst.numerical_value == pytest.approx(3 * 4.0, rel=2e-3)
