"""``SBDataset``: the Semantic Boundaries Dataset (``benchmark_RELEASE/dataset``): images ``img/<id>.jpg`` and
their class-level ground truth ``cls/<id>.mat`` (MATLAB struct ``GTcls``), listed by ``train.txt``,
``val.txt`` or ``train_noval.txt`` (``usage='all'``: train then val).

Example:
    >>> import tempfile
    >>> SBDataset(tempfile.mkdtemp(), usage="test")
    Traceback (most recent call last):
    ...
    ValueError: Input usage is not within the valid set of ['train', 'val', 'train_noval', 'all'].
"""
from __future__ import annotations

import os
from typing import Any, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage
from mskernel.dataset.engine import Row
from mskernel.dataset.image_folder import decode_image
from mskernel.dataset.sources import _check_dir

__all__ = ["SBDataset"]

_CLASSES = 20


class SBDataset(CorpusDataset):
    """SBD rows ``image`` (raw bytes, or RGB HWC uint8 with ``decode=True``) and ``task``: for
    ``task='Boundaries'`` (default) the 20 class boundary maps stacked (20, H, W); for ``'Segmentation'`` the
    (H, W) class map.

    Example:
        >>> import tempfile
        >>> SBDataset(tempfile.mkdtemp(), task="Edges")
        Traceback (most recent call last):
        ...
        ValueError: Input task is not within the valid set of ['Boundaries', 'Segmentation'].
    """

    def __init__(self, dataset_dir: str, task: str = "Boundaries", usage: str = "all",
                 num_samples: Optional[int] = None, num_parallel_workers: int = 1, shuffle: Optional[bool] = None,
                 decode: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "val", "train_noval", "all"])
        if not isinstance(task, str):
            raise TypeError(f"Argument task with value {task} is not of type [<class 'str'>], but got {type(task)}.")
        if task not in ("Boundaries", "Segmentation"):
            raise ValueError("Input task is not within the valid set of ['Boundaries', 'Segmentation'].")
        if decode is not None and not isinstance(decode, bool):
            raise TypeError(f"Argument decode with value {decode} is not of type [<class 'bool'>], "
                            f"but got {type(decode)}.")
        ids = []
        for part in (["train", "val"] if usage == "all" else [usage]):
            listing = os.path.join(dataset_dir, part + ".txt")
            if not os.path.exists(listing):
                raise FileNotFoundError(f"SBDataset: {listing} not found")
            with open(listing, encoding="utf-8") as f:
                ids += [ln.strip() for ln in f]
        self._task, self._decode = task, bool(decode)
        items = [(os.path.join(dataset_dir, "img", i + ".jpg"), os.path.join(dataset_dir, "cls", i + ".mat"))
                 for i in ids]
        super().__init__(["image", "task"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        from scipy.io import loadmat

        data = np.fromfile(item[0], np.uint8)
        image = decode_image(data) if self._decode else data
        truth = loadmat(item[1])["GTcls"][0][self._task][0]
        if self._task == "Segmentation":
            return image, np.asarray(truth)
        return image, np.stack([np.asarray(truth[i][0].toarray()) for i in range(_CLASSES)])
