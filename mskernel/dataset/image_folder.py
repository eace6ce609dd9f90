"""``ImageFolderDataset``: one class per sub-directory of ``dataset_dir``, and ``decode_image``.

Classes are the sub-directories in sorted order (an empty one still takes an index, as in MindSpore) unless
``class_indexing`` names them; files are read in sorted order within a class. The ``image`` column holds a
file's raw bytes (uint8, 1-D) until ``decode=True`` or ``vision.Decode()`` makes it an RGB HWC uint8 array
(decoded by Pillow, which matplotlib already brings); ``label`` is Int32.

Example:
    >>> import os, tempfile, numpy as np
    >>> from PIL import Image
    >>> root = tempfile.mkdtemp()
    >>> for cls in ("cat", "dog"):
    ...     os.makedirs(os.path.join(root, cls))
    ...     Image.fromarray(np.zeros((2, 3, 3), np.uint8)).save(os.path.join(root, cls, "a.png"))
    >>> d = ImageFolderDataset(root, shuffle=False, decode=True)
    >>> [(r[0].shape, int(r[1])) for r in d.create_tuple_iterator(output_numpy=True)], d.get_class_indexing()
    ([((2, 3, 3), 0), ((2, 3, 3), 1)], {'cat': 0, 'dog': 1})
"""
from __future__ import annotations

import io
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence

import numpy as np

from mskernel.dataset.engine import Dataset, Row
from mskernel.dataset.sources import _check_dir, _check_sampler, _order

__all__ = ["ImageFolderDataset", "decode_image"]


def decode_image(data: Any) -> np.ndarray:
    """Encoded image bytes (PNG, JPEG, BMP, ...) as an RGB HWC uint8 array.

    Example:
        >>> from PIL import Image
        >>> buf = io.BytesIO(); Image.fromarray(np.full((1, 2, 3), 7, np.uint8)).save(buf, "PNG")
        >>> decode_image(np.frombuffer(buf.getvalue(), np.uint8)).tolist()
        [[[7, 7, 7], [7, 7, 7]]]
    """
    from PIL import Image, UnidentifiedImageError
    raw = bytes(np.asarray(data, np.uint8).reshape(-1))
    try:
        with Image.open(io.BytesIO(raw)) as img:
            return np.asarray(img.convert("RGB"))
    except (UnidentifiedImageError, OSError) as e:
        raise RuntimeError(f"Invalid image: decode failed, the image is broken ({e}).") from None


class ImageFolderDataset(Dataset):
    """Images in ``dataset_dir/<class>/<file>`` with their class index: columns ``image`` and ``label``.

    Example:
        >>> ImageFolderDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, extensions: Optional[Sequence[str]] = None,
                 class_indexing: Optional[Dict[str, int]] = None, decode: bool = False,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None,
                 decrypt: Any = None) -> None:
        _check_dir(dataset_dir)
        super().__init__(["image", "label"])
        classes = sorted(e.name for e in os.scandir(dataset_dir) if e.is_dir())
        if class_indexing is None:
            self._indexing = {c: i for i, c in enumerate(classes)}
        else:
            unknown = sorted(set(class_indexing) - set(classes))
            if unknown:
                raise ValueError(f"ImageFolderDataset: class_indexing names {unknown}, which are not folders of "
                                 f"{dataset_dir}.")
            self._indexing = dict(class_indexing)
        exts = None if extensions is None else {e.lower() for e in extensions}
        self._files: List[tuple] = []
        for cls in sorted(self._indexing, key=lambda c: classes.index(c)):
            folder = os.path.join(dataset_dir, cls)
            for name in sorted(os.listdir(folder)):
                path = os.path.join(folder, name)
                if os.path.isfile(path) and (exts is None or os.path.splitext(name)[1].lower() in exts):
                    self._files.append((path, self._indexing[cls]))
        self._shuffle = True if shuffle is None else bool(shuffle)
        self._num_samples, self._decode, self._shard = num_samples, decode, (num_shards, shard_id)
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._sampler = sampler

    def get_class_indexing(self) -> Dict[str, int]:
        """The class name → label map.

        Example:
            >>> import tempfile; ImageFolderDataset(tempfile.mkdtemp()).get_class_indexing()
            {}
        """
        return dict(self._indexing)

    def _rows(self) -> Iterator[Row]:
        idx = _order(len(self._files), self._shuffle, self._num_samples, self._sampler, [f[1] for f in self._files])
        shards, sid = self._shard
        if shards:
            idx = idx[sid::shards]
        for i in idx:
            path, label = self._files[i]
            data = np.fromfile(path, np.uint8)
            yield (decode_image(data) if self._decode else data), np.int32(label)
