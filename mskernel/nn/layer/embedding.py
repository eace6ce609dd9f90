"""``nn.Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal', dtype=mindspore.float32,
padding_idx=None)``: rows of the ``embedding_table`` parameter looked up by integer ids.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> emb = nn.Embedding(10, 4)
    >>> emb(ms.Tensor([[1, 2, 3]], ms.int32)).shape, emb.embedding_table.shape
    ((1, 3, 4), (10, 4))
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.initializer import initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.ext import EmbeddingExt  # noqa: F401  (MindSpore's nn.layer.embedding has it)
from mskernel.ops import functional as F

__all__ = ["Embedding", "EmbeddingLookup"]


class Embedding(Cell):
    """A lookup table of ``vocab_size`` vectors of ``embedding_size``; the ``padding_idx`` row starts at zero
    and gets no gradient.

    Example:
        >>> import mskernel as ms
        >>> emb = Embedding(3, 2, embedding_table="ones", padding_idx=0)
        >>> print(emb(ms.Tensor([0, 2])))
        [[0. 0.]
         [1. 1.]]
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: mstype.Type = mstype.float32,
                 padding_idx: Optional[int] = None) -> None:
        super().__init__()
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ValueError(f"For 'Embedding', the '{name}' must be a positive int, but got {v!r}.")
        if padding_idx is not None and not -vocab_size <= padding_idx < vocab_size:
            raise ValueError(f"For 'Embedding', the 'padding_idx' must be in range [{-vocab_size}, {vocab_size}), but "
                             f"got {padding_idx}.")
        self.vocab_size, self.embedding_size, self.use_one_hot = vocab_size, embedding_size, use_one_hot
        self.dtype, self.padding_idx = dtype, padding_idx
        table = initializer(embedding_table, (vocab_size, embedding_size), mstype.float32)
        if padding_idx is not None:
            table = table.init_data() if hasattr(table, "init_data") else table
            data = np.array(table.asnumpy())
            data[padding_idx] = 0
            table = Tensor(data)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        if self.use_one_hot:
            hot = F.one_hot(F.reshape(ids, (-1,)), self.vocab_size, 1.0, 0.0)
            out = F.matmul(F.cast(hot, self.embedding_table.dtype), self.embedding_table)
            return F.reshape(out, tuple(ids.shape) + (self.embedding_size,))
        return F.embedding(ids, self.embedding_table, self.padding_idx)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table!r}, dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """``nn.EmbeddingLookup``: rows of a ``(vocab_size, embedding_size)`` table (Parameter ``embedding_table``)
    by index; an index outside the table gives a row of zeros, and ``max_norm`` rescales a longer row to that L2
    norm. ``target`` ('CPU' or 'DEVICE'), ``slice_mode``, ``manual_shapes`` and ``sparse`` choose where and how
    MindSpore stores and updates the table across devices; on one CPU the lookup is the same.

    Example:
        >>> import mskernel as ms
        >>> emb = EmbeddingLookup(3, 2, param_init="ones", max_norm=1.0)
        >>> print(emb(ms.Tensor([[0, 5]])))
        [[[0.70710677 0.70710677]
          [0.         0.        ]]]
    """

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: Optional[float] = None,
                 sparse: bool = True, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ValueError(f"For 'EmbeddingLookup', the '{name}' must be a positive int, but got {v!r}.")
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For 'EmbeddingLookup', the 'target' must be str and must be in '['CPU', 'DEVICE']', "
                             f"but got {target!r}.")
        self.vocab_size, self.embedding_size, self.target = vocab_size, embedding_size, target
        self.slice_mode, self.manual_shapes, self.sparse = slice_mode, manual_shapes, sparse
        self.max_norm = max_norm
        self.embedding_table = Parameter(initializer(param_init, (vocab_size, embedding_size), dtype),
                                         name="embedding_table")

    def construct(self, indices: Tensor) -> Tensor:
        from mskernel.ops import EmbeddingLookup as _Lookup

        out = _Lookup()(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            norm = F.sqrt(F.sum(out * out, -1, True))
            out = out * F.where(norm > self.max_norm, self.max_norm / F.maximum(norm, 1e-12), F.ones_like(norm))
        return out
