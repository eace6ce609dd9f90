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
from mskernel.ops.opdef import F, Op


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


def _shape_of(shape: Any, op: str) -> tuple:
    if isinstance(shape, Tensor):
        return tuple(int(d) for d in shape._data.reshape(-1).tolist())
    return S._shape_arg(shape, op)


def laplace(shape: Any, mean: Any, lambda_param: Any, seed: Optional[int] = None) -> Tensor:
    """Laplace draws of ``mean`` and scale ``lambda_param`` (which broadcast with ``shape``); Float32.

    Example:
        >>> laplace((2, 3), Tensor(1.0), Tensor(1.0), seed=5).shape
        (2, 3)
    """
    for v in (mean, lambda_param):
        if not isinstance(v, Tensor):
            raise TypeError(f"For Primitive[Dtype], the input argument[input_x] must be a Tensor, CSRTensor or "
                            f"COOTensor, but got {type(v)}.")
    m, b = _v(mean), _v(lambda_param)
    out = np.broadcast_shapes(_shape_of(shape, "laplace"), np.shape(m), np.shape(b))
    return Tensor._wrap(_rng(seed).laplace(m, b, out).astype(np.float32))


def standard_laplace(shape: Any, seed: Optional[int] = None) -> Tensor:
    """Laplace draws of location 0 and scale 1; Float32.

    Example:
        >>> standard_laplace((4, 4), seed=5).shape
        (4, 4)
    """
    return Tensor._wrap(_rng(seed).laplace(0.0, 1.0, _shape_of(shape, "StandardLaplace")).astype(np.float32))


def gamma(shape: Any, alpha: Any, beta: Any, seed: Optional[int] = None) -> Tensor:
    """Gamma draws of shape ``alpha`` and rate ``beta`` (broadcast with ``shape``), in their dtype.

    Example:
        >>> gamma((3, 1, 2), Tensor([[3.0, 4.0], [5.0, 6.0]]), Tensor([1.0]), seed=5).shape
        (3, 2, 2)
    """
    a = check_tensor(alpha, "gamma", "alpha")
    b = check_tensor(beta, "gamma", "beta")
    out = np.broadcast_shapes(_shape_of(shape, "gamma"), a.shape, b.shape)
    return Tensor._wrap(_rng(seed).gamma(a._data, 1.0 / b._data, out).astype(a._data.dtype))


def poisson(shape: Any, mean: Any, seed: Optional[int] = None) -> Tensor:
    """Poisson draws of ``mean`` (broadcast with ``shape``); Int32.

    Example:
        >>> poisson((4, 1), Tensor([5.0, 10.0]), seed=5).shape
        (4, 2)
    """
    m = check_tensor(mean, "poisson", "mean")
    out = np.broadcast_shapes(_shape_of(shape, "poisson"), m.shape)
    return Tensor._wrap(_rng(seed).poisson(m._data, out).astype(np.int32))


def random_gamma(shape: Any, alpha: Any, seed: Optional[int] = None) -> Tensor:
    """Gamma draws of each shape parameter in ``alpha`` (rate 1): ``shape + alpha.shape``, in alpha's dtype.

    Example:
        >>> out = random_gamma(Tensor([7, 5], mstype.int32), Tensor([0.5, 1.5]), seed=5)
        >>> out.shape, out.dtype
        ((7, 5, 2), mindspore.float32)
    """
    a = check_tensor(alpha, "random_gamma", "alpha")
    if a._data.dtype.kind != "f":
        raise TypeError(f"For primitive[RandomGamma], the input argument[alpha] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{a.dtype}].")
    out = _shape_of(shape, "random_gamma") + a.shape
    return Tensor._wrap(_rng(seed).gamma(np.broadcast_to(a._data, out), 1.0, out).astype(a._data.dtype))


