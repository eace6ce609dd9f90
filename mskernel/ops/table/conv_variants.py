"""Op table: the convolution and pooling variants — ``DepthwiseConv2dNative``, ``Dilation2D`` (grey-scale
morphological dilation), ``DeformableOffsets`` with ``deformable_conv2d``, and ``MaxPoolWithArgmax``.

* ``Dilation2D``: ``out[n, c, y, x] = max_(i, j) input[n, c, y * s + i * r, x * s + j * r] + filter[c, i, j]``
  ('SAME' pads with -inf, TensorFlow's split). The winning element is found in numpy and read back by index maps,
  so the gradient goes to it, in the input and in the filter.
* ``DeformableOffsets``: each kernel tap of each output position samples the input bilinearly at its place moved
  by the (x, y) offset and scales it by the mask; the taps are laid out as ``kh x kw`` blocks, so a convolution
  with stride ``kernel_size`` finishes ``deformable_conv2d``. The bilinear weights are built with ops from the
  offsets, so gradients reach the input and the offsets (with the mask).
* ``MaxPoolWithArgmax``: the window maxima and each one's flat position in its sample (channel, row, column).

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> out, mask = ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(x)
    >>> print(out.reshape(-1), mask.reshape(-1))
    [ 5.  7. 13. 15.] [ 5  7 13 15]
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_pool3d import window_index


def _same(size: int, k: int, s: int, d: int) -> Tuple[int, int]:
    """TensorFlow's 'SAME' output size and padding before the input."""
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return out, total // 2


def _windows(x: Tensor, k: Sequence[int], s: Sequence[int], d: Sequence[int], pad_mode: str, op: str,
             pad_before: bool = True) -> np.ndarray:
    """(N, C, oh, ow, kh, kw) flat input positions of each window (-1 in the padding); without ``pad_before``,
    'SAME' pads only after the input."""
    outs, lo = [], []
    for size, kk, ss, dd in zip(x.shape[2:], k, s, d):
        if pad_mode == "SAME":
            o, p = _same(size, kk, ss, dd)
            p = p if pad_before else 0
        else:
            o, p = (size - (kk - 1) * dd - 1) // ss + 1, 0
        if o <= 0:
            raise ValueError(f"For '{op}', the window {list(k)} (dilation {list(d)}) is larger than the input "
                             f"{list(x.shape[2:])}.")
        outs.append(o)
        lo.append(p)
    return window_index(x.shape, k, s, d, lo, outs)


def _argmax_windows(values: np.ndarray) -> np.ndarray:
    flat = values.reshape(values.shape[:4] + (-1,))
    return flat.argmax(-1)


# -- MaxPoolWithArgmax ---------------------------------------------------------------------------------------------
def _pair(value: Any, name: str, op: str) -> Tuple[int, int]:
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{op}', the type of '{name}' should be one of '['int', 'tuple']', but got type "
                        f"'{type(value).__name__}'.")
    v = (value, value) if isinstance(value, int) else tuple(value)
    if len(v) == 4:
        v = v[2:]
    if len(v) != 2 or any(not isinstance(e, int) or isinstance(e, bool) or e <= 0 for e in v):
        raise ValueError(f"For '{op}', the '{name}' must be a positive int or a tuple of two positive ints, but "
                         f"got {value!r}.")
    return v[0], v[1]


def _check_pool_attrs(kernel_size: Any, strides: Any, pad_mode: Any, data_format: Any) -> None:
    op = "MaxPoolWithArgmax"
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{op}', the type of 'pad_mode' should be 'str', but got type "
                        f"'{type(pad_mode).__name__}'.")
    if pad_mode.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in '['VALID', 'SAME']', but got "
                         f"'{pad_mode.upper()}'.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For '{op}', the 'format' must be str and must be in '['NCHW', 'NHWC']', but got "
                         f"'{data_format}'.")
    if data_format == "NHWC":
        raise ValueError(f"For '{op}', the 'NHWC' format is only supported in GPU target, but got the "
                         f"'data_format' is NHWC and the platform is CPU.")
    _pair(kernel_size, "kernel_size", op), _pair(strides, "strides", op)


