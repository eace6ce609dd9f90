"""File and codec helpers of ``mindspore.dataset.vision``: read/write raw bytes, decode a file, encode JPEG/PNG,
image size and channel count (Pillow does the coding).

Example:
    >>> import numpy as np
    >>> img = np.zeros((2, 3, 3), np.uint8)
    >>> get_image_size(img), get_image_num_channels(img), encode_png(img).dtype
    ([2, 3], 3, dtype('uint8'))
"""
from __future__ import annotations

import io
import os
from enum import Enum
from typing import Any, List

import numpy as np

from mskernel.dataset.vision._image import as_array

__all__ = ["ImageReadMode", "read_file", "write_file", "read_image", "encode_jpeg", "encode_png", "write_jpeg",
           "write_png", "get_image_size", "get_image_num_channels"]


class ImageReadMode(Enum):
    """How :func:`read_image` decodes: as stored, as one gray channel, or as three RGB channels.

    Example:
        >>> ImageReadMode.COLOR.value
        2
    """
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


def _check_name(func: str, filename: Any) -> str:
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    return filename


def read_file(filename: str) -> np.ndarray:
    """The bytes of a file as a 1-D uint8 array.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "f"); open(p, "wb").write(b"ab")
        2
        >>> read_file(p)
        array([97, 98], dtype=uint8)
    """
    name = _check_name("read_file", filename)
    if not os.path.isfile(name):
        raise RuntimeError(f"Invalid file path, {name} does not exist.")
    with open(name, "rb") as f:
        return np.frombuffer(f.read(), np.uint8).copy()


def write_file(filename: str, data: Any) -> None:
    """Write a 1-D uint8 array to a file.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "f"); write_file(p, np.array([97], np.uint8)); open(p).read()
        'a'
    """
    name = _check_name("write_file", filename)
    a = np.asarray(data)
    if a.dtype != np.uint8 or a.ndim != 1:
        raise RuntimeError(f"write_file: The type of the elements of data should be UINT8 and the data should be "
                           f"1-D, but got {a.dtype} with shape {a.shape}.")
    with open(name, "wb") as f:
        f.write(a.tobytes())


def read_image(filename: str, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode an image file to an HWC uint8 array (``mode`` chooses the channels).

    Example:
        >>> import tempfile, os
        >>> from PIL import Image
        >>> p = os.path.join(tempfile.mkdtemp(), "a.png"); Image.new("RGB", (3, 2)).save(p)
        >>> read_image(p).shape, read_image(p, ImageReadMode.GRAYSCALE).shape
        ((2, 3, 3), (2, 3, 1))
    """
    from PIL import Image
    data = read_file(filename)
    with Image.open(io.BytesIO(data.tobytes())) as im:
        if mode == ImageReadMode.GRAYSCALE:  # libpng's fixed-point luma (weights 0.299, 0.587 in 1/32768ths)
            rgb = np.asarray(im.convert("RGB"), np.int64)
            a = ((rgb @ np.array([9797, 19234, 3737])) >> 15).astype(np.uint8) if im.mode != "L" else np.asarray(im)
        else:
            a = np.asarray(im.convert("RGB") if mode == ImageReadMode.COLOR else im)
    return a[..., None] if a.ndim == 2 else a


def _to_pil(func: str, image: Any) -> Any:
    from PIL import Image
    a, _ = as_array(image)
    if hasattr(a, "asnumpy"):
        a = a.asnumpy()
    if a.dtype != np.uint8:
        raise RuntimeError(f"{func}: The type of the image data should be UINT8, but got {a.dtype}.")
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[..., 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] != 3):
        raise RuntimeError(f"{func}: The image has invalid dimensions or channels, got shape {a.shape}.")
    return Image.fromarray(np.ascontiguousarray(a))


def encode_jpeg(image: Any, quality: int = 75) -> np.ndarray:
    """JPEG bytes of an HWC (or HW) uint8 image as a 1-D uint8 array.

    Example:
        >>> encode_jpeg(np.zeros((8, 8, 3), np.uint8))[:2].tolist()
        [255, 216]
    """
    if not 1 <= quality <= 100:
        raise ValueError(f"Invalid quality {quality}, should be in range of [1, 100].")
    buf = io.BytesIO()
    _to_pil("encode_jpeg", image).save(buf, "JPEG", quality=quality)
    return np.frombuffer(buf.getvalue(), np.uint8).copy()


def encode_png(image: Any, compression_level: int = 6) -> np.ndarray:
    """PNG bytes of an HWC (or HW) uint8 image as a 1-D uint8 array.

    Example:
        >>> encode_png(np.zeros((2, 2), np.uint8))[1:4].tobytes()
        b'PNG'
    """
    if not 0 <= compression_level <= 9:
        raise ValueError(f"Invalid compression_level {compression_level}, should be in range of [0, 9].")
    buf = io.BytesIO()
    _to_pil("encode_png", image).save(buf, "PNG", compress_level=compression_level)
    return np.frombuffer(buf.getvalue(), np.uint8).copy()


def write_jpeg(filename: str, image: Any, quality: int = 75) -> None:
    """Encode as JPEG and write to ``filename``.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "a.jpg"); write_jpeg(p, np.zeros((4, 4, 3), np.uint8))
        >>> read_image(p).shape
        (4, 4, 3)
    """
    write_file(_check_name("write_jpeg", filename), encode_jpeg(image, quality))


def write_png(filename: str, image: Any, compression_level: int = 6) -> None:
    """Encode as PNG and write to ``filename``.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "a.png"); write_png(p, np.zeros((4, 4, 3), np.uint8))
        >>> read_image(p).shape
        (4, 4, 3)
    """
    write_file(_check_name("write_png", filename), encode_png(image, compression_level))


def get_image_size(image: Any) -> List[int]:
    """[height, width] of an HWC/HW array or a PIL image.

    Example:
        >>> get_image_size(np.zeros((4, 5, 3)))
        [4, 5]
    """
    a, _ = as_array(image)
    if a.ndim < 2:
        raise RuntimeError(f"GetImageSize: the image should be at least 2-D, but got {a.ndim}-D.")
    return [int(a.shape[0]), int(a.shape[1])]


def get_image_num_channels(image: Any) -> int:
    """The number of channels of an HWC/HW array or a PIL image.

    Example:
        >>> get_image_num_channels(np.zeros((4, 5)))
        1
    """
    a, _ = as_array(image)
    if a.ndim < 2:
        raise RuntimeError(f"GetImageNumChannels: the image should be at least 2-D, but got {a.ndim}-D.")
    return 1 if a.ndim == 2 else int(a.shape[2])
