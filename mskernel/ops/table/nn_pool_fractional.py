"""Op table: fractional max and average pooling (Graham's pooling with fractional steps):
``ops.FractionalMaxPoolWithFixedKsize``, ``ops.FractionalMaxPool3DWithFixedKsize``, ``ops.fractional_max_pool2d``,
``ops.fractional_max_pool3d`` (fixed windows at random steps), and ``ops.FractionalMaxPool``,
``ops.FractionalAvgPool`` (NHWC regions of a random sequence of sizes).

Fixed windows: along an axis of ``n_in`` elements, ``n_out`` windows of ``k`` start at
``floor((i + u) * a) - floor(u * a)`` with ``a = (n_in - k) / (n_out - 1)`` for ``i < n_out - 1`` and at
``n_in - k`` for the last, ``u`` being the random sample of that sample, channel and axis (for 2-d ``u[..., 0]``
is the width's, ``u[..., 1]`` the height's; for 3-d depth, height, width) — measured against the 2.10 CPU wheel.
The output is the window's maximum, ``argmax`` (int64) its flat index in the input plane (the first maximum).

Sequences: ``FractionalMaxPool``/``FractionalAvgPool`` split each of the height and width into
``floor(n / ratio)`` regions whose sizes differ by at most one, from a generator seeded by ``seed``/``seed2``
(``deterministic``; else a fresh draw) — random (a shuffled mix of the two sizes) or ``pseudo_random`` (Graham's
``ceil(ratio * (i + u)) - ceil(ratio * u)``). With ``overlapping`` a region also holds the next boundary's
element. The sequences (int64, ``n_out + 1`` boundaries from 0 to ``n``) are returned; the draws are not the
wheel's (its generator is its own), the pooling over given sequences is.

Outputs are gathered from the input (``gather_elements``) or averaged with matrices of region weights, so the
gradients are the engine's.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> y, idx = ops.FractionalMaxPoolWithFixedKsize(2, 2)(x, ms.Tensor(np.zeros((1, 1, 2), np.float32)))
    >>> print(y, idx)
    [[[[ 5.  7.]
       [13. 15.]]]] [[[[ 5  7]
       [13 15]]]]
"""
from __future__ import annotations

import math
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.image_resize_kernels import apply_spans

_FLOATS = (np.float16, np.float32, np.float64)


def _starts(u: float, n_in: int, n_out: int, k: int) -> np.ndarray:
    """The window starts along one axis for the random sample ``u``."""
    if n_out == 1:
        return np.array([n_in - k], np.int64)
    alpha = (n_in - k) / (n_out - 1)
    first = [int((i + u) * alpha) - int(u * alpha) for i in range(n_out - 1)]
    return np.clip(np.array(first + [n_in - k], np.int64), 0, n_in - k)


def _tuple(value: Any, n: int, name: str, op: str) -> Tuple[int, ...]:
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError(f"For '{op}', the type of '{name}' should be one of '['int', 'tuple']', but got type "
                        f"'{type(value).__name__}'.")
    out = (value,) * n if isinstance(value, int) else tuple(value)
    if len(out) != n or any(isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in out):
        raise ValueError(f"For '{op}', attr '{name}' must be an positive int number or a tuple of {n} positive int "
                         f"numbers, but got {value}.")
    return out


def _fixed_argmax(x: np.ndarray, samples: np.ndarray, ksize: Sequence[int], out: Sequence[int],
                  order: Sequence[int]) -> np.ndarray:
    """Flat argmax (in each input plane) of every window; ``x`` (N, C, *spatial), ``order`` maps spatial axis to
    its sample's index."""
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    d = len(spatial)
    arg = np.zeros((n, c) + tuple(out), np.int64)
    for b in range(n):
        for ch in range(c):
            starts = [_starts(float(samples[b, ch, order[a]]), spatial[a], out[a], ksize[a]) for a in range(d)]
            plane = x[b, ch]
            for pos in np.ndindex(*out):
                lo = [int(starts[a][pos[a]]) for a in range(d)]
                win = plane[tuple(slice(lo[a], lo[a] + ksize[a]) for a in range(d))]
                local = np.unravel_index(int(np.argmax(win)), win.shape)
                arg[(b, ch) + pos] = np.ravel_multi_index(tuple(lo[a] + local[a] for a in range(d)), spatial)
    return arg


