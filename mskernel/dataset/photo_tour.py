"""``PhotoTourDataset``: the 64 x 64 grey patches of the Photo Tourism reconstructions (Winder and Brown), cut
from the 1024 x 1024 bitmaps ``patches%04d.bmp`` (16 x 16 patches each, left to right, top to bottom).

``usage='train'`` (default) gives a row ``image`` (64, 64, 1) uint8 per line of ``info.txt``; ``'test'`` a
row per line of ``m50_100000_100000_0.txt`` (patch 1, its 3-D point, -, patch 2, its 3-D point, -, -):
``image1``, ``image2`` and ``matches`` (uint32, 1 when both patches show the same 3-D point).

Example:
    >>> import tempfile
    >>> PhotoTourDataset(tempfile.mkdtemp(), "paris")
    Traceback (most recent call last):
    ...
    ValueError: Input name is not within the valid set of ['notredame', 'yosemite', 'liberty', \
'notredame_harris', 'yosemite_harris', 'liberty_harris'].
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["PhotoTourDataset"]

_NAMES = ["notredame", "yosemite", "liberty", "notredame_harris", "yosemite_harris", "liberty_harris"]
_SIDE, _PER_ROW = 64, 16
_PER_FILE = _PER_ROW * _PER_ROW


class PhotoTourDataset(CorpusDataset):
    """PhotoTour patches of the reconstruction ``name`` under ``dataset_dir/name``.

    Example:
        >>> import tempfile
        >>> PhotoTourDataset(tempfile.mkdtemp(), "liberty", usage="val")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test'].
    """

    def __init__(self, dataset_dir: str, name: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        if not isinstance(name, str):
            raise TypeError(f"Argument name with value {name} is not of type [<class 'str'>], but got {type(name)}.")
        if name not in _NAMES:
            raise ValueError(f"Input name is not within the valid set of {_NAMES}.")
        usage = check_usage(usage, ["train", "test"], default="train")
        self._folder = os.path.join(dataset_dir, name)
        if not os.path.isdir(self._folder):
            raise pipeline_error(f"{os.path.abspath(self._folder)} does not exist.")
        self._bitmaps: Dict[int, np.ndarray] = {}
        if usage == "train":
            with open(os.path.join(self._folder, "info.txt"), encoding="utf-8") as f:
                items: list = [(i,) for i, ln in enumerate(ln for ln in f if ln.strip())]
            names = ["image"]
        else:
            with open(os.path.join(self._folder, "m50_100000_100000_0.txt"), encoding="utf-8") as f:
                items = [(int(v[0]), int(v[3]), int(v[1] == v[4])) for v in (ln.split() for ln in f) if len(v) >= 5]
            names = ["image1", "image2", "matches"]
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _patch(self, index: int) -> np.ndarray:
        from PIL import Image

        page = index // _PER_FILE
        if page not in self._bitmaps:
            with Image.open(os.path.join(self._folder, f"patches{page:04d}.bmp")) as im:
                self._bitmaps[page] = np.asarray(im.convert("L"))
        r, c = divmod(index % _PER_FILE, _PER_ROW)
        return self._bitmaps[page][r * _SIDE:(r + 1) * _SIDE, c * _SIDE:(c + 1) * _SIDE, None].copy()

    def _row(self, item: Any) -> Row:
        if len(item) == 1:
            return (self._patch(item[0]),)
        return self._patch(item[0]), self._patch(item[1]), np.uint32(item[2])
