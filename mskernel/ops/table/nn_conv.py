"""Op table: convolutions — conv1d, conv2d, conv_transpose2d and the ``Conv2D``/``Conv2DTranspose`` primitives.

Three entries carry them all, each differentiable by the other two: ``_conv2d`` (a cross-correlation of an
already padded input, strided, dilated, grouped), ``_conv2d_input_grad`` (its adjoint in the input: the
transposed convolution) and ``_conv2d_weight_grad`` (its adjoint in the weight). Windows are strided views
of the input (no copy); the products go to BLAS through ``tensordot``. Padding is ``ops.pad``, so it is
differentiable too. ``pad_mode`` is 'valid', 'same' (output = ceil(input / stride), as MindSpore's) or 'pad'
(``padding`` an int, (height, width) or (top, bottom, left, right)).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> w = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
    >>> print(ops.conv2d(x, w, stride=2)[0, 0])
    [[10. 18.]
     [42. 50.]]
    >>> print(ms.grad(lambda a: ops.conv2d(a, w, stride=2).sum())(x)[0, 0, 0])
    [1. 1. 1. 1.]
"""
from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def pair(v: Any, name: str, op: str, n: int = 2) -> Tuple[int, ...]:
    """An int or a sequence of ``n`` positive ints as a tuple.

    Example:
        >>> pair(3, "stride", "Conv2D"), pair((1, 2), "stride", "Conv2D")
        ((3, 3), (1, 2))
    """
    t = (v,) * n if isinstance(v, (int, np.integer)) else tuple(v)
    if len(t) != n or not all(isinstance(i, (int, np.integer)) and i > 0 for i in t):
        raise ValueError(f"For '{op}', '{name}' must be a positive int or a tuple of {n} positive ints, but got "
                         f"{v!r}.")
    return tuple(int(i) for i in t)


def _windows(x: np.ndarray, k: Tuple[int, int], s: Tuple[int, int], d: Tuple[int, int]) -> np.ndarray:
    """(N, C, OH, OW, kh, kw) strided view of the windows of a padded (N, C, H, W) array."""
    n, c, h, w = x.shape
    oh, ow = (h - d[0] * (k[0] - 1) - 1) // s[0] + 1, (w - d[1] * (k[1] - 1) - 1) // s[1] + 1
    st = x.strides
    return np.lib.stride_tricks.as_strided(x, (n, c, max(oh, 0), max(ow, 0), k[0], k[1]),
                                           (st[0], st[1], st[2] * s[0], st[3] * s[1], st[2] * d[0], st[3] * d[1]),
                                           writeable=False)


#: the im2col matrices of recent forward convolutions, by input array: the weight gradient of the same step
#: reuses its forward's instead of copying the windows again (each entry holds its input, so an id cannot be
#: reused while the entry lives; a few entries bound the memory)
_COLS: "OrderedDict[int, tuple]" = OrderedDict()


