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
from mskernel.common.generator import draw
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



# -- the generator-drawing (``generator=``) and in-place forms -------------------------------------------------
def _fill(input: Any, values: np.ndarray, op: str) -> Tensor:
    from mskernel.ops.inplace import inplace_update
    x = check_tensor(input, op, "input")
    return inplace_update(x, Tensor._wrap(np.asarray(values).astype(x._data.dtype)), op)


def _prob(p: Any) -> Any:
    return p._data if isinstance(p, Tensor) else p


def bernoulli_(input: Any, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill ``input`` with 0/1 draws, 1 with probability ``p`` (a number or a Tensor); returns ``input``.

    Example:
        >>> print(bernoulli_(Tensor([5.0, 5.0]), 1.0))
        [1. 1.]
    """
    x = check_tensor(input, "bernoulli_", "input")
    return _fill(x, draw(generator).random(x.shape) < _prob(p), "bernoulli_")


def bernoulli_ext(input: Any, *, generator: Any = None) -> Tensor:
    """0/1 draws shaped like ``input``, 1 with the probability each element of ``input`` gives.

    Example:
        >>> print(bernoulli_ext(Tensor([0.0, 1.0])))
        [0. 1.]
    """
    x = check_tensor(input, "bernoulli_ext", "input")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For 'BernoulliExt', 'input' must be a float tensor, but got {x.dtype}.")
    return Tensor._wrap((draw(generator).random(x.shape) < x._data).astype(x._data.dtype))


def random_(input: Any, from_: int = 0, to: Optional[int] = None, *, generator: Any = None) -> Tensor:
    """Fill ``input`` with integers in [``from_``, ``to``) (``to`` None: the dtype's range); returns ``input``.

    Example:
        >>> x = random_(Tensor([[2, 3, 4], [1, 2, 3]]), 0, 5)
        >>> x.shape, bool(((x >= 0) & (x < 5)).all())
        ((2, 3), True)
    """
    x = check_tensor(input, "random_", "input")
    dt = x._data.dtype
    if to is None:
        to = (np.iinfo(dt).max if dt.kind in "iu" else 2 ** np.finfo(dt).nmant) + 1 if dt.kind != "b" else 2
    if to <= from_:
        raise ValueError(f"For 'random_', 'from' must be less than 'to', but got {from_} and {to}.")
    return _fill(x, draw(generator).integers(from_, to, x.shape), "random_")


def uniform_(input: Any, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` with uniform draws in [``from_``, ``to``); returns ``input``.

    Example:
        >>> x = uniform_(Tensor(np.ones((4, 2), np.float32)), 1.0, 2.0)
        >>> x.shape, bool(((x >= 1) & (x < 2)).all())
        ((4, 2), True)
    """
    x = check_tensor(input, "uniform_", "input")
    if from_ > to:
        raise ValueError(f"For 'uniform_', 'from' must be less than or equal to 'to', but got {from_} and {to}.")
    return _fill(x, draw(generator).uniform(from_, to, x.shape), "uniform_")


def normal_(input: Any, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` with normal draws of ``mean`` and ``std``; returns ``input``.

    Example:
        >>> normal_(Tensor(np.zeros((2, 3), np.float32))).shape
        (2, 3)
    """
    x = check_tensor(input, "normal_", "input")
    if std < 0:
        raise ValueError(f"For 'normal_', 'std' must be non-negative, but got {std}.")
    return _fill(x, draw(generator).normal(mean, std, x.shape), "normal_")


def exponential_(input: Any, lambd: float = 1, *, generator: Any = None) -> Tensor:
    """Fill ``input`` with exponential draws of rate ``lambd``; returns ``input``.

    Example:
        >>> bool((exponential_(Tensor(np.zeros(100, np.float32))) >= 0).all())
        True
    """
    x = check_tensor(input, "exponential_", "input")
    if lambd <= 0:
        raise ValueError(f"For 'exponential_', 'lambd' must be positive, but got {lambd}.")
    return _fill(x, draw(generator).exponential(1.0 / lambd, x.shape), "exponential_")


def _uniform_method(input: Any, from_: float = 0.0, to: float = 1.0, generator: Any = None) -> Tensor:
    """Uniform draws in [``from_``, ``to``) shaped like the Tensor (Tensor.uniform).

    Example:
        >>> bool((Tensor([1.0, 1.0]).uniform(2.0, 3.0) >= 2).all())
        True
    """
    x = check_tensor(input, "uniform", "input")
    return Tensor._wrap(draw(generator).uniform(from_, to, x.shape).astype(x._data.dtype))


def _cauchy(input: Any, median: float = 0.0, sigma: float = 1.0) -> Tensor:
    """Fill the Tensor with Cauchy draws of ``median`` and ``sigma`` (Tensor.cauchy); returns it.

    Example:
        >>> Tensor([[0.0, 0.0]]).cauchy().shape
        (1, 2)
    """
    x = check_tensor(input, "cauchy", "input")
    return _fill(x, median + sigma * generator().standard_cauchy(x.shape), "cauchy")


def _log_normal(input: Any, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """Log-normal draws (``exp`` of normal ones of ``mean``, ``std``) shaped like the Tensor (Tensor.log_normal).

    Example:
        >>> bool((Tensor([[1.0, 2.0]]).log_normal() > 0).all())
        True
    """
    x = check_tensor(input, "log_normal", "input")
    return Tensor._wrap(generator().lognormal(mean, std, x.shape).astype(x._data.dtype))


# -- mint's forms ------------------------------------------------------------------------------------------------
def _rand_ext(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor._wrap(draw(generator).random(_size(size, "rand")).astype(_float(dtype, "rand")))


def _randn_ext(*size: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor._wrap(draw(generator).standard_normal(_size(size, "randn")).astype(_float(dtype, "randn")))


def _randint_ext(*args: Any, generator: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    if len(args) == 2:
        low, (high, size) = 0, args
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError(f"For 'randint', expected (high, size) or (low, high, size), but got {len(args)} arguments.")
    if high <= low:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got {low} and {high}.")
    dt = mstype.to_dtype(dtype or mstype.int64)
    return Tensor._wrap(draw(generator).integers(low, high, S._shape_arg(size, "randint")).astype(dt.np))


def _randint_like_ext(*args: Any, dtype: Any = None, device: Any = None) -> Tensor:
    if len(args) not in (2, 3):
        raise TypeError(f"For 'randint_like', expected (input, high) or (input, low, high), but got {len(args)} "
                        f"arguments.")
    x = check_tensor(args[0], "randint_like", "input")
    return _randint_ext(*args[1:], x.shape, dtype=dtype or x.dtype)


def _rand_like_ext(input: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    x = check_tensor(input, "rand_like", "input")
    return _rand_ext(x.shape, dtype=_float(dtype or (x.dtype if x._data.dtype.kind == "f" else None), "rand_like"))


def _randn_like_ext(input: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    x = check_tensor(input, "randn_like", "input")
    return _randn_ext(x.shape, dtype=_float(dtype or (x.dtype if x._data.dtype.kind == "f" else None), "randn_like"))


def _randperm_ext(n: int, *, generator: Any = None, dtype: Any = mstype.int64) -> Tensor:
    if n < 0:
        raise ValueError(f"For 'randperm', 'n' must be non-negative, but got {n}.")
    return Tensor._wrap(draw(generator).permutation(int(n)).astype(mstype.to_dtype(dtype).np))


def _normal_ext(mean: Any = 0.0, std: Any = 1.0, size: Any = None, generator: Any = None) -> Tensor:
    m, s = _v(mean), _v(std)
    if size is not None:
        shape = S._shape_arg(size, "normal")
    else:
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    dt = next((t._data.dtype for t in (mean, std) if isinstance(t, Tensor) and t._data.dtype.kind == "f"),
              np.dtype(np.float32))
    return Tensor._wrap(np.asarray(draw(generator).normal(m, s, shape)).astype(dt))


def _multinomial_ext(input: Any, num_samples: int, replacement: bool = False, *, generator: Any = None) -> Tensor:
    x = check_tensor(input, "multinomial", "input")
    w = np.atleast_2d(x._data.astype(np.float64))
    rng = draw(generator)
    out = np.stack([rng.choice(w.shape[1], int(num_samples), replace=replacement, p=row / row.sum()) for row in w])
    return Tensor._wrap((out if x.ndim == 2 else out[0]).astype(np.int64))


def _empty(*size: Any, dtype: Any = None, device: Any = None) -> Tensor:
    return Tensor._wrap(np.zeros(_size(size, "empty"), mstype.to_dtype(dtype or mstype.float32).np))


def _empty_like(input: Any, *, dtype: Any = None, device: Any = None) -> Tensor:
    x = check_tensor(input, "empty_like", "input")
    return Tensor._wrap(np.zeros(x.shape, mstype.to_dtype(dtype).np if dtype else x._data.dtype))


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
    Op("multinomial", "input, num_samples, replacement=True, seed=None", fn=multinomial, method=True),
    Op("bernoulli", "input, p=0.5, seed=None", fn=bernoulli, method=True),
    Op("bernoulli_", "input, p=0.5, *, generator=None", fn=bernoulli_, method=True),
    Op("bernoulli_ext", "input, *, generator=None", fn=bernoulli_ext),
    Op("random_", "input, from_=0, to=None, *, generator=None", fn=random_, method=True),
    Op("uniform_", "input, from_=0, to=1, *, generator=None", fn=uniform_, method=True),
    Op("normal_", "input, mean=0, std=1, *, generator=None", fn=normal_, method=True),
    Op("exponential_", "input, lambd=1, *, generator=None", fn=exponential_, method=True),
    Op("_uniform_method", "input, from_=0.0, to=1.0, generator=None", fn=_uniform_method, method="uniform"),
    Op("_cauchy", "input, median=0.0, sigma=1.0", fn=_cauchy, method="cauchy"),
    Op("_log_normal", "input, mean=1.0, std=2.0", fn=_log_normal, method="log_normal"),
    Op("_randperm_v2", "n, seed=0, offset=0, dtype=mindspore.int64", fn=randperm, inputs=0,
       prim="RandpermV2(seed=0, offset=0, dtype=mindspore.int64)(n) -> int(n), seed, offset, dtype"),
    Op("_rand_ext", "*size, generator=None, dtype=None, device=None", fn=_rand_ext, inputs=0),
    Op("_randn_ext", "*size, generator=None, dtype=None, device=None", fn=_randn_ext, inputs=0),
    Op("_randint_ext", "*args, generator=None, dtype=None, device=None", fn=_randint_ext, inputs=0),
    Op("_randint_like_ext", "*args, dtype=None, device=None", fn=_randint_like_ext, inputs=0),
    Op("_rand_like_ext", "input, *, dtype=None, device=None", fn=_rand_like_ext, inputs=0),
    Op("_randn_like_ext", "input, *, dtype=None, device=None", fn=_randn_like_ext, inputs=0),
    Op("_randperm_ext", "n, *, generator=None, dtype=mindspore.int64", fn=_randperm_ext, inputs=0),
    Op("_normal_ext", "mean=0.0, std=1.0, size=None, generator=None", fn=_normal_ext, inputs=0),
    Op("_multinomial_ext", "input, num_samples, replacement=False, *, generator=None", fn=_multinomial_ext,
       inputs=0),
    Op("_empty", "*size, dtype=None, device=None", fn=_empty, inputs=0),
    Op("_empty_like", "input, *, dtype=None, device=None", fn=_empty_like, inputs=0),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "RandpermV2": ("ops.RandpermV2()(ms.Tensor(4)).sort()[0]", "[0 1 2 3]"),
    "StandardNormal": ("ops.StandardNormal(seed=1)((2, 3)).shape", "(2, 3)"),
    "UniformReal": ("x = ops.UniformReal(seed=1)((1000,))",
                    "bool(x.min() >= 0.0), bool(x.max() < 1.0), x.dtype",
                    "True True Float32"),
    "UniformInt": ("x = ops.UniformInt(seed=1)((1000,), ms.Tensor(1, ms.int32), ms.Tensor(4, ms.int32))",
                   "sorted(set(x.asnumpy().tolist()))",
                   "[1, 2, 3]"),
}
