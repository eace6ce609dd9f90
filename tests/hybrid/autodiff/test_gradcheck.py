"""The derived backward of every differentiable corpus kernel passes gradcheck (float64), through
``ops.Custom(func_type="akg")`` with no bprop, and its compiled and Python runs agree."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.hybrid import HybridKernel
from mskernel.hybrid.autodiff import backward_kernel

from ..corpus import CASES

# kernels with no float input have nothing to differentiate; float16-only kernels cannot be gradchecked
NO_FLOAT_INPUT = {"scale_int", "logic", "int_literals", "casts", "int_ops", "int_minmax"}
PIECEWISE_CONSTANT = {"rounding"}  # derivative 0 wherever it exists; the test data sits on the jumps
NO_FLOAT_OUTPUT = {"special_values"}  # isnan/isinf/isfinite flags: gradcheck refuses it (test_gradcheck_dtypes.py)
DIFFERENTIABLE = sorted(n for n, c in CASES.items() if n not in NO_FLOAT_INPUT | PIECEWISE_CONSTANT | NO_FLOAT_OUTPUT
                        and any(d in ("float64", "float32") for d in c.dtypes))


def _inputs(name: str, dtype: str):
    case = CASES[name]
    tensors, attrs = case.inputs(np.random.default_rng(7), dtype, 4, 3)
    return case, tensors, attrs


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_auto_backward_passes_gradcheck(name: str) -> None:
    case = CASES[name]
    dtype = "float64" if "float64" in case.dtypes else "float32"
    _, tensors, attrs = _inputs(name, dtype)
    op = ops.Custom(case.func, func_type="akg")
    floats = tuple(ms.Tensor(t.astype(np.float64) if t.dtype == np.float32 else t) for t in tensors)
    positions = [k for k, t in enumerate(floats) if t._data.dtype.kind == "f"]

    def fn(*ts):
        outs = op(*(t * 1 for t in ts), *attrs)  # `* 1`: in-place kernels must not write the checked inputs
        outs = outs if isinstance(outs, tuple) else (outs,)
        return tuple(o for o in outs if o._data.dtype.kind == "f")

    if name == "float_to_int":  # float32 only: compare with the analytic value instead
        x = ms.Tensor(tensors[0])
        g = ms.grad(lambda x: op(x)[1].sum())(x)
        np.testing.assert_allclose(g.asnumpy(), np.full(tensors[0].shape, 2.0, np.float32))
        return
    report = ms.gradcheck(fn, floats, grad_position=positions, cast_float64=False, raise_exception=False)
    assert report.passed, report


@pytest.mark.parametrize("name", DIFFERENTIABLE + sorted(PIECEWISE_CONSTANT))
def test_compiled_backward_equals_python_emulation(name: str) -> None:
    case = CASES[name]
    dtype = "float64" if "float64" in case.dtypes else "float32"
    _, tensors, attrs = _inputs(name, dtype)
    hk = HybridKernel.from_function(case.func)
    bk, src = backward_kernel(hk, hk.signature([t.dtype for t in tensors], [t.ndim for t in tensors], attrs))
    inputs = [t.copy() for t in tensors]
    outs = hk.run(inputs, attrs)
    rng = np.random.default_rng(3)
    douts = [rng.standard_normal(o.shape).astype(o.dtype) for o in outs]
    args = [*inputs, *[o for o, r in zip(outs, hk.ir.returns) if r not in hk.ir.params], *douts]
    compiled, emulated = bk.run(args, attrs), bk.run_python([a.copy() for a in args], attrs)
    for c, e in zip(compiled, emulated):
        np.testing.assert_allclose(c, e, rtol=1e-12, atol=1e-12)
    if name in PIECEWISE_CONSTANT:
        assert all(not np.any(c) for c in compiled)


def test_integer_inputs_get_no_gradient_and_float_ones_do() -> None:
    def scale_by_index(x, k):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = x[i] * float64(k[i])
        return y

    op = ops.Custom(scale_by_index, func_type="akg")
    x, k = ms.Tensor(np.array([1.0, 2.0, 3.0])), ms.Tensor(np.array([4, 5, 6], np.int32))
    gx, gk = ms.grad(lambda x, k: op(x, k).sum(), grad_position=(0, 1))(x, k)
    np.testing.assert_array_equal(gx.asnumpy(), [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(gk.asnumpy(), [0, 0, 0])


def test_debug_build_of_the_backward_agrees() -> None:
    case = CASES["conv2d"]
    _, tensors, attrs = _inputs("conv2d", "float64")
    fast = ops.Custom(case.func, func_type="akg")
    checked = ops.Custom(case.func, func_type="akg", debug=True)
    x, w = (ms.Tensor(t) for t in tensors)
    a = ms.grad(lambda x, w: fast(x, w).sum(), grad_position=(0, 1))(x, w)
    b = ms.grad(lambda x, w: checked(x, w).sum(), grad_position=(0, 1))(x, w)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u.asnumpy(), v.asnumpy())
