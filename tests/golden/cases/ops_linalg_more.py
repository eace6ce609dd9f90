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
    "baddbmm_ext": _BAT + "x = Tensor(np.ones((2, 2), np.float32))\nresult = ops.baddbmm(x, bt, bt, 2, 0.5)",
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

# matrix products and structure (table/matrix.py, and the primitives added to linalg.py)
_V = "v = Tensor(np.array([1.0, -2.0, 0.5], np.float32))\n"
_W = "w = Tensor(np.array([0.5, 3.0], np.float32))\n"
_X4 = "x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - 5)\n"
CASES.update({
    "inner": _M + _V + "result = (ops.inner(m, v), ops.inner(v, v), ops.inner(m, Tensor(2.0)), m.inner(m))",
    "inner_grad": _M + _V + "result = ms.grad(lambda a, b: ops.inner(a, b).sum(), (0, 1))(m, v)",
    "inner_bad": _M + "result = ops.inner(m, Tensor(np.ones(2, np.float32)))",
    "vecdot": _M + "result = (ops.vecdot(m, m), ops.vecdot(m, m, axis=0), "
                   "ops.vecdot(Tensor([[1, 3], [5, 7]]), Tensor([[4, 5], [6, 7]])))",
    "vecdot_grad": _M + _V + "result = ms.grad(lambda a, b: ops.vecdot(a, b).sum(), (0, 1))(m, v)",
    "mv": _M + _V + "result = (ops.mv(m, v), ms.grad(lambda a, b: ops.mv(a, b).sum(), (0, 1))(m, v))",
    "mv_bad": _M + _V + "result = ops.mv(v, m)",
    "addmv": _M + _V + "result = (ops.addmv(v, m, v), ops.addmv(v, m, v, beta=0.5, alpha=2), v.addmv(m, v))",
    "addmv_grad": _M + _V + "result = ms.grad(lambda a, b, c: ops.addmv(a, b, c, beta=0.5, alpha=2).sum(), "
                            "(0, 1, 2))(v, m, v * 2)",
    "addr": _R + _W + "u = Tensor(np.array([1.0, 2.0, -1.0, 0.5], np.float32))\n"
                      "result = (ops.addr(r, u, w), ops.addr(r, u, w, beta=2, alpha=-1), r.addr(u, w))",
    "addr_grad": _R + _W + "u = Tensor(np.array([1.0, 2.0, -1.0, 0.5], np.float32))\n"
                           "result = ms.grad(lambda a, b, c: ops.addr(a, b, c, alpha=3).sum(), (0, 1, 2))(r, u, w)",
    "addbmm": _BAT + "x = Tensor(np.ones((2, 2), np.float32))\n"
                     "result = (ops.addbmm(x, bt, bt), ops.addbmm(x, bt, bt, beta=2, alpha=0.5), x.addbmm(bt, bt))",
    "addbmm_grad": _BAT + "x = Tensor(np.ones((2, 2), np.float32))\n"
                          "result = ms.grad(lambda a, b: ops.addbmm(a, b, b).sum(), (0, 1))(x, bt)",
    "baddbmm_ext": _BAT + "x = Tensor(np.ones((2, 2), np.float32))\n"
                          "result = ops.baddbmm_ext(x, bt, bt, beta=2, alpha=0.5)",
    "adjoint_t": _M + "c = Tensor(np.array([[1 + 1j, 2 - 1j], [3j, 4]], np.complex64))\n"
                      "result = (ops.adjoint(m), ops.adjoint(c), ops.t(m), ops.t(Tensor([1, 2])), m.t(), m.adjoint(), "
                      "m.mT, c.mH, c.H)",
    "t_bad": _BAT + "result = ops.t(bt)",
    "t_grad": _R + "result = ms.grad(lambda a: (ops.t(a) * Tensor(np.arange(8, dtype=np.float32).reshape(2, 4)))"
                   ".sum())(r)",
    "dense": _R + "w = Tensor(np.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], np.float32))\n"
                  "bias = Tensor(np.array([0.1, 0.2, 0.3], np.float32))\n"
                  "result = (ops.dense(r, w), ops.dense(r, w, bias), ms.grad(lambda a, b, c: ops.dense(a, b, c)"
                  ".sum(), (0, 1, 2))(r, w, bias))",
    "bidense": _R + "x2 = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)\n"
                    "w = Tensor(np.arange(18, dtype=np.float32).reshape(3, 2, 3) / 7 - 1)\n"
                    "bias = Tensor(np.array([0.1, 0.2, 0.3], np.float32))\n"
                    "result = (ops.bidense(r, x2, w), ops.bidense(r, x2, w, bias), "
                    "ms.grad(lambda a, b, c: ops.bidense(a, b, c).sum(), (0, 1, 2))(r, x2, w))",
    "matrix_band_part": _X4 + "result = (ops.matrix_band_part(x, 1, 0), ops.matrix_band_part(x, -1, 1), "
                              "ops.MatrixBandPart()(x, 0, -1), ops.matrix_band_part(Tensor(np.ones((2, 3, 3), "
                              "np.int32)), 1, 1))",
    "matrix_band_part_grad": _X4 + "result = ms.grad(lambda a: (ops.matrix_band_part(a, 1, 0) * a).sum())(x)",
    "matrix_diag_part": _X4 + "result = [ops.matrix_diag_part(x, Tensor(k, ms.int32), Tensor(9.0), align=al) "
                              "for k in ([1, 3], [-2, 1], [0, 0], [-1, -1]) "
                              "for al in ('RIGHT_LEFT', 'LEFT_RIGHT', 'LEFT_LEFT', 'RIGHT_RIGHT')]",
    "matrix_diag_part_grad": _X4 + "result = ms.grad(lambda a: (ops.matrix_diag_part(a, Tensor([-1, 1], ms.int32), "
                                   "Tensor(0.0)) ** 2).sum())(x)",
    "matrix_diag_part_k64": _X4 + "result = ops.matrix_diag_part(x, Tensor([-1, 1]), Tensor(0.0))",
    "matrix_diag": "d = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
                   "result = [ops.matrix_diag(d, Tensor(k, ms.int32), Tensor(r, ms.int32), Tensor(c, ms.int32), "
                   "Tensor(-1.0), align=al) for k, r, c in (([0, 1], -1, -1), ([-1, 0], 4, -1), ([1, 2], 3, 5)) "
                   "for al in ('RIGHT_LEFT', 'LEFT_RIGHT')] + [ops.matrix_diag(d), ops.matrix_diag(d[0], 1)]",
    "matrix_diag_grad": "d = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
                        "result = ms.grad(lambda a: (ops.matrix_diag(a, Tensor([-1, 0], ms.int32), Tensor(4, ms.int32), "
                        "Tensor(3, ms.int32), "
                        "Tensor(0.0)) * Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))).sum())(d)",
    "matrix_set_diag": _X4 + "d = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
                             "result = [ops.matrix_set_diag(x, d, Tensor([0, 1], ms.int32), al) "
                             "for al in ('RIGHT_LEFT', 'LEFT_RIGHT')] + [ops.matrix_set_diag(x, d[0]), "
                             "ops.MatrixSetDiagV3()(x, d, Tensor([-1, 0], ms.int32))]",
    "matrix_set_diag_grad": _X4 + "d = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
                                  "result = ms.grad(lambda a, b: (ops.matrix_set_diag(a, b, Tensor([0, 1], ms.int32)) * a).sum(), "
                                  "(0, 1))(x, d)",
    "matrix_diag_v3_prims": _X4 + "result = (ops.MatrixDiagV3(align='LEFT_RIGHT')(Tensor([[1.0, 2.0], [3.0, 4.0]]), "
                                  "Tensor([0, 1], ms.int32), Tensor(2, ms.int32), Tensor(3, ms.int32), Tensor(0.0)), "
                                  "ops.MatrixDiagPartV3(align='LEFT_RIGHT')(x, Tensor([-1, 1], ms.int32), "
                                  "Tensor(0.0)))",
    "block_diag": "result = (ops.block_diag(Tensor([[1.0, 2.0]]), Tensor(3.0), Tensor([4.0, 5.0]), "
                  "Tensor([[6.0], [7.0]])), ops.block_diag(Tensor([[1, 2], [3, 4]], ms.int32), Tensor([5], ms.int32)))",
    "block_diag_grad": _M + _V + "result = ms.grad(lambda a, b: (ops.block_diag(a, b) ** 2).sum(), (0, 1))(m, v)",
    "cartesian_prod": "result = (ops.cartesian_prod(Tensor([1, 2]), Tensor([3, 4, 5]), Tensor([6])), "
                      "ops.cartesian_prod(Tensor([1.0, 2.0]), Tensor([3.0])))",
    "combinations": _V + "result = (ops.combinations(v), ops.combinations(v, 3), ops.combinations(v, 1), "
                         "ops.combinations(v, with_replacement=True), ops.combinations(Tensor([1, 2, 3, 4]), 3))",
    "combinations_grad": _V + "result = ms.grad(lambda a: (ops.combinations(a) ** 2).sum())(v)",
    "tril_triu_indices": "result = (ops.tril_indices(3, 4), ops.tril_indices(4, 3, -1), ops.triu_indices(3, 4, 1), "
                         "ops.triu_indices(2, 2, dtype=ms.int32), ops.TrilIndices(3, 3, 1)(), "
                         "ops.TriuIndices(3, 2, 0, ms.int64)())",
    "diagflat": _M + _V + "result = (ops.diagflat(v), ops.diagflat(v, -1), ops.diagflat(m, 2), v.diagflat(1))",
    "diagflat_grad": _M + "result = ms.grad(lambda a: (ops.diagflat(a, 1) * ops.diagflat(a, 1)).sum())(m)",
    "ger_cross_cdist": _V + _M + "result = (ops.Ger()(v, v), v.ger(v), ops.Cross(dim=1)(m, m * 2 + 1), "
                                 "ops.Cross()(m, m - 1), ops.Cdist()(m, m * 2), ops.Cdist(p=1.0)(m, m))",
    "matrix_power_prim": _M + "result = (ops.MatrixPower(3)(m), ops.MatrixPower(0)(m), ops.MatrixPower(-1)(m))",
    "tridiagonal_matmul": "s = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))\n"
                          "d = Tensor(np.array([[4.0, 5.0, 6.0]], np.float32))\n"
                          "u = Tensor(np.array([[7.0, 8.0, 9.0]], np.float32))\n"
                          "b = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))\n"
                          "result = ops.TridiagonalMatMul()(s, d, u, b)",
    "conjugate_transpose": _BAT + "c = Tensor(np.array([[1 + 1j, 2 - 1j], [3j, 4]], np.complex64))\n"
                                  "result = (ops.ConjugateTranspose()(c, (1, 0)), "
                                  "ops.ConjugateTranspose()(bt, (2, 0, 1)))",
    "methods_products": _BAT + _M + "result = (bt.bmm(bt), m.mm(m), m.dot(m))",
})
OPTIONS.update({
    "inner_bad": {"message_parts": ["For 'inner', the last dimension of 'input' and 'other' must be the same,",
                                    "but got input.shape: (3, 3) and other.shape: (2,)."],
                  "why": "the wheel's text carries a run of spaces from a line continuation in its source"},
    "mv_bad": {"message": True},
    "matrix_diag_part_k64": {"message": True},
    "baddbmm_ext": {"why": "the CPU wheel has no Baddbmm kernel; the answer is ops.baddbmm's"},
})

