"""Decompositions, solves, matrix helpers, statistics and sorting helpers (table/decomp.py, matrix.py, stats_more.py):
values, dtypes, primitives, Tensor methods, gradients and errors."""
_S = "a = Tensor(np.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], np.float32))\n"  # SPD
_L = "l = Tensor(np.array([[2.0, 0.0, 0.0], [1.0, 1.5, 0.0], [-0.5, 0.5, 1.2]], np.float32))\n"  # lower factor
_B = "b = Tensor(np.array([[1.0, 0.5], [-2.0, 1.0], [0.25, 3.0]], np.float32))\n"
_M = "m = Tensor(np.array([[1.5, -0.3, 2.0], [0.7, 2.2, -1.1], [0.4, 0.9, 1.8]], np.float32))\n"  # general
_R = "r = Tensor(np.array([[1.0, 2.0], [-4.0, -5.0], [2.0, 1.0], [0.5, 3.0]], np.float32))\n"  # tall
_BAT = ("bt = Tensor(np.array([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]], np.float32))\n")

CASES = {
    # cholesky and friends
    "cholesky": _S + "result = (ops.cholesky(a), ops.cholesky(a, upper=True), ops.Cholesky()(a), a.cholesky(True))",
    "cholesky_f64": "a = Tensor(np.array([[2.0, 1.0], [1.0, 2.0]]))\nresult = ops.cholesky(a)",
    "cholesky_grad": _S + "result = ms.grad(lambda x: (ops.cholesky(x) * Tensor(np.arange(9, dtype=np.float32)"
                          ".reshape(3, 3))).sum())(a)",
    "cholesky_upper_grad": _S + "result = ms.grad(lambda x: (ops.cholesky(x, True) ** 2).sum())(a)",
    "cholesky_int": "result = ops.cholesky(Tensor([[1, 0], [0, 1]]))",
    "cholesky_inverse": _L + "result = (ops.cholesky_inverse(l), ops.cholesky_inverse(l.T, upper=True), "
                             "ops.CholeskyInverse()(l), l.cholesky_inverse())",
    "cholesky_inverse_grad": _L + "result = ms.grad(lambda x: ops.cholesky_inverse(x).sum())(l)",
    "cholesky_solve": _L + _B + "result = (ops.cholesky_solve(b, l), ops.cholesky_solve(b, l.T, upper=True), "
                                "ops.CholeskySolve()(b, l), b.cholesky_solve(l))",
    "cholesky_solve_grad": _L + _B + "result = ms.grad(lambda x, y: ops.cholesky_solve(x, y).sum(), (0, 1))(b, l)",
    # eigen, svd, qr, lstsq
    "eig": "a = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))\nw, v = ops.eig(a)\n"
           "result = (w, v.shape, v.dtype, ops.Eig(True)(a)[0], ops.eigvals(a))",
    "eigvals_method": "a = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))\nresult = a.eigvals()",
    "eig_f64": "a = Tensor(np.array([[2.0, 0.0], [0.0, 3.0]]))\nresult = ops.eig(a)",
    "svd": _R + "result = ops.svd(r)",
    "svd_full": _R + "s, u, v = ops.svd(r, full_matrices=True)\n"
                "result = (s, ops.abs(u[:, :2]), ops.abs(v), ops.matmul(u.T, u), u.shape, v.shape)",
    "svd_s": _R + "result = (ops.svd(r, compute_uv=False), r.svd(compute_uv=False))",
    "svd_prim": _R + "s, u, v = ops.Svd(full_matrices=True)(r)\nresult = (s, ops.abs(u[:, :2]), ops.abs(v))",
    "svd_batch": _BAT + "s, u, v = ops.svd(bt)\n"
                 "result = (s, ops.abs(u), ops.abs(v), ops.matmul(u * s.expand_dims(1), v.swapaxes(1, 2)))",
    "qr": _M + "result = ops.qr(m)",
    "qr_tall": _R + "result = (ops.qr(r), ops.qr(r, 'complete'), ops.Qr()(r), ops.Qr(True)(r), r.qr(), r.qr(False))",
    "qr_r": _R + "result = ops.qr(r, mode='r')[1]",
    "qr_bad_mode": _R + "result = ops.qr(r, mode='full')",
    "lstsq": _R + "y = Tensor(np.array([[1.0], [2.0], [0.5], [-1.0]], np.float32))\n"
                  "result = (ops.lstsq(r, y), ops.Lstsq()(r, y), r.lstsq(y))",
    "lstsq_vec": _R + "result = ops.lstsq(r, Tensor(np.array([1.0, 2.0, 0.5, -1.0], np.float32)))",
    "matrix_solve_ls": _R + "y = Tensor(np.array([[1.0], [2.0], [0.5], [-1.0]], np.float32))\n"
                            "result = ops.MatrixSolveLs()(r, y, Tensor(0.0, ms.float64))",
    # LU
    "lu_unpack": ("lu = Tensor(np.array([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]], np.float32))\n"
                  "p = Tensor(np.array([2, 2, 3], np.int32))\n"
                  "result = (ops.lu_unpack(lu, p), ops.LuUnpack()(lu, p))"),
    "lu_solve": ("lu = Tensor(np.array([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]], np.float32))\n"
                 "p = Tensor(np.array([2, 2, 3], np.int32))\n" + _B +
                 "result = (ops.lu_solve(b, lu, p), ops.LuSolve()(b, lu, p), b.lu_solve(lu, p))"),
    # determinants
    "slogdet": _BAT + _M + "result = (ops.slogdet(bt), ops.slogdet(m), ops.log_matrix_determinant(bt), "
                           "ops.LogMatrixDeterminant()(m), m.slogdet(), m.log_matrix_determinant())",
    "slogdet_grad": _M + "result = ms.grad(lambda x: ops.slogdet(x)[1])(m)",
    "logdet": _BAT + _M + "result = (ops.logdet(bt), ops.logdet(m), m.logdet())",
    "logdet_grad": _S + "result = ms.grad(lambda x: ops.logdet(x))(a)",
    "matrix_determinant": _BAT + "result = (ops.matrix_determinant(bt), bt.matrix_determinant())",
    "matrix_determinant_grad": _M + "result = ms.grad(lambda x: ops.matrix_determinant(x))(m)",
    # solves
    "matrix_solve": _M + _B + "result = (ops.matrix_solve(m, b), ops.matrix_solve(m, b, adjoint=True), "
                              "ops.MatrixSolve()(m, b), ops.MatrixSolve(True)(m, b))",
    "matrix_solve_grad": _M + _B + "result = ms.grad(lambda x, y: ops.matrix_solve(x, y).sum(), (0, 1))(m, b)",
    "matrix_triangular_solve": _L + _B + "result = (ops.MatrixTriangularSolve()(l, b), "
                                         "ops.MatrixTriangularSolve(lower=False)(l.T, b), "
                                         "ops.MatrixTriangularSolve(adjoint=True)(l, b))",
    "triangular_solve_method": _L + _B + "result = (b.triangular_solve(l, upper=False), "
                                         "b.triangular_solve(l.T), b.triangular_solve(l, False, True, True))",
    "pinv": _R + "result = (ops.pinv(r), ops.pinv(Tensor(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32))))",
    "pinv_tol": _R + "result = ops.pinv(r, atol=3.0)",
    "matrix_exp": _M + "result = (ops.matrix_exp(m), ops.MatrixExp()(m))",
    "matrix_exp_grad": _M + "result = ms.grad(lambda x: ops.matrix_exp(x).sum())(m)",
    "matrix_logarithm": "x = Tensor(np.array([[2.0 + 1j, 0.5], [0.3, 1.5 - 0.5j]], np.complex64))\n"
                        "result = ops.MatrixLogarithm()(x)",
    # Householder
    "geqrf": _R + "result = (ops.geqrf(r), ops.Geqrf()(r), r.geqrf())",
    "geqrf_sq": _M + "result = ops.geqrf(m)",
    "orgqr": _R + "y, tau = ops.geqrf(r)\nresult = (ops.orgqr(y, tau), ops.Orgqr()(y, tau), y.orgqr(tau))",
    "ormqr": _R + _B + "y, tau = ops.geqrf(r)\nc = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))\n"
             "result = (ops.ormqr(y, tau, c), ops.ormqr(y, tau, c, transpose=True), "
             "ops.Ormqr()(y, tau, c), y.ormqr(tau, c))",
    "ormqr_right": _R + "y, tau = ops.geqrf(r)\nc = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))\n"
                   "result = ops.ormqr(y, tau, c, left=False)",
}

