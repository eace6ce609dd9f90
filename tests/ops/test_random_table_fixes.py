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


# Where the random_table programs found the wheel off numpy/scipy and mskernel on them (pinned there as ``_SCIPY``,
# ``_NAN_REDUCE``, ``_NAN_SORT``, ``_HFFT``): mskernel is held to the float64 reference here.

def test_bessel_k_and_y_are_nan_below_zero_and_infinite_at_zero_as_scipy():
    import scipy.special as sp

    x = np.array([-1.0, -0.0, 0.0, 0.5, 2.0])
    for name, ref in [("bessel_k0", sp.k0), ("bessel_k1", sp.k1), ("bessel_k0e", sp.k0e), ("bessel_k1e", sp.k1e),
                      ("bessel_y0", sp.y0), ("bessel_y1", sp.y1)]:
        got = getattr(ops, name)(ms.Tensor(x, ms.float32)).asnumpy()
        np.testing.assert_allclose(got, ref(x), rtol=1e-5, err_msg=name)


def test_reductions_and_sorts_carry_nan_as_numpy():
    y = np.array([[1.0, np.nan, 3.0], [0.5, -1.0, 2.0]])
    assert np.isnan(ops.max(ms.Tensor(y, ms.float32))[0].asnumpy())
    assert np.isnan(ops.amax(ms.Tensor(y, ms.float32), 1).asnumpy()[0])
    np.testing.assert_array_equal(ops.sort(ms.Tensor(y, ms.float32), 1)[0].asnumpy(), np.sort(y, 1))
    z = np.array([[1.0, np.nan, -1.0], [0.5, -1.0, 2.0]])  # numpy's argmin/argmax give the NaN's place
    np.testing.assert_array_equal(ops.Argmin()(ms.Tensor(z, ms.float32)).asnumpy(), np.argmin(z, -1))
    index, value = ops.ArgMaxWithValue(axis=1)(ms.Tensor(z, ms.float32))
    np.testing.assert_array_equal(index.asnumpy(), np.argmax(z, 1))
    np.testing.assert_array_equal(value.asnumpy(), np.max(z, 1))


def test_hermitian_ffts_follow_numpy_whatever_builds_the_complex_input():
    rng = np.random.default_rng(2)
    a = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], (2, 3, 4))
    z = a + 0.5j * a
    built = ops.Complex()(ms.Tensor(a, ms.float32), ms.Tensor(a * 0.5, ms.float32))
    for t in (ms.Tensor(z.astype(np.complex64)), built):
        np.testing.assert_allclose(ops.hfft(t).asnumpy(), np.fft.hfft(z), atol=1e-4)
        np.testing.assert_allclose(ops.hfftn(t).asnumpy(), np.fft.irfftn(np.conj(z)) * np.prod(np.fft.irfftn(z).shape),
                                   atol=1e-3)
    np.testing.assert_allclose(ops.ihfft(ms.Tensor(a, ms.float32)).asnumpy(), np.fft.ihfft(a), atol=1e-6)


def test_resizes_and_adaptive_pools_read_only_the_inputs_they_weigh():
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    x[0, 0, 0, 0] = np.inf
    near = ops.ResizeNearestNeighbor((5, 6))(ms.Tensor(x)).asnumpy()
    rows, cols = np.floor(np.arange(5) * 3 / 5).astype(int), np.floor(np.arange(6) * 4 / 6).astype(int)
    np.testing.assert_array_equal(near[0, 0], x[0, 0][rows][:, cols])
    pooled = ops.adaptive_avg_pool2d(ms.Tensor(x), (1, 2)).asnumpy()
    np.testing.assert_allclose(pooled[0, 0, 0], [np.inf, x[0, 0, :, 2:].mean()])


def test_hardswish_is_zero_below_minus_three_even_at_minus_infinity():
    x = np.array([-np.inf, -4.0, -3.0, -1.0, 0.5, 3.0, 7.0, np.inf])
    want = np.where(x < -3, 0.0, np.where(x > 3, x, x * (x + 3) / 6))  # the piecewise definition
    np.testing.assert_allclose(ops.hardswish(ms.Tensor(x, ms.float32)).asnumpy(), want, rtol=1e-6)