# norms, statistics and sorting helpers (table/stats_more.py)
_N = "n = Tensor(np.array([[0.5, -1.1, float('nan'), 2.0], [3.4, float('nan'), float('nan'), -0.2], " \
     "[1.0, 0.3, float('nan'), 0.7]], np.float32))\n"
CASES.update({
    "vector_norm": _X4 + "result = [ops.vector_norm(x, o) for o in (2, 1, 0, 3, -1, 0.5, float('inf'), "
                         "float('-inf'))] + [ops.vector_norm(x, 2, 1), ops.vector_norm(x, 1, (0, 1), True), "
                         "ops.vector_norm(x, 2, 0, dtype=ms.float64)]",
    "vector_norm_grad": _X4 + "result = [ms.grad(lambda a: ops.vector_norm(a + 0.5, o))(x) for o in (2, 1, 3, "
                              "float('inf'))]",
    "matrix_norm": _X4 + _BAT + "result = [ops.matrix_norm(x, o) for o in ('fro', 'nuc', 1, -1, 2, -2, "
                                "float('inf'), float('-inf'))] + [ops.matrix_norm(bt, 'fro', (0, 2)), "
                                "ops.matrix_norm(bt, 1, (2, 1), True), ops.matrix_norm(bt, 'nuc')]",
    "matrix_norm_grad": _X4 + "result = [ms.grad(lambda a: ops.matrix_norm(a, o))(x) for o in ('fro', 1, "
                              "float('inf'))]",
    "matrix_norm_bad": _X4 + "result = ops.matrix_norm(x, 3)",
    "dist": _M + "result = (ops.dist(m, m * 2), ops.dist(m, m.T, 1), ops.dist(m, m + 1, 3), ops.dist(m, m), "
                 "ms.grad(lambda a: ops.dist(a, a.T))(m))",
    "dist_float_p": _M + "result = ops.dist(m, m + 1, float('inf'))",
    "pdist": _R + "result = (ops.pdist(r), ops.pdist(r, 1.0), ops.Pdist(p=3.0)(r), "
                  "ms.grad(lambda a: ops.pdist(a).sum())(r))",
    "renorm": _X4 + "result = (ops.renorm(x, 2, 0, 5.0), ops.renorm(x, 1, 1, 10.0), x.renorm(2, 1, 6.0), "
                    "ops.Renorm(1, 0, 5.0)(x))",
    "renorm_grad": _X4 + "result = ms.grad(lambda a: (ops.renorm(a, 2, 0, 5.0) * a).sum())(x)",
    "cov": _X4 + "result = (ops.cov(x), ops.cov(x, correction=0), ops.cov(x[0]), x.cov(), "
                 "ops.cov(x, fweights=Tensor([1, 2, 1, 3])), "
                 "ops.cov(x, aweights=Tensor(np.array([0.5, 1.0, 2.0, 0.25], np.float32))), "
                 "ops.cov(x, fweights=Tensor([1, 2, 1, 3]), aweights=Tensor(np.array([0.5, 1.0, 2.0, 0.25], "
                 "np.float32))))",
    "cov_grad": _X4 + "result = ms.grad(lambda a: (ops.cov(a) ** 2).sum())(x)",
    "trapz": _X4 + "result = (ops.trapz(x), ops.trapz(x, dx=0.5, dim=0), "
                   "ops.trapz(x, Tensor(np.array([0.0, 1.0, 3.0, 3.5], np.float32))), "
                   "ops.trapz(x, x * x, dim=1), ms.grad(lambda a: ops.trapz(a, dx=2.0).sum())(x))",
    "nanmean": _N + "result = (ops.nanmean(n), ops.nanmean(n, 0), ops.nanmean(n, 1, True), n.nanmean(axis=0), "
                    "ops.nanmean(n, dtype=ms.float64), ms.grad(lambda a: ops.nanmean(a, 1).sum())(n))",
    "nanmedian": _N + "result = (ops.nanmedian(n), ops.nanmedian(n, 0), ops.nanmedian(n, 1, True), "
                      "n.nanmedian(0), ops.nanmedian(Tensor([[3, 1, 2], [5, 4, 6]]), 1))",
    "nanmedian_grad": _N + "result = ms.grad(lambda a: ops.nanmedian(a, 1)[0].sum())(n)",
    "median_prim": "x = Tensor(np.array([[5, 1, 2], [3, 5, 7], [1, 6, 4]], np.int64))\n"
                   "y = Tensor(np.array([[5.0, float('nan'), 2.0], [3.0, 5.0, float('nan')]], np.float32))\n"
                   "result = (ops.Median(axis=0)(x), ops.Median(axis=1, keep_dims=True)(x), "
                   "ops.Median(global_median=True)(x)[0], ops.Median(axis=1, ignore_nan=True)(y))",
    "kthvalue": _X4 + "result = (x.kthvalue(2, 1), x.kthvalue(1, 0, True), x.kthvalue(3), "
                      "ms.grad(lambda a: a.kthvalue(2, 1)[0].sum())(x))",
    "quantile": _X4 + "q = Tensor(np.array([0.1, 0.5, 0.9], np.float32))\n"
                      "result = (ops.quantile(x, q), ops.quantile(x, 0.3, 1), ops.quantile(x, q, 0, True), "
                      "x.quantile(0.25), ops.Quantile()(x, q), ops.Quantile(dim=1)(x, q))",
    "nanquantile": _N + "q = Tensor(np.array([0.1, 0.5, 0.9], np.float32))\n"
                        "result = (ops.nanquantile(n, q), ops.nanquantile(n, 0.3, 1), ops.quantile(n, 0.5, 1), "
                        "n.nanquantile(0.5, 0), ops.Quantile(dim=0, ignore_nan=True)(n, q))",
    "msort": _X4 + "result = (ops.msort(-x), (-x).msort(), ops.msort(Tensor([[3, 1], [2, 4]])))",
    "histc": _X4 + "result = (ops.histc(x, 4), ops.histc(x, bins=3, min=-2, max=4), x.histc(5, 0, 3), "
                   "ops.Histogram(bins=4, min=0.0, max=3.0)(Tensor([1.0, 2, 1])), ops.histc(Tensor([2.0, 2.0]), 3))",
    "histogram_fixed_width": "x = Tensor(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], np.float32))\n"
                             "result = ops.HistogramFixedWidth(5)(x, Tensor(np.array([0.0, 5.0], np.float32)))",
    "bucketize": _X4 + "result = (ops.bucketize(x, [-3.0, 0.0, 2.5]), ops.bucketize(x, [-3.0, 0.0, 2.5], right=True), "
                       "ops.Bucketize([-3.0, 0.0, 2.5])(x), ops.bucketize(Tensor([1, 5]), [1.0, 5.0]))",
    "logspace": "result = (ops.logspace(1.0, 3.0, 3), ops.logspace(0.0, 1.0, 5, base=2), "
                "ops.LogSpace(4, 3)(Tensor(0.0), Tensor(3.0)), "
                "ops.LogSpace(steps=2, dtype=ms.float16)(Tensor(1.0), Tensor(2.0)))",
    "logspace_f64": "result = (ops.logspace(-1.0, 1.0, 3, dtype=ms.float64), ops.logspace(0.5, 1.0, 3, dtype=ms.float64))",
    "diff": _X4 + "result = (ops.diff(x), ops.diff_ext(x, 2), ops.diff(x, axis=0), "
                  "ops.diff(x, 1, 1, Tensor(np.zeros((3, 1), np.float32)), Tensor(np.ones((3, 2), np.float32))), "
                  "x.diff(), ops.diff_ext(x, 2, 0), ops.diff(Tensor([True, False, False])))",
    "diff_n2": _X4 + "result = ops.diff(x, 2)",
    "diff_grad": _X4 + "result = ms.grad(lambda a: (ops.diff_ext(a, 2) ** 2).sum())(x)",
    "addn": _M + "result = (ops.addn([m, m, m]), ops.AddN()((m, m * 2)), "
                 "ops.addn([Tensor([1, 2]), Tensor([3, 4])]), "
                 "ms.grad(lambda a, b: ops.addn([a, b, a]).sum(), (0, 1))(m, m * 2))",
    "accumulate_n": _M + "result = (ops.accumulate_n([m, m, m * 2]), ops.AccumulateNV2()([m, m]))",
    "addn_bad_shape": _M + _V + "result = ops.addn([m, v])",
    "norm_prims": _X4 + "result = (ops.L2Normalize()(x), ops.L2Normalize(axis=1, epsilon=1e-2)(x), "
                        "ops.LpNorm(axis=[0, 1])(x), ops.LpNorm(axis=[1], p=1, keep_dims=True)(x), "
                        "ops.NuclearNorm()(x), ops.NuclearNorm(dim=[0, 1], keepdim=True)(x), ops.LpNorm(axis=[1])(x * 0))",
    "euclidean_norm": _X4 + "result = (ops.EuclideanNorm()(x, Tensor([0])), ops.EuclideanNorm(True)(x, Tensor([1])))",
    "reduce_std_square_sum": _X4 + "result = (ops.ReduceStd()(x), ops.ReduceStd(axis=1, unbiased=False)(x), "
                                   "ops.ReduceStd(axis=[0], keep_dims=True)(x), ops.SquareSumAll()(x, x * 2))",
    "bincount_bounds": "a = Tensor(np.array([1, 2, 2, 3, 3, 3, 7], np.int32))\n"
                       "s = Tensor(np.array([[1, 2, 2, 4, 6], [0, 3, 3, 5, 9]], np.int32))\n"
                       "v = Tensor(np.array([[2, 5], [3, 10]], np.int32))\n"
                       "result = (ops.Bincount()(a, Tensor(5, ms.int32), Tensor(np.arange(7, dtype=np.float32))), "
                       "ops.LowerBound()(s, v), ops.UpperBound(ms.int64)(s, v))",
    "bincount_method": "a = Tensor(np.array([1, 2, 2, 3, 3, 3, 7], np.int32))\n"
                       "result = (a.bincount(), a.bincount(minlength=10), "
                       "a.bincount(Tensor(np.arange(7, dtype=np.float32))))",
    "searchsorted_method": "s = Tensor(np.array([1.0, 2.0, 2.0, 4.0], np.float32))\n"
                           "result = (s.searchsorted(Tensor(np.array([2.0, 3.0], np.float32))), "
                           "s.searchsorted(Tensor(np.array([2.0, 3.0], np.float32)), side='right'))",
    "equal_count_nonzero": "x = Tensor(np.array([1, 2, 3, 0], np.int32))\ny = Tensor(np.array([1, 2, 4, 0], np.int32))\n"
                           "result = ops.EqualCount()(x, y)",
    "tensor_methods_stats": _X4 + "result = (x.ptp(), x.ptp(1), x.ptp(0, True), x.allclose(x + 1e-9), "
                                  "x.allclose(x + 1), x.aminmax(axis=1), x.argmax_with_value(1), "
                                  "x.argmin_with_value(0, True), x.argmax_with_value(None))",
})
_NP_Q = "q = np.array([0.1, 0.5, 0.9])\n"
OPTIONS.update({
    "dist_float_p": {"message": True},
    "diff_n2": {"message": True},
    "kthvalue": {"differs": "the wheel's Tensor.kthvalue has no implementation on CPU (and mint.kthvalue no kernel); "
                            "mskernel gives numpy's k-th smallest and its index, the gradient at that index",
                 "oracle": _X4 + "o = np.sort(x, 1)\ni = np.argsort(x, 1, kind='stable')\n"
                           "g = np.zeros_like(x)\nnp.put_along_axis(g, i[:, 1:2], 1.0, 1)\n"
                           "result = ((as_tensor(o[:, 1]), as_tensor(i[:, 1])), "
                           "(as_tensor(np.sort(x, 0)[:1]), as_tensor(np.argsort(x, 0)[:1])), "
                           "(as_tensor(o[:, 2]), as_tensor(i[:, 2])), as_tensor(g))"},
    "quantile": {"differs": _NO_KERNEL, "oracle": _X4 + _NP_Q + "f = lambda v: as_tensor(np.asarray(v, np.float32))\n"
                 "result = (f(np.quantile(x, q)), f(np.quantile(x, 0.3, 1)), f(np.quantile(x, q, 0, keepdims=True)), "
                 "f(np.quantile(x, 0.25)), f(np.quantile(x, q)), f(np.quantile(x, q, 1)))"},
    "nanquantile": {"differs": _NO_KERNEL, "oracle": _N + _NP_Q + "f = lambda v: as_tensor(np.asarray(v, np.float32))\n"
                    "result = (f(np.nanquantile(n, q)), f(np.nanquantile(n, 0.3, 1)), f(np.quantile(n, 0.5, 1)), "
                    "f(np.nanquantile(n, 0.5, 0)), f(np.nanquantile(n, q, 0)))"},
    "histogram_fixed_width": {"differs": _NO_KERNEL, "oracle": "x = np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0])\n"
                              "b = np.clip(np.floor(x / 5.0 * 5), 0, 4).astype(int)\n"
                              "result = as_tensor(np.bincount(b, minlength=5).astype(np.int32))"},
    "accumulate_n": {"differs": _NO_KERNEL, "oracle": _M + "result = (as_tensor(m * 4), as_tensor(m * 2))"},
    "euclidean_norm": {"differs": _NO_KERNEL, "oracle": _X4 + "result = (as_tensor(np.sqrt((x * x).sum(0))), "
                       "as_tensor(np.sqrt((x * x).sum(1, keepdims=True))))"},
    "logspace_f64": {"differs": "the wheel computes a float64 logspace in float16 (10 ** -1 gives 0.0999755859375); "
                                "mskernel gives numpy's float64 values",
                     "oracle": "result = (as_tensor(np.logspace(-1.0, 1.0, 3)), as_tensor(np.logspace(0.5, 1.0, 3)))"},
    "matrix_norm_bad": {"message_parts": ["matrix_norm", "ord"], "why": "the wheel lists the accepted ords its way"},
    "addn_bad_shape": {"message_parts": ["AddN"], "why": "the wheel's text names its C++ shape check"},
})

