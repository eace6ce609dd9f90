"""The sparse functions whose CPU kernels the MindSpore wheel lacks (csr_mv, csr_mm, csr_reduce_sum, csr_gather,
csr2coo, coo2csr, coo_to_csr, SparseGatherV2) against the same computation on the dense numpy matrix, and the
gradients that flow through a sparse tensor's values against float64 central differences."""
from __future__ import annotations

import numpy as np

import mskernel as ms
from mskernel import ops

RNG = np.random.default_rng(7)
DENSE = np.where(RNG.random((5, 6)) < 0.4, RNG.standard_normal((5, 6)), 0.0).astype(np.float32)


def _csr(dense: np.ndarray) -> ms.CSRTensor:
    return ops.dense_to_sparse_csr(ms.Tensor(dense))


def test_products_and_sums_match_the_dense_matrix():
    x = _csr(DENSE)
    np.testing.assert_allclose(x.to_dense().asnumpy(), DENSE)
    v = RNG.standard_normal((6, 1)).astype(np.float32)
    np.testing.assert_allclose(ops.csr_mv(x, ms.Tensor(v)).asnumpy(), DENSE @ v, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(x.mm(ms.Tensor(v)).asnumpy(), DENSE @ v, rtol=1e-5, atol=1e-6)
    for axis in (0, 1):
        np.testing.assert_allclose(ops.csr_reduce_sum(x, axis).asnumpy(), DENSE.sum(axis, keepdims=True),
                                   rtol=1e-5, atol=1e-6)
    sq = _csr(DENSE[:, :5])
    prod = ops.csr_mm(sq, _csr(DENSE[:5, :5].T.copy()))
    np.testing.assert_allclose(prod.to_dense().asnumpy(), DENSE[:, :5] @ DENSE[:5, :5].T, rtol=1e-5, atol=1e-6)
    prod_t = ops.csr_mm(_csr(DENSE[:5, :5]), _csr(DENSE[:5, :5]), trans_a=True)
    np.testing.assert_allclose(prod_t.to_dense().asnumpy(), DENSE[:5, :5].T @ DENSE[:5, :5], rtol=1e-5, atol=1e-6)


def test_structure_conversions():
    x = _csr(DENSE)
    rows = np.nonzero(DENSE)[0].astype(np.int32)
    np.testing.assert_array_equal(ops.csr2coo(x.indptr, len(rows)).asnumpy(), rows)
    np.testing.assert_array_equal(ops.coo2csr(ms.Tensor(rows), 5).asnumpy(), x.indptr.asnumpy())
    coo = ops.dense_to_sparse_coo(ms.Tensor(DENSE))
    back = coo.to_csr()
    np.testing.assert_array_equal(back.indptr.asnumpy(), x.indptr.asnumpy())
    np.testing.assert_allclose(back.to_dense().asnumpy(), DENSE)
    gathered = ops.csr_gather(x.indptr, x.indices, ms.Tensor(DENSE * 2), (5, 6))
    np.testing.assert_allclose(gathered.values.asnumpy(), 2 * DENSE[np.nonzero(DENSE)])
    g = ops.SparseGatherV2()(ms.Tensor(DENSE), ms.Tensor(np.array([4, 0, 4], np.int32)), 0)
    np.testing.assert_allclose(g.asnumpy(), DENSE[[4, 0, 4]])


def test_gradients_through_the_values_match_central_differences():
    idx = np.array([[0, 1], [2, 3], [4, 0]], np.int64)
    vals = np.array([0.3, -1.2, 0.8])
    weight = RNG.standard_normal((5, 6))

    def f_np(v):
        d = np.zeros((5, 6))
        d[tuple(idx.T)] = np.sin(v)
        return (d * weight).sum()

    eps = 1e-6
    want = np.array([(f_np(vals + eps * e) - f_np(vals - eps * e)) / (2 * eps) for e in np.eye(3)])
    got = ms.grad(lambda v: (ops.coo_sin(ms.COOTensor(ms.Tensor(idx), v, (5, 6))).to_dense()
                             * ms.Tensor(weight.astype(np.float32))).sum())(ms.Tensor(vals.astype(np.float32)))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-5)
