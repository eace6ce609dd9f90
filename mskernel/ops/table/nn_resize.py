"""Op table: resizing — ``ops.interpolate`` ('nearest', 'nearest-exact', 'linear', 'bilinear', 'trilinear',
'area') and ``ops.upsample``.

Each of these modes is a linear map along every spatial axis, so the op is one small matrix per axis,
applied with ``matmul``: the gradient is the transposed matrix, and higher orders come for free. Coordinates
follow MindSpore 2.10 (and PyTorch): with ``align_corners`` the corners meet; without it, pixel centres; a
given ``scale_factor`` is used as is unless ``recompute_scale_factor``.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[[0.0, 1.0, 2.0, 3.0]]])
    >>> print(ops.interpolate(x, size=6, mode="linear", align_corners=True))
    [[[0.        0.6       1.2       1.8000001 2.4       3.       ]]]
    >>> print(ops.interpolate(x, scale_factor=0.5, mode="area"))
    [[[0.5 2.5]]]
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_MODES = {"nearest": None, "nearest-exact": None, "linear": 1, "bilinear": 2, "trilinear": 3, "area": None,
          "bicubic": 2}


def _matrix(mode: str, n_in: int, n_out: int, scale: Optional[float], align_corners: bool) -> np.ndarray:
    """The (n_out, n_in) matrix that resizes one axis."""
    m = np.zeros((n_out, n_in))
    ratio = (1.0 / scale) if scale else n_in / n_out
    out = np.arange(n_out)
    if mode == "nearest":
        src = np.minimum(np.floor(out * ratio).astype(int), n_in - 1)
        m[out, src] = 1
    elif mode == "nearest-exact":
        src = np.minimum(np.floor((out + 0.5) * ratio).astype(int), n_in - 1)
        m[out, src] = 1
    elif mode == "area":
        for i in range(n_out):
            lo, hi = (i * n_in) // n_out, -(-((i + 1) * n_in) // n_out)
            m[i, lo:hi] = 1.0 / (hi - lo)
    else:  # linear along this axis
        if align_corners:
            src = out * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros(n_out)
        else:
            src = np.maximum((out + 0.5) * ratio - 0.5, 0.0)
        i0 = np.minimum(np.floor(src).astype(int), n_in - 1)
        i1 = np.minimum(i0 + 1, n_in - 1)
        w = src - i0
        np.add.at(m, (out, i0), 1 - w)
        np.add.at(m, (out, i1), w)
    return m


def apply_axis(x: Tensor, m: np.ndarray, axis: int) -> Tensor:
    """``m`` (n_out, n_in) applied along ``axis`` of ``x``, reading only the inputs each output weighs (a product
    with the whole matrix would turn an infinite input into NaN in every output that gives it weight 0).

    Example:
        >>> import mskernel as ms
        >>> print(apply_axis(ms.Tensor([[1.0, np.inf, 3.0]]), np.array([[1.0, 0, 0], [0, 0, 0.5]]), 1))
        [[1.  1.5]]
    """
    m = np.asarray(m)
    taps = max(int((m != 0).sum(1).max(initial=0)), 1)
    order = np.argsort(m == 0, axis=1, kind="stable")[:, :taps]  # each row's weighed inputs first
    weights = np.take_along_axis(m, order, 1)
    view = [1] * x.ndim
    view[axis] = m.shape[0]
    out = None
    for k in range(taps):
        picked = F.gather(x, Tensor._wrap(order[:, k].astype(np.int64)), axis)
        w = weights[:, k].reshape(view)
        term = picked * Tensor._wrap(w.astype(x._data.dtype))
        if not (weights[:, k] != 0).all():
            term = F.where(Tensor._wrap(np.broadcast_to(w != 0, term.shape).copy()), term, F.zeros_like(term))
        out = term if out is None else out + term
    return out


def _as_list(v: Any, n: int) -> List[Any]:
    if isinstance(v, (tuple, list)):
        if len(v) != n:
            raise ValueError(f"For 'interpolate', 'size' and 'scale_factor' must have {n} elements for a "
                             f"{n + 2}-D input, but got {len(v)}.")
        return list(v)
    return [v] * n


def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None) -> Tensor:
    """Resize the spatial axes (all but the first two) to ``size``, or by ``scale_factor``.

    Example:
        >>> import mskernel as ms
        >>> interpolate(ms.Tensor(np.zeros((1, 2, 3, 3), np.float32)), scale_factor=(2.0, 2.0)).shape
        (1, 2, 6, 6)
    """
    x = check_tensor(input, "interpolate", "input")
    if mode not in _MODES:
        raise ValueError("For 'interpolate', 'mode' must be in '['nearest', 'linear', 'bilinear', 'bicubic', 'area', "
                         f"'nearest-exact', 'trilinear']', but got {mode}")
    if mode == "bicubic":
        raise ValueError("For 'interpolate', mode 'bicubic' is not supported by mskernel yet; use 'bilinear'.")
    n = x.ndim - 2
    if n < 1:
        raise ValueError(f"For 'interpolate', the input must be at least 3-D (N, C, ...), but got {x.ndim}-D.")
    if _MODES[mode] is not None and _MODES[mode] != n:
        raise ValueError(f"For 'interpolate', {mode} only support '[{_MODES[mode] + 2}]'D, but got {x.ndim}D")
    if align_corners and mode not in ("linear", "bilinear", "trilinear"):
        raise ValueError(f"For 'interpolate', 'align_corners' is only for the linear modes, but mode is {mode!r}.")
    if (size is None) == (scale_factor is None):
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously" if size is not None
                         else "For 'interpolate', one of 'size' and 'scale_factor' must be given")
    spatial = x.shape[2:]
    if size is not None:
        sizes = [int(s) for s in _as_list(size, n)]
        scales: Sequence[Optional[float]] = [None] * n
    else:
        factors = [float(s) for s in _as_list(scale_factor, n)]
        sizes = [int(math.floor(d * f)) for d, f in zip(spatial, factors)]
        scales = [None] * n if recompute_scale_factor else factors
    out = x
    for axis, (n_in, n_out, sc) in enumerate(zip(spatial, sizes, scales)):
        if n_out <= 0:
            raise ValueError(f"For 'interpolate', the output size must be positive, but got {sizes}.")
        out = apply_axis(out, _matrix(mode, n_in, n_out, sc, bool(align_corners)), 2 + axis)
    return out


def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: Optional[bool] = None) -> Tensor:
    """MindSpore's ``ops.upsample``: :func:`interpolate` under its older name.

    Example:
        >>> import mskernel as ms
        >>> upsample(ms.Tensor(np.zeros((1, 1, 2), np.float32)), size=4).shape
        (1, 1, 4)
    """
    return interpolate(input, size, scale_factor, mode, align_corners)


OPS: List[Op] = [
    Op("interpolate", "input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
       "recompute_scale_factor=None", fn=interpolate),
    Op("upsample", "input, size=None, scale_factor=None, mode='nearest', align_corners=None", fn=upsample),
]
