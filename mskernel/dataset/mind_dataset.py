"""``MindDataset``: rows of MindRecord files (written by MindSpore's or mskernel's ``FileWriter``).

Columns are the schema's fields in sorted order (or ``columns_list``), as MindSpore gives them: scalars as 0-d
arrays of the schema's type (``string`` as a ``<U`` array, which iterators hand out as numpy even without
``output_numpy``), ``bytes`` as a 1-element ``S`` array, arrays in the schema's shape. Without shuffling, rows
come shard by shard in row order; ``num_shards``/``shard_id`` take every ``num_shards``-th row from
``shard_id`` (padded by wrapping round, as MindSpore's distributed sampler does); ``num_samples`` keeps the
first rows. A shuffle (the default, any ``Shuffle`` mode) is a global permutation seeded by
``dataset.config.set_seed``; its order differs from MindSpore's.

Example:
    >>> import os, tempfile
    >>> from mskernel.mindrecord import FileWriter
    >>> path = os.path.join(tempfile.mkdtemp(), "words.mindrecord")
    >>> w = FileWriter(path); w.add_schema({"word": {"type": "string"}, "n": {"type": "int32"}})
    >>> w.write_raw_data([{"word": "a", "n": 1}, {"word": "bb", "n": 2}]); w.commit()
    >>> d = MindDataset(path, columns_list=["word"], shuffle=False)
    >>> [str(r[0]) for r in d.create_tuple_iterator()], d.get_col_names()
    (['a', 'bb'], ['word'])
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Iterator, List, Optional

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.engine import Dataset, Row
from mskernel.mindrecord.reader import MindRecordFiles

__all__ = ["MindDataset", "Shuffle"]


class Shuffle(str, Enum):
    """MindSpore's shuffle modes (``dataset.Shuffle``); every mode shuffles globally here.

    Example:
        >>> Shuffle.GLOBAL.value
        'global'
    """

    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "file"
    INFILE = "infile"


class MindDataset(Dataset):
    """``MindDataset(dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
    shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None)``.

    Example:
        >>> MindDataset("/no/such.mindrecord")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such.mindrecord does not exist or permission denied!
    """

    def __init__(self, dataset_files: Any, columns_list: Optional[List[str]] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, sampler: Any = None, padded_sample: Any = None,
                 num_padded: Optional[int] = None, num_samples: Optional[int] = None, cache: Any = None) -> None:
        if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like 'Shuffle.ADAPTIVE' or "
                            "'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or 'Shuffle.FILES' or 'Shuffle.INFILE'.")
        if num_samples and shuffle in (Shuffle.FILES, Shuffle.INFILE):
            raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot be specified at the same "
                             "time.")
        self._files = MindRecordFiles(dataset_files)
        self._columns_list = list(columns_list) if columns_list else None
        super().__init__(self._columns_list or self._files.columns)
        self._shuffle = shuffle is not False
        self._num_samples = num_samples or None
        self._shard = (num_shards, shard_id)

    def _order(self) -> np.ndarray:
        n = len(self._files)
        order = config.rng().permutation(n) if self._shuffle else np.arange(n)
        shards, sid = self._shard
        if shards:
            per = -(-n // shards)
            order = order[[(sid + k * shards) % n for k in range(per)]] if n else order
        return order[:self._num_samples] if self._num_samples else order

    def get_dataset_size(self) -> int:
        return len(self._order())

    def _rows(self) -> Iterator[Row]:
        missing = [c for c in self._columns if c not in self._files.schema]
        if missing:
            raise RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "
                               f"Invalid data, column name: {missing[0]} does not exist in schema of MindRecord "
                               f"files: {sorted(self._files.schema)}.")
        yield from self._files.rows(self._columns, self._order())