def max_pool_with_argmax(x: Any, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                         data_format: str = "NCHW") -> Tuple[Tensor, Tensor]:
    """Max pooling of (N, C, H, W) ``x`` and the Int32 position of each maximum in its sample, ``c * H * W +
    h * W + w`` ('SAME' pads with -inf after the input, as the CPU kernel does; the first maximum of a window
    wins).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> out, mask = max_pool_with_argmax(ms.Tensor(np.array([[[[1.0, 3.0], [2.0, 0.0]]]])), 2, 2)
        >>> print(out.reshape(-1), mask.reshape(-1))
        [3.] [1]
    """
    op = "MaxPoolWithArgmax"
    _check_pool_attrs(kernel_size, strides, pad_mode, data_format)
    t = check_tensor(x, op, "x")
    if t.ndim != 4:
        raise ValueError(f"For primitive[{op}], the x_rank must be equal to 4, but got {t.ndim}.")
    k, s = _pair(kernel_size, "kernel_size", op), _pair(strides, "strides", op)
    idx = _windows(t, k, s, (1, 1), pad_mode.upper(), op, pad_before=False)  # measured: the wheel pads after
    data = t._data.reshape(-1)
    vals = np.where(idx >= 0, data[np.maximum(idx, 0)], -np.inf)
    best = np.take_along_axis(idx.reshape(idx.shape[:4] + (-1,)), _argmax_windows(vals)[..., None], -1)[..., 0]
    out = F._gather_map(t, best)
    n, c, h, w = t.shape
    mask = best - (np.arange(n) * (c * h * w)).reshape(n, 1, 1, 1)
    return out, Tensor._wrap(mask.astype(np.int32))


# -- Dilation2D ----------------------------------------------------------------------------------------------------
def _dilation_arg(value: Any, name: str) -> Tuple[int, int]:
    op = "Dilation2D"
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{op}', the type of '{name}' should be one of '['int', 'tuple']', but got type "
                        f"'{type(value).__name__}'.")
    if isinstance(value, int):
        v: Tuple[Any, ...] = (1, 1, value, value)
    elif len(value) == 2:
        v = (1, 1) + tuple(value)
    elif len(value) == 4:
        if value[0] != 1 or value[1] != 1:
            raise ValueError(f"For '{op}' attr '{name}' should be [1, 1, {name}_height, {name}_weigth]when "
                             f"data_format is 'NCHW', but got {value}")
        v = tuple(value)
    else:
        raise ValueError(f"For '{op}' attr '{name}' should be an positive int number or a tuple of two or four "
                         f"positive int numbers, but got {value}")
    if any(not isinstance(e, int) or isinstance(e, bool) or e <= 0 for e in v):
        raise ValueError(f"For '{op}' attr '{name}' should be an positive int number or a tuple of two or four "
                         f"positive int numbers, but got {value}")
    return v[2], v[3]


def _check_dilation_attrs(stride: Any, dilation: Any, pad_mode: Any = "SAME", data_format: Any = "NCHW") -> None:
    op = "Dilation2D"
    if data_format == "NHWC":
        raise ValueError(f"For '{op}', NHWC format is not supported at present.")
    if data_format != "NCHW":
        raise ValueError(f"For '{op}', the 'data_format' must be str and must be in '['NCHW', 'NHWC']', but got "
                         f"'{data_format}'.")
    if not isinstance(pad_mode, str) or pad_mode not in ("VALID", "SAME", "valid", "same"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in '['VALID', 'SAME', 'valid', "
                         f"'same']', but got '{pad_mode}'.")
    _dilation_arg(stride, "stride"), _dilation_arg(dilation, "dilation")


def dilation2d(x: Any, filter: Any, stride: Any, dilation: Any, pad_mode: str = "SAME",
               data_format: str = "NCHW") -> Tensor:
    """Grey-scale dilation of (N, C, H, W) ``x`` by the (C, kh, kw) ``filter`` (see the module docstring).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.array([[[[1.0, 5.0, 2.0]]]]))
        >>> print(dilation2d(x, ms.Tensor(np.array([[[0.0, 1.0]]])), 1, 1, "VALID"))
        [[[[6. 5.]]]]
    """
    op = "Dilation2D"
    _check_dilation_attrs(stride, dilation, pad_mode, data_format)
    t, f = check_tensor(x, op, "x"), check_tensor(filter, op, "filter")
    if t.ndim != 4 or f.ndim != 3 or f.shape[0] != t.shape[1]:
        raise ValueError(f"For '{op}', 'x' must be (N, C, H, W) and 'filter' (C, kh, kw), but got "
                         f"{list(t.shape)} and {list(f.shape)}.")
    if t._data.dtype != f._data.dtype:
        raise TypeError(f"For '{op}', 'x' and 'filter' must have the same dtype, but got {t.dtype} and {f.dtype}.")
    s, r = _dilation_arg(stride, "stride"), _dilation_arg(dilation, "dilation")
    k = f.shape[1:]
    idx = _windows(t, k, s, r, pad_mode.upper(), op)  # (N, C, oh, ow, kh, kw)
    n, c = t.shape[:2]
    fidx = np.broadcast_to((np.arange(c)[:, None, None] * (k[0] * k[1]) +
                            np.arange(k[0] * k[1]).reshape(k))[None, :, None, None], idx.shape)
    data, fdata = t._data.reshape(-1), f._data.reshape(-1)
    vals = np.where(idx >= 0, data[np.maximum(idx, 0)], -np.inf) + fdata[fidx]
    pick = _argmax_windows(vals)[..., None]
    shape = idx.shape[:4] + (-1,)
    best = np.take_along_axis(idx.reshape(shape), pick, -1)[..., 0]
    fbest = np.take_along_axis(fidx.reshape(shape), pick, -1)[..., 0]
    return F._gather_map(t, best) + F._gather_map(f, fbest)