VIA = {
    "eigvals_method": "a = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))\nresult = ops.eigvals(a)",
    "triangular_solve_method": _L + _B + "u = l - ops.diag(ops.diagonal(l)) + ops.eye(3, 3, ms.float32)\n"
                               "result = ((ops.MatrixTriangularSolve()(l, b), l), "
                               "(ops.MatrixTriangularSolve(lower=False)(l.T, b), l.T), "
                               "(ops.MatrixTriangularSolve(adjoint=True)(u, b), l))",
}

_NO_KERNEL = "the CPU wheel has no kernel for it (nor for its gradient); mskernel gives the numpy oracle's value"
_EXPM = "def expm(x):\n    out, term = np.eye(len(x)), np.eye(len(x))\n    for k in range(1, 40):\n" \
        "        term = term @ x / k\n        out = out + term\n    return out\n"
_HH = "q = np.linalg.qr(r.astype(np.float64), mode='complete')[0]\n"

OPTIONS = {
    "eigvals_method": {"why": "the wheel's Tensor.eigvals passes no matrix to ops.eigvals (a TypeError); "
                              "the answer is ops.eigvals'"},
    "triangular_solve_method": {"why": "the wheel's Tensor.triangular_solve names a function its registry lacks; "
                                       "the answer is MatrixTriangularSolve's"},
    "cholesky_grad": {"differs": _NO_KERNEL, "oracle": _S + "w = np.arange(9.0).reshape(3, 3)\nresult = as_tensor("
                      "numeric_grad(lambda x: np.linalg.cholesky((x + x.T) / 2) * w, a).astype(np.float32))"},
    "cholesky_upper_grad": {"differs": _NO_KERNEL, "oracle": _S + "result = as_tensor(numeric_grad(lambda x: "
                            "np.linalg.cholesky((x + x.T) / 2) ** 2, a).astype(np.float32))"},
    "cholesky_inverse_grad": {"differs": "the wheel's gradient for the lower factor is not the derivative (its "
                                         "upper=True gradient is); mskernel gives float64 central differences",
                              "oracle": _L + "result = as_tensor(numeric_grad(lambda x: np.linalg.inv(x @ x.T), l)"
                                             ".astype(np.float32))"},
    "matrix_exp": {"differs": _NO_KERNEL, "oracle": _M + _EXPM + "e = expm(m.astype(np.float64)).astype(np.float32)"
                                                       "\nresult = (as_tensor(e), as_tensor(e))"},
    "matrix_exp_grad": {"differs": _NO_KERNEL, "oracle": _M + _EXPM + "result = as_tensor(numeric_grad(expm, m)"
                                                                      ".astype(np.float32))"},
    "ormqr": {"differs": _NO_KERNEL, "oracle": _R + _HH + "c = np.arange(8.0).reshape(4, 2)\n"
              "result = tuple(as_tensor(v.astype(np.float32)) for v in (q @ c, q.T @ c, q @ c, q @ c))"},
    "ormqr_right": {"differs": _NO_KERNEL, "oracle": _R + _HH + "result = as_tensor((np.arange(8.0).reshape(2, 4) @ q)"
                    ".astype(np.float32))"},
    "qr_bad_mode": {"message": True},
    "qr_r": {"message": True},
    "cholesky_int": {"message_parts": ["Cholesky"], "why": "the wheel's text names its own C++ check"},
}
