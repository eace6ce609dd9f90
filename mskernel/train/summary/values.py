"""What each summary plugin stores: a scalar, a tensor, an image (PNG) or a histogram, as a ``Summary.Value``.

Images are ``NCHW`` batches laid on a canvas 8 images wide (one channel repeated to three), scaled to bytes
(values in [0, 1] times 255; otherwise shifted by the minimum and scaled by ``255 / (max - min + 1)``) and
stored as PNG. Histograms count the finite values in ``n // 10 + 1`` equal buckets (2 up to 5 values, 3 up to
10, at most 90) between the minimum and the maximum, and count NaN and infinities apart.

Example:
    >>> import numpy as np
    >>> from mskernel.train.summary.event_file import Event
    >>> ev = Event(wall_time=0.0)
    >>> fill_value(ev.summary.value.add(), "scalar", "loss", np.array(0.5, np.float32))
    True
    >>> ev.summary.value[0].scalar_value
    0.5
"""
from __future__ import annotations

import logging
import struct
import zlib
from typing import Any

import numpy as np

from mskernel.train.summary.event_file import DATA_TYPES

__all__ = ["fill_value", "encode_png", "decode_png", "histogram_bins"]

logger = logging.getLogger(__name__)

_F32_MIN, _F32_MAX = np.finfo(np.float32).min, np.finfo(np.float32).max


