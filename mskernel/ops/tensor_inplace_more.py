"""More of Tensor's op methods: the in-place ``addmm_``, ``index_copy_`` and ``scatter_`` (torch's meaning; the
result written into the tensor by :func:`~mskernel.ops.inplace.inplace_update`, so it takes the result's place
in the graph), ``fills`` (a new tensor of the same shape and dtype holding one value), ``top_k`` (values and int32
indices of the k largest along the last axis), ``reverse`` (flipped along ``axis``) and ``index`` (torch's
advanced indexing by a sequence of index tensors). MindSpore 2.10's CPU wheel has no kernel for the in-place
three, ``fills`` or ``index``; ``top_k`` and ``reverse`` it runs, and mskernel gives what it gives.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(x.reverse([1]), x.top_k(1)[1].dtype)
    [[2. 1.]
     [4. 3.]] Int32
"""
from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import functional as F
from mskernel.ops.inplace import inplace_update

__all__ = ["METHODS", "attach"]


def addmm_(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``self = beta * self + alpha * (mat1 @ mat2)`` in place; returns ``self``.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 1.0]])
        >>> _ = x.addmm_(ms.Tensor([[1.0], [2.0]]).T, ms.Tensor([[1.0, 0.0], [0.0, 1.0]]), beta=2, alpha=0.5)
        >>> print(x)
        [[2.5 3. ]]
    """
    return inplace_update(self, F.addmm(self, mat1, mat2, beta=beta, alpha=alpha), "addmm_")


def _index_tensor(name: str, index: Any) -> np.ndarray:
    if not isinstance(index, Tensor) or index._data.dtype.kind not in "iu":
        raise TypeError(f"For '{name}', the 'index' must be a Tensor of int32 or int64, but got "
                        f"{getattr(index, 'dtype', type(index).__name__)}.")
    return index._data.astype(np.int64)


def index_copy_(self: Tensor, dim: int, index: Tensor, tensor: Tensor) -> Tensor:
    """Copy the slices of ``tensor`` along ``dim`` into ``self`` at the positions ``index`` (1-D) names, in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[0.0, 0.0, 0.0]])
        >>> print(x.index_copy_(1, ms.Tensor([2, 0]), ms.Tensor([[5.0, 7.0]])))
        [[7. 0. 5.]]
    """
    idx = _index_tensor("index_copy_", index).reshape(-1)
    d = dim + self.ndim if dim < 0 else dim
    if not 0 <= d < max(self.ndim, 1):
        raise ValueError(f"For 'index_copy_', the 'dim' must be in [{-self.ndim}, {self.ndim}), but got {dim}.")
    n = self.shape[d] if self.ndim else 1
    if np.any((idx < -n) | (idx >= n)):
        raise ValueError(f"For 'index_copy_', the values of 'index' must be in [{-n}, {n}), but got "
                         f"{idx.tolist()}.")
    src = tensor._data.astype(self._data.dtype)
    if src.shape[d] != idx.size:
        raise ValueError(f"For 'index_copy_', the 'tensor' must have {idx.size} slices along dim {dim} (the length "
                         f"of 'index'), but got shape {list(src.shape)}.")
    out = self._data.copy()
    moved, src_moved = np.moveaxis(out, d, 0), np.moveaxis(src, d, 0)
    for k, i in enumerate(idx):
        moved[i] = src_moved[k]
    return inplace_update(self, Tensor._wrap(out), "index_copy_")


def scatter_(self: Tensor, dim: int, index: Tensor, src: Any) -> Tensor:
    """``self[index[i][j]][j] = src[i][j]`` along ``dim`` (for 2-D, ``dim=0``), in place; ``src`` a Tensor or a
    number written at every index.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        >>> print(x.scatter_(1, ms.Tensor([[2], [0]]), 9.0))
        [[0. 0. 9.]
         [9. 0. 0.]]
    """
    _index_tensor("scatter_", index)
    if not isinstance(src, Tensor):
        src = Tensor._wrap(np.full(index.shape, src, self._data.dtype))
    return inplace_update(self, F.scatter(self, dim, index, src.astype(self.dtype)), "scatter_")


def fills(self: Tensor, value: Any) -> Tensor:
    """A new tensor of this one's shape and dtype, every element ``value`` (a number or a 0-D Tensor).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 2]], ms.int32).fills(3.7))
        [[3 3]]
    """
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"For 'fills', the 'value' must be a number or a 0-D Tensor, but got a Tensor of shape "
                             f"{list(value.shape)}.")
        value = value._data.item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For 'fills', the 'value' must be int, float or a 0-D Tensor, but got "
                        f"{type(value).__name__}.")
    return Tensor._wrap(np.full(self.shape, value).astype(self._data.dtype))


def top_k(self: Tensor, k: int, sorted: bool = True) -> Tuple[Tensor, Tensor]:
    """The ``k`` largest values along the last axis and their int32 indices (``ops.TopK``).

    Example:
        >>> import mskernel as ms
        >>> v, i = ms.Tensor([1.0, 3.0, 2.0]).top_k(2); print(v, i)
        [3. 2.] [1 2]
    """
    values, indices = F.topk(self, k, -1, True, sorted)
    return values, F.cast(indices, mstype.int32)


def reverse(self: Tensor, axis: Sequence[int]) -> Tensor:
    """The tensor flipped along the axes ``axis`` (``ops.ReverseV2``).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1, 2, 3]).reverse([0]))
        [3 2 1]
    """
    return F.reverse(self, axis)


def index(self: Tensor, indices: Sequence[Any]) -> Tensor:
    """torch's ``index``: ``self[indices[0], indices[1], ...]`` with index tensors broadcast together (advanced
    indexing; ``None`` keeps a whole axis).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.index([ms.Tensor([1, 0]), ms.Tensor([1, 1])]))
        [4. 2.]
    """
    if not isinstance(indices, (list, tuple)):
        raise TypeError(f"For 'index', the 'indices' must be a list or tuple of Tensors, but got "
                        f"{type(indices).__name__}.")
    if len(indices) > self.ndim:
        raise ValueError(f"For 'index', too many indices for a tensor of {self.ndim} dims: got {len(indices)}.")
    key = tuple(slice(None) if i is None else i for i in indices)
    return F.getitem(self, key)


#: name -> method
METHODS: Dict[str, Any] = {"addmm_": addmm_, "index_copy_": index_copy_, "scatter_": scatter_, "fills": fills,
                           "top_k": top_k, "reverse": reverse, "index": index}


def attach() -> None:
    """Put :data:`METHODS` on Tensor (never over a name it has).

    Example:
        >>> import mskernel as ms
        >>> attach(); print(ms.Tensor([1.0, 2.0]).fills(0.5))
        [0.5 0.5]
    """
    for name, fn in METHODS.items():
        if name not in vars(Tensor):
            setattr(Tensor, name, fn)
