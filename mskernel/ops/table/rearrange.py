"""Op table: ops that move elements without arithmetic — flip, roll, tile, repeat_interleave, rot90, pad,
diag, diagonal, diag_embed, tril/triu — and their primitives.

Each of these is a *gather by an index map*: the output's element ``i`` is the input's flat element
``index[i]`` (or a constant where ``index[i]`` is -1). So one pair of entries carries them all:
``_gather_map`` (forward) and ``_scatter_map`` (its adjoint, adding gradients back to their sources), each the
other's backward — every op here is differentiable to any order with no rule of its own.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(ops.flip(x, (1,)), ops.roll(x, 1, 1)[0], ops.tile(x, (1, 2))[1])
    [[3. 2. 1.]
     [6. 5. 4.]] [3. 1. 2.] [4. 5. 6. 4. 5. 6.]
    >>> print(ms.grad(lambda a: ops.repeat_interleave(a, 2, 1).sum())(x))
    [[2. 2. 2.]
     [2. 2. 2.]]
"""
from __future__ import annotations

from typing import Any, List, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor, normalize_axis
from mskernel.ops.opdef import F, Op


def _gather(x: np.ndarray, index: np.ndarray) -> np.ndarray:
    flat = x.reshape(-1)
    if index.size and index.min() < 0:
        return np.where(index >= 0, flat[np.maximum(index, 0)], np.zeros((), x.dtype))
    return flat[index]


def _scatter(g: np.ndarray, index: np.ndarray, shape: tuple) -> np.ndarray:
    out = np.zeros(int(np.prod(shape)), g.dtype)
    valid = index >= 0
    np.add.at(out, index[valid], g[valid])
    return out.reshape(shape)


def _index(shape: Sequence[int]) -> np.ndarray:
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(tuple(shape))


def gather_map(input: Tensor, index: np.ndarray) -> Tensor:
    """Output element ``i`` is ``input``'s flat element ``index[i]`` (0 where ``index[i]`` is -1), differentiably.

    Example:
        >>> import mskernel as ms
        >>> print(gather_map(ms.Tensor([1.0, 2.0, 3.0]), np.array([2, -1, 0])))
        [3. 0. 1.]
    """
    return F._gather_map(input, index)


OPS_MAP: List[Op] = [
    Op("_gather_map", "input, index", _gather,
       lambda g, input, index: (F._scatter_map(g, index, input.shape),), label="Gather"),
    Op("_scatter_map", "input, index, shape", _scatter,
       lambda g, index: (F._gather_map(g, index),), label="ScatterAdd"),
]


def _axes(dims: Any, ndim: int, op: str) -> tuple:
    if isinstance(dims, (int, np.integer)):
        dims = (dims,)
    return normalize_axis(tuple(dims), ndim, op) if ndim else ()


def flip(input: Any, dims: Any) -> Tensor:
    """Reverse the order of elements along ``dims``.

    Example:
        >>> import mskernel as ms
        >>> print(flip(ms.Tensor([1, 2, 3]), (0,)))
        [3 2 1]
    """
    x = check_tensor(input, "ReverseV2", "input")
    if x.ndim == 0:
        raise ValueError("For primitive[ReverseV2], the rank of x must be not equal to 0, but got 0.")
    seen = set()
    for d in (dims,) if isinstance(dims, (int, np.integer)) else dims:
        d = int(d) % x.ndim if isinstance(d, (int, np.integer)) and -x.ndim <= d < x.ndim else d
        if d in seen:
            raise ValueError(f"For ReverseV2, 'axis' cannot contain duplicate dimensions, but got {d}")
        seen.add(d)
    return gather_map(x, np.flip(_index(x.shape), _axes(dims, x.ndim, "ReverseV2")))


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    """Shift elements along ``dims`` cyclically (the flattened tensor when ``dims`` is None).

    Example:
        >>> import mskernel as ms
        >>> print(roll(ms.Tensor([1, 2, 3, 4]), 1))
        [4 1 2 3]
    """
    x = check_tensor(input, "Roll", "input")
    if dims is None:
        return gather_map(x, np.roll(_index(x.shape), shifts))
    if isinstance(dims, (int, np.integer)):
        dims, shifts = (dims,), (shifts,) if isinstance(shifts, (int, np.integer)) else shifts
    return gather_map(x, np.roll(_index(x.shape), tuple(shifts), tuple(dims)))


