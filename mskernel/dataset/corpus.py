"""The base of the readers of public corpora: a list of items (files, records) read one row at a time.

A reader finds its items when it is built (so a missing file fails there, as MindSpore's checks do) and reads
an item's row only when the pipeline asks for it. The order of the rows is the items' order, changed by
``shuffle``/``sampler`` and cut by ``num_samples`` and ``num_shards``/``shard_id`` as in the other
random-access sources (:class:`~mskernel.dataset.ImageFolderDataset`).

Example:
    >>> import numpy as np
    >>> class Squares(CorpusDataset):
    ...     def _row(self, item):
    ...         return (np.array(item * item, np.int32),)
    >>> d = Squares(["sq"], [1, 2, 3], shuffle=False)
    >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
    [1, 4, 9]
"""
from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional, Sequence

import numpy as np

from mskernel.dataset.engine import Dataset, Row
from mskernel.dataset.image_folder import decode_image
from mskernel.dataset.sources import _check_sampler, _order

__all__ = ["CorpusDataset", "check_usage", "check_file", "image_column", "pipeline_error"]


def check_usage(usage: Optional[str], valid: Sequence[str], default: str = "all") -> str:
    """``usage`` (``None`` means ``default``) checked against the reader's valid set, with MindSpore's text.

    Example:
        >>> check_usage("dev", ["train", "test", "all"])
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'all'].
    """
    usage = default if usage is None else usage
    if not isinstance(usage, str):
        raise TypeError(f"Argument usage with value {usage} is not of type [<class 'str'>], but got {type(usage)}.")
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


def check_file(path: str) -> None:
    """MindSpore's error for a file argument that cannot be read.

    Example:
        >>> check_file("/no/such/file.json")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such/file.json does not exist or permission denied!
    """
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise ValueError(f"The file {os.path.realpath(path)} does not exist or permission denied!")


def pipeline_error(message: str) -> RuntimeError:
    """The error a reader raises while the pipeline runs, worded as MindSpore's data engine words it.

    Example:
        >>> str(pipeline_error("Invalid file, x.")).splitlines()[0]
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "
    """
    return RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. \n\n"
                        "------------------------------------------------------------------\n"
                        "- Dataset Pipeline Error Message: \n"
                        "------------------------------------------------------------------\n"
                        f"[ERROR] {message}")


def image_column(path: str, decode: bool) -> np.ndarray:
    """An image file as a reader hands it out: its raw bytes (uint8, 1-D), or decoded to RGB HWC uint8.

    Example:
        >>> import tempfile
        >>> from PIL import Image
        >>> p = os.path.join(tempfile.mkdtemp(), "a.png"); Image.new("L", (3, 2), 9).save(p)
        >>> image_column(p, True).shape, image_column(p, False)[:4].tolist()
        ((2, 3, 3), [137, 80, 78, 71])
    """
    data = np.fromfile(path, np.uint8)
    return decode_image(data) if decode else data


class CorpusDataset(Dataset):
    """A random-access reader: ``items`` in their natural order, ``_row(item)`` reading one row.

    Example:
        >>> class Ids(CorpusDataset):
        ...     def _row(self, item):
        ...         return (np.array(item),)
        >>> Ids(["id"], ["a", "b", "c", "d"], shuffle=False, num_shards=2, shard_id=1).get_dataset_size()
        2
    """

    def __init__(self, names: List[str], items: Sequence[Any], num_samples: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, labels: Optional[Sequence[Any]] = None) -> None:
        super().__init__(list(names))
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._items = list(items)
        self._labels = labels
        self._shuffle = True if shuffle is None else bool(shuffle)
        self._num_samples, self._sampler, self._shard = num_samples, sampler, (num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        raise NotImplementedError

    def _rows(self) -> Iterator[Row]:
        idx = _order(len(self._items), self._shuffle, self._num_samples, self._sampler, self._labels)
        shards, sid = self._shard
        if shards:  # every shard gets ceil(n / num_shards) rows, wrapping round (MindSpore's DistributedSampler)
            per = -(-len(idx) // shards)
            idx = idx[(np.arange(per) * shards + sid) % len(idx)] if len(idx) else idx
        for i in idx:
            yield self._row(self._items[int(i)])
