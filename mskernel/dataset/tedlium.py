"""``TedliumDataset``: TED-LIUM releases 1-3, a row per line of the talks' ``stm`` transcripts, the waveform cut
from the talk's NIST SPHERE (``.sph``) audio between the line's start and end times.

Layout: ``dataset_dir/{train,test,dev}/{stm,sph}`` (release1, release2; ``usage='all'`` reads the three) or
``dataset_dir/data/{stm,sph}`` (release3, usage ``all`` only). Rows are ordered as MindSpore orders them: by the
line's number within its file (compared as text, so line 10 comes before line 2), then by talk, then by usage.

Example:
    >>> import tempfile
    >>> TedliumDataset(tempfile.mkdtemp(), "release3", usage="train")
    Traceback (most recent call last):
    ...
    ValueError: Input usage is not within the valid set of ['all'].
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["TedliumDataset", "read_sphere"]

_FULL_SCALE = 32767.0


def _sphere_header(head: bytes) -> Tuple[int, Dict[str, str]]:
    lines = head.split(b"\n")
    size = int(lines[1]) if len(lines) > 1 and lines[1].strip().isdigit() else 1024
    fields: Dict[str, str] = {}
    for ln in lines[2:]:
        parts = ln.decode("latin-1").split()
        if parts and parts[0] == "end_head":
            break
        if len(parts) >= 3:
            fields[parts[0]] = parts[2]
    return size, fields


def read_sphere(path: str, start: float, end: float) -> Tuple[np.ndarray, int]:
    """The 16-bit PCM samples of a NIST SPHERE file between ``start`` and ``end`` seconds, as float32 (1, n)
    scaled by 1/32767, and the file's sample rate (byte order from ``sample_byte_format``: ``10`` big-endian,
    otherwise little-endian).

    Example:
        >>> import tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "a.sph")
        >>> head = b"NIST_1A\\n   1024\\nsample_rate -i 4\\nsample_byte_format -s2 01\\nend_head\\n"
        >>> _ = open(p, "wb").write(head.ljust(1024) + np.array([0, 32767, -32767, 5], "<i2").tobytes())
        >>> wave, rate = read_sphere(p, 0.25, 0.75)
        >>> wave.tolist(), rate
        ([[1.0, -1.0]], 4)
    """
    if not os.path.isfile(path):
        raise pipeline_error(f"Invalid file, failed to open file: {path}")
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 1024:
        raise pipeline_error(f"Invalid data, failed to read head part from sph file: {path}, re-download dataset"
                             "(make sure the data is true).")
    size, fields = _sphere_header(data[:1024])
    rate = int(fields.get("sample_rate", "0"))
    first, last = int(start * rate), int(end * rate)
    order = ">i2" if fields.get("sample_byte_format") == "10" else "<i2"
    pcm = data[size + 2 * first:size + 2 * last]
    if len(pcm) < 2 * (last - first):
        raise pipeline_error(f"Invalid data, failed to read data part from sph file: {path}, re-download dataset"
                             "(make sure the data is true).")
    wave = (np.frombuffer(pcm, order).astype(np.float64) / _FULL_SCALE).astype(np.float32)
    return wave.reshape(1, -1), rate


class TedliumDataset(CorpusDataset):
    """TED-LIUM ``release`` (``'release1'``, ``'release2'``, ``'release3'``) from ``dataset_dir``: columns
    ``waveform`` (float32, (1, n)), ``sample_rate`` (int32), ``transcript``, ``talk_id``, ``speaker_id`` and
    ``identifier`` (strings: the stm line's fields 7, 1, 3 and 6).

    Example:
        >>> import tempfile
        >>> TedliumDataset(tempfile.mkdtemp(), "release4")
        Traceback (most recent call last):
        ...
        ValueError: Input release is not within the valid set of ['release1', 'release2', 'release3'].
    """

    def __init__(self, dataset_dir: str, release: str, usage: Optional[str] = None, extensions: Optional[str] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        if not isinstance(release, str):
            raise TypeError(f"Argument release with value {release} is not of type [<class 'str'>], "
                            f"but got {type(release)}.")
        if release not in ("release1", "release2", "release3"):
            raise ValueError("Input release is not within the valid set of ['release1', 'release2', 'release3'].")
        _check_dir(dataset_dir)
        if release == "release3":
            parts = [check_usage(usage, ["all"]) and "data"]
        else:
            usage = check_usage(usage, ["train", "test", "dev", "all"])
            parts = ["train", "test", "dev"] if usage == "all" else [usage]
        self._root, self._ext = dataset_dir, ".sph" if extensions is None else extensions
        keys: List[Tuple[str, str, str]] = []
        for part in parts:
            folder = os.path.join(os.path.realpath(dataset_dir), part, "stm")
            if not os.path.isdir(folder):
                raise pipeline_error(f"Invalid file, failed to open folder: {folder}")
            for name in os.listdir(folder):
                if name.endswith(".stm"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        keys += [(str(n), ln.split(" ", 1)[0].rstrip("\n"), part) for n, ln in enumerate(f)]
        if not keys:
            raise pipeline_error("Invalid data, no valid data matching the dataset API TedliumDataset. Please check "
                                 "file path or dataset API.")
        super().__init__(["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"],
                         sorted(keys), num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        line_no, talk, part = item
        with open(os.path.join(self._root, part, "stm", talk + ".stm"), encoding="utf-8") as f:
            line = f.read().split("\n")[int(line_no)]
        fields = line.split(" ", 6)
        if len(fields) != 7:
            raise pipeline_error("Invalid data, stm data was broken.")
        wave, rate = read_sphere(os.path.join(self._root, part, "sph", talk + self._ext), float(fields[3]),
                                 float(fields[4]))
        return (wave, np.int32(rate), np.array(fields[6]), np.array(fields[0]), np.array(fields[2]),
                np.array(fields[5]))
