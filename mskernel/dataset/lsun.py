"""``LSUNDataset``: LSUN scene images unpacked into folders (``<class>_train``, ``<class>_val``, ``test``), a
row per image: ``image`` (raw bytes, or decoded RGB with ``decode=True``) and ``label`` (uint32: the folder's
place among the folders read, in sorted order, so with ``usage='all'`` a class's train and val folders have
different labels, as in MindSpore). Files are read in sorted name order.

Example:
    >>> import tempfile
    >>> LSUNDataset(tempfile.mkdtemp(), classes=["attic"])
    Traceback (most recent call last):
    ...
    ValueError: Input classes is not within the valid set of ['bedroom', 'bridge', 'church_outdoor', \
'classroom', 'conference_room', 'dining_room', 'kitchen', 'living_room', 'restaurant', 'tower'].
"""
from __future__ import annotations

import os
from typing import Any, List, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, image_column, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["LSUNDataset"]

_CATEGORIES = ["bedroom", "bridge", "church_outdoor", "classroom", "conference_room", "dining_room", "kitchen",
               "living_room", "restaurant", "tower"]
_IMAGE_EXTS = (".jpg", ".jpeg", ".png", ".bmp")


class LSUNDataset(CorpusDataset):
    """LSUN images of ``usage`` (train, valid, test or all: train and val) for ``classes`` (default: every
    category with a folder) under ``dataset_dir``.

    Example:
        >>> import tempfile
        >>> LSUNDataset(tempfile.mkdtemp(), usage="val")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'valid', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, classes: Optional[List[str]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: bool = False, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])
        if classes is not None and not isinstance(classes, list):
            raise TypeError(f"Argument classes with value {classes} is not of type [<class 'list'>], "
                            f"but got {type(classes)}.")
        for name in classes or []:
            if name not in _CATEGORIES:
                raise ValueError(f"Input classes is not within the valid set of {_CATEGORIES}.")
        self._decode = bool(decode)
        if usage == "test":
            folders = ["test"]
        else:
            parts = {"train": ["train"], "valid": ["val"], "all": ["train", "val"]}[usage]
            folders = sorted(f"{c}_{p}" for c in sorted(set(classes or _CATEGORIES)) for p in parts)
        items, labels = [], []
        label = 0
        for folder in folders:
            path = os.path.join(dataset_dir, folder)
            if not os.path.isdir(path):
                continue
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(_IMAGE_EXTS))
            items += [(os.path.join(path, n), label) for n in names]
            labels += [label] * len(names)
            label += 1
        if not items:
            raise pipeline_error("Invalid data, LSUNDataset API can't read the data file (interface mismatch or no "
                                 f"data found). Check lsun file path: {dataset_dir}")
        super().__init__(["image", "label"], items, num_samples, shuffle, sampler, num_shards, shard_id,
                         labels=labels)

    def _row(self, item: Any) -> Row:
        return image_column(item[0], self._decode), np.uint32(item[1])
