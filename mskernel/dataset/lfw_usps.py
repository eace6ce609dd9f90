"""Two small vision corpora read from their published files: ``LFWDataset`` (Labeled Faces in the Wild: the
people and the matched/mismatched pairs listings over the image folders) and ``USPSDataset`` (the postal digits
in the libsvm text files ``usps``/``usps.t``).

Example:
    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> line = "3 " + " ".join(f"{i + 1}:{-1 + (i + 0.5) / 127.5}" for i in range(256)) + " \\n"
    >>> _ = open(os.path.join(root, "usps"), "w").write(line)
    >>> image, label = next(USPSDataset(root, usage="train").create_tuple_iterator(output_numpy=True))
    >>> image.shape, image.dtype, image[0, :4, 0].tolist(), int(label)
    ((16, 16, 1), dtype('uint8'), [0, 1, 2, 3], 2)
"""
from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, image_column, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _interleave, _LineSource
from mskernel.dataset.sources import _check_dir

__all__ = ["LFWDataset", "USPSDataset"]

_LFW_SETS = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}
_LFW_LISTS = {("people", "10fold"): ["people.txt"], ("people", "train"): ["peopleDevTrain.txt"],
              ("people", "test"): ["peopleDevTest.txt"], ("people", "all"): ["peopleDevTrain.txt", "peopleDevTest.txt"],
              ("pairs", "10fold"): ["pairs.txt"], ("pairs", "train"): ["pairsDevTrain.txt"],
              ("pairs", "test"): ["pairsDevTest.txt"], ("pairs", "all"): ["pairsDevTrain.txt", "pairsDevTest.txt"]}


def _check_choice(value: Optional[str], name: str, valid: List[str], default: str) -> str:
    value = default if value is None else value
    if not isinstance(value, str):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'str'>], but got {type(value)}.")
    if value not in valid:
        raise ValueError(f"Input {name} is not within the valid set of {valid}.")
    return value


def _fields(path: str) -> List[List[str]]:
    if not os.path.isfile(path):
        raise pipeline_error(f"Invalid file, failed to open file: {os.path.realpath(path)}")
    with open(path, encoding="utf-8") as f:
        return [ln.split() for ln in f if ln.strip()]


class LFWDataset(CorpusDataset):
    """LFW faces from ``dataset_dir``. ``task='people'`` (default): a row per image of the people listed in
    ``people.txt`` (``usage='10fold'``), ``peopleDevTrain.txt``/``peopleDevTest.txt`` (train, test; ``all``, the
    default, reads both), columns ``image`` and ``label`` (uint32: the person's line in ``lfw-names.txt``).
    ``task='pairs'``: a row per line of the pairs listings, ``image1``, ``image2`` and ``label`` (1 for the same
    person). Images come from ``lfw``, ``lfw_funneled`` (default) or ``lfw-deepfunneled`` by ``image_set``, as
    raw bytes or decoded (``decode=True``).

    Example:
        >>> import tempfile
        >>> LFWDataset(tempfile.mkdtemp(), task="faces")
        Traceback (most recent call last):
        ...
        ValueError: Input task is not within the valid set of ['people', 'pairs'].
    """

    def __init__(self, dataset_dir: str, task: Optional[str] = None, usage: Optional[str] = None,
                 image_set: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        _check_dir(dataset_dir)
        task = _check_choice(task, "task", ["people", "pairs"], "people")
        usage = _check_choice(usage, "usage", ["10fold", "train", "test", "all"], "all")
        image_set = _check_choice(image_set, "image_set", ["original", "funneled", "deepfunneled"], "funneled")
        self._decode = bool(decode)
        folder = os.path.join(dataset_dir, _LFW_SETS[image_set])
        names_file = os.path.join(dataset_dir, "lfw-names.txt")
        if not os.path.isfile(names_file):
            raise pipeline_error(f"Invalid file, failed to open file: {os.path.realpath(dataset_dir)}")
        index = {}
        for fields in _fields(names_file):
            index.setdefault(fields[0], len(index))

        def image(name: str, number: str) -> str:
            return os.path.join(folder, name, f"{name}_{int(number):04d}.jpg")

        items: List[Any] = []
        for listing in _LFW_LISTS[(task, usage)]:
            for f in _fields(os.path.join(dataset_dir, listing)):
                if task == "people" and len(f) == 2:
                    items += [(image(f[0], str(i + 1)), index.get(f[0], 0)) for i in range(int(f[1]))]
                elif task == "pairs" and len(f) == 3:
                    items.append((image(f[0], f[1]), image(f[0], f[2]), 1))
                elif task == "pairs" and len(f) == 4:
                    items.append((image(f[0], f[1]), image(f[2], f[3]), 0))
        names = ["image", "label"] if task == "people" else ["image1", "image2", "label"]
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        return tuple(image_column(p, self._decode) for p in item[:-1]) + (np.uint32(item[-1]),)


def _usps_rows(path: str) -> List[Row]:
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            tokens = line.split(" ")
            if len(tokens) - 1 != 257:
                raise pipeline_error("Invalid data, the number of split characters ':' in USPS data file is "
                                     f"corrupted, should be 257, but got {len(tokens) - 1}.")
            values = np.array([t.split(":")[1] for t in tokens[1:257]], np.float32).astype(np.float64)
            image = ((values + 1) / 2 * 255).astype(np.uint8).reshape(16, 16, 1)
            rows.append((image, np.uint32(int(tokens[0]) - 1)))
    return rows


class USPSDataset(_LineSource):
    """USPS digits from ``dataset_dir`` (``usps`` for train, ``usps.t`` for test, ``all`` reads both a row of
    each in turn): ``image`` (16, 16, 1) uint8, the value v in [-1, 1] mapped to ``(v + 1) / 2 * 255`` and cut to
    an integer, and ``label`` uint32 (the file's 1..10 less one). A line is the label and 256 ``index:value``
    fields, each followed by a blank, as the published files have them.

    Example:
        >>> import tempfile
        >>> USPSDataset(tempfile.mkdtemp(), usage="valid")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "all"])
        files = [os.path.join(dataset_dir, n) for n, u in (("usps", "train"), ("usps.t", "test"))
                 if usage in (u, "all")]
        self._error: Optional[RuntimeError] = None
        per_file: List[List[Row]] = []
        try:
            for path in files:
                if not os.path.isfile(path):
                    raise pipeline_error(f"Invalid file, failed to open {path}: file does not exist.")
                per_file.append(_usps_rows(path))
        except RuntimeError as e:  # raised when the pipeline runs, as the wheel's reader does
            self._error = e
        super().__init__(["image", "label"], _interleave(per_file, num_parallel_workers), num_samples, shuffle,
                         num_shards, shard_id)

    def _rows(self) -> Iterator[Row]:
        if self._error is not None:
            raise self._error
        yield from super()._rows()
