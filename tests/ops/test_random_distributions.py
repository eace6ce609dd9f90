"""The random ops draw from the distributions they name: each sample (drawn under a fixed seed, so the test is
deterministic) is compared with scipy's distribution by a Kolmogorov-Smirnov or chi-square test. The wheel's
generator cannot be reproduced, so the goldens (ops_random_sparse) hold only what does not depend on it.

A p-value threshold of 1e-4 on 20 000 draws: a correct sampler passes (and, with the seed fixed, always the
same way); a wrong parameter (a scale for a rate, a missing shift) gives p-values below 1e-50."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import mskernel as ms
from mskernel import ops

N = 20000
P_MIN = 1e-4


def _ks(sample, dist) -> None:
    x = np.asarray(sample.asnumpy() if hasattr(sample, "asnumpy") else sample, np.float64).reshape(-1)
    assert stats.kstest(x, dist.cdf).pvalue > P_MIN


def _chi2(counts: np.ndarray, probs: np.ndarray) -> None:
    counts = np.asarray(counts, np.float64)
    probs = np.asarray(probs, np.float64)
    expected = probs / probs.sum() * counts.sum()
    assert stats.chisquare(counts, expected).pvalue > P_MIN


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(1234)
    ms.manual_seed(1234)


def test_laplace_and_standard_laplace():
    _ks(ops.laplace((N,), ms.Tensor(1.0), ms.Tensor(2.0)), stats.laplace(1.0, 2.0))
    _ks(ops.standard_laplace((N,)), stats.laplace(0.0, 1.0))
    _ks(ops.StandardLaplace(seed=3)((N,)), stats.laplace(0.0, 1.0))


def test_gamma_uses_beta_as_a_rate():
    _ks(ops.gamma((N,), ms.Tensor([3.0]), ms.Tensor([2.0])), stats.gamma(3.0, scale=0.5))


def test_random_gamma_draws_each_alpha():
    out = ops.random_gamma(ms.Tensor([N], ms.int32), ms.Tensor([0.5, 1.5])).asnumpy()
    _ks(out[:, 0], stats.gamma(0.5))
    _ks(out[:, 1], stats.gamma(1.5))


def test_poisson_means():
    out = ops.random_poisson(ms.Tensor([N], ms.int32), ms.Tensor([2.0, 7.0]), dtype=ms.int64).asnumpy()
    for col, rate in ((0, 2.0), (1, 7.0)):
        counts = np.bincount(out[:, col], minlength=30)[:30]
        _chi2(counts, stats.poisson(rate).pmf(np.arange(30)))
    p = ops.poisson((N,), ms.Tensor(4.0)).asnumpy()
    assert p.dtype == np.int32 and abs(p.mean() - 4.0) < 5 * np.sqrt(4.0 / N)


def test_truncated_normals():
    t = ops.TruncatedNormal()(ms.Tensor([N], ms.int32)).asnumpy()
    assert np.abs(t).max() <= 2.0
    _ks(t, stats.truncnorm(-2.0, 2.0))
    p = ops.ParameterizedTruncatedNormal()(ms.Tensor([1, N], ms.int32), ms.Tensor([1.0]), ms.Tensor([2.0]),
                                           ms.Tensor([0.0]), ms.Tensor([3.0])).asnumpy()
    assert p.min() >= 0.0 and p.max() <= 3.0
    _ks(p, stats.truncnorm(-0.5, 1.0, loc=1.0, scale=2.0))


def test_cauchy_log_normal_exponential_normal_uniform():
    _ks(ops.Cauchy([N], median=1.0, sigma=0.5)(), stats.cauchy(1.0, 0.5))
    _ks(ops.zeros(N).cauchy(), stats.cauchy())
    _ks(ops.ones(N).log_normal(0.5, 0.25), stats.lognorm(0.25, scale=np.exp(0.5)))
    _ks(ops.LogNormalReverse(1.0, 0.5)(ops.ones(N)), stats.lognorm(0.5, scale=np.exp(1.0)))
    _ks(ops.zeros(N).exponential_(2.0), stats.expon(scale=0.5))
    _ks(ops.zeros(N).normal_(3.0, 0.5), stats.norm(3.0, 0.5))
    _ks(ops.zeros(N).uniform_(-1.0, 2.0), stats.uniform(-1.0, 3.0))
    _ks(ops.ones(N).uniform(2.0, 3.0), stats.uniform(2.0, 1.0))


def test_discrete_samplers_follow_their_probabilities():
    logits = np.array([[0.0, 1.0, 2.0, -1.0]], np.float32)
    probs = np.exp(logits[0]) / np.exp(logits[0]).sum()
    out = ops.random_categorical(ms.Tensor(logits), N).asnumpy()[0]
    _chi2(np.bincount(out, minlength=4), probs)
    w = np.array([[1.0, 0.0, 3.0, 4.0]], np.float32)
    out = ops.multinomial_with_replacement(ms.Tensor(w), 3, 7, N, True).asnumpy()[0]
    counts = np.bincount(out, minlength=4)
    assert counts[1] == 0
    _chi2(counts[[0, 2, 3]], w[0, [0, 2, 3]])
    bits = ops.bernoulli_(ops.zeros(N), 0.3).asnumpy()
    assert set(np.unique(bits)) <= {0.0, 1.0} and abs(bits.mean() - 0.3) < 5 * np.sqrt(0.21 / N)


def test_gumbel_softmax_hard_picks_by_the_softmax():
    logits = ms.Tensor(np.tile(np.array([[0.5, 1.5, -0.5]], np.float32), (N, 1)))
    y = ops.gumbel_softmax(logits, 1.0, True).asnumpy()
    assert set(np.unique(y)) == {0.0, 1.0} and (y.sum(1) == 1).all()
    p = np.exp([0.5, 1.5, -0.5])
    _chi2(y.sum(0), p)
    g = ms.grad(lambda a: (ops.gumbel_softmax(a, 0.5, False) * ms.Tensor([1.0, 2.0, 3.0])).sum())(
        ms.Tensor([[0.5, 1.5, -0.5]]))
    assert g.shape == (1, 3) and abs(float(g.sum())) < 1e-5  # softmax rows sum to 1: gradients sum to 0


def test_candidate_samplers():
    rng_max = 6
    s, t, e = ops.log_uniform_candidate_sampler(ms.Tensor(np.array([[1]])), 1, N, False, rng_max)
    k = np.arange(rng_max)
    p = np.log((k + 2) / (k + 1)) / np.log(rng_max + 1)
    _chi2(np.bincount(s.asnumpy(), minlength=rng_max), p)
    np.testing.assert_allclose(e.asnumpy(), p[s.asnumpy()] * N, rtol=1e-5)
    s, _, _ = ops.uniform_candidate_sampler(ms.Tensor(np.array([[1]])), 1, 4, True, 4)
    assert sorted(s.asnumpy().tolist()) == [0, 1, 2, 3]


def test_choice_with_mask_picks_true_positions_once():
    x = np.zeros((30, 20), np.bool_)
    x[::3, ::2] = True
    y, m = ops.choice_with_mask(ms.Tensor(x), count=500)
    y, m = y.asnumpy(), m.asnumpy()
    assert m.sum() == x.sum() and x[tuple(y[m].T)].all() and len({tuple(r) for r in y[m]}) == x.sum()


def test_generators_repeat_from_a_state_and_differ_by_seed():
    g = ms.Generator().manual_seed(5)
    state = g.get_state()
    a = ms.mint.rand(5, generator=g).asnumpy()
    g.set_state(state)
    assert (ms.mint.rand(5, generator=g).asnumpy() == a).all()
    assert not (ms.mint.rand(5, generator=ms.Generator().manual_seed(6)).asnumpy() == a).all()
    st = ms.get_rng_state()
    b = ms.mint.randn(4).asnumpy()
    ms.set_rng_state(st)
    assert (ms.mint.randn(4).asnumpy() == b).all()
    _ks(ms.mint.randn(N), stats.norm())
    _ks(ms.mint.rand(N), stats.uniform())
    r = ms.mint.randint(3, 9, (N,)).asnumpy()
    _chi2(np.bincount(r, minlength=9)[3:], np.ones(6))
