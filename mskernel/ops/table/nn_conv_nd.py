"""Op table: convolutions over three spatial axes and their transposes — ``conv3d``, ``conv3d_transpose``, the
``Conv3D``/``Conv3DTranspose`` primitives — and the 2-D transposed convolution primitives ``Conv2DTranspose`` and
``Conv2DBackpropInput``.

A convolution gathers every window of the (padded) input by an index map
(:func:`mskernel.ops.table.nn_pool3d.window_index`) and contracts it with the weight by ``tensordot``; a transposed
convolution spreads each input element times the weight over its window of the output (the adjoint gather,
``_scatter_map``). Both are op-table ops, so gradients and higher derivatives follow. Groups split the channels.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.ones((1, 1, 3, 3, 3), np.float32))
    >>> print(ops.conv3d(x, ms.Tensor(np.ones((1, 1, 2, 2, 2), np.float32))).reshape(-1))
    [8. 8. 8. 8. 8. 8. 8. 8.]
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_conv import same_pads
from mskernel.ops.table.nn_pool3d import window_index


def _ints(value: Any, n: int, name: str, op: str, lead: int = 0) -> Tuple[int, ...]:
    """An int or an n-tuple (or MindSpore's (1, 1, ...) form with ``lead`` leading entries) as an n-tuple."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * n
    v = tuple(int(a) for a in value)
    if len(v) == n:
        return v
    if lead and len(v) == n + lead:
        return v[lead:]
    raise ValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {value!r}.")


def _pad_pairs(x_spatial: Sequence[int], k: tuple, s: tuple, d: tuple, pad_mode: str, padding: Any,
               op: str) -> List[Tuple[int, int]]:
    n = len(k)
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', but got "
                         f"'{pad_mode}'.")
    flat = (int(padding),) * (2 * n) if isinstance(padding, (int, np.integer)) else tuple(int(p) for p in padding)
    if len(flat) == n:
        flat = tuple(p for p in flat for _ in (0, 1))
    if len(flat) != 2 * n:
        raise ValueError(f"For '{op}', 'padding' must be an int or a tuple of {n} or {2 * n} ints, but got "
                         f"{padding!r}.")
    if mode != "pad":
        if any(flat):
            raise ValueError(f"For '{op}', 'padding' must be 0 when 'pad_mode' is not 'pad', but got {padding!r}.")
        if mode == "same":
            return [same_pads(x_spatial[i], k[i], s[i], d[i]) for i in range(n)]
        return [(0, 0)] * n
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(n)]


