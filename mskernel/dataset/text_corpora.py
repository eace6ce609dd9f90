"""Text corpora read from their published files: ``IMDBDataset`` (one review a file) and the CSV corpora of
news and reviews (``AGNewsDataset``, ``AmazonReviewDataset``, ``DBpediaDataset``, ``SogouNewsDataset``,
``YahooAnswersDataset``, ``YelpReviewDataset``: ``train.csv``/``test.csv`` with quoted fields, every column a
string, escapes such as ``\\n`` kept as written).

The CSV readers stream like :class:`~mskernel.dataset.TextFileDataset`: ``usage='all'`` reads both files a
row of each in turn (file after file with ``num_parallel_workers=1``), ``shuffle`` (a bool or a ``Shuffle``
mode, default global) shuffles the rows.

Example:
    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> _ = open(os.path.join(root, "train.csv"), "w").write('"2","a title","some text"\\n')
    >>> d = AGNewsDataset(root, usage="train", shuffle=False)
    >>> d.get_col_names(), [str(v) for v in next(d.create_tuple_iterator(output_numpy=True))]
    (['index', 'title', 'description'], ['2', 'a title', 'some text'])
"""
from __future__ import annotations

import csv
import glob
import json
import os
from typing import Any, List, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _interleave, _LineSource
from mskernel.dataset.sources import _check_dir

__all__ = ["IMDBDataset", "SQuADDataset", "AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset",
           "YahooAnswersDataset", "YelpReviewDataset"]


class IMDBDataset(CorpusDataset):
    """The IMDB reviews in ``dataset_dir/{train,test}/{pos,neg}/*.txt`` (``unsup`` is not read): columns
    ``text`` (string) and ``label`` (int32: 1 for ``pos``, 0 for ``neg``); ``pos`` before ``neg``, files in
    sorted order, ``train`` before ``test`` with ``usage='all'``.

    Example:
        >>> IMDBDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "all"])
        items = []
        for part in (["train", "test"] if usage == "all" else [usage]):
            for kind, label in (("pos", 1), ("neg", 0)):
                folder = os.path.join(dataset_dir, part, kind)
                if os.path.isdir(folder):
                    items += [(os.path.join(folder, n), label) for n in sorted(os.listdir(folder))
                              if n.endswith(".txt")]
        super().__init__(["text", "label"], items, num_samples, shuffle, sampler, num_shards, shard_id,
                         labels=[i[1] for i in items])

    def _row(self, item: Any) -> Row:
        with open(item[0], encoding="utf-8") as f:
            return np.array(f.read().rstrip("\n")), np.int32(item[1])


class _CsvCorpus(_LineSource):
    COLUMNS: List[str] = []
    FILES = ("test.csv", "train.csv")  # the order usage='all' reads them in
    TITLE = ""

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "all"])
        files = [os.path.join(dataset_dir, n) for n in self.FILES if usage == "all" or n == usage + ".csv"]
        found = [p for p in files if os.path.isfile(p)]
        if not found:
            raise pipeline_error(f"Invalid data, {type(self).__name__} API can't read the data file (interface "
                                 f"mismatch or no data found). Check {self.TITLE} file path:  " + " ".join(files)
                                 + ".")
        per_file = []
        for path in found:
            with open(path, newline="", encoding="utf-8") as f:
                per_file.append([tuple(np.array(v) for v in rec) for rec in csv.reader(f) if rec])
        super().__init__(list(self.COLUMNS), _interleave(per_file, num_parallel_workers), num_samples, shuffle,
                         num_shards, shard_id)


def _csv_doc(name: str, columns: List[str]) -> str:
    return (f"{name} from ``dataset_dir`` (``train.csv``, ``test.csv``; ``usage`` train, test or all): columns "
            f"{', '.join(f'``{c}``' for c in columns)}, all strings.\n\n"
            f"    Example:\n"
            f"        >>> {name}Dataset('/no/such/dir')\n"
            f"        Traceback (most recent call last):\n"
            f"        ...\n"
            f"        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!\n")


class AGNewsDataset(_CsvCorpus):
    __doc__ = _csv_doc("AGNews", ["index", "title", "description"])
    COLUMNS, TITLE = ["index", "title", "description"], "ag news"


class AmazonReviewDataset(_CsvCorpus):
    __doc__ = _csv_doc("AmazonReview", ["label", "title", "content"])
    COLUMNS, TITLE = ["label", "title", "content"], "amazon review"


class DBpediaDataset(_CsvCorpus):
    __doc__ = _csv_doc("DBpedia", ["class", "title", "content"])
    COLUMNS, TITLE = ["class", "title", "content"], "DBpedia"


class SogouNewsDataset(_CsvCorpus):
    __doc__ = _csv_doc("SogouNews", ["index", "title", "content"])
    COLUMNS, TITLE, FILES = ["index", "title", "content"], "sogou news", ("train.csv", "test.csv")

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 shuffle: Any = True, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)


class YahooAnswersDataset(_CsvCorpus):
    __doc__ = _csv_doc("YahooAnswers", ["class", "title", "content", "answer"])
    COLUMNS, TITLE = ["class", "title", "content", "answer"], "yahoo answers"


class YelpReviewDataset(_CsvCorpus):
    __doc__ = _csv_doc("YelpReview", ["label", "text"])
    COLUMNS, TITLE, FILES = ["label", "text"], "yelp review", ("train.csv", "test.csv")

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 shuffle: Any = True, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)


class SQuADDataset(_LineSource):
    """SQuAD 1.1 or 2.0 from ``dataset_dir`` (``train-v*.json``, ``dev-v*.json``; ``usage='all'`` reads train
    and dev a row of each in turn): a row per question, columns ``context``, ``question`` (strings), ``text``
    (the answers, a string array) and ``answer_start`` (uint32 array); an unanswerable question has the answer
    ``''`` at -1 (4294967295).

    Example:
        >>> import tempfile
        >>> SQuADDataset(tempfile.mkdtemp(), usage="test")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'dev', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "dev", "all"])
        per_file = []
        for part in (["train", "dev"] if usage == "all" else [usage]):
            paths = sorted(glob.glob(os.path.join(glob.escape(dataset_dir), f"{part}-v*.json")))
            if not paths:
                raise pipeline_error(f"Invalid file, failed to find SQuAD {part} file in "
                                     f"{os.path.realpath(dataset_dir)}")
            with open(paths[0], encoding="utf-8") as f:
                doc = json.load(f)
            rows = []
            for article in doc.get("data", []):
                for para in article.get("paragraphs", []):
                    for qa in para.get("qas", []):
                        answers = qa.get("answers") or [{"text": "", "answer_start": -1}]
                        rows.append((np.array(para["context"]), np.array(qa["question"]),
                                     np.array([a["text"] for a in answers]),
                                     np.array([a["answer_start"] for a in answers], np.int64).astype(np.uint32)))
            per_file.append(rows)
        super().__init__(["context", "question", "text", "answer_start"], _interleave(per_file, num_parallel_workers),
                         num_samples, shuffle, num_shards, shard_id)