def test_clamp_and_softplus_carry_nan_as_numpy():
    x = np.array([np.nan, -1.0, 0.3, 2.0])
    np.testing.assert_array_equal(ops.clamp(ms.Tensor(x, ms.float32), -0.5, 0.7).asnumpy(),
                                  np.clip(x, -0.5, 0.7).astype(np.float32))
    np.testing.assert_allclose(ops.softplus(ms.Tensor(x, ms.float32)).asnumpy(), np.logaddexp(0, x), rtol=1e-6)


def test_cross_entropy_and_kl_losses_differentiate_their_labels():
    # the wheel's gradient for the labels (targets) of these three is zero; the loss does depend on them
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))

    def log_softmax(v):
        v = v - v.max(-1, keepdims=True)
        return v - np.log(np.exp(v).sum(-1, keepdims=True))

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    cases = [
        (lambda x, t: ops.SoftmaxCrossEntropyWithLogits()(x, t)[0].sum(), lambda t: -(t * log_softmax(a)).sum(),
         np.exp(log_softmax(b))),
        (lambda x, t: ops.SigmoidCrossEntropyWithLogits()(x, t).sum(),
         lambda t: (np.logaddexp(0, a) - a * t).sum(), sigmoid(b)),
        (lambda x, t: ops.kl_div(x, t, "sum"), lambda t: (t * (np.log(t) - log_softmax(a))).sum(),
         np.exp(log_softmax(b))),
    ]
    for ours, ref, labels in cases:
        x = log_softmax(a) if ref is cases[2][1] else a
        g = ms.grad(ours, 1)(ms.Tensor(x, ms.float64), ms.Tensor(labels, ms.float64))
        np.testing.assert_allclose(g.asnumpy(), _numeric_grad(ref, labels), atol=1e-5)


def test_selu_gradient_below_zero_is_scale_alpha_exp():
    # the wheel's SeLU gradient is negative below zero (-0.797 at -50), for an increasing function
    x = np.array([-50.0, -2.0, -1.0, 0.5, 3.0])
    g = ms.grad(lambda v: ops.selu(v).sum())(ms.Tensor(x, ms.float64)).asnumpy()
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    selu = lambda v: (scale * np.where(v > 0, v, alpha * np.expm1(v))).sum()  # noqa: E731
    np.testing.assert_allclose(g, _numeric_grad(selu, x), rtol=1e-6, atol=1e-9)


def test_hurwitz_zeta_at_infinite_order_is_its_limit():
    import scipy.special as sp
    q = np.array([0.7, 1.0, 1.3, 2.5])
    want = np.array([np.inf, 1.0, 0.0, 0.0])  # sum_k (k + q) ** -s as s -> inf: only a term with k + q <= 1 stays
    for f in (ops.zeta, ops.Zeta()):
        got = f(ms.Tensor(np.full(4, np.inf), ms.float64), ms.Tensor(q, ms.float64)).asnumpy()
        np.testing.assert_array_equal(got, want)
    s = np.array([2.0, 3.5, 40.0])
    np.testing.assert_allclose(ops.zeta(ms.Tensor(s, ms.float64), ms.Tensor([1.3, 1.3, 1.3], ms.float64)).asnumpy(),
                               sp.zeta(s, 1.3), rtol=1e-5)


# Where the wheel is off scipy/numpy and mskernel on them (pinned in test_random_table.py as ``_ERFINV``, ``_TANH``,
# ``_HEAVISIDE``, ``_IGAMMAC``).

def test_erfinv_near_one_is_scipys():
    import scipy.special as sp

    x = np.array([0.9932971, 0.9962307, -0.9995, 0.5, 0.0], np.float32)
    want = sp.erfinv(x.astype(np.float64))
    for f in (ops.erfinv, ops.Erfinv(), lambda t: t.erfinv()):
        np.testing.assert_allclose(f(ms.Tensor(x)).asnumpy(), want, rtol=2e-6)


