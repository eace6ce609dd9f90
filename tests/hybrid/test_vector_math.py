"""Vector math (mskernel/hybrid/vector_math.py): which kernels call libmvec, and how far its results stray.

Oracles share no code with mskernel or glibc's vector functions: float32 results are compared with numpy's
float64 functions, float64 results with numpy's long double functions (erf, which numpy lacks, with Python's
``math.erf``, glibc's scalar erf, within one more ulp); the measure is the distance to that exact-enough
value in ulp of the result's dtype. That the SIMD variants were really called is read from the built
library's dynamic symbols (``nm -D``), and the scalar path is compared bit for bit with glibc's scalar functions
(Python's ``math`` module for float64, ``libm.so.6`` through ctypes for float32).
"""
from __future__ import annotations

import ctypes
import math
import subprocess

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid.vector_math import (MAX_ULP, VECTOR_FUNCTIONS, available_functions, declarations,
                                         set_vector_math, vector_math_setting)

FUNCTIONS, WHY = available_functions()
needs_libmvec = pytest.mark.skipif(not FUNCTIONS, reason=f"no vector math here: {WHY}")

#: DSL name of each C function, and inputs where its results are ordinary numbers (overflow tested apart)
DSL = {"exp": "exp", "expm1": "expm1", "log": "log", "sin": "sin", "cos": "cos", "tanh": "tanh", "atan": "atan",
       "erf": "erf", "atan2": "atan2", "pow": "power"}
RANGES = {"exp": (-87.0, 88.0), "expm1": (-20.0, 20.0), "log": (1e-30, 1e30), "sin": (-100.0, 100.0),
          "cos": (-100.0, 100.0), "tanh": (-10.0, 10.0), "atan": (-1e4, 1e4), "erf": (-5.0, 5.0),
          "atan2": (-10.0, 10.0), "pow": (0.01, 10.0)}
NUMPY = {"exp": np.exp, "expm1": np.expm1, "log": np.log, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
         "atan": np.arctan, "atan2": np.arctan2, "pow": np.power}
MATH = {"exp": math.exp, "expm1": math.expm1, "log": math.log, "sin": math.sin, "cos": math.cos, "tanh": math.tanh,
        "atan": math.atan, "erf": math.erf, "atan2": math.atan2, "pow": math.pow}


@pytest.fixture(autouse=True)
def _unset():
    yield
    set_vector_math(None)


def kernel(name: str) -> HybridKernel:
    """``y[i] = f(x[i])`` (or ``f(x[i], z[i])``) in a ``vectorize`` loop: a fresh kernel, compiled anew."""
    args = "x[i], z[i]" if VECTOR_FUNCTIONS[name] == 2 else "x[i]"
    params = "x, z" if VECTOR_FUNCTIONS[name] == 2 else "x"
    return HybridKernel.from_source(
        f"def vm_{name}({params}):\n    y = output_tensor(x.shape, x.dtype)\n"
        f"    for i in vectorize(x.shape[0]):\n        y[i] = {DSL[name]}({args})\n    return y\n")


def inputs(name: str, dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(map(ord, name)))
    lo, hi = RANGES[name]
    n = 1 << 15
    x = np.exp(rng.uniform(np.log(lo), np.log(hi), n)) if name == "log" else rng.uniform(lo, hi, n)
    z = rng.uniform(-10.0, 10.0, n) if name == "atan2" else rng.uniform(-5.0, 5.0, n)
    return [x.astype(dtype), z.astype(dtype)][:VECTOR_FUNCTIONS[name]]


def exact(name: str, args: list[np.ndarray]) -> np.ndarray:
    """The oracle, one precision up."""
    if args[0].dtype == np.float32:
        wide = [a.astype(np.float64) for a in args]
        return np.vectorize(math.erf)(wide[0]) if name == "erf" else NUMPY[name](*wide)
    if name == "erf":
        return np.vectorize(math.erf)(args[0]).astype(np.longdouble)
    return NUMPY[name](*[a.astype(np.longdouble) for a in args])


def ulps(got: np.ndarray, want: np.ndarray) -> float:
    """The largest distance of ``got`` from ``want``, in ulp of ``got``'s dtype at ``want``."""
    spacing = np.spacing(np.abs(want.astype(got.dtype))).astype(want.dtype)
    return float(np.max(np.abs(got.astype(want.dtype) - want) / spacing))


def simd_symbols(hk: HybridKernel, dtypes: list[str], ranks: list[int]) -> set[str]:
    """The libmvec functions the kernel's library calls (``_ZGVeN16v_expf`` -> ``expf``)."""
    path = hk.compile(dtypes, ranks).artifact.path
    out = subprocess.run(["nm", "-D", "--undefined-only", str(path)], capture_output=True, text=True, check=True).stdout
    return {symbol.split("@")[0].split("_", 2)[-1] for symbol in out.split() if symbol.startswith("_ZGV")}


@needs_libmvec
@pytest.mark.parametrize("name", sorted(VECTOR_FUNCTIONS))
def test_float32_kernels_call_the_simd_variants_within_their_bound(name):
    if name not in FUNCTIONS:
        pytest.skip(f"libmvec here has no {name}")
    hk = kernel(name)
    args = inputs(name, np.float32)
    got = hk.run(args)[0]
    assert simd_symbols(hk, ["float32"] * len(args), [1] * len(args)) == {name + "f"}
    assert ulps(got, exact(name, args)) <= MAX_ULP[name][0]


