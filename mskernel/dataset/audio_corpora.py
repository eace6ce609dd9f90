"""Speech corpora read from their WAV files (the stdlib ``wave`` module): ``YesNoDataset``,
``LJSpeechDataset``, ``SpeechCommandsDataset``, ``CMUArcticDataset`` and ``LibriTTSDataset``. A waveform is
float32 ``(1, samples)`` (the channels of a stereo file interleaved), 16-bit PCM scaled by 1/32767 (so -32768
reads as slightly below -1, as in MindSpore's reader).

Example:
    >>> YesNoDataset("/no/such/dir")
    Traceback (most recent call last):
    ...
    ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
"""
from __future__ import annotations

import csv
import os
import wave
from typing import Any, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["read_wav", "YesNoDataset", "LJSpeechDataset", "SpeechCommandsDataset", "CMUArcticDataset",
           "LibriTTSDataset"]


def read_wav(path: str) -> tuple:
    """A PCM WAV file as ``(waveform float32 (1, samples), sample_rate)``; as MindSpore's reader does, the
    samples of every channel stay interleaved in the one row.

    Example:
        >>> import tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> with wave.open(p, "wb") as f:
        ...     f.setnchannels(1); f.setsampwidth(2); f.setframerate(8000)
        ...     f.writeframes(np.array([0, 32767], "<i2").tobytes())
        >>> read_wav(p)
        (array([[0., 1.]], dtype=float32), 8000)
    """
    try:
        with wave.open(path, "rb") as f:
            width, rate = f.getsampwidth(), f.getframerate()
            frames = f.readframes(f.getnframes())
    except (OSError, EOFError, wave.Error) as e:
        raise pipeline_error(f"Invalid file, failed to read wav file: {path} ({e}).") from None
    if width == 1:
        data = (np.frombuffer(frames, np.uint8).astype(np.float32) - 128.0) / 127.0
    elif width == 2:
        data = np.frombuffer(frames, "<i2").astype(np.float32) / 32767.0
    elif width == 4:
        data = (np.frombuffer(frames, "<i4").astype(np.float64) / 2147483647.0).astype(np.float32)
    else:
        raise pipeline_error(f"Invalid file, {width * 8}-bit wav is not supported: {path}.")
    return np.ascontiguousarray(data.reshape(1, -1)), rate


