"""Op table: the image resizes with their own weighting — ``ResizeArea`` (each output pixel the mean of the input
area it covers), ``ResizeBicubic`` (Keys' cubic convolution, TensorFlow's conventions) and ``ScaleAndTranslate``
(a sampling kernel — lanczos, gaussian, box, triangle, Keys or Mitchell cubic — stretched by the scale when it
shrinks, with antialiasing).

As in :mod:`mskernel.ops.table.nn_resize_prims`, each resize is one (out, in) matrix per spatial axis applied with
``matmul``, so gradients follow; ScaleAndTranslate sums each output's span of taps instead (:func:`apply_spans`), so an
inf or NaN reaches only the outputs whose kernel holds it.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[[[2.0], [4.0], [6.0], [8.0]], [[10.0], [12.0], [14.0], [16.0]]]])
    >>> print(ops.ResizeArea()(x, ms.Tensor([1, 2], ms.int32)).reshape(-1))
    [ 7. 11.]
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import cast_tensor, check_tensor
from mskernel.ops.opdef import F, Op


def _size(size: Any, op: str) -> Tuple[int, int]:
    v = np.asarray(size._data if isinstance(size, Tensor) else size).reshape(-1)
    if v.size != 2:
        raise ValueError(f"For primitive[{op}], the number of size must be equal to 2, but got {v.size}.")
    if v.min() <= 0:
        raise ValueError(f"For '{op}', the values of 'size' must be positive, but got {v.tolist()}.")
    return int(v[0]), int(v[1])


def _apply(x: Tensor, matrices: Dict[int, np.ndarray]) -> Tensor:
    """Each (out, in) matrix applied to its axis of ``x``, computed in float64 and rounded once."""
    out = cast_tensor(x, mstype.float64)
    for axis, m in matrices.items():
        out = F.swapaxes(F.matmul(F.swapaxes(out, axis, -1), Tensor._wrap(m.T.copy())), axis, -1)
    return out


def apply_spans(x: Tensor, axis: int, starts: np.ndarray, weights: np.ndarray) -> Tensor:
    """Output ``i`` along ``axis`` is ``sum_k weights[i, k] * x[starts[i] + k]`` over the taps of its span (the
    row's finite entries; NaN marks the end of a shorter span): an input reaches only the outputs whose span holds
    it, so an inf or NaN stays where the kernel puts it (a matrix product would spread it through every zero
    weight). Gathers, multiplies and sums, so gradients follow.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.array([1.0, 2.0, float("nan"), 4.0]))
        >>> print(apply_spans(x, 0, np.array([0, 2]), np.array([[0.5, 0.5], [0.0, 1.0]])))
        [1.5 nan]
        >>> print(apply_spans(x, 0, np.array([0, 3]), np.array([[0.5, 0.5], [1.0, np.nan]])))
        [1.5 4. ]
    """
    n_out, width = weights.shape
    n_in = x.shape[axis]
    taps = np.isfinite(weights)
    idx = np.clip(np.asarray(starts, np.int64)[:, None] + np.arange(width)[None, :], 0, max(n_in - 1, 0))
    picked = F.gather(x, Tensor._wrap(idx), axis)  # axis becomes (n_out, width)
    shape = (n_out, width) + (1,) * (x.ndim - axis - 1)
    w = Tensor._wrap(np.where(taps, weights, 0.0).astype(x._data.dtype).reshape(shape))
    keep = Tensor._wrap(taps.reshape(shape))
    picked = F.where(keep, picked, F.zeros_like(picked))  # past a span's end: nothing read
    return F.reduce_sum(picked * w, axis + 1)


def area_matrix(n_in: int, n_out: int, align_corners: bool) -> np.ndarray:
    """The (n_out, n_in) matrix of area resizing: output pixel ``i`` averages input ``[i * s, (i + 1) * s)``.

    Example:
        >>> print(area_matrix(4, 2, False))
        [[0.5 0.5 0.  0. ]
         [0.  0.  0.5 0.5]]
    """
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(int(math.floor(lo)), int(math.ceil(hi))):
            part = min(j + 1.0, hi) - max(float(j), lo)
            m[i, min(max(j, 0), n_in - 1)] += part / scale
    return m


def resize_area(images: Any, size: Any, align_corners: bool = False) -> Tensor:
    """Area resizing of (batch, height, width, channels) ``images`` to ``size`` (height, width): float32.

    Example:
        >>> import mskernel as ms
        >>> print(resize_area(ms.Tensor([[[[1.0], [3.0]]]]), ms.Tensor([1, 1], ms.int32)).reshape(-1))
        [2.]
    """
    op = "ResizeArea"
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', the type of 'align_corners' should be bool, but got "
                        f"{type(align_corners).__name__}.")
    x = check_tensor(images, op, "images")
    if x.ndim != 4:
        raise ValueError(f"For primitive[{op}], the images dimension must be equal to 4, but got {x.ndim}.")
    oh, ow = _size(size, op)
    out = _apply(x, {1: area_matrix(x.shape[1], oh, align_corners), 2: area_matrix(x.shape[2], ow, align_corners)})
    return cast_tensor(out, mstype.float32)


def _keys(t: np.ndarray, a: float) -> np.ndarray:
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def bicubic_matrix(n_in: int, n_out: int, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    """The (n_out, n_in) matrix of bicubic resizing: Keys' kernel (a = -0.75, edge taps repeated), or with
    ``half_pixel_centers`` a = -0.5 with the taps outside the input dropped and the rest renormalised.

    Example:
        >>> bicubic_matrix(2, 3, True, False).round(3)[1]
        array([0.5, 0.5])
    """
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    out = np.arange(n_out, dtype=np.float64)
    pos = (out + 0.5) * scale - 0.5 if half_pixel_centers else out * scale
    base = np.floor(pos).astype(np.int64)
    frac = np.rint((pos - base) * 1024) / 1024  # the fraction on a 1/1024 grid, as the kernel's weight table is
    m = np.zeros((n_out, n_in))
    taps = np.arange(-1, 3)
    a = -0.5 if half_pixel_centers else -0.75
    w = _keys(frac[:, None] - taps[None, :], a)
    idx = base[:, None] + taps[None, :]
    if half_pixel_centers:
        w = np.where((idx >= 0) & (idx < n_in), w, 0.0)
        w = w / w.sum(1, keepdims=True)
    np.add.at(m, (np.repeat(np.arange(n_out), 4), np.clip(idx, 0, n_in - 1).reshape(-1)), w.reshape(-1))
    return m


def resize_bicubic(images: Any, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> Tensor:
    """Bicubic resizing of (batch, channels, height, width) ``images`` to ``size`` (height, width).

    Example:
        >>> import mskernel as ms
        >>> print(resize_bicubic(ms.Tensor([[[[1.0, 3.0]]]]), (1, 3), align_corners=True))
        [[[[1. 2. 3.]]]]
    """
    op = "ResizeBicubic"
    x = check_tensor(images, op, "images")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'images' must be 4, but got {x.ndim}.")
    oh, ow = _size(size, op)
    out = _apply(x, {2: bicubic_matrix(x.shape[2], oh, align_corners, half_pixel_centers),
                     3: bicubic_matrix(x.shape[3], ow, align_corners, half_pixel_centers)})
    return cast_tensor(out, x.dtype) if x._data.dtype.kind == "f" else cast_tensor(out, mstype.float32)


def _resize_bicubic_prim(images: Any, size: Any, align_corners: bool = False,
                         half_pixel_centers: bool = False) -> Tensor:
    return resize_bicubic(images, size, align_corners, half_pixel_centers)


def _lanczos(r: float) -> Callable[[np.ndarray], np.ndarray]:
    def k(x: np.ndarray) -> np.ndarray:
        x = np.abs(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = r * np.sin(np.pi * x) * np.sin(np.pi * x / r) / (np.pi * np.pi * x * x)
        return np.where(x > r, 0.0, np.where(x <= 1e-3, 1.0, v))
    return k


def _cubic(b: float, c: float) -> Callable[[np.ndarray], np.ndarray]:
    """The Mitchell-Netravali family (b, c): Keys' kernel is (0, 0.5), Mitchell's (1/3, 1/3)."""
    def k(x: np.ndarray) -> np.ndarray:
        x = np.abs(x)
        near = ((12 - 9 * b - 6 * c) * x ** 3 + (-18 + 12 * b + 6 * c) * x ** 2 + (6 - 2 * b)) / 6
        far = ((-b - 6 * c) * x ** 3 + (6 * b + 30 * c) * x ** 2 + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        return np.where(x < 1, near, np.where(x < 2, far, 0.0))
    return k


#: kernel name -> (radius, kernel)
KERNELS: Dict[str, Tuple[float, Callable[[np.ndarray], np.ndarray]]] = {
    "lanczos1": (1.0, _lanczos(1.0)),
    "lanczos3": (3.0, _lanczos(3.0)),
    "lanczos5": (5.0, _lanczos(5.0)),
    "gaussian": (1.5, lambda x: np.where(np.abs(x) >= 1.5, 0.0, np.exp(-x * x / 0.5))),
    "box": (1.0, lambda x: np.where(np.abs(x) < 0.5, 1.0, np.where(np.abs(x) == 0.5, 0.5, 0.0))),
    "triangle": (1.0, lambda x: np.maximum(1.0 - np.abs(x), 0.0)),
    "keyscubic": (2.0, _cubic(0.0, 0.5)),
    "mitchellcubic": (2.0, _cubic(1.0 / 3.0, 1.0 / 3.0)),
}


def scale_translate_matrix(n_in: int, n_out: int, scale: float, translate: float, kernel: str,
                           antialias: bool) -> np.ndarray:
    """The (n_out, n_in) matrix of ``ScaleAndTranslate`` along one axis: output pixel centre ``i + 0.5`` samples
    the input at ``(i + 0.5 - translate) / scale`` with the kernel (stretched by ``1 / scale`` when it shrinks and
    ``antialias``), its weights normalised to sum to one; outside ``[0, n_in]`` it reads nothing.

    Example:
        >>> print(scale_translate_matrix(2, 2, 1.0, 0.0, "triangle", True))
        [[1. 0.]
         [0. 1.]]
    """
    starts, taps = _scale_translate_spans(n_in, n_out, scale, translate, kernel, antialias)
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        w = taps[i][np.isfinite(taps[i])]
        m[i, starts[i]:starts[i] + len(w)] = w
    return m


def _scale_translate_spans(n_in: int, n_out: int, scale: float, translate: float, kernel: str,
                           antialias: bool) -> Tuple[np.ndarray, np.ndarray]:
    """Each output's span along one axis: its first input and its weights (NaN past the span's end)."""
    radius, k = KERNELS[kernel]
    f32 = np.float32
    inv = f32(1.0) / f32(scale)  # in float32, as the kernel computes: a tap on the kernel's edge stays on it
    shift = -inv * f32(translate)
    kscale = max(inv, f32(1.0)) if antialias else f32(1.0)
    reach = f32(radius) * kscale
    starts, rows = np.zeros(n_out, np.int64), []
    for i in range(n_out):
        sample = (f32(i) + f32(0.5)) * inv + shift
        if sample < 0 or sample > n_in:
            rows.append(np.zeros(0))
            continue
        start = int(math.ceil(sample - reach - f32(0.5)))
        end = int(math.floor(sample + reach - f32(0.5)))
        start, end = min(max(start, 0), n_in - 1), min(max(end, 0), n_in - 1) + 1
        src = np.arange(start, end).astype(f32)
        w = k(np.abs((src + f32(0.5) - sample) * (f32(1.0) / kscale))).astype(f32)
        total = w.sum(dtype=f32)
        if abs(total) >= 1000 * np.finfo(f32).eps:
            w = w / total
        starts[i] = start
        rows.append(w.astype(np.float64))
    width = max([len(r) for r in rows] + [1])
    taps = np.full((n_out, width), np.nan)
    for i, r in enumerate(rows):
        taps[i, :len(r)] = r
    return starts, taps


def scale_and_translate(images: Any, size: Any, scale: Any, translation: Any, kernel_type: str = "lanczos3",
                        antialias: bool = True) -> Tensor:
    """(batch, height, width, channels) ``images`` scaled by ``scale`` (y, x) and moved by ``translation`` into an
    output of ``size``, sampled with ``kernel_type``: float32.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[[[9.0], [5.0]], [[6.0], [1.0]]]])
        >>> out = scale_and_translate(x, ms.Tensor([2, 2], ms.int32), ms.Tensor([1.0, 1.0]), ms.Tensor([1.0, 1.0]))
        >>> print(out.reshape(2, 2))
        [[0. 0.]
         [0. 9.]]
    """
    op = "ScaleAndTranslate"
    x = check_tensor(images, op, "images")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'images' must be 4, but got {x.ndim}.")
    oh, ow = _size(size, op)
    s = check_tensor(scale, op, "scale")._data.astype(np.float64).reshape(-1)
    t = check_tensor(translation, op, "translation")._data.astype(np.float64).reshape(-1)
    if s.size != 2 or t.size != 2:
        raise ValueError(f"For '{op}', 'scale' and 'translation' must each hold 2 values, but got {s.size} and "
                         f"{t.size}.")
    out = cast_tensor(x, mstype.float64)  # computed in float64 and rounded once
    for axis, (n_out, sc, tr) in ((1, (oh, s[0], t[0])), (2, (ow, s[1], t[1]))):
        out = apply_spans(out, axis, *_scale_translate_spans(out.shape[axis], n_out, sc, tr, kernel_type, antialias))
    return cast_tensor(out, mstype.float32)


def _check_sat_attrs(kernel_type: Any, antialias: Any) -> None:
    if not isinstance(kernel_type, str):
        raise TypeError(f"For 'ScaleAndTranslate', the type of 'kernel_type' should be 'str', but got type "
                        f"'{type(kernel_type).__name__}'.")
    if kernel_type not in KERNELS:
        raise ValueError(f"For 'ScaleAndTranslate', the 'kernel_type' must be str and must be in "
                         f"'{list(KERNELS)}', but got '{kernel_type}'.")
    if not isinstance(antialias, bool):
        raise TypeError(f"For 'ScaleAndTranslate', the type of 'antialias' should be 'bool', but got type "
                        f"'{type(antialias).__name__}'.")


def _scale_and_translate_prim(images: Any, size: Any, scale: Any, translation: Any, kernel_type: str = "lanczos3",
                              antialias: bool = True) -> Tensor:
    return scale_and_translate(images, size, scale, translation, kernel_type, antialias)


_scale_and_translate_prim.init_check = _check_sat_attrs  # type: ignore[attr-defined]


OPS: List[Op] = [
    Op("_resize_area", "images, size, align_corners=False", fn=resize_area,
       prim="ResizeArea(align_corners=False)(images, size) -> images, size, align_corners"),
    Op("_resize_bicubic", "images, size, align_corners=False, half_pixel_centers=False", fn=_resize_bicubic_prim,
       prim="ResizeBicubic(align_corners=False, half_pixel_centers=False)(images, size) -> images, size, "
            "align_corners, half_pixel_centers"),
    Op("_scale_and_translate", "images, size, scale, translation, kernel_type='lanczos3', antialias=True",
       fn=_scale_and_translate_prim,
       prim="ScaleAndTranslate(kernel_type='lanczos3', antialias=True)(images, size, scale, translation) -> images, "
            "size, scale, translation, kernel_type, antialias"),
]

EXAMPLES = {
    "ResizeArea": ("x = ms.Tensor([[[[2.0], [4.0], [6.0], [8.0]], [[10.0], [12.0], [14.0], [16.0]]]])",
                   "ops.ResizeArea()(x, ms.Tensor([1, 2], ms.int32)).reshape(-1)", "[ 7. 11.]"),
    "ResizeBicubic": ("ops.ResizeBicubic(align_corners=True)(ms.Tensor([[[[1.0, 3.0]]]]), ms.Tensor([1, 3]))",
                      "[[[[1. 2. 3.]]]]"),
    "ScaleAndTranslate": ("x = ms.Tensor([[[[9.0], [5.0]], [[6.0], [1.0]]]])",
                          "ops.ScaleAndTranslate()(x, ms.Tensor([2, 2], ms.int32), ms.Tensor([1.0, 1.0]), "
                          "ms.Tensor([1.0, 1.0])).reshape(2, 2)", "[[0. 0.]\n [0. 9.]]"),
}
