"""Op table: taking tensors apart and putting them together — split, chunk, narrow, unbind/unstack, slice,
strided_slice (MindSpore's masks), unsqueeze, movedim, expand, the ``*stack`` family, meshgrid, atleast_nd,
and their primitives (``Split``, ``Unstack``, ``Slice``, ``StridedSlice``, ``Meshgrid``).

All are written with indexing, reshape and concat, so the pieces stay views where numpy allows and their
gradients come from those ops.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    >>> a, b = ops.split(x, [1, 2], 1)
    >>> print(a.shape, b.shape, ops.narrow(x, 1, 1, 2)[0], ops.StridedSlice()(x, (0, 0), (2, 3), (1, 2))[1])
    (2, 1) (2, 2) [1. 2.] [3. 5.]
"""
from __future__ import annotations

import builtins
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor, normalize_axis
from mskernel.ops.opdef import F, Op


def _axis(axis: Any, ndim: int, op: str) -> int:
    return normalize_axis(int(axis), ndim, op)[0] if ndim else 0


def _take(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    index = (builtins.slice(None),) * axis + (builtins.slice(start, stop),)
    return F.getitem(x, index)


def split(tensor: Any, split_size_or_sections: Any, axis: int = 0) -> Tuple[Tensor, ...]:
    """Pieces of ``split_size_or_sections`` along ``axis`` (an int: that size each, the last smaller; a list:
    those sizes, which must add up to the axis).

    Example:
        >>> import mskernel as ms
        >>> [p.shape for p in split(ms.Tensor(np.zeros((5, 2))), 2)]
        [(2, 2), (2, 2), (1, 2)]
    """
    x = check_tensor(tensor, "split", "tensor")
    ax = _axis(axis, x.ndim, "split")
    n = x.shape[ax]
    s = split_size_or_sections
    if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
        if s <= 0:
            raise ValueError(f"For 'split', 'split_size_or_sections' must be a positive int, but got {s}.")
        bounds = list(range(0, n, int(s))) + [n]
    else:
        sizes = [int(v) for v in s]
        if sum(sizes) != n:
            raise ValueError(f"The sum of 'split_size_or_sections' should be equal to {n}, but got {sum(sizes)}.")
        bounds = [0] + list(np.cumsum(sizes))
    return tuple(_take(x, ax, int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]))


def tensor_split(input: Any, indices_or_sections: Any, axis: int = 0) -> Tuple[Tensor, ...]:
    """``indices_or_sections`` pieces along ``axis`` (an int: that many, the first ``n % sections`` one longer;
    a list: the pieces between those positions, empty where they do not increase), as numpy's array_split.

    Example:
        >>> import mskernel as ms
        >>> [p.shape for p in tensor_split(ms.Tensor(np.zeros((7, 2))), 3)], len(tensor_split(ms.Tensor([1]), [0, 2]))
        ([(3, 2), (2, 2), (2, 2)], 3)
    """
    return _tensor_split(input, indices_or_sections, axis, "tensor_split")


def _tensor_split(input: Any, spec: Any, axis: int, op: str) -> Tuple[Tensor, ...]:
    x = check_tensor(input, op, "input")
    ax = _axis(axis, x.ndim, op)
    n = x.shape[ax] if x.ndim else 1
    if isinstance(spec, Tensor):
        spec = spec._data.tolist()
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if spec <= 0:
            raise ValueError(f"For {op}, the value of 'indices_or_sections' must be more than zero but got {spec}")
        size, extra = divmod(n, int(spec))
        bounds = [0] + list(np.cumsum([size + 1] * extra + [size] * (int(spec) - extra)))
    elif isinstance(spec, (list, tuple)):
        bounds = [0] + [int(i) for i in spec] + [n]
    else:
        raise TypeError(f"For '{op}', 'indices_or_sections' must be an int, a tuple or a list, but got "
                        f"{type(spec).__name__}.")
    return tuple(_take(x, ax, int(a), max(int(a), int(b))) for a, b in zip(bounds[:-1], bounds[1:]))


def _split_along(axis: int, name: str, least: int) -> Any:
    def fn(input: Any, indices_or_sections: Any) -> Tuple[Tensor, ...]:
        x = check_tensor(input, name, "input")
        if x.ndim < least:
            raise ValueError(f"{name} expect `x` is a Tensor with at least {least} dimension, but got {x.ndim}")
        return _tensor_split(x, indices_or_sections, axis if x.ndim > 1 else 0, name)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``tensor_split`` along axis {axis} (``input`` of at least {least} dimensions)."
    return fn


