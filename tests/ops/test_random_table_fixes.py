"""What the random_table programs (tests/golden/test_random_table.py) found wrong in mskernel, each held to an
oracle of numpy float64 written here: cross broadcasting, the gradient of the singular values, IdentityN's gradient,
max unpooling of two elements to one place."""
import numpy as np

import mskernel as ms
from mskernel import ops


def _numeric_grad(f, x, eps=1e-6):
    x = np.array(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        keep = x[i]
        x[i] = keep + eps
        hi = f(x)
        x[i] = keep - eps
        lo = f(x)
        x[i] = keep
        out[i] = (hi - lo) / (2 * eps)
    return out


def test_cross_broadcasts_a_batch_against_one_vector():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 3)), rng.standard_normal((3, 3))
    got = ops.cross(ms.Tensor(a, ms.float64), ms.Tensor(b, ms.float64), -1).asnumpy()
    np.testing.assert_allclose(got, np.cross(a, b), rtol=1e-12)
    gb = ms.grad(lambda u, v: ops.cross(u, v, -1).sum(), 1)(ms.Tensor(a, ms.float64), ms.Tensor(b, ms.float64))
    np.testing.assert_allclose(gb.asnumpy(), _numeric_grad(lambda v: np.cross(a, v).sum(), b), atol=1e-6)


def test_singular_values_have_a_gradient():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 4))
    for f in (lambda t: ops.svd(t, compute_uv=False), lambda t: ops.Svd(compute_uv=False)(t)[0]):
        g = ms.grad(lambda t: (f(t) * ms.Tensor([1.0, 2.0, 3.0], ms.float64)).sum())(ms.Tensor(a, ms.float64))
        want = _numeric_grad(lambda m: (np.linalg.svd(m, compute_uv=False) * [1.0, 2.0, 3.0]).sum(), a)
        np.testing.assert_allclose(g.asnumpy(), want, atol=1e-6)


def test_identity_n_passes_the_gradient():
    x = np.array([1.5, -2.0, 0.25])
    g = ms.grad(lambda t: ops.square(ops.IdentityN()([t, t * 2])[1]).sum())(ms.Tensor(x, ms.float64))
    np.testing.assert_allclose(g.asnumpy(), _numeric_grad(lambda v: np.square(v * 2).sum(), x), atol=1e-6)


def test_max_unpool_keeps_the_last_of_two_elements_sent_to_one_place():
    x = np.array([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]])
    idx = np.array([[[1, 3], [0, 2], [3, 3]]])
    want = np.zeros((1, 3, 4))
    for c in range(3):
        for j in range(2):
            want[0, c, idx[0, c, j]] = x[0, c, j]  # written in order: the later one stays
    got = ops.max_unpool1d(ms.Tensor(x, ms.float32), ms.Tensor(idx, ms.int64), 2)
    np.testing.assert_array_equal(got.asnumpy(), want)
