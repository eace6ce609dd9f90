"""nn.Roll against numpy (the CPU wheel has no kernel for the Roll primitive it calls), and nn.Jvp/nn.Vjp against
float64 central differences."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


@pytest.mark.parametrize("shift, axis", [(2, 0), (-1, 1), ((1, -2), (0, 1)), ([3], [-1]), ((1, 1), (1, 1))])
def test_roll_matches_numpy(shift, axis):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(nn.Roll(shift, axis)(ms.Tensor(x)).asnumpy(), np.roll(x, shift, axis))


def test_roll_gradient_rolls_back():
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = ms.grad(lambda a: (nn.Roll((1, 2), (0, 1))(a) * ms.Tensor(w)).sum())(ms.Tensor(np.ones((3, 4), np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), np.roll(w, (-1, -2), (0, 1)))


def test_roll_axis_out_of_range():
    with pytest.raises(ValueError, match="Roll"):
        nn.Roll(1, 3)(ms.Tensor(np.ones((2, 2), np.float32)))


def _f(x, y):
    return np.sin(x) * y + x ** 2


def test_jvp_and_vjp_match_central_differences():
    rng = np.random.default_rng(0)
    x, y, vx, vy, u = (rng.standard_normal((2, 3)) for _ in range(5))
    eps = 1e-6
    jv_ref = (_f(x + eps * vx, y + eps * vy) - _f(x - eps * vx, y - eps * vy)) / (2 * eps)
    out, jv = nn.Jvp(lambda a, b: a.sin() * b + a ** 2)(ms.Tensor(x), ms.Tensor(y), (ms.Tensor(vx), ms.Tensor(vy)))
    np.testing.assert_allclose(out.asnumpy(), _f(x, y), rtol=1e-12)
    np.testing.assert_allclose(jv.asnumpy(), jv_ref, rtol=1e-6, atol=1e-8)
    _, (gx, gy) = nn.Vjp(lambda a, b: a.sin() * b + a ** 2)(ms.Tensor(x), ms.Tensor(y), ms.Tensor(u))
    for g, k in ((gx, 0), (gy, 1)):
        ref = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            d = np.zeros_like(x)
            d[idx] = eps
            args_p, args_m = [x, y], [x, y]
            args_p[k], args_m[k] = args_p[k] + d, args_m[k] - d
            ref[idx] = np.sum(u * (_f(*args_p) - _f(*args_m))) / (2 * eps)
        np.testing.assert_allclose(g.asnumpy(), ref, rtol=1e-6, atol=1e-8)