def _dilation_prim(x: Any, filter: Any, stride: Any, dilation: Any, pad_mode: str = "SAME",
                   data_format: str = "NCHW") -> Tensor:
    return dilation2d(x, filter, stride, dilation, pad_mode, data_format)


# -- DepthwiseConv2dNative -----------------------------------------------------------------------------------------
def _check_depthwise_attrs(channel_multiplier: Any, kernel_size: Any, mode: Any = 3, pad_mode: Any = "valid",
                           pad: Any = 0, stride: Any = 1, dilation: Any = 1, group: Any = 1) -> None:
    op = "DepthwiseConv2dNative"
    _pair(kernel_size, "kernel_size", op)
    st, dl = _pair(stride, "stride", op), _pair(dilation, "dilation", op)
    if st[0] != st[1]:
        raise ValueError(f"The height and width of 'stride' must be equal,but got height:{st[0]},  width:{st[1]}")
    if dl[0] != dl[1]:
        raise ValueError(f"The height and width of 'dilation' must be equal,but got height:{dl[0]},  "
                         f"width:{dl[1]}")
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', but "
                         f"got '{pad_mode}'.")
    pads = (pad,) * 4 if isinstance(pad, int) else tuple(pad)
    if len(pads) != 4:
        raise ValueError(f"For '{op}', the 'pad size' must be equal to 4, but got {len(pads)}.")
    if pad_mode.lower() != "pad" and pads != (0, 0, 0, 0):
        raise ValueError(f"For '{op}', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not \"pad\", but "
                         f"got 'pad' is {pad} and 'pad_mode' is {pad_mode}.")
    if mode != 3:
        raise ValueError(f"For '{op}', the 'mode' must be equal to 3, but got {mode}.")
    if not isinstance(channel_multiplier, int) or isinstance(channel_multiplier, bool) or channel_multiplier <= 0:
        raise ValueError(f"For '{op}', the 'channel_multiplier' must be a positive int, but got "
                         f"{channel_multiplier!r}.")


def depthwise_conv2d_native(x: Any, w: Any, channel_multiplier: int, kernel_size: Any, mode: int = 3,
                            pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                            group: int = 1) -> Tensor:
    """Each of the C channels of (N, C, H, W) ``x`` convolved with its own filter of the (1, C, kh, kw) ``w``
    (MindSpore requires a weight batch of 1): (N, C, oh, ow). A ``channel_multiplier`` above 1 asks for more
    outputs than that weight holds filters, so it is an error here (the CPU wheel has no kernel to run it).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 2, 3, 3), np.float32))
        >>> w = ms.Tensor(np.array([1.0, 2.0], np.float32).reshape(1, 2, 1, 1))
        >>> print(depthwise_conv2d_native(x, w, 1, 1)[0, :, 0, 0])
        [1. 2.]
    """
    op = "DepthwiseConv2dNative"
    _check_depthwise_attrs(channel_multiplier, kernel_size, mode, pad_mode, pad, stride, dilation, group)
    t, k = check_tensor(x, op, "x"), check_tensor(w, op, "w")
    if k.ndim != 4:
        raise ValueError(f"For '{op}', the 'weight rank' must be equal to 4, but got {k.ndim}.")
    if t.ndim != 4:
        raise ValueError(f"For '{op}', the 'x rank' must be equal to 4, but got {t.ndim}.")
    if t.shape[1] != k.shape[1]:
        raise ValueError(f"For '{op}', the 'x_shape[1]' must be equal to 'w_shape[1]': {k.shape[1]}, but got "
                         f"{t.shape[1]}.")
    ks = _pair(kernel_size, "kernel_size", op)
    if ks != tuple(k.shape[2:]):
        raise ValueError(f"For '{op}', the 'kernel_size' must be equal to 'w_shape[2:4]': {tuple(k.shape[2:])}, "
                         f"but got {ks}.")
    if k.shape[0] != 1:
        raise ValueError(f"For '{op}', the batch of 'weight' must be 1, but got {k.shape[0]}")
    if channel_multiplier != 1:
        raise ValueError(f"For '{op}', a 'channel_multiplier' of {channel_multiplier} needs {channel_multiplier} "
                         f"filters per channel, but the weight (1, C, kh, kw) holds one.")
    c = t.shape[1]
    weight = F.reshape(k, (c, 1) + tuple(k.shape[2:]))
    padding = pad if isinstance(pad, int) else tuple(pad)
    return F.conv2d(t, weight, None, stride, pad_mode.lower(), padding, dilation, c)


