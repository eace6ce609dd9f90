"""Gradients of the decompositions, solves and matrix helpers (table/decomp.py, matrix.py, stats_more.py) in
float64 against central differences of the same function written with numpy (the wheel has no CPU kernel for
several of these gradients: CholeskyGrad, MatrixExp)."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from central_differences import gradient

_RNG = np.random.default_rng(7)
_A = _RNG.normal(size=(3, 3))
_SPD = _A @ _A.T + 3 * np.eye(3)
_GEN = _A + 2 * np.eye(3)
_LOW = np.tril(_RNG.normal(size=(3, 3))) + 3 * np.eye(3)
_B = _RNG.normal(size=(3, 2))
_W = _RNG.normal(size=(3, 3))


def _expm(x: np.ndarray) -> np.ndarray:
    out, term = np.eye(len(x)), np.eye(len(x))
    for k in range(1, 40):
        term = term @ x / k
        out = out + term
    return out


def _sym(x: np.ndarray) -> np.ndarray:
    return (x + x.T) / 2


# name -> (mskernel function of Tensors, numpy function of arrays, inputs)
CASES = {
    "cholesky": (lambda a: (ops.cholesky(a) * ms.Tensor(_W)).sum(),
                 lambda a: (np.linalg.cholesky(_sym(a)) * _W).sum(), (_SPD,)),
    "cholesky_upper": (lambda a: (ops.cholesky(a, upper=True) ** 2).sum(),
                       lambda a: (np.linalg.cholesky(_sym(a)).T ** 2).sum(), (_SPD,)),
    "cholesky_inverse": (lambda a: (ops.cholesky_inverse(a) * ms.Tensor(_W)).sum(),
                         lambda a: (np.linalg.inv(a @ a.T) * _W).sum(), (_LOW,)),
    "cholesky_solve": (lambda b, a: ops.cholesky_solve(b, a).sum(),
                       lambda b, a: np.linalg.solve(a @ a.T, b).sum(), (_B, _LOW)),
    "matrix_solve": (lambda a, b: (ops.matrix_solve(a, b) ** 2).sum(),
                     lambda a, b: (np.linalg.solve(a, b) ** 2).sum(), (_GEN, _B)),
    "logdet": (lambda a: ops.logdet(a), lambda a: np.log(np.linalg.det(a)), (_SPD,)),
    "slogdet": (lambda a: ops.slogdet(a)[1], lambda a: np.linalg.slogdet(a)[1], (_GEN,)),
    "matrix_exp": (lambda a: (ops.matrix_exp(a) * ms.Tensor(_W)).sum(), lambda a: (_expm(a) * _W).sum(),
                   (_GEN / 3,)),
    "triangular_solve": (lambda b, a: (b.triangular_solve(a, upper=False)[0] ** 2).sum(),
                         lambda b, a: (np.linalg.solve(np.tril(a), b) ** 2).sum(), (_B, _LOW)),
    "matrix_diag_part": (lambda a: (ops.matrix_diag_part(a, ms.Tensor(np.array([-1, 1], np.int32)), 0.0) ** 2).sum(),
                         lambda a: sum((np.diagonal(a, k) ** 2).sum() for k in (-1, 0, 1)), (_GEN,)),
    "pdist": (lambda a: ops.pdist(a).sum(),
              lambda a: sum(np.linalg.norm(a[i] - a[j]) for i in range(3) for j in range(i + 1, 3)), (_GEN,)),
    "cov": (lambda a: (ops.cov(a) ** 2).sum(), lambda a: (np.cov(a) ** 2).sum(), (_GEN,)),
    "renorm": (lambda a: (ops.renorm(a, 2, 0, 2.0) * ms.Tensor(_W)).sum(),
               lambda a: (a * np.minimum(1, 2.0 / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-7)) * _W).sum(),
               (_GEN,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_central_differences(name):
    ours, theirs, inputs = CASES[name]
    ts = [ms.Tensor(np.array(x, np.float64)) for x in inputs]
    got = ms.grad(ours, tuple(range(len(ts))))(*ts)
    got = got if isinstance(got, tuple) else (got,)
    names = [f"x{i}" for i in range(len(inputs))]
    want = gradient(lambda p: float(theirs(*[p[n] for n in names])), dict(zip(names, inputs)))
    for n, g in zip(names, got):
        np.testing.assert_allclose(g.asnumpy(), want[n], rtol=1e-6, atol=1e-8, err_msg=f"{name}: {n}")
