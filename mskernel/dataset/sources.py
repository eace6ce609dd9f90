"""Dataset sources: ``NumpySlicesDataset``, ``GeneratorDataset``, ``MnistDataset``, ``Cifar10Dataset``.

Random-access sources shuffle by default (``shuffle=None``), as MindSpore's do; the order comes from
``dataset.config.set_seed``. MNIST and CIFAR-10 are read from the standard files in a local directory;
nothing is downloaded.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> d = ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(3)), ["x"])
    >>> [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)]
    [[0], [1], [2]]
"""
from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.dataset.engine import Dataset, Row, to_column
from mskernel.dataset.ops import user_error

__all__ = ["NumpySlicesDataset", "GeneratorDataset", "MnistDataset", "Cifar10Dataset"]


def _order(n: int, shuffle: bool, num_samples: Optional[int], sampler: Any = None,
           labels: Optional[Any] = None) -> np.ndarray:
    from mskernel.dataset.samplers import sample_indices
    return sample_indices(sampler, n, shuffle, num_samples, labels)


def _check_sampler(sampler: Any, shuffle: Optional[bool], num_shards: Optional[int], num_samples: Optional[int] = None,
                   shard_id: Optional[int] = None) -> None:
    """MindSpore's refusal of a sampler given with ``shuffle``, ``num_samples`` or sharding."""
    if sampler is None or (shuffle is None and num_shards is None and shard_id is None and num_samples is None):
        return
    raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: {num_samples}, num_shards: "
                     f"{num_shards}, shard_id: {shard_id}, shuffle: {shuffle}.")


def _convert_row(row: Any, columns: List[str]) -> Row:
    """A source's row as MindSpore's GeneratorDataset converts it: a single value (number, string, bytes, array,
    Tensor, dict) is one column, a tuple or list one column per item; each item through ``to_column``. A wrong
    item or count raises MindSpore's RuntimeError for a user function."""
    try:
        if isinstance(row, (int, float, str, bytes, np.ndarray, Tensor, np.number, np.bool_, dict)):
            values: Row = (to_column(row),)
        else:
            values = tuple(to_column(x, i) for i, x in enumerate(row, 1))
    except (TypeError, ValueError) as e:
        raise user_error(e) from e
    if len(values) != len(columns):
        raise RuntimeError(f"Exception thrown from user defined Python function in dataset. Invalid Python function, "
                           f"the 'source' of 'GeneratorDataset' should return same number of NumPy arrays as "
                           f"specified in column_names, the size of column_names is:{len(columns)} and number of "
                           f"returned NumPy array is:{len(values)}")
    return values


class NumpySlicesDataset(Dataset):
    """Rows sliced from the data along its first axis: a dict (columns by key), a tuple (one column per item) or
    anything else (one column, ``column_0``). As in MindSpore, a list is sliced element by element and each element
    converted on its own (so a ragged list gives rows of different lengths, ``[1, "a"]`` an int64 row and a string
    row, a list of dicts dict rows); a numpy array keeps its dtype.

    Example:
        >>> import numpy as np
        >>> d = NumpySlicesDataset({"a": np.arange(4), "b": np.ones((4, 2))}, shuffle=False)
        >>> d.get_col_names(), d.get_dataset_size(), d.output_shapes()
        (['a', 'b'], 4, [[], [2]])
        >>> ragged = NumpySlicesDataset([[1, 2], [3]], shuffle=False)
        >>> [r[0].tolist() for r in ragged.create_tuple_iterator(output_numpy=True)]
        [[1, 2], [3]]
    """

    def __init__(self, data: Any, column_names: Any = None, num_samples: Optional[int] = None,
                 num_parallel_workers: int = 1, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None) -> None:
        def column(v: Any) -> Any:
            return v if isinstance(v, np.ndarray) else list(v)
        if isinstance(data, dict):
            names, cols = list(data), [column(v) for v in data.values()]
        elif isinstance(data, tuple):
            cols = [column(v) for v in data]
            names = [f"column_{i}" for i in range(len(cols))]
        else:
            cols = [column(data)]
            names = ["column_0"]
        if column_names is not None:
            given = [column_names] if isinstance(column_names, str) else list(column_names)
            if len(given) != len(cols):
                raise ValueError(f"The number of column_names {len(given)} does not match the number of columns "
                                 f"{len(cols)} in the data.")
            names = given
        lengths = [len(c) for c in cols]
        if lengths[1:] != lengths[:-1]:
            raise ValueError("Data length in each column is not equal.")
        super().__init__(names)
        self._cols = cols
        self._shuffle = True if shuffle is None else bool(shuffle)
        self._num_samples = num_samples
        self._shard = (num_shards, shard_id)
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._sampler = sampler

    def _rows(self) -> Iterator[Row]:
        n = len(self._cols[0]) if self._cols else 0
        idx = _order(n, self._shuffle, self._num_samples, self._sampler)
        shards, sid = self._shard
        if shards:
            idx = idx[sid::shards]
        for i in idx:
            yield _convert_row(tuple(c[i] for c in self._cols), self._columns)