class YesNoDataset(CorpusDataset):
    """The Yes/No corpus: every ``*.wav`` in ``dataset_dir`` (sorted), named by its eight 0/1 labels
    (``0_1_0_0_1_1_0_0.wav``): columns ``waveform`` (float32), ``sample_rate`` and ``label`` (int32, eight).

    Example:
        >>> import tempfile
        >>> YesNoDataset(tempfile.mkdtemp()).get_dataset_size()
        0
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        items = [os.path.join(dataset_dir, n) for n in sorted(os.listdir(dataset_dir)) if n.endswith(".wav")]
        super().__init__(["waveform", "sample_rate", "label"], items, num_samples, shuffle, sampler, num_shards,
                         shard_id)

    def _row(self, item: Any) -> Row:
        waveform, rate = read_wav(item)
        labels = np.array([int(v) for v in os.path.basename(item)[:-4].split("_")], np.int32)
        return waveform, np.int32(rate), labels


class LJSpeechDataset(CorpusDataset):
    """LJSpeech from ``dataset_dir`` (``metadata.csv``: ``id|transcription|normalized transcription``, and
    ``wavs/<id>.wav``), in the order of the metadata: ``waveform`` (float32), ``sample_rate`` (int32),
    ``transcription`` and ``normalized_transcription`` (strings).

    Example:
        >>> LJSpeechDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        meta = os.path.join(dataset_dir, "metadata.csv")
        if not os.path.isfile(meta):
            raise pipeline_error(f"Invalid file, failed to open LJSpeech metadata file: {os.path.realpath(meta)}")
        with open(meta, encoding="utf-8", newline="") as f:
            items = [r for r in csv.reader(f, delimiter="|", quoting=csv.QUOTE_NONE) if r]
        self._root = dataset_dir
        super().__init__(["waveform", "sample_rate", "transcription", "normalized_transcription"], items,
                         num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        waveform, rate = read_wav(os.path.join(self._root, "wavs", item[0] + ".wav"))
        normalized = item[2] if len(item) > 2 else item[1]
        return waveform, np.int32(rate), np.array(item[1]), np.array(normalized)


class SpeechCommandsDataset(CorpusDataset):
    """Speech Commands from ``dataset_dir`` (one folder per word, files ``<speaker>_nohash_<n>.wav``;
    ``testing_list.txt`` and ``validation_list.txt`` name the test and valid files, ``train`` is the rest;
    ``_background_noise_`` is not read), in sorted path order: ``waveform`` (float32), ``sample_rate`` (int32),
    ``label`` and ``speaker_id`` (strings), ``utterance_number`` (int32).

    Example:
        >>> import tempfile
        >>> SpeechCommandsDataset(tempfile.mkdtemp(), usage="dev")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'valid', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])

        def listed(name: str) -> set:
            path = os.path.join(dataset_dir, name)
            if not os.path.isfile(path):
                return set()
            with open(path, encoding="utf-8") as f:
                return {ln.strip() for ln in f if ln.strip()}
        test, valid = listed("testing_list.txt"), listed("validation_list.txt")
        found = []
        for word in sorted(e.name for e in os.scandir(dataset_dir) if e.is_dir() and e.name != "_background_noise_"):
            found += [f"{word}/{n}" for n in sorted(os.listdir(os.path.join(dataset_dir, word))) if n.endswith(".wav")]
        if usage == "test":
            items = [p for p in found if p in test]
        elif usage == "valid":
            items = [p for p in found if p in valid]
        elif usage == "train":
            items = [p for p in found if p not in test and p not in valid]
        else:
            items = found
        self._root = dataset_dir
        super().__init__(["waveform", "sample_rate", "label", "speaker_id", "utterance_number"], items, num_samples,
                         shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        waveform, rate = read_wav(os.path.join(self._root, item))
        word, name = item.split("/", 1)
        speaker, _, number = name[:-4].partition("_nohash_")
        return waveform, np.int32(rate), np.array(word), np.array(speaker), np.int32(int(number or 0))


_CMU_NAMES = ["aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk", "ksp", "ljm", "lnh", "rms",
              "rxr", "slp", "slt"]


class CMUArcticDataset(CorpusDataset):
    """CMU Arctic speaker ``name`` (default ``'aew'``) from ``dataset_dir/cmu_us_<name>_arctic``
    (``etc/txt.done.data`` lines ``( arctic_a0001 "text" )`` and ``wav/arctic_a0001.wav``, 16 kHz), in the order
    of the listing: ``waveform`` (float32), ``sample_rate`` (uint32), ``transcript`` and ``utterance_id``
    (``a0001``; strings).

    Example:
        >>> import tempfile
        >>> CMUArcticDataset(tempfile.mkdtemp(), name="abc")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Input name is not within the valid set of ['aew', 'ahw', ..., 'slt'].
    """

    def __init__(self, dataset_dir: str, name: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        name = "aew" if name is None else name
        if name not in _CMU_NAMES:
            raise ValueError(f"Input name is not within the valid set of {_CMU_NAMES}.")
        self._root = os.path.join(os.path.realpath(dataset_dir), f"cmu_us_{name}_arctic")
        listing = os.path.join(self._root, "etc", "txt.done.data")
        if not os.path.isfile(listing):
            raise pipeline_error(f"Invalid file, failed to open CMUArctic file: {listing}")
        items = []
        with open(listing, encoding="utf-8") as f:
            for line in f:
                body = line.strip().strip("()").strip()
                if not body:
                    continue
                uid, _, text = body.partition(" ")
                items.append((uid, text.strip().strip('"')))
        super().__init__(["waveform", "sample_rate", "transcript", "utterance_id"], items, num_samples, shuffle,
                         sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        uid, text = item
        path = os.path.join(self._root, "wav", uid + ".wav")
        waveform, rate = read_wav(path)
        if rate != 16000:
            raise pipeline_error(f"Invalid file, sampling rate of CMUArctic wav file must be 16000, file path: {path}")
        return waveform, np.uint32(rate), np.array(text), np.array(uid.split("_", 1)[-1])


_LIBRITTS_USAGES = ["dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
                    "train-other-500", "all"]


class LibriTTSDataset(CorpusDataset):
    """LibriTTS from ``dataset_dir/<usage>/<speaker>/<chapter>/`` (``<speaker>_<chapter>.trans.tsv`` lines
    ``utterance<TAB>original<TAB>normalized`` and ``<utterance>.wav``; ``usage='all'`` reads every part in
    MindSpore's order), speakers and chapters in sorted order: ``waveform`` (float32), ``sample_rate``
    (uint32), ``original_text``, ``normalized_text`` (strings), ``speaker_id``, ``chapter_id`` (uint32),
    ``utterance_id`` (string).

    Example:
        >>> import tempfile
        >>> LibriTTSDataset(tempfile.mkdtemp(), usage="dev")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['dev-clean', 'dev-other', ..., 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, _LIBRITTS_USAGES)
        items = []
        for part in (_LIBRITTS_USAGES[:-1] if usage == "all" else [usage]):
            top = os.path.join(dataset_dir, part)
            if not os.path.isdir(top):
                continue
            for speaker in sorted(e.name for e in os.scandir(top) if e.is_dir()):
                for chapter in sorted(e.name for e in os.scandir(os.path.join(top, speaker)) if e.is_dir()):
                    folder = os.path.join(top, speaker, chapter)
                    tsv = os.path.join(folder, f"{speaker}_{chapter}.trans.tsv")
                    if not os.path.isfile(tsv):
                        continue
                    with open(tsv, encoding="utf-8") as f:
                        for line in f:
                            parts = line.rstrip("\r\n").split("\t")
                            if len(parts) >= 3:
                                items.append((folder, parts[0], parts[1], parts[2]))
        super().__init__(["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id", "chapter_id",
                          "utterance_id"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        folder, uid, original, normalized = item
        waveform, rate = read_wav(os.path.join(folder, uid + ".wav"))
        speaker, chapter = uid.split("_")[:2]
        return (waveform, np.uint32(rate), np.array(original), np.array(normalized), np.uint32(int(speaker)),
                np.uint32(int(chapter)), np.array(uid))
