"""``IWSLT2016Dataset`` and ``IWSLT2017Dataset``: TED-talk translation pairs from the WIT3 release as unpacked,
one row per sentence pair, columns ``text`` (source language) and ``translation`` (target), both strings.

The training pair is ``train.tags.{src}-{tgt}.{src}``/``.{tgt}``: a line holding one of the talk's metadata tags
(``<url``, ``<talkid``, ``<title`` ...) is skipped, the others are stripped of surrounding blanks and kept as
written (an empty one is an error). The validation and test pairs are the XML files
``IWSLT16.TED.{set}.{src}-{tgt}.{lang}.xml`` (``IWSLT17`` for 2017), a row per ``<seg>``. ``usage='all'``
reads train, valid and test a row of each in turn (file after file with ``num_parallel_workers=1``).

Example:
    >>> import os, tempfile
    >>> root = tempfile.mkdtemp(); d = os.path.join(root, "texts", "de", "en", "de-en"); os.makedirs(d)
    >>> _ = open(os.path.join(d, "train.tags.de-en.de"), "w").write("<url>u</url>\\n Hallo \\n")
    >>> _ = open(os.path.join(d, "train.tags.de-en.en"), "w").write("<url>u</url>\\nHello\\n")
    >>> d = IWSLT2016Dataset(root, "train", shuffle=False)
    >>> [[str(c) for c in r] for r in d.create_tuple_iterator(output_numpy=True)]
    [['Hallo', 'Hello']]
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.dataset.corpus import check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _interleave, _LineSource
from mskernel.dataset.sources import _check_dir

__all__ = ["IWSLT2016Dataset", "IWSLT2017Dataset"]

_META_TAGS = ("<url", "<keywords", "<talkid", "<description", "<reviewer", "<translator", "<title", "<speaker",
              "<doc", "</doc")
_SETS = ["dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014"]


def _check_pair(pair: Any, valid: List[List[str]]) -> List[str]:
    if not isinstance(pair, (list, tuple)):
        raise TypeError("language_pair should be a type list or tuple of length 2.")
    options: Sequence[Any] = valid if isinstance(pair, list) else tuple(tuple(p) for p in valid)
    if any(not isinstance(x, str) for x in pair):
        raise TypeError(f"Argument language_pair with value {pair} is not of type [<class 'str'>].")
    if len(pair) != 2:
        raise ValueError("Input language_pair is a list or tuple of length 2.")
    if pair not in options:
        raise ValueError(f"Input language_pair{pair} is not within the valid set of {options}.")
    return list(pair)


def _check_set(value: Optional[str], name: str, default: str) -> str:
    value = default if value is None else value
    if not isinstance(value, str):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'str'>], but got {type(value)}.")
    if value not in _SETS:
        raise ValueError(f"Input {name} is not within the valid set of {_SETS}.")
    return value


def _tag_lines(path: str) -> List[str]:
    if not os.path.isfile(path):
        raise pipeline_error(f"Invalid file, failed to open file: {path}")
    with open(path, encoding="utf-8") as f:
        return [ln.strip() for ln in f if not any(t in ln for t in _META_TAGS)]


def _xml_lines(path: str) -> List[str]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        raise pipeline_error(f"Invalid file, failed to load xml file: {path}") from None
    return [(seg.text or "").strip() for seg in root.iter("seg")]


def _pairs(src: List[str], tgt: List[str]) -> List[Row]:
    rows = []
    for a, b in zip(src, tgt):
        if not a or not b:
            raise pipeline_error("Invalid file, read an empty line.")
        rows.append((np.array(a), np.array(b)))
    return rows


class _IWSLT(_LineSource):
    PREFIX = ""
    PAIRS: List[List[str]] = []

    def _folder(self, root: str, src: str, tgt: str) -> str:
        raise NotImplementedError

    def _read(self, dataset_dir: str, usage: Optional[str], pair: Any, sets: Tuple[str, str],
              num_samples: Optional[int], shuffle: Any, num_shards: Optional[int], shard_id: Optional[int],
              num_parallel_workers: Optional[int]) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])
        src, tgt = _check_pair(["de", "en"] if pair is None else pair, self.PAIRS)
        folder = self._folder(dataset_dir, src, tgt)
        per_file: List[List[Row]] = []
        self._error: Optional[RuntimeError] = None
        try:
            for part in (["train", "valid", "test"] if usage == "all" else [usage]):
                if part == "train":
                    base = os.path.join(folder, f"train.tags.{src}-{tgt}.")
                    per_file.append(_pairs(_tag_lines(base + src), _tag_lines(base + tgt)))
                else:
                    base = os.path.join(folder, f"{self.PREFIX}.TED.{sets[part == 'test']}.{src}-{tgt}.")
                    per_file.append(_pairs(_xml_lines(base + src + ".xml"), _xml_lines(base + tgt + ".xml")))
        except RuntimeError as e:  # raised when the pipeline runs, as the wheel's reader does
            self._error = e
        super().__init__(["text", "translation"], _interleave(per_file, num_parallel_workers), num_samples, shuffle,
                         num_shards, shard_id)

    def _rows(self) -> Iterator[Row]:
        if self._error is not None:
            raise self._error
        yield from super()._rows()


class IWSLT2016Dataset(_IWSLT):
    """IWSLT 2016 from ``dataset_dir/texts/{src}/{tgt}/{src}-{tgt}``: ``language_pair`` (default ``('de', 'en')``),
    ``valid_set`` (default ``'tst2013'``) and ``test_set`` (default ``'tst2014'``) name the files read.

    Example:
        >>> import tempfile
        >>> IWSLT2016Dataset(tempfile.mkdtemp(), language_pair=("de", "fr"))
        Traceback (most recent call last):
        ...
        ValueError: Input language_pair('de', 'fr') is not within the valid set of (('en', 'ar'), ('en', 'ar'), \
('en', 'de'), ('en', 'fr'), ('en', 'cs'), ('ar', 'en'), ('fr', 'en'), ('de', 'en'), ('cs', 'en')).
    """
    PREFIX = "IWSLT16"
    PAIRS = [["en", "ar"], ["en", "ar"], ["en", "de"], ["en", "fr"], ["en", "cs"], ["ar", "en"], ["fr", "en"],
             ["de", "en"], ["cs", "en"]]

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, language_pair: Any = None,
                 valid_set: Optional[str] = None, test_set: Optional[str] = None, num_samples: Optional[int] = None,
                 shuffle: Any = True, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        sets = (_check_set(valid_set, "valid_set", "tst2013"), _check_set(test_set, "test_set", "tst2014"))
        self._read(dataset_dir, usage, language_pair, sets, num_samples, shuffle, num_shards, shard_id,
                   num_parallel_workers)

    def _folder(self, root: str, src: str, tgt: str) -> str:
        return os.path.join(root, "texts", src, tgt, f"{src}-{tgt}")


class IWSLT2017Dataset(_IWSLT):
    """IWSLT 2017 from ``dataset_dir/texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo``: ``language_pair``
    (default ``('de', 'en')``) among German, English, Italian, Dutch and Romanian; valid is ``dev2010``, test
    ``tst2010``.

    Example:
        >>> import tempfile
        >>> IWSLT2017Dataset(tempfile.mkdtemp(), language_pair="de")
        Traceback (most recent call last):
        ...
        TypeError: language_pair should be a type list or tuple of length 2.
    """
    PREFIX = "IWSLT17"
    PAIRS = [[a, b] for a, b in (("en", "nl"), ("en", "de"), ("en", "it"), ("en", "ro"), ("ro", "de"), ("ro", "en"),
                                 ("ro", "nl"), ("ro", "it"), ("de", "ro"), ("de", "en"), ("de", "nl"), ("de", "it"),
                                 ("it", "en"), ("it", "nl"), ("it", "de"), ("it", "ro"), ("nl", "de"), ("nl", "en"),
                                 ("nl", "it"), ("nl", "ro"))]

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, language_pair: Any = None,
                 num_samples: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, num_parallel_workers: Optional[int] = None, cache: Any = None) -> None:
        self._read(dataset_dir, usage, language_pair, ("dev2010", "tst2010"), num_samples, shuffle, num_shards,
                   shard_id, num_parallel_workers)

    def _folder(self, root: str, src: str, tgt: str) -> str:
        return os.path.join(root, "texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo")