class GeneratorDataset(Dataset):
    """Rows from Python: a generator function (called each epoch), a random-access source (``__getitem__`` and
    ``__len__``) or an iterable. A row is a tuple or list with one value per column, or a single value; values are
    converted as MindSpore converts them (``to_column``: strings and bytes become numpy string arrays, Python
    numbers int64/float64/bool arrays, a dict stays a dict — a "Python object" column whose values the iterators
    convert —, a ragged list is an error).

    Example:
        >>> class Source:
        ...     def __getitem__(self, i): return (np.array(i * 2),)
        ...     def __len__(self): return 3
        >>> d = GeneratorDataset(Source(), column_names=["v"], shuffle=False)
        >>> [r[0].item() for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()
        ([0, 2, 4], 3)
    """

    def __init__(self, source: Any, column_names: Any = None, column_types: Any = None, schema: Any = None,
                 num_samples: Optional[int] = None, num_parallel_workers: int = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 python_multiprocessing: bool = True, max_rowsize: Any = None) -> None:
        if column_names is None:
            raise ValueError("GeneratorDataset: 'column_names' is required (or a schema).")
        names = [column_names] if isinstance(column_names, str) else list(column_names)
        super().__init__(names)
        self._source = source
        self._random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        self._shuffle = self._random_access and (True if shuffle is None else bool(shuffle))
        self._num_samples = num_samples
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._sampler = sampler

    def _rows(self) -> Iterator[Row]:
        if self._random_access:
            idx = _order(len(self._source), self._shuffle, self._num_samples, self._sampler)
            for i in idx:
                yield _convert_row(self._source[int(i)], self._columns)
            return
        src = self._source() if callable(self._source) and not hasattr(self._source, "__iter__") else self._source
        count = 0
        for row in src:
            if self._num_samples and count >= self._num_samples:
                break
            count += 1
            yield _convert_row(row, self._columns)


def _read_idx(path: str) -> np.ndarray:
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"\x00\x00":
        raise RuntimeError(f"Invalid MNIST file: {path} does not start with an idx header.")
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    dtype = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}[data[2]]
    return np.frombuffer(data, dtype, offset=4 + 4 * ndim).reshape(dims)


class _FileDataset(Dataset):
    def __init__(self, names: List[str], images: np.ndarray, labels: np.ndarray, num_samples: Optional[int],
                 shuffle: Optional[bool], num_shards: Optional[int], shard_id: Optional[int],
                 sampler: Any = None) -> None:
        super().__init__(names)
        self._images, self._labels = images, labels
        self._shuffle = True if shuffle is None else bool(shuffle)
        self._num_samples, self._shard = num_samples, (num_shards, shard_id)
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._sampler = sampler
        self._given_shuffle = shuffle
        self.source_args: dict = {}  # what serialize records: dataset_dir, usage (set by the subclasses)

    def _label_rows(self, i: int) -> Row:
        return (np.uint32(self._labels[i]),)

    def _rows(self) -> Iterator[Row]:
        first = self._labels[:, 0] if np.ndim(self._labels) == 2 else self._labels
        idx = _order(len(self._labels), self._shuffle, self._num_samples, self._sampler, first)
        shards, sid = self._shard
        if shards:
            idx = idx[sid::shards]
        for i in idx:
            yield (self._images[i],) + self._label_rows(int(i))


def _check_dir(path: str) -> None:
    """MindSpore's error, word for word, for a dataset folder that cannot be read (nothing is ever downloaded)."""
    if not os.path.isdir(path):
        raise ValueError(f"The folder {path} does not exist or is not a directory or permission denied!")


class MnistDataset(_FileDataset):
    """MNIST from ``dataset_dir`` (``train-images-idx3-ubyte`` ... ``t10k-labels-idx1-ubyte``): columns
    ``image`` (28, 28, 1) uint8 and ``label`` uint32.

    Example:
        >>> MnistDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = usage or "all"
        parts = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}.get(usage)  # sorted file names
        if parts is None:
            raise ValueError("Input usage is not within the valid set of ['train', 'test', 'all'].")
        imgs, labs = [], []
        for p in parts:
            imgs.append(_read_idx(os.path.join(dataset_dir, f"{p}-images-idx3-ubyte"))[..., None])
            labs.append(_read_idx(os.path.join(dataset_dir, f"{p}-labels-idx1-ubyte")))
        super().__init__(["image", "label"], np.concatenate(imgs), np.concatenate(labs), num_samples, shuffle,
                         num_shards, shard_id, sampler)
        self.source_args = {"dataset_dir": dataset_dir, "usage": usage, "workers": num_parallel_workers}


class Cifar10Dataset(_FileDataset):
    """CIFAR-10 from ``dataset_dir`` (the binary version: ``data_batch_1.bin`` ... ``test_batch.bin``): columns
    ``image`` (32, 32, 3) uint8 and ``label`` uint32.

    Example:
        >>> Cifar10Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = usage or "all"
        files = {"train": [f"data_batch_{i}.bin" for i in range(1, 6)], "test": ["test_batch.bin"]}
        names = files.get(usage) if usage != "all" else files["train"] + files["test"]
        if names is None:
            raise ValueError("Input usage is not within the valid set of ['train', 'test', 'all'].")
        recs = [np.fromfile(os.path.join(dataset_dir, n), np.uint8).reshape(-1, 3073)
                for n in names if os.path.exists(os.path.join(dataset_dir, n))]
        if not recs:
            raise RuntimeError(f"Cifar10Dataset: no CIFAR-10 binary files ({names[0]} ...) in {dataset_dir}.")
        data = np.concatenate(recs)
        images = data[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        super().__init__(["image", "label"], np.ascontiguousarray(images), data[:, 0], num_samples, shuffle,
                         num_shards, shard_id, sampler)
        self.source_args = {"dataset_dir": dataset_dir, "usage": usage, "workers": num_parallel_workers}