def _im2col(x: np.ndarray, k: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """(N * OH * OW, C * kh * kw) rows of the input's windows (cached for the weight gradient)."""
    key = (k, stride, dilation)
    hit = _COLS.get(id(x))
    # a hit must be the same array with the same values (an in-place write since makes it stale); comparing
    # the input costs 1 / (kh * kw) of copying its windows again
    if hit is not None and hit[0] is x and hit[1] == key and np.array_equal(hit[2], x):
        return hit[3]
    win = _windows(x, k, stride, dilation)
    n, c, oh, ow = win.shape[:4]
    cols = np.ascontiguousarray(win.transpose(0, 2, 3, 1, 4, 5)).reshape(n * oh * ow, c * k[0] * k[1])
    _COLS[id(x)] = (x, key, x.copy(), cols)
    while len(_COLS) > 4:
        _COLS.popitem(last=False)
    return cols


def _conv(x: np.ndarray, weight: np.ndarray, stride: tuple, dilation: tuple, groups: int) -> np.ndarray:
    o, cg, kh, kw = weight.shape
    win = _windows(x, (kh, kw), stride, dilation)
    n, c, oh, ow = win.shape[:4]
    if groups == 1:
        out = _im2col(x, (kh, kw), stride, dilation) @ weight.reshape(o, -1).T  # (N OH OW, O)
        return np.ascontiguousarray(out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2))
    win = win.reshape(n, groups, cg, oh, ow, kh, kw)
    wg = weight.reshape(groups, o // groups, cg, kh, kw)
    return np.einsum("ngchwij,gocij->ngohw", win, wg, optimize=True).reshape(n, o, oh, ow)


def _conv_input_grad(g: np.ndarray, weight: np.ndarray, x_shape: tuple, stride: tuple, dilation: tuple,
                     groups: int) -> np.ndarray:
    o, cg, kh, kw = weight.shape
    n, _, oh, ow = g.shape
    dtype = np.result_type(g, weight)
    if dtype == np.float16:  # each element of dx sums over channels and windows: in float32, rounded once
        g, weight = g.astype(np.float32), weight.astype(np.float32)
    if groups == 1:
        cols = np.tensordot(g, weight, axes=([1], [0]))  # N OH OW C kh kw
        cols = cols.transpose(0, 3, 1, 2, 4, 5)
    else:
        gg = g.reshape(n, groups, o // groups, oh, ow)
        wg = weight.reshape(groups, o // groups, cg, kh, kw)
        cols = np.einsum("ngohw,gocij->ngchwij", gg, wg, optimize=True).reshape(n, groups * cg, oh, ow, kh, kw)
    # the windows' contributions overlap: half precision is accumulated in float32 and rounded once, as
    # MindSpore's CPU kernel does
    dx = np.zeros(tuple(x_shape), np.float32 if dtype == np.float16 else dtype)
    sh, sw = stride
    for i in range(kh):
        for j in range(kw):
            r, c = i * dilation[0], j * dilation[1]
            dx[:, :, r:r + sh * (oh - 1) + 1:sh, c:c + sw * (ow - 1) + 1:sw] += cols[..., i, j]
    return dx.astype(dtype, copy=False)


def _conv_weight_grad(x: np.ndarray, g: np.ndarray, w_shape: tuple, stride: tuple, dilation: tuple,
                      groups: int) -> np.ndarray:
    o, cg, kh, kw = w_shape
    win = _windows(x, (kh, kw), stride, dilation)
    n, c, oh, ow = win.shape[:4]
    if groups == 1:
        gm = np.ascontiguousarray(g.transpose(1, 0, 2, 3)).reshape(o, -1)
        return (gm @ _im2col(x, (kh, kw), stride, dilation)).reshape(o, c, kh, kw)
    win = win.reshape(n, groups, cg, oh, ow, kh, kw)
    gg = g.reshape(n, groups, o // groups, oh, ow)
    return np.einsum("ngchwij,ngohw->gocij", win, gg, optimize=True).reshape(o, cg, kh, kw)


def _conv_bwd(g: Tensor, input: Tensor, weight: Tensor, stride: tuple, dilation: tuple, groups: int) -> tuple:
    # only the gradients something needs (a network's input usually needs none)
    return (F._conv2d_input_grad(g, weight, input.shape, stride, dilation, groups) if input._rg else None,
            F._conv2d_weight_grad(input, g, weight.shape, stride, dilation, groups) if weight._rg else None)


def _input_grad_bwd(g: Tensor, input: Tensor, weight: Tensor, x_shape: tuple, stride: tuple, dilation: tuple,
                    groups: int) -> tuple:
    return (F._conv2d(g, weight, stride, dilation, groups),
            F._conv2d_weight_grad(g, input, weight.shape, stride, dilation, groups))


def _weight_grad_bwd(g: Tensor, input: Tensor, weight: Tensor, w_shape: tuple, stride: tuple, dilation: tuple,
                     groups: int) -> tuple:
    return (F._conv2d_input_grad(weight, g, input.shape, stride, dilation, groups),
            F._conv2d(input, g, stride, dilation, groups))


OPS_CORE: List[Op] = [
    Op("_conv2d", "input, weight, stride, dilation, groups", _conv, _conv_bwd, inputs=2, dtype="float",
       label="Conv2D"),
    # input: the output gradient; weight: the convolution's weight
    Op("_conv2d_input_grad", "input, weight, x_shape, stride, dilation, groups", _conv_input_grad, _input_grad_bwd,
       inputs=2, dtype="float", label="Conv2DBackpropInput"),
    # input: the convolution's input; weight: the output gradient
    Op("_conv2d_weight_grad", "input, weight, w_shape, stride, dilation, groups",
       lambda x, g, w_shape, stride, dilation, groups: _conv_weight_grad(x, g, w_shape, stride, dilation, groups),
       _weight_grad_bwd, inputs=2, dtype="float", label="Conv2DBackpropFilter"),
]


def same_pads(size: int, k: int, s: int, d: int) -> Tuple[int, int]:
    """(before, after) padding that makes a strided window cover ``ceil(size / s)`` outputs.

    Example:
        >>> same_pads(7, 3, 2, 1)
        (1, 1)
    """
    total = max((math.ceil(size / s) - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def pads4(padding: Any, op: str) -> Tuple[int, int, int, int]:
    """``padding`` as (top, bottom, left, right).

    Example:
        >>> pads4(1, "Conv2D"), pads4((1, 2), "Conv2D")
        ((1, 1, 1, 1), (1, 1, 2, 2))
    """
    if isinstance(padding, (int, np.integer)):
        return (int(padding),) * 4
    p = tuple(int(v) for v in padding)
    if len(p) == 2:
        return p[0], p[0], p[1], p[1]
    if len(p) == 4:
        return p  # type: ignore[return-value]
    raise ValueError(f"For '{op}', 'padding' must be an int or a tuple of 2 or 4 ints, but got {padding!r}.")


def _pad2d(x: Tensor, k: tuple, s: tuple, d: tuple, pad_mode: str, padding: Any, op: str) -> Tensor:
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', but got "
                         f"'{pad_mode}'.")
    if mode != "pad" and padding not in (0, (0, 0), (0, 0, 0, 0)):
        raise ValueError(f"For '{op}', 'padding' must be 0 when 'pad_mode' is not 'pad', but got {padding!r}.")
    if mode == "valid":
        return x
    if mode == "same":
        (t, b), (lft, r) = same_pads(x.shape[2], k[0], s[0], d[0]), same_pads(x.shape[3], k[1], s[1], d[1])
    else:
        t, b, lft, r = pads4(padding, op)
    if not (t or b or lft or r):
        return x
    return F.pad(x, (lft, r, t, b))


def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-D cross-correlation of (N, C, H, W) ``input`` with (O, C / groups, kh, kw) ``weight``, plus ``bias``.

    Example:
        >>> import mskernel as ms
        >>> conv2d(ms.Tensor(np.zeros((2, 3, 7, 7), np.float32)), ms.Tensor(np.zeros((4, 3, 3, 3), np.float32)),
        ...        stride=2, pad_mode="same").shape
        (2, 4, 4, 4)
    """
    x, w = check_tensor(input, "Conv2D", "input"), check_tensor(weight, "Conv2D", "weight")
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"For 'Conv2D', 'input' and 'weight' must be 4-D, but got {x.ndim}-D and {w.ndim}-D.")
    if x.shape[1] != w.shape[1] * groups or w.shape[0] % groups:  # MindSpore's text (a RuntimeError in PyNative)
        raise RuntimeError(f"For 'Conv2D', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to "
                           f"'C_in' of input 'weight' shape: {w.shape[1]}, but got 'C_in' of input 'x' shape: "
                           f"{x.shape[1]}, and 'group': {groups}.")
    s, d = pair(stride, "stride", "Conv2D"), pair(dilation, "dilation", "Conv2D")
    xp = _pad2d(x, w.shape[2:], s, d, pad_mode, padding, "Conv2D")
    if xp.shape[2] < d[0] * (w.shape[2] - 1) + 1 or xp.shape[3] < d[1] * (w.shape[3] - 1) + 1:
        raise ValueError(f"For 'Conv2D', the kernel {list(w.shape[2:])} (dilation {list(d)}) is larger than the "
                         f"padded input {list(xp.shape[2:])}.")
    out = F._conv2d(xp, w, s, d, int(groups))
    if bias is not None:
        out = out + F.reshape(bias, (1, -1, 1, 1))
    return out


def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> Tensor:
    """1-D cross-correlation of (N, C, L) ``input`` with (O, C / groups, k) ``weight`` (or nn.Conv1d's
    (O, C / groups, 1, k)).

    Example:
        >>> import mskernel as ms
        >>> print(conv1d(ms.Tensor([[[1.0, 2.0, 3.0]]]), ms.Tensor([[[1.0, 1.0]]])))
        [[[3. 5.]]]
    """
    x, w = check_tensor(input, "Conv1D", "input"), check_tensor(weight, "Conv1D", "weight")
    w4 = w if w.ndim == 4 else F.expand_dims(w, 2)
    s = (1, stride if isinstance(stride, int) else tuple(stride)[-1])
    d = (1, dilation if isinstance(dilation, int) else tuple(dilation)[-1])
    if isinstance(padding, (int, np.integer)):
        pad: Any = (0, 0, int(padding), int(padding))
    else:
        pad = (0, 0, *tuple(padding)[-2:]) if len(tuple(padding)) >= 2 else (0, 0, padding[0], padding[0])
    out = conv2d(F.expand_dims(x, 2), w4, None, s, pad_mode, pad if pad_mode == "pad" else 0, d, groups)
    out = F.squeeze(out, 2)
    if bias is not None:
        out = out + F.reshape(bias, (1, -1, 1))
    return out


def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    """The transposed convolution (the input gradient of conv2d) of (N, Cin, H, W) ``input`` with
    (Cin, Cout / groups, kh, kw) ``weight``.

    Example:
        >>> import mskernel as ms
        >>> conv_transpose2d(ms.Tensor(np.zeros((1, 4, 5, 5), np.float32)),
        ...                  ms.Tensor(np.zeros((4, 2, 3, 3), np.float32)), stride=2, padding=1).shape
        (1, 2, 9, 9)
    """
    x, w = check_tensor(input, "Conv2DTranspose", "input"), check_tensor(weight, "Conv2DTranspose", "weight")
    s, d = pair(stride, "stride", "Conv2DTranspose"), pair(dilation, "dilation", "Conv2DTranspose")
    t, b, lft, r = pads4(padding, "Conv2DTranspose")
    op_h, op_w = pair(output_padding, "output_padding", "Conv2DTranspose") if output_padding else (0, 0)
    kh, kw = w.shape[2:]
    full = ((x.shape[2] - 1) * s[0] + d[0] * (kh - 1) + 1 + op_h, (x.shape[3] - 1) * s[1] + d[1] * (kw - 1) + 1 + op_w)
    out = F._conv2d_input_grad(x, w, (x.shape[0], w.shape[1] * groups) + full, s, d, int(groups))
    if t or b or lft or r:
        out = F.getitem(out, (slice(None), slice(None), slice(t, full[0] - b), slice(lft, full[1] - r)))
    if bias is not None:
        out = out + F.reshape(bias, (1, -1, 1, 1))
    return out


def _conv2d_prim(x: Any, weight: Any, out_channel: int, kernel_size: Any, mode: int, pad_mode: str, pad: Any,
                 stride: Any, dilation: Any, group: int, data_format: str) -> Tensor:
    if data_format != "NCHW":
        raise ValueError(f"For 'Conv2D', only data_format 'NCHW' runs on the CPU, but got {data_format!r}.")
    s = pair(stride, "stride", "Conv2D") if isinstance(stride, int) or len(tuple(stride)) == 2 else tuple(stride)[2:]
    d = pair(dilation, "dilation", "Conv2D") if isinstance(dilation, int) or len(tuple(dilation)) == 2 \
        else tuple(dilation)[2:]
    return conv2d(x, weight, None, s, pad_mode, pad, d, group)


OPS: List[Op] = [
    *OPS_CORE,
    Op("conv2d", "input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, groups=1",
       fn=conv2d, inputs=2),
    Op("conv1d", "input, weight, bias=None, stride=1, pad_mode='valid', padding=0, dilation=1, groups=1",
       fn=conv1d, inputs=2),
    Op("conv_transpose2d", "input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1",
       fn=conv_transpose2d, inputs=2),
    Op("_conv2d_primitive", "x, weight, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, "
       "dilation=1, group=1, data_format='NCHW'", fn=_conv2d_prim, inputs=2,
       prim="Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1, dilation=1, group=1, "
            "data_format='NCHW')(x, weight) -> x, weight, out_channel, kernel_size, mode, pad_mode, pad, stride, "
            "dilation, group, data_format"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "Conv2D": ("import numpy as np",
               "x = ms.Tensor(np.arange(9.0, dtype=np.float32).reshape(1, 1, 3, 3))",
               "ops.Conv2D(out_channel=1, kernel_size=2)(x, ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))",
               "[[[[ 8. 12.]\n   [20. 24.]]]]"),
}
