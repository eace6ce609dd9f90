"""``OcclusionSensitivity``: how much a classifier's score for the label drops when a patch around each element
of the input is covered.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.Dense(2, 2, weight_init=ms.Tensor(np.eye(2, dtype=np.float32)), bias_init="zeros")
    >>> m = OcclusionSensitivity(margin=1); m.update(net, np.array([[0.5, 2.0]], np.float32), np.array(1))
    >>> m.eval().tolist()
    [0.0, 2.0]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _typed(value: Any, name: str, types: tuple, text: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"The type of '{name}' should be '{text}', but got type '{type(value).__name__}'.")
    return value


class OcclusionSensitivity(Metric):
    """``OcclusionSensitivity(pad_val=0.0, margin=2, n_batch=128, b_box=None)``: ``update(model, x, label)`` with
    one sample ``x``; ``eval()`` gives, per element (or per element of the bounding box ``b_box``, given as
    [min0, max0, min1, max1, ...]), the model's score for ``label`` minus its score with the elements from
    ``i - margin`` to ``i + margin - 1`` set to ``pad_val``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(3, 1, weight_init=ms.Tensor([[1.0, 2.0, 3.0]]), bias_init="zeros")
        >>> OcclusionSensitivity(margin=1)(net, np.ones((1, 3), np.float32), np.array(0)).tolist()
        [1.0, 3.0, 5.0]
    """

    def __init__(self, pad_val: float = 0.0, margin: Any = 2, n_batch: int = 128, b_box: Any = None) -> None:
        super().__init__()
        self.pad_val = _typed(pad_val, "pad_val", (float,), "float")
        self.margin = _typed(margin, "margin", (int, list), "int, list")
        self.n_batch = _typed(n_batch, "n_batch", (int,), "int")
        self.b_box = b_box if b_box is None else _typed(b_box, "b_box", (list,), "list")
        self.clear()

    def clear(self) -> None:
        self._baseline: Any = 0
        self._scores: Any = 0
        self._is_update = False

    def _box(self, shape: np.ndarray) -> Any:
        if self.b_box is None:
            return None, None
        if len(self.b_box) != 2 * len(shape):
            raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and lower for all "
                             f"dimensions (except batch number), and the length of 'b_box' must be twice as long as "
                             f"predicted value's (except batch number), but got 'b_box' length {len(self.b_box)}, "
                             f"predicted value length (except batch number) {len(shape)}.")
        lo, hi = np.array(self.b_box[::2]), np.array(self.b_box[1::2])
        lo[lo < 0] = 0
        hi[hi < 0] = shape[hi < 0] - 1
        if np.any(hi >= shape):
            raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for "
                             "all values.")
        if np.any(lo > hi):
            raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding "
                             "box for all values.")
        return lo, hi

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, predicted "
                             f"value, label), but got {len(inputs)}.")
        from mskernel.nn.cell import Cell
        model, x, label = inputs[0], self._convert_data(inputs[1]), self._convert_data(inputs[2])
        if not isinstance(model, Cell):
            raise TypeError(f"The type of 'model' should be 'Cell', but got type '{type(model).__name__}'.")
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {x.shape[0]}.")
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same "
                               f"as the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{x.shape[0]}.")
        shape = np.array(x.shape[1:])
        lo, hi = self._box(shape)
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        out_shape = shape if lo is None else hi - lo + 1
        covered: List[np.ndarray] = []
        scores: List[np.ndarray] = []
        total = int(np.prod(out_shape))
        for i in range(total):
            idx = np.unravel_index(i, out_shape)
            if lo is not None:
                idx = tuple(np.asarray(idx) + lo)
            window = tuple(slice(max(0, k - self.margin), min(n, k + self.margin)) for k, n in zip(idx, shape))
            img = x.copy()
            img[(...,) + window] = self.pad_val
            covered.append(img)
            if len(covered) == self.n_batch or i == total - 1:
                out = model(Tensor(np.vstack(covered))).asnumpy()
                scores.append(out[np.arange(len(covered))[:, None], np.full((len(covered), 1), label).reshape(
                    len(covered), -1)])
                covered = []
        self._scores = np.vstack(scores).reshape(out_shape)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._scores)
