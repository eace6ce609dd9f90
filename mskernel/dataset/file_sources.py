"""More sources read from local files in their standard formats (nothing is downloaded): the MNIST family
(``FashionMnistDataset``, ``KMnistDataset``, ``EMnistDataset``, ``QMnistDataset``), ``Cifar100Dataset``, and the
text sources ``TextFileDataset`` and ``CSVDataset``.

Example:
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "a.txt"); _ = open(p, "w").write("hello\\nworld\\n")
    >>> [str(r[0]) for r in TextFileDataset(p, shuffle=False).create_tuple_iterator(output_numpy=True)]
    ['hello', 'world']
"""
from __future__ import annotations

import csv
import glob
import os
from typing import Any, Iterator, List, Optional, Sequence, Union

import numpy as np

from mskernel.dataset.engine import Dataset, Row
from mskernel.dataset.sources import _check_dir, _FileDataset, _order, _read_idx

__all__ = ["FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset", "Cifar100Dataset",
           "TextFileDataset", "CSVDataset"]


def _usage(usage: Optional[str], valid: Sequence[str]) -> str:
    usage = usage or "all"
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


def _idx_pair(dataset_dir: str, prefixes: Sequence[str], image_suffix: str, label_suffix: str):
    imgs, labs = [], []
    for p in prefixes:
        image_file = os.path.join(dataset_dir, p + image_suffix)
        label_file = os.path.join(dataset_dir, p + label_suffix)
        if not os.path.exists(image_file) or not os.path.exists(label_file):
            continue
        imgs.append(_read_idx(image_file)[..., None])
        labs.append(_read_idx(label_file))
    if not imgs:
        raise RuntimeError(f"Invalid file, failed to find the image and label files ({prefixes[0]}{image_suffix}, "
                           f"{prefixes[0]}{label_suffix}) in {dataset_dir}.")
    return np.concatenate(imgs), np.concatenate(labs)


class _MnistLike(_FileDataset):
    """MNIST-format files ``train-images-idx3-ubyte`` ... ``t10k-labels-idx1-ubyte``."""

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = _usage(usage, ["train", "test", "all"])
        parts = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}[usage]  # sorted file names
        images, labels = _idx_pair(dataset_dir, parts, "-images-idx3-ubyte", "-labels-idx1-ubyte")
        super().__init__(["image", "label"], images, labels, num_samples, shuffle, num_shards, shard_id, sampler)
        self.source_args = {"dataset_dir": dataset_dir, "usage": usage, "workers": num_parallel_workers}


class FashionMnistDataset(_MnistLike):
    """Fashion-MNIST from ``dataset_dir`` (MNIST's file names and format): ``image`` (28, 28, 1) uint8 and
    ``label`` uint32.

    Example:
        >>> FashionMnistDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """


class KMnistDataset(_MnistLike):
    """KMNIST from ``dataset_dir`` (MNIST's file names and format): ``image`` (28, 28, 1) uint8 and ``label``
    uint32.

    Example:
        >>> KMnistDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """


class EMnistDataset(_FileDataset):
    """EMNIST split ``name`` (byclass, bymerge, balanced, letters, digits, mnist) from ``dataset_dir``
    (``emnist-<name>-train-images-idx3-ubyte`` ...): ``image`` (28, 28, 1) uint8 and ``label`` uint32.

    Example:
        >>> EMnistDataset("/no/such/dir", "mnist")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")

    def __init__(self, dataset_dir: str, name: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        if name not in self.NAMES:
            raise ValueError(f"Input name is not within the valid set of {list(self.NAMES)}.")
        usage = _usage(usage, ["train", "test", "all"])
        parts = {"train": ["train"], "test": ["test"], "all": ["test", "train"]}[usage]  # sorted file names
        images, labels = _idx_pair(dataset_dir, [f"emnist-{name}-{p}" for p in parts], "-images-idx3-ubyte",
                                   "-labels-idx1-ubyte")
        super().__init__(["image", "label"], images, labels, num_samples, shuffle, num_shards, shard_id, sampler)


class QMnistDataset(_FileDataset):
    """QMNIST from ``dataset_dir`` (``qmnist-train-images-idx3-ubyte``, ``qmnist-train-labels-idx2-int``, ...;
    ``usage='all'`` reads the train, test and ``xnist`` files, in that order, each of which must exist):
    ``image`` (28, 28, 1) uint8 and ``label``: the class as uint32 with ``compat``, else the eight label fields
    as uint32.

    Example:
        >>> QMnistDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, compat: bool = True,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = _usage(usage, ["train", "test", "test10k", "test50k", "nist", "all"])
        prefix = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
                  "test50k": ["qmnist-test"], "nist": ["xnist"], "all": ["qmnist-train", "qmnist-test", "xnist"]}[usage]
        for p in prefix:
            for suffix in ("-images-idx3-ubyte", "-labels-idx2-int"):
                path = os.path.join(dataset_dir, p + suffix)
                if not os.path.isfile(path):
                    raise RuntimeError(f"Invalid file path, Qmnist data file: {path} does not exist or is a "
                                       f"directory.")
        images, labels = _idx_pair(dataset_dir, prefix, "-images-idx3-ubyte", "-labels-idx2-int")
        if usage == "test10k":
            images, labels = images[:10000], labels[:10000]
        elif usage == "test50k":
            images, labels = images[10000:], labels[10000:]
        self._compat = compat
        super().__init__(["image", "label"], images, labels.astype(np.uint32), num_samples, shuffle, num_shards,
                         shard_id, sampler)

    def _label_rows(self, i: int) -> Row:
        return (self._labels[i, 0],) if self._compat else (self._labels[i],)


class Cifar100Dataset(_FileDataset):
    """CIFAR-100 from ``dataset_dir`` (the binary version: ``train.bin`` of 50000 records, ``test.bin`` of 10000):
    ``image`` (32, 32, 3) uint8, ``coarse_label`` and ``fine_label`` uint32.

    Example:
        >>> Cifar100Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    RECORDS = {"train.bin": 50000, "test.bin": 10000}

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = _usage(usage, ["train", "test", "all"])
        names = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}[usage]
        recs = []
        for n in names:
            path = os.path.join(dataset_dir, n)
            raw = np.fromfile(path, np.uint8) if os.path.isfile(path) else np.zeros(0, np.uint8)
            if raw.size != self.RECORDS[n] * 3074:  # MindSpore reads the standard record counts
                raise RuntimeError(f"Invalid cifar100 file, failed to read data from: {path}, re-download dataset"
                                   f"(make sure it is CIFAR-100 binary version).")
            recs.append(raw.reshape(-1, 3074))
        data = np.concatenate(recs)
        images = np.ascontiguousarray(data[:, 2:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        super().__init__(["image", "coarse_label", "fine_label"], images, data[:, :2], num_samples, shuffle,
                         num_shards, shard_id, sampler)
        self.source_args = {"dataset_dir": dataset_dir, "usage": usage, "workers": num_parallel_workers}

    def _label_rows(self, i: int) -> Row:
        return np.uint32(self._labels[i, 0]), np.uint32(self._labels[i, 1])


def _files(kind: str, dataset_files: Union[str, Sequence[str]]) -> List[str]:
    patterns = [dataset_files] if isinstance(dataset_files, str) else list(dataset_files)
    found: List[str] = []
    missing = []
    for p in patterns:
        hits = sorted(glob.glob(p))
        if not hits:
            missing.append(p)
        found += hits
    if missing:
        raise ValueError(f"The following patterns did not match any files: {missing}.")
    return found


def _interleave(per_file: List[List[Row]], workers: Optional[int]) -> List[Row]:
    """The rows of several files as MindSpore's parallel readers hand them out: file ``j`` goes to worker
    ``j % workers``, each worker reads its files one after another, and the rows are taken a row of each worker
    in turn (so file after file with one worker, one row of each file in turn with as many workers as files)."""
    from mskernel.dataset import config
    w = workers or config.get_num_parallel_workers()
    if w == 1:
        return [r for rows in per_file for r in rows]
    streams = [[r for j, rows in enumerate(per_file) if j % w == k for r in rows] for k in range(min(w, len(per_file)))]
    out: List[Row] = []
    for k in range(max((len(rows) for rows in streams), default=0)):
        out += [rows[k] for rows in streams if k < len(rows)]
    return out


class _LineSource(Dataset):
    def __init__(self, names: List[str], rows: List[Row], num_samples: Optional[int], shuffle: Any,
                 num_shards: Optional[int], shard_id: Optional[int]) -> None:
        super().__init__(names)
        self._data = rows
        self._shuffle = shuffle is None or bool(shuffle)
        self._num_samples, self._shard = num_samples, (num_shards, shard_id)

    def _rows(self) -> Iterator[Row]:
        idx = _order(len(self._data), self._shuffle, None)
        shards, sid = self._shard
        if shards:
            idx = idx[sid::shards]
        if self._num_samples:
            idx = idx[:self._num_samples]
        for i in idx:
            yield self._data[int(i)]


class TextFileDataset(_LineSource):
    """The lines of text files (globs accepted), one row each, column ``text`` (a string array); empty lines are
    skipped; several files are read in turn, a row of each (file after file with ``num_parallel_workers=1``).
    ``shuffle`` (a bool or a ``Shuffle`` mode) shuffles the rows globally.

    Example:
        >>> TextFileDataset(["/no/such/file"])
        Traceback (most recent call last):
        ...
        ValueError: The following patterns did not match any files: ['/no/such/file'].
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        per_file: List[List[Row]] = []
        for path in _files("TextFileDataset", dataset_files):
            with open(path, encoding="utf-8") as f:
                per_file.append([(np.array(line.rstrip("\r\n")),) for line in f if line.rstrip("\r\n")])
        super().__init__(["text"], _interleave(per_file, num_parallel_workers), num_samples, shuffle, num_shards,
                         shard_id)


