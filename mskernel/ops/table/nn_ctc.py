"""Op table: connectionist temporal classification: ``ops.ctc_loss`` (with ``ops.CTCLossV2``) and
``ops.ctc_greedy_decoder`` (with ``ops.CTCGreedyDecoder``).

``ctc_loss`` takes log-probabilities (T, N, C), padded targets (N, S) and the lengths; it returns the negative
log-likelihood of each target (reduced) and the forward variables ``log_alpha`` (N, T, 2 * S + 1), computed in
numpy in log space. Its gradient with respect to the log-probabilities is the one MindSpore's kernel gives (as
for log-probabilities out of a log-softmax): ``exp(lp) - exp(log(alpha * beta summed per class) + nll - lp)``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> lp = ms.Tensor(np.log(np.full((2, 1, 2), 0.5, np.float32)))
    >>> loss, _ = ops.ctc_loss(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1]), reduction='none')
    >>> print(loss)
    [0.2876821]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_NEG_INF = -np.inf


def _lse(*xs: np.ndarray) -> np.ndarray:
    stack = np.stack(np.broadcast_arrays(*xs))
    top = np.max(stack, axis=0)
    safe = np.where(np.isfinite(top), top, 0)
    with np.errstate(divide="ignore"):
        return np.where(np.isfinite(top), safe + np.log(np.sum(np.exp(stack - safe), axis=0)), top)


def _extended(target: np.ndarray, blank: int) -> np.ndarray:
    ext = np.full(2 * len(target) + 1, blank, np.int64)
    ext[1::2] = target
    return ext


def _alpha_beta(lp: np.ndarray, target: np.ndarray, blank: int, length: int, merge: bool = True
                ) -> Tuple[np.ndarray, np.ndarray, float]:
    """Forward and backward variables (T, 2L + 1) of one sample (``lp`` (T, C)) and its log-likelihood.

    Without ``merge`` (TensorFlow's ``ctc_merge_repeated=False``) a path never stays on a label, so a repeated
    label in a path is two labels, and a label may follow the same label without a blank between them."""
    ext = _extended(target, blank)
    n = len(ext)
    t_max = lp.shape[0]
    skip = np.zeros(n, bool)
    skip[2:] = (ext[2:] != blank) & ((ext[2:] != ext[:-2]) | (not merge))
    stay = (ext == blank) | merge
    alpha = np.full((t_max, n), _NEG_INF, lp.dtype)
    beta = np.full((t_max, n), _NEG_INF, lp.dtype)
    if length == 0:
        return alpha, beta, _NEG_INF
    alpha[0, 0] = lp[0, ext[0]]
    if n > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, length):
        prev = alpha[t - 1]
        one = np.concatenate([[_NEG_INF], prev[:-1]])
        two = np.where(skip, np.concatenate([[_NEG_INF, _NEG_INF], prev[:-2]]), _NEG_INF)
        alpha[t] = _lse(np.where(stay, prev, _NEG_INF), one, two) + lp[t, ext]
    last = length - 1
    beta[last, n - 1] = lp[last, ext[n - 1]]
    if n > 1:
        beta[last, n - 2] = lp[last, ext[n - 2]]
    skip_back = np.zeros(n, bool)
    skip_back[:-2] = skip[2:]
    for t in range(last - 1, -1, -1):
        nxt = beta[t + 1]
        one = np.concatenate([nxt[1:], [_NEG_INF]])
        two = np.where(skip_back, np.concatenate([nxt[2:], [_NEG_INF, _NEG_INF]]), _NEG_INF)
        beta[t] = _lse(np.where(stay, nxt, _NEG_INF), one, two) + lp[t, ext]
    ll = float(_lse(alpha[last, n - 1], alpha[last, n - 2]) if n > 1 else alpha[last, n - 1])
    return alpha, beta, ll


def _ctc_forward(log_probs: np.ndarray, targets: np.ndarray, input_lengths: np.ndarray, target_lengths: np.ndarray,
                 blank: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    t_max, batch, _ = log_probs.shape
    targets = targets.reshape(batch, -1)
    s_max = targets.shape[1]
    nll = np.zeros(batch, log_probs.dtype)
    log_alpha = np.full((batch, t_max, 2 * s_max + 1), _NEG_INF, log_probs.dtype)
    for b in range(batch):
        tl = int(target_lengths[b])
        alpha, _, ll = _alpha_beta(log_probs[:, b], targets[b, :tl], blank, int(input_lengths[b]))
        log_alpha[b, :, :alpha.shape[1]] = alpha
        nll[b] = -ll
    return nll, log_alpha


def _ctc_grad(g: Any, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int,
              zero_infinity: bool) -> Any:
    """The kernel's gradient; a sample whose loss is infinite gets zeros with ``zero_infinity``, NaN without."""
    lp = np.asarray(log_probs._data)
    t_max, batch, c = lp.shape
    tg = np.asarray(targets._data).reshape(batch, -1)
    il, tl = np.asarray(input_lengths._data).reshape(-1), np.asarray(target_lengths._data).reshape(-1)
    g_nll = np.asarray(g[0]._data if isinstance(g, tuple) else g._data).reshape(-1)
    grad = np.zeros_like(lp)
    for b in range(batch):
        length = int(il[b])
        alpha, beta, ll = _alpha_beta(lp[:, b], tg[b, :int(tl[b])], blank, length)
        ext = _extended(tg[b, :int(tl[b])], blank)
        ab = np.full((t_max, c), _NEG_INF, lp.dtype)
        for s, k in enumerate(ext):
            ab[:, k] = _lse(ab[:, k], alpha[:, s] + beta[:, s])
        with np.errstate(over="ignore", invalid="ignore"):
            gb = np.exp(lp[:, b]) - np.exp(ab - ll - lp[:, b])
        gb[length:] = 0
        if not np.isfinite(ll):
            gb[:] = 0 if zero_infinity else np.nan
        grad[:, b] = gb * g_nll[b]
    return Tensor._wrap(grad.astype(lp.dtype))


def _ctc_v2_forward(log_probs: np.ndarray, targets: np.ndarray, input_lengths: np.ndarray,
                    target_lengths: np.ndarray, blank: int = 0, zero_infinity: bool = False
                    ) -> Tuple[np.ndarray, np.ndarray]:
    return _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank)


def ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tuple[Tensor, Tensor]:
    op = "ctc_loss"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op}', the 'reduction' must be in ['none', 'mean', 'sum'], but got {reduction}.")
    lp = check_tensor(log_probs, op, "log_probs")
    if lp.ndim != 3:
        raise ValueError(f"For '{op}', the dimension of 'log_probs' must be 3, but got {lp.ndim}.")
    if not 0 <= blank < lp.shape[2]:
        raise ValueError(f"For '{op}', the 'blank' must be in [0, {lp.shape[2]}), but got {blank}.")
    ts = [check_tensor(v, op, n) for v, n in ((targets, "targets"), (input_lengths, "input_lengths"),
                                              (target_lengths, "target_lengths"))]
    # zero_infinity only zeroes the gradient of an infinite loss: the CPU kernel leaves the loss infinite
    nll, log_alpha = F._ctc_v2(lp, *ts, blank, zero_infinity)
    if reduction == "mean":
        tl = F.cast(F.clamp(ts[2], min=1), nll.dtype)
        nll = F.mean(nll / tl)
    elif reduction == "sum":
        nll = F.sum(nll)
    return nll, log_alpha


def _ctc_loss_v2(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
                 reduction: str = "none", zero_infinity: bool = False) -> Tuple[Tensor, Tensor]:
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)


def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True) -> Tuple[Tensor, ...]:
    op = "CTCGreedyDecoder"
    x = check_tensor(inputs, op, "inputs")
    if x.ndim != 3:
        raise ValueError(f"For '{op}', the dimension of 'inputs' must be 3, but got {x.ndim}.")
    lengths = np.asarray(check_tensor(sequence_length, op, "sequence_length")._data).reshape(-1)
    data = np.asarray(x._data)
    t_max, batch, classes = data.shape
    if lengths.shape[0] != batch:
        raise ValueError(f"For '{op}', the length of 'sequence_length' must equal the batch size {batch}, but got "
                         f"{lengths.shape[0]}.")
    if np.any(lengths > t_max):
        raise ValueError(f"For '{op}', all the values of 'sequence_length' must be less than or equal to {t_max}, "
                         f"but got {lengths.tolist()}.")
    blank = classes - 1
    indices: List[List[int]] = []
    values: List[int] = []
    log_prob = np.zeros((batch, 1), data.dtype)
    longest = 0
    for b in range(batch):
        steps = data[:int(lengths[b]), b]
        best = np.argmax(steps, axis=1) if len(steps) else np.zeros(0, np.int64)
        log_prob[b, 0] = -np.sum(np.max(steps, axis=1)) if len(steps) else 0
        out: List[int] = []
        prev = -1
        for k in best:
            if k != blank and not (merge_repeated and k == prev):
                out.append(int(k))
            prev = k
        indices += [[b, i] for i in range(len(out))]
        values += out
        longest = max(longest, len(out))
    return (Tensor._wrap(np.asarray(indices, np.int64).reshape(-1, 2)), Tensor._wrap(np.asarray(values, np.int64)),
            Tensor._wrap(np.asarray([batch, longest], np.int64)), Tensor._wrap(log_prob))


OPS: List[Op] = [
    Op("_ctc_v2", "log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False", _ctc_v2_forward,
       (lambda g, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity:
        _ctc_grad(g, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity), None, None, None),
       inputs=4, outputs=2, dtype="any", label="CTCLossV2"),
    Op("ctc_loss", "log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False",
       fn=ctc_loss, inputs=4),
    Op("_ctc_loss_v2", "log_probs, targets, input_lengths, target_lengths, blank=0, reduction='none', "
       "zero_infinity=False", fn=_ctc_loss_v2, inputs=4,
       prim="CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets, input_lengths, "
            "target_lengths) -> log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity"),
    Op("ctc_greedy_decoder", "inputs, sequence_length, merge_repeated=True", fn=ctc_greedy_decoder, inputs=2,
       prim="CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length) -> inputs, sequence_length, "
            "merge_repeated"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "ctc_loss": ("lp = ms.Tensor(np.log(np.full((2, 1, 2), 0.5, np.float32)))",
                 "ops.ctc_loss(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1]))[0]", "0.2876821"),
    "CTCLossV2": ("lp = ms.ops.log(ms.ops.full((2, 1, 2), 0.5, dtype=ms.float32))",
                  "ops.CTCLossV2()(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1]))[0]", "[0.2876821]"),
    "ctc_greedy_decoder": ("x = ms.Tensor([[[0.6, 0.4, 0.2]], [[0.1, 0.6, 0.0]], [[0.1, 0.7, 0.0]]])",
                           "ops.ctc_greedy_decoder(x, ms.Tensor([3]))[1]", "[0 1]"),
    "CTCGreedyDecoder": ("x = ms.Tensor([[[0.6, 0.4, 0.2]], [[0.1, 0.6, 0.0]], [[0.1, 0.7, 0.0]]])",
                         "ops.CTCGreedyDecoder(merge_repeated=False)(x, ms.Tensor([3]))[1]", "[0 1 1]"),
}
