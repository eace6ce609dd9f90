"""Op table: patch extraction — ``ExtractImagePatches`` (2-D, with rates) and ``ExtractVolumePatches`` (3-D).

Every window of the (N, C, *spatial) input becomes one output position; its elements go to the channel axis in
TensorFlow's order: kernel positions first, the input channel fastest (channel ``(k_index) * C + c``). 'SAME'
padding pads with zeros, the excess after the input as TensorFlow splits it. The windows are read by an index map
(``_gather_map``), so gradients follow.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
    >>> print(ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID")(x).reshape(-1))
    [0. 1. 2. 3. 4. 5. 6. 7.]
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_pool3d import window_index


def _spatial(value: Any, n: int, name: str, op: str) -> Tuple[int, ...]:
    """An int, or ``n`` ints, or ``n + 2`` ints whose first two are 1 (the batch and channel axes)."""
    v = (value,) * n if isinstance(value, int) else tuple(value)
    if len(v) == n + 2:
        if v[0] != 1 or v[1] != 1:
            raise ValueError(f"For '{op}', the first two values of '{name}' must be 1, but got {list(v)}.")
        v = v[2:]
    if len(v) != n or any(not isinstance(e, (int, np.integer)) or isinstance(e, bool) or e <= 0 for e in v):
        raise ValueError(f"For '{op}', '{name}' must be a positive int or a tuple of {n} or {n + 2} positive ints, "
                         f"but got {value!r}.")
    return tuple(int(e) for e in v)


def extract_patches(x: Tensor, k: Sequence[int], s: Sequence[int], r: Sequence[int], padding: str,
                    op: str) -> Tensor:
    """The windows of (N, C, *spatial) ``x`` as channels: (N, prod(k) * C, *out).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3))
        >>> print(extract_patches(x, (2,), (1,), (1,), "VALID", "Demo"))
        [[[0. 1.]
          [3. 4.]
          [1. 2.]
          [4. 5.]]]
    """
    n = len(k)
    spatial = x.shape[2:]
    eff = [(kk - 1) * rr + 1 for kk, rr in zip(k, r)]
    if padding == "VALID":
        out = [(size - e) // ss + 1 for size, e, ss in zip(spatial, eff, s)]
        lo = [0] * n
    else:
        out = [-(-size // ss) for size, ss in zip(spatial, s)]
        lo = [max((o - 1) * ss + e - size, 0) // 2 for o, ss, e, size in zip(out, s, eff, spatial)]
    if min(out) <= 0:
        raise ValueError(f"For '{op}', the window {list(eff)} is larger than the input {list(spatial)}.")
    idx = window_index(x.shape, k, s, r, lo, out)  # (N, C, *out, *k)
    cols = F._gather_map(x, idx)
    perm = (0,) + tuple(range(2 + n, 2 + 2 * n)) + (1,) + tuple(range(2, 2 + n))
    return F.reshape(F.transpose(cols, perm), (x.shape[0], -1) + tuple(out))


def _padding(padding: Any, op: str) -> str:
    if not isinstance(padding, str):
        raise TypeError(f"For '{op}', the type of 'padding_dtype' should be 'str', but got type "
                        f"'{type(padding).__name__}'.")
    if padding.upper() not in ("VALID", "SAME"):
        raise ValueError(f"For '{op}', the 'padding' must be str and must be in '['VALID', 'SAME']', but got "
                         f"'{padding.upper()}'.")
    return padding.upper()


def _check_volume_attrs(kernel_size: Any, strides: Any, padding: Any) -> None:
    _spatial(kernel_size, 3, "kernel_size", "ExtractVolumePatches")
    _spatial(strides, 3, "strides", "ExtractVolumePatches")
    _padding(padding, "ExtractVolumePatches")


def _check_image_attrs(ksizes: Any, strides: Any, rates: Any, padding: Any) -> None:
    op = "ExtractImagePatches"
    _spatial(ksizes, 2, "ksizes", op), _spatial(strides, 2, "strides", op), _spatial(rates, 2, "rates", op)
    _padding(padding, op)


def extract_volume_patches(input_x: Any, kernel_size: Any, strides: Any, padding: str) -> Tensor:
    """The (kd, kh, kw) windows of (N, C, D, H, W) ``input_x`` as channels: (N, C * kd * kh * kw, od, oh, ow).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 2, 3, 3, 3), np.float32))
        >>> extract_volume_patches(x, 2, 1, "VALID").shape
        (1, 16, 2, 2, 2)
    """
    op = "ExtractVolumePatches"
    pad = _padding(padding, op)
    k, s = _spatial(kernel_size, 3, "kernel_size", op), _spatial(strides, 3, "strides", op)
    x = check_tensor(input_x, op, "input_x")
    if x.ndim != 5:
        raise ValueError(f"For primitive[{op}], the input shape must be equal to 5, but got {x.ndim}.")
    return extract_patches(x, k, s, (1, 1, 1), pad, op)


def extract_image_patches(input_x: Any, ksizes: Any, strides: Any, rates: Any, padding: str = "VALID") -> Tensor:
    """The (kh, kw) windows (elements ``rates`` apart) of (N, C, H, W) ``input_x`` as channels:
    (N, C * kh * kw, oh, ow).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
        >>> print(extract_image_patches(x, 2, 1, 2).reshape(-1))
        [0. 2. 6. 8.]
    """
    op = "ExtractImagePatches"
    pad = _padding(padding, op)
    k, s = _spatial(ksizes, 2, "ksizes", op), _spatial(strides, 2, "strides", op)
    r = _spatial(rates, 2, "rates", op)
    x = check_tensor(input_x, op, "input_x")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    return extract_patches(x, k, s, r, pad, op)


def _volume_prim(input_x: Any, kernel_size: Any, strides: Any, padding: str) -> Tensor:
    return extract_volume_patches(input_x, kernel_size, strides, padding)


def _image_prim(input_x: Any, ksizes: Any, strides: Any, rates: Any, padding: str = "VALID") -> Tensor:
    return extract_image_patches(input_x, ksizes, strides, rates, padding)


_volume_prim.init_check = _check_volume_attrs  # type: ignore[attr-defined]
_image_prim.init_check = _check_image_attrs  # type: ignore[attr-defined]

OPS: List[Op] = [
    Op("_extract_volume_patches", "input_x, kernel_size, strides, padding", fn=_volume_prim,
       prim="ExtractVolumePatches(kernel_size, strides, padding)(input_x) -> input_x, kernel_size, strides, padding"),
    Op("_extract_image_patches", "input_x, ksizes, strides, rates, padding='VALID'", fn=_image_prim,
       prim="ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x) -> input_x, ksizes, strides, "
            "rates, padding"),
]

EXAMPLES = {
    "ExtractVolumePatches": ("import numpy as np",
                             "x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))",
                             "ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')(x).reshape(-1)",
                             "[0. 1. 2. 3. 4. 5. 6. 7.]"),
    "ExtractImagePatches": ("import numpy as np", "x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))",
                            "ops.ExtractImagePatches((1, 1, 2, 2), (1, 1, 1, 1), (1, 1, 2, 2), 'VALID')(x)"
                            ".reshape(-1)", "[0. 2. 6. 8.]"),
}