def _fixed(op: str, x: Tensor, samples: Tensor, ksize: Tuple[int, ...], out: Tuple[int, ...]) -> Tuple[Tensor, Tensor]:
    d = len(ksize)
    order = (1, 0) if d == 2 else (0, 1, 2)
    xd = x._data
    arg = _fixed_argmax(xd, np.asarray(samples._data, np.float64), ksize, out, order)
    flat = F.reshape(x, x.shape[:2] + (-1,))
    y = F.gather_elements(flat, 2, Tensor._wrap(arg.reshape(arg.shape[:2] + (-1,))))
    return F.reshape(y, arg.shape), Tensor._wrap(arg)


def _check_samples(op: str, x: Tensor, samples: Tensor, d: int) -> None:
    s = samples.shape
    if x._data.dtype.type not in _FLOATS + (np.int32, np.int64):
        raise TypeError(f"For '{op}', the dtype of 'input_x' must be one of float16, float32, float64, int32, int64, "
                        f"but got {x.dtype}.")
    if samples._data.dtype.type not in _FLOATS:
        raise TypeError(f"For '{op}', the dtype of 'random_samples' must be one of float16, float32, float64, but "
                        f"got {samples.dtype}.")
    if len(s) != 3:
        raise ValueError(f"For '{op}', the dimension of 'random_samples' must be 3, but got {len(s)}.")
    if d == 2:
        if s[0] != x.shape[0]:
            raise ValueError("The first dimension size of input_x and random_samples must be equal.")
        if s[1] != x.shape[1]:
            raise ValueError("The second dimension size of input_x and random_samples must be equal.")
        if s[2] != 2:
            raise ValueError(f"The third dimension size of random_samples must be 2, but got {s[2]}.")
    else:
        if s[0] != x.shape[0]:
            raise ValueError(f"For '{op}', if 'x' is 5 dimensional, the first dimension size of 'x' and "
                             f"'random_samples' must be equal.")
        if s[1] != x.shape[1]:
            raise ValueError(f"For '{op}', if 'x' is 5 dimensional, the second dimension size of 'x' and "
                             f"'random_samples' must be equal.")
        if s[2] != 3:
            raise ValueError(f"For '{op}', if 'x' is 5 dimensional, the second dimension size of 'random_samples' "
                             f"must be equal to 3.")


def fractional_max_pool_with_fixed_ksize(input_x: Any, random_samples: Any, ksize: Any, output_shape: Any,
                                         data_format: str = "NCHW") -> Tuple[Tensor, Tensor]:
    """``ops.FractionalMaxPoolWithFixedKsize``: 2-d windows of ``ksize`` at random steps (module docstring)."""
    op = "FractionalMaxPoolWithFixedKsize"
    k = _tuple(ksize, 2, "ksize", op)
    out = _tuple(output_shape, 2, "output_shape", op)
    if data_format != "NCHW":
        raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got {data_format}.")
    x = check_tensor(input_x, op, "input_x")
    u = check_tensor(random_samples, op, "random_samples")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    _check_samples(op, x, u, 2)
    for name, kk, o, n in (("h", k[0], out[0], x.shape[2]), ("w", k[1], out[1], x.shape[3])):
        if kk + o - 1 > n:
            full = "height" if name == "h" else "width"
            raise ValueError(f"For {op}, ksize {full} [{kk}] + output_shape_{name} [{o}] too large relative to input "
                             f"{full} [{n}], conflict with the rule: ksize_{name} + output_shape_{name} - 1 <= "
                             f"input_{name}")
    return _fixed(op, x, u, k, out)