def random_poisson(shape: Any, rate: Any, seed: Optional[int] = None, dtype: Any = mstype.float32) -> Tensor:
    """Poisson draws of each rate in ``rate``: ``shape + rate.shape``, of ``dtype``.

    Example:
        >>> out = random_poisson(Tensor([2, 2], mstype.int64), Tensor([[5.0, 10.0], [5.0, 1.0]]), seed=5)
        >>> out.shape, out.dtype
        ((2, 2, 2, 2), mindspore.float32)
    """
    r = check_tensor(rate, "random_poisson", "rate")
    out = _shape_of(shape, "random_poisson") + r.shape
    return Tensor._wrap(_rng(seed).poisson(np.broadcast_to(r._data.astype(np.float64), out), out)
                        .astype(mstype.to_dtype(dtype).np))


def random_categorical(logits: Any, num_sample: int, seed: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """``num_sample`` class indices per row of ``logits`` (unnormalised log-probabilities), of ``dtype``.

    Example:
        >>> random_categorical(Tensor(np.zeros((10, 5), np.float32)), 8).shape
        (10, 8)
    """
    x = check_tensor(logits, "random_categorical", "logits")
    if x.ndim != 2:
        raise ValueError("logits shape size only support 2D")
    dt = mstype.to_dtype(dtype)
    if dt.np.kind not in "i":
        raise TypeError(f"For 'RandomCategorical', 'dtype' must be an int type, but got {dt}.")
    z = x._data.astype(np.float64)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    rng = _rng(seed)
    return Tensor._wrap(np.stack([rng.choice(p.shape[1], int(num_sample), p=row) for row in p]).astype(dt.np))


def multinomial_with_replacement(x: Any, seed: Any, offset: Any, numsamples: int,
                                 replacement: bool = False) -> Tensor:
    """``numsamples`` indices per row of ``x`` (weights), drawn with a generator of (``seed``, ``offset``); Int64.

    Example:
        >>> print(multinomial_with_replacement(Tensor([[0.0, 9.0, 0.0, 0.0]]), 2, 5, 2, True))
        [[1 1]]
    """
    t = check_tensor(x, "multinomial_with_replacement", "x")
    s, o = int(_v(seed)), int(_v(offset))
    w = np.atleast_2d(t._data.astype(np.float64))
    rng = np.random.default_rng([s & 0xFFFFFFFFFFFFFFFF, o & 0xFFFFFFFFFFFFFFFF]) if s != -1 or o != 0 \
        else generator()
    out = np.stack([rng.choice(w.shape[1], int(numsamples), replace=replacement, p=row / row.sum()) for row in w])
    return Tensor._wrap(out.astype(np.int64) if t.ndim == 2 else out[0].astype(np.int64))


def shuffle(x: Any, seed: Optional[int] = None) -> Tensor:
    """``x`` with its first dimension randomly permuted.

    Example:
        >>> sorted(shuffle(Tensor([1.0, 2.0, 3.0, 4.0]), seed=1).asnumpy().tolist())
        [1.0, 2.0, 3.0, 4.0]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"For Primitive[RandomShuffle], the type of input argument[input_x] must be Tensor but got "
                        f"{type(x).__name__}.")
    t = x
    if t.ndim == 0:
        return Tensor._wrap(t._data.copy())
    return Tensor._wrap(t._data[_rng(seed).permutation(t.shape[0])])


def choice_with_mask(input_x: Any, count: int = 256, seed: Optional[int] = None) -> tuple:
    """``count`` randomly chosen coordinates of True elements of the Bool ``input_x`` (Int32, count x ndim) and a
    mask of which rows are real (fewer True elements than ``count``: the rest are zeros, masked False).

    Example:
        >>> y, mask = choice_with_mask(Tensor(np.ones((240, 4), np.bool_)))
        >>> y.shape, mask.shape
        ((256, 2), (256,))
    """
    t = check_tensor(input_x, "RandomChoiceWithMask", "input_x")
    if t._data.dtype != np.bool_:
        raise TypeError(f"For primitive[RandomChoiceWithMask], the input argument[input_x] must be a type of "
                        f"{{Tensor[Bool]}}, but got Tensor[{t.dtype}].")
    if not 1 <= t.ndim <= 5:
        raise ValueError(f"For 'RandomChoiceWithMask', the dimension of 'input_x' must be in [1, 5], but got "
                         f"{t.ndim}.")
    where = np.argwhere(t._data)
    picked = where[_rng(seed).permutation(len(where))[:count]]
    out = np.zeros((count, t.ndim), np.int32)
    out[:len(picked)] = picked
    mask = np.zeros(count, np.bool_)
    mask[:len(picked)] = True
    return Tensor._wrap(out), Tensor._wrap(mask)


def _expected(p: np.ndarray, num_sampled: int, tries: int, unique: bool) -> np.ndarray:
    return -np.expm1(tries * np.log1p(-p)) if unique else p * num_sampled


def _candidates(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int, seed: int,
                prob: Any, op: str) -> tuple:
    t = check_tensor(true_classes, op, "true_classes")
    if t.ndim != 2 or t.shape[1] != num_true:
        raise ValueError(f"For '{op}', 'true_classes' must be 2-D with 'num_true' ({num_true}) columns, but got "
                         f"shape {list(t.shape)}.")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{op}', the 'range_max' should be >= num_sampled: {num_sampled}, but got "
                         f"{range_max}.")
    rng = _rng(seed)
    probs = prob(np.arange(range_max, dtype=np.float64))
    probs = probs / probs.sum()
    if unique:
        picked: list = []
        tries = 0
        while len(picked) < num_sampled:
            c = int(rng.choice(range_max, p=probs))
            tries += 1
            if c not in picked:
                picked.append(c)
        sampled = np.array(picked, np.int64)
    else:
        tries = num_sampled
        sampled = rng.choice(range_max, num_sampled, p=probs).astype(np.int64)
    true_exp = _expected(prob(t._data.astype(np.float64)), num_sampled, tries, unique).astype(np.float32)
    samp_exp = _expected(probs[sampled], num_sampled, tries, unique).astype(np.float32)
    return sampled, true_exp, samp_exp


def log_uniform_candidate_sampler(true_classes: Any, num_true: int = 1, num_sampled: int = 5, unique: bool = True,
                                  range_max: int = 5, seed: int = 0) -> tuple:
    """``num_sampled`` classes drawn from the log-uniform (Zipfian) distribution over ``[0, range_max)``, with the
    expected counts of the true and of the sampled classes.

    Example:
        >>> s, t, e = log_uniform_candidate_sampler(Tensor(np.array([[1, 7], [0, 4], [3, 3]])), 2, 5, True, 5)
        >>> sorted(s.asnumpy().tolist()), t.shape, e.shape
        ([0, 1, 2, 3, 4], (3, 2), (5,))
    """
    def p(k: np.ndarray) -> np.ndarray:
        return (np.log(k + 2) - np.log(k + 1)) / np.log(range_max + 1)
    s, t, e = _candidates(true_classes, num_true, num_sampled, unique, range_max, seed, p,
                          "LogUniformCandidateSampler")
    return Tensor._wrap(s), Tensor._wrap(t), Tensor._wrap(e)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: int = 0, remove_accidental_hits: bool = False) -> tuple:
    """``num_sampled`` classes drawn uniformly from ``[0, range_max)``, with the expected counts of the true and of
    the sampled classes.

    Example:
        >>> s, t, e = uniform_candidate_sampler(Tensor(np.array([[1], [3], [4], [6], [3]])), 1, 3, False, 4, 1)
        >>> s.shape, t.shape, e.shape
        ((3,), (5, 1), (3,))
    """
    def p(k: np.ndarray) -> np.ndarray:
        return np.full(k.shape, 1.0 / range_max)
    s, t, e = _candidates(true_classes, num_true, num_sampled, unique, range_max, seed, p,
                          "UniformCandidateSampler")
    return Tensor._wrap(s), Tensor._wrap(t), Tensor._wrap(e)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int = 1) -> tuple:
    """Where a sampled candidate equals one of a row's true classes: (row index Int32, candidate index Int32,
    weight Float32 of -FLT_MAX).

    Example:
        >>> i, j, w = compute_accidental_hits(Tensor(np.array([[1, 2], [0, 4]])), Tensor(np.array([0, 1, 2])), 2)
        >>> print(i, j)
        [0 0 1] [1 2 0]
    """
    t = check_tensor(true_classes, "ComputeAccidentalHits", "true_classes")._data
    s = check_tensor(sampled_candidates, "ComputeAccidentalHits", "sampled_candidates")._data
    rows, cols = [], []
    for i in range(t.shape[0]):
        for j, c in enumerate(s):
            if c in t[i]:
                rows.append(i)
                cols.append(j)
    w = np.full(len(rows), -np.finfo(np.float32).max, np.float32)
    return Tensor._wrap(np.array(rows, np.int32)), Tensor._wrap(np.array(cols, np.int32)), Tensor._wrap(w)


def gumbel_softmax(logits: Any, tau: float = 1.0, hard: bool = False, dim: int = -1) -> Tensor:
    """The softmax of (``logits`` + Gumbel noise) / ``tau`` along ``dim``; ``hard``: the one-hot of its maximum,
    with the soft sample's gradient.

    Example:
        >>> y = gumbel_softmax(Tensor([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), 1.0, True, -1)
        >>> y.shape, [float(v) for v in y.sum(-1).asnumpy()]
        ((2, 3), [1.0, 1.0])
    """
    x = check_tensor(logits, "gumbel_softmax", "logits")
    if x._data.dtype not in (np.float16, np.float32):
        raise TypeError(f"For 'gumbel_softmax', the 'logits' should be one of [mindspore.float16, mindspore.float32], "
                        f"but got 'mindspore.{x._data.dtype.name}'.")
    if not isinstance(tau, float) or tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', the 'tau' must be float and must > 0, but got '{tau}' with type "
                         f"'{type(tau).__name__}'.")
    noise = -np.log(-np.log(generator().uniform(np.finfo(np.float32).tiny, 1.0, x.shape)))
    y = F.softmax((x + Tensor._wrap(noise.astype(x._data.dtype))) / tau, dim)
    if not hard:
        return y
    idx = np.argmax(y._data, axis=dim)
    one = np.zeros_like(y._data)
    np.put_along_axis(one, np.expand_dims(idx, dim), 1.0, axis=dim)
    return Tensor._wrap(one) - F.stop_gradient(y) + y


def _truncated_normal(shape: Any, dtype: Any = mstype.float32, seed: int = 0, seed2: int = 0) -> Tensor:
    out = _shape_of(shape, "TruncatedNormal")
    v = _rng(seed).standard_normal(out)
    bad = np.abs(v) > 2
    rng = _rng(seed)
    while bad.any():
        v[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(v) > 2
    return Tensor._wrap(v.astype(mstype.to_dtype(dtype).np))


def _parameterized_truncated_normal(shape: Any, mean: Any, stdevs: Any, min: Any, max: Any,
                                    seed: int = 0, seed2: int = 0) -> Tensor:
    from scipy.stats import truncnorm  # numpy has no truncated normal
    out = _shape_of(shape, "ParameterizedTruncatedNormal")
    m, s, lo, hi = (check_tensor(t, "ParameterizedTruncatedNormal", n)._data
                    for t, n in ((mean, "mean"), (stdevs, "stdevs"), (min, "min"), (max, "max")))
    col = (out[0],) + (1,) * (len(out) - 1)
    m, s, lo, hi = (np.broadcast_to(a.reshape(-1), (out[0],)).reshape(col) for a in (m, s, lo, hi))
    v = truncnorm.rvs((lo - m) / s, (hi - m) / s, loc=m, scale=s, size=out, random_state=_rng(seed))
    return Tensor._wrap(v.astype(check_tensor(mean, "ParameterizedTruncatedNormal", "mean")._data.dtype))


def _log_normal_reverse(input: Any, mean: float = 1.0, std: float = 2.0) -> Tensor:
    x = check_tensor(input, "LogNormalReverse", "input")
    return Tensor._wrap(generator().lognormal(mean, std, x.shape).astype(x._data.dtype))


def _cauchy_prim(size: Any, median: float = 0.0, sigma: float = 1.0) -> Tensor:
    return Tensor._wrap((median + sigma * generator().standard_cauchy(tuple(size))).astype(np.float32))


def _non_deterministic_ints(shape: Any, dtype: Any = mstype.int64) -> Tensor:
    dt = mstype.to_dtype(dtype).np
    info = np.iinfo(dt)
    return Tensor._wrap(np.random.default_rng().integers(info.min, info.max, _shape_of(shape, "NonDeterministicInts"),
                                                         dtype=dt, endpoint=True))


def _randperm_prim(n: Any, max_length: int = 1, pad: int = -1, dtype: Any = mstype.int32) -> Tensor:
    t = check_tensor(n, "Randperm", "n")
    count = int(t._data.reshape(-1)[0])
    if count > max_length:
        raise ValueError(f"For 'Randperm', 'n' ({count}) must not exceed 'max_length' ({max_length}).")
    out = np.full(max_length, pad, np.int64)
    out[:count] = generator().permutation(count)
    return Tensor._wrap(out.astype(mstype.to_dtype(dtype).np))


def _bernoulli_prim(x: Any, p: Any, seed: int = -1, offset: int = 0) -> Tensor:
    t = check_tensor(x, "Bernoulli", "x")
    prob = _v(p)
    rng = generator() if seed == -1 else np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, offset])
    return Tensor._wrap((rng.random(t.shape) < prob).astype(t._data.dtype))


def _multinomial_prim(x: Any, num_samples: int, seed: int = 0, seed2: int = 0, dtype: Any = mstype.int32) -> Tensor:
    out = multinomial(x, num_samples, True, seed)
    return Tensor._wrap(out._data.astype(mstype.to_dtype(dtype).np))


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
    Op("laplace", "shape, mean, lambda_param, seed=None", fn=laplace, inputs=0),
    Op("standard_laplace", "shape, seed=None", fn=standard_laplace, inputs=0,
       prim="StandardLaplace(seed=0, seed2=0)(shape) -> shape, seed or None"),
    Op("gamma", "shape, alpha, beta, seed=None", fn=gamma, inputs=0,
       prim="Gamma(seed=0, seed2=0)(shape, alpha, beta) -> shape, alpha, beta, seed or None"),
    Op("poisson", "shape, mean, seed=None", fn=poisson, inputs=0,
       prim="Poisson(seed=0, seed2=0)(shape, mean) -> shape, mean, seed or None"),
    Op("random_gamma", "shape, alpha, seed=None", fn=random_gamma, inputs=0,
       prim="RandomGamma(seed=0, seed2=0)(shape, alpha) -> shape, alpha, seed or None"),
    Op("random_poisson", "shape, rate, seed=None, dtype=mindspore.float32", fn=random_poisson, inputs=0,
       prim="RandomPoisson(seed=0, seed2=0, dtype=mindspore.int64)(shape, rate) -> shape, rate, seed or None, dtype"),
    Op("random_categorical", "logits, num_sample, seed=0, dtype=mindspore.int64", fn=random_categorical, inputs=0,
       method=True, prim="RandomCategorical(dtype=mindspore.int64)(logits, num_sample, seed=0) -> logits, "
                         "num_sample, seed, dtype"),
    Op("multinomial_with_replacement", "x, seed, offset, numsamples, replacement=False",
       fn=multinomial_with_replacement, inputs=0,
       prim="MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset) -> x, seed, offset, "
            "numsamples, replacement"),
    Op("shuffle", "x, seed=None", fn=shuffle, inputs=0, prim="RandomShuffle(seed=0, seed2=0)(x) -> x, seed or None"),
    Op("choice_with_mask", "input_x, count=256, seed=None", fn=choice_with_mask, inputs=0,
       prim="RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x) -> input_x, count, seed or None"),
    Op("log_uniform_candidate_sampler", "true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0",
       fn=log_uniform_candidate_sampler, inputs=0,
       prim="LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0)(true_classes)"
            " -> true_classes, num_true, num_sampled, unique, range_max, seed"),
    Op("uniform_candidate_sampler", "true_classes, num_true, num_sampled, unique, range_max, seed=0, "
       "remove_accidental_hits=False", fn=uniform_candidate_sampler, inputs=0,
       prim="UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False)"
            "(true_classes) -> true_classes, num_true, num_sampled, unique, range_max, seed, remove_accidental_hits"),
    Op("_compute_accidental_hits", "true_classes, sampled_candidates, num_true=1", fn=compute_accidental_hits,
       inputs=0, prim="ComputeAccidentalHits(num_true=1)(true_classes, sampled_candidates) -> true_classes, "
                      "sampled_candidates, num_true"),
    Op("gumbel_softmax", "logits, tau=1.0, hard=False, dim=-1", fn=gumbel_softmax, inputs=0),
    Op("_truncated_normal", "shape, dtype=mindspore.float32, seed=0, seed2=0", fn=_truncated_normal, inputs=0,
       prim="TruncatedNormal(dtype=mindspore.float32, seed=0, seed2=0)(shape) -> shape, dtype, seed"),
    Op("_parameterized_truncated_normal", "shape, mean, stdevs, min, max, seed=0, seed2=0",
       fn=_parameterized_truncated_normal, inputs=0,
       prim="ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max) -> shape, mean, stdevs, "
            "min, max, seed"),
    Op("_log_normal_reverse", "input, mean=1.0, std=2.0", fn=_log_normal_reverse, inputs=0,
       prim="LogNormalReverse(mean=1.0, std=2.0)(input) -> input, mean, std"),
    Op("_cauchy_prim", "size, median=0.0, sigma=1.0", fn=_cauchy_prim, inputs=0,
       prim="Cauchy(size, median=0.0, sigma=1.0)() -> size, median, sigma"),
    Op("_non_deterministic_ints", "shape, dtype=mindspore.int64", fn=_non_deterministic_ints, inputs=0,
       prim="NonDeterministicInts(dtype=mindspore.int64)(shape) -> shape, dtype"),
    Op("_randperm_prim", "n, max_length=1, pad=-1, dtype=mindspore.int32", fn=_randperm_prim, inputs=0,
       prim="Randperm(max_length=1, pad=-1, dtype=mindspore.int32)(n) -> n, max_length, pad, dtype"),
    Op("_randperm_v2", "n, seed=0, offset=0, dtype=mindspore.int64", fn=randperm, inputs=0,
       prim="RandpermV2(seed=0, offset=0, dtype=mindspore.int64)(n) -> int(n), seed, offset, dtype"),
    Op("_bernoulli_prim", "x, p, seed=-1, offset=0", fn=_bernoulli_prim, inputs=0,
       prim="Bernoulli(seed=-1, offset=0)(x, p=0.5) -> x, p, seed, offset"),
    Op("_multinomial_prim", "x, num_samples, seed=0, seed2=0, dtype=mindspore.int32", fn=_multinomial_prim,
       inputs=0, prim="Multinomial(seed=0, seed2=0, dtype=mindspore.int32)(x, num_samples) -> x, num_samples, "
                      "seed, seed2, dtype"),
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
    "StandardLaplace": ("ops.StandardLaplace(seed=2)((4, 16)).shape", "(4, 16)"),
    "Gamma": ("ops.Gamma(seed=3)((3, 1), ms.Tensor([2.0, 3.0]), ms.Tensor([1.0])).shape", "(3, 2)"),
    "Poisson": ("ops.Poisson(seed=3)((3, 1), ms.Tensor([2.0, 3.0])).dtype", "Int32"),
    "RandomGamma": ("ops.RandomGamma(seed=3)(ms.Tensor([3, 1], ms.int32), ms.Tensor([2.0, 3.0])).shape",
                    "(3, 1, 2)"),
    "RandomPoisson": ("ops.RandomPoisson(seed=1)(ms.Tensor([2, 3], ms.int32), ms.Tensor([2.0, 5.0])).shape",
                      "(2, 3, 2)"),
    "RandomCategorical": ("ops.RandomCategorical(ms.int64)(ms.Tensor([[0.0, -100.0]]), 3, 1)", "[[0 0 0]]"),
    "MultinomialWithReplacement": ("x = ms.Tensor([[0.0, 9.0, 0.0, 0.0]])",
                                   "ops.MultinomialWithReplacement(2, True)(x, ms.Tensor(2), ms.Tensor(5))",
                                   "[[1 1]]"),
    "RandomShuffle": ("ops.RandomShuffle(seed=1)(ms.Tensor([1.0, 2.0, 3.0, 4.0])).sort()[0]", "[1. 2. 3. 4.]"),
    "RandomChoiceWithMask": ("y, mask = ops.RandomChoiceWithMask(count=3)(ms.Tensor([[True, False], [False, True]]))",
                             "mask.sort()[0]", "[False  True  True]"),
    "LogUniformCandidateSampler": ("s, t, e = ops.LogUniformCandidateSampler(1, 3, True, 3)(ms.Tensor([[1]]))",
                                   "s.sort()[0]", "[0 1 2]"),
    "UniformCandidateSampler": ("s, t, e = ops.UniformCandidateSampler(1, 3, False, 4)(ms.Tensor([[1], [3]]))",
                                "e", "[0.75 0.75 0.75]"),
    "ComputeAccidentalHits": ("i, j, w = ops.ComputeAccidentalHits(1)(ms.Tensor([[1], [0]]), ms.Tensor([0, 1]))",
                              "i, j", "[0 1] [1 0]"),
    "TruncatedNormal": ("x = ops.TruncatedNormal()(ms.Tensor([100], ms.int32))", "bool((abs(x) <= 2).all())",
                        "True"),
    "ParameterizedTruncatedNormal": ("f = ops.ParameterizedTruncatedNormal()",
                                     "x = f(ms.Tensor([1, 50], ms.int32), ms.Tensor([0.0]), ms.Tensor([1.0]), "
                                     "ms.Tensor([-0.5]), ms.Tensor([0.5]))", "bool((abs(x) <= 0.5).all())", "True"),
    "LogNormalReverse": ("ops.LogNormalReverse(2.0, 1.0)(ops.ones((3, 4))).shape", "(3, 4)"),
    "Cauchy": ("ops.Cauchy([2, 3])().shape", "(2, 3)"),
    "NonDeterministicInts": ("ops.NonDeterministicInts(ms.int32)(ms.Tensor([3, 4], ms.int32)).dtype", "Int32"),
    "Randperm": ("ops.Randperm(max_length=5, pad=-1)(ms.Tensor([3], ms.int32))[3:]", "[-1 -1]"),
    "RandpermV2": ("ops.RandpermV2()(ms.Tensor(4)).sort()[0]", "[0 1 2 3]"),
    "Bernoulli": ("ops.Bernoulli()(ms.Tensor([0.1, 0.2, 0.3]), ms.Tensor([0.0, 1.0, 1.0]))", "[0. 1. 1.]"),
    "Multinomial": ("ops.Multinomial(seed=10)(ms.Tensor([[0.0, 9.0, 0.0]]), 2)", "[[1 1]]"),
    "StandardNormal": ("ops.StandardNormal(seed=1)((2, 3)).shape", "(2, 3)"),
    "UniformReal": ("x = ops.UniformReal(seed=1)((1000,))",
                    "bool(x.min() >= 0.0), bool(x.max() < 1.0), x.dtype",
                    "True True Float32"),
    "UniformInt": ("x = ops.UniformInt(seed=1)((1000,), ms.Tensor(1, ms.int32), ms.Tensor(4, ms.int32))",
                   "sorted(set(x.asnumpy().tolist()))",
                   "[1, 2, 3]"),
}