def histogram_bins(count: int) -> int:
    """How many buckets a histogram of ``count`` finite values gets.

    Example:
        >>> [histogram_bins(n) for n in (0, 4, 8, 25, 5000)]
        [1, 2, 3, 3, 90]
    """
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    return count // 10 + 1 if count <= 880 else 90


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode_png(rgb: np.ndarray) -> bytes:
    """PNG bytes of an ``(H, W, 3)`` uint8 image (8-bit RGB, no filtering).

    Example:
        >>> decode_png(encode_png(np.full((2, 3, 3), 7, np.uint8))).shape
        (2, 3, 3)
    """
    h, w, _ = rgb.shape
    rows = b"".join(b"\x00" + rgb[i].tobytes() for i in range(h))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b""))


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def decode_png(data: bytes) -> np.ndarray:
    """The ``(H, W, C)`` uint8 pixels of an 8-bit, non-interlaced grey/RGB/RGBA PNG (any row filters).

    Example:
        >>> decode_png(encode_png(np.arange(12, dtype=np.uint8).reshape(2, 2, 3)))[1, 1].tolist()
        [9, 10, 11]
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("decode_png: the data is not a PNG image")
    pos, idat, w, h, channels = 8, b"", 0, 0, 3
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (0, 2, 6):
                raise ValueError(f"decode_png: expected 8-bit grey, RGB or RGBA, got depth {depth} colour {color}")
            channels = {0: 1, 2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * channels
    out = np.zeros((h, stride), np.uint8)
    prev = [0] * stride
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], list(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], (prev[x - channels] if x >= channels else 0)
            pred = (0, a, b, (a + b) // 2, _paeth(a, b, c))[ftype]
            line[x] = (line[x] + pred) & 0xFF
        out[y] = line
        prev = line
    return out.reshape(h, w, channels)


def _canvas(nchw: np.ndarray, cols_max: int = 8) -> np.ndarray:
    """The images of an NCHW batch side by side, ``cols_max`` to a row, as a float64 (3, H, W) canvas."""
    if nchw.shape[1] == 1:
        nchw = np.concatenate([nchw] * 3, 1)
    n, _, h, w = nchw.shape
    cols = min(n, cols_max)
    rows = -(-n // cols)
    canvas = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h:(y + 1) * h, x * w:(x + 1) * w] = nchw[i]
    return canvas


def _image(tag: str, value: np.ndarray, image: Any) -> bool:
    if value.ndim != 4 or value.shape[1] not in (1, 3):
        logger.error("The dimension of Summary tensor should be 4 or second dimension should be 1 or 3, but got "
                     "tag = %s, ndim = %d, shape=%s, which means Summary tensor is not Image.", tag, value.ndim,
                     value.shape)
        return False
    if 0 in value.shape:
        logger.error("The tensor with shape(%s) is not a valid image because the shape contains zero.", value.shape)
        return False
    hwc = _canvas(value).transpose(1, 2, 0)
    hi, lo = np.max(hwc), np.min(hwc)
    scale, shift = 1.0, 0.0
    if 0 <= lo and hi <= 1:
        scale = 255
    else:
        if hi != lo:
            scale = 255 / (hi - lo + 1)
        shift = lo
    pixels = ((hwc.astype(np.float32) - shift) * scale).astype(np.uint8)
    image.height, image.width, image.colorspace = pixels.shape
    image.encoded_image = encode_png(pixels)
    return True


def _histogram(value: np.ndarray, hist: Any) -> None:
    finite = np.ma.masked_invalid(value)
    total, valid = value.size, int(finite.count())
    hist.count = total
    hist.nan_count = int(np.count_nonzero(np.isnan(value))) if total > valid else 0
    hist.pos_inf_count = int(np.count_nonzero(np.isposinf(value))) if total > valid else 0
    hist.neg_inf_count = int(np.count_nonzero(np.isneginf(value))) if total > valid else 0
    if not valid:
        logger.warning("There are no valid values in the ndarray(size=%d, shape=%s)", total, value.shape)
        return
    hist.min, hist.max = finite.min(), finite.max()
    if hist.min < _F32_MIN or hist.max > _F32_MAX:
        logger.warning("Values(%s, %s) are too large, you may encounter some undefined behaviours hereafter.",
                       hist.min, hist.max)
    hist.sum = finite.sum(dtype=np.float64)
    first, last = hist.min, hist.max
    if not first < last:
        first, last = first - 0.5, last + 0.5
    edges = np.linspace(first, last, histogram_bins(valid) + 1, dtype=value.dtype)
    counts, edges = np.histogram(value, bins=edges)
    for n, left, right in zip(counts, edges, edges[1:]):
        b = hist.buckets.add()
        b.left, b.width, b.count = left, right - left, n


def _tensor(value: np.ndarray, tensor: Any) -> None:
    code = DATA_TYPES.get(value.dtype.type)
    if code is None:
        raise TypeError("Transform numpy type failed in Summary, expect numpy type is one of ['np.bool_', 'np.int8', "
                        "'np.int16', 'np.int32', 'np.int64', 'np.uint8', 'np.uint16', 'np.uint32', 'np.uint64', "
                        "'np.float16', 'np.float32', 'np.float64'].")
    tensor.data_type = code
    tensor.float_data.extend(value.reshape(-1).tolist())
    tensor.dims.extend(int(d) for d in value.shape)


def fill_value(out: Any, plugin: str, tag: str, value: Any) -> bool:
    """Fill the ``Summary.Value`` ``out`` with ``value`` (an array; for 'landscape' a serialized LossLandscape) as
    ``plugin`` stores it; False when it cannot be stored.

    Example:
        >>> from mskernel.train.summary.event_file import Event
        >>> v = Event(wall_time=0.0).summary.value.add()
        >>> fill_value(v, "histogram", "h", np.array([1.0, 2.0, np.nan]))
        True
        >>> (v.histogram.count, v.histogram.nan_count, [b.count for b in v.histogram.buckets])
        (3, 1, [1, 1])
    """
    out.tag = tag
    if plugin == "scalar":
        if value.size == 0:
            logger.error("The size of Summary tensor should greater than 1, but got size = 0")
            return False
        out.scalar_value = value.reshape(-1)[0].item()
        return True
    if plugin == "image":
        return _image(tag, value, out.image)
    if plugin == "landscape":  # a serialized LossLandscape message
        out.loss_landscape.ParseFromString(value)
        return True
    if plugin == "histogram":
        _histogram(value, out.histogram)
    else:
        _tensor(value, out.tensor)
    return True