def tile(input: Any, dims: Any) -> Tensor:
    """Repeat the whole tensor ``dims[i]`` times along each axis (MindSpore pads the shorter of the two with 1s).

    Example:
        >>> import mskernel as ms
        >>> tile(ms.Tensor([[1, 2]]), (2, 2)).shape
        (2, 4)
    """
    x = check_tensor(input, "Tile", "input")
    dims = tuple(int(d) for d in dims)
    for i, d in enumerate(dims):
        if d < 0:
            raise ValueError(f"For 'Tile', 'dims' cannot contain negative integer numbers, but got {d} in {i}th.")
    return gather_map(x, np.tile(_index(x.shape), dims))


def repeat_interleave(input: Any, repeats: Any, axis: Any = None) -> Tensor:
    """Repeat each element ``repeats`` times along ``axis`` (the flattened tensor when None).

    Example:
        >>> import mskernel as ms
        >>> print(repeat_interleave(ms.Tensor([1, 2]), 2))
        [1 1 2 2]
    """
    x = check_tensor(input, "RepeatInterleave", "input")
    reps = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
    if axis is None:
        return gather_map(x, np.repeat(_index(x.shape).reshape(-1), reps))
    return gather_map(x, np.repeat(_index(x.shape), reps, axis=_axes(axis, x.ndim, "RepeatInterleave")[0]))


def repeat_elements(x: Any, rep: int, axis: int = 0) -> Tensor:
    """MindSpore's older name: repeat each slice along ``axis`` ``rep`` times.

    Example:
        >>> import mskernel as ms
        >>> print(repeat_elements(ms.Tensor([[1, 2]]), 2, 1))
        [[1 1 2 2]]
    """
    return repeat_interleave(x, rep, axis)


