"""Op table: ops over sequences given as sparse tensors (indices, values, shape): ``ops.CTCLoss`` (labels as
``labels_indices``/``labels_values``) and ``ops.EditDistance``.

``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False)
(x, labels_indices, labels_values, sequence_length)``: ``x`` (T, N, C) are unnormalized scores (a log-softmax over
the classes is taken inside), the blank is class ``C - 1``; sample ``b``'s target is the values whose index row
starts with ``b``, in order. It returns the negative log-likelihood of each target, (N,), and its gradient
with respect to ``x`` (``softmax(x) - posterior``, zero after a sample's length, where the CPU kernel leaves
memory unwritten); the loss differentiates to that gradient times the loss's own. With
``ignore_longer_outputs_than_inputs`` a target longer than its sample has loss ``inf`` and gradient 0, as the
CPU kernel gives. The forward/backward variables are those of :mod:`mskernel.ops.table.nn_ctc`. A label equal
to the blank is outside CTC's maths: the loss here counts the all-blank paths through its extended sequence,
where the CPU kernel gives another number (its gradient agrees).

``EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
truth_values, truth_shape)``: the Levenshtein distance between the sequences that share all but the last index,
in a dense tensor of shape ``max(hypothesis_shape, truth_shape)[:-1]``; ``normalize`` divides by the truth's
length (an empty truth gives ``inf``, or 0 when the hypothesis is empty too). Float32.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> d = ops.EditDistance(False)(ms.Tensor(np.array([[0, 0], [0, 1]], np.int64)), ms.Tensor([1, 2]),
    ...     ms.Tensor(np.array([1, 2], np.int64)), ms.Tensor(np.array([[0, 0]], np.int64)), ms.Tensor([2]),
    ...     ms.Tensor(np.array([1, 1], np.int64)))
    >>> print(d)
    [1.]
"""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_ctc import _alpha_beta, _lse

_NEG_INF = -np.inf


def _bool(op: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'bool', but got type '{type(value).__name__}'.")


def _dtype(op: str, name: str, t: Tensor, want: Any) -> None:
    if t.dtype != want:
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of {{Tensor[{want}]}}, but "
                        f"got Tensor[{t.dtype}].")


def _log_softmax(x: np.ndarray) -> np.ndarray:
    top = x.max(-1, keepdims=True)
    return x - top - np.log(np.sum(np.exp(x - top), -1, keepdims=True))


def _targets(indices: np.ndarray, values: np.ndarray, batch: int, collapse: bool) -> List[np.ndarray]:
    out = []
    for b in range(batch):
        seq = values[indices[:, 0] == b].astype(np.int64)
        if collapse and len(seq):
            seq = seq[np.concatenate([[True], seq[1:] != seq[:-1]])]
        out.append(seq)
    return out