# -- DeformableOffsets / deformable_conv2d -------------------------------------------------------------------------
def _four(value: Any, name: str, op: str) -> Tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != 4 or \
            any(not isinstance(e, int) or isinstance(e, bool) for e in value):
        raise TypeError(f"For '{op}', the '{name}' must be a tuple of 4 ints, but got {value!r}.")
    return tuple(value)


def _check_deform_attrs(strides: Any, pads: Any, ksize: Any, dilations: Any = (1, 1, 1, 1),
                        data_format: Any = "NCHW", deformable_groups: Any = 1, modulated: Any = True) -> None:
    op = "DeformableOffsets"
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For '{op}', the 'data_format' must be str and must be in '['NCHW', 'NHWC']', but got "
                         f"'{data_format}'.")
    c_axis = 3 if data_format == "NHWC" else 1
    s = _four(strides, "strides", op)
    if s[0] != 1 or s[c_axis] != 1:
        raise ValueError(f"For '{op}', The N and C dimensions of 'strides' must be set to 1.")
    _four(pads, "pads", op)
    if not isinstance(ksize, (tuple, list)) or len(ksize) != 2 or any(not isinstance(e, int) for e in ksize):
        raise TypeError(f"For '{op}', the 'kernel_size' must be a tuple of 2 ints, but got {ksize!r}.")
    d = _four(dilations, "dilations", op)
    if d[0] != 1 or d[c_axis] != 1:
        raise ValueError(f"For '{op}', The N and C dimensions of 'dilations' must be set to 1.")
    if not isinstance(deformable_groups, int) or isinstance(deformable_groups, bool) or deformable_groups <= 0:
        raise ValueError(f"For '{op}', the 'deformable_groups' must be a positive int, but got "
                         f"{deformable_groups!r}.")
    if not isinstance(modulated, bool):
        raise TypeError(f"For '{op}', the type of 'modulated' should be 'bool', but got type "
                        f"'{type(modulated).__name__}'.")
    if modulated is not True:
        raise ValueError(f"For '{op}', The modulated must be set to True.")
    if data_format == "NHWC":
        raise ValueError(f"For '{op}', only the 'NCHW' data_format runs on CPU, but got 'NHWC'.")