def chunk(input: Any, chunks: int, axis: int = 0) -> Tuple[Tensor, ...]:
    """``chunks`` pieces of (nearly) equal size along ``axis`` (fewer when the axis is short).

    Example:
        >>> import mskernel as ms
        >>> [p.shape for p in chunk(ms.Tensor(np.zeros((5, 2))), 2)]
        [(3, 2), (2, 2)]
    """
    if not isinstance(chunks, (int, np.integer)) or chunks <= 0:
        raise ValueError(f"For ops.chunk parameter 'chunks' must be greater than 0, but got {chunks}")
    x = check_tensor(input, "chunk", "input")
    n = x.shape[_axis(axis, x.ndim, "chunk")]
    return split(x, max(-(-n // int(chunks)), 1), axis)


def narrow(input: Any, axis: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``axis`` from ``start`` (a view).

    Example:
        >>> import mskernel as ms
        >>> print(narrow(ms.Tensor([1, 2, 3, 4]), 0, 1, 2))
        [2 3]
    """
    x = check_tensor(input, "narrow", "input")
    ax = _axis(axis, x.ndim, "narrow")
    n = x.shape[ax]
    given = start
    start = int(start) + (n if start < 0 else 0)
    if not 0 <= start <= n:  # MindSpore's texts, which name neither the op nor the argument
        raise ValueError(f"The input value must be in range of [0, {n}), but got {given} with type "
                         f"'{type(given).__name__}'.")
    if not 0 <= length <= n - start:
        raise ValueError(f"The input value must be in range of [1, {n - start}], but got {length} with type "
                         f"'{type(length).__name__}'.")
    return _take(x, ax, start, start + int(length))


def unbind(input: Any, dim: int = 0) -> Tuple[Tensor, ...]:
    """The slices along ``dim``, each without that axis.

    Example:
        >>> import mskernel as ms
        >>> [t.shape for t in unbind(ms.Tensor(np.zeros((2, 3))), 1)]
        [(2,), (2,), (2,)]
    """
    x = check_tensor(input, "Unstack", "input")
    ax = _axis(dim, x.ndim, "Unstack")
    return tuple(F.getitem(x, (builtins.slice(None),) * ax + (i,)) for i in range(x.shape[ax]))


def slice(input_x: Any, begin: Sequence[int], size: Sequence[int]) -> Tensor:
    """``size[i]`` elements from ``begin[i]`` on every axis (-1: to the end).

    Example:
        >>> import mskernel as ms
        >>> print(slice(ms.Tensor([[1, 2, 3]]), (0, 1), (1, -1)))
        [[2 3]]
    """
    x = check_tensor(input_x, "Slice", "input_x")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"For 'Slice', the length of 'begin' and 'size' must equal the input's rank {x.ndim}, "
                         f"but got {len(begin)} and {len(size)}.")
    index = tuple(builtins.slice(int(b), None if int(s) == -1 else int(b) + int(s)) for b, s in zip(begin, size))
    return F.getitem(x, index)


def strided_slice(input_x: Any, begin: Sequence[int], end: Sequence[int], strides: Sequence[int],
                  begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """``input_x[begin:end:strides]`` per axis; bit i of a mask: ignore begin i / end i, an ellipsis, a new axis,
    or take index ``begin[i]`` and drop the axis (MindSpore's StridedSlice).

    Example:
        >>> import mskernel as ms
        >>> print(strided_slice(ms.Tensor([[1, 2, 3], [4, 5, 6]]), (0, 2), (2, 0), (1, -1)))
        [[3 2]
         [6 5]]
    """
    x = check_tensor(input_x, "StridedSlice", "input_x")
    index: List[Any] = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(0 if begin_mask & bit else int(b))
        else:
            index.append(builtins.slice(None if begin_mask & bit else int(b), None if end_mask & bit else int(e),
                                        int(s)))
    return F.getitem(x, tuple(index))


def _split_prim(x: Any, axis: int, output_num: int) -> Tuple[Tensor, ...]:
    t = check_tensor(x, "Split", "input_x")
    n = t.shape[_axis(axis, t.ndim, "Split")]
    if output_num <= 0 or n % output_num:
        raise ValueError(f"For 'Split', the axis length {n} must be divisible by 'output_num' {output_num}.")
    return split(t, n // output_num, axis)


def unsqueeze(input: Any, dim: int) -> Tensor:
    """A new axis of length 1 at ``dim``.

    Example:
        >>> import mskernel as ms
        >>> unsqueeze(ms.Tensor([1, 2]), -1).shape
        (2, 1)
    """
    return F.expand_dims(input, dim)


def movedim(x: Any, source: Any, destination: Any) -> Tensor:
    """Move axes ``source`` to positions ``destination``, the others keeping their order.

    Example:
        >>> import mskernel as ms
        >>> movedim(ms.Tensor(np.zeros((2, 3, 4))), 0, -1).shape
        (3, 4, 2)
    """
    t = check_tensor(x, "movedim", "x")
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"For 'movedim', 'source' and 'destination' must have the same length, but got {len(src)} "
                         f"and {len(dst)}.")
    src = [normalize_axis(s, t.ndim, "movedim")[0] for s in src]
    dst = [normalize_axis(d, t.ndim, "movedim")[0] for d in dst]
    order = [n for n in range(t.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return F.transpose(t, tuple(order))


def expand(input_x: Any, size: Any) -> Tensor:
    """Broadcast to ``size`` (-1 keeps an axis' length).

    Example:
        >>> import mskernel as ms
        >>> expand(ms.Tensor([[1.0], [2.0]]), (-1, 3)).shape
        (2, 3)
    """
    x = check_tensor(input_x, "expand", "input_x")
    size = size._data.tolist() if isinstance(size, Tensor) else list(size)
    lead = len(size) - x.ndim
    shape = tuple(x.shape[i - lead] if s == -1 and i >= lead else int(s) for i, s in enumerate(size))
    return F.broadcast_to(x, shape)


def _atleast(n: int) -> Any:
    def fn(inputs: Any) -> Any:
        def one(t: Tensor) -> Tensor:
            t = check_tensor(t, f"atleast_{n}d", "inputs")
            if t.ndim >= n:
                return t
            if t.ndim == 0:
                shape: tuple = (1,) * n
            elif n == 2 or t.ndim == 2:  # (N,) -> (1, N); for 3-D, (M, N) -> (M, N, 1)
                shape = (1,) + t.shape if t.ndim == 1 else t.shape + (1,)
            else:
                shape = (1,) + t.shape + (1,)
            return F.reshape(t, shape)
        return one(inputs) if isinstance(inputs, Tensor) else tuple(one(t) for t in inputs)
    fn.__name__ = f"atleast_{n}d"
    fn.__doc__ = (f"``inputs`` (a Tensor or a sequence) with at least {n} dimensions.\n\n    Example:\n"
                  f"        >>> import mskernel as ms\n        >>> atleast_{n}d(ms.Tensor(1.0)).ndim\n        {n}\n")
    return fn


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


def hstack(tensors: Any) -> Tensor:
    """Join along the second axis (the first for 1-D tensors).

    Example:
        >>> import mskernel as ms
        >>> print(hstack([ms.Tensor([1, 2]), ms.Tensor([3])]))
        [1 2 3]
    """
    ts = atleast_1d(list(tensors))
    return F.concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(inputs: Any) -> Tensor:
    """Join along the first axis, 1-D tensors as rows.

    Example:
        >>> import mskernel as ms
        >>> vstack([ms.Tensor([1, 2]), ms.Tensor([3, 4])]).shape
        (2, 2)
    """
    return F.concat(atleast_2d(list(inputs)), 0)


def dstack(tensors: Any) -> Tensor:
    """Join along the third axis.

    Example:
        >>> import mskernel as ms
        >>> dstack([ms.Tensor([1, 2]), ms.Tensor([3, 4])]).shape
        (1, 2, 2)
    """
    return F.concat(atleast_3d(list(tensors)), 2)


def column_stack(tensors: Any) -> Tensor:
    """1-D tensors as columns of a matrix (2-D ones joined along axis 1).

    Example:
        >>> import mskernel as ms
        >>> print(column_stack([ms.Tensor([1, 2]), ms.Tensor([3, 4])]))
        [[1 3]
         [2 4]]
    """
    cols = [F.reshape(t, (-1, 1)) if check_tensor(t, "column_stack", "tensors").ndim < 2 else t for t in tensors]
    return F.concat(cols, 1)


def meshgrid(*inputs: Any, indexing: str = "xy") -> Tuple[Tensor, ...]:
    """Coordinate grids from 1-D tensors ('xy': the first two axes swapped, as numpy's).

    Example:
        >>> import mskernel as ms
        >>> [g.shape for g in meshgrid(ms.Tensor([1, 2, 3]), ms.Tensor([4, 5]))]
        [(2, 3), (2, 3)]
    """
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'Meshgrid', 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    ts = [check_tensor(t, "Meshgrid", "inputs") for t in inputs]
    shape = [t.size for t in ts]
    if indexing == "xy" and len(ts) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(ts):
        pos = (1 - i if i < 2 else i) if indexing == "xy" and len(ts) > 1 else i
        view = [1] * len(ts)
        view[pos] = t.size
        out.append(F.broadcast_to(F.reshape(t, tuple(view)), tuple(shape)))
    return tuple(out)


OPS: List[Op] = [
    Op("split", "tensor, split_size_or_sections, axis=0", fn=split, method=True),
    Op("_split_equal", "input_x, axis=0, output_num=1", fn=_split_prim,
       prim="Split(axis=0, output_num=1)(input_x) -> input_x, axis, output_num"),
    Op("tensor_split", "input, indices_or_sections, axis=0", fn=tensor_split, method=True),
    Op("hsplit", "input, indices_or_sections", fn=_split_along(1, "hsplit", 2), method=True),
    Op("vsplit", "input, indices_or_sections", fn=_split_along(0, "vsplit", 1), method=True),
    Op("dsplit", "input, indices_or_sections", fn=_split_along(2, "dsplit", 3), method=True),
    Op("chunk", "input, chunks, axis=0", fn=chunk, method=True),
    Op("narrow", "input, axis, start, length", fn=narrow, method=True),
    Op("unbind", "input, dim=0", fn=unbind, method=True),
    Op("unstack", "input_x, axis=0", fn=lambda input_x, axis=0: unbind(input_x, axis),
       prim="Unstack(axis=0, num=None)(input_x) -> input_x, axis"),
    Op("slice", "input_x, begin, size", fn=slice, aliases=("tensor_slice",),
       prim="Slice()(input_x, begin, size) -> input_x, begin, size"),
    Op("strided_slice", "input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, "
       "shrink_axis_mask=0", fn=strided_slice,
       prim="StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)"
            "(input_x, begin, end, strides) -> input_x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, "
            "new_axis_mask, shrink_axis_mask"),
    Op("unsqueeze", "input, dim", fn=unsqueeze, method=True),
    Op("movedim", "x, source, destination", fn=movedim, aliases=("moveaxis",), method=("movedim", "moveaxis")),
    Op("expand", "input_x, size", fn=expand),
    Op("view_as", "input, other", fn=lambda input, other: F.reshape(input, other.shape), method=True),
    Op("ravel", "input", fn=lambda input: F.reshape(input, (-1,)), method=True),
    Op("atleast_1d", "inputs", fn=atleast_1d),
    Op("atleast_2d", "inputs", fn=atleast_2d),
    Op("atleast_3d", "inputs", fn=atleast_3d),
    Op("hstack", "tensors", fn=hstack),
    Op("vstack", "inputs", fn=vstack, aliases=("row_stack",)),
    Op("dstack", "tensors", fn=dstack),
    Op("column_stack", "tensors", fn=column_stack),
    Op("meshgrid", "*inputs, indexing='xy'", fn=meshgrid),
    Op("_meshgrid_tuple", "inputs, indexing='xy'", fn=lambda inputs, indexing="xy": meshgrid(*inputs,
                                                                                            indexing=indexing),
       prim="Meshgrid(indexing='xy')(inputs) -> inputs, indexing"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "hsplit": ("ops.hsplit(ms.Tensor([[1, 2, 3], [4, 5, 6]]), [1])", "(Tensor(shape=[2, 1], dtype=Int64, value=\n"
               "[[1],\n [4]]), Tensor(shape=[2, 2], dtype=Int64, value=\n[[2, 3],\n [5, 6]]))"),
    "vsplit": ("*ops.vsplit(ms.Tensor([[1, 2], [3, 4], [5, 6]]), 2)", "[[1 2]\n [3 4]] [[5 6]]"),
    "dsplit": ("[p.shape for p in ops.dsplit(ops.zeros((1, 2, 5)), [2, 3])]",
               "[(1, 2, 2), (1, 2, 1), (1, 2, 2)]"),
    "unstack": ("*ops.unstack(ms.Tensor([[1, 2], [3, 4]]), axis=1)", "[1 3] [2 4]"),
    "view_as": ("ops.view_as(ms.Tensor([1, 2, 3, 4]), ms.Tensor([[0, 0], [0, 0]]))", "[[1 2]\n [3 4]]"),
    "ravel": ("ops.ravel(ms.Tensor([[1, 2], [3, 4]]))", "[1 2 3 4]"),
    "Split": ("*ops.Split(axis=1, output_num=2)(ms.Tensor([[1, 2, 3, 4]]))", "[[1 2]] [[3 4]]"),
    "Unstack": ("*ops.Unstack(axis=0)(ms.Tensor([[1, 2], [3, 4]]))", "[1 2] [3 4]"),
    "Slice": ("ops.Slice()(ms.Tensor([[1, 2, 3], [4, 5, 6]]), (0, 1), (2, 2))", "[[2 3]\n [5 6]]"),
    "StridedSlice": ("ops.StridedSlice()(ms.Tensor([[1, 2, 3, 4], [5, 6, 7, 8]]), (0, 0), (2, 4), (1, 2))",
                     "[[1 3]\n [5 7]]"),
    "Meshgrid": ("*ops.Meshgrid(indexing='ij')((ms.Tensor([1, 2]), ms.Tensor([3, 4, 5])))",
                 "[[1 1 1]\n [2 2 2]] [[3 4 5]\n [3 4 5]]"),
}
