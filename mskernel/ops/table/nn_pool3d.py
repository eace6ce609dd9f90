"""Op table: pooling over any number of spatial axes by window index maps — ``max_pool3d``, ``avg_pool3d``,
``adaptive_avg_pool3d``, ``adaptive_max_pool1d``/``3d``, ``lp_pool1d``/``2d``, and the primitives ``MaxPool3D``,
``AvgPool3D``, ``AdaptiveAvgPool2D``/``3D`` and ``AdaptiveMaxPool2D``/``3D``.

A window's elements are found by an index map (:func:`window_index`: each output position and window offset gives
the flat position of the input element it reads, -1 for padding). Max pooling picks each window's first largest
element and gathers it (:func:`rearrange.gather_map`, so the gradient goes to that element alone); average
pooling gathers every window, sums and divides by the window's count; adaptive average pooling multiplies each
spatial axis by its averaging matrix.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
    >>> print(ops.max_pool3d(x, 2).reshape(-1), ops.avg_pool3d(x, 2).reshape(-1))
    [7.] [3.5]
"""
from __future__ import annotations

import itertools
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_pool import _out_len
from mskernel.ops.table.nn_resize import _matrix, apply_axis
from mskernel.ops.table.rearrange import gather_map


def _tuple(value: Any, n: int, name: str, op: str) -> Tuple[int, ...]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(isinstance(v, (int, np.integer)) for v in value):
        return tuple(int(v) for v in value)
    raise ValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {value!r}.")


def window_index(shape: Sequence[int], k: Sequence[int], s: Sequence[int], d: Sequence[int], lo: Sequence[int],
                 out: Sequence[int]) -> np.ndarray:
    """For (N, C, *spatial) ``shape``: an int64 array (N, C, *out, *k) of each window element's flat position in
    the input (-1 where the window reads padding). ``lo`` is the padding before each spatial axis.

    Example:
        >>> window_index((1, 1, 3), (2,), (1,), (1,), (1,), (3,))[0, 0]
        array([[-1,  0],
               [ 0,  1],
               [ 1,  2]])
    """
    n = len(k)
    spatial = tuple(shape[2:])
    pos = np.zeros(tuple(out) + tuple(k), np.int64)
    valid = np.ones(pos.shape, bool)
    stride = 1
    for i in reversed(range(n)):
        p = np.arange(out[i])[:, None] * s[i] - lo[i] + np.arange(k[i])[None, :] * d[i]
        view = [1] * (2 * n)
        view[i], view[n + i] = out[i], k[i]
        p = p.reshape(view)
        valid &= (p >= 0) & (p < spatial[i])
        pos = pos + p * stride
        stride *= spatial[i]
    plane = stride
    base = (np.arange(shape[0] * shape[1], dtype=np.int64) * plane).reshape((shape[0], shape[1]) + (1,) * (2 * n))
    return np.where(valid, pos + base, -1)


def _geometry(x: Tensor, n: int, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
              op: str) -> Tuple[tuple, tuple, tuple, tuple, tuple]:
    k = _tuple(kernel_size, n, "kernel_size", op)
    s = k if stride is None or stride == 0 else _tuple(stride, n, "stride", op)
    d = _tuple(dilation, n, "dilation", op)
    p = _tuple(padding, n, "padding", op)
    out = tuple(_out_len(x.shape[2 + i], k[i], s[i], d[i], p[i], p[i], ceil_mode) for i in range(n))
    if min(out) < 1:
        raise ValueError(f"For '{op}', the output shape must be positive, but got {(*x.shape[:2], *out)}.")
    return k, s, d, p, out


def _pick_max(x: Tensor, index: np.ndarray, n: int) -> np.ndarray:
    """The flat input position of each window's first largest element (index has n window axes last)."""
    flat = x._data.reshape(-1)
    vals = np.where(index >= 0, flat[np.maximum(index, 0)], -np.inf)
    lead = index.shape[:index.ndim - n]
    vals = vals.reshape(lead + (-1,))
    at = np.argmax(np.where(np.isnan(vals), np.inf, vals), axis=-1)[..., None]
    return np.take_along_axis(index.reshape(lead + (-1,)), at, -1)[..., 0]


