"""``CLUEDataset``: the JSON-lines files of the CLUE benchmark's classification tasks (AFQMC, TNEWS, IFLYTEK,
CMNLI, WSC, CSL), one row per line, columns chosen by ``task`` and ``usage`` and named in sorted order.

A JSON string becomes a string, an integer uint32, a real number float32, a list of strings a string array.
WSC's ``span*`` fields are read from the line's ``target`` object. Several files (globs, sorted) are read a row
of each in turn, file after file with ``num_parallel_workers=1``; ``shuffle`` shuffles the rows.

Example:
    >>> import os, json, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "train.json")
    >>> _ = open(p, "w").write(json.dumps({"sentence1": "a", "sentence2": "b", "label": "0"}) + "\\n")
    >>> d = CLUEDataset(p, shuffle=False)
    >>> d.get_col_names(), [str(c) for c in next(d.create_tuple_iterator(output_numpy=True))]
    (['label', 'sentence1', 'sentence2'], ['0', 'a', 'b'])
"""
from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np

from mskernel.dataset.corpus import pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _files, _interleave, _LineSource

__all__ = ["CLUEDataset"]

_PAIR = {"train": ["label", "sentence1", "sentence2"], "test": ["id", "sentence1", "sentence2"]}
_WSC = ["idx", "span1_index", "span1_text", "span2_index", "span2_text", "text"]
# the keys each task's rows read, per usage ('eval' reads what 'train' reads)
_KEYS: Dict[str, Dict[str, List[str]]] = {
    "AFQMC": _PAIR,
    "CMNLI": _PAIR,
    "TNEWS": {"train": ["keywords", "label", "label_desc", "sentence"], "test": ["id", "keywords", "sentence"]},
    "IFLYTEK": {"train": ["label", "label_des", "sentence"], "test": ["id", "sentence"]},
    "WSC": {"train": sorted(_WSC + ["label"]), "test": _WSC},
    "CSL": {"train": ["abst", "id", "keyword", "label"], "test": ["abst", "id", "keyword"]},
}


def _value(v: Any) -> np.ndarray:
    if isinstance(v, str):
        return np.array(v)
    if isinstance(v, bool):
        return np.array(v)
    if isinstance(v, int):
        return np.array(v % (1 << 32), np.uint32)
    if isinstance(v, float):
        return np.array(v, np.float32)
    if isinstance(v, list):
        return np.array([str(x) if not isinstance(x, str) else x for x in v]) if v else np.array([], np.str_)
    return np.array(json.dumps(v))


def _row(rec: Dict[str, Any], keys: Sequence[str], task: str) -> Row:
    out = []
    for k in keys:
        src = rec.get("target", {}) if task == "WSC" and k.startswith("span") else rec
        if not isinstance(src, dict) or k not in src:
            raise pipeline_error(f"Invalid json file, in given JSON file, failed to find key: {k}")
        out.append(_value(src[k]))
    return tuple(out)


class CLUEDataset(_LineSource):
    """CLUE ``task`` rows from ``dataset_files`` (a file, glob or list): ``usage`` train, test or eval decides
    the columns (test rows have ``id`` and no ``label``).

    Example:
        >>> CLUEDataset("x.json", task="QQP")
        Traceback (most recent call last):
        ...
        ValueError: task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'.
    """

    def __init__(self, dataset_files: Union[str, List[str]], task: str = "AFQMC", usage: str = "train",
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None, shuffle: Any = True,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        if not isinstance(dataset_files, (str, list)):
            raise TypeError(f"Argument dataset files with value {dataset_files} is not of type "
                            f"[<class 'str'>, <class 'list'>], but got {type(dataset_files)}.")
        if not dataset_files:
            raise ValueError(f"Input dataset_files can not be empty, but got '{dataset_files}'.")
        task = "AFQMC" if task is None else task
        usage = "train" if usage is None else usage
        if task not in _KEYS:
            raise ValueError("task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'.")
        if usage not in ("train", "test", "eval"):
            raise ValueError("usage should be 'train', 'test' or 'eval'.")
        keys = _KEYS[task]["test" if usage == "test" else "train"]
        per_file: List[List[Row]] = []
        self._error: Optional[RuntimeError] = None
        for path in sorted(_files("CLUEDataset", dataset_files)):
            rows: List[Row] = []
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    try:
                        rows.append(_row(json.loads(line), keys, task))
                    except RuntimeError as e:  # raised when the pipeline reaches it, as the wheel's reader does
                        self._error = self._error or e
                        break
                    except json.JSONDecodeError:
                        self._error = self._error or pipeline_error(f"Invalid json, failed to parse {path}.")
                        break
            per_file.append(rows)
        super().__init__(keys, _interleave(per_file, num_parallel_workers), num_samples, shuffle, num_shards,
                         shard_id)

    def _rows(self) -> Iterator[Row]:
        if self._error is not None:
            raise self._error
        yield from super()._rows()


