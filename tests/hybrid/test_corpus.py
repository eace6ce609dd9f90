"""Every corpus kernel, three ways: compiled == pure-Python == numpy reference.

Shapes vary through hypothesis (compilation is per signature, so new shapes are cheap);
dtypes through parametrization. Also run on strided (non-contiguous) views.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mskernel.hybrid import HybridKernel

from .corpus import CASES

PARAMS = [(name, dt) for name, c in CASES.items() for dt in c.dtypes]
_KERNELS: dict[str, HybridKernel] = {}

# compiled vs Python emulation: same operations, different libm (numpy SIMD vs glibc) and,
# for float16, rounding after each statement instead of after each operation
_SAME = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}
# emulation vs numpy reference: summation order may differ
_REF = {"float16": 5e-2, "float32": 1e-4, "float64": 1e-9}


def kernel_for(name: str) -> HybridKernel:
    if name not in _KERNELS:
        _KERNELS[name] = HybridKernel.from_function(CASES[name].func)
    return _KERNELS[name]


def check_outputs(got, emulated, reference) -> None:
    assert len(got) == len(emulated) == len(reference)
    for g, e, r in zip(got, emulated, reference):
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
        assert g.shape == e.shape == np.shape(r)
        tol = _SAME.get(g.dtype.name, 0)
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol, equal_nan=True)
        tol = _REF.get(g.dtype.name, 0)
        np.testing.assert_allclose(e, np.asarray(r, dtype=e.dtype), rtol=tol, atol=tol, equal_nan=True)


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("name,dtype", PARAMS)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(n=st.integers(1, 7), m=st.integers(1, 6), seed=st.integers(0, 2**16))
def test_three_ways(name: str, dtype: str, n: int, m: int, seed: int) -> None:
    case = CASES[name]
    hk = kernel_for(name)
    tensors, attrs = case.inputs(np.random.default_rng(seed), dtype, n, m)
    got = hk.run([t.copy() for t in tensors], attrs)
    emulated = hk.run_python([t.copy() for t in tensors], attrs)
    reference = case.reference(*[t.copy() for t in tensors], *attrs)
    check_outputs(got, emulated, reference)


def _strided(a: np.ndarray) -> np.ndarray:
    """The same values in a non-contiguous view (every other element of a bigger array)."""
    big = np.zeros(tuple(2 * d for d in a.shape), a.dtype)
    view = big[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    return view


@pytest.mark.parametrize("name", sorted(CASES))
def test_strided_inputs_match(name: str) -> None:
    case = CASES[name]
    hk = kernel_for(name)
    tensors, attrs = case.inputs(np.random.default_rng(7), case.dtypes[0], 5, 4)
    views = [_strided(t) if t.ndim else t for t in tensors]
    assert all(not v.flags.c_contiguous for v in views if v.size > 1)
    before = hk.compile_count
    got = hk.run(views, attrs)
    emulated = hk.run_python([t.copy() for t in tensors], attrs)
    check_outputs(got, emulated, case.reference(*[t.copy() for t in tensors], *attrs))
    assert hk.compile_count - before <= 1  # strided and contiguous share one compiled kernel


def test_inplace_output_is_the_input_array() -> None:
    hk = kernel_for("inplace_and_output")
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((2, 3), np.float32)
    d, a_out = hk.run([a, b])
    assert a_out is a
    np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3) + 1)
    np.testing.assert_array_equal(d, np.arange(6).reshape(2, 3) - 1)
    assert hk.inplace_map == {1: 0}