def _max_pool_nd(x: Tensor, n: int, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                 return_indices: bool, op: str) -> Any:
    k, s, d, p, out = _geometry(x, n, kernel_size, stride, padding, dilation, ceil_mode, op)
    chosen = _pick_max(x, window_index(x.shape, k, s, d, p, out), n)
    values = gather_map(x, chosen)
    if return_indices:
        plane = int(np.prod(x.shape[2:]))
        return values, Tensor._wrap((chosen % plane).astype(np.int64))
    return values


def max_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """The largest element of each window of (N, C, D, H, W) (``stride`` defaults to ``kernel_size``); with
    ``return_indices`` also each one's flat position in its (D, H, W) volume (Int64).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> out, idx = max_pool3d(ms.Tensor(np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3)), 2, 1,
        ...                       return_indices=True)
        >>> print(out.shape, idx[0, 0, 0])
        (1, 1, 2, 2, 2) [[13 14]
         [16 17]]
    """
    t = check_tensor(x, "MaxPool3DWithArgmax", "x")
    if t.ndim != 5:
        raise ValueError(f"For primitive[MaxPool3DWithArgmax], the input x rank must be equal to 5, but got {t.ndim}.")
    return _max_pool_nd(t, 3, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                        "MaxPool3DWithArgmax")


def _avg_pool_nd(x: Tensor, n: int, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
                 count_include_pad: bool, divisor: Optional[int], op: str) -> Tensor:
    k, s, d, p, out = _geometry(x, n, kernel_size, stride, padding, 1, ceil_mode, op)
    index = window_index(x.shape, k, s, d, p, out)
    summed = F.sum(gather_map(x, index), tuple(range(-n, 0)))
    if divisor:
        return summed / float(divisor)
    if count_include_pad:  # the window inside the explicitly padded input (ceil_mode's extra cells not counted)
        count = np.ones(tuple(out), np.int64)
        for i in range(n):
            start = np.arange(out[i]) * s[i] - p[i]
            size = np.minimum(start + k[i], x.shape[2 + i] + p[i]) - start
            view = [1] * n
            view[i] = out[i]
            count = count * size.reshape(view)
    else:
        count = (index[0, 0] >= 0).sum(axis=tuple(range(n, 2 * n)))
    return summed / Tensor._wrap(np.maximum(count, 1).astype(x._data.dtype))


def _check_avg3d(t: Tensor) -> None:
    if t._data.dtype.kind != "f":
        raise TypeError(f"For primitive[AvgPool3D], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{t.dtype}].")
    if t.ndim != 5:
        raise ValueError(f"For primitive[AvgPool3D], the x_rank must be equal to 5, but got {t.ndim}.")


def avg_pool3d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """The mean of each window of (N, C, D, H, W) (zero padding counted unless ``count_include_pad`` is False;
    ``divisor_override`` divides by a fixed number).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))
        >>> print(avg_pool3d(x, 2, 1).reshape(-1))
        [ 3.5 11.5]
    """
    t = check_tensor(input_x, "AvgPool3D", "input_x")
    _check_avg3d(t)
    return _avg_pool_nd(t, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override or None,
                        "AvgPool3D")