def test_tanh_near_saturation_is_numpys():
    x = np.array([-3.7777858, 3.1, -5.5, 0.3], np.float32)
    np.testing.assert_allclose(ops.tanh(ms.Tensor(x)).asnumpy(), np.tanh(x.astype(np.float64)), rtol=2e-7)


def test_heaviside_of_nan_is_nan():
    x = np.array([np.nan, -0.0, 0.0, -2.0, 3.0], np.float32)
    v = np.full(5, 0.25, np.float32)
    got = ops.heaviside(ms.Tensor(x), ms.Tensor(v)).asnumpy()
    np.testing.assert_array_equal(got, np.heaviside(x, v))


def test_igammac_at_an_infinite_shape_is_one():
    import scipy.special as sp

    a, x = np.array([np.inf, np.inf, 2.0]), np.array([1.2, 0.3, 0.7])
    np.testing.assert_allclose(ops.igammac(ms.Tensor(a, ms.float32), ms.Tensor(x, ms.float32)).asnumpy(),
                               sp.gammaincc(a, x), rtol=1e-6)


def test_log_softmax_of_a_slice_holding_plus_inf_is_its_limit_and_nan_stays_nan():
    x = np.array([[1.0, np.inf, 2.0], [np.inf, np.inf, 0.0], [-np.inf, 1.0, 2.0], [np.nan, 1.0, 2.0]])
    # the limit as the infinite entries grow: the finite ones get no weight (log: -inf); inf - inf has no value
    want = np.where(np.isposinf(x[:2]), np.nan, -np.inf)
    e = np.exp(x[2] - x[2].max())
    for lsm in (ops.log_softmax, ops.LogSoftmax(), lambda t: ops.log_softmax(t.T, 0).T):
        got = lsm(ms.Tensor(x, ms.float32)).asnumpy()
        np.testing.assert_array_equal(got[:2], want)
        np.testing.assert_allclose(got[2], np.log(e / e.sum()), rtol=1e-6)
        assert np.isnan(got[3]).all()  # numpy's NaN


