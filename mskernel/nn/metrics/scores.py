"""Scores of one batch against its targets: ``Perplexity``, ``Dice``, ``CosineSimilarity`` and ``BleuScore``.

Example:
    >>> import numpy as np
    >>> print(round(Dice()(np.array([[0.0, 1.0]]), np.array([[0.0, 1.0]])), 4))
    1.0
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["Perplexity", "Dice", "CosineSimilarity", "BleuScore"]


def _of_type(value: Any, name: str, types: tuple, tname: str) -> Any:
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"The type of '{name}' should be '{tname}', but got type '{type(value).__name__}'.")
    return value


def _needs_update(is_update: bool) -> None:
    if not is_update:
        raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class Perplexity(Metric):
    """``Perplexity(ignore_label=None)``: ``exp`` of the mean negative log-probability the predictions give the
    labels (probabilities below 1e-10 count as 1e-10; labels equal to ``ignore_label`` are skipped).

    Example:
        >>> import numpy as np
        >>> m = Perplexity(); m.update(np.array([[0.2, 0.8], [0.5, 0.5]]), np.array([1, 0])); round(m.eval(), 6)
        1.581139
    """

    def __init__(self, ignore_label: Any = None) -> None:
        super().__init__()
        self.ignore_label = ignore_label if ignore_label is None else _of_type(ignore_label, "ignore_label", (int,),
                                                                               "int")
        self.clear()

    def clear(self) -> None:
        self._nll = 0.0
        self._count = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        pred, label = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should have "
                               f"the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(-1)
        picked = np.squeeze(pred.reshape(label.size, -1)[np.arange(label.size), label.astype(int)])
        count = picked.size
        if self.ignore_label is not None:
            ignored = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignored)
            picked = picked * (1 - ignored) + ignored
        self._nll -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._count += count

    def eval(self) -> float:
        if self._count == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._nll / self._count)


class Dice(Metric):
    """``Dice(smooth=1e-05)``: per batch ``2 * <pred, y> / (<pred, pred> + <y, y> + smooth)``, summed over the
    batches and divided by the samples seen.

    Example:
        >>> import numpy as np
        >>> m = Dice(); m.update(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([[0, 1], [1, 0]])); round(m.eval(), 6)
        0.334727
    """

    def __init__(self, smooth: float = 1e-05) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"The 'smooth' must be a positive float, but got {smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._coeff_sum = 0.0
        self._samples = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._samples += y.shape[0]
        if pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {pred.shape}, true value shape: "
                             f"{y.shape}.")
        p, t = pred.ravel(), y.ravel()
        self._coeff_sum += 2 * float(p @ t) / float(p @ p + t @ t + self.smooth)

    def eval(self) -> float:
        if self._samples == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._coeff_sum / float(self._samples)


class CosineSimilarity(Metric):
    """``CosineSimilarity(similarity='cosine', reduction='none', zero_diagonal=True)``: the matrix of the rows'
    cosines (or dot products), its diagonal zeroed, optionally reduced over the last axis.

    Example:
        >>> import numpy as np
        >>> m = CosineSimilarity(); m.update(np.array([[1.0, 0.0], [1.0, 1.0]])); m.eval().round(4).tolist()
        [[0.0, 0.7071], [0.7071, 0.0]]
    """

    def __init__(self, similarity: str = "cosine", reduction: str = "none", zero_diagonal: bool = True) -> None:
        super().__init__()
        for name, value, allowed in (("similarity", similarity, ["dot", "cosine"]),
                                     ("reduction", reduction, ["none", "sum", "mean"])):
            _of_type(value, name, (str,), "str")
            if value not in allowed:
                raise ValueError(f"The '{name}' must be str and must be in '{allowed}', but got '{value}'.")
        self.similarity, self.reduction = similarity, reduction
        self.zero_diagonal = _of_type(zero_diagonal, "zero_diagonal", (bool,), "bool")
        self.clear()

    def clear(self) -> None:
        self.sqr_mtx_res: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        x = self._convert_data(inputs)
        if self.similarity == "cosine":
            x = x / np.linalg.norm(x, ord=2, axis=1)[:, None]
        self.sqr_mtx_res = x @ x.T
        self._is_update = True

    def eval(self) -> Any:
        _needs_update(self._is_update)
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        if self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


def _ngrams(words: Sequence[Any], n: int) -> Counter:
    """Every k-gram of ``words`` for k = 1..n, counted."""
    return Counter(tuple(words[i:i + k]) for k in range(1, n + 1) for i in range(len(words) - k + 1))


class BleuScore(Metric):
    """``BleuScore(n_gram=4, smooth=False)``: BLEU of candidate sentences against their references (clipped
    n-gram precisions, their geometric mean, the brevity penalty of the closest reference lengths).

    Example:
        >>> m = BleuScore(n_gram=2); m.update([["a", "cat", "sat"]], [[["a", "cat", "sat", "down"]]])
        >>> round(float(m.eval()), 6)
        0.716531
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        self.n_gram = _of_type(n_gram, "n_gram", (int,), "int")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        self.smooth = _of_type(smooth, "smooth", (bool,), "bool")
        self.clear()

    def clear(self) -> None:
        self._matched = np.zeros(self.n_gram)
        self._total = np.zeros(self.n_gram)
        self._cand_len = 0.0
        self._ref_len = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but "
                             f"got {len(inputs)}.")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for cand, refs in zip(candidates, references):
            self._cand_len += len(cand)
            lengths: List[int] = [len(r) for r in refs]
            gaps = [abs(len(cand) - n) for n in lengths]
            self._ref_len += lengths[gaps.index(min(gaps))]
            counts = _ngrams(cand, self.n_gram)
            best: Counter = Counter()
            for r in refs:
                best |= _ngrams(r, self.n_gram)
            for gram, k in (counts & best).items():
                self._matched[len(gram) - 1] += k
            for gram, k in counts.items():
                self._total[len(gram) - 1] += k
        self._is_update = True

    def eval(self) -> Any:
        _needs_update(self._is_update)
        if min(self._matched) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._matched + 1) / (self._total + 1)
        else:
            precision = self._matched / self._total
        mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        penalty: Tuple[Any, ...] = (np.array(1.0) if self._cand_len > self._ref_len
                                    else np.exp(1 - np.array(self._ref_len) / np.array(self._cand_len)),)
        return penalty[0] * mean