def _ctc_forward(x: np.ndarray, labels_indices: np.ndarray, labels_values: np.ndarray, sequence_length: np.ndarray,
                 preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
                 ignore_longer_outputs_than_inputs: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    t_max, batch, classes = x.shape
    blank = classes - 1
    lp = _log_softmax(x.astype(np.float64))
    lengths = sequence_length.reshape(-1)
    targets = _targets(labels_indices.reshape(-1, 2), labels_values.reshape(-1), batch,
                       preprocess_collapse_repeated)
    loss = np.zeros(batch, np.float64)
    grad = np.zeros((t_max, batch, classes), np.float64)
    for b in range(batch):
        length = int(lengths[b])
        if length <= 0:
            raise RuntimeError(f"For 'CTCLoss, the 'sequence_length' must be greater than 0, but got {length}.")
        if len(targets[b]) > length:
            if ignore_longer_outputs_than_inputs:  # the kernel leaves such a sample's loss infinite, its gradient 0
                loss[b] = np.inf
                continue
            raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater than output size(label "
                               f"length), but got sequence length: {length} and label length: {len(targets[b])}")
        alpha, beta, ll = _alpha_beta(lp[:, b], targets[b], blank, length, ctc_merge_repeated)
        loss[b] = -ll
        ext = np.full(2 * len(targets[b]) + 1, blank, np.int64)
        ext[1::2] = targets[b]
        ab = np.full((t_max, classes), _NEG_INF)
        for s, k in enumerate(ext):
            ab[:, k] = _lse(ab[:, k], alpha[:, s] + beta[:, s])
        with np.errstate(over="ignore", invalid="ignore"):
            gb = np.exp(lp[:, b]) - np.exp(ab - ll - lp[:, b])
        gb[length:] = 0
        grad[:, b] = gb
    return loss.astype(x.dtype), grad.astype(x.dtype)


def _ctc_backward(g: Any, out: Any) -> Tuple[Any, None, None, None]:
    g_loss = g[0] if isinstance(g, tuple) else g
    return out[1] * g_loss.reshape((1, -1, 1)), None, None, None


def _check_ctc(x: Any, labels_indices: Any, labels_values: Any, sequence_length: Any,
               preprocess_collapse_repeated: bool, ctc_merge_repeated: bool,
               ignore_longer_outputs_than_inputs: bool) -> None:
    op = "CTCLoss"
    for name, v in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                    ("ctc_merge_repeated", ctc_merge_repeated),
                    ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
        _bool(op, name, v)
    ts = [check_tensor(v, op, n) for v, n in ((x, "x"), (labels_indices, "labels_indices"),
                                              (labels_values, "labels_values"), (sequence_length, "sequence_length"))]
    if ts[0].dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For primitive[{op}], the input argument[inputs] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{ts[0].dtype}].")
    _dtype(op, "labels_indices", ts[1], mstype.int64)
    _dtype(op, "labels_values", ts[2], mstype.int32)
    _dtype(op, "sequence_length", ts[3], mstype.int32)
    if ts[0].ndim != 3:
        raise ValueError(f"For '{op}', the dimension of 'inputs' must be 3, but got {ts[0].ndim}.")
    if ts[1].ndim != 2:
        raise ValueError(f"For '{op}', the dimension of 'labels_indices' must be 2, but got {ts[1].ndim}.")
    values, classes = np.asarray(ts[2]._data), ts[0].shape[2]
    if values.size and (values.min() < 0 or values.max() >= classes):
        raise ValueError(f"For '{op}', every value of 'labels_values' must be in [0, {classes}), but got "
                         f"{values.min()} to {values.max()}.")


_CTC = Op("_ctc_loss_kernel", "x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False, "
          "ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False", _ctc_forward, _ctc_backward, inputs=4,
          outputs=2, dtype="any", label="CTCLoss")


def ctc_loss_sparse(x: Any, labels_indices: Any, labels_values: Any, sequence_length: Any,
                    preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
                    ignore_longer_outputs_than_inputs: bool = False) -> Tuple[Tensor, Tensor]:
    """``ops.CTCLoss``'s forward: the loss (N,) and its gradient with respect to ``x`` (module docstring)."""
    _check_ctc(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated, ctc_merge_repeated,
               ignore_longer_outputs_than_inputs)
    return F._ctc_loss_kernel(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated,
                              ctc_merge_repeated, ignore_longer_outputs_than_inputs)


