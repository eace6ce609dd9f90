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

__all__ = ["Embedding"]


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
