"""Text corpora of plain line files: language-modelling text (``PennTreebankDataset``, ``WikiTextDataset``,
``EnWik9Dataset``), sentence pairs (``Multi30kDataset``), sentiment (``SST2Dataset``) and tagged words, one
sentence a row (``CoNLL2000Dataset``, ``UDPOSDataset``).

Like :class:`~mskernel.dataset.TextFileDataset`, a reader with several files (``usage='all'``) hands out a row
of each in turn (file after file with ``num_parallel_workers=1``), and ``shuffle`` (a bool or a ``Shuffle`` mode)
shuffles the rows.

Example:
    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> _ = open(os.path.join(root, "ptb.train.txt"), "w").write(" a b c\\n\\n d e\\n")
    >>> [str(r[0]) for r in PennTreebankDataset(root, "train", shuffle=False).create_tuple_iterator(output_numpy=True)]
    [' a b c', ' d e']
"""
from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

import numpy as np

from mskernel.dataset.corpus import check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _interleave, _LineSource
from mskernel.dataset.sources import _check_dir

__all__ = ["PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset", "Multi30kDataset", "SST2Dataset",
           "CoNLL2000Dataset", "UDPOSDataset"]


def _lines(path: str, keep_empty: bool = False) -> List[str]:
    with open(path, encoding="utf-8", newline="") as f:
        lines = [ln.rstrip("\r\n") for ln in f]
    return lines if keep_empty else [ln for ln in lines if ln]


def _existing(name: str, title: str, paths: List[str]) -> List[str]:
    found = [p for p in paths if os.path.isfile(p)]
    if not found:
        raise pipeline_error(f"Invalid data, {name} API can't read the data file (interface mismatch or no data "
                             f"found). Check {title}:  " + " ".join(paths))
    return found


class _Lines(_LineSource):
    def __init__(self, names: List[str], per_file: List[List[Row]], num_samples: Optional[int],
                 num_parallel_workers: Optional[int], shuffle: Any, num_shards: Optional[int],
                 shard_id: Optional[int]) -> None:
        super().__init__(names, _interleave(per_file, num_parallel_workers), num_samples, shuffle, num_shards,
                         shard_id)


def _split_files(op: str, what: str, dataset_dir: str, usage: Optional[str], usages: List[str],
                 pattern: str) -> List[str]:
    """The files of a corpus split into ``pattern.format(split)`` files; ``usage='all'`` reads test, train, valid."""
    _check_dir(dataset_dir)
    usage = check_usage(usage, usages)
    parts = ["test", "train", "valid"] if usage == "all" else [usage]
    return _existing(op, what, [os.path.join(dataset_dir, pattern.format(p)) for p in parts])


class PennTreebankDataset(_Lines):
    """Penn Treebank from ``dataset_dir`` (``ptb.{train,test,valid}.txt``; ``usage='all'`` reads test, train,
    valid): column ``text``, one non-empty line a row.

    Example:
        >>> PennTreebankDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        files = _split_files("PennTreebankDataset", "PennTreebank file", dataset_dir, usage,
                             ["train", "valid", "test", "all"], "ptb.{}.txt")
        super().__init__(["text"], [[(np.array(t),) for t in _lines(p)] for p in files], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id)


class WikiTextDataset(_Lines):
    """WikiText-2/103 from ``dataset_dir`` (``wiki.{train,test,valid}.tokens``; ``usage='all'`` reads test,
    train, valid): column ``text``, one non-empty line a row (a line of spaces is kept).

    Example:
        >>> WikiTextDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        files = _split_files("WikiTextDataset", "WikiText file", dataset_dir, usage, ["train", "test", "valid", "all"],
                             "wiki.{}.tokens")
        super().__init__(["text"], [[(np.array(t),) for t in _lines(p)] for p in files], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id)