# -- edit distance -------------------------------------------------------------------------------------------------
def _levenshtein(a: List[Any], b: List[Any]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _groups(indices: np.ndarray, values: np.ndarray) -> Dict[Tuple[int, ...], List[Any]]:
    out: Dict[Tuple[int, ...], List[Any]] = {}
    for row, v in zip(indices.tolist(), values.tolist()):
        out.setdefault(tuple(row[:-1]), []).append(v)
    return out


def edit_distance(hypothesis_indices: Any, hypothesis_values: Any, hypothesis_shape: Any, truth_indices: Any,
                  truth_values: Any, truth_shape: Any, normalize: bool = True) -> Tensor:
    """``ops.EditDistance``'s forward (module docstring)."""
    op = "EditDistance"
    _bool(op, "normalize", normalize)
    hi, hv, hs, ti, tv, ts = (check_tensor(v, op, n) for v, n in (
        (hypothesis_indices, "hypothesis_indices"), (hypothesis_values, "hypothesis_values"),
        (hypothesis_shape, "hypothesis_shape"), (truth_indices, "truth_indices"), (truth_values, "truth_values"),
        (truth_shape, "truth_shape")))
    if hv.dtype != tv.dtype:
        raise TypeError(f"Dtype of hypothesis_values and truth_values must be the same, but got hypothesis_values: "
                        f"Tensor[{hv.dtype}], truth_values: Tensor[{tv.dtype}].")
    h_shape, t_shape = np.asarray(hs._data).reshape(-1), np.asarray(ts._data).reshape(-1)
    h_idx, t_idx = np.asarray(hi._data), np.asarray(ti._data)
    for name, shape, idx in (("hypothesis", h_shape, h_idx), ("truth", t_shape, t_idx)):
        if idx.ndim != 2 or shape.shape[0] != idx.shape[1]:
            raise ValueError(f"{name}_shape should be equal to {name}_indices shape[1] but got {name}_shape: "
                             f"{shape.shape[0]} and {name}_indices shape[1]: {idx.shape[1] if idx.ndim == 2 else 0}.")
    if h_shape.shape[0] != t_shape.shape[0]:
        raise ValueError(f"For '{op}', the rank of 'hypothesis_shape' and 'truth_shape' must be equal, but got "
                         f"{h_shape.shape[0]} and {t_shape.shape[0]}.")
    out_shape = tuple(int(v) for v in np.maximum(h_shape, t_shape)[:-1])
    hyp, truth = _groups(h_idx, np.asarray(hv._data)), _groups(t_idx, np.asarray(tv._data))
    out = np.zeros(out_shape, np.float32)
    for pos in np.ndindex(*out_shape):
        a, b = hyp.get(pos, []), truth.get(pos, [])
        d = float(_levenshtein(a, b))
        if normalize:
            d = (np.inf if a else 0.0) if not b else d / len(b)
        out[pos] = d
    return Tensor._wrap(out)


OPS: List[Op] = [
    _CTC,
    Op("_ctc_loss_v1", "x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False, "
       "ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False", fn=ctc_loss_sparse, inputs=4,
       prim="CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True, "
            "ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values, sequence_length) -> x, "
            "labels_indices, labels_values, sequence_length, preprocess_collapse_repeated, ctc_merge_repeated, "
            "ignore_longer_outputs_than_inputs"),
    Op("_edit_distance", "hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values, "
       "truth_shape, normalize=True", fn=edit_distance, inputs=6,
       prim="EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, "
            "truth_values, truth_shape) -> hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, "
            "truth_values, truth_shape, normalize"),
]

_I64 = "ms.Tensor(np.array({}, np.int64))"
EXAMPLES = {
    "CTCLoss": ("import numpy as np", "x = ms.Tensor(np.zeros((2, 1, 2), np.float32))",
                "loss, grad = ops.CTCLoss()(x, " + _I64.format("[[0, 0]]") + ", ms.Tensor(np.array([0], np.int32)), "
                "ms.Tensor(np.array([2], np.int32)))", "loss", "[0.2876821]"),
    "EditDistance": ("import numpy as np",
                     "d = ops.EditDistance()(" + _I64.format("[[0, 0], [0, 1]]") + ", ms.Tensor([1, 2]), "
                     + _I64.format("[1, 2]") + ", " + _I64.format("[[0, 0]]") + ", ms.Tensor([2]), "
                     + _I64.format("[1, 1]") + ")", "d", "[1.]"),
}