# mint front ends (mskernel/mint/frontends.py); the CPU wheel has kernels for few of them: VIA gives the ops equivalent
_MI = "from mindspore import mint\n"
CASES.update({
    "mint_addbmm": _MI + _BAT + "x = Tensor(np.ones((2, 2), np.float32))\n"
                          "result = (mint.addbmm(x, bt, bt), mint.addbmm(x, bt, bt, beta=2, alpha=0.5))",
    "mint_addmv": _MI + _M + _V + "result = (mint.addmv(v, m, v), mint.addmv(v, m, v, beta=0.5, alpha=2))",
    "mint_addr_": _MI + _R + _W + "u = Tensor(np.array([1.0, 2.0, -1.0, 0.5], np.float32))\n"
                            "y = mint.addr_(r, u, w, beta=2)\nresult = (y, r)",
    "mint_vdot": _MI + _V + "result = mint.vdot(v, v * 2)",
    "mint_triangular_solve": _MI + _L + _B + "result = (mint.triangular_solve(b, l, upper=False), "
                                       "mint.triangular_solve(b, l.T))",
    "mint_histc": _MI + _X4 + "result = (mint.histc(x, 4), mint.histc(x, bins=3, min=-2, max=4))",
    "mint_kthvalue": _MI + _X4 + "result = mint.kthvalue(x, 2, 1)",
    "mint_allclose_equal": _MI + _X4 + "result = (mint.allclose(x, x + 1e-9), mint.allclose(x, x + 1), "
                                 "mint.equal(x, x), mint.equal(x, x + 1), mint.equal(x, x[:2]))",
    "mint_diff": _MI + _X4 + "result = (mint.diff(x), mint.diff(x, 2, 0), mint.diff(x, dim=1, prepend=x))",
    "mint_linalg_qr": _MI + _M + _R + "result = (mint.linalg.qr(m), mint.linalg.qr(r, mode='complete'))",
})
VIA.update({
    "mint_addbmm": _BAT + "x = Tensor(np.ones((2, 2), np.float32))\n"
                          "result = (ops.addbmm(x, bt, bt), ops.addbmm(x, bt, bt, beta=2, alpha=0.5))",
    "mint_addmv": _M + _V + "result = (ops.addmv(v, m, v), ops.addmv(v, m, v, beta=0.5, alpha=2))",
    "mint_triangular_solve": _L + _B + "result = ((ops.MatrixTriangularSolve()(l, b), l), "
                                       "(ops.MatrixTriangularSolve(lower=False)(l.T, b), l.T))",
    "mint_histc": _X4 + "result = (ops.histc(x, 4), ops.histc(x, bins=3, min=-2, max=4))",
    "mint_allclose_equal": _X4 + "result = (True, False, True, False, False)",
    "mint_linalg_qr": _M + _R + "result = (ops.qr(m), ops.qr(r, mode='complete'))",
    "mint_addr_": _R + _W + "u = Tensor(np.array([1.0, 2.0, -1.0, 0.5], np.float32))\n"
                            "y = ops.addr(r, u, w, beta=2)\nresult = (y, y)",
    "mint_vdot": _V + "result = ops.vecdot(v, v * 2)",
})
_NO_MINT = "the CPU wheel has no kernel for this mint function; the answer is the ops equivalent's"
OPTIONS.update({name: {"why": _NO_MINT} for name in ("mint_addbmm", "mint_addmv", "mint_triangular_solve",
                                                      "mint_histc", "mint_allclose_equal", "mint_linalg_qr",
                                                      "mint_addr_", "mint_vdot")})