def fractional_max_pool3d_with_fixed_ksize(x: Any, random_samples: Any, ksize: Any, output_shape: Any,
                                           data_format: str = "NCDHW") -> Tuple[Tensor, Tensor]:
    """``ops.FractionalMaxPool3DWithFixedKsize``: 3-d windows of ``ksize`` at random steps (4-d or 5-d input)."""
    op = "FractionalMaxPool3DWithFixedKsize"
    k = _tuple(ksize, 3, "ksize", op)
    out = _tuple(output_shape, 3, "output_shape", op)
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"For '{op}', the 'data_format' must be str and must be in '['NCDHW', 'NDHWC']', but got "
                         f"'{data_format}'.")
    x = check_tensor(x, op, "x")
    u = check_tensor(random_samples, op, "random_samples")
    if x.ndim not in (4, 5):
        raise ValueError(f"For '{op}', the dimension of 'x' must be 4 or 5, but got {x.ndim}.")
    squeeze = x.ndim == 4
    if squeeze:  # a (C, D, H, W) input takes its samples as (C, 1, 3)
        x, u = F.expand_dims(x, 0), F.transpose(u, (1, 0, 2))
    if data_format == "NDHWC":
        x = F.transpose(x, (0, 4, 1, 2, 3))
    _check_samples(op, x, u, 3)
    for kk, o, n, dim in zip(k, out, x.shape[2:], ("depth", "height", "width")):
        if kk + o > n:  # the CPU kernel's bound, stricter than the 2-d op's ksize + output - 1 <= input
            raise ValueError(f"For '{op}', out(): pool {dim} ,{kk}too large relative to input {dim}{n}.")
    y, arg = _fixed(op, x, u, k, out)
    if data_format == "NDHWC":
        y, arg = F.transpose(y, (0, 2, 3, 4, 1)), F.transpose(arg, (0, 2, 3, 4, 1))
    if squeeze:
        y, arg = F.squeeze(y, 0), F.squeeze(arg, 0)
    return y, arg


def _output_size(fn: str, x: Tensor, d: int, output_size: Any, output_ratio: Any) -> Tuple[int, ...]:
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {fn}, 'output_size' and 'output_ratio' can not be Noneat the same time, but got "
                         f"{output_size} and {output_ratio} .")
    if output_size is not None:
        return (output_size,) * d if isinstance(output_size, int) else tuple(output_size)
    ratio = (output_ratio,) * d if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
    for i, r in enumerate(ratio):
        if not 0.0 < r < 1.0:
            raise ValueError(f"For '{fn}', the 'output_ratio[{i}]' must be in range of (0.0, 1.0), but got {r} with "
                             f"type '{type(r).__name__}'.")
    return tuple(int(x.shape[-d + i] * ratio[i]) for i in range(d))


def _draw_samples(n: int, c: int, d: int, dtype: Any) -> Tensor:
    dt = dtype if dtype in (mstype.float16, mstype.float32, mstype.float64) else mstype.float32
    return F.rand(n, c, d, dtype=dt)


def fractional_max_pool2d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Any = None) -> Any:
    """2-d fractional max pooling of a 3-d or 4-d ``input``; ``_random_samples`` (N, C, 2) default uniform."""
    fn = "fractional_max_pool2d"
    x = check_tensor(input, fn, "input")
    if x.ndim not in (3, 4):
        raise ValueError(f"For '{fn}', the dimension of 'input' must be 3 or 4, but got {x.ndim}.")
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{fn}', the type of 'return_indices' should be 'bool', but got type "
                        f"'{type(return_indices).__name__}'.")
    size = _output_size(fn, x, 2, output_size, output_ratio)
    squeeze = x.ndim == 3
    if squeeze:
        x = F.expand_dims(x, 0)
    u = _random_samples if _random_samples is not None else _draw_samples(x.shape[0], x.shape[1], 2, x.dtype)
    y, arg = fractional_max_pool_with_fixed_ksize(x, u, kernel_size, size)
    if squeeze:
        y, arg = F.squeeze(y, 0), F.squeeze(arg, 0)
    return (y, arg) if return_indices else y


