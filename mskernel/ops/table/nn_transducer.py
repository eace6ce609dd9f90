"""Op table: the RNN transducer loss, ``ops.RNNTLoss(blank_label=0)(acts, labels, input_lengths, label_lengths)``.

``acts`` (B, T, U, V) are unnormalized scores of the joint network (a log-softmax over V is taken inside),
``labels`` (B, U - 1) int32. For each sample the forward variables over the (T, U) lattice,
``alpha[t, u] = logsumexp(alpha[t - 1, u] + lp[t - 1, u, blank], alpha[t, u - 1] + lp[t, u - 1, label[u - 1]])``,
give the log-likelihood ``alpha[T - 1, U - 1] + lp[T - 1, U - 1, blank]`` (T and U the sample's
``input_lengths`` and ``label_lengths + 1``); the backward variables give the gradient. It returns the costs (the
negative log-likelihoods, (B,)) and their gradient with respect to ``acts`` (zero outside a sample's lattice); the
costs differentiate to that gradient times their own. MindSpore 2.10's CPU wheel has no kernel for it
("Unsupported op [RNNTLoss] on CPU"); the maths is Graves' (2012), tested against a numpy enumeration of paths.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> i32 = lambda v: ms.Tensor(np.array(v, np.int32))
    >>> costs, grads = ops.RNNTLoss()(ms.Tensor(np.zeros((1, 1, 2, 2), np.float32)), i32([[1]]), i32([1]), i32([1]))
    >>> print(costs)   # emit the label then the blank: log(2) + log(2)
    [1.3862944]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_ctc import _lse


def _lattice(lp: np.ndarray, labels: np.ndarray, blank: int) -> Tuple[float, np.ndarray]:
    """Log-likelihood and gradient with respect to ``lp`` (T, U, V) of one sample."""
    t_len, u_len, _ = lp.shape
    emit = np.array([lp[t, u, labels[u]] for t in range(t_len) for u in range(u_len - 1)]).reshape(t_len, u_len - 1)
    stay = lp[:, :, blank]
    alpha = np.full((t_len, u_len), -np.inf)
    beta = np.full((t_len, u_len), -np.inf)
    for t in range(t_len):
        for u in range(u_len):
            if t == 0 and u == 0:
                alpha[t, u] = 0.0
                continue
            a = alpha[t - 1, u] + stay[t - 1, u] if t > 0 else -np.inf
            b = alpha[t, u - 1] + emit[t, u - 1] if u > 0 else -np.inf
            alpha[t, u] = _lse(np.asarray(a), np.asarray(b))
    for t in range(t_len - 1, -1, -1):
        for u in range(u_len - 1, -1, -1):
            if t == t_len - 1 and u == u_len - 1:
                beta[t, u] = stay[t, u]
                continue
            a = beta[t + 1, u] + stay[t, u] if t < t_len - 1 else -np.inf
            b = beta[t, u + 1] + emit[t, u] if u < u_len - 1 else -np.inf
            beta[t, u] = _lse(np.asarray(a), np.asarray(b))
    ll = float(alpha[-1, -1] + stay[-1, -1])
    g = np.zeros_like(lp)
    for t in range(t_len):
        for u in range(u_len):
            nxt = beta[t + 1, u] if t < t_len - 1 else (0.0 if u == u_len - 1 else -np.inf)
            g[t, u, blank] -= np.exp(alpha[t, u] + stay[t, u] + nxt - ll)
            if u < u_len - 1:
                g[t, u, labels[u]] -= np.exp(alpha[t, u] + emit[t, u] + beta[t, u + 1] - ll)
    return ll, g


def _rnnt_forward(acts: np.ndarray, labels: np.ndarray, input_lengths: np.ndarray, label_lengths: np.ndarray,
                  blank_label: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    work = acts.astype(np.float64)
    top = work.max(-1, keepdims=True)
    lp = work - top - np.log(np.exp(work - top).sum(-1, keepdims=True))
    costs = np.zeros(acts.shape[0])
    grads = np.zeros_like(work)
    for b in range(acts.shape[0]):
        t_len, u_len = int(input_lengths[b]), int(label_lengths[b]) + 1
        ll, g_lp = _lattice(lp[b, :t_len, :u_len], labels[b, :u_len - 1].astype(np.int64), blank_label)
        costs[b] = -ll
        # d(-ll)/d acts = softmax * (sum of d(-ll)/d lp over classes, negated) + d(-ll)/d lp
        soft = np.exp(lp[b, :t_len, :u_len])
        grads[b, :t_len, :u_len] = g_lp - soft * g_lp.sum(-1, keepdims=True)
    return costs.astype(acts.dtype), grads.astype(acts.dtype)


def _rnnt_backward(g: Any, out: Any) -> Tuple[Any, None, None, None]:
    g_costs = g[0] if isinstance(g, tuple) else g
    return out[1] * g_costs.reshape((-1, 1, 1, 1)), None, None, None


def rnnt_loss(acts: Any, labels: Any, input_lengths: Any, label_lengths: Any, blank_label: int = 0
              ) -> Tuple[Tensor, Tensor]:
    """``ops.RNNTLoss``'s forward: the costs (B,) and their gradient with respect to ``acts``."""
    op = "RNNTLoss"
    if isinstance(blank_label, bool) or not isinstance(blank_label, int):
        raise TypeError(f"For '{op}', the type of 'blank_label' should be 'int', but got type "
                        f"'{type(blank_label).__name__}'.")
    ts = [check_tensor(v, op, n) for v, n in ((acts, "acts"), (labels, "labels"), (input_lengths, "input_length"),
                                              (label_lengths, "label_length"))]
    if ts[0].dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For '{op}', the 'acts' must be a Tensor of float16 or float32, but got {ts[0].dtype}.")
    for t, name in zip(ts[1:], ("labels", "input_length", "label_length")):
        if t.dtype != mstype.int32:
            raise TypeError(f"For '{op}', the '{name}' must be a Tensor of int32, but got {t.dtype}.")
    a, lab, il, ll = (t.shape for t in ts)
    if len(a) != 4 or len(lab) != 2 or len(il) != 1 or len(ll) != 1:
        raise ValueError(f"For '{op}', 'acts', 'labels', 'input_length' and 'label_length' must have ranks 4, 2, 1 "
                         f"and 1, but got {len(a)}, {len(lab)}, {len(il)} and {len(ll)}.")
    if lab[0] != a[0] or lab[1] != a[2] - 1 or il[0] != a[0] or ll[0] != a[0]:
        raise ValueError(f"For '{op}', 'labels' must be (acts shape[0], acts shape[2] - 1) and the lengths "
                         f"(acts shape[0],), but got acts {a}, labels {lab}, input_length {il}, label_length {ll}.")
    lengths, label_lens = np.asarray(ts[2]._data), np.asarray(ts[3]._data)
    if np.any(lengths < 1) or np.any(lengths > a[1]) or np.any(label_lens < 0) or np.any(label_lens > a[2] - 1):
        raise ValueError(f"For '{op}', each 'input_length' must be in [1, {a[1]}] and each 'label_length' in "
                         f"[0, {a[2] - 1}], but got {lengths.tolist()} and {label_lens.tolist()}.")
    if not 0 <= blank_label < a[3]:
        raise ValueError(f"For '{op}', the 'blank_label' must be in [0, {a[3]}), but got {blank_label}.")
    return F._rnnt_loss_kernel(*ts, blank_label)


OPS: List[Op] = [
    Op("_rnnt_loss_kernel", "acts, labels, input_lengths, label_lengths, blank_label=0", _rnnt_forward,
       _rnnt_backward, inputs=4, outputs=2, dtype="any", label="RNNTLoss"),
    Op("_rnnt_loss", "acts, labels, input_lengths, label_lengths, blank_label=0", fn=rnnt_loss, inputs=4,
       prim="RNNTLoss(blank_label=0)(acts, labels, input_lengths, label_lengths) -> acts, labels, input_lengths, "
            "label_lengths, blank_label"),
]

EXAMPLES = {
    "RNNTLoss": ("import numpy as np", "i32 = lambda v: ms.Tensor(np.array(v, np.int32))",
                 "costs, grads = ops.RNNTLoss()(ms.Tensor(np.zeros((1, 1, 2, 2), np.float32)), i32([[1]]), i32([1]), "
                 "i32([1]))", "costs", "[1.3862944]"),
}
