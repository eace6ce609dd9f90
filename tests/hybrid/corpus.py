"""A corpus of hybrid-DSL kernels with input generators and numpy references.

Reusable by any test (ops.Custom, notebooks): ``CASES`` maps a name to a :class:`Case`;
``case.inputs(rng, dtype, n, m)`` makes tensors and attributes for sizes ``n``, ``m``;
``case.reference(*tensors, *attrs)`` computes the expected outputs with plain numpy.
Kernels are plain module-level functions (some decorated with ``@kernel``), so their
source is readable by ``inspect``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from mskernel.hybrid import kernel
from mskernel.hybrid.intrinsics import (allocate, ceil_div, erf, grid, output_tensor, parallel,  # noqa: F401
                                        reduce, rsqrt, serial, vectorize)

FLOATS = ("float32", "float64")
NUMERIC = ("float32", "float64", "int32")


@dataclass
class Case:
    """One corpus kernel: the DSL function, how to make inputs, the numpy reference."""

    name: str
    func: Callable[..., Any]
    make: Callable[[np.random.Generator, str, int, int], tuple[list[np.ndarray], list[Any]]]
    ref: Callable[..., Any]
    dtypes: Sequence[str]

    def inputs(self, rng: np.random.Generator, dtype: str, n: int, m: int) -> tuple[list[np.ndarray], list[Any]]:
        return self.make(rng, dtype, n, m)

    def reference(self, *args: Any) -> tuple[np.ndarray, ...]:
        out = self.ref(*args)
        return out if isinstance(out, tuple) else (out,)


CASES: dict[str, Case] = {}


def case(dtypes: Sequence[str], make: Callable[..., Any], ref: Callable[..., Any]):
    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        name = getattr(func, "__name__")
        CASES[name] = Case(name, func, make, ref, tuple(dtypes))
        return func
    return register


def values(rng: np.random.Generator, dtype: str, shape: tuple[int, ...], lo: float = -4, hi: float = 4) -> np.ndarray:
    if np.dtype(dtype).kind in "iu":
        return rng.integers(int(lo) * 5, int(hi) * 5 + 1, size=shape).astype(dtype)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def mat(*k: int):
    """make(): k-th input is an (n, m) matrix (k is a tag only)."""
    return lambda rng, dt, n, m: ([values(rng, dt, (n, m)) for _ in k], [])


def vec(*k: int):
    return lambda rng, dt, n, m: ([values(rng, dt, (n,)) for _ in k], [])


# ---------------------------------------------------------------- elementwise and broadcast
@case(NUMERIC + ("float16",), mat(0, 1), lambda a, b: a + b)
@kernel
def add(a, b):
    c = output_tensor(a.shape, a.dtype)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            c[i, j] = a[i, j] + b[i, j]
    return c


@case(FLOATS + ("float16",), lambda rng, dt, n, m: ([values(rng, dt, (n,)), values(rng, dt, (n,))], [1.5]),
      lambda x, y, a: (a * x + y).astype(x.dtype))
def axpy(x, y, alpha):
    out = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        out[i] = alpha * x[i] + y[i]
    return out


@case(("int32", "int64"), lambda rng, dt, n, m: ([values(rng, dt, (n, m))], [3]), lambda x, k: x * k + 1)
def scale_int(x, k):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            y[i, j] = x[i, j] * k + 1
    return y


@case(NUMERIC, lambda rng, dt, n, m: ([values(rng, dt, (n, m)), values(rng, dt, (m,))], []), lambda a, b: a + b[None, :])  # noqa: E501 (test data)
def broadcast_row(a, b):
    c = output_tensor(a.shape, a.dtype)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            c[i, j] = a[i, j] + b[j]
    return c


@case(NUMERIC, lambda rng, dt, n, m: ([values(rng, dt, (n,)), values(rng, dt, (m,))], []), lambda a, b: np.outer(a, b))
def outer(a, b):
    c = output_tensor((a.shape[0], b.shape[0]), a.dtype)
    for i in range(a.shape[0]):
        for j in range(b.shape[0]):
            c[i, j] = a[i] * b[j]
    return c


@case(FLOATS, mat(0, 1), lambda x, y: x * y * 0.5 + 3 * x - 1)
def fused(x, y):
    out = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        for j in vectorize(x.shape[1]):
            out[i, j] = x[i, j] * y[i, j] * 0.5 + 3 * x[i, j] - 1
    return out


@case(("float16",), vec(0), lambda x: (x * x).astype(np.float16))
def square_half(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y


# ---------------------------------------------------------------- reductions and linear algebra
@case(FLOATS + ("int32",), mat(0), lambda a: a.sum(axis=1, dtype=a.dtype))
def row_sum(a):
    out = output_tensor((a.shape[0],), a.dtype)
    for i in range(a.shape[0]):
        s = 0
        for j in reduce(a.shape[1]):
            s = s + a[i, j]
        out[i] = s
    return out


@case(NUMERIC, mat(0), lambda a: a.max(axis=0))
def col_max(a):
    out = output_tensor((a.shape[1],), a.dtype)
    for j in range(a.shape[1]):
        out[j] = a[0, j]
        for i in range(1, a.shape[0]):
            out[j] = max(out[j], a[i, j])
    return out


@case(FLOATS + ("int32",), lambda rng, dt, n, m: ([values(rng, dt, (n, m)), values(rng, dt, (m, n + 1))], []),
      lambda a, b: np.matmul(a, b))
@kernel
def matmul(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)
    for i0 in range(a.shape[0]):
        for i1 in range(b.shape[1]):
            c[i0, i1] = 0
            for i2 in reduce(a.shape[1]):
                c[i0, i1] = c[i0, i1] + a[i0, i2] * b[i2, i1]
    return c


@case(NUMERIC + ("float16",), mat(0), lambda a: a.T.copy())
def transpose(a):
    b = output_tensor((a.shape[1], a.shape[0]), a.dtype)
    for i, j in grid(a.shape):
        b[j, i] = a[i, j]
    return b


def _conv_make(rng, dt, n, m):
    return [values(rng, dt, (n + 2, m + 2)), values(rng, dt, (3, 3))], []


def _conv_ref(x, w):
    out = np.zeros((x.shape[0] - 2, x.shape[1] - 2), x.dtype)
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            s = x.dtype.type(0)
            for p in range(3):
                for q in range(3):
                    s = s + x[i + p, j + q] * w[p, q]
            out[i, j] = s
    return out


@case(NUMERIC, _conv_make, _conv_ref)
def conv2d(x, w):
    out = output_tensor((x.shape[0] - w.shape[0] + 1, x.shape[1] - w.shape[1] + 1), x.dtype)
    for i in parallel(out.shape[0]):
        for j in range(out.shape[1]):
            acc = 0
            for p in reduce(w.shape[0]):
                for q in reduce(w.shape[1]):
                    acc = acc + x[i + p, j + q] * w[p, q]
            out[i, j] = acc
    return out


def _softmax_ref(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(x.dtype)


@case(FLOATS, mat(0), _softmax_ref)
def softmax(x):
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in reduce(1, x.shape[1]):
            m = max(m, x[i, j])
        total = 0.0
        for j in range(x.shape[1]):
            row[j] = exp(x[i, j] - m)
            total = total + row[j]
        for j in range(x.shape[1]):
            y[i, j] = row[j] / total
    return y


@case(NUMERIC, vec(0), lambda x: np.cumsum(x, dtype=x.dtype))
def prefix_sum(x):
    y = output_tensor(x.shape, x.dtype)
    y[0] = x[0]
    for i in serial(1, x.shape[0]):
        y[i] = y[i - 1] + x[i]
    return y


# ---------------------------------------------------------------- branches
@case(NUMERIC + ("float16",), mat(0), lambda x: np.where(x > 0, x, 0).astype(x.dtype))
def relu(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > 0:
                y[i, j] = x[i, j]
            else:
                y[i, j] = 0
    return y


@case(NUMERIC, vec(0), lambda x: np.select([x < -2, x < 0, x == 0], [x * 2, -x, 7], x + 1).astype(x.dtype))
def piecewise(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        if x[i] < -2:
            y[i] = x[i] * 2
        elif x[i] < 0:
            y[i] = -x[i]
        elif x[i] == 0:
            y[i] = 7
        else:
            y[i] = x[i] + 1
    return y


@case(NUMERIC, vec(0), lambda x: np.clip(x, -1, 2).astype(x.dtype))
def clip_ternary(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = -1 if x[i] < -1 else (2 if x[i] > 2 else x[i])
    return y


@case(("int32",), vec(0), lambda x: ((x > -3) & (x < 5) & ~(x == 2) | (x == -10)).astype(np.int32))
def logic(x):
    y = output_tensor(x.shape, "int32")
    for i in range(x.shape[0]):
        y[i] = 1 if (-3 < x[i] < 5 and not x[i] == 2) or x[i] == -10 else 0
    return y


@case(FLOATS, lambda rng, dt, n, m: ([values(rng, dt, (n,))], [True]), lambda x, flag: np.abs(x) if flag else x)
def bool_attr(x, flag):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        if flag:
            y[i] = abs(x[i])
        else:
            y[i] = x[i]
    return y


# ---------------------------------------------------------------- integer semantics and casts
def _divmod_make(rng, dt, n, m):
    b = rng.integers(1, 6, size=(n,)) * rng.choice([-1, 1], size=(n,))
    return [values(rng, dt, (n,)), b.astype(dt)], []


@case(("int32", "int64", "float32", "float64"), _divmod_make, lambda a, b: (a // b, a % b))
def int_divmod(a, b):
    q = output_tensor(a.shape, a.dtype)
    r = output_tensor(a.shape, a.dtype)
    for i in range(a.shape[0]):
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]
    return q, r


@case(("int32",), vec(0), lambda a: (a // 3, a % -4, -a // 2, a.astype(np.float64) / 4))
def int_literals(a):
    q = output_tensor(a.shape, a.dtype)
    r = output_tensor(a.shape, a.dtype)
    n = output_tensor(a.shape, a.dtype)
    d = output_tensor(a.shape, "float64")
    for i in range(a.shape[0]):
        q[i] = a[i] // 3
        r[i] = a[i] % -4
        n[i] = -a[i] // 2
        d[i] = a[i] / 4
    return q, r, n, d


@case(("int32",), vec(0), lambda a: ((a.astype(np.float32) * 0.5).astype(np.float32), a.astype(np.int8),
                                     a.astype(np.int16), a.astype(np.int64) * 3, a.astype(np.float64),
                                     a.astype(np.float16)))
def casts(a):
    f = output_tensor(a.shape, "float32")
    i8 = output_tensor(a.shape, "int8")
    i16 = output_tensor(a.shape, "int16")
    i64 = output_tensor(a.shape, "int64")
    f64 = output_tensor(a.shape, "float64")
    f16 = output_tensor(a.shape, "float16")
    for i in range(a.shape[0]):
        f[i] = float32(a[i]) * 0.5
        i8[i] = int8(a[i])
        i16[i] = int16(a[i])
        i64[i] = int64(a[i]) * 3
        f64[i] = float64(a[i])
        f16[i] = float16(a[i])
    return f, i8, i16, i64, f64, f16


@case(("float32",), vec(0), lambda x: (np.trunc(x).astype(np.int32), x.astype(np.float64) * 2))
def float_to_int(x):
    a = output_tensor(x.shape, "int32")
    b = output_tensor(x.shape, "float64")
    for i in range(x.shape[0]):
        a[i] = int32(x[i])
        b[i] = float64(x[i]) * 2
    return a, b


@case(("int32", "int64"), lambda rng, dt, n, m: ([rng.integers(-3, 4, (n,)).astype(dt), rng.integers(0, 5, (n,)).astype(dt)], []),  # noqa: E501 (test data)
      lambda a, b: (a ** b, np.power(a, 2), (a + 7 + 3 - 1) // 3, a & b, a | 1, a ^ b, ~a, a << 1, b >> 1))
def int_ops(a, b):
    p = output_tensor(a.shape, a.dtype)
    sq = output_tensor(a.shape, a.dtype)
    cd = output_tensor(a.shape, a.dtype)
    band = output_tensor(a.shape, a.dtype)
    bor = output_tensor(a.shape, a.dtype)
    bxor = output_tensor(a.shape, a.dtype)
    inv = output_tensor(a.shape, a.dtype)
    shl = output_tensor(a.shape, a.dtype)
    shr = output_tensor(a.shape, a.dtype)
    for i in range(a.shape[0]):
        p[i] = a[i] ** b[i]
        sq[i] = power(a[i], 2)
        cd[i] = ceil_div(a[i] + 7, 3)
        band[i] = a[i] & b[i]
        bor[i] = a[i] | 1
        bxor[i] = a[i] ^ b[i]
        inv[i] = ~a[i]
        shl[i] = a[i] << 1
        shr[i] = b[i] >> 1
    return p, sq, cd, band, bor, bxor, inv, shl, shr


# ---------------------------------------------------------------- structure
@case(NUMERIC, mat(0, 1), lambda a, b: (a + b, a * b))
def multi_output(a, b):
    s = output_tensor(a.shape, a.dtype)
    p = output_tensor(a.shape, a.dtype)
    for arg in grid(a.shape):
        s[arg] = a[arg] + b[arg]
        p[arg] = a[arg] * b[arg]
    return s, p


@case(NUMERIC, vec(0), lambda x: x * 2)
def inplace_double(x):
    for i in range(x.shape[0]):
        x[i] = x[i] * 2
    return x


@case(NUMERIC, mat(0, 1), lambda a, b: (a - b, a + b))
def inplace_and_output(a, b):
    d = output_tensor(a.shape, a.dtype)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            d[i, j] = a[i, j] - b[i, j]
            a[i, j] = a[i, j] + b[i, j]
    return d, a


@case(NUMERIC, lambda rng, dt, n, m: ([values(rng, dt, (n, m)), values(rng, dt, (n, m))], []),
      lambda a, b: a + b[:, 0:1])
def grid_example(a, b):
    c = output_tensor(a.shape, a.dtype)
    for arg in grid(a.shape):
        c[arg] = a[arg] + b[arg[0], 0]
    return c


def _steps_ref(x):
    y = np.zeros_like(x)
    y[1::3] = x[1::3] * 2
    rev = x[::-1].copy()
    return y, rev


@case(NUMERIC, vec(0), _steps_ref)
def range_steps(x):
    y = output_tensor(x.shape, x.dtype)
    r = output_tensor(x.shape, x.dtype)
    for i in range(1, x.shape[0], 3):
        y[i] = x[i] * 2
    for i in range(x.shape[0] - 1, -1, -1):
        r[x.shape[0] - 1 - i] = x[i]
    return y, r


@case(("float32",), lambda rng, dt, n, m: ([values(rng, dt, (n,))], [n + 2]),
      lambda x, n: np.arange(n, dtype=np.float32) * 2)
def arange_attr(x, n):
    y = output_tensor((n,), "float32")
    for i in range(n):
        y[i] = i * 2
    return y


@case(FLOATS, mat(0), lambda x: (np.abs(x) + 1) * 2)
@kernel
def allocate_temp(x):
    t = allocate(x.shape, x.dtype)
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            t[i, j] = abs(x[i, j]) + 1
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            y[i, j] = t[i, j] * 2
    return y


@case(FLOATS, lambda rng, dt, n, m: ([values(rng, dt, (n,)), values(rng, dt, (n,))], []),
      lambda x, w: (x + 1.0) * w)
def shift_then_weight(x, w):  # two passes over the output: the second reads what the first wrote
    out = output_tensor(x.shape, x.dtype)
    for i0 in range(x.shape[0]):
        out[i0] = x[i0] + 1.0
    for i0 in range(x.shape[0]):
        out[i0] = out[i0] * w[i0]
    return out


@case(FLOATS, mat(0), lambda x: x[:, ::-1] * np.arange(x.shape[1])[None, ::-1])
def with_scopes(x):
    y = output_tensor(x.shape, x.dtype)
    with block_realize(y):
        with attr("pragma", 1):
            for i in range(x.shape[0]):
                for j in range(x.shape[1]):
                    k = x.shape[1] - 1 - j
                    y[i, j] = x[i, k] * k
    return y


# ---------------------------------------------------------------- intrinsics
def _positive(rng, dt, n, m):
    return [rng.uniform(0.1, 3.0, (n,)).astype(dt)], []


@case(FLOATS, _positive, lambda x: (np.sqrt(x), 1 / np.sqrt(x), np.exp(x), np.expm1(x), np.log(x)))
def exp_log(x):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    c = output_tensor(x.shape, x.dtype)
    d = output_tensor(x.shape, x.dtype)
    e = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        a[i] = sqrt(x[i])
        b[i] = rsqrt(x[i])
        c[i] = exp(x[i])
        d[i] = expm1(x[i])
        e[i] = log(x[i])
    return a, b, c, d, e


@case(FLOATS, mat(0, 1), lambda x, y: (np.sin(x), np.cos(x), np.tanh(x), np.arctan(x), np.arctan2(x, y)))
def trig(x, y):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    c = output_tensor(x.shape, x.dtype)
    d = output_tensor(x.shape, x.dtype)
    e = output_tensor(x.shape, x.dtype)
    for i, j in grid(x.shape):
        a[i, j] = sin(x[i, j])
        b[i, j] = cos(x[i, j])
        c[i, j] = tanh(x[i, j])
        d[i, j] = atan(x[i, j])
        e[i, j] = atan2(x[i, j], y[i, j])
    return a, b, c, d, e


def _erf_ref(x):
    import math
    return (np.vectorize(math.erf)(x).astype(x.dtype), np.abs(x), np.sign(x))


@case(FLOATS, vec(0), _erf_ref)
def erf_abs_sign(x):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    c = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        a[i] = erf(x[i])
        b[i] = abs(x[i])
        c[i] = sign(x[i])
    return a, b, c


@case(FLOATS + ("float16",), lambda rng, dt, n, m: ([(rng.integers(-8, 9, (n,)) * 0.5 + rng.choice([0, 0.25], (n,))).astype(dt)], []),  # noqa: E501 (test data)
      lambda x: (np.floor(x), np.ceil(x), np.trunc(x), np.round(x)))
def rounding(x):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    c = output_tensor(x.shape, x.dtype)
    d = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        a[i] = floor(x[i])
        b[i] = ceil(x[i])
        c[i] = trunc(x[i])
        d[i] = round(x[i])
    return a, b, c, d


def _special_make(rng, dt, n, m):
    x = values(rng, dt, (n,))
    x[rng.random(n) < 0.3] = np.nan
    x[rng.random(n) < 0.2] = np.inf
    x[rng.random(n) < 0.1] = -np.inf
    return [x], []


@case(FLOATS + ("float16",), _special_make,
      lambda x: (np.isnan(x).astype(np.int32), np.isinf(x).astype(np.int32), np.isfinite(x).astype(np.int32)))
def special_values(x):
    a = output_tensor(x.shape, "int32")
    b = output_tensor(x.shape, "int32")
    c = output_tensor(x.shape, "int32")
    for i in range(x.shape[0]):
        a[i] = 1 if isnan(x[i]) else 0
        b[i] = 1 if isinf(x[i]) else 0
        c[i] = 1 if isfinite(x[i]) else 0
    return a, b, c


@case(FLOATS, lambda rng, dt, n, m: ([rng.uniform(0.5, 2.0, (n,)).astype(dt), rng.uniform(-2, 2, (n,)).astype(dt)], []),
      lambda x, y: (np.power(x, y), x ** 2, np.maximum(np.minimum(x, y), -1)))
def powers_minmax(x, y):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    c = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        a[i] = power(x[i], y[i])
        b[i] = x[i] ** 2
        c[i] = max(min(x[i], y[i]), -1)
    return a, b, c


@case(("int32",), lambda rng, dt, n, m: ([values(rng, dt, (n,))], []),
      lambda x: (np.maximum(np.maximum(x, 0), x // 2), np.minimum(x, 3)))
def int_minmax(x):
    a = output_tensor(x.shape, x.dtype)
    b = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        a[i] = max(x[i], 0, x[i] // 2)
        b[i] = min(x[i], 3)
    return a, b


@case(FLOATS, mat(0), lambda x: (x.sum(axis=1) / x.shape[1]).astype(x.dtype))
def row_mean_scoped(x):
    out = output_tensor((x.shape[0],), x.dtype)
    n = x.shape[1]
    for i in range(x.shape[0]):
        acc = 0.0
        for j in range(n):
            acc += x[i, j]
        out[i] = acc / n
    return out
