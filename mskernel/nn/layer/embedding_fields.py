"""``nn.MultiFieldEmbeddingLookup``: an :class:`~mskernel.nn.EmbeddingLookup` whose looked-up rows, each scaled by
its value, are pooled per field.

``construct(input_indices, input_values, field_ids)``, each ``(batch, seq)``: row ``table[input_indices[b, s]]``
(zeros outside the table; ``max_norm`` clips its length) times ``input_values[b, s]`` goes to field
``field_ids[b, s]`` of example ``b``; the output ``(batch, field_size, embedding_size)`` is per field the ``'SUM'``,
the ``'MEAN'`` (the sum divided by the sum of ``|value|``, 0 where that is 0) or the ``'MAX'`` (entries of value 0
left out; a field with no nonzero value gives 0). A field id outside ``[0, field_size)`` lands in the neighbouring
example's fields, as MindSpore's segment arithmetic does (out of the batch it is dropped).

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.MultiFieldEmbeddingLookup(4, 2, 2, param_init="ones")
    >>> out = net(ms.Tensor([[0, 1, 2]], ms.int32), ms.Tensor([[1.0, 2.0, 0.5]]), ms.Tensor([[0, 0, 1]], ms.int32))
    >>> print(out)
    [[[3.  3. ]
      [0.5 0.5]]]
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.layer.embedding import EmbeddingLookup
from mskernel.ops import DivNoNan
from mskernel.ops import functional as F

__all__ = ["MultiFieldEmbeddingLookup"]

_LOWEST = -3.402823466e+38


def _check_2d(cls: str, name: str, t: Tensor) -> None:
    if len(t.shape) != 2:
        raise ValueError(f"For '{cls}', the dimension of '{name}' must be 2d, but got {len(t.shape)}")


def _check_dtype(cls: str, name: str, t: Tensor, allowed: Sequence[Any]) -> None:
    if t.dtype not in allowed:
        want = str(allowed[0]) if len(allowed) == 1 else "one of [" + ", ".join(repr(a) for a in allowed) + "]"
        raise TypeError(f"For '{cls}', the '{name}' should be {want}, but got '{t.dtype!r}'.")


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """``MultiFieldEmbeddingLookup(vocab_size, embedding_size, field_size, param_init='normal', target='CPU',
    slice_mode='batch_slice', feature_num_list=None, max_norm=None, sparse=True, operator='SUM', dtype=float32)``.

    Example:
        >>> import mskernel as ms
        >>> net = MultiFieldEmbeddingLookup(4, 1, 2, param_init="ones", operator="MEAN")
        >>> print(net(ms.Tensor([[0, 1]], ms.int32), ms.Tensor([[2.0, 4.0]]), ms.Tensor([[1, 1]], ms.int32)))
        [[[0.]
          [1.]]]
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MAX = "MAX"
    OPERATOR_MEAN = "MEAN"

    def __init__(self, vocab_size: int, embedding_size: int, field_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice", feature_num_list: Optional[tuple] = None,
                 max_norm: Optional[float] = None, sparse: bool = True, operator: str = "SUM",
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        cls = self.cls_name
        if isinstance(field_size, bool) or not isinstance(field_size, int) or field_size <= 0:
            raise ValueError(f"For '{cls}', the 'field_size' must be int and must > 0, but got '{field_size}' with "
                             f"type '{type(field_size).__name__}'.")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For '{cls}', the 'operator' must be str and must be in '['SUM', 'MAX', 'MEAN']', but "
                             f"got '{operator}'.")
        self.field_size, self.operator, self.feature_num_list = field_size, operator, feature_num_list

    def construct(self, input_indices: Tensor, input_values: Tensor, field_ids: Tensor) -> Tensor:
        cls = self.cls_name
        for name, t in (("input_indices", input_indices), ("input_values", input_values), ("field_ids", field_ids)):
            _check_2d(cls, name, t)
        _check_dtype(cls, "input_indices", input_indices, (mstype.int32, mstype.int64))
        _check_dtype(cls, "input_values", input_values, (mstype.float32,))
        _check_dtype(cls, "field_ids", field_ids, (mstype.int32,))
        batch, seq = input_indices.shape
        segments = batch * self.field_size
        offsets = F.reshape(F.arange(0, segments, self.field_size, dtype=mstype.int32), (batch, 1))
        ids = F.reshape(field_ids + offsets, (-1,))
        rows = super().construct(input_indices)                                   # (batch, seq, embedding)
        weights = F.reshape(input_values, (batch, seq, 1))
        embedding = F.reshape(weights * rows, (batch * seq, -1))
        if self.operator == "MAX":
            drop = F.cast(F.equal(F.reshape(weights, (-1, 1)), 0), mstype.float32) * _LOWEST
            merged = F.unsorted_segment_max(embedding + drop, ids, segments)
            filled = F.unsorted_segment_sum(F.abs(F.reshape(input_values, (-1,))), ids, segments)
            merged = merged * F.expand_dims(F.cast(F.not_equal(filled, 0.0), mstype.float32), -1)
        else:
            merged = F.unsorted_segment_sum(embedding, ids, segments)
            if self.operator == "MEAN":
                count = F.unsorted_segment_sum(F.abs(F.reshape(input_values, (-1,))), ids, segments)
                merged = DivNoNan()(merged, F.expand_dims(count, -1))
        return F.reshape(merged, (batch, self.field_size, -1))