@needs_libmvec
@pytest.mark.parametrize("name", sorted(VECTOR_FUNCTIONS))
def test_float64_kernels_keep_the_scalar_functions_by_default(name):
    hk = kernel(name)
    args = inputs(name, np.float64)
    got = hk.run(args)[0]
    assert simd_symbols(hk, ["float64"] * len(args), [1] * len(args)) == set()
    want = np.array([MATH[name](*map(float, point)) for point in zip(*args)])
    np.testing.assert_array_equal(got, want)


@needs_libmvec
@pytest.mark.parametrize("name", sorted(VECTOR_FUNCTIONS))
def test_all_mode_vectorizes_float64_within_its_bound(name):
    if name not in FUNCTIONS:
        pytest.skip(f"libmvec here has no {name}")
    set_vector_math("all")
    hk = kernel(name)
    args = inputs(name, np.float64)
    got = hk.run(args)[0]
    assert simd_symbols(hk, ["float64"] * len(args), [1] * len(args)) == {name}
    assert ulps(got, exact(name, args)) <= MAX_ULP[name][1] + (1 if name == "erf" else 0)


@needs_libmvec
def test_off_mode_calls_the_scalar_float_functions_bit_for_bit():
    set_vector_math("off")
    hk = kernel("exp")
    x = inputs("exp", np.float32)[0]
    got = hk.run([x])[0]
    assert simd_symbols(hk, ["float32"], [1]) == set()
    assert "vector math" not in hk.source(["float32"], [1])
    expf = ctypes.CDLL("libm.so.6").expf  # glibc's scalar expf itself
    expf.restype, expf.argtypes = ctypes.c_float, [ctypes.c_float]
    np.testing.assert_array_equal(got, np.array([expf(float(v)) for v in x], np.float32))


@needs_libmvec
def test_special_values_survive_the_vector_path():
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 89.0, -104.0, -87.5, 88.7, 1e-30] * 8, np.float32)
    with np.errstate(over="ignore", under="ignore"):
        np.testing.assert_array_equal(kernel("exp").run([x])[0], np.exp(x.astype(np.float64)).astype(np.float32))
        y = np.array([0.0, -0.0, -1.0, np.inf, np.nan, 1.0, 1e-45, 3e38] * 8, np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        got, want = kernel("log").run([y])[0], np.log(y.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    assert ulps(got[finite], np.log(y[finite].astype(np.float64))) <= MAX_ULP["log"][0]


@needs_libmvec
def test_a_softmax_reduce_loop_is_vectorized_and_within_float32_rounding():
    hk = HybridKernel.from_source(
        "def softmax(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n"
        "        m = x[i, 0]\n        for j in reduce(x.shape[1]):\n            m = max(m, x[i, j])\n"
        "        s = 0.0\n        for j in reduce(x.shape[1]):\n            e = exp(x[i, j] - m)\n"
        "            y[i, j] = e\n            s = s + e\n        for j in vectorize(x.shape[1]):\n"
        "            y[i, j] = y[i, j] / s\n    return y\n")
    x = (np.random.default_rng(3).standard_normal((64, 1000)) * 4).astype(np.float32)
    got = hk.run([x])[0]
    wide = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = wide / wide.sum(axis=1, keepdims=True)
    # exp within 3 ulp, a reassociated sum of 1000 terms, one division: well inside 1e-5 relative
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=0)
    assert simd_symbols(hk, ["float32"], [2]) == {"expf"}


def test_the_setting_comes_from_the_call_then_the_environment_then_the_default(monkeypatch):
    monkeypatch.delenv("MSKERNEL_VECTOR_MATH", raising=False)
    assert (vector_math_setting().mode, vector_math_setting().source) == ("float32", "default")
    monkeypatch.setenv("MSKERNEL_VECTOR_MATH", "OFF")
    assert (vector_math_setting().mode, vector_math_setting().source) == ("off", "MSKERNEL_VECTOR_MATH")
    assert declarations({"exp"}) == []
    set_vector_math("all")
    assert (vector_math_setting().mode, vector_math_setting().source) == ("all", "set_vector_math('all')")
    set_vector_math(None)
    monkeypatch.setenv("MSKERNEL_VECTOR_MATH", "fastest")
    with pytest.raises(ValueError, match="MSKERNEL_VECTOR_MATH must be one of float32, all, off, got 'fastest'"):
        vector_math_setting()
    with pytest.raises(ValueError, match="set_vector_math: mode must be one of .* got 'fast'"):
        set_vector_math("fast")


@needs_libmvec
def test_changing_the_setting_changes_the_source_so_the_build_cache_cannot_mix_them():
    hk = kernel("exp")
    default = hk.source(["float32"], [1])
    set_vector_math("off")
    off = kernel("exp").source(["float32"], [1])
    assert default != off
    assert "expf(float) noexcept;" in default and "expf" not in off
    assert vector_math_setting().describe() == "vector math off (set_vector_math('off'))"
