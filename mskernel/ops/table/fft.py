"""Op table: discrete Fourier transforms (``ops.fft`` .. ``ops.ihfftn``, ``fftfreq``, ``fftshift``, ``stft``,
``FFTWithSize``, ``STFT``) and window functions (``bartlett_window`` .. ``kaiser_window``).

The transforms follow numpy's ``numpy.fft`` (the same definitions and ``norm`` modes as MindSpore's); a real or
integer input gives Complex64 (Float64 gives Complex128), the complex-to-real ones give Float32 (Float64). Each
transform's backward is its adjoint, computed by :func:`_fft_adjoint` (the complex gradient convention MindSpore
uses: for a real input, the real part).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.fft(ms.Tensor([1.0, 2.0, -1.0, 0.5])))
    [ 2.5+0.j   2. -1.5j -2.5+0.j   2. +1.5j]
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_NORMS = ("backward", "forward", "ortho")
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(norm: Optional[str], op: str) -> str:
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"Failed to convert the value \"{norm}\" of input 'norm' of '{op}' to enum.")
    return norm


def _complex(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64)


def _real_dtype(x: np.ndarray) -> np.dtype:
    return np.dtype(np.float64 if x.dtype in (np.float64, np.complex128) else np.float32)


def _dims(x: np.ndarray, s: Any, dim: Any, op: str, default: Optional[Tuple[int, ...]]) -> Tuple[list, list]:
    """The transformed axes (non-negative) and their lengths (None: the input's)."""
    nd = x.ndim
    top = nd - 1 if isinstance(dim, int) else nd  # MindSpore's message for one dim says [-nd, nd - 1)
    if dim is None:
        dims = list(range(nd - len(s), nd)) if s is not None else (list(default) if default else list(range(nd)))
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
    for d in dims:
        if not -nd <= d < nd:
            raise ValueError(f"For primitive[{op}], the dim must be in [{-nd},{top}), but got {d}.")
    dims = [d % nd for d in dims]
    sizes = [None] * len(dims) if s is None else ([s] if isinstance(s, int) else list(s))
    if len(sizes) != len(dims):
        raise ValueError(f"For primitive[{op}], the length of 's' ({len(sizes)}) must equal that of 'dim' "
                         f"({len(dims)}).")
    for n in sizes:
        if n is not None and n <= 0:
            raise ValueError(f"The argument[n] must be greater than 0, but got {n}.")
    return dims, sizes


def _resize(x: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """``x`` cropped or zero-padded at the end of each axis to ``shape``."""
    x = x[tuple(slice(0, n) for n in shape)]
    pad = [(0, n - m) for n, m in zip(shape, x.shape)]
    return np.pad(x, pad) if any(p for _, p in pad) else x


def _weights(m: int, n: int) -> np.ndarray:
    """How often each of the ``m`` stored Hermitian coefficients counts in a real signal of length ``n``."""
    w = np.full(m, 2.0)
    w[0] = 1.0
    if n % 2 == 0 and m > n // 2:
        w[n // 2] = 1.0
    return w


# kind -> the numpy transform over several axes (c2c, r2c, c2r)
def _c2c(x: np.ndarray, sizes: list, dims: list, norm: str, inverse: bool) -> np.ndarray:
    f = np.fft.ifftn if inverse else np.fft.fftn
    return f(x, None if None in sizes else sizes, dims, norm=norm) if sizes and None not in sizes else \
        f(x, [x.shape[d] if n is None else n for d, n in zip(dims, sizes)], dims, norm=norm)


def _full(x: np.ndarray, dims: list, sizes: list, last_c2r: bool = False) -> list:
    out = []
    for i, (d, n) in enumerate(zip(dims, sizes)):
        if n is None:
            n = 2 * (x.shape[d] - 1) if (last_c2r and i == len(dims) - 1) else x.shape[d]
        out.append(n)
    return out


def _transform(x: np.ndarray, kind: str, s: Any, dim: Any, norm: Optional[str], op: str,
               default: Optional[Tuple[int, ...]]) -> np.ndarray:
    norm = _norm(norm, op)
    dims, sizes = _dims(x, s, dim, op, default)
    if kind in ("fft", "ifft"):
        return _complex(np.fft.ifftn(x, _full(x, dims, sizes), dims, norm=norm) if kind == "ifft"
                        else np.fft.fftn(x, _full(x, dims, sizes), dims, norm=norm))
    if kind == "rfft":
        if x.dtype.kind == "c":
            raise TypeError(f"For '{op}', the input must be real, but got {mstype.to_dtype(x.dtype)}.")
        return _complex(np.fft.rfftn(x, _full(x, dims, sizes), dims, norm=norm))
    if kind == "ihfft":
        if x.dtype.kind == "c":
            raise TypeError(f"For '{op}', the input must be real, but got {mstype.to_dtype(x.dtype)}.")
        return _complex(np.conj(np.fft.rfftn(x, _full(x, dims, sizes), dims, norm=_SWAP[norm])))
    full = _full(x, dims, sizes, last_c2r=True)
    if kind == "irfft":
        return np.fft.irfftn(x, full, dims, norm=norm).astype(_real_dtype(x))
    return np.fft.irfftn(np.conj(x), full, dims, norm=_SWAP[norm]).astype(_real_dtype(x))  # hfft


def _fft_adjoint(g: np.ndarray, x: np.ndarray, kind: str, s: Any, dim: Any, norm: Optional[str],
                 default: Optional[Tuple[int, ...]]) -> np.ndarray:
    """The gradient of a transform's input: its adjoint applied to the output gradient ``g``."""
    norm = _norm(norm, kind)
    dims, sizes = _dims(x, s, dim, kind, default)
    swap = _SWAP[norm]
    if kind in ("fft", "ifft"):
        full = _full(x, dims, sizes)
        f = np.fft.fftn if kind == "ifft" else np.fft.ifftn
        r = f(g, full, dims, norm=swap)
    elif kind in ("rfft", "ihfft"):
        full = _full(x, dims, sizes)
        gg = np.conj(g) if kind == "ihfft" else g
        pad = list(gg.shape)
        pad[dims[-1]] = full[-1]
        gg = _resize(gg, pad)
        r = np.fft.ifftn(gg, full, dims, norm=swap if kind == "rfft" else norm)
    else:  # irfft, hfft: real output of a Hermitian input
        full = _full(x, dims, sizes, last_c2r=True)
        r = np.fft.rfftn(g, full, dims, norm=swap if kind == "irfft" else norm)
        shape = [1] * r.ndim
        shape[dims[-1]] = r.shape[dims[-1]]
        r = r * _weights(r.shape[dims[-1]], full[-1]).reshape(shape)
        if kind == "hfft":
            r = np.conj(r)
    shape = list(x.shape)
    r = _resize(r, shape)
    return (r.real if x.dtype.kind != "c" else r).astype(x.dtype if x.dtype.kind in "fc" else np.float32)


def _entry(name: str, kind: str, sig: str, default: Optional[Tuple[int, ...]]) -> Op:
    label = name.upper()
    if sig.startswith("input, n"):
        def fwd(input, n=None, dim=-1, norm=None):
            return _transform(_prep(input), kind, n, dim, norm, label, None)

        def bwd(g, input, n, dim, norm):
            return (F._fft_adjoint(g, input, kind, n, dim, norm, None),)
    else:
        def fwd(input, s=None, dim=default, norm=None):
            return _transform(_prep(input), kind, s, dim, norm, label, default)

        def bwd(g, input, s, dim, norm):
            return (F._fft_adjoint(g, input, kind, s, dim, norm, default),)
    return Op(name, sig, forward=fwd, backward=bwd, label=label)


def _prep(x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind in "fc" and x.dtype != np.float16 else x.astype(np.float32)


_SIG1 = "input, n=None, dim=-1, norm=None"
_SIG2 = "input, s=None, dim=(-2, -1), norm=None"
_SIGN = "input, s=None, dim=None, norm=None"


def _fft_ops() -> List[Op]:
    out = []
    for base, kind in (("fft", "fft"), ("ifft", "ifft"), ("rfft", "rfft"), ("irfft", "irfft"), ("hfft", "hfft"),
                       ("ihfft", "ihfft")):
        out.append(_entry(base, kind, _SIG1, None))
        out.append(_entry(base + "2", kind, _SIG2, (-2, -1)))
        out.append(_entry(base + "n", kind, _SIGN, None))
    return out


def _adjoint_op(g: np.ndarray, x: np.ndarray, kind: str, s: Any, dim: Any, norm: Any, default: Any) -> np.ndarray:
    return _fft_adjoint(g, _prep(x) if x.dtype.kind not in "fc" else x, kind, s, dim, norm, default)


def _int(n: Any, op: str, what: str = "n") -> int:
    if isinstance(n, Tensor):
        n = n._data.item()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"For '{op}', the argument[{what}] must be an int, but got {type(n).__name__}.")
    return int(n)


def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The sample frequencies of an ``n``-point transform with sample spacing ``d`` (Float32 unless ``dtype``).

    Example:
        >>> print(fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    n = _int(n, "fftfreq")
    if n <= 0:
        raise ValueError(f"The argument[n] must be greater than 0, but got {n}.")
    dt = mstype.to_dtype(dtype or mstype.float32)
    return Tensor._wrap(np.fft.fftfreq(n, d).astype(np.float32).astype(dt.np))


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point real transform (Float32 unless ``dtype``).

    Example:
        >>> print(rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    n = _int(n, "rfftfreq")
    if n <= 0:
        raise ValueError(f"The argument[n] must be greater than 0, but got {n}.")
    dt = mstype.to_dtype(dtype or mstype.float32)
    return Tensor._wrap(np.fft.rfftfreq(n, d).astype(np.float32).astype(dt.np))


def _shift(x: np.ndarray, dim: Any = None, inverse: bool = False) -> np.ndarray:
    if dim is not None:
        nd = x.ndim
        for d in ([dim] if isinstance(dim, int) else dim):
            if not -nd <= d < nd:
                op = "IFFTShift" if inverse else "FFTShift"
                raise ValueError(f"For primitive[{op}], the dim must be in [{-nd},{nd}), but got {d}.")
    return (np.fft.ifftshift if inverse else np.fft.fftshift)(x, dim)


# -- STFT --------------------------------------------------------------------------------------------------
def _frames(x: np.ndarray, n_fft: int, hop: int, window: np.ndarray, normalized: bool, onesided: bool) -> np.ndarray:
    """(..., freq, frames) complex128: the transform of each windowed frame."""
    count = 1 + (x.shape[-1] - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(count)[:, None]
    frames = x[..., idx] * window  # (..., frames, n_fft)
    spec = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, -1, -2)


def _window(window: Optional[np.ndarray], n_fft: int, win_length: int) -> np.ndarray:
    w = np.ones(win_length) if window is None else np.asarray(window, np.complex128 if np.iscomplexobj(window)
                                                                        else np.float64)
    if w.shape[-1] < n_fft:
        left = (n_fft - w.shape[-1]) // 2
        w = np.pad(w, (left, n_fft - w.shape[-1] - left))
    return w


def stft(x: Any, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
         window: Any = None, center: bool = True, pad_mode: str = "REFLECT", normalized: bool = False,
         onesided: Optional[bool] = None, return_complex: Optional[bool] = None) -> Tensor:
    """The short-time Fourier transform of ``x`` (1-D or a batch): ``(..., n_fft // 2 + 1, frames)`` complex, or
    with a trailing (real, imaginary) axis of 2 when ``return_complex`` is False (the default for a real input).

    Example:
        >>> import numpy as np
        >>> stft(Tensor(np.arange(32, dtype=np.float32)), 8).shape
        (5, 17, 2)
    """
    t = check_tensor(x, "STFT", "x")
    data = t._data
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    w = _window(None if window is None else check_tensor(window, "STFT", "window")._data, n_fft, win)
    is_complex = data.dtype.kind == "c" or np.iscomplexobj(w)
    onesided = (not is_complex) if onesided is None else bool(onesided)
    return_complex = is_complex if return_complex is None else bool(return_complex)
    if center:
        mode = {"REFLECT": "reflect", "CONSTANT": "constant", "REPLICATE": "edge", "CIRCULAR": "wrap"}.get(
            str(pad_mode).upper())
        if mode is None:
            raise ValueError(f"For 'stft', 'pad_mode' must be one of ['REFLECT', 'CONSTANT', 'REPLICATE', "
                             f"'CIRCULAR'], but got {pad_mode}.")
        pad = [(0, 0)] * (data.ndim - 1) + [(n_fft // 2, n_fft // 2)]
        data = np.pad(data, pad, mode=mode)
    spec = _frames(data.astype(np.complex128 if data.dtype.kind == "c" else np.float64), n_fft, hop, w,
                   normalized, onesided)
    cdt = np.complex128 if t._data.dtype in (np.float64, np.complex128) else np.complex64
    if return_complex:
        return Tensor._wrap(spec.astype(cdt))
    return Tensor._wrap(np.stack([spec.real, spec.imag], -1).astype(_real_dtype(t._data)))


def _stft_prim(x: np.ndarray, window: np.ndarray, n_fft: int, hop_length: int, win_length: int, normalized: bool,
               onesided: bool, return_complex: bool) -> np.ndarray:
    w = _window(window, n_fft, win_length)
    spec = _frames(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64), n_fft, hop_length, w,
                   normalized, onesided)
    if return_complex:
        return spec.astype(_complex(x[:0]).dtype)
    return np.stack([spec.real, spec.imag], -1).astype(_real_dtype(x))


def _fft_with_size(x: np.ndarray, signal_ndim: int, inverse: bool, real: bool, norm: str = "backward",
                   onesided: bool = True, signal_sizes: Sequence[int] = ()) -> np.ndarray:
    dims = list(range(x.ndim - signal_ndim, x.ndim))
    x = _prep(x)
    if not real:
        return _complex((np.fft.ifftn if inverse else np.fft.fftn)(x, axes=dims, norm=norm))
    if not inverse:
        return _complex(np.fft.rfftn(x, axes=dims, norm=norm) if onesided else np.fft.fftn(x, axes=dims, norm=norm))
    if not onesided:
        return np.fft.ifftn(x, axes=dims, norm=norm).real.astype(_real_dtype(x))
    sizes = list(signal_sizes) if signal_sizes else [x.shape[d] for d in dims[:-1]] + [2 * (x.shape[-1] - 1)]
    return np.fft.irfftn(x, sizes, dims, norm=norm).astype(_real_dtype(x))


# -- windows -----------------------------------------------------------------------------------------------
_FLOATS = "[mindspore.float16, mindspore.float32, mindspore.float64]"


def _window_dtype(dtype: Any, op: str) -> np.dtype:
    dt = mstype.to_dtype(dtype)
    if dt.np.kind != "f":
        raise TypeError(f"For '{op}', the 'dtype' should be one of {_FLOATS}, but got 'mindspore.{dt.np.name}'.")
    return dt.np


def _length_tensor(window_length: Any, op: str, one_d: bool = False) -> int:
    if not isinstance(window_length, Tensor):
        got = mstype.to_dtype(np.asarray(window_length).dtype) if isinstance(window_length, (int, float)) \
            else type(window_length).__name__
        raise TypeError(f"For Primitive[{op}], the type of input argument[window_length] must be Tensor but got "
                        f"{got}.")
    if window_length._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"For primitive[{op}], the input argument[window_length] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{window_length.dtype}].")
    if one_d and window_length.ndim != 1:
        raise ValueError(f"For primitive[{op}], the length dim must be equal to 1, but got {window_length.ndim}.")
    n = int(window_length._data.reshape(-1)[0])
    if not 0 <= n <= 1000000:
        raise ValueError(f"For '{op}', the value range of window_length must be [0, 1000000], but got: {n}.")
    return n


def _length_int(window_length: Any, op: str) -> int:
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"For '{op}', 'window_length' must be a non-negative integer, but got "
                        f"{type(window_length)}")
    if window_length < 0:
        raise ValueError(f"For '{op}', 'window_length' must be a non-negative integer, but got {window_length}")
    return int(window_length)


def _cosine(n: int, periodic: bool, coeffs: Sequence[float]) -> np.ndarray:
    """sum_k (-1)^k coeffs[k] cos(2 pi k i / (N - 1)) over N = n (+1 when periodic, then the last dropped)."""
    if n <= 1:
        return np.ones(n)
    m = n + 1 if periodic else n
    t = 2 * np.pi * np.arange(m) / (m - 1)
    w = sum((-1) ** k * c * np.cos(k * t) for k, c in enumerate(coeffs))
    return np.where(np.abs(w) < 1e-15, 0.0, w)[:n]


def _bartlett(n: int, periodic: bool) -> np.ndarray:
    if n <= 1:
        return np.ones(n)
    m = n + 1 if periodic else n
    return (1 - np.abs(2 * np.arange(m) / (m - 1) - 1))[:n]


def bartlett_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Bartlett (triangular) window of ``window_length`` (a 0-D Int32/Int64 Tensor); Float32 unless ``dtype``.

    Example:
        >>> print(bartlett_window(Tensor(5)))
        [0.  0.4 0.8 0.8 0.4]
    """
    dt = _window_dtype(dtype or mstype.float32, "BartlettWindow")
    return Tensor._wrap(_bartlett(_length_tensor(window_length, "BartlettWindow"), periodic).astype(dt))


def blackman_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Blackman window of ``window_length`` (a 0-D Int32/Int64 Tensor); Float32 unless ``dtype``.

    Example:
        >>> print(blackman_window(Tensor(3), periodic=False))
        [0. 1. 0.]
    """
    dt = _window_dtype(dtype or mstype.float32, "BlackmanWindow")
    n = _length_tensor(window_length, "BlackmanWindow")
    return Tensor._wrap(_cosine(n, periodic, (0.42, 0.5, 0.08)).astype(dt))


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: Any = None) -> Tensor:
    """The generalised Hamming window ``alpha - beta cos(...)`` of ``window_length`` (an int); Float32 unless
    ``dtype``.

    Example:
        >>> print(hamming_window(3, periodic=False))
        [0.08 1.   0.08]
    """
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"For array function 'hamming_window', 'window_length' must be int, but got "
                        f"{type(window_length)}.")
    if window_length < 0:
        raise ValueError(f"For array function 'hamming_window', 'window_length' must be non-negative, but got "
                         f"{window_length}.")
    if window_length <= 1 and dtype is None:  # as MindSpore: its short cut for these is Float64
        return Tensor._wrap(np.ones(int(window_length)))
    dt = _window_dtype(dtype or mstype.float32, "hamming_window")
    return Tensor._wrap(_cosine(int(window_length), periodic, (alpha, beta)).astype(dt))


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Hann window of ``window_length`` (an int); Float64 unless ``dtype``.

    Example:
        >>> print(hann_window(3, periodic=False))
        [0. 1. 0.]
    """
    n = _length_int(window_length, "hann_window")
    dt = _window_dtype(dtype or mstype.float64, "hann_window")
    return Tensor._wrap(_cosine(n, periodic, (0.5, 0.5)).astype(dt))


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: Any = None) -> Tensor:
    """The Kaiser window of ``window_length`` (an int) with shape parameter ``beta``; Float64 unless ``dtype``.

    Example:
        >>> print(kaiser_window(3, periodic=False, beta=0.0))
        [1. 1. 1.]
    """
    n = _length_int(window_length, "kaiser_window")
    dt = _window_dtype(dtype or mstype.float64, "kaiser_window")
    if n <= 1:
        return Tensor._wrap(np.ones(n, dt))
    m = n + 1 if periodic else n
    return Tensor._wrap(np.kaiser(m, beta)[:n].astype(dt))


def _bartlett_prim(window_length: np.ndarray, periodic: bool = True, dtype: Any = mstype.float32) -> np.ndarray:
    return bartlett_window(Tensor._wrap(window_length), periodic, dtype=dtype)._data


def _blackman_prim(window_length: np.ndarray, periodic: bool = True, dtype: Any = mstype.float32) -> np.ndarray:
    return blackman_window(Tensor._wrap(window_length), periodic, dtype=dtype)._data


def _hamming_prim(length: np.ndarray, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46,
                  dtype: Any = mstype.float32) -> np.ndarray:
    n = _length_tensor(Tensor._wrap(length), "HammingWindow", one_d=True)
    return _cosine(n, periodic, (alpha, beta)).astype(_window_dtype(dtype, "HammingWindow"))


OPS: List[Op] = _fft_ops() + [
    Op("_fft_adjoint", "g, input, kind, s, dim, norm, default", forward=_adjoint_op, inputs=2),
    Op("fftfreq", "n, d=1.0, dtype=None", fn=fftfreq, inputs=0),
    Op("rfftfreq", "n, d=1.0, dtype=None", fn=rfftfreq, inputs=0),
    Op("fftshift", "input, dim=None", forward=lambda input, dim=None: _shift(input, dim),
       backward=lambda g, dim: (F.ifftshift(g, dim),), label="FFTShift"),
    Op("ifftshift", "input, dim=None", forward=lambda input, dim=None: _shift(input, dim, True),
       backward=lambda g, dim: (F.fftshift(g, dim),), label="IFFTShift"),
    Op("stft", "x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='REFLECT', "
       "normalized=False, onesided=None, return_complex=None", fn=stft),
    Op("_stft", "x, window, n_fft, hop_length, win_length, normalized, onesided, return_complex",
       forward=_stft_prim, inputs=2, prim="STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)"
       "(x, window) -> x, window, n_fft, hop_length, win_length, normalized, onesided, return_complex"),
    Op("_fft_with_size", "x, signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=()",
       forward=_fft_with_size, prim="FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, "
       "signal_sizes=())(x) -> x, signal_ndim, inverse, real, norm, onesided, signal_sizes"),
    Op("bartlett_window", "window_length, periodic=True, *, dtype=None", fn=bartlett_window, inputs=0),
    Op("blackman_window", "window_length, periodic=True, *, dtype=None", fn=blackman_window, inputs=0),
    Op("hamming_window", "window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None", fn=hamming_window,
       inputs=0),
    Op("hann_window", "window_length, periodic=True, *, dtype=None", fn=hann_window, inputs=0),
    Op("kaiser_window", "window_length, periodic=True, beta=12.0, *, dtype=None", fn=kaiser_window, inputs=0),
    Op("_bartlett_window", "window_length, periodic=True, dtype=mindspore.float32", forward=_bartlett_prim,
       prim="BartlettWindow(periodic=True, dtype=mindspore.float32)(window_length) -> window_length, periodic, dtype"),
    Op("_blackman_window", "window_length, periodic=True, dtype=mindspore.float32", forward=_blackman_prim,
       prim="BlackmanWindow(periodic=True, dtype=mindspore.float32)(window_length) -> window_length, periodic, dtype"),
    Op("_hamming_window", "length, periodic=True, alpha=0.54, beta=0.46, dtype=mindspore.float32",
       forward=_hamming_prim, prim="HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=mindspore.float32)"
       "(length) -> length, periodic, alpha, beta, dtype"),
]

#: the examples, by op or primitive name (see mskernel.ops.registry): (setup, ..., expression, printed)
_X = "x = ms.Tensor([1.0, 2.0, -1.0, 0.5])"
_M = "x = ops.ones((2, 2))"
EXAMPLES = {
    "fft": (_X, "ops.fft(x)", "[ 2.5+0.j   2. -1.5j -2.5+0.j   2. +1.5j]"),
    "fft2": (_M, "ops.fft2(x)", "[[4.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "fftn": (_M, "ops.fftn(x)", "[[4.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "ifft": (_X, "ops.ifft(x)", "[ 0.625+0.j    0.5  +0.375j -0.625+0.j    0.5  -0.375j]"),
    "ifft2": (_M, "ops.ifft2(x)", "[[1.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "ifftn": (_M, "ops.ifftn(x)", "[[1.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "rfft": (_X, "ops.rfft(x)", "[ 2.5+0.j   2. -1.5j -2.5+0.j ]"),
    "rfft2": (_M, "ops.rfft2(x)", "[[4.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "rfftn": (_M, "ops.rfftn(x)", "[[4.+0.j 0.+0.j]\n [0.+0.j 0.+0.j]]"),
    "irfft": ("x = ms.Tensor([4.0, 0.0, 0.0])", "ops.irfft(x)", "[1. 1. 1. 1.]"),
    "irfft2": (_M, "ops.irfft2(x)", "[[1. 0.]\n [0. 0.]]"),
    "irfftn": (_M, "ops.irfftn(x)", "[[1. 0.]\n [0. 0.]]"),
    "hfft": ("x = ms.Tensor([1.0, 0.0, 0.0])", "ops.hfft(x)", "[1. 1. 1. 1.]"),
    "hfft2": (_M, "ops.hfft2(x)", "[[4. 0.]\n [0. 0.]]"),
    "hfftn": (_M, "ops.hfftn(x)", "[[4. 0.]\n [0. 0.]]"),
    "ihfft": (_X, "ops.ihfft(x)", "[ 0.625-0.j     0.5  +0.375j -0.625-0.j   ]"),
    "ihfft2": (_M, "ops.ihfft2(x)", "[[1.-0.j 0.-0.j]\n [0.-0.j 0.-0.j]]"),
    "ihfftn": (_M, "ops.ihfftn(x)", "[[1.-0.j 0.-0.j]\n [0.-0.j 0.-0.j]]"),
    "fftshift": ("x = ms.Tensor([0, 1, 2, -2, -1])", "ops.fftshift(x)", "[-2 -1  0  1  2]"),
    "ifftshift": ("x = ms.Tensor([-2, -1, 0, 1, 2])", "ops.ifftshift(x)", "[ 0  1  2 -2 -1]"),
    "STFT": ("x = ops.arange(16.0)",
             "ops.STFT(8, 4, 8, False, True, True)(x, ops.ones(8)).shape", "(5, 3)"),
    "FFTWithSize": ("x = ms.Tensor([2, 1, 2], ms.complex64)",
                    "ops.FFTWithSize(signal_ndim=1, inverse=False, real=False)(x)",
                    "[5. +0.j        0.5+0.8660254j 0.5-0.8660254j]"),
    "BartlettWindow": ("ops.BartlettWindow()(ms.Tensor(5))", "[0.  0.4 0.8 0.8 0.4]"),
    "BlackmanWindow": ("ops.BlackmanWindow(periodic=False)(ms.Tensor(3))", "[0. 1. 0.]"),
    "HammingWindow": ("ops.HammingWindow(periodic=False)(ms.Tensor([3]))", "[0.08 1.   0.08]"),
}
