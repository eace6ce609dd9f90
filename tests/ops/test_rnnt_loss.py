"""ops.RNNTLoss (no CPU kernel in the wheel) against a numpy sum over every alignment path, and its gradient against
float64 central differences."""
import itertools

import numpy as np

import mskernel as ms
from mskernel import ops


def _paths_nll(acts, labels, t_len, u_len, blank):
    lp = acts - np.log(np.exp(acts).sum(-1, keepdims=True))
    total = 0.0
    n_emit = u_len - 1
    # a path is an order of T blanks and U - 1 label emissions ending with a blank at (T - 1, U - 1)
    for order in itertools.combinations(range(t_len - 1 + n_emit), n_emit):
        t = u = 0
        logp = 0.0
        for step in range(t_len - 1 + n_emit):
            if step in order:
                logp += lp[t, u, labels[u]]
                u += 1
            else:
                logp += lp[t, u, blank]
                t += 1
        logp += lp[t_len - 1, u_len - 1, blank]
        total += np.exp(logp)
    return -np.log(total)


def test_rnnt_loss_matches_path_sum_and_gradient():
    rng = np.random.default_rng(0)
    acts = rng.standard_normal((2, 4, 3, 5)).astype(np.float32).astype(np.float64)  # acts are float16/32 only
    labels = np.array([[1, 3], [4, 0]], np.int32)
    in_len, lab_len = np.array([4, 3], np.int32), np.array([2, 1], np.int32)
    costs, grads = ops.RNNTLoss(blank_label=2)(ms.Tensor(acts.astype(np.float32)), ms.Tensor(labels), ms.Tensor(in_len),
                                               ms.Tensor(lab_len))
    want = [_paths_nll(acts[b, :in_len[b], :lab_len[b] + 1], labels[b], in_len[b], lab_len[b] + 1, 2)
            for b in range(2)]
    np.testing.assert_allclose(costs.asnumpy(), want, rtol=1e-6)  # computed in float64, rounded to float32
    eps, num = 1e-6, np.zeros_like(acts)
    for idx in np.ndindex(acts.shape):
        b = idx[0]
        d = np.zeros_like(acts)
        d[idx] = eps
        f = lambda a: _paths_nll(a[b, :in_len[b], :lab_len[b] + 1], labels[b], in_len[b], lab_len[b] + 1, 2)  # noqa
        num[idx] = (f(acts + d) - f(acts - d)) / (2 * eps)
    np.testing.assert_allclose(grads.asnumpy(), num, rtol=1e-4, atol=1e-6)
    w = ms.Tensor(np.array([2.0, -1.0], np.float32))
    a32 = ms.Tensor(acts.astype(np.float32))
    g = ms.grad(lambda a: (ops.RNNTLoss(blank_label=2)(a, ms.Tensor(labels), ms.Tensor(in_len),
                                                       ms.Tensor(lab_len))[0] * w).sum())(a32)
    np.testing.assert_allclose(g.asnumpy(), num * np.array([2.0, -1.0])[:, None, None, None], rtol=1e-4, atol=1e-6)


def test_rnnt_loss_float32_and_errors():
    acts = ms.Tensor(np.zeros((1, 2, 2, 3), np.float32))
    i32 = lambda v: ms.Tensor(np.array(v, np.int32))  # noqa: E731
    costs, grads = ops.RNNTLoss()(acts, i32([[1]]), i32([2]), i32([1]))
    assert costs.dtype == ms.float32 and grads.shape == (1, 2, 2, 3)
    for bad in (lambda: ops.RNNTLoss()(acts, ms.Tensor(np.array([[1]], np.int64)), i32([2]), i32([1])),
                lambda: ops.RNNTLoss()(acts, i32([[1]]), i32([3]), i32([1])),
                lambda: ops.RNNTLoss(1.0)(acts, i32([[1]]), i32([2]), i32([1]))):
        try:
            bad()
        except (TypeError, ValueError) as e:
            assert "RNNTLoss" in str(e)
        else:
            raise AssertionError("no error")