def deformable_offsets(x: Any, offsets: Any, strides: Any, pads: Any, ksize: Any, dilations: Any = (1, 1, 1, 1),
                       data_format: str = "NCHW", deformable_groups: int = 1, modulated: bool = True) -> Tensor:
    """The deformed taps of (N, C, H, W) ``x``: (N, C, oh * kh, ow * kw), tap (i, j) of output (y, x) sampled at
    ``(y * sh - top + i * dh + offset_y, x * sw - left + j * dw + offset_x)`` and scaled by its mask; ``offsets``
    is (N, 3 * deformable_groups * kh * kw, oh, ow): the x offsets, the y offsets, then the masks.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
        >>> off = ms.Tensor(np.repeat(np.array([0.5, 0.0, 1.0], np.float32), 4).reshape(1, 12, 1, 1))
        >>> print(deformable_offsets(x, off, (1, 1, 1, 1), (0, 0, 0, 0), (2, 2)))
        [[[[0.5 0.5]
           [2.5 1.5]]]]
    """
    op = "DeformableOffsets"
    _check_deform_attrs(strides, pads, ksize, dilations, data_format, deformable_groups, modulated)
    t, o = check_tensor(x, op, "x"), check_tensor(offsets, op, "offsets")
    kh, kw = ksize
    _, _, sh, sw = strides
    top, bottom, left, right = pads
    _, _, dh, dw = dilations
    g = deformable_groups
    if t.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'x' must be 4, but got {t.ndim}.")
    n, c, h, w = t.shape
    if c % g:
        raise ValueError(f"For '{op}', the channels of 'x' ({c}) must be divisible by 'deformable_groups' ({g}).")
    oh = (h + top + bottom - (kh - 1) * dh - 1) // sh + 1
    ow = (w + left + right - (kw - 1) * dw - 1) // sw + 1
    if o.ndim == 4 and tuple(o.shape[2:]) != (oh, ow):
        raise ValueError(f"For '{op}, the H and W dims of offsets input should be equal to the computed H and W dims "
                         f"of the output of deformable_conv2d. But got H and W dims of offsets input: "
                         f"({o.shape[2]}, {o.shape[3]}), computed H and W dims of the output of deformable_conv2d: "
                         f"({oh}, {ow}).")
    want = (n, 3 * g * kh * kw, oh, ow)
    if tuple(o.shape) != want:
        raise ValueError(f"For '{op}', the shape of 'offsets' must be {list(want)}, but got {list(o.shape)}.")
    o6 = F.reshape(o, (n, 3, g, kh, kw, oh, ow))
    by = (np.arange(oh)[None, :] * sh - top + np.arange(kh)[:, None] * dh).reshape(1, 1, kh, 1, oh, 1)
    bx = (np.arange(ow)[None, :] * sw - left + np.arange(kw)[:, None] * dw).reshape(1, 1, 1, kw, 1, ow)
    dt = t._data.dtype
    py = F.getitem(o6, (slice(None), 1)) + Tensor._wrap(by.astype(dt))  # (n, g, kh, kw, oh, ow)
    px = F.getitem(o6, (slice(None), 0)) + Tensor._wrap(bx.astype(dt))
    mask = F.getitem(o6, (slice(None), 2))
    yv, xv = py._data.astype(np.float64), px._data.astype(np.float64)
    live = (yv > -1) & (yv < h) & (xv > -1) & (xv < w)
    y0, x0 = np.floor(yv).astype(np.int64), np.floor(xv).astype(np.int64)
    per = c // g
    group_of = np.arange(c) // per
    planes = ((np.arange(n)[:, None] * c + np.arange(c)[None, :]) * (h * w)).reshape(n, c, 1, 1, 1, 1)

    def read(yy: np.ndarray, xx: np.ndarray) -> Tensor:
        ok = live & (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
        flat = np.where(ok, yy * w + xx, -1)[:, group_of]  # (n, c, kh, kw, oh, ow)
        return F._gather_map(t, np.where(flat >= 0, flat + planes, -1))

    def per_channel(v: Tensor) -> Tensor:
        return F.repeat_interleave(v, per, 1) if per > 1 else v

    ly = per_channel(py - Tensor._wrap(y0.astype(dt)))
    lx = per_channel(px - Tensor._wrap(x0.astype(dt)))
    # the weighted sum of the four neighbours (not a + (b - a) * l, which turns one infinite neighbour into NaN)
    top_row = read(y0, x0) * (1 - lx) + read(y0, x0 + 1) * lx
    bottom_row = read(y0 + 1, x0) * (1 - lx) + read(y0 + 1, x0 + 1) * lx
    val = (top_row * (1 - ly) + bottom_row * ly) * per_channel(mask)  # (n, c, kh, kw, oh, ow)
    return F.reshape(F.transpose(val, (0, 1, 4, 2, 5, 3)), (n, c, oh * kh, ow * kw))


def _deformable_prim(x: Any, offsets: Any, strides: Any, pads: Any, ksize: Any, dilations: Any = (1, 1, 1, 1),
                     data_format: str = "NCHW", deformable_groups: int = 1, modulated: bool = True) -> Tensor:
    return deformable_offsets(x, offsets, strides, pads, ksize, dilations, data_format, deformable_groups, modulated)


def deformable_conv2d(x: Any, weight: Any, offsets: Any, kernel_size: Any, strides: Any, padding: Any,
                      bias: Any = None, dilations: Any = (1, 1, 1, 1), groups: int = 1, deformable_groups: int = 1,
                      modulated: bool = True) -> Tensor:
    """Deformable convolution: ``DeformableOffsets`` of ``x``, then a convolution with ``weight`` (stride
    ``kernel_size``), plus ``bias``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 3, 4, 4), np.float32))
        >>> w = ms.Tensor(np.ones((5, 3, 3, 3), np.float32))
        >>> off = ms.Tensor(np.ones((1, 27, 2, 2), np.float32))
        >>> deformable_conv2d(x, w, off, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0)).shape
        (1, 5, 2, 2)
    """
    taps = deformable_offsets(x, offsets, strides, padding, kernel_size, dilations, "NCHW", deformable_groups,
                              modulated)
    out = F.conv2d(taps, weight, None, tuple(kernel_size), "valid", 0, 1, groups)
    return out if bias is None else out + F.reshape(bias, (1, -1, 1, 1))


def _pool_prim(x: Any, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
               data_format: str = "NCHW") -> Tuple[Tensor, Tensor]:
    return max_pool_with_argmax(x, kernel_size, strides, pad_mode, data_format)


def _depthwise_prim(x: Any, w: Any, channel_multiplier: int, kernel_size: Any, mode: int = 3,
                    pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                    group: int = 1) -> Tensor:
    return depthwise_conv2d_native(x, w, channel_multiplier, kernel_size, mode, pad_mode, pad, stride, dilation,
                                   group)


_pool_prim.init_check = _check_pool_attrs  # type: ignore[attr-defined]
_dilation_prim.init_check = _check_dilation_attrs  # type: ignore[attr-defined]
_depthwise_prim.init_check = _check_depthwise_attrs  # type: ignore[attr-defined]
_deformable_prim.init_check = _check_deform_attrs  # type: ignore[attr-defined]

OPS: List[Op] = [
    Op("_max_pool_with_argmax", "x, kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'", fn=_pool_prim,
       prim="MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x) -> x, "
            "kernel_size, strides, pad_mode, data_format"),
    Op("_dilation2d", "x, filter, stride, dilation, pad_mode='SAME', data_format='NCHW'", fn=_dilation_prim,
       prim="Dilation2D(stride, dilation, pad_mode='SAME', data_format='NCHW')(x, filter) -> x, filter, stride, "
            "dilation, pad_mode, data_format"),
    Op("_depthwise_conv2d_native", "x, w, channel_multiplier, kernel_size, mode=3, pad_mode='valid', pad=0, "
       "stride=1, dilation=1, group=1", fn=_depthwise_prim,
       prim="DepthwiseConv2dNative(channel_multiplier, kernel_size, mode=3, pad_mode='valid', pad=0, stride=1, "
            "dilation=1, group=1)(x, w) -> x, w, channel_multiplier, kernel_size, mode, pad_mode, pad, stride, "
            "dilation, group"),
    Op("_deformable_offsets", "x, offsets, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format='NCHW', "
       "deformable_groups=1, modulated=True", fn=_deformable_prim,
       prim="DeformableOffsets(strides, pads, ksize, dilations=(1, 1, 1, 1), data_format='NCHW', "
            "deformable_groups=1, modulated=True)(x, offsets) -> x, offsets, strides, pads, ksize, dilations, "
            "data_format, deformable_groups, modulated"),
    Op("deformable_conv2d", "x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1), "
       "groups=1, deformable_groups=1, modulated=True", fn=deformable_conv2d),
]

EXAMPLES = {
    "MaxPoolWithArgmax": ("import numpy as np", "x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))",
                          "out, mask = ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(x)",
                          "out.reshape(-1), mask.reshape(-1)", "[ 5.  7. 13. 15.] [ 5  7 13 15]"),
    "Dilation2D": ("ops.Dilation2D(1, 1, 'VALID')(ms.Tensor([[[[1.0, 5.0, 2.0]]]]), ms.Tensor([[[0.0, 1.0]]]))",
                   "[[[[6. 5.]]]]"),
    "DepthwiseConv2dNative": ("import numpy as np", "x = ms.Tensor(np.ones((1, 2, 3, 3), np.float32))",
                              "w = ms.Tensor(np.array([1.0, 2.0], np.float32).reshape(1, 2, 1, 1))",
                              "ops.DepthwiseConv2dNative(1, 1)(x, w)[0, :, 0, 0]", "[1. 2.]"),
    "DeformableOffsets": ("x = ms.Tensor([[[[0.0, 1.0], [2.0, 3.0]]]])",
                          "off = ms.Tensor([[[[0.5]]]] * 4 + [[[[0.0]]]] * 4 + [[[[1.0]]]] * 4).reshape(1, 12, 1, 1)",
                          "ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(x, off)",
                          "[[[[0.5 0.5]\n   [2.5 1.5]]]]"),
}
