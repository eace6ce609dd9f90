"""Op table: random tensors, drawn from :func:`mskernel.common.seed.generator` (so ``ms.set_seed`` makes them
repeatable) or, when an op's ``seed`` is given, from a generator of that seed.

The values differ from MindSpore's (another generator); shapes, dtypes, ranges and distributions agree.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> ms.set_seed(1); a = ops.randn(2, 3)
    >>> ms.set_seed(1); b = ops.randn(2, 3)
    >>> bool((a == b).all()), a.shape, ops.randint(0, 5, (4,)).dtype, ops.rand(2, dtype=ms.float64).dtype
    (True, (2, 3), mindspore.int64, mindspore.float64)
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.seed import generator
from mskernel.common.tensor import Tensor
from mskernel.ops import shape as S
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op


def _rng(seed: Optional[int]) -> np.random.Generator:
    return generator() if seed is None or seed == 0 else np.random.default_rng(int(seed))


def _size(size: tuple, op: str) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list, Tensor)):
        return S._shape_arg(size[0], op)
    return S._shape_arg(tuple(size), op)


def _float(dtype: Any, op: str) -> np.dtype:
    dt = mstype.to_dtype(dtype or mstype.float32)
    if dt.np.kind != "f":
        raise ValueError(f"For '{op}', the 'dtype' must be a float type, but got {dt}.")
    return dt.np


def _v(x: Any) -> Any:
    return x._data if isinstance(x, Tensor) else x


def randn(*size: Any, dtype: Any = None, seed: Optional[int] = None) -> Tensor:
    """Standard normal samples of ``size``.

    Example:
        >>> randn(2, 3).shape
        (2, 3)
    """
    return Tensor._wrap(_rng(seed).standard_normal(_size(size, "randn")).astype(_float(dtype, "randn")))


def rand(*size: Any, dtype: Any = None, seed: Optional[int] = None) -> Tensor:
    """Uniform samples in [0, 1) of ``size``.

    Example:
        >>> bool(((rand(100) >= 0) & (rand(100) < 1)).all())
        True
    """
    return Tensor._wrap(_rng(seed).random(_size(size, "rand")).astype(_float(dtype, "rand")))


def randn_like(input: Any, seed: Optional[int] = None, *, dtype: Any = None) -> Tensor:
    """Standard normal samples shaped like ``input`` (its dtype, which must be floating, unless ``dtype``).

    Example:
        >>> randn_like(Tensor([1.0, 2.0])).shape
        (2,)
    """
    x = check_tensor(input, "randn_like", "input")
    return randn(x.shape, dtype=_float(dtype or x.dtype, "randn_like"), seed=seed)


def rand_like(input: Any, seed: Optional[int] = None, *, dtype: Any = None) -> Tensor:
    """Uniform samples in [0, 1) shaped like ``input``.

    Example:
        >>> rand_like(Tensor([1.0, 2.0])).dtype
        mindspore.float32
    """
    x = check_tensor(input, "rand_like", "input")
    return rand(x.shape, dtype=_float(dtype or x.dtype, "rand_like"), seed=seed)


def randint(low: int, high: int, size: Any, seed: Optional[int] = None, *, dtype: Any = None) -> Tensor:
    """Integers in [``low``, ``high``) of ``size`` (Int64 by default).

    Example:
        >>> bool(((randint(0, 3, (50,)) >= 0) & (randint(0, 3, (50,)) < 3)).all())
        True
    """
    if high <= low:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got {low} and {high}.")
    dt = mstype.to_dtype(dtype or mstype.int64)
    if dt.np.kind not in "iu":
        raise ValueError(f"For 'randint', the 'dtype' must be an int type, but got {dt}.")
    return Tensor._wrap(_rng(seed).integers(low, high, S._shape_arg(size, "randint")).astype(dt.np))


def randint_like(input: Any, low: int, high: int, seed: Optional[int] = None, *, dtype: Any = None) -> Tensor:
    """Integers in [``low``, ``high``) shaped like ``input`` (whose dtype must be an integer one unless
    ``dtype``).

    Example:
        >>> randint_like(Tensor([1, 2]), 0, 5).dtype
        mindspore.int64
    """
    x = check_tensor(input, "randint_like", "input")
    dt = mstype.to_dtype(dtype or x.dtype)
    if dt.np.kind not in "iu":
        raise ValueError(f"For 'randint_like', the 'dtype' must be an int type, but got {dt}.")
    return randint(low, high, x.shape, seed, dtype=dt)


def uniform(shape: Any, minval: Any, maxval: Any, seed: Optional[int] = None, dtype: Any = mstype.float32) -> Tensor:
    """Uniform samples in [``minval``, ``maxval``) (integers when ``dtype`` is an integer type).

    Example:
        >>> uniform((3,), Tensor(0, mstype.int32), Tensor(4, mstype.int32), dtype=mstype.int32).dtype
        mindspore.int32
    """
    dt = mstype.to_dtype(dtype)
    lo, hi = _v(minval), _v(maxval)
    shape = np.broadcast_shapes(S._shape_arg(shape, "uniform"), np.shape(lo), np.shape(hi))
    if dt.np.kind in "iu":
        return Tensor._wrap(_rng(seed).integers(int(lo), int(hi), shape).astype(dt.np))
    return Tensor._wrap(_rng(seed).uniform(lo, hi, shape).astype(dt.np))


def normal(shape: Any, mean: Any, stddev: Any, seed: Optional[int] = None) -> Tensor:
    """Normal samples of ``shape`` with ``mean`` and ``stddev`` (which broadcast; Float32).

    Example:
        >>> normal((2, 2), Tensor(0.0), Tensor(1.0)).shape
        (2, 2)
    """
    shape = np.broadcast_shapes(S._shape_arg(shape, "normal"), np.shape(_v(mean)), np.shape(_v(stddev)))
    out = _rng(seed).standard_normal(shape) * _v(stddev) + _v(mean)
    return Tensor._wrap(np.asarray(out, np.float32))


def standard_normal(shape: Any, seed: Optional[int] = None) -> Tensor:
    """Standard normal samples of ``shape`` (Float32).

    Example:
        >>> standard_normal((2,)).dtype
        mindspore.float32
    """
    return randn(S._shape_arg(shape, "StandardNormal"), seed=seed)


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0 .. n-1``.

    Example:
        >>> sorted(randperm(4).asnumpy().tolist())
        [0, 1, 2, 3]
    """
    return Tensor._wrap(_rng(seed).permutation(int(n)).astype(mstype.to_dtype(dtype).np))


