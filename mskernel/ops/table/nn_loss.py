"""Op table: loss functions, composed of recorded ops (so their gradients, of any order, come from the engine).

Reductions are MindSpore's: ``"mean"`` (weighted means divide by the summed weights of the counted
targets), ``"sum"``, ``"none"``; ``kl_div`` also takes ``"batchmean"``.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> logits, target = ms.Tensor([[2.0, 0.5, -1.0]]), ms.Tensor([0], ms.int32)
    >>> print(ops.cross_entropy(logits, target), ops.mse_loss(logits, ms.Tensor([[1.0, 1.0, 1.0]])))
    0.24131124 1.75
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_REDUCTIONS = ("mean", "sum", "none")


def reduce_loss(loss: Tensor, reduction: str, op: str) -> Tensor:
    """Apply a loss reduction, with MindSpore's error for an unknown one.

    Example:
        >>> import mskernel as ms
        >>> print(reduce_loss(ms.Tensor([1.0, 3.0]), "mean", "l1_loss"))
        2.0
    """
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"For '{op}', the 'reduction' must be in {list(_REDUCTIONS)}, but got {reduction}.")


def _check_reduction(reduction: str, op: str, allowed: tuple = _REDUCTIONS) -> None:
    if reduction not in allowed:
        raise ValueError(f"For '{op}', the 'reduction' must be in {list(allowed)}, but got {reduction}.")


def _mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "mse_loss")
    d = input - target
    return reduce_loss(d * d, reduction, "mse_loss")


def _l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "l1_loss")
    return reduce_loss(F.abs(input - target), reduction, "l1_loss")


def _smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> Tensor:
    _check_reduction(reduction, "smooth_l1_loss")
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be greater than 0, but got {beta}.")
    d = F.abs(input - target)
    loss = F.where(d < beta, d * d * (0.5 / beta), d - 0.5 * beta)
    return reduce_loss(loss, reduction, "smooth_l1_loss")


def _huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    _check_reduction(reduction, "huber_loss")
    d = F.abs(input - target)
    loss = F.where(d < delta, d * d * 0.5, delta * (d - 0.5 * delta))
    return reduce_loss(loss, reduction, "huber_loss")


def _bce_with_logits(input: Any, target: Any, weight: Any = None, pos_weight: Any = None,
                     reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    x, t = check_tensor(input, "binary_cross_entropy_with_logits", "input"), target
    softplus_neg_abs = F.log1p(F.exp(-F.abs(x)))
    if pos_weight is None:
        loss = F.relu(x) - x * t + softplus_neg_abs
    else:
        loss = (1 - t) * x + (1 + (pos_weight - 1) * t) * (softplus_neg_abs + F.relu(-x))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction, "binary_cross_entropy_with_logits")


def _bce(logits: Any, labels: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "binary_cross_entropy")
    p = check_tensor(logits, "binary_cross_entropy", "logits")
    log_p = F.clamp(F.log(p), min=-100.0)
    log_1mp = F.clamp(F.log(1 - p), min=-100.0)
    loss = -(labels * log_p + (1 - labels) * log_1mp)
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss, reduction, "binary_cross_entropy")


def _class_last(x: Tensor) -> Tensor:
    """(N, C, d1, ...) → (N * d1 * ..., C); (N, C) and (C,) unchanged but for the leading axis."""
    if x.ndim <= 2:
        return x if x.ndim == 2 else F.reshape(x, (1, -1))
    perm = (0,) + tuple(range(2, x.ndim)) + (1,)
    return F.reshape(F.transpose(x, perm), (-1, x.shape[1]))


def _nll(logp: Tensor, target: Any, weight: Any, ignore_index: int, reduction: str, label_smoothing: float,
         op: str) -> Tensor:
    _check_reduction(reduction, op)
    out_shape = (target.shape if isinstance(target, Tensor) else ())
    lp = _class_last(logp)
    t = np.asarray(target._data if isinstance(target, Tensor) else target).reshape(-1).astype(np.int64)
    n, c = lp.shape
    valid = t != ignore_index
    safe_t = np.where(valid, t, 0)
    if np.any((safe_t < 0) | (safe_t >= c)):
        raise ValueError(f"For '{op}', the target must be in [0, {c}) or equal to ignore_index, but got "
                         f"{t[(safe_t < 0) | (safe_t >= c)][:3].tolist()}.")
    w = np.ones(c, lp._data.dtype) if weight is None else np.asarray(weight._data if isinstance(weight, Tensor)
                                                                      else weight, lp._data.dtype)
    wt = Tensor._wrap((w[safe_t] * valid).astype(lp._data.dtype))
    picked = F.getitem(lp, (np.arange(n), safe_t))
    loss = -picked * wt
    if label_smoothing > 0:
        smooth = -F.sum(lp * Tensor._wrap(w.astype(lp._data.dtype)), 1) * Tensor._wrap(valid.astype(lp._data.dtype))
        loss = loss * (1 - label_smoothing) + smooth * (label_smoothing / c)
    if reduction == "mean":
        return F.sum(loss) / Tensor._wrap(np.asarray(max(float(wt._data.sum()), 0.0), lp._data.dtype))
    if reduction == "sum":
        return F.sum(loss)
    return F.reshape(loss, out_shape) if len(out_shape) > 1 else loss


def _nll_loss(inputs: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
              label_smoothing: float = 0.0) -> Tensor:
    x = check_tensor(inputs, "nll_loss", "inputs")
    return _nll(x, target, weight, ignore_index, reduction, label_smoothing, "nll_loss")


def _cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                   label_smoothing: float = 0.0) -> Tensor:
    x = check_tensor(input, "cross_entropy", "input")
    _check_reduction(reduction, "cross_entropy")
    class_axis = 1 if x.ndim > 1 else 0
    logp = F.log_softmax(x, class_axis)
    if isinstance(target, Tensor) and target._data.dtype.kind == "f":  # class probabilities
        c = x.shape[class_axis]
        probs = target
        if label_smoothing > 0:
            probs = probs * (1 - label_smoothing) + label_smoothing / c
        wshape = [1] * x.ndim
        wshape[class_axis] = c
        lw = logp if weight is None else logp * F.reshape(weight, tuple(wshape))
        loss = -F.sum(lw * probs, class_axis)
        if reduction == "mean":
            return F.sum(loss) / (x.shape[0] if x.ndim > 1 else 1)
        return reduce_loss(loss, reduction, "cross_entropy")
    return _nll(logp, target, weight, ignore_index, reduction, label_smoothing, "cross_entropy")


def _kl_div(logits: Any, labels: Any, reduction: str = "mean") -> Tensor:
    _check_reduction(reduction, "kl_div", _REDUCTIONS + ("batchmean",))
    pos = Tensor._wrap((labels._data > 0).astype(labels._data.dtype))
    safe = F.where(labels > 0, labels, F.ones_like(labels))
    loss = pos * labels * (F.log(safe) - logits)
    if reduction == "batchmean":
        return F.sum(loss) / logits.shape[0]
    return reduce_loss(loss, reduction, "kl_div")


def _one_hot_np(labels: np.ndarray, depth: int, dtype: Any) -> np.ndarray:
    out = np.zeros(labels.shape + (depth,), dtype)
    np.put_along_axis(out, labels[..., None].astype(np.int64), 1, axis=-1)
    return out


def _softmax_ce_with_logits(logits: Any, labels: Any) -> tuple:
    """``ops.SoftmaxCrossEntropyWithLogits()(logits, labels)``: (loss per row, its gradient w.r.t. logits)."""
    logp = F.log_softmax(logits, -1)
    loss = -F.sum(labels * logp, -1)
    return loss, F.stop_gradient(F.exp(logp) - labels)


def _sparse_softmax_ce(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
    onehot = Tensor._wrap(_one_hot_np(np.asarray(labels._data), logits.shape[-1], logits._data.dtype))
    loss = -F.sum(onehot * F.log_softmax(logits, -1), -1)
    if is_grad:
        return F.stop_gradient((F.softmax(logits, -1) - onehot) / logits.shape[0])
    return F.mean(loss)


def _cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-08) -> Tensor:
    dot = F.sum(x1 * x2, dim)
    n1 = F.sqrt(F.sum(x1 * x1, dim))
    n2 = F.sqrt(F.sum(x2 * x2, dim))
    return dot / F.maximum(n1 * n2, eps)


def _sigmoid_ce_with_logits(logits: Any, label: Any) -> Tensor:
    return _bce_with_logits(logits, label, reduction="none")


OPS: List[Op] = [
    Op("mse_loss", "input, target, reduction='mean'", fn=_mse_loss, inputs=2),
    Op("l1_loss", "input, target, reduction='mean'", fn=_l1_loss, inputs=2),
    Op("smooth_l1_loss", "input, target, beta=1.0, reduction='none'", fn=_smooth_l1_loss, inputs=2,
       prim="SmoothL1Loss(beta=1.0, reduction='none')(logits, labels) -> logits, labels, beta, reduction"),
    Op("huber_loss", "input, target, reduction='mean', delta=1.0", fn=_huber_loss, inputs=2),
    Op("binary_cross_entropy_with_logits", "input, target, weight=None, pos_weight=None, reduction='mean'",
       fn=_bce_with_logits, inputs=2,
       prim="BCEWithLogitsLoss(reduction='mean')(logits, label, weight, pos_weight) -> logits, label, weight, "
            "pos_weight, reduction"),
    Op("binary_cross_entropy", "logits, labels, weight=None, reduction='mean'", fn=_bce, inputs=2,
       prim="BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None) -> logits, labels, weight, reduction"),
    Op("nll_loss", "inputs, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0",
       fn=_nll_loss, inputs=2),
    Op("cross_entropy", "input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0",
       fn=_cross_entropy, inputs=2),
    Op("kl_div", "logits, labels, reduction='mean'", fn=_kl_div, inputs=2,
       prim="KLDivLoss(reduction='mean')(logits, labels) -> logits, labels, reduction"),
    Op("softmax_cross_entropy_with_logits", "logits, labels", fn=_softmax_ce_with_logits, inputs=2,
       prim="SoftmaxCrossEntropyWithLogits"),
    Op("sparse_softmax_cross_entropy_with_logits", "logits, labels, is_grad=False", fn=_sparse_softmax_ce,
       inputs=2, prim="SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels) -> logits, labels, is_grad"),
    Op("sigmoid_cross_entropy_with_logits", "logits, label", fn=_sigmoid_ce_with_logits, inputs=2,
       prim="SigmoidCrossEntropyWithLogits"),
    Op("cosine_similarity", "x1, x2, dim=1, eps=1e-08", fn=_cosine_similarity, inputs=2),
]


def one_hot_array(labels: Any, depth: int, dtype: Optional[Any] = None) -> np.ndarray:
    """One-hot rows for integer labels (used by the sparse losses).

    Example:
        >>> one_hot_array(np.array([1, 0]), 3).tolist()
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    return _one_hot_np(np.asarray(labels), depth, dtype or np.float32)

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "mse_loss": ("ops.mse_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0]))", "2.5"),
    "l1_loss": ("ops.l1_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0]), reduction='sum')", "3.0"),
    "smooth_l1_loss": ("ops.smooth_l1_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5, 4.0]))", "[0.125 1.5  ]"),
    "huber_loss": ("ops.huber_loss(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5, 4.0]), reduction='none')", "[0.125 1.5  ]"),
    "binary_cross_entropy_with_logits": ("logits, target = ms.Tensor([0.0, 2.0]), ms.Tensor([1.0, 1.0])",
                                         "ops.binary_cross_entropy_with_logits(logits, target, reduction='none')",
                                         "[0.6931472 0.126928 ]"),
    "binary_cross_entropy": ("probs, target = ms.Tensor([0.5, 0.9]), ms.Tensor([1.0, 1.0])",
                             "ops.binary_cross_entropy(probs, target, reduction='none')",
                             "[0.6931472  0.10536055]"),
    "nll_loss": ("ops.nll_loss(ms.Tensor([[-1.0, -2.0], [-0.5, -3.0]]), ms.Tensor([0, 1]))", "2.0"),
    "cross_entropy": ("ops.cross_entropy(ms.Tensor([[2.0, 0.0], [0.0, 2.0]]), ms.Tensor([0, 1]))", "0.12692805"),
    "kl_div": ("ops.kl_div(ms.Tensor([-1.0, -1.0]), ms.Tensor([0.5, 0.5]), reduction='sum')", "0.30685282"),
    "softmax_cross_entropy_with_logits": ("logits, labels = ms.Tensor([[2.0, 0.0]]), ms.Tensor([[1.0, 0.0]])",
                                          "*ops.softmax_cross_entropy_with_logits(logits, labels)",
                                          "[0.12692805] [[-0.11920303  0.11920291]]"),
    "sparse_softmax_cross_entropy_with_logits": (
        "logits, labels = ms.Tensor([[2.0, 0.0], [0.0, 2.0]]), ms.Tensor([0, 0])",
        "ops.sparse_softmax_cross_entropy_with_logits(logits, labels)",
        "1.1269281"),
    "sigmoid_cross_entropy_with_logits": ("logits, labels = ms.Tensor([0.0, 2.0]), ms.Tensor([1.0, 0.0])",
                                          "ops.sigmoid_cross_entropy_with_logits(logits, labels)",
                                          "[0.6931472 2.126928 ]"),
    "cosine_similarity": ("x1, x2 = ms.Tensor([[1.0, 0.0], [1.0, 1.0]]), ms.Tensor([[1.0, 0.0], [1.0, 0.0]])",
                          "ops.cosine_similarity(x1, x2)",
                          "[1.         0.70710677]"),
    "SmoothL1Loss": ("ops.SmoothL1Loss(beta=0.5)(ms.Tensor([1.0, 2.0]), ms.Tensor([1.25, 4.0]))", "[0.0625 1.75  ]"),
    "BCEWithLogitsLoss": ("logits, label, w = ms.Tensor([0.0, 2.0]), ms.Tensor([1.0, 1.0]), ms.Tensor([1.0, 2.0])",
                          "ops.BCEWithLogitsLoss('none')(logits, label, w, ms.Tensor([1.0, 1.0]))",
                          "[0.6931472 0.253856 ]"),
    "BinaryCrossEntropy": ("probs, target = ms.Tensor([0.5, 0.9]), ms.Tensor([1.0, 1.0])",
                           "ops.BinaryCrossEntropy('sum')(probs, target)", "0.79850775"),
    "KLDivLoss": ("ops.KLDivLoss('sum')(ms.Tensor([-1.0, -1.0]), ms.Tensor([0.5, 0.5]))", "0.30685282"),
    "SparseSoftmaxCrossEntropyWithLogits": ("logits, labels = ms.Tensor([[2.0, 0.0], [0.0, 2.0]]), ms.Tensor([0, 0])",
                                            "ops.SparseSoftmaxCrossEntropyWithLogits()(logits, labels)",
                                            "1.1269281"),
}