def fractional_max_pool3d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Any = None) -> Any:
    """3-d fractional max pooling of a 4-d or 5-d ``input``; ``_random_samples`` (N, C, 3) default uniform."""
    fn = "fractional_max_pool3d"
    x = check_tensor(input, fn, "input")
    if x.ndim not in (4, 5):
        raise ValueError(f"For '{fn}', the dimension of 'input' must be 4 or 5, but got {x.ndim}.")
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{fn}', the type of 'return_indices' should be 'bool', but got type "
                        f"'{type(return_indices).__name__}'.")
    size = _output_size(fn, x, 3, output_size, output_ratio)
    u = _random_samples
    if u is None:
        u = _draw_samples(1 if x.ndim == 4 else x.shape[0], x.shape[-4], 3, x.dtype)
    u = check_tensor(u, fn, "_random_samples")
    if u._data.dtype != x._data.dtype:
        raise TypeError(f"For 'fractional_max_pool3d', 'input' and '_random_samples' must be same dtype, but got "
                        f"Tensor[{x.dtype}] and Tensor[{u.dtype}].")
    if x.ndim == 4:
        u = F.transpose(u, (1, 0, 2))
    out = fractional_max_pool3d_with_fixed_ksize(x, u, kernel_size, size)
    return out if return_indices else out[0]


# -- sequences of regions (NHWC) ----------------------------------------------------------------------------------
def _check_ratio(op: str, pooling_ratio: Any) -> List[float]:
    if not isinstance(pooling_ratio, list):
        raise TypeError(f"For '{op}', the type of 'pooling_ratio' should be 'list', but got type "
                        f"'{type(pooling_ratio).__name__}'.")
    if len(pooling_ratio) != 4:
        raise ValueError(f"For '{op}', the length of 'pooling_ratio' must be 4, but got {len(pooling_ratio)}.")
    if pooling_ratio[0] != 1.0:
        raise ValueError(f"For '{op}', the first element of parameter 'pooling_ratio' must be 1.0, but got "
                         f"{pooling_ratio[0]:f}.")
    for i, name in ((1, "second"), (2, "third")):
        if pooling_ratio[i] < 1.0:
            raise ValueError(f"For '{op}', the {name} element of pooling ratio must be greater than or equal to "
                             f"1.0, but got {pooling_ratio[i]:f}.")
    if pooling_ratio[3] != 1.0:
        raise ValueError(f"For '{op}', the forth element of parameter 'pooling_ratio' must be 1.0, but got "
                         f"{pooling_ratio[3]:f}.")
    return [float(r) for r in pooling_ratio]


def _sequence(rng: np.random.RandomState, n_in: int, n_out: int, ratio: float, pseudo: bool) -> np.ndarray:
    """``n_out + 1`` boundaries from 0 to ``n_in`` of regions whose sizes differ by at most one."""
    if pseudo:
        u = rng.uniform(0, 1)
        seq = [math.ceil(ratio * (i + u)) - math.ceil(ratio * u) for i in range(n_out)] + [n_in]
        seq = [min(max(s, 0), n_in) for s in seq]
        return np.array(seq, np.int64)
    small = n_in // n_out
    big = n_out * (small + 1) - n_in  # how many regions of the small size
    sizes = np.array([small] * big + [small + 1] * (n_out - big), np.int64)
    rng.shuffle(sizes)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _weights(seq: np.ndarray, n_in: int, overlapping: bool) -> np.ndarray:
    """(n_out, n_in) 0/1 membership of each element in each region."""
    n_out = len(seq) - 1
    m = np.zeros((n_out, n_in), np.float64)
    for i in range(n_out):
        hi = min(int(seq[i + 1]) + (1 if overlapping else 0), n_in)
        m[i, int(seq[i]):hi] = 1
    return m