def rot90(input: Any, k: int, dims: Any) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``dims``.

    Example:
        >>> import mskernel as ms
        >>> print(rot90(ms.Tensor([[1, 2], [3, 4]]), 1, (0, 1)))
        [[2 4]
         [1 3]]
    """
    x = check_tensor(input, "rot90", "input")
    return gather_map(x, np.rot90(_index(x.shape), k, tuple(dims)))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(input_x: Any, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad the last ``len(padding) // 2`` axes: ``padding`` is (left, right) for the last axis, then the one
    before, ...; negative amounts crop. ``mode`` is 'constant', 'reflect', 'replicate' or 'circular'.

    Example:
        >>> import mskernel as ms
        >>> print(pad(ms.Tensor([[1.0, 2.0]]), (1, 2), value=9.0))
        [[9. 1. 2. 9. 9.]]
    """
    x = check_tensor(input_x, "Pad", "input_x")
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'PadV3', the 'mode' must be str and must be in '['constant', 'reflect', 'edge', "
                         f"'circular']', but got '{mode}'.")  # MindSpore's text: its primitive calls 'replicate' 'edge'
    padding = tuple(int(p) for p in (padding._data.tolist() if isinstance(padding, Tensor) else padding))
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(f"For 'pad', the length of 'padding' must be even and at most 2 * {x.ndim}, but got "
                         f"{len(padding)}.")
    if mode != "constant" and x.ndim < 2:  # MindSpore's PadV3 (its text says 3; 2-D inputs do pad)
        raise ValueError(f"For primitive[PadV3], the input dims for edge, reflect or circular mode must be greater "
                         f"than or equal to 3, but got {x.ndim}.")
    pairs = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        pairs[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    index = _index(x.shape)
    crop = tuple(slice(-lo if lo < 0 else 0, (hi if hi < 0 else None)) for lo, hi in pairs)
    index = index[crop]
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
    if mode == "constant":
        index = np.pad(index, grow, constant_values=-1)
    else:
        index = np.pad(index, grow, mode=_PAD_MODES[mode])
    out = gather_map(x, index)
    if mode == "constant" and value not in (None, 0) and (index < 0).any():
        out = out + Tensor._wrap((index < 0).astype(x._data.dtype) * np.asarray(value, x._data.dtype))
    return out


def _pad_prim(input_x: Any, paddings: Any) -> Tensor:
    flat: List[int] = []
    for lo, hi in reversed(list(paddings)):
        flat += [int(lo), int(hi)]
    return pad(input_x, flat)


def diag(input: Any) -> Tensor:
    """A diagonal tensor from ``input``: a vector becomes a square matrix, rank k becomes rank 2k.

    Example:
        >>> import mskernel as ms
        >>> print(diag(ms.Tensor([1, 2])))
        [[1 0]
         [0 2]]
    """
    x = check_tensor(input, "Diag", "input")
    n = x.size
    index = np.full((n, n), -1, np.int64)
    index[np.arange(n), np.arange(n)] = np.arange(n)
    return gather_map(x, index.reshape(x.shape + x.shape))


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of ``dim1`` and ``dim2`` (offset above the main one when positive), as the last axis.

    Example:
        >>> import mskernel as ms
        >>> print(diagonal(ms.Tensor([[1, 2], [3, 4]])), diagonal(ms.Tensor([[1, 2], [3, 4]]), 1))
        [1 4] [2]
    """
    x = check_tensor(input, "diagonal", "input")
    return gather_map(x, np.diagonal(_index(x.shape), offset, dim1, dim2).copy())


def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Place the last axis of ``input`` on the diagonal of two new axes ``dim1``, ``dim2``.

    Example:
        >>> import mskernel as ms
        >>> print(diag_embed(ms.Tensor([1, 2]), offset=1))
        [[0 1 0]
         [0 0 2]
         [0 0 0]]
    """
    x = check_tensor(input, "diag_embed", "input")
    n = x.shape[-1] + abs(offset)
    nd = x.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    out_shape = list(x.shape[:-1])
    for d in sorted((d1, d2)):
        out_shape.insert(d, n)
    index = np.full(out_shape, -1, np.int64)
    src = _index(x.shape)
    view = np.diagonal(np.moveaxis(index, (d1, d2), (-2, -1)), offset, -2, -1)
    view.setflags(write=True)
    view[...] = src
    return gather_map(x, index)


def trace(input: Any) -> Tensor:
    """The sum of the main diagonal of a matrix.

    Example:
        >>> import mskernel as ms
        >>> print(trace(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        5.0
    """
    x = check_tensor(input, "Trace", "input")
    if x.ndim != 2:
        raise ValueError(f"For 'Trace', the input must be 2-D, but got {x.ndim}-D.")
    return F.sum(diagonal(x))


def _triangle(keep_lower: bool, prim: str) -> Any:
    def fn(input: Any, diagonal: int = 0) -> Tensor:
        x = check_tensor(input, prim, "input")
        if x.ndim < 2:
            raise ValueError(f"For primitive[{prim}], the x's rank must be greater than or equal to 2, but got "
                             f"{x.ndim}.")
        rows, cols = x.shape[-2:]
        mask = (np.tril if keep_lower else np.triu)(np.ones((rows, cols), bool), diagonal)
        if x._data.dtype == np.bool_:
            return F.logical_and(x, Tensor._wrap(mask))
        return x * Tensor._wrap(mask.astype(x._data.dtype))
    fn.__name__ = "tril" if keep_lower else "triu"
    fn.__doc__ = (f"Keep the {'lower' if keep_lower else 'upper'} triangle of the last two axes (from diagonal "
                  f"``diagonal``), zero the rest.\n\n    Example:\n        >>> import mskernel as ms\n"
                  f"        >>> print({fn.__name__}(ms.Tensor([[1, 2], [3, 4]])))\n"
                  f"        {'[[1 0]' if keep_lower else '[[1 2]'}\n"
                  f"         {'[3 4]]' if keep_lower else '[0 4]]'}\n")
    return fn


tril = _triangle(True, "Tril")
triu = _triangle(False, "Triu")

OPS: List[Op] = [
    *OPS_MAP,
    Op("flip", "input, dims", fn=flip, method=True),
    Op("reverse", "x, axis", fn=lambda x, axis: flip(x, axis), prim="ReverseV2(axis)(x) -> x, axis"),
    Op("fliplr", "input", fn=lambda input: flip(input, (1,)), method=True),
    Op("flipud", "input", fn=lambda input: flip(input, (0,)), method=True),
    Op("roll", "input, shifts, dims=None", fn=roll, prim="Roll(shifts, dims=None)(input) -> input, shifts, dims",
       method=True),
    Op("tile", "input, dims", fn=tile, prim="Tile()(input, dims) -> input, dims", method=True),
    Op("repeat_interleave", "input, repeats, axis=None", fn=repeat_interleave, method=True),
    Op("repeat_elements", "x, rep, axis=0", fn=repeat_elements),
    Op("rot90", "input, k, dims", fn=rot90, method=True),
    Op("pad", "input_x, padding, mode='constant', value=None", fn=pad),
    Op("_pad_pairs", "input_x, paddings", fn=_pad_prim, prim="Pad(paddings)(input_x) -> input_x, paddings"),
    Op("diag", "input", fn=diag, prim="Diag()(input_x) -> input_x", method=True),
    Op("diagonal", "input, offset=0, dim1=0, dim2=1", fn=diagonal, method=True),
    Op("diag_embed", "input, offset=0, dim1=-2, dim2=-1", fn=diag_embed),
    Op("trace", "input", fn=trace, prim="Trace()(input) -> input", method=True),
    Op("tril", "input, diagonal=0", fn=tril, prim="Tril(diagonal=0)(x) -> x, diagonal", method=True),
    Op("triu", "input, diagonal=0", fn=triu, prim="Triu(diagonal=0)(x) -> x, diagonal", method=True),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "reverse": ("ops.reverse(ms.Tensor([[1, 2, 3], [4, 5, 6]]), (1,))", "[[3 2 1]\n [6 5 4]]"),
    "fliplr": ("ops.fliplr(ms.Tensor([[1, 2, 3], [4, 5, 6]]))", "[[3 2 1]\n [6 5 4]]"),
    "flipud": ("ops.flipud(ms.Tensor([[1, 2, 3], [4, 5, 6]]))", "[[4 5 6]\n [1 2 3]]"),
    "ReverseV2": ("ops.ReverseV2(axis=(0,))(ms.Tensor([[1, 2, 3], [4, 5, 6]]))", "[[4 5 6]\n [1 2 3]]"),
    "Roll": ("ops.Roll(shifts=1, dims=0)(ms.Tensor([1, 2, 3, 4]))", "[4 1 2 3]"),
    "Tile": ("ops.Tile()(ms.Tensor([[1, 2]]), (2, 2))", "[[1 2 1 2]\n [1 2 1 2]]"),
    "Pad": ("ops.Pad(((0, 0), (1, 2)))(ms.Tensor([[1.0, 2.0]]))", "[[0. 1. 2. 0. 0.]]"),
    "Diag": ("ops.Diag()(ms.Tensor([1, 2]))", "[[1 0]\n [0 2]]"),
    "Trace": ("ops.Trace()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))", "5.0"),
    "Tril": ("ops.Tril()(ms.Tensor([[1, 2], [3, 4]]))", "[[1 0]\n [3 4]]"),
    "Triu": ("ops.Triu(diagonal=1)(ms.Tensor([[1, 2], [3, 4]]))", "[[0 2]\n [0 0]]"),
}
