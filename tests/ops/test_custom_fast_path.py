"""The per-signature fast path of ops.Custom (issue [15]): after a call plans a signature, later calls with
only Tensor arguments run the kernel kind's runner (through the engine core's CustomCall); they must do
exactly what the planning call does, errors included."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.hybrid import config as hybrid_config
from mskernel.kernels.aot import AotError
from mskernel.ops import kernel

AOT_SOURCE = r"""
#include <cstdint>
#include <stdexcept>
extern "C" int Mul(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                   void *extra) {
  const float *x = static_cast<const float *>(params[0]);
  const float *y = static_cast<const float *>(params[1]);
  float *z = static_cast<float *>(params[2]);
  int64_t n = 1;
  for (int i = 0; i < ndims[2]; ++i) n *= shapes[2][i];
  if (n > 0 && x[0] == -7.0f) return 5;                              // a data-dependent failure code
  if (n > 0 && x[0] == -8.0f) throw std::runtime_error("x[0] is -8");  // and a C++ exception
  for (int64_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
  return 0;
}
"""


@kernel
def hybrid_mul(x, y):
    z = output_tensor(x.shape, x.dtype)  # noqa: F821
    for i in range(x.shape[0]):
        z[i] = x[i] * y[i]
    return z


def mul_bprop(x, y, out, dout):
    return dout * y, dout * x


def same(x, y):
    return x


@pytest.fixture(scope="module")
def aot_src(tmp_path_factory):
    p = tmp_path_factory.mktemp("fast_aot") / "fast_mul.cc"
    p.write_text(AOT_SOURCE)
    return str(p)


def make(kind: str, aot_src: str):
    if kind == "hybrid":
        return ops.Custom(hybrid_mul, func_type="hybrid")
    if kind == "aot":
        return ops.Custom(f"{aot_src}:Mul", same, same, func_type="aot", bprop=mul_bprop)
    return ops.Custom(lambda x, y: x * y, same, same, func_type="pyfunc", bprop=mul_bprop)


CALLS = {"call": lambda op, *a: op(*a)}


def data(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("kind", ["hybrid", "aot", "pyfunc"])
def test_fast_calls_agree_with_numpy_values_and_gradients(kind, call, aot_src):
    op, run = make(kind, aot_src), CALLS[call]
    for n in (5, 5, 9, 5):  # plan, fast, another signature (plans), fast again
        a, b = data(n, n)
        np.testing.assert_allclose(run(op, ms.Tensor(a), ms.Tensor(b)).asnumpy(), a * b, rtol=1e-6)
        ga, gb = ms.grad(lambda x, y: run(op, x, y).sum(), (0, 1))(ms.Tensor(a), ms.Tensor(b))
        np.testing.assert_allclose(ga.asnumpy(), b, rtol=1e-6)
        np.testing.assert_allclose(gb.asnumpy(), a, rtol=1e-6)
    assert sorted(k[0] for k in op._fast) == [(5,), (9,)]  # one fast plan per signature
    x = ms.Parameter(ms.Tensor(a), name="x")
    out = run(op, x, ms.Tensor(b))
    assert out.grad_fn is not None and out.grad_fn.kind == "custom"  # the fast path records the node


def test_calls_with_attributes_do_not_take_the_fast_path():
    op = ops.Custom(lambda x, k: x * k, lambda x, k: x, lambda x, k: x, func_type="pyfunc")
    x = ms.Tensor(np.ones(3, np.float32))
    for k in (2.0, 2.0, 3.0):
        np.testing.assert_array_equal(op(x, k).asnumpy(), np.full(3, k, np.float32))
    assert op._fast == {} and len(op.signatures_used()) == 2


@pytest.mark.parametrize("call", list(CALLS))
def test_pyfunc_fast_path_checks_what_the_function_returns(call):
    # right the first time (the call that plans), wrong later: the fast path must still say so
    op = ops.Custom(lambda x: x if x[0] > 0 else x.astype(np.float64), lambda x: x, lambda x: x, func_type="pyfunc")
    run = CALLS[call]
    run(op, ms.Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="output 0 has dtype float64, but out_dtype says float32"):
        run(op, ms.Tensor(-np.ones(2, np.float32)))


@pytest.mark.parametrize("call", list(CALLS))
def test_pyfunc_fast_path_hands_read_only_inputs_and_python_scalars(call):
    seen = []

    def f(x, s):
        seen.append((type(s).__name__, x.flags.writeable))
        x[0] = 1.0  # must fail: the function sees the op's input, not a copy
        return x

    op, run = ops.Custom(f, lambda x, s: x, lambda x, s: x, func_type="pyfunc"), CALLS[call]
    for _ in range(2):
        with pytest.raises(ValueError, match="read-only"):
            run(op, ms.Tensor(np.zeros(2, np.float32)), ms.Tensor(np.float32(3.0)))
    assert seen == [("float", False)] * 2


@pytest.mark.parametrize("call", list(CALLS))
def test_aot_fast_path_reports_kernel_failures_like_the_first_call(call, aot_src):
    op, run = make("aot", aot_src), CALLS[call]
    a, b = data(4, 0)
    run(op, ms.Tensor(a), ms.Tensor(b))  # planned
    a[0] = -7.0
    with pytest.raises(AotError, match=r"function\(Mul\) is 5\. Any return value not equal to 0"):
        run(op, ms.Tensor(a), ms.Tensor(b))
    a[0] = -8.0
    with pytest.raises(AotError, match="Error message is x\\[0\\] is -8"):
        run(op, ms.Tensor(a), ms.Tensor(b))


@pytest.mark.parametrize("call", list(CALLS))
def test_aot_fast_path_copies_a_strided_input(call, aot_src):
    op, run = make("aot", aot_src), CALLS[call]
    a, b = data(8, 1)
    run(op, ms.Tensor(a[:4]), ms.Tensor(b[:4]))  # planned on contiguous inputs of shape (4,)
    strided = ms.Tensor(a)[::2]
    assert not strided._data.flags.c_contiguous
    np.testing.assert_allclose(run(op, strided, ms.Tensor(b[:4])).asnumpy(), a[::2] * b[:4], rtol=1e-6)


def test_hybrid_fast_plan_follows_the_debug_switch():
    # set_debug selects another build of each kernel (bounds-checked or not): a fast plan made before the
    # switch changed must run the build for the new setting
    op = ops.Custom(hybrid_mul, func_type="hybrid")
    a, b = data(6, 2)
    previous = hybrid_config.get_debug()
    try:
        hybrid_config.set_debug(False)
        op(ms.Tensor(a), ms.Tensor(b))
        (runner, _, _), = op._fast.values()
        assert runner((a, b))[0].tolist() == (a * b).tolist()
        assert {sig.debug for sig in op.hybrid_kernel._compiled} == {False}
        hybrid_config.set_debug(True)
        assert runner((a, b))[0].tolist() == (a * b).tolist()
        assert {sig.debug for sig in op.hybrid_kernel._compiled} == {False, True}
    finally:
        hybrid_config.set_debug(previous)
