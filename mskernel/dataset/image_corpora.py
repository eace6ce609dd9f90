"""Image corpora laid out as image files with their labels in folder names or listing files:
``Food101Dataset``, ``SUN397Dataset``, ``OmniglotDataset``, ``RenderedSST2Dataset``, ``SBUDataset``,
``ManifestDataset``, ``Places365Dataset``, ``FlickrDataset`` (captions), ``DIV2KDataset`` (high/low
resolution pairs), ``SemeionDataset`` (digits written as text) and ``CityscapesDataset`` (street scenes
and their annotations).

Images come out as the files' bytes unless ``decode=True`` (RGB HWC uint8).

Example:
    >>> Food101Dataset("/no/such/dir")
    Traceback (most recent call last):
    ...
    ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_file, check_usage, image_column, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["Food101Dataset", "SUN397Dataset", "OmniglotDataset", "RenderedSST2Dataset", "SBUDataset",
           "ManifestDataset", "SemeionDataset", "FlickrDataset", "DIV2KDataset",
           "Places365Dataset", "CityscapesDataset"]

_EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")


def _images(folder: str) -> List[str]:
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if os.path.splitext(n)[1].lower() in _EXTS]


class _Images(CorpusDataset):
    """Items ``(path, label)``; the label column's dtype is set by the subclass."""
    LABEL = np.uint32

    def __init__(self, items: List[Any], decode: bool, num_samples: Optional[int], shuffle: Optional[bool],
                 sampler: Any, num_shards: Optional[int], shard_id: Optional[int], names: Optional[List[str]] = None
                 ) -> None:
        self._decode = decode
        super().__init__(names or ["image", "label"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        label = item[1] if isinstance(item[1], np.ndarray) else np.array(item[1], self.LABEL)
        return image_column(item[0], self._decode), label


class Food101Dataset(_Images):
    """Food-101 from ``dataset_dir`` (``images/<class>/<id>.jpg``, ``meta/{train,test}.txt`` listing
    ``<class>/<id>``; ``usage='all'`` reads train, then test): ``image`` and ``label`` (the class name, a
    string), in the order of the listing.

    Example:
        >>> import tempfile
        >>> Food101Dataset(tempfile.mkdtemp(), usage="valid")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "all"])
        items = []
        for part in (["train", "test"] if usage == "all" else [usage]):
            listing = os.path.join(dataset_dir, "meta", part + ".txt")
            if not os.path.isfile(listing):
                raise pipeline_error(f"Invalid file, failed to open Food101 meta file: {os.path.realpath(listing)}")
            with open(listing, encoding="utf-8") as f:
                for line in f:
                    name = line.strip()
                    if name:
                        items.append((os.path.join(dataset_dir, "images", name + ".jpg"),
                                      np.array(name.split("/")[0])))
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)


class SUN397Dataset(_Images):
    """SUN397 from ``dataset_dir`` (``ClassName.txt`` listing ``/a/abbey`` ..., the images under those
    folders): ``image`` and ``label`` (uint32, the class's line in ``ClassName.txt``), class by class, files in
    sorted order.

    Example:
        >>> SUN397Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: bool = False, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        listing = os.path.join(dataset_dir, "ClassName.txt")
        if not os.path.isfile(listing):
            raise pipeline_error(f"Invalid file, failed to open SUN397 class file: {os.path.realpath(listing)}")
        with open(listing, encoding="utf-8") as f:
            classes = [ln.strip().lstrip("/") for ln in f if ln.strip()]
        items = []
        for label, cls in enumerate(classes):
            folder = os.path.join(dataset_dir, cls)
            if os.path.isdir(folder):
                items += [(p, label) for p in _images(folder)]
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)


class OmniglotDataset(_Images):
    """Omniglot from ``dataset_dir`` (``images_background/<alphabet>/<character>/*.png``, and
    ``images_evaluation``; ``background`` (default True) picks the set): ``image`` and ``label`` (int32, the
    character's index over the set's alphabets and characters in sorted order).

    Example:
        >>> OmniglotDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    LABEL = np.int32

    def __init__(self, dataset_dir: str, background: Optional[bool] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        _check_dir(dataset_dir)
        part = "images_background" if background is None or background else "images_evaluation"
        top = os.path.join(dataset_dir, part)
        items: List[Any] = []
        label = 0
        if os.path.isdir(top):
            for alphabet in sorted(e.name for e in os.scandir(top) if e.is_dir()):
                for char in sorted(e.name for e in os.scandir(os.path.join(top, alphabet)) if e.is_dir()):
                    items += [(p, label) for p in _images(os.path.join(top, alphabet, char))]
                    label += 1
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)


class RenderedSST2Dataset(_Images):
    """Rendered SST-2 from ``dataset_dir`` (``{train,valid,test}/{negative,positive}/*.png``; ``usage`` train,
    val, test or all): ``image`` and ``label`` (uint32: the class folder's index in sorted order).

    Example:
        >>> import tempfile
        >>> RenderedSST2Dataset(tempfile.mkdtemp(), usage="dev")
        Traceback (most recent call last):
        ...
        ValueError: Input  is not within the valid set of ['val', 'all', 'train', 'test'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = "all" if usage is None else usage
        if usage not in ("val", "all", "train", "test"):  # the wheel's text, its missing word included
            raise ValueError("Input  is not within the valid set of ['val', 'all', 'train', 'test'].")
        parts = ["train", "valid", "test"] if usage == "all" else [{"val": "valid"}.get(usage, usage)]
        items: List[Any] = []
        for part in parts:
            top = os.path.join(dataset_dir, part)
            if not os.path.isdir(top):
                continue
            for label, cls in enumerate(sorted(e.name for e in os.scandir(top) if e.is_dir())):
                items += [(p, label) for p in _images(os.path.join(top, cls))]
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)


class SBUDataset(_Images):
    """SBU captioned photos from ``dataset_dir`` (``SBU_captioned_photo_dataset_captions.txt`` and
    ``..._urls.txt``, line by line; the images in ``sbu_images`` named after their URLs,
    ``m_<dir>_<file>``): ``image`` and ``caption`` (string), for the photos whose file is present.

    Example:
        >>> SBUDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: bool = False, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)

        def lines(name: str) -> List[str]:
            path = os.path.join(dataset_dir, name)
            if not os.path.isfile(path):
                raise pipeline_error(f"Invalid file, failed to open SBU file: {os.path.realpath(path)}")
            with open(path, encoding="utf-8") as f:
                return [ln.rstrip("\r\n") for ln in f]
        captions = lines("SBU_captioned_photo_dataset_captions.txt")
        urls = lines("SBU_captioned_photo_dataset_urls.txt")
        items = []
        for url, caption in zip(urls, captions):
            parts = url.strip().split("/")
            if len(parts) < 2:
                continue
            path = os.path.join(dataset_dir, "sbu_images", f"m_{parts[-2]}_{parts[-1]}")
            if os.path.isfile(path):
                items.append((path, np.array(caption)))
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id, ["image", "caption"])


class ManifestDataset(_Images):
    """Images listed in a manifest file (JSON lines: ``source`` path, ``usage``, ``annotation`` names): the
    lines of ``usage`` (train, eval or inference), ``image`` and ``label`` (int32; an array for an image with
    several labels), the names indexed in sorted order over those lines unless ``class_indexing`` is given.

    Example:
        >>> ManifestDataset("/no/such.manifest")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such.manifest does not exist or permission denied!
    """

    LABEL = np.int32

    def __init__(self, dataset_file: str, usage: str = "train", num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 class_indexing: Optional[Dict[str, int]] = None, decode: bool = False,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        check_file(dataset_file)
        usage = ("train" if usage is None else usage).lower()
        entries = []
        with open(dataset_file, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    doc = json.loads(line)
                    if doc.get("usage", "").lower() == usage:
                        entries.append((doc["source"], [a["name"] for a in doc.get("annotation", [])]))
        names = sorted({n for _, labels in entries for n in labels})
        self._indexing = dict(class_indexing) if class_indexing else {n: k for k, n in enumerate(names)}
        items = []
        for source, labels in entries:
            ids = [self._indexing[n] for n in labels if n in self._indexing]
            items.append((source, np.array(ids[0] if len(ids) == 1 else ids, np.int32)))
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)

    def get_class_indexing(self) -> Dict[str, int]:
        """The label name → index map.

        Example:
            >>> import tempfile
            >>> p = os.path.join(tempfile.mkdtemp(), "m.json"); _ = open(p, "w").write("")
            >>> ManifestDataset(p).get_class_indexing()
            {}
        """
        return dict(self._indexing)


class SemeionDataset(CorpusDataset):
    """Semeion handwritten digits from ``dataset_dir`` (``semeion.data``: per line 256 pixel values then a
    one-hot of 10): ``image`` (16, 16) uint8 (the 0/1 pixels) and ``label`` uint32.

    Example:
        >>> SemeionDataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        path = os.path.join(dataset_dir, "semeion.data")
        if not os.path.isfile(path):
            raise pipeline_error(f"Invalid file, failed to open Semeion data file: {os.path.realpath(path)}")
        items = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                vals = line.split()
                if len(vals) < 266:
                    continue
                image = np.array([float(v) for v in vals[:256]]).astype(np.uint8).reshape(16, 16)
                items.append((image, np.uint32(int(np.argmax([int(v) for v in vals[256:266]])))))
        super().__init__(["image", "label"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        return item


class FlickrDataset(_Images):
    """Flickr8k/30k: the images in ``dataset_dir`` and ``annotation_file`` (lines ``<image>#<n><TAB>caption``):
    a row per image in sorted name order, ``image`` and ``annotation`` (its captions, a string array, in file
    order).

    Example:
        >>> import tempfile
        >>> FlickrDataset(tempfile.mkdtemp(), "/no/such/token.txt")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such/token.txt does not exist or permission denied!
    """

    def __init__(self, dataset_dir: str, annotation_file: str, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None,
                 decode: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        check_file(annotation_file)
        captions: Dict[str, List[str]] = {}
        with open(annotation_file, encoding="utf-8") as f:
            for line in f:
                name, _, text = line.rstrip("\r\n").partition("\t")
                if name:
                    captions.setdefault(name.split("#")[0], []).append(text)
        items = [(os.path.join(dataset_dir, n), np.array(captions[n])) for n in sorted(captions)]
        super().__init__(items, bool(decode), num_samples, shuffle, sampler, num_shards, shard_id,
                         ["image", "annotation"])


_DIV2K_SUFFIX = {"mild": "m", "difficult": "d", "wild": "w"}


class DIV2KDataset(CorpusDataset):
    """DIV2K from ``dataset_dir``: ``DIV2K_<usage>_HR/0001.png`` with its low-resolution version,
    ``DIV2K_<usage>_LR_<downgrade>/X<scale>/0001x<scale>.png`` (bicubic, unknown) or
    ``DIV2K_<usage>_LR_<downgrade>/0001x4<m|d|w>.png`` (mild, difficult, wild; scale 4); ``usage`` train, valid
    or all (train then valid): columns ``hr_image`` and ``lr_image``, in sorted order.

    Example:
        >>> import tempfile
        >>> DIV2KDataset(tempfile.mkdtemp(), downgrade="mild", scale=2)
        Traceback (most recent call last):
        ...
        ValueError: DIV2KNode: mild downgrade requires scale equal to 4.
    """

    def __init__(self, dataset_dir: str, usage: str = "train", downgrade: str = "bicubic", scale: int = 2,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "valid", "all"], default="train")
        downgrades = ["bicubic", "unknown", "mild", "difficult", "wild"]
        if downgrade not in downgrades:
            raise ValueError(f"Input downgrade is not within the valid set of {downgrades}.")
        if scale not in (2, 3, 4, 8):
            raise ValueError("Input scale is not within the valid set of [2, 3, 4, 8].")
        if scale == 8 and downgrade != "bicubic":
            raise ValueError("DIV2KNode: scale equal to 8 is allowed only in bicubic downgrade.")
        if downgrade in _DIV2K_SUFFIX and scale != 4:
            raise ValueError(f"DIV2KNode: {downgrade} downgrade requires scale equal to 4.")
        items = []
        for part in (["train", "valid"] if usage == "all" else [usage]):
            hr_dir = os.path.join(dataset_dir, f"DIV2K_{part}_HR")
            lr_dir = os.path.join(dataset_dir, f"DIV2K_{part}_LR_{downgrade}")
            if not os.path.isdir(hr_dir):
                raise pipeline_error(f"Invalid path, {os.path.realpath(hr_dir)} does not exist.")
            for path in _images(hr_dir):
                stem = os.path.splitext(os.path.basename(path))[0]
                if downgrade in _DIV2K_SUFFIX:
                    low = os.path.join(lr_dir, f"{stem}x4{_DIV2K_SUFFIX[downgrade]}.png")
                else:
                    low = os.path.join(lr_dir, f"X{scale}", f"{stem}x{scale}.png")
                items.append((path, low))
        self._decode = bool(decode)
        super().__init__(["hr_image", "lr_image"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        return image_column(item[0], self._decode), image_column(item[1], self._decode)


class Places365Dataset(_Images):
    """Places365 from ``dataset_dir`` (``places365_train_standard.txt``, ``places365_train_challenge.txt``,
    ``places365_val.txt`` listing ``<image> <label>``; the images under ``data_256_<standard|challenge>`` and
    ``val_256``, or ``data_large_*``/``val_large`` with ``small=False``): ``image`` and ``label`` (uint32), in
    the order of the listing.

    Example:
        >>> import tempfile
        >>> Places365Dataset(tempfile.mkdtemp(), usage="train")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train-standard', 'train-challenge', 'val'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, small: bool = True, decode: bool = False,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train-standard", "train-challenge", "val"], default="train-standard")
        size = "256" if small else "large"
        if usage == "val":
            listing, folder = "places365_val.txt", f"val_{size}"
        else:
            kind = usage.split("-")[1]
            listing, folder = f"places365_train_{kind}.txt", f"data_{size}_{kind}"
        path = os.path.join(dataset_dir, listing)
        if not os.path.isfile(path):
            raise pipeline_error(f"Invalid file, failed to open Places365 file: {os.path.realpath(path)}")
        items = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2:
                    items.append((os.path.join(dataset_dir, folder, parts[0].lstrip("/")), int(parts[1])))
        super().__init__(items, decode, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        if not os.path.isfile(item[0]):
            raise pipeline_error(f"Invalid file path, Places365 image: {item[0]} does not exists.")
        return super()._row(item)


def _check_str(value: Any, valid: List[str], name: str) -> str:
    if value not in valid:
        raise ValueError(f"Input {name} is not within the valid set of {valid}.")
    return value


_CITYSCAPES_FILES = {"instance": "instanceIds.png", "semantic": "labelIds.png", "color": "color.png",
                     "polygon": "polygons.json"}


class CityscapesDataset(CorpusDataset):
    """Cityscapes from ``dataset_dir`` (``leftImg8bit/<split>/<city>/<id>_leftImg8bit.png`` and
    ``gtFine``/``gtCoarse`` beside it; ``usage`` train, test, val (fine) or train, train_extra, val (coarse), or
    all of them): columns ``image`` and ``task``: the annotation image (``instanceIds``, ``labelIds`` or
    ``color``; decoded to RGB with ``decode=True``), or for ``task='polygon'`` the JSON as a compact string with
    sorted keys; cities and files in sorted order.

    Example:
        >>> import tempfile
        >>> CityscapesDataset(tempfile.mkdtemp(), task="depth")
        Traceback (most recent call last):
        ...
        ValueError: Input task is not within the valid set of ['instance', 'semantic', 'polygon', 'color'].
    """

    def __init__(self, dataset_dir: str, usage: str = "train", quality_mode: str = "fine", task: str = "instance",
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        quality_mode = _check_str(quality_mode or "fine", ["fine", "coarse"], "quality_mode")
        splits = ["train", "test", "val"] if quality_mode == "fine" else ["train", "train_extra", "val"]
        usage = _check_str(usage or "train", splits + ["all"], "usage")
        task = _check_str(task or "instance", ["instance", "semantic", "polygon", "color"], "task")
        gt = "gtFine" if quality_mode == "fine" else "gtCoarse"
        items = []
        for split in (splits if usage == "all" else [usage]):
            top = os.path.join(dataset_dir, "leftImg8bit", split)
            if not os.path.isdir(top):
                raise pipeline_error(f"Invalid path, Cityscapes Dataset image dir: {os.path.realpath(top)} is not a "
                                     f"directory path.")
            for city in sorted(os.listdir(top)):
                for name in sorted(os.listdir(os.path.join(top, city))):
                    stem = name.replace("_leftImg8bit.png", "")
                    note = os.path.join(dataset_dir, gt, split, city, f"{stem}_{gt}_{_CITYSCAPES_FILES[task]}")
                    items.append((os.path.join(top, city, name), note))
        self._decode, self._polygon = bool(decode), task == "polygon"
        super().__init__(["image", "task"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        image = image_column(item[0], self._decode)
        if self._polygon:
            with open(item[1], encoding="utf-8") as f:
                return image, np.array(json.dumps(json.load(f), separators=(",", ":"), sort_keys=True))
        return image, image_column(item[1], self._decode)
