"""Op table: max unpooling — ``max_unpool1d/2d/3d`` and the ``MaxUnpool2D``/``MaxUnpool3D`` primitives: each input
element written at the flat position its index gives in its output plane (the inverse of max pooling with
``return_indices``), zeros elsewhere; the gradient reads those positions back.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.max_unpool1d(ms.Tensor([[2.0, 4.0]]), ms.Tensor([[1, 3]]), 2))
    [[0. 2. 0. 4.]]
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_PLANE = {1: "H * W", 2: "H * W", 3: "D * H * W"}


def _ints(value: Any, n: int, name: str, op: str) -> Tuple[int, ...]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * n
    v = tuple(int(a) for a in value)
    if len(v) != n:
        raise ValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {value!r}.")
    return v


def unpool_nd(x: Any, indices: Any, n: int, kernel_size: Any, stride: Any, padding: Any,
              output_size: Optional[Any], op: str) -> Tensor:
    """Max unpooling over the last ``n`` axes of an (n + 1)- or (n + 2)-D ``x``.

    Example:
        >>> import mskernel as ms
        >>> print(unpool_nd(ms.Tensor([[[5.0]]]), ms.Tensor([[[2]]]), 1, 3, None, 0, None, "MaxUnpool2D"))
        [[[0. 0. 5.]]]
        >>> print(unpool_nd(ms.Tensor([[[5.0, 6.0]]]), ms.Tensor([[[1, 1]]]), 1, 2, None, 0, None, "MaxUnpool2D"))
        [[[0. 6. 0. 0.]]]
    """
    t = check_tensor(x, op, "x")
    idx = check_tensor(indices, op, "argmax")
    if idx._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"For primitive[{op}], the input argument[argmax] must be a type of {{Tensor[Int32], "
                        f"Tensor[Int64]}}, but got Tensor[{idx.dtype}].")
    if t.ndim not in (n + 1, n + 2) or idx.shape != t.shape:
        raise ValueError(f"For '{op}', 'x' must be {n + 1}-D or {n + 2}-D and 'indices' of the same shape, but got "
                         f"{list(t.shape)} and {list(idx.shape)}.")
    k = _ints(kernel_size, n, "kernel_size", op)
    s = k if stride is None or stride == 0 else _ints(stride, n, "stride", op)
    p = _ints(padding, n, "padding", op)
    spatial = tuple(t.shape[t.ndim - n:])
    if output_size is None or output_size == ():
        out = tuple((spatial[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(n))
    else:
        out = tuple(int(v) for v in tuple(output_size)[-n:])
    lead = tuple(t.shape[:t.ndim - n])
    plane = int(np.prod(out))
    where = idx._data.astype(np.int64)
    if where.size and (where.max() >= plane or where.min() < 0):
        flat = where.reshape(-1)
        bad = int(flat[np.argmax((flat >= plane) | (flat < 0))])  # the first out of range, as MindSpore names it
        raise RuntimeError(f"{op}: internal error, output_size {_PLANE[n]} should be bigger than some indicis, now "
                           f"{_PLANE[n]} is {plane} and value of argmax is {bad}.")
    base = (np.arange(int(np.prod(lead)), dtype=np.int64) * plane).reshape(lead + (1,) * n)
    dest = (where + base).reshape(-1)
    # two elements sent to one place: the later one is written over the earlier (MindSpore's kernel writes in
    # order), so only the last of each place is kept; the gradient still reaches every element from its place
    last = np.zeros(dest.shape, bool)
    _, first_rev = np.unique(dest[::-1], return_index=True)
    last[dest.size - 1 - first_rev] = True
    if not last.all():
        dropped = Tensor((~last).reshape(t.shape).astype(t._data.dtype))
        t = t - F.stop_gradient(t * dropped)
    return F._scatter_map(t, dest.reshape(where.shape), lead + out)


def max_unpool1d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of 1-D max pooling on (N, C, L) or (C, L): each value put at its index, zeros elsewhere.

    Example:
        >>> import mskernel as ms
        >>> print(max_unpool1d(ms.Tensor([[2.0, 4.0]]), ms.Tensor([[1, 3]]), 2))
        [[0. 2. 0. 4.]]
    """
    return unpool_nd(x, indices, 1, kernel_size, stride, padding, output_size, "MaxUnpool2D")


def max_unpool2d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of 2-D max pooling on (N, C, H, W) or (C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(max_unpool2d(ms.Tensor([[[[0.0, 1.0], [8.0, 9.0]]]]), ms.Tensor([[[[0, 1], [2, 3]]]]), 1))
        [[[[0. 1.]
           [8. 9.]]]]
    """
    return unpool_nd(x, indices, 2, kernel_size, stride, padding, output_size, "MaxUnpool2D")


def max_unpool3d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The inverse of 3-D max pooling on (N, C, D, H, W) or (C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> max_unpool3d(ms.Tensor(np.ones((1, 1, 1, 2, 2), np.float32)), ms.Tensor([[[[[0, 1], [2, 3]]]]]),
        ...              (1, 2, 2)).shape
        (1, 1, 1, 4, 4)
    """
    return unpool_nd(x, indices, 3, kernel_size, stride, padding, output_size, "MaxUnpool3D")


def _prim(n: int, name: str) -> Any:
    def run(x: Any, argmax: Any, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (),
            data_format: str = "NCHW") -> Tensor:
        k = tuple(ksize)[2:] if isinstance(ksize, (tuple, list)) and len(ksize) == n + 2 else ksize
        s = tuple(strides)[2:] if isinstance(strides, (tuple, list)) and len(strides) == n + 2 else strides
        p = tuple(pads)[2:] if isinstance(pads, (tuple, list)) and len(pads) == n + 2 else pads
        return unpool_nd(x, argmax, n, k, s or None, p, output_shape or None, name)
    run.__doc__ = f"MindSpore's ``ops.{name}(ksize, strides, pads, output_shape)(x, argmax)``."
    return run


OPS: List[Op] = [
    Op("max_unpool1d", "x, indices, kernel_size, stride=None, padding=0, output_size=None", fn=max_unpool1d),
    Op("max_unpool2d", "x, indices, kernel_size, stride=None, padding=0, output_size=None", fn=max_unpool2d),
    Op("max_unpool3d", "x, indices, kernel_size, stride=None, padding=0, output_size=None", fn=max_unpool3d),
    Op("_max_unpool2d_primitive", "x, argmax, ksize, strides=0, pads=0, output_shape=(), data_format='NCHW'",
       fn=_prim(2, "MaxUnpool2D"),
       prim="MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x, argmax) -> x, argmax, "
            "ksize, strides, pads, output_shape, data_format"),
    Op("_max_unpool3d_primitive", "x, argmax, ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW'",
       fn=_prim(3, "MaxUnpool3D"),
       prim="MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x, argmax) -> x, argmax, "
            "ksize, strides, pads, output_shape, data_format"),
]

EXAMPLES = {
    "MaxUnpool2D": ("x = ms.Tensor([[[[0.0, 1.0], [8.0, 9.0]]]])", "i = ms.Tensor([[[[0, 1], [2, 3]]]])",
                    "ops.MaxUnpool2D(1, 1)(x, i)", "[[[[0. 1.]\n   [8. 9.]]]]"),
    "MaxUnpool3D": ("x = ms.Tensor([[[[[0.0, 1.0], [8.0, 9.0]]]]])", "i = ms.Tensor([[[[[0, 1], [2, 3]]]]])",
                    "ops.MaxUnpool3D(1, 1)(x, i)", "[[[[[0. 1.]\n    [8. 9.]]]]]"),
}