class EnWik9Dataset(_Lines):
    """enwik9 from ``dataset_dir`` (the file ``enwik9``): column ``text``, every line a row, empty ones too.

    Example:
        >>> EnWik9Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        files = _existing("EnWik9Dataset", "EnWik9 file", [os.path.join(dataset_dir, "enwik9")])
        super().__init__(["text"], [[(np.array(t),) for t in _lines(p, keep_empty=True)] for p in files],
                         num_samples, num_parallel_workers, shuffle, num_shards, shard_id)


class Multi30kDataset(_Lines):
    """Multi30k from ``dataset_dir`` (``training/train.{en,de}``, ``validation/val.{en,de}``,
    ``mmt16_task1_test/test.{en,de}``; ``usage='all'`` reads test, train, valid): columns ``text`` (the first
    language of ``language_pair``, default ``['en', 'de']``) and ``translation`` (the other).

    Example:
        >>> import tempfile
        >>> Multi30kDataset(tempfile.mkdtemp(), language_pair=["en", "fr"])
        Traceback (most recent call last):
        ...
        ValueError: language_pair can only be ['en', 'de'] or ['en', 'de'], but got ['en', 'fr']
    """

    _PARTS = {"train": ("training", "train"), "valid": ("validation", "val"), "test": ("mmt16_task1_test", "test")}

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, language_pair: Optional[Sequence[str]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None, shuffle: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])
        pair = ["en", "de"] if language_pair is None else list(language_pair)
        if pair not in (["en", "de"], ["de", "en"]):
            raise ValueError(f"language_pair can only be ['en', 'de'] or ['en', 'de'], but got {pair}")
        per_file = []
        for part in (["test", "train", "valid"] if usage == "all" else [usage]):
            folder, stem = self._PARTS[part]
            src, dst = (os.path.join(dataset_dir, folder, f"{stem}.{lang}") for lang in pair)
            _existing("Multi30kDataset", "Multi30k file", [src])
            _existing("Multi30kDataset", "Multi30k file", [dst])
            a, b = _lines(src), _lines(dst)
            per_file.append([(np.array(x), np.array(y)) for x, y in zip(a, b)])
        super().__init__(["text", "translation"], per_file, num_samples, num_parallel_workers,
                         True if shuffle is None else shuffle, num_shards, shard_id)


class SST2Dataset(_Lines):
    """SST-2 from ``dataset_dir`` (``train.tsv``, ``dev.tsv``: a header, then ``sentence<TAB>label``;
    ``test.tsv``: ``index<TAB>sentence``): columns ``sentence`` and ``label`` (strings), ``sentence`` only for
    ``usage='test'``.

    Example:
        >>> import tempfile
        >>> SST2Dataset(tempfile.mkdtemp(), usage="all")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'dev'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "dev"], default="train")
        path = _existing("SST2Dataset", "SST2 file", [os.path.join(dataset_dir, f"{usage}.tsv")])[0]
        records = [ln.split("\t") for ln in _lines(path)[1:]]
        if usage == "test":
            names, rows = ["sentence"], [(np.array(r[1] if len(r) > 1 else ""),) for r in records]
        else:
            names = ["sentence", "label"]
            rows = [(np.array(r[0]), np.array(r[1] if len(r) > 1 else "")) for r in records]
        super().__init__(names, [rows], num_samples, num_parallel_workers, shuffle, num_shards, shard_id)


def _sentences(path: str, width: int) -> List[Row]:
    """Tagged words, one a line, sentences ended by an empty line: a row per sentence, a string array per
    column (a last sentence with no empty line after it is not read, as in MindSpore's reader)."""
    rows: List[Row] = []
    words: List[List[str]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if not parts:
                if words:
                    rows.append(tuple(np.array([w[k] if k < len(w) else "" for w in words]) for k in range(width)))
                words = []
            else:
                words.append(parts)
    return rows


class CoNLL2000Dataset(_Lines):
    """CoNLL-2000 chunking from ``dataset_dir`` (``train.txt``, ``test.txt``; ``usage='all'`` reads test, then
    train): a row per sentence, columns ``word``, ``pos_tag``, ``chunk_tag`` (string arrays).

    Example:
        >>> CoNLL2000Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 shuffle: Any = True, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "all"])
        parts = ["test", "train"] if usage == "all" else [usage]
        files = _existing("CoNLL2000Dataset", "CoNLL2000 file",
                          [os.path.join(dataset_dir, f"{p}.txt") for p in parts])
        super().__init__(["word", "pos_tag", "chunk_tag"], [_sentences(p, 3) for p in files], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id)


class UDPOSDataset(_Lines):
    """UD English part-of-speech tags from ``dataset_dir`` (``en-ud-tag.v2.{train,dev,test}.txt``; ``usage``
    'valid' reads dev, 'all' dev, test and train): a row per sentence, columns ``word``, ``universal``,
    ``stanford`` (string arrays).

    Example:
        >>> UDPOSDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 shuffle: Any = True, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])
        parts = ["dev", "test", "train"] if usage == "all" else [{"valid": "dev"}.get(usage, usage)]
        paths = [os.path.join(dataset_dir, f"en-ud-tag.v2.{p}.txt") for p in parts]
        files = _existing("UDPOSDataset", "udpos", paths)
        super().__init__(["word", "universal", "stanford"], [_sentences(p, 3) for p in files], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id)
