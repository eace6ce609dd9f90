"""Op table: the margin, embedding and likelihood losses (``ops.margin_ranking_loss``, ``ops.MultiMarginLoss``,
``ops.gaussian_nll_loss``, ...), composed of recorded ops so their gradients come from the engine.

Each reduces as MindSpore's losses do: ``'mean'`` and ``'sum'`` over every element (computed in float32, cast
back to the input's dtype), ``'none'`` keeps the per-element (or per-sample) values.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.margin_ranking_loss(ms.Tensor([1.0, -1.0]), ms.Tensor([0.0, 0.5]), ms.Tensor([1.0, 1.0])))
    0.75
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str, op: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{op}', the 'reduction' must be in {list(_REDUCTIONS)}, but got {reduction}.")


def _reduce(x: Tensor, reduction: str, op: str) -> Tensor:
    """MindSpore's loss reduction: in float32, then back to the input's dtype."""
    _check_reduction(reduction, op)
    if reduction == "none":
        return x
    dt = x.dtype
    y = x if dt == mstype.float32 else F.cast(x, mstype.float32)
    y = F.mean(y) if reduction == "mean" else F.sum(y)
    return y if dt == mstype.float32 else F.cast(y, dt)


def _float_arg(value: Any, name: str, op: str) -> float:
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'float', but got type "
                        f"'{type(value).__name__}'.")
    return value


def _same_dtype(a: Tensor, an: str, b: Tensor, bn: str, op: str) -> None:
    if a.dtype != b.dtype:
        raise TypeError(f"For '{op}', the dtype of '{an}' and '{bn}' should be the same, but got '{an}' with "
                        f"dtype: {a.dtype} and '{bn}' with dtype: {b.dtype}.")


def _float_tensor(x: Any, op: str, name: str) -> Tensor:
    t = check_tensor(x, op, name)
    if t._data.dtype.kind != "f":
        raise TypeError(f"For '{op}', the input argument '{name}' must be a type of {{Float16, Float32, Float64}}, "
                        f"but got {t.dtype}.")
    return t


def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    op = "margin_ranking_loss"
    _float_arg(margin, "margin", op)
    a, b, t = (check_tensor(v, op, n) for v, n in ((input1, "input1"), (input2, "input2"), (target, "target")))
    _same_dtype(a, "input1", b, "input2", op)
    _same_dtype(t, "target", a, "input1", op)
    return _reduce(F.clamp(-t * (a - b) + margin, min=0), reduction, op)


def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    op = "ops.cosine_embedding_loss"
    a, b, t = (check_tensor(v, op, n) for v, n in ((input1, "input1"), (input2, "input2"), (target, "target")))
    _same_dtype(a, "input1", b, "input2", op)
    if a.ndim < 1 or tuple(a.shape[:1] + a.shape[2:]) != tuple(t.shape):
        raise ValueError(f"For '{op}', the shape of 'input1' reduced over axis 1 must equal the shape of 'target', "
                         f"but got 'input1' shape: {tuple(a.shape)}, 'target' shape: {tuple(t.shape)}.")
    a, b = (F.cast(v, mstype.float32) if v._data.dtype.kind in "iu" else v for v in (a, b))
    m = float(margin) if isinstance(margin, int) and not isinstance(margin, bool) else margin
    _float_arg(m, "margin", op)
    if not -1.0 <= m <= 1.0:
        raise ValueError(f"For ops.cosine_embedding_loss, the value of 'margin' should be in [-1, 1],but got {m}.")
    cos = F.sum(a * b, 1) / (F.sqrt(F.sum(a * a, 1)) * F.sqrt(F.sum(b * b, 1)))
    zeros = F.zeros_like(cos)
    loss = F.where(t == 1, 1.0 - cos, zeros) + F.where(t == -1, F.maximum(cos - m, 0.0), zeros)
    return _reduce(loss, reduction, "cosine_embedding_loss")


def hinge_embedding_loss(inputs: Any, targets: Any, margin: float = 1.0, reduction: str = "mean") -> Tensor:
    op = "hinge_embedding_loss"
    x, t = check_tensor(inputs, op, "inputs"), check_tensor(targets, op, "targets")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)):
        raise TypeError(f"For '{op}', the type of 'margin' should be float or int, but got "
                        f"{type(margin).__name__}.")
    _check_reduction(reduction, op)
    pos = F.cast(t > 0, x.dtype)
    neg = F.cast(t < 0, x.dtype)
    # MindSpore clips with clip_by_value (a maximum): at margin == x the gradient is shared half and half
    loss = pos * x + F.maximum(neg * float(margin) - neg * x, 0.0)
    return loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)


def soft_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    op = "SoftMarginLoss"
    x, y = _float_tensor(input, op, "input"), check_tensor(target, op, "target")
    _check_reduction(reduction, op)
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"For '{op}', the shape of 'input' and 'target' should be the same, but got 'input' shape: "
                         f"{tuple(x.shape)}, 'target' shape: {tuple(y.shape)}.")
    loss = F.log1p(F.exp(-y * x))
    return loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)


def multilabel_soft_margin_loss(input: Any, target: Any, weight: Any = None, reduction: str = "mean") -> Tensor:
    op = "multilabel_soft_margin_loss"
    x, t = check_tensor(input, op, "input"), check_tensor(target, op, "target")
    loss = t * F.log(F.exp(-x) + 1) + (1 - t) * F.log(F.exp(x) + 1)
    if weight is not None:
        loss = loss * weight
    c = x.ndim - 1
    return _reduce(F.sum(loss, c) / x.shape[c], reduction, op)


def gaussian_nll_loss(x: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-06,
                      reduction: str = "mean") -> Tensor:
    op = "gaussian_nll_loss"
    for v, n in ((x, "x"), (target, "target"), (var, "var")):
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', '{n}' must be a tensor, but got {type(v)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For '{op}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{op}', 'eps' must be a positive float, but got {eps}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', or 'sum',        but got "
                         f"{reduction}.")
    if tuple(x.shape) != tuple(var.shape) and tuple(x.shape[:-1]) == tuple(var.shape):
        var = F.expand_dims(var, -1)
    v = F.maximum(var, eps)
    d = x - target
    loss = 0.5 * (F.log(v) + d * d / v)
    if full:
        loss = loss + 0.5 * float(np.log(2 * np.pi))
    return loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)


def _one_hot(labels: np.ndarray, depth: int, dtype: Any) -> Tensor:
    out = np.zeros(labels.shape + (depth,), dtype)
    np.put_along_axis(out, labels[..., None].astype(np.int64), 1, axis=-1)
    return Tensor._wrap(out)


def _multi_margin(x: Any, target: Any, weight: Any = None, p: int = 1, margin: float = 1.0,
                  reduction: str = "mean") -> Tensor:
    op = "MultiMarginLoss"
    x = _float_tensor(x, op, "x")
    t = check_tensor(target, op, "target")
    if p not in (1, 2):
        raise ValueError(f"For '{op}', the value of 'p' must be 1 or 2, but got {p}.")
    _check_reduction(reduction, op)
    if x.ndim != 2 or t.ndim != 1 or t.shape[0] != x.shape[0]:
        raise ValueError(f"For '{op}', 'x' must be 2-D and 'target' 1-D with x.shape[0] elements, but got 'x' "
                         f"shape: {tuple(x.shape)}, 'target' shape: {tuple(t.shape)}.")
    c = x.shape[1]
    labels = np.asarray(t._data).astype(np.int64)
    if np.any((labels < 0) | (labels >= c)):
        raise ValueError(f"For '{op}', the values of 'target' must be in [0, {c}), but got {labels.tolist()}.")
    onehot = _one_hot(labels, c, x._data.dtype)
    x_y = F.sum(x * onehot, 1, keepdim=True)
    m = F.relu(margin - x_y + x) * (1 - onehot)
    if p == 2:
        m = m * m
    if weight is not None:
        m = m * F.expand_dims(F.sum(F.cast(weight, x.dtype) * onehot, 1), 1)
    loss = F.sum(m, 1) / c
    return loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)


def multi_margin_loss(input: Any, target: Any, p: int = 1, margin: int = 1, weight: Any = None,
                      reduction: str = "mean") -> Tensor:
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got {type(margin)}.")
    return _multi_margin(input, target, weight, p, float(margin), reduction)


def _multilabel_margin(x: Any, target: Any, reduction: str = "mean") -> tuple:
    op = "MultilabelMarginLoss"
    x = _float_tensor(x, op, "x")
    t = check_tensor(target, op, "target")
    _check_reduction(reduction, op)
    if x.ndim not in (1, 2) or tuple(t.shape) != tuple(x.shape):
        raise ValueError(f"For '{op}', 'x' must be 1-D or 2-D and 'target' of its shape, but got 'x' shape: "
                         f"{tuple(x.shape)}, 'target' shape: {tuple(t.shape)}.")
    labels = np.asarray(t._data).astype(np.int64).reshape(-1, x.shape[-1])
    n, c = labels.shape
    is_target = np.zeros((n, c), np.int32)
    for i in range(n):
        for j in labels[i]:
            if j < 0:
                break
            is_target[i, j] = 1
    pair = (is_target[:, :, None] * (1 - is_target[:, None, :])).astype(x._data.dtype)  # target j, other k
    xs = F.reshape(x, (n, c))
    diff = F.expand_dims(xs, 2) - F.expand_dims(xs, 1)
    loss = F.sum(F.relu(1 - diff) * Tensor._wrap(pair), (1, 2)) / c
    if x.ndim == 1:
        loss = F.reshape(loss, ())
    if reduction != "none":
        loss = F.mean(loss) if reduction == "mean" else F.sum(loss)
    return loss, Tensor._wrap(is_target.reshape(t.shape).astype(t._data.dtype))


def multilabel_margin_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    return _multilabel_margin(input, target, reduction)[0]


def _pairwise(a: Tensor, b: Tensor, p: float, eps: float) -> Tensor:
    d = F.abs(a - b + eps)
    if p == 2:
        return F.sqrt(F.sum(d * d, 1))
    if p == 1:
        return F.sum(d, 1)
    return F.pow(F.sum(F.pow(d, float(p)), 1), 1.0 / p)


def _triplet(x: Any, positive: Any, negative: Any, margin: Any, p: int = 2, eps: float = 1e-06, swap: bool = False,
             reduction: str = "mean") -> Tensor:
    op = "TripletMarginLoss"
    a, pos, neg = (check_tensor(v, op, n) for v, n in ((x, "x"), (positive, "positive"), (negative, "negative")))
    _check_reduction(reduction, op)
    if a.ndim < 2:
        raise ValueError(f"For '{op}', the dimension of 'x' must be at least 2, but got {a.ndim}.")
    d_ap = _pairwise(a, pos, p, eps)
    d_an = _pairwise(a, neg, p, eps)
    if swap:
        d_an = F.minimum(d_an, _pairwise(pos, neg, p, eps))
    loss = F.relu(d_ap - d_an + F.cast(margin, d_ap.dtype) if isinstance(margin, Tensor) else d_ap - d_an + margin)
    return loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)


def triplet_margin_loss(anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: int = 2,
                        eps: float = 1e-06, swap: bool = False, reduction: str = "mean") -> Tensor:
    return _triplet(anchor, positive, negative, margin, p, eps, swap, reduction)


def mse_loss_ext(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    op = "mse_loss_ext"
    x, y = check_tensor(input, op, "input"), check_tensor(target, op, "target")
    _check_reduction(reduction, op)
    d = x - y
    return _reduce(d * d, reduction, op)


def _l2_loss(x: Any) -> Tensor:
    t = _float_tensor(x, "L2Loss", "x")
    return F.sum(t * t) / 2


def _nll_with_weight(logits: Any, labels: Any, weight: Any, reduction: str = "mean", ignore_index: int = -100) -> tuple:
    op = "NLLLoss"
    x = _float_tensor(logits, op, "logits")
    lab = np.asarray(check_tensor(labels, op, "labels")._data).astype(np.int64)
    _check_reduction(reduction, op)
    w = check_tensor(weight, op, "weight")
    n = x.shape[0] if x.ndim == 2 else 1
    xs = F.reshape(x, (n, -1))
    c = xs.shape[1]
    lab = lab.reshape(-1)
    valid = lab != ignore_index
    safe = np.where(valid, lab, 0)
    onehot = _one_hot(safe, c, x._data.dtype)
    wy = F.sum(F.cast(w, x.dtype) * onehot, 1) * Tensor._wrap(valid.astype(x._data.dtype))
    loss = -F.sum(xs * onehot, 1) * wy
    total = F.sum(wy)
    if reduction == "none":
        return (loss if x.ndim == 2 else F.reshape(loss, ())), total
    if reduction == "sum":
        return F.sum(loss), total
    return F.sum(loss) / total, total


OPS: List[Op] = [
    Op("margin_ranking_loss", "input1, input2, target, margin=0.0, reduction='mean'", fn=margin_ranking_loss,
       inputs=3),
    Op("cosine_embedding_loss", "input1, input2, target, margin=0.0, reduction='mean'", fn=cosine_embedding_loss,
       inputs=3),
    Op("hinge_embedding_loss", "inputs, targets, margin=1.0, reduction='mean'", fn=hinge_embedding_loss, inputs=2),
    Op("soft_margin_loss", "input, target, reduction='mean'", fn=soft_margin_loss, inputs=2,
       prim="SoftMarginLoss(reduction='mean')(logits, labels) -> logits, labels, reduction"),
    Op("multilabel_soft_margin_loss", "input, target, weight=None, reduction='mean'",
       fn=multilabel_soft_margin_loss, inputs=2),
    Op("gaussian_nll_loss", "x, target, var, full=False, eps=1e-06, reduction='mean'", fn=gaussian_nll_loss,
       inputs=3),
    Op("multi_margin_loss", "input, target, p=1, margin=1, weight=None, reduction='mean'", fn=multi_margin_loss,
       inputs=2),
    Op("_multi_margin", "x, target, weight=None, p=1, margin=1.0, reduction='mean'", fn=_multi_margin, inputs=2,
       prim="MultiMarginLoss(p=1, margin=1.0, reduction='mean')(x, target, weight=None) -> x, target, weight, p, "
            "margin, reduction"),
    Op("multilabel_margin_loss", "input, target, reduction='mean'", fn=multilabel_margin_loss, inputs=2),
    Op("_multilabel_margin", "x, target, reduction='mean'", fn=_multilabel_margin, inputs=2, outputs=2,
       prim="MultilabelMarginLoss(reduction='mean')(x, target) -> x, target, reduction"),
    Op("triplet_margin_loss", "anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction='mean'",
       fn=triplet_margin_loss, inputs=3),
    Op("_triplet", "x, positive, negative, margin, p=2, eps=1e-06, swap=False, reduction='mean'", fn=_triplet,
       inputs=4, prim="TripletMarginLoss(p=2, swap=False, eps=1e-06, reduction='mean')(x, positive, negative, margin)"
                      " -> x, positive, negative, margin, p, eps, swap, reduction"),
    Op("mse_loss_ext", "input, target, reduction='mean'", fn=mse_loss_ext, inputs=2),
    Op("_l2_loss", "x", fn=_l2_loss, prim="L2Loss"),
    Op("_nll_with_weight", "logits, labels, weight, reduction='mean', ignore_index=-100", fn=_nll_with_weight,
       inputs=3, outputs=2, prim="NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight) -> logits, "
                                 "labels, weight, reduction, ignore_index"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "margin_ranking_loss": ("a, b = ms.Tensor([1.0, -1.0, 0.5]), ms.Tensor([0.0, 0.5, 0.5])",
                            "ops.margin_ranking_loss(a, b, ms.Tensor([1.0, 1.0, -1.0]), 0.1, 'none')",
                            "[0.  1.6 0.1]"),
    "cosine_embedding_loss": ("a, b = ms.Tensor([[1.0, 0.0], [1.0, 1.0]]), ms.Tensor([[1.0, 1.0], [1.0, 1.0]])",
                              "ops.cosine_embedding_loss(a, b, ms.Tensor([1, -1]), reduction='none')",
                              "[0.29289323 1.0000001 ]"),
    "hinge_embedding_loss": ("ops.hinge_embedding_loss(ms.Tensor([0.5, 0.3, 2.0]), ms.Tensor([1.0, -1.0, -1.0]), "
                             "reduction='none')", "[0.5 0.7 0. ]"),
    "SoftMarginLoss": ("ops.SoftMarginLoss(reduction='sum')(ms.Tensor([0.5, -1.0]), ms.Tensor([1.0, -1.0]))",
                       "0.7873386"),
    "soft_margin_loss": ("ops.soft_margin_loss(ms.Tensor([0.5, -1.0]), ms.Tensor([1.0, -1.0]))", "0.3936693"),
    "multilabel_soft_margin_loss": ("x, t = ms.Tensor([[0.5, -1.0]]), ms.Tensor([[1.0, 0.0]])",
                                    "ops.multilabel_soft_margin_loss(x, t)", "0.3936693"),
    "gaussian_nll_loss": ("x, t = ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.5, 1.0]])",
                          "ops.gaussian_nll_loss(x, t, ms.Tensor([[0.5, 2.0]]), reduction='none')",
                          "[[-0.09657359  0.5965736 ]]"),
    "multi_margin_loss": ("ops.multi_margin_loss(ms.Tensor([[0.1, 0.8, 0.3]]), ms.Tensor([1]))", "0.26666665"),
    "MultiMarginLoss": ("ops.MultiMarginLoss(p=2)(ms.Tensor([[0.1, 0.8, 0.3]]), ms.Tensor([1]), "
                        "ms.Tensor([1.0, 2.0, 1.0]))", "0.22666664"),
    "multilabel_margin_loss": ("x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])",
                               "ops.multilabel_margin_loss(x, ms.Tensor([[3, 0, -1, 1]]))", "0.85"),
    "MultilabelMarginLoss": ("x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])",
                             "*ops.MultilabelMarginLoss()(x, ms.Tensor([[3, 0, -1, 1]], ms.int32))",
                             "0.85 [[1 0 0 1]]"),
    "triplet_margin_loss": ("a, p, n = ms.Tensor([[0.0, 1.0]]), ms.Tensor([[0.0, 0.5]]), ms.Tensor([[1.0, 1.0]])",
                            "ops.triplet_margin_loss(a, p, n)", "0.500002"),
    "TripletMarginLoss": ("a, p, n = ms.Tensor([[0.0, 1.0]]), ms.Tensor([[0.0, 0.5]]), ms.Tensor([[1.0, 1.0]])",
                          "ops.TripletMarginLoss(p=1)(a, p, n, ms.Tensor(0.8))", "0.30000204"),
    "mse_loss_ext": ("ops.mse_loss_ext(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0]), 'none')", "[1. 4.]"),
    "L2Loss": ("ops.L2Loss()(ms.Tensor([1.0, 2.0, 3.0]))", "7.0"),
    "NLLLoss": ("logp, labels = ms.Tensor([[-0.5, -1.0], [-2.0, -0.1]]), ms.Tensor([0, 1], ms.int32)",
                "*ops.NLLLoss()(logp, labels, ms.Tensor([1.0, 3.0]))", "0.2 4.0"),
}