def conv_nd(x: Tensor, w: Tensor, stride: tuple, dilation: tuple, pads: Sequence[Tuple[int, int]], groups: int,
            op: str) -> Tensor:
    """The cross-correlation of (N, C, *spatial) ``x`` with (O, C / groups, *k) ``w`` (no bias).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> conv_nd(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)), ms.Tensor(np.ones((3, 2, 2, 2), np.float32)),
        ...         (2, 2), (1, 1), [(0, 0), (0, 0)], 1, "Conv2D").shape
        (1, 3, 2, 2)
    """
    n = w.ndim - 2
    k = tuple(w.shape[2:])
    if x.shape[1] != w.shape[1] * groups:
        raise ValueError(f"For '{op}', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to "
                         f"'C_in' of input 'weight' shape: {w.shape[1]}, but got 'C_in' of input 'x' shape: "
                         f"{x.shape[1]}, and 'group': {groups}.")
    out = []
    for i in range(n):
        span = x.shape[2 + i] + pads[i][0] + pads[i][1] - dilation[i] * (k[i] - 1) - 1
        if span < 0:
            raise ValueError(f"For '{op}', the kernel {list(k)} (dilated by {list(dilation)}) is larger than the "
                             f"padded input {[x.shape[2 + j] + sum(pads[j]) for j in range(n)]}.")
        out.append(span // stride[i] + 1)
    half = x._data.dtype == np.float16  # numpy's float16 products are slow: half precision computed in float32
    if half:
        x, w = F.cast(x, mstype.float32), F.cast(w, mstype.float32)
    cols = F._gather_map(x, window_index(x.shape, k, stride, dilation, tuple(p[0] for p in pads), tuple(out)))
    cg, og = w.shape[1], w.shape[0] // groups
    win = list(range(2 + n, 2 + 2 * n))
    parts = []
    for g in range(groups):
        cols_g = cols if groups == 1 else F.getitem(cols, (slice(None), slice(g * cg, (g + 1) * cg)))
        w_g = w if groups == 1 else F.getitem(w, slice(g * og, (g + 1) * og))
        y = F.tensor_dot(cols_g, w_g, ([1] + win, [1] + list(range(2, 2 + n))))  # (N, *out, og)
        parts.append(F.transpose(y, (0, n + 1) + tuple(range(1, n + 1))))
    out_t = parts[0] if groups == 1 else F.concat(parts, 1)
    return F.cast(out_t, mstype.float16) if half else out_t


def conv_transpose_nd(x: Tensor, w: Tensor, stride: tuple, dilation: tuple, pads: Sequence[Tuple[int, int]],
                      output_padding: tuple, groups: int, op: str) -> Tensor:
    """The transposed convolution of (N, C_in, *spatial) ``x`` with (C_in, C_out / groups, *k) ``w``: each
    input element times the kernel, added into its window of the output; ``pads`` crop the output's sides and
    ``output_padding`` extends its far ends.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(conv_transpose_nd(ms.Tensor([[[1.0, 2.0]]]), ms.Tensor([[[1.0, 1.0]]]), (2,), (1,), [(0, 0)], (0,),
        ...                         1, "Conv1DTranspose"))
        [[[1. 1. 2. 2.]]]
    """
    n = w.ndim - 2
    k = tuple(w.shape[2:])
    if x.shape[1] != w.shape[0]:
        raise ValueError(f"For '{op}', the channels of the input ({x.shape[1]}) must equal the first dimension of "
                         f"'weight' ({w.shape[0]}).")
    spatial = tuple(x.shape[2:])
    half = x._data.dtype == np.float16
    if half:
        x, w = F.cast(x, mstype.float32), F.cast(w, mstype.float32)
    full = tuple((spatial[i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 + output_padding[i] for i in range(n))
    cg, og = w.shape[0] // groups, w.shape[1]
    parts = []
    for g in range(groups):
        x_g = x if groups == 1 else F.getitem(x, (slice(None), slice(g * cg, (g + 1) * cg)))
        w_g = w if groups == 1 else F.getitem(w, slice(g * cg, (g + 1) * cg))
        y = F.tensor_dot(x_g, w_g, ([1], [0]))  # (N, *spatial, og, *k)
        y = F.transpose(y, (0, n + 1) + tuple(range(1, n + 1)) + tuple(range(n + 2, 2 * n + 2)))
        shape = (x.shape[0], og) + full
        index = window_index(shape, k, stride, dilation, (0,) * n, spatial)
        parts.append(F._scatter_map(y, index, shape))
    out = parts[0] if groups == 1 else F.concat(parts, 1)
    sizes = tuple(full[i] - pads[i][0] - pads[i][1] for i in range(n))
    crop = (slice(None), slice(None)) + tuple(slice(pads[i][0], pads[i][0] + sizes[i]) for i in range(n))
    out = F.getitem(out, crop)
    return F.cast(out, mstype.float16) if half else out


def _bias(out: Tensor, bias: Any) -> Tensor:
    if bias is None:
        return out
    b = check_tensor(bias, "BiasAdd", "bias")
    return out + F.reshape(b, (1, -1) + (1,) * (out.ndim - 2))


def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """The 3-D cross-correlation of (N, C, D, H, W) with (O, C / groups, kd, kh, kw); ``pad_mode`` 'valid',
    'same' or 'pad' (``padding`` an int, 3 or 6 ints: head, tail, top, bottom, left, right).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 2, 4, 4, 4), np.float32))
        >>> conv3d(x, ms.Tensor(np.ones((3, 2, 3, 3, 3), np.float32)), stride=2, pad_mode="same").shape
        (1, 3, 2, 2, 2)
    """
    x = check_tensor(input, "Conv3D", "input")
    w = check_tensor(weight, "Conv3D", "weight")
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"For 'Conv3D', the input and weight must be 5-D, but got {x.ndim}-D and {w.ndim}-D.")
    if not (isinstance(padding, int) or isinstance(padding, (tuple, list)) and len(padding) == 3):
        raise ValueError(f"For 'conv3d', 'padding' must be a tuple or list of 3 integers, but got {padding}.")
    return _conv3d(x, w, bias, stride, pad_mode, padding, dilation, groups)


def _conv3d(x: Tensor, w: Tensor, bias: Any, stride: Any, pad_mode: str, padding: Any, dilation: Any,
            groups: int) -> Tensor:
    s = _ints(stride, 3, "stride", "Conv3D", 2)
    d = _ints(dilation, 3, "dilation", "Conv3D", 2)
    pads = _pad_pairs(x.shape[2:], tuple(w.shape[2:]), s, d, pad_mode, padding, "Conv3D")
    return _bias(conv_nd(x, w, s, d, pads, int(groups), "Conv3D"), bias)


def conv3d_transpose(inputs: Any, weight: Any, pad_mode: str = "valid", padding: Any = 0, stride: Any = 1,
                     dilation: Any = 1, group: int = 1, output_padding: Any = 0) -> Tensor:
    """The transposed 3-D convolution of (N, C_in, D, H, W) with (C_in, C_out / group, kd, kh, kw): 'valid'
    gives (D - 1) * stride + dilation * (kd - 1) + 1 (+ output_padding), 'same' D * stride, 'pad' the valid size
    less ``padding``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32))
        >>> conv3d_transpose(x, ms.Tensor(np.ones((2, 3, 2, 2, 2), np.float32)), stride=2).shape
        (1, 3, 4, 4, 4)
    """
    x = check_tensor(inputs, "Conv3DTranspose", "dout")
    w = check_tensor(weight, "Conv3DTranspose", "weight")
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"For 'Conv3DTranspose', the input and weight must be 5-D, but got {x.ndim}-D and "
                         f"{w.ndim}-D.")
    s = _ints(stride, 3, "stride", "Conv3DTranspose", 2)
    d = _ints(dilation, 3, "dilation", "Conv3DTranspose", 2)
    op = _ints(output_padding, 3, "output_padding", "Conv3DTranspose", 2)
    return _transpose_pads(x, w, s, d, op, pad_mode, padding, int(group), "Conv3DTranspose")


def _transpose_pads(x: Tensor, w: Tensor, s: tuple, d: tuple, op: tuple, pad_mode: str, padding: Any, group: int,
                    name: str) -> Tensor:
    n = w.ndim - 2
    k = tuple(w.shape[2:])
    mode = pad_mode.lower()
    if mode == "same":  # the output is input * stride; the valid size's surplus is cut, the smaller half first
        pads = []
        for i in range(n):
            surplus = max((x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - x.shape[2 + i] * s[i], 0)
            pads.append((surplus // 2, surplus - surplus // 2))
    else:
        pads = _pad_pairs(x.shape[2:], k, s, d, mode, padding, name)
    return conv_transpose_nd(x, w, s, d, pads, op, group, name)


def _conv3d_prim(x: Any, weight: Any, out_channel: int, kernel_size: Any, mode: int = 1, pad_mode: str = "valid",
                 pad: Any = 0, stride: Any = 1, dilation: Any = 1, group: int = 1, data_format: str = "NCDHW",
                 bias: Any = None) -> Tensor:
    return _conv3d(check_tensor(x, "Conv3D", "x"), check_tensor(weight, "Conv3D", "weight"), bias, stride, pad_mode,
                   pad, dilation, group)


def _conv3d_transpose_prim(dout: Any, weight: Any, in_channel: int, out_channel: int, kernel_size: Any,
                           mode: int = 1, pad_mode: str = "valid", pad: Any = 0, stride: Any = 1, dilation: Any = 1,
                           group: int = 1, output_padding: Any = 0, data_format: str = "NCDHW") -> Tensor:
    return conv3d_transpose(dout, weight, pad_mode, pad, stride, dilation, group, output_padding)


def _conv2d_backprop_input(dout: Any, weight: Any, input_size: Any, out_channel: int, kernel_size: Any,
                           pad_mode: str = "valid", pad: Any = 0, pad_list: Any = None, mode: int = 1,
                           stride: Any = 1, dilation: Any = 1, group: int = 1, data_format: str = "NCHW") -> Tensor:
    """The gradient of a 2-D convolution for its input of shape ``input_size``: a transposed convolution whose
    output size is given."""
    g = check_tensor(dout, "Conv2DBackpropInput", "out_backprop")
    w = check_tensor(weight, "Conv2DBackpropInput", "filter")
    size = tuple(int(v) for v in (input_size._data.tolist() if isinstance(input_size, Tensor) else input_size))
    k = tuple(w.shape[2:])
    s = _ints(stride, 2, "stride", "Conv2DBackpropInput", 2)
    d = _ints(dilation, 2, "dilation", "Conv2DBackpropInput", 2)
    if pad_list is not None and any(pad_list) and pad_mode.lower() == "pad":
        pad = tuple(pad_list)
    pads = _pad_pairs(size[2:], k, s, d, pad_mode, pad, "Conv2DBackpropInput")
    extra = tuple(size[2 + i] + pads[i][0] + pads[i][1] - ((g.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1)
                  for i in range(2))
    out = conv_transpose_nd(g, w, s, d, [(0, 0), (0, 0)], tuple(max(e, 0) for e in extra), int(group),
                            "Conv2DBackpropInput")
    return F.getitem(out, (slice(None), slice(None), slice(pads[0][0], pads[0][0] + size[2]),
                           slice(pads[1][0], pads[1][0] + size[3])))


OPS: List[Op] = [
    Op("conv3d", "input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, groups=1",
       fn=conv3d),
    Op("conv3d_transpose", "inputs, weight, pad_mode='valid', padding=0, stride=1, dilation=1, group=1, "
       "output_padding=0", fn=conv3d_transpose),
    Op("_conv3d_primitive", "x, weight, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, "
       "dilation=1, group=1, data_format='NCDHW', bias=None", fn=_conv3d_prim,
       prim="Conv3D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1, "
            "data_format='NCDHW')(x, weight, bias=None) -> x, weight, out_channel, kernel_size, mode, pad_mode, pad, "
            "stride, dilation, group, data_format, bias"),
    Op("_conv3d_transpose_primitive", "dout, weight, in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', "
       "pad=0, stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW'", fn=_conv3d_transpose_prim,
       prim="Conv3DTranspose(in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, "
            "dilation=1, group=1, output_padding=0, data_format='NCDHW')(dout, weight) -> dout, weight, in_channel, "
            "out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, output_padding, data_format"),
    *(Op(f"_{name.lower()}_primitive", "dout, weight, input_size, out_channel, kernel_size, pad_mode='valid', "
         "pad=0, pad_list=None, mode=1, stride=1, dilation=1, group=1, data_format='NCHW'", fn=_conv2d_backprop_input,
         prim=f"{name}(out_channel, kernel_size, pad_mode='valid', pad=0, pad_list=None, mode=1, stride=1, "
              "dilation=1, group=1, data_format='NCHW')(dout, weight, input_size) -> dout, weight, input_size, "
              "out_channel, kernel_size, pad_mode, pad, pad_list, mode, stride, dilation, group, data_format")
      for name in ("Conv2DBackpropInput", "Conv2DTranspose")),
]

EXAMPLES = {
    "Conv3D": ("import numpy as np", "x = ms.Tensor(np.ones((1, 2, 3, 3, 3), np.float32))",
               "w = ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32))", "ops.Conv3D(1, 2)(x, w).shape",
               "(1, 1, 2, 2, 2)"),
    "Conv3DTranspose": ("import numpy as np", "x = ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32))",
                        "w = ms.Tensor(np.ones((2, 1, 2, 2, 2), np.float32))",
                        "ops.Conv3DTranspose(2, 1, 2, stride=2)(x, w).shape", "(1, 1, 4, 4, 4)"),
    "Conv2DBackpropInput": ("import numpy as np", "dout = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))",
                            "w = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))",
                            "ops.Conv2DBackpropInput(1, 2)(dout, w, (1, 1, 3, 3))",
                            "[[[[1. 2. 1.]\n   [2. 4. 2.]\n   [1. 2. 1.]]]]"),
    "Conv2DTranspose": ("import numpy as np", "dout = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))",
                        "w = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))",
                        "ops.Conv2DTranspose(1, 2)(dout, w, (1, 1, 3, 3)).shape", "(1, 1, 3, 3)"),
}