def _csv_value(text: str, default: Any, path: str, line: int) -> np.ndarray:
    if isinstance(default, bool) or default is None or isinstance(default, str):
        return np.array(text)
    try:
        if isinstance(default, int):
            return np.array(int(text), np.int32)
        return np.array(float(text), np.float32)
    except ValueError:
        raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}, type does not match."
                           ) from None


class CSVDataset(_LineSource):
    """Rows of CSV files (globs accepted): ``column_names`` (default: the header line of each file),
    ``column_defaults`` giving each column's type (int → int32, float → float32, str; an empty or unparsable
    number is an error naming the data line); without defaults every column is a string. Empty lines are skipped;
    several files are read a row of each in turn, as :class:`TextFileDataset` does.

    Example:
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "a.csv"); _ = open(p, "w").write("a,b\\n1,x\\n2,y\\n")
        >>> d = CSVDataset(p, column_defaults=[0, ""], shuffle=False)
        >>> d.get_col_names(), [r[0].item() for r in d.create_tuple_iterator(output_numpy=True)]
        (['a', 'b'], [1, 2])
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], field_delim: str = ",",
                 column_defaults: Optional[Sequence[Any]] = None, column_names: Optional[Sequence[str]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None, shuffle: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        files = _files("CSVDataset", dataset_files)
        names = None if column_names is None else list(column_names)
        per_file: List[List[Row]] = []
        for k, path in enumerate(files):
            with open(path, newline="", encoding="utf-8") as f:
                lines = [r for r in csv.reader(f, delimiter=field_delim)]
            if names is None and k == 0:
                names, lines = lines[0], lines[1:]
            elif column_names is None:
                lines = lines[1:]
            defaults = list(column_defaults) if column_defaults is not None else [None] * len(names or [])
            rows: List[Row] = []
            for number, line in enumerate([ln for ln in lines if ln], 1):
                rows.append(tuple(_csv_value(v, defaults[i] if i < len(defaults) else None, path, number)
                                  for i, v in enumerate(line)))
            per_file.append(rows)
        super().__init__(list(names or []), _interleave(per_file, num_parallel_workers), num_samples, shuffle,
                         num_shards, shard_id)