def lp_pool_nd(x: Any, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool, n: int, op: str) -> Tensor:
    """``(sum of x ** norm_type over each window) ** (1 / norm_type)``, as MindSpore computes it: the window mean
    of ``x ** p`` times the window size, its sign kept and its magnitude's ``1/p`` power taken."""
    t = check_tensor(x, op, "x")
    if t.ndim not in (n + 1, n + 2):
        raise ValueError(f"For '{op}', the input must be {n + 1}-D or {n + 2}-D, but got {t.ndim}-D.")
    batched = t if t.ndim == n + 2 else F.expand_dims(t, 0)
    k = _tuple(kernel_size, n, "kernel_size", op)
    powered = F.pow(batched, float(norm_type))
    mean = _avg_pool_nd(powered, n, k, stride, 0, ceil_mode, True, None, op)
    # a window whose powers hold a NaN (a negative base to a fractional power) gives 0, as MindSpore's does
    total = F.where(F.isnan(mean), 0.0, F.sign(mean) * F.relu(F.abs(mean))) * float(np.prod(k))
    out = F.pow(total, 1.0 / float(norm_type))
    return out if t.ndim == n + 2 else F.squeeze(out, 0)


def lp_pool1d(x: Any, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> Tensor:
    """The power-``norm_type`` norm of each window of the last axis of (N, C, L) or (C, L).

    Example:
        >>> import mskernel as ms
        >>> print(lp_pool1d(ms.Tensor([[[3.0, 4.0, 1.0, 1.0]]]), 2, 2))
        [[[5.        1.4142135]]]
    """
    return lp_pool_nd(x, norm_type, kernel_size, stride, ceil_mode, 1, "lp_pool1d")


def lp_pool2d(x: Any, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> Tensor:
    """The power-``norm_type`` norm of each window of the last two axes of (N, C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(lp_pool2d(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)), 1, 2))
        [[[[4.]]]]
    """
    return lp_pool_nd(x, norm_type, kernel_size, stride, ceil_mode, 2, "lp_pool2d")


def _adaptive_sizes(x: Tensor, output_size: Any, n: int, op: str) -> Tuple[int, ...]:
    sizes = (output_size,) * n if isinstance(output_size, (int, np.integer)) or output_size is None \
        else tuple(output_size)
    if len(sizes) != n:
        raise ValueError(f"For '{op}', 'output_size' must be an int or a tuple of {n} values, but got "
                         f"{output_size!r}.")
    spatial = x.shape[x.ndim - n:]
    return tuple(spatial[i] if v is None else int(v) for i, v in enumerate(sizes))


def _bounds(size: int, out: int, i: int) -> Tuple[int, int]:
    return (i * size) // out, -(-((i + 1) * size) // out)


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Tensor:
    """Average over the regions that split D, H and W of (N, C, D, H, W) or (C, D, H, W) into ``output_size``
    cells (None keeps a size).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(adaptive_avg_pool3d(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)), (1, 1, 2)))
        [[[[3. 4.]]]]
    """
    x = check_tensor(input, "AdaptiveAvgPool3D", "input")
    if x.ndim not in (4, 5):
        raise ValueError(f"For 'AdaptiveAvgPool3D', the input must be 4-D or 5-D, but got {x.ndim}-D.")
    out = x
    for axis, o in zip(range(x.ndim - 3, x.ndim), _adaptive_sizes(x, output_size, 3, "AdaptiveAvgPool3D")):
        out = apply_axis(out, _matrix("area", x.shape[axis], o, None, False), axis)
    return out


def _adaptive_max_nd(x: Tensor, output_size: Any, n: int, return_indices: bool, op: str) -> Any:
    out = _adaptive_sizes(x, output_size, n, op)
    spatial = x.shape[x.ndim - n:]
    lead = x.shape[:x.ndim - n]
    plane = int(np.prod(spatial))
    pos = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    chosen = np.empty(lead + out, np.int64)
    data = x._data
    for cell in itertools.product(*(range(o) for o in out)):
        region = (Ellipsis,) + tuple(slice(*_bounds(spatial[i], out[i], c)) for i, c in enumerate(cell))
        block = data[region].reshape(lead + (-1,))
        at = np.argmax(np.where(np.isnan(block), np.inf, block), axis=-1)[..., None]
        chosen[(Ellipsis,) + cell] = np.take_along_axis(pos[region].reshape(block.shape), at, -1)[..., 0]
    values = gather_map(x, chosen)
    if return_indices:
        return values, Tensor._wrap((chosen % plane).astype(np.int64))
    return values


def adaptive_max_pool1d(input: Any, output_size: int) -> Tensor:
    """The largest element of each region splitting the last axis of (N, C, L) into ``output_size`` (L a multiple
    of it).

    Example:
        >>> import mskernel as ms
        >>> print(adaptive_max_pool1d(ms.Tensor([[[1.0, 5.0, 2.0, 4.0]]]), 2))
        [[[5. 4.]]]
    """
    x = check_tensor(input, "AdaptiveMaxPool1D", "input")
    if x.ndim != 3:
        raise ValueError(f"For adaptive_max_pool1d input must have 3 dim, but got {x.ndim}.")
    if not isinstance(output_size, (int, np.integer)) or isinstance(output_size, bool):
        raise TypeError(f"For 'adaptive_max_pool1d', the 'output_size' must be an int, but got "
                        f"{type(output_size).__name__}.")
    if x.shape[-1] % output_size:
        raise ValueError(f"For adaptive_max_pool1d input's last dimension must be divisible by output size "
                         f"{output_size}, but got {x.shape[-1]}.")
    return _adaptive_max_nd(x, output_size, 1, False, "AdaptiveMaxPool1D")


def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """The largest element of each adaptive region of (N, C, D, H, W) or (C, D, H, W); with ``return_indices``
    also its flat position in its volume.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(adaptive_max_pool3d(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)), 1))
        [[[[7.]]]]
    """
    x = check_tensor(input, "AdaptiveMaxPool3D", "input")
    if x.ndim not in (4, 5):
        raise ValueError(f"For 'AdaptiveMaxPool3D', the input must be 4-D or 5-D, but got {x.ndim}-D.")
    out = _adaptive_max_nd(x, output_size, 3, return_indices, "AdaptiveMaxPool3D")
    return (out[0], Tensor._wrap(out[1]._data.astype(np.int32))) if return_indices else out


def _same_3d(x: Tensor, k: tuple, s: tuple) -> tuple:
    from mskernel.ops.table.nn_conv import same_pads
    return tuple(same_pads(x.shape[2 + i], k[i], s[i], 1) for i in range(3))


def _max_pool3d_prim(x: Any, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "VALID", pad_list: Any = 0,
                     ceil_mode: Any = None, data_format: str = "NCDHW") -> Tensor:
    t = check_tensor(x, "MaxPool3D", "x")
    k, s = _tuple(kernel_size, 3, "kernel_size", "MaxPool3D"), _tuple(strides, 3, "strides", "MaxPool3D")
    mode = pad_mode.upper()
    if mode == "VALID":
        return _max_pool_nd(t, 3, k, s, 0, 1, bool(ceil_mode), False, "MaxPool3D")
    pads = _same_3d(t, k, s) if mode == "SAME" else tuple(
        (p, p) for p in _tuple(pad_list, 3, "pad_list", "MaxPool3D")) if isinstance(pad_list, int) or len(
        pad_list) == 3 else tuple((pad_list[2 * i], pad_list[2 * i + 1]) for i in range(3))
    index = _asym_index(t, k, s, pads, bool(ceil_mode))
    return gather_map(t, _pick_max(t, index, 3))


def _asym_index(t: Tensor, k: tuple, s: tuple, pads: tuple, ceil_mode: bool) -> np.ndarray:
    out = tuple(_out_len(t.shape[2 + i], k[i], s[i], 1, pads[i][0], pads[i][1], ceil_mode) for i in range(3))
    return window_index(t.shape, k, s, (1, 1, 1), tuple(p[0] for p in pads), out)


def _avg_pool3d_prim(x: Any, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", pad: Any = 0,
                     ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int = 0,
                     data_format: str = "NCDHW") -> Tensor:
    t = check_tensor(x, "AvgPool3D", "x")
    _check_avg3d(t)
    k, s = _tuple(kernel_size, 3, "kernel_size", "AvgPool3D"), _tuple(strides, 3, "strides", "AvgPool3D")
    mode = pad_mode.lower()
    if mode == "valid":
        return _avg_pool_nd(t, 3, k, s, 0, ceil_mode, count_include_pad, divisor_override or None, "AvgPool3D")
    if mode == "pad":
        p = pad if isinstance(pad, int) else tuple(pad)
        if isinstance(p, int) or len(p) == 3:
            return _avg_pool_nd(t, 3, k, s, p, ceil_mode, count_include_pad, divisor_override or None, "AvgPool3D")
        pads = tuple((p[2 * i], p[2 * i + 1]) for i in range(3))
    else:
        pads = _same_3d(t, k, s)
    index = _asym_index(t, k, s, pads, ceil_mode)
    summed = F.sum(gather_map(t, index), (-3, -2, -1))
    if divisor_override:
        return summed / float(divisor_override)
    count = (index[0, 0] >= 0).sum(axis=(3, 4, 5)) if not count_include_pad else np.prod(k)
    return summed / Tensor._wrap(np.maximum(np.asarray(count), 1).astype(t._data.dtype))


def _adaptive_avg2d_prim(x: Any, output_size: Any) -> Tensor:
    from mskernel.ops.table.nn_pool import adaptive_avg_pool2d
    return adaptive_avg_pool2d(x, output_size)


def _adaptive_max2d_prim(x: Any, output_size: Any) -> Tuple[Tensor, Tensor]:
    t = check_tensor(x, "AdaptiveMaxPool2D", "input_x")
    return _adaptive_max_nd(t, output_size, 2, True, "AdaptiveMaxPool2D")


def _adaptive_max3d_prim(x: Any, output_size: Any) -> Tuple[Tensor, Tensor]:
    t = check_tensor(x, "AdaptiveMaxPool3D", "x")
    size = output_size._data.tolist() if isinstance(output_size, Tensor) else output_size
    values, index = _adaptive_max_nd(t, tuple(size), 3, True, "AdaptiveMaxPool3D")
    return values, Tensor._wrap(index._data.astype(np.int32))


def _with_argmax(n: int, prim: str) -> Any:
    def run(x: Any, kernel_size: Any, strides: Any = None, pads: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
            argmax_type: Any = None) -> Tuple[Tensor, Tensor]:
        t = check_tensor(x, prim, "x")
        if t.ndim != n + 2:
            raise ValueError(f"For primitive[{prim}], the input x rank must be equal to {n + 2}, but got {t.ndim}.")
        out, idx = _max_pool_nd(t, n, kernel_size, strides, pads, dilation, ceil_mode, True, prim)
        if argmax_type is not None and str(argmax_type) == "Int32":
            idx = Tensor._wrap(idx._data.astype(np.int32))
        return out, idx
    run.__doc__ = f"MindSpore's ``ops.{prim}``: the maxima of each window and their flat positions in their plane."
    return run


OPS: List[Op] = [
    Op("max_pool3d", "x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
       fn=max_pool3d),
    Op("avg_pool3d", "input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True, "
       "divisor_override=0", fn=avg_pool3d),
    Op("lp_pool1d", "x, norm_type, kernel_size, stride=None, ceil_mode=False", fn=lp_pool1d),
    Op("lp_pool2d", "x, norm_type, kernel_size, stride=None, ceil_mode=False", fn=lp_pool2d),
    Op("adaptive_avg_pool3d", "input, output_size", fn=adaptive_avg_pool3d),
    Op("adaptive_max_pool1d", "input, output_size", fn=adaptive_max_pool1d),
    Op("adaptive_max_pool3d", "input, output_size, return_indices=False", fn=adaptive_max_pool3d),
    Op("_max_pool3d_primitive", "x, kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None, "
       "data_format='NCDHW'", fn=_max_pool3d_prim,
       prim="MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None, data_format='NCDHW')"
            "(x) -> x, kernel_size, strides, pad_mode, pad_list, ceil_mode, data_format"),
    Op("_avg_pool3d_primitive", "x, kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, "
       "count_include_pad=True, divisor_override=0, data_format='NCDHW'", fn=_avg_pool3d_prim,
       prim="AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, count_include_pad=True, "
            "divisor_override=0, data_format='NCDHW')(x) -> x, kernel_size, strides, pad_mode, pad, ceil_mode, "
            "count_include_pad, divisor_override, data_format"),
    Op("_max_pool3d_with_argmax", "x, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, "
       "argmax_type=mindspore.int64", fn=_with_argmax(3, "MaxPool3DWithArgmax"),
       prim="MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format='NCDHW', "
            "argmax_type=mindspore.int64)(x) -> x, ksize, strides, pads, dilation, ceil_mode, argmax_type"),
    Op("_max_pool_with_argmax_v2", "x, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False, "
       "argmax_type=mindspore.int64", fn=_with_argmax(2, "MaxPoolWithArgmaxV2"),
       prim="MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False, "
            "argmax_type=mindspore.int64)(x) -> x, kernel_size, strides, pads, dilation, ceil_mode, argmax_type"),
    Op("_adaptive_avg_pool2d_primitive", "x, output_size", fn=_adaptive_avg2d_prim,
       prim="AdaptiveAvgPool2D(output_size)(input_x) -> input_x, output_size"),
    Op("_adaptive_avg_pool3d_primitive", "x, output_size", fn=adaptive_avg_pool3d,
       prim="AdaptiveAvgPool3D(output_size)(x) -> x, output_size"),
    Op("_adaptive_max_pool2d_primitive", "x, output_size", fn=_adaptive_max2d_prim,
       prim="AdaptiveMaxPool2D(output_size)(input_x) -> input_x, output_size"),
    Op("_adaptive_max_pool3d_primitive", "x, output_size", fn=_adaptive_max3d_prim,
       prim="AdaptiveMaxPool3D()(x, output_size) -> x, output_size"),
]

EXAMPLES = {
    "MaxPool3D": ("import numpy as np", "x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))",
                  "ops.MaxPool3D(kernel_size=2, strides=1)(x).reshape(-1)", "[ 7. 15.]"),
    "AvgPool3D": ("import numpy as np", "x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))",
                  "ops.AvgPool3D(kernel_size=2, strides=1)(x).reshape(-1)", "[ 3.5 11.5]"),
    "MaxPool3DWithArgmax": ("import numpy as np",
                            "x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))",
                            "out, idx = ops.MaxPool3DWithArgmax(2, 1, 0)(x)", "out.reshape(-1), idx.reshape(-1)",
                            "[ 7. 15.] [7 7]"),
    "MaxPoolWithArgmaxV2": ("import numpy as np", "x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2))",
                            "out, idx = ops.MaxPoolWithArgmaxV2(2, 1, argmax_type=ms.int32)(x)",
                            "out.reshape(-1), idx.reshape(-1), idx.dtype", "[3. 7.] [3 3] Int32"),
    "AdaptiveAvgPool2D": ("ops.AdaptiveAvgPool2D((1, 2))(ms.Tensor([[[1.0, 2.0], [3.0, 4.0]]]))", "[[[2. 3.]]]"),
    "AdaptiveAvgPool3D": ("ops.AdaptiveAvgPool3D(1)(ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))", "[[[[2.5]]]]"),
    "AdaptiveMaxPool2D": ("out, idx = ops.AdaptiveMaxPool2D((1, 1))(ms.Tensor([[[1.0, 2.0], [4.0, 3.0]]]))",
                          "out, idx", "[[[4.]]] [[[2]]]"),
    "AdaptiveMaxPool3D": ("out, idx = ops.AdaptiveMaxPool3D()(ms.Tensor([[[[1.0, 2.0], [4.0, 3.0]]]]), "
                          "ms.Tensor([1, 1, 1]))", "out, idx", "[[[[4.]]]] [[[[2]]]]"),
}