def test_floor_division_by_zero_or_of_infinities_follows_mindsporess_rule():
    # MindSpore's rule (measured on the 2.10 CPU wheel): floor(x / y) with a zero divisor read as +0; numpy's
    # floor_divide follows the sign of -0.0 and gives NaN for inf // finite
    x = np.array([1, -1, 0, -0.0, np.inf, -np.inf, 1, -1, np.inf, -np.inf, 1.0, 1.0, np.inf, 0.0, 7.0, -7.0])
    y = np.array([-0.0, -0.0, -0.0, 0.0, 0.0, -0.0, 0.0, 0.0, 0.76, -0.76, np.inf, -np.inf, np.inf, 0.76, 2.0, 2.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.floor(x / np.where(y == 0, 0.0, y))
    for f in (ops.floor_divide, ops.FloorDiv(), lambda a, b: ops.div(a, b, rounding_mode="floor"), lambda a, b: a // b):
        got = f(ms.Tensor(x, ms.float32), ms.Tensor(y, ms.float32)).asnumpy()
        np.testing.assert_array_equal(got, want.astype(np.float32))
        assert (np.signbit(got) == np.signbit(want)).all()


def test_eigenvalues_are_numpys_as_a_set():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 3))
    want = np.sort_complex(np.linalg.eigvals(a))
    for got in (ops.eigvals(ms.Tensor(a, ms.float32)), ops.eig(ms.Tensor(a, ms.float32))[0]):
        np.testing.assert_allclose(np.sort_complex(got.asnumpy().astype(np.complex128)), want, rtol=1e-5, atol=1e-6)


# The optimizer primitives (pinned in test_random_table.py as ``_OPTIM``, ``_SPARSE_RMS``): mskernel updates the
# Parameters by the documented formulas and returns the updated values, as documented.

def _params(*arrays):
    return [ms.Parameter(ms.Tensor(np.array(a, np.float32)), name=f"p{i}") for i, a in enumerate(arrays)]


def test_apply_rms_prop_updates_and_returns_var_as_documented():
    rng = np.random.default_rng(4)
    var, ms_, mom, g = rng.standard_normal((4, 3)), rng.random((4, 3)) + 0.1, rng.standard_normal((4, 3)), \
        rng.standard_normal((4, 3))
    lr, rho, momentum, eps = 0.01, 0.9, 0.5, 1e-6
    want_ms = rho * ms_ + (1 - rho) * g * g
    want_mom = momentum * mom + lr * g / np.sqrt(want_ms + eps)
    p = _params(var, ms_, mom)
    out = ops.ApplyRMSProp()(p[0], p[1], p[2], ms.Tensor(lr, ms.float32), ms.Tensor(g, ms.float32), rho, momentum, eps)
    for got, want in zip(p + [out], (var - want_mom, want_ms, want_mom, var - want_mom)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_sparse_apply_rms_prop_decays_mean_square_where_the_gradient_is_zero():
    var, ms_, mom = np.ones((2, 2)), np.full((2, 2), 1.1), np.full((2, 2), 0.5)
    g, idx = np.array([[0.0, 0.5], [0.0, 0.0]]), [1, 0]
    lr, rho, momentum, eps = 0.01, 0.9, 0.5, 1e-6
    want_ms, want_mom = ms_.copy(), mom.copy()
    for row, i in enumerate(idx):
        want_ms[i] = rho * ms_[i] + (1 - rho) * g[row] ** 2  # documented: no exception for a zero gradient
        want_mom[i] = momentum * mom[i] + lr * g[row] / np.sqrt(want_ms[i] + eps)
    p = _params(var, ms_, mom)
    out = ops.SparseApplyRMSProp(rho, momentum, eps)(p[0], p[1], p[2], ms.Tensor(lr, ms.float32),
                                                     ms.Tensor(g, ms.float32), ms.Tensor(idx, ms.int32))
    for got, want in zip(p, (var - want_mom, want_ms, want_mom)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    for got, param in zip(out, p):
        np.testing.assert_array_equal(got.asnumpy(), param.asnumpy())


def test_adam_updates_and_returns_the_updated_parameters():
    rng = np.random.default_rng(5)
    var, m, v, g = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.random((3, 4)) + 0.1, \
        rng.standard_normal((3, 4))
    b1p, b2p, lr, b1, b2, eps = 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8
    want_m, want_v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
    want_var = var - lr * np.sqrt(1 - b2p) / (1 - b1p) * want_m / (np.sqrt(want_v) + eps)
    p = _params(var, m, v)
    t = [ms.Tensor(s, ms.float32) for s in (b1p, b2p, lr, b1, b2, eps)]
    out = ops.Adam()(p[0], p[1], p[2], *t, ms.Tensor(g, ms.float32))
    for got, param, want in zip(out, p, (want_var, want_m, want_v)):
        np.testing.assert_allclose(param.asnumpy(), want, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(got.asnumpy(), param.asnumpy())


def test_polar_and_complex_keep_an_infinite_part_apart():
    r, theta = np.array([np.inf, 2.0, np.inf]), np.array([0.5, 3.0, -2.0])
    got = ops.polar(ms.Tensor(r, ms.float32), ms.Tensor(theta, ms.float32)).asnumpy()
    np.testing.assert_allclose(got.real, r * np.cos(theta), rtol=1e-6)
    np.testing.assert_allclose(got.imag, r * np.sin(theta), rtol=1e-6)
    z = ops.Complex()(ms.Tensor([1.0, np.inf], ms.float32), ms.Tensor([np.inf, 2.0], ms.float32)).asnumpy()
    np.testing.assert_array_equal(z.real, [1.0, np.inf])
    np.testing.assert_array_equal(z.imag, [np.inf, 2.0])


def test_writing_a_piece_over_nan_or_inf_leaves_no_trace():
    x = np.array([[1.0, np.nan, 2.0], [np.nan, np.inf, -np.inf]])
    src = np.array([5.0, 6.0, 7.0])
    want = x.copy()
    want[1] = src
    got = ops.select_scatter(ms.Tensor(x, ms.float32), ms.Tensor(src, ms.float32), 0, 1).asnumpy()
    np.testing.assert_array_equal(got, want)
    got = ops.slice_scatter(ms.Tensor(x, ms.float32), ms.Tensor(src[None], ms.float32), 0, 1, 2).asnumpy()
    np.testing.assert_array_equal(got, want)


# The gradients the random_table programs found different (pinned there as ``_GRAD`` before), each decided by numpy
# float64 central differences at the program's kind of input.

def _grad64(f, *args, wrt=0):
    return ms.grad(f, wrt)(*[ms.Tensor(np.asarray(a, np.float64), ms.float64) for a in args]).asnumpy()


def test_hinge_embedding_loss_shares_the_gradient_at_the_margin():
    x, t = np.array([0.3, 1.0, 1.0, 2.0]), np.array([1.0, -1.0, 1.0, -1.0])
    loss = lambda v: np.where(t > 0, v, np.maximum(0.0, 1.0 - v)).sum()  # noqa: E731
    got = _grad64(lambda a: ops.hinge_embedding_loss(a, ms.Tensor(t, ms.float64), reduction="sum"), x)
    left = (loss(x) - loss(x - 1e-7 * (x == 1) * (t < 0))) / 1e-7  # the one-sided derivatives at the kink x = 1
    right = (loss(x + 1e-7 * (x == 1) * (t < 0)) - loss(x)) / 1e-7
    smooth = _numeric_grad(loss, x)
    np.testing.assert_allclose(got[[0, 2, 3]], smooth[[0, 2, 3]], atol=1e-6)
    np.testing.assert_allclose(got[1], (left + right) / 2, atol=1e-6)  # -1 and 0: the wheel's clip shares it, -0.5


def test_deepcopy_passes_the_gradient_as_identity():
    x = np.array([[1.5, -2.0], [0.25, 3.0]])
    got = _grad64(lambda t: ops.square(ops.deepcopy(t) * 2).sum(), x)
    np.testing.assert_allclose(got, _numeric_grad(lambda v: np.square(v * 2).sum(), x), atol=1e-6)


def test_nuclear_and_spectral_norms_have_a_gradient():
    y = np.array([[1.0, 0.0, 0.5, -1.0], [1.0, 1.0, 1.0, -0.5], [1.0, 0.5, 0.0, 1.0]])
    sv = lambda m: np.linalg.svd(m, compute_uv=False)  # noqa: E731
    for ord_, ref in [("nuc", lambda m: sv(m).sum()), (2, lambda m: sv(m).max()), (-2, lambda m: sv(m).min())]:
        want = _numeric_grad(ref, y)
        np.testing.assert_allclose(_grad64(lambda t: ops.norm(t, ord_), y), want, atol=1e-6, err_msg=str(ord_))
        np.testing.assert_allclose(_grad64(lambda t: ops.matrix_norm(t, ord_), y), want, atol=1e-6)


def test_cdist_gradient_at_a_zero_distance_is_zero():
    a = np.array([[[0.5, 1.0], [2.0, -1.0]]])
    b = np.array([[[0.5, 1.0], [0.0, 0.0]]])
    for p in (1.0, 2.0, 3.0):
        got = _grad64(lambda s, t: ms.mint.cdist(s, t, p).sum(), a, b)
        dist = lambda u, v: (np.abs(u[:, :, None] - v[:, None]) ** p).sum(-1) ** (1 / p)  # noqa: E731
        want = _numeric_grad(lambda u: dist(u, b)[:, 1:].sum() + dist(u, b)[:, :1, 1:].sum(), a)  # the kink left out
        np.testing.assert_allclose(got, want, atol=1e-5, err_msg=str(p))  # the zero distance adds 0, its subgradient


# Where the random_table programs found the wheel's gradient off numpy's central differences and mskernel on them.

def test_cholesky_inverse_gradient_is_the_derivative_of_inv_l_lt():
    lower = np.array([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-0.3, 0.4, 1.2]])
    w = np.array([[1.0, 0.2, -0.5], [0.3, 2.0, 0.1], [0.7, -1.0, 0.4]])
    got = _grad64(lambda t: (ops.cholesky_inverse(t) * ms.Tensor(w, ms.float64)).sum(), lower)
    np.testing.assert_allclose(got, _numeric_grad(lambda m: (np.linalg.inv(m @ m.T) * w).sum(), lower), atol=1e-6)


def test_mod_gradient_is_fmods():
    x = np.array([[2.7, -2.7, 1.3], [-3.9, 0.4, 5.2]])
    y = np.array([[1.1, 1.1, -0.6], [1.5, -0.3, -1.4]])
    for i, v in enumerate((x, y)):
        got = _grad64(lambda a, b: ops.Mod()(a, b).sum(), x, y, wrt=i)
        want = _numeric_grad(lambda u: np.fmod(*((u, y) if i == 0 else (x, u))).sum(), v)
        np.testing.assert_allclose(got, want, atol=1e-6)


def test_fftshift_gradient_unshifts_whatever_follows():
    rng = np.random.default_rng(1)
    x, y, w = rng.uniform(-1, 1, (3, 2, 3, 5))
    ty = ms.Tensor(y, ms.float64)
    for f, ref in [(lambda t: ops.fftshift(t) * 1, lambda v: np.fft.fftshift(v)),
                   (lambda t: ops.abs(ops.fftshift(t) - ty), lambda v: np.abs(np.fft.fftshift(v) - y))]:
        got = _grad64(lambda t: (f(t) * ms.Tensor(w, ms.float64)).sum(), x)
        np.testing.assert_allclose(got, _numeric_grad(lambda v: (ref(v) * w).sum(), x), atol=1e-6)


def test_cumprod_gradient_through_zeros_is_finite():
    x = np.array([[0.5, 0.0, 2.0, -1.0], [0.0, 0.0, 3.0, 1.0]])
    w = np.array([[1.0, -2.0, 0.5, 3.0], [2.0, 1.0, -1.0, 0.5]])
    tw = ms.Tensor(w, ms.float64)
    got = _grad64(lambda t: (ops.CumProd(reverse=True)(t, -1) * tw).sum(), x)
    want = _numeric_grad(lambda v: (np.cumprod(v[:, ::-1], 1)[:, ::-1] * w).sum(), x)
    np.testing.assert_allclose(got, want, atol=1e-6)
    got = _grad64(lambda t: (ops.cumprod(t, 1) * tw).sum(), x)
    np.testing.assert_allclose(got, _numeric_grad(lambda v: (np.cumprod(v, 1) * w).sum(), x), atol=1e-6)


def test_tanh_gradient_near_saturation_is_not_zero():
    x = np.array([-6.3846684, 5.5960298], np.float32)  # where the wheel's float32 tanh is already +-1
    got = ms.grad(lambda t: ops.tanh(t).sum())(ms.Tensor(x)).asnumpy()
    # 1 - tanh**2 of a float32 tanh: within its rounding (6e-8) of the float64 derivative, which is not 0
    np.testing.assert_allclose(got, _numeric_grad(lambda v: np.tanh(v).sum(), x.astype(np.float64)), atol=1.2e-7)


def test_no_gradient_flows_through_a_cast_to_integers():
    x = np.array([1.0, -0.5, 2.0])
    y = np.array([0.3, 1.2, -1.4])  # 3y cast to int32: 0, 3, -4 (finite differences of the cast are 0)
    got = _grad64(lambda a, b: ops.ldexp(a, ops.cast(b * 3, ms.int32)).sum(), x, y, wrt=1)
    want = _numeric_grad(lambda v: (x * 2.0 ** np.trunc(v * 3)).sum(), y)
    np.testing.assert_array_equal(got, want)


# The random_table programs' open value differences, decided.

def test_nms_with_mask_suppresses_by_the_plain_iou():
    boxes = np.array([[0, 0, 2, 2, 0.9], [1, 0, 3, 2, 0.8], [0, 1.5, 2, 3.5, 0.7], [0, 0, 0.2, 0.2, 0.6]])

    def plain_iou(a, b):  # area of overlap over area of union, as the docs write it
        inter = max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
        area = lambda q: (q[2] - q[0]) * (q[3] - q[1])  # noqa: E731
        return inter / (area(a) + area(b) - inter)
    for thr in (0.1, 0.3, 0.4, 0.6):
        keep = []
        for i in np.argsort(-boxes[:, 4], kind="stable"):
            keep.append(all(plain_iou(boxes[i], boxes[j]) <= thr for j, k in zip(range(len(keep)), keep) if k))
        got = ops.NMSWithMask(thr)(ms.Tensor(boxes, ms.float32))[2].asnumpy()
        np.testing.assert_array_equal(got, keep, err_msg=str(thr))


def test_coalesce_sums_duplicates_as_scipy():
    import scipy.sparse as sp

    values = np.array([0.5, 0.25, 2.0, -1.0])
    for idx in ([[0, 1, 0, 2], [2, 3, 2, 0]], [[1, 0, 0, 1], [3, 2, 2, 3]], [[2, 0, 1, 0], [0, 2, 3, 2]]):
        idx = np.array(idx)
        ref = sp.coo_matrix((values, (idx[0], idx[1])), shape=(3, 4)).tocsr().tocoo()  # duplicates summed, sorted
        got = ops.Coalesce()(ms.Tensor(idx, ms.int64), ms.Tensor(values, ms.float32), ms.Tensor([3, 4], ms.int64))
        np.testing.assert_array_equal(got[0].asnumpy(), np.stack([ref.row, ref.col]))
        np.testing.assert_allclose(got[1].asnumpy(), ref.data, rtol=1e-6)


def test_max_pool_with_argmax_v2_carries_a_nan_in_its_window_as_numpy():
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    x[0, 0, 1, 2] = np.nan
    value, index = ops.MaxPoolWithArgmaxV2(2, 1)(ms.Tensor(x))
    for i in range(2):
        for j in range(3):
            window = x[0, 0, i:i + 2, j:j + 2]
            np.testing.assert_array_equal(value.asnumpy()[0, 0, i, j], np.max(window))
            r, c = np.unravel_index(np.argmax(window), (2, 2))  # numpy's argmax: the NaN's place
            assert index.asnumpy()[0, 0, i, j] == (i + r) * 4 + j + c


def test_linear_resize_at_and_next_to_an_infinite_sample_is_the_weighted_sum_of_what_it_weighs():
    x = np.array([[[2.0, -4.4, -np.inf, 1.6]]])
    got = ops.ResizeLinear1D()(ms.Tensor(x, ms.float32), ms.Tensor(np.array([7]), ms.int64)).asnumpy()
    pos = np.arange(7) * 3 / 6  # align_corners
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, 3)
    w = pos - lo
    want = [(1 - wi) * x[0, 0, a] + wi * x[0, 0, b] if 0 < wi < 1 else x[0, 0, a if wi == 0 else b]
            for a, b, wi in zip(lo, hi, w)]
    np.testing.assert_allclose(got[0, 0], want, rtol=1e-6)


def test_atanh_near_one_after_a_tanh_mean_stays_near_the_float64_chain():
    rng = np.random.RandomState(9297)  # table_d297's inputs: atanh's argument comes within 1e-3 of 1
    xv = rng.uniform(-1.5, 1.5, (2, 3, 4)).astype(np.float32)
    yv = rng.uniform(-1.5, 1.5, (3, 4)).astype(np.float32)
    x, y = ms.Tensor(xv), ms.Tensor(yv)
    v0 = ops.baddbmm(x[:, :, :3], x, ops.swapaxes(x, 1, 2)[:, :, :3], 0.5, 1.5)
    got = ops.inner(ops.atanh(x * (1 + 0.25 * ops.tanh(v0).mean())), y).asnumpy()
    xd, yd = xv.astype(np.float64), yv.astype(np.float64)
    o0 = 0.5 * xd[:, :, :3] + 1.5 * (xd @ np.swapaxes(xd, 1, 2)[:, :, :3])
    with np.errstate(invalid="ignore"):
        want = np.inner(np.arctanh(xd * (1 + 0.25 * np.tanh(o0).mean())), yd)
    np.testing.assert_allclose(got, want, rtol=5e-5)  # float32 inputs to atanh near 1: ~1e-5 of float64


def _ctc_log_alpha(lp, target, blank=0):
    """The CTC forward variables of one sequence in float64 (numpy's logaddexp): lp (T, C)."""
    ext = np.full(2 * len(target) + 1, blank)
    ext[1::2] = target
    alpha = np.full((lp.shape[0], len(ext)), -np.inf)
    alpha[0, :2] = lp[0, ext[:2]]
    for t in range(1, lp.shape[0]):
        for s in range(len(ext)):
            a = alpha[t - 1, s]
            if s >= 1:
                a = np.logaddexp(a, alpha[t - 1, s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                a = np.logaddexp(a, alpha[t - 1, s - 2])
            alpha[t, s] = a + lp[t, ext[s]]
    return alpha


def test_ctc_forward_variables_carry_a_nan_log_probability_as_numpy():
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((4, 2, 3))
    lp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    lp[1, 0, 2] = np.nan  # batch 0 holds a NaN log-probability (the wheel's recursion skips it: -inf)
    targets, lengths = np.array([[1, 2], [2, 1]]), np.array([4, 4])
    _, log_alpha = ops.CTCLossV2()(ms.Tensor(lp, ms.float64), ms.Tensor(targets, ms.int32),
                                   ms.Tensor(lengths, ms.int32), ms.Tensor(np.array([2, 2]), ms.int32))
    for b in range(2):
        want = _ctc_log_alpha(lp[:, b], targets[b])
        np.testing.assert_allclose(log_alpha.asnumpy()[b], want, rtol=1e-10)  # NaN where numpy's is NaN


def test_ctc_loss_gradient_output_is_zero_past_a_sequence_length():
    rng = np.random.default_rng(4)
    logits = rng.uniform(-1.5, 1.5, (4, 2, 3))
    labels, lengths = [[1, 0], [1]], [4, 3]  # blank is the last class, 2

    def losses(z):
        lp = z - np.log(np.exp(z).sum(-1, keepdims=True))
        out = []
        for b in range(2):
            alpha = _ctc_log_alpha(lp[:lengths[b], b], labels[b], blank=2)
            out.append(-np.logaddexp(alpha[-1, -1], alpha[-1, -2]))
        return np.array(out)
    loss, grad = ops.CTCLoss()(ms.Tensor(logits, ms.float64), ms.Tensor(np.array([[0, 0], [0, 1], [1, 0]]), ms.int64),
                               ms.Tensor(np.array([1, 0, 1]), ms.int32), ms.Tensor(np.array(lengths), ms.int32))
    np.testing.assert_allclose(loss.asnumpy(), losses(logits), rtol=1e-10)
    want = _numeric_grad(lambda z: losses(z).sum(), logits)  # batch 1's last frame: 0, the loss never reads it
    np.testing.assert_allclose(grad.asnumpy(), want, atol=1e-6)
    assert not want[3, 1].any()


def test_select_view_counts_a_negative_index_from_the_end_as_numpy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(ops.SelectView()(ms.Tensor(x), -1, 2).asnumpy(), x[:, :, -1])
    np.testing.assert_array_equal(ops.SelectView()(ms.Tensor(x), -2, 1).asnumpy(), x[:, -2])
