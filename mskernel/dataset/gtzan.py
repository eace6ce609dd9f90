"""``GTZANDataset``: the GTZAN music-genre corpus (``dataset_dir/<genre>/<genre>.NNNNN.wav``, 22050 Hz), a row per
clip: ``waveform`` (float32, (1, n)), ``sample_rate`` (uint32) and ``label`` (the genre, a string).

``usage`` ``'train'``, ``'valid'`` and ``'test'`` read the filtered split MindSpore's reader uses (443, 197 and
290 clips; the clips listed in ``_SPLITS``, genre by genre), ``'all'`` (default) every ``.wav`` of the ten genre
folders.

Example:
    >>> import tempfile
    >>> GTZANDataset(tempfile.mkdtemp(), usage="dev")
    Traceback (most recent call last):
    ...
    ValueError: Input usage is not within the valid set of ['train', 'valid', 'test', 'all'].
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

import numpy as np

from mskernel.dataset.audio_corpora import read_wav
from mskernel.dataset.corpus import CorpusDataset, check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["GTZANDataset"]

_GENRES = ["blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop", "reggae", "rock"]
_RATE = 22050
# the clip numbers of each split, per genre, as runs "a-b" (measured from MindSpore 2.10's reader)
_SPLITS: Dict[str, Dict[str, str]] = {
    "train": {
        "blues": "29-49 73-97",
        "classical": "30-33 43-48 50-67 80-99",
        "country": "19-26 28-29 65-99",
        "disco": "5 15-20 22-37 39-45 47 49 53-54 56-57 59 61 70 73-74 89",
        "hiphop": "2-25 28-29 31-38 41-42 55-61 77-80",
        "jazz": "0-1 11-24 41 47-72",
        "metal": "2-3 5 21 24 35 46-57 59-66 69 71-72 79-80 84 86 89-99",
        "pop": "2-9 11-12 16-20 23-29 31-36 38-42 44 46 49-50 80 97-99",
        "reggae": "0-2 4 6 9 11-12 14-32 42-45 49-51 54-60 63 69",
        "rock": "0-9 16-26 57-70 91-99",
    },
    "valid": {
        "blues": "0-11 50-60",
        "classical": "0-10 68-76",
        "country": "0-7 9-18 27 41-42 45 49",
        "disco": "0 2-4 6-14 46 48 52 67-68 72 75 90 95",
        "hiphop": "81-98",
        "jazz": "2-10 25-32",
        "metal": "0-1 6-11 16-20 36-37 68 76-77 81-82",
        "pop": "10 53 55 58-62 81 83-86",
        "reggae": "61-62 70 72 74 76-78 85 92-99",
        "rock": "38 49-56 71-85",
    },
    "test": {
        "blues": "12-28 61-72 98-99",
        "classical": "11-29 34-41 49 77-79",
        "country": "30-40 43-44 46-48 50-51 53-64",
        "disco": "1 21 58 62-66 69 76-88 91-94 96-97 99",
        "hiphop": "0 26-27 30 40 43-45 51-54 62-75 99",
        "jazz": "73-99",
        "metal": "12-15 22-23 25-33 38-39 67 70 73-75 78 83 85 87-88",
        "pop": "0-1 13-14 43 63-66 69-79 82 88-96",
        "reggae": "34-40 46-48 52-53 64-68 71 79 82-84 87-90",
        "rock": "10-15 27-37 39-48 86-90",
    },
}


def _numbers(runs: str) -> List[int]:
    out: List[int] = []
    for run in runs.split():
        a, _, b = run.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


class GTZANDataset(CorpusDataset):
    """GTZAN clips of ``usage`` (train, valid, test or all) from ``dataset_dir``; a clip not at 22050 Hz is an
    error when it is read.

    Example:
        >>> GTZANDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "valid", "test", "all"])
        items = []
        for genre in _GENRES:
            folder = os.path.join(dataset_dir, genre)
            if usage == "all":
                names = sorted(n for n in os.listdir(folder) if n.endswith(".wav")) if os.path.isdir(folder) else []
            else:
                names = [f"{genre}.{n:05d}.wav" for n in _numbers(_SPLITS[usage][genre])]
            items += [(os.path.join(folder, n), genre) for n in names]
        super().__init__(["waveform", "sample_rate", "label"], items, num_samples, shuffle, sampler, num_shards,
                         shard_id)

    def _row(self, item: Any) -> Row:
        path, genre = item
        if not os.path.isfile(path):
            raise pipeline_error(f"Invalid file, failed to open file: {path}")
        wave, rate = read_wav(path)
        if rate != _RATE:
            raise pipeline_error(f"Invalid file, sampling rate of GTZAN wav file must be 22050, file path: {path}")
        return wave, np.uint32(rate), np.array(genre)