def _mean_spans(seq: np.ndarray, n_in: int, overlapping: bool) -> Tuple[np.ndarray, np.ndarray]:
    """Each region's first element and its equal weights (NaN past a shorter region's end)."""
    m = _weights(seq, n_in, overlapping)
    sizes = m.sum(1).astype(np.int64)
    taps = np.full((len(sizes), max(int(sizes.max()), 1)), np.nan)
    for i, k in enumerate(sizes):
        taps[i, :k] = 1.0 / max(k, 1)
    return np.asarray(seq[:-1], np.int64), taps


def _regions(op: str, value: Any, pooling_ratio: Any, pseudo_random: bool, overlapping: bool, deterministic: bool,
             seed: int, seed2: int) -> Tuple[Tensor, np.ndarray, np.ndarray]:
    ratio = _check_ratio(op, pooling_ratio)
    x = check_tensor(value, op, "x")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'x' must be 4, but got {x.ndim}.")
    n_h, n_w = int(x.shape[1] / ratio[1]), int(x.shape[2] / ratio[2])
    if n_h <= 0 or n_w <= 0:
        raise ValueError(f"For '{op}', the output size must be positive, but got ({n_h}, {n_w}).")
    if deterministic or seed or seed2:
        rng = np.random.RandomState((int(seed) * 1000003 + int(seed2)) % (2 ** 32))
    else:
        rng = np.random.RandomState()
    rows = _sequence(rng, x.shape[1], n_h, ratio[1], pseudo_random)
    cols = _sequence(rng, x.shape[2], n_w, ratio[2], pseudo_random)
    return x, rows, cols