OPTIONS["mint_kthvalue"] = {"differs": "the CPU wheel has no Kthvalue kernel; mskernel gives numpy's k-th smallest",
                            "oracle": _X4 + "i = np.argsort(x, 1, kind='stable')[:, 1]\n"
                                            "result = (as_tensor(np.sort(x, 1)[:, 1]), as_tensor(i))"}

# nn cells (mskernel/nn/layer/matrix.py)
CASES.update({
    "nn_norm_moments": _X4 + "result = (nn.Norm()(x), nn.Norm(axis=1)(x), nn.Norm(axis=(0,), keep_dims=True)(x), "
                             "nn.Moments()(x), nn.Moments(axis=0, keep_dims=True)(x), nn.Moments(axis=(0, 1))(x))",
    "nn_range": "result = (nn.Range(5)(), nn.Range(1, 4, 0.5)(), nn.Range(6, 0, -2)(), nn.Range(2.0)())",
    "nn_tril_triu": _X4 + "result = (nn.Tril()(x), nn.Tril()(x, 1), nn.Triu()(x), nn.Triu()(x, -1))",
    "nn_bidense": "net = nn.BiDense(2, 3, 4, weight_init='ones', bias_init='zeros')\n"
                  "x1 = Tensor(np.array([[1.0, 2.0], [0.5, -1.0]], np.float32))\n"
                  "x2 = Tensor(np.array([[1.0, 0.0, 2.0], [3.0, 1.0, -1.0]], np.float32))\n"
                  "result = (str(net), net(x1, x2), [(p.name, p.shape) for p in net.trainable_params()], "
                  "[p.shape for p in nn.BiDense(2, 3, 4, has_bias=False).trainable_params()])",
    "nn_matdet_matinverse": _S + "result = (nn.MatDet()(a), nn.MatInverse()(a))",
    "nn_matrix_diag_cells": _X4 + "result = (nn.MatrixDiag()(Tensor(np.array([1.0, 2.0], np.float32))), "
                                  "nn.MatrixDiagPart()(x), nn.MatrixSetDiag()(x, Tensor(np.array([7.0, 8.0, 9.0], "
                                  "np.float32))))",
})
OPTIONS.update({
    "nn_matdet_matinverse": {"differs": _NO_KERNEL, "oracle": _S + "result = (as_tensor(np.float32(np.linalg.det(a))), "
                             "as_tensor(np.linalg.inv(a).astype(np.float32)))"},
    "nn_matrix_diag_cells": {"differs": _NO_KERNEL, "oracle": _X4 + "s = x.copy()\nnp.fill_diagonal(s, [7.0, 8.0, 9.0])\n"
                             "result = (as_tensor(np.diag(np.array([1.0, 2.0], np.float32))), "
                             "as_tensor(np.diagonal(x).copy()), as_tensor(s))"},
})
