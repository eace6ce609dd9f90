"""Op table: sliding blocks as columns and back — ``unfold`` (im2col), ``fold`` and ``col2im`` (its adjoint: the
blocks added back into the image), the ``Im2Col``/``Col2Im`` primitives and the Tensor methods.

``unfold`` gathers every block by a window index map (:func:`mskernel.ops.table.nn_pool3d.window_index`);
``fold`` adds each column back with the same map (``_scatter_map``), so each is the other's gradient.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
    >>> cols = ops.unfold(x, 2)
    >>> print(cols.shape, ops.fold(cols, ms.Tensor([3, 3], ms.int32), 2)[0, 0])
    (1, 4, 4) [[ 0.  2.  2.]
     [ 6. 16. 10.]
     [ 6. 14.  8.]]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_pool3d import window_index


def _pair(value: Any, name: str, op: str) -> Tuple[int, int]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value), int(value)
    v = tuple(int(a) for a in value)
    if len(v) == 1:
        return v[0], v[0]
    if len(v) != 2:
        raise ValueError(f"For '{op}', the '{name}' must be an int or a tuple of 2 ints, but got {value!r}.")
    return v


def _blocks(size: Tuple[int, int], k: tuple, d: tuple, p: tuple, s: tuple) -> Tuple[int, int]:
    return tuple((size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))


def im2col(x: Tensor, k: tuple, d: tuple, p: tuple, s: tuple) -> Tensor:
    """(N, C, H, W) to (N, C, kh * kw, L): every block, in the order of the kernel's positions, for each of the
    L block positions.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> im2col(ms.Tensor(np.ones((1, 2, 3, 3), np.float32)), (2, 2), (1, 1), (0, 0), (1, 1)).shape
        (1, 2, 4, 4)
    """
    out = _blocks(x.shape[2:], k, d, p, s)
    cols = F._gather_map(x, window_index(x.shape, k, s, d, p, out))  # (N, C, oh, ow, kh, kw)
    cols = F.transpose(cols, (0, 1, 4, 5, 2, 3))
    return F.reshape(cols, (x.shape[0], x.shape[1], k[0] * k[1], out[0] * out[1]))


def col2im(cols: Tensor, size: Tuple[int, int], k: tuple, d: tuple, p: tuple, s: tuple) -> Tensor:
    """(N, C, kh * kw, L) to (N, C, H, W): each column's block added back at its place (padding dropped).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(col2im(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)), (3, 3), (2, 2), (1, 1), (0, 0), (1, 1)))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
    """
    out = _blocks(size, k, d, p, s)
    if cols.shape[3] != out[0] * out[1]:
        raise ValueError(f"For 'Col2Im', size of input's 4th dimension must be equal to calculated number of sliding "
                         f"blocks, but got input.size[3]: {cols.shape[3]}, calculated number of sliding blocks: "
                         f"{out[0] * out[1]}. Please refer to Mindspore official website API docs for details about "
                         f"how the number of sliding blocks is calculated.")
    n, c = cols.shape[0], cols.shape[1]
    blocks = F.transpose(F.reshape(cols, (n, c, k[0], k[1], out[0], out[1])), (0, 1, 4, 5, 2, 3))
    shape = (n, c) + tuple(size)
    return F._scatter_map(blocks, window_index(shape, k, s, d, p, out), shape)


def _size(output_size: Any, op: str) -> Tuple[int, int]:
    if not isinstance(output_size, Tensor):
        kinds = ", ".join(["Int64"] * len(output_size)) if isinstance(output_size, (tuple, list)) else ""
        got = f"Tuple[Int64*{len(output_size)}]" if isinstance(output_size, tuple) else \
            f"List[{kinds}]" if isinstance(output_size, list) else type(output_size).__name__
        raise TypeError(f"For Primitive[{op}], the type of input argument[output_size] must be Tensor but got {got}.")
    return tuple(int(v) for v in output_size._data.reshape(-1).tolist())


def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:
    """(N, C, H, W) to (N, C * kh * kw, L): the sliding blocks as columns (torch's order: channel, then kernel
    position).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> unfold(ms.Tensor(np.ones((2, 3, 4, 5), np.float32)), (2, 3), padding=1, stride=(1, 2)).shape
        (2, 18, 15)
    """
    x = check_tensor(input, "Im2Col", "x")
    if x.ndim != 4:
        raise ValueError(f"For primitive[Im2Col], the dimension of input x must be equal to 4, but got {x.ndim}.")
    k = _pair(kernel_size, "kernel_size", "Im2Col")
    cols = im2col(x, k, _pair(dilation, "dilation", "Im2Col"), _pair(padding, "padding", "Im2Col"),
                  _pair(stride, "stride", "Im2Col"))
    return F.reshape(cols, (x.shape[0], x.shape[1] * k[0] * k[1], cols.shape[3]))


def fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """(N, C * kh * kw, L) to (N, C, H, W) with (H, W) the Tensor ``output_size``: the columns' blocks added back
    at their places (the adjoint of :func:`unfold`).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> fold(ms.Tensor(np.ones((2, 12, 6), np.float32)), ms.Tensor([3, 4], ms.int32), 2).shape
        (2, 3, 3, 4)
    """
    x = check_tensor(input, "Col2Im", "input")
    size = _size(output_size, "Col2Im")
    k = _pair(kernel_size, "kernel_size", "Col2Im")
    lead, last = x.shape[0], x.shape[-1]
    if x.size % (lead * k[0] * k[1] * last):
        raise ValueError(f"proposed_shape '[const vector]{{{lead}, -1, {k[0] * k[1]}, {last}}}' is invalid for "
                         f"input of size {x.size}")
    cols = F.reshape(x, (lead, -1, k[0] * k[1], last))
    return col2im(cols, size, k, _pair(dilation, "dilation", "Col2Im"), _pair(padding, "padding", "Col2Im"),
                  _pair(stride, "stride", "Col2Im"))


def col2im_op(input_x: Any, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any,
              stride: Any) -> Tensor:
    """(N, C, kh * kw, L) to (N, C, H, W) with (H, W) the Tensor ``output_size``: the blocks added back.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> col2im_op(ms.Tensor(np.ones((1, 3, 4, 6), np.float32)), ms.Tensor([3, 4], ms.int32), 2, 1, 0, 1).shape
        (1, 3, 3, 4)
    """
    x = check_tensor(input_x, "Col2Im", "x")
    if x.ndim != 4:
        raise ValueError(f"For 'Col2Im', the dimension of 'x' must be 4, but got {x.ndim}.")
    return col2im(x, _size(output_size, "Col2Im"), _pair(kernel_size, "kernel_size", "Col2Im"),
                  _pair(dilation, "dilation", "Col2Im"), _pair(padding_value, "padding", "Col2Im"),
                  _pair(stride, "stride", "Col2Im"))


def _im2col_prim(x: Any, ksizes: Any, strides: Any = 1, dilations: Any = 1, pads: Any = 0) -> Tensor:
    t = check_tensor(x, "Im2Col", "x")
    if t.ndim != 4:
        raise ValueError(f"For primitive[Im2Col], the dimension of input x must be equal to 4, but got {t.ndim}.")
    p = _pair(pads, "pads", "Im2Col") if isinstance(pads, int) or len(tuple(pads)) <= 2 else None
    if p is None:
        raise ValueError(f"For 'Im2Col', 'pads' must be an int or a tuple of 2 ints, but got {pads!r}.")
    return im2col(t, _pair(ksizes, "ksizes", "Im2Col"), _pair(dilations, "dilations", "Im2Col"), p,
                  _pair(strides, "strides", "Im2Col"))


def _col2im_prim(x: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> Tensor:
    return col2im_op(x, output_size, kernel_size, dilation, padding, stride)


OPS: List[Op] = [
    Op("unfold", "input, kernel_size, dilation=1, padding=0, stride=1", fn=unfold, method=True),
    Op("fold", "input, output_size, kernel_size, dilation=1, padding=0, stride=1", fn=fold, method=True),
    Op("col2im", "input_x, output_size, kernel_size, dilation, padding_value, stride", fn=col2im_op, method=True),
    Op("_im2col_primitive", "x, ksizes, strides=1, dilations=1, pads=0", fn=_im2col_prim,
       prim="Im2Col(ksizes, strides=1, dilations=1, pads=0)(x) -> x, ksizes, strides, dilations, pads"),
    Op("_col2im_primitive", "x, output_size, kernel_size, dilation=1, padding=0, stride=1", fn=_col2im_prim,
       prim="Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size) -> x, output_size, kernel_size, "
            "dilation, padding, stride"),
]

EXAMPLES = {
    "Im2Col": ("import numpy as np", "x = ms.Tensor(np.ones((1, 3, 4, 5), np.float32))", "ops.Im2Col(2)(x).shape",
               "(1, 3, 4, 12)"),
    "Col2Im": ("import numpy as np", "x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))",
               "ops.Col2Im(2)(x, ms.Tensor([3, 3], ms.int32))", "[[[[1. 2. 1.]\n   [2. 4. 2.]\n   [1. 2. 1.]]]]"),
}