def fractional_max_pool(x: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        deterministic: bool = False, seed: int = 0, seed2: int = 0) -> Tuple[Tensor, Tensor, Tensor]:
    """``ops.FractionalMaxPool`` on NHWC ``x``: the maximum of each region, and the two sequences."""
    op = "FractionalMaxPool"
    t, rows, cols = _regions(op, x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    data = t._data
    n, h, w, c = data.shape
    mr, mc = _weights(rows, h, overlapping), _weights(cols, w, overlapping)
    arg = np.zeros((n, len(rows) - 1, len(cols) - 1, c), np.int64)
    for i in range(len(rows) - 1):
        rr = np.nonzero(mr[i])[0]
        for j in range(len(cols) - 1):
            cc = np.nonzero(mc[j])[0]
            win = data[:, rr[0]:rr[-1] + 1, cc[0]:cc[-1] + 1, :].reshape(n, -1, c)
            local = np.argmax(win, axis=1)
            r_idx, c_idx = rr[0] + local // len(cc), cc[0] + local % len(cc)
            arg[:, i, j, :] = r_idx * w + c_idx
    flat = F.reshape(t, (n, h * w, c))
    y = F.gather_elements(flat, 1, Tensor._wrap(arg.reshape(n, -1, c)))
    return F.reshape(y, arg.shape), Tensor._wrap(rows), Tensor._wrap(cols)


def fractional_avg_pool(x: Any, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                        deterministic: bool = False, seed: int = 0, seed2: int = 0) -> Tuple[Tensor, Tensor, Tensor]:
    """``ops.FractionalAvgPool`` on NHWC ``x``: the mean of each region, and the two sequences."""
    op = "FractionalAvgPool"
    t, rows, cols = _regions(op, x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    if t._data.dtype.type not in _FLOATS + (np.int32, np.int64):
        raise TypeError(f"For '{op}', the dtype of 'x' must be float16, float32, float64, int32 or int64, but got "
                        f"{t.dtype}.")
    _, h, w, _ = t.shape
    kind = t._data.dtype
    y = t if kind.kind == "f" else F.cast(t, mstype.float64)
    for axis, seq, n in ((1, rows, h), (2, cols, w)):  # each region's mean, rows then columns; an inf or NaN
        y = apply_spans(y, axis, *_mean_spans(seq, n, overlapping))  # reaches only the regions holding it
    if kind.kind != "f":
        y = F.cast(F.floor(y), t.dtype)
    return y, Tensor._wrap(rows), Tensor._wrap(cols)


_SEQ = "pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0, seed2=0"

OPS: List[Op] = [
    Op("_fractional_max_pool_with_fixed_ksize", "input_x, random_samples, ksize, output_shape, data_format='NCHW'",
       fn=fractional_max_pool_with_fixed_ksize, inputs=2,
       prim="FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format='NCHW')(input_x, random_samples) -> "
            "input_x, random_samples, ksize, output_shape, data_format"),
    Op("_fractional_max_pool3d_with_fixed_ksize", "x, random_samples, ksize, output_shape, data_format='NCDHW'",
       fn=fractional_max_pool3d_with_fixed_ksize, inputs=2,
       prim="FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format='NCDHW')(x, random_samples) -> "
            "x, random_samples, ksize, output_shape, data_format"),
    Op("fractional_max_pool2d", "input, kernel_size, output_size=None, output_ratio=None, return_indices=False, "
       "_random_samples=None", fn=fractional_max_pool2d),
    Op("fractional_max_pool3d", "input, kernel_size, output_size=None, output_ratio=None, return_indices=False, "
       "_random_samples=None", fn=fractional_max_pool3d),
    Op("_fractional_max_pool", "x, " + _SEQ, fn=fractional_max_pool,
       prim=f"FractionalMaxPool({_SEQ})(x) -> x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, "
            "seed2"),
    Op("_fractional_avg_pool", "x, " + _SEQ, fn=fractional_avg_pool,
       prim=f"FractionalAvgPool({_SEQ})(x) -> x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, "
            "seed2"),
]

_X = "x = ms.Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))"
_XH = "x = ms.Tensor(np.arange(1.0, 37.0, dtype=np.float32).reshape(1, 6, 6, 1))"
EXAMPLES = {
    "FractionalMaxPoolWithFixedKsize": ("import numpy as np", _X,
                                        "y, idx = ops.FractionalMaxPoolWithFixedKsize(2, 2)(x, ms.Tensor(np.zeros((1, "
                                        "1, 2), np.float32)))", "idx", "[[[[ 5  7]\n   [13 15]]]]"),
    "FractionalMaxPool3DWithFixedKsize": ("import numpy as np",
                                          "x = ms.Tensor(np.arange(8.0, dtype=np.float32).reshape(1, 1, 2, 2, 2))",
                                          "y, idx = ops.FractionalMaxPool3DWithFixedKsize(1, 1)(x, ms.Tensor(np.zeros(("
                                          "1, 1, 3), np.float32)))", "y, idx", "[[[[[7.]]]]] [[[[[7]]]]]"),
    "fractional_max_pool2d": ("import numpy as np", _X,
                              "ops.fractional_max_pool2d(x, 2, output_size=(2, 2)).shape", "(1, 1, 2, 2)"),
    "fractional_max_pool3d": ("import numpy as np",
                              "x = ms.Tensor(np.arange(64.0, dtype=np.float32).reshape(1, 1, 4, 4, 4))",
                              "ops.fractional_max_pool3d(x, 2, output_ratio=0.5).shape", "(1, 1, 2, 2, 2)"),
    "FractionalMaxPool": ("import numpy as np", _XH,
                          "y, rows, cols = ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0], deterministic=True, seed=1)(x)",
                          "y.shape, rows.shape", "(1, 4, 4, 1) (5,)"),
    "FractionalAvgPool": ("import numpy as np", _XH,
                          "y, rows, cols = ops.FractionalAvgPool([1.0, 2.0, 3.0, 1.0], deterministic=True, seed=1)(x)",
                          "y", "[[[[ 5.]\n   [ 8.]]\n\n  [[17.]\n   [20.]]\n\n  [[29.]\n   [32.]]]]"),
}

