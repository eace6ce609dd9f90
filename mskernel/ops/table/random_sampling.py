"""Op table: random samples of named distributions and the candidate samplers (``laplace``, ``gamma``,
``poisson``, ``random_categorical``, ``shuffle``, ``choice_with_mask``, the log-uniform and uniform candidate
samplers, ``gumbel_softmax``, and primitives such as ``TruncatedNormal``, ``Cauchy``, ``Randperm``), drawn as the
ops of :mod:`mskernel.ops.table.random` are: from the seeded generator, or from a generator of the op's own seed.

The values differ from MindSpore's (another generator); shapes, dtypes, supports and distributions agree
(tests/ops/test_random_distributions.py tests them against scipy).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> ops.gamma((3, 1), ms.Tensor([2.0, 3.0]), ms.Tensor([1.0]), seed=1).shape
    (3, 2)
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.seed import generator
from mskernel.common.tensor import Tensor
from mskernel.ops import shape as S
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.random import _rng, _v, multinomial


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


OPS: List[Op] = [
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
    Op("_bernoulli_prim", "x, p, seed=-1, offset=0", fn=_bernoulli_prim, inputs=0,
       prim="Bernoulli(seed=-1, offset=0)(x, p=0.5) -> x, p, seed, offset"),
    Op("_multinomial_prim", "x, num_samples, seed=0, seed2=0, dtype=mindspore.int32", fn=_multinomial_prim,
       inputs=0, prim="Multinomial(seed=0, seed2=0, dtype=mindspore.int32)(x, num_samples) -> x, num_samples, "
                      "seed, seed2, dtype"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it)
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
    "Bernoulli": ("ops.Bernoulli()(ms.Tensor([0.1, 0.2, 0.3]), ms.Tensor([0.0, 1.0, 1.0]))", "[0. 1. 1.]"),
    "Multinomial": ("ops.Multinomial(seed=10)(ms.Tensor([[0.0, 9.0, 0.0]]), 2)", "[[1 1]]"),
}