def multinomial(input: Any, num_samples: int, replacement: bool = True, seed: Optional[int] = None) -> Tensor:
    """Indices drawn by the (unnormalised) weights in each row of ``input`` (Int32).

    Example:
        >>> print(multinomial(Tensor([0.0, 1.0]), 2))
        [1 1]
    """
    x = check_tensor(input, "multinomial", "input")
    w = np.atleast_2d(x._data.astype(np.float64))
    rng = _rng(seed)
    rows = []
    for row in w:
        p = row / row.sum()
        if not replacement and num_samples > np.count_nonzero(p):
            raise ValueError(f"For 'multinomial', 'num_samples' ({num_samples}) must not exceed the number of "
                             f"non-zero weights ({np.count_nonzero(p)}) without replacement.")
        rows.append(rng.choice(len(p), num_samples, replace=replacement, p=p))
    out = np.asarray(rows, np.int32)
    return Tensor._wrap(out[0] if x.ndim == 1 else out)


def bernoulli(input: Any, p: Any = 0.5, seed: Optional[int] = None) -> Tensor:
    """0/1 samples shaped like ``input`` (and of its dtype), 1 with probability ``p``.

    Example:
        >>> print(bernoulli(Tensor([0.0, 0.0]), 1.0))
        [1. 1.]
    """
    x = check_tensor(input, "bernoulli", "input")
    prob = _v(p)
    return Tensor._wrap((_rng(seed).random(x.shape) < prob).astype(x._data.dtype))


OPS: List[Op] = [
    Op("randn", "*size, dtype=None, seed=None", fn=randn, inputs=0),
    Op("rand", "*size, dtype=None, seed=None", fn=rand, inputs=0),
    Op("randn_like", "input, seed=None, *, dtype=None", fn=randn_like),
    Op("rand_like", "input, seed=None, *, dtype=None", fn=rand_like),
    Op("randint", "low, high, size, seed=None, *, dtype=None", fn=randint, inputs=0),
    Op("randint_like", "input, low, high, seed=None, *, dtype=None", fn=randint_like),
    Op("uniform", "shape, minval, maxval, seed=None, dtype=mindspore.float32", fn=uniform, inputs=0),
    Op("normal", "shape, mean, stddev, seed=None", fn=normal, inputs=0),
    Op("standard_normal", "shape, seed=None", fn=standard_normal, inputs=0,
       prim="StandardNormal(seed=0, seed2=0)(shape) -> shape, seed or None"),
    Op("_uniform_real", "shape, seed=None", fn=lambda shape, seed=None: rand(shape, seed=seed), inputs=0,
       prim="UniformReal(seed=0, seed2=0)(shape) -> shape, seed or None"),
    Op("_uniform_int", "shape, minval, maxval, seed=None",
       fn=lambda shape, minval, maxval, seed=None: uniform(shape, minval, maxval, seed, mstype.int32), inputs=0,
       prim="UniformInt(seed=0, seed2=0)(shape, minval, maxval) -> shape, minval, maxval, seed or None"),
    Op("randperm", "n, seed=0, offset=0, dtype=mindspore.int64", fn=randperm, inputs=0),
    Op("multinomial", "input, num_samples, replacement=True, seed=None", fn=multinomial),
    Op("bernoulli", "input, p=0.5, seed=None", fn=bernoulli, method=True),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "StandardNormal": ("ops.StandardNormal(seed=1)((2, 3)).shape", "(2, 3)"),
    "UniformReal": ("x = ops.UniformReal(seed=1)((1000,))",
                    "bool(x.min() >= 0.0), bool(x.max() < 1.0), x.dtype",
                    "True True Float32"),
    "UniformInt": ("x = ops.UniformInt(seed=1)((1000,), ms.Tensor(1, ms.int32), ms.Tensor(4, ms.int32))",
                   "sorted(set(x.asnumpy().tolist()))",
                   "[1, 2, 3]"),
}
