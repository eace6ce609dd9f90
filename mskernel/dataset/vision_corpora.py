"""Image-classification corpora read from their published files: ``CelebADataset`` (attribute lists),
``SVHNDataset`` (MATLAB ``.mat`` files, read with scipy), ``STL10Dataset`` (binary column-major arrays) and
``Caltech256Dataset`` (one folder per class), ``Caltech101Dataset`` (folders and ``.mat`` contours) and
``Flowers102Dataset`` (``.mat`` labels and splits).

Example:
    >>> STL10Dataset("/no/such/dir")
    Traceback (most recent call last):
    ...
    ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
"""
from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_usage, image_column, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["CelebADataset", "SVHNDataset", "STL10Dataset", "Caltech256Dataset", "Caltech101Dataset",
           "Flowers102Dataset"]

_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")


class CelebADataset(CorpusDataset):
    """CelebA from ``dataset_dir`` (the images and ``list_attr_celeba.txt``; ``usage`` other than ``'all'`` also
    reads ``list_eval_partition.txt``, 0 train, 1 valid, 2 test): columns ``image`` and ``attr`` (uint32, the
    attributes as 0/1), in the order of the attribute file; ``extensions`` keeps only those files.

    Example:
        >>> import tempfile
        >>> CelebADataset(tempfile.mkdtemp(), usage="dev")
        Traceback (most recent call last):
        ...
        ValueError: usage should be 'all', 'train', 'valid' or 'test'.
    """

    def __init__(self, dataset_dir: str, num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None,
                 usage: str = "all", sampler: Any = None, decode: bool = False,
                 extensions: Optional[Sequence[str]] = None, num_samples: Optional[int] = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None,
                 decrypt: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = "all" if usage is None else usage
        if usage not in ("all", "train", "valid", "test"):
            raise ValueError("usage should be 'all', 'train', 'valid' or 'test'.")
        keep = None
        if usage != "all":
            partition = os.path.join(dataset_dir, "list_eval_partition.txt")
            if not os.path.exists(partition):
                raise RuntimeError("Partition file can not be found when usage is not 'all'.")
            want = {"train": "0", "valid": "1", "test": "2"}[usage]
            with open(partition, encoding="utf-8") as f:
                keep = {p[0] for p in (ln.split() for ln in f) if len(p) >= 2 and p[1] == want}
        attr_file = os.path.join(dataset_dir, "list_attr_celeba.txt")
        if not os.path.isfile(attr_file):
            raise pipeline_error(f"Invalid file, failed to open CelebA attr file: {attr_file}")
        with open(attr_file, encoding="utf-8") as f:
            lines = f.read().splitlines()[2:]
        exts = None if not extensions else {e.lower() for e in extensions}
        items = []
        for line in lines:
            parts = line.split()
            if not parts or (keep is not None and parts[0] not in keep):
                continue
            if exts is not None and os.path.splitext(parts[0])[1].lower() not in exts:
                continue
            attrs = np.array([1 if int(v) == 1 else 0 for v in parts[1:]], np.uint32)
            items.append((os.path.join(dataset_dir, parts[0]), attrs))
        self._decode = decode
        super().__init__(["image", "attr"], items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        return image_column(item[0], self._decode), item[1]


class SVHNDataset(CorpusDataset):
    """SVHN from ``dataset_dir`` (``train_32x32.mat``, ``test_32x32.mat``, ``extra_32x32.mat``; ``usage='all'``
    reads the three in that order): ``image`` (32, 32, 3) uint8 and ``label`` uint32 (the files' digit 10 is 0).

    Example:
        >>> import tempfile
        >>> SVHNDataset(tempfile.mkdtemp(), usage="valid")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'extra', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: int = 1, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None) -> None:
        from scipy.io import loadmat
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "extra", "all"])
        images, labels = [], []
        for part in (["train", "test", "extra"] if usage == "all" else [usage]):
            mat = loadmat(os.path.join(os.path.realpath(dataset_dir), part + "_32x32.mat"))
            images.append(np.transpose(mat["X"], (3, 0, 1, 2)))
            lab = mat["y"].astype(np.uint32).reshape(-1)
            labels.append(np.where(lab == 10, 0, lab).astype(np.uint32))
        self._images = np.concatenate(images)
        lab_all = np.concatenate(labels)
        super().__init__(["image", "label"], list(range(len(lab_all))), num_samples, shuffle, sampler, num_shards,
                         shard_id)
        self._label_values = lab_all

    def _row(self, item: Any) -> Row:
        return self._images[item], self._label_values[item]


class STL10Dataset(CorpusDataset):
    """STL-10 from ``dataset_dir`` (``train_X.bin``/``train_y.bin``, ``test_X.bin``/``test_y.bin``,
    ``unlabeled_X.bin``; ``usage`` train, test, unlabeled, train+unlabeled or all, which reads test, train and
    unlabeled in that order): ``image`` (96, 96, 3) uint8
    and ``label`` int32 (the files' 1..10 as 0..9; -1 for the unlabeled images).

    Example:
        >>> import tempfile
        >>> STL10Dataset(tempfile.mkdtemp(), usage="valid")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'unlabeled', 'train+unlabeled', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "unlabeled", "train+unlabeled", "all"])
        parts = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
                 "train+unlabeled": ["train", "unlabeled"], "all": ["test", "train", "unlabeled"]}[usage]
        images, labels = [], []
        for part in parts:
            xfile = os.path.join(dataset_dir, part + "_X.bin")
            if not os.path.isfile(xfile):
                raise pipeline_error(f"Invalid file, failed to find STL10 image file: {os.path.realpath(xfile)}")
            raw = np.fromfile(xfile, np.uint8)
            imgs = raw.reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)
            images.append(imgs)
            if part == "unlabeled":
                labels.append(np.full(len(imgs), -1, np.int32))
            else:
                labels.append(np.fromfile(os.path.join(dataset_dir, part + "_y.bin"), np.uint8).astype(np.int32) - 1)
        self._images, self._values = np.concatenate(images), np.concatenate(labels)
        super().__init__(["image", "label"], list(range(len(self._values))), num_samples, shuffle, sampler,
                         num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        return np.ascontiguousarray(self._images[item]), self._values[item]


class Caltech256Dataset(CorpusDataset):
    """Caltech-256 from ``dataset_dir`` (one folder per class, ``001.ak47`` ...): ``image`` and ``label`` (int32,
    the folder's index in sorted order); files in sorted order.

    Example:
        >>> Caltech256Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: bool = False, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        _check_dir(dataset_dir)
        classes = sorted(e.name for e in os.scandir(dataset_dir) if e.is_dir())
        items: List[Any] = []
        for label, cls in enumerate(classes):
            folder = os.path.join(dataset_dir, cls)
            items += [(os.path.join(folder, n), label) for n in sorted(os.listdir(folder))
                      if os.path.splitext(n)[1].lower() in _IMAGE_EXTENSIONS]
        self._decode = decode
        super().__init__(["image", "label"], items, num_samples, shuffle, sampler, num_shards, shard_id,
                         labels=[i[1] for i in items])

    def _row(self, item: Any) -> Row:
        return image_column(item[0], self._decode), np.int32(item[1])


def _check_str(value: Any, valid: Sequence[str], name: str) -> None:
    if not isinstance(value, str):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'str'>], but got {type(value)}.")
    if value not in valid:
        raise ValueError(f"Input {name} is not within the valid set of {list(valid)}.")


class Caltech101Dataset(CorpusDataset):
    """Caltech-101 from ``dataset_dir`` (``101_ObjectCategories/<class>/image_0001.jpg`` ...; contours in
    ``Annotations/<class>/annotation_0001.mat``, where Faces, Faces_easy, Motorbikes and airplanes are named
    Faces_2, Faces_3, Motorbikes_16 and Airplanes_Side_2; ``BACKGROUND_Google`` is not a class).
    ``target_type`` ``'category'`` (default): ``image``, ``category`` (int64, the class's sorted index);
    ``'annotation'``: ``image``, ``annotation`` (the ``obj_contour`` array); ``'all'``: the three.

    Example:
        >>> import tempfile
        >>> Caltech101Dataset(tempfile.mkdtemp(), target_type="box")
        Traceback (most recent call last):
        ...
        ValueError: Input target_type is not within the valid set of ['category', 'annotation', 'all'].
    """

    _ANNOTATION_NAMES = {"Faces": "Faces_2", "Faces_easy": "Faces_3", "Motorbikes": "Motorbikes_16",
                         "airplanes": "Airplanes_Side_2"}

    def __init__(self, dataset_dir: str, target_type: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: int = 1, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None) -> None:
        _check_dir(dataset_dir)
        target_type = "category" if target_type is None else target_type
        _check_str(target_type, ["category", "annotation", "all"], "target_type")
        root = os.path.realpath(dataset_dir)
        self._images_dir = os.path.join(root, "101_ObjectCategories")
        self._notes_dir = os.path.join(root, "Annotations")
        self._classes = [c for c in sorted(os.listdir(self._images_dir)) if c != "BACKGROUND_Google"]
        items = []
        for label, cls in enumerate(self._classes):
            folder = os.path.join(self._images_dir, cls)
            if os.path.isdir(folder) and os.access(folder, os.R_OK):
                items += [(label, k) for k in range(1, len(os.listdir(folder)) + 1)]
        self._target, self._decode = target_type, decode
        names = {"category": ["image", "category"], "annotation": ["image", "annotation"],
                 "all": ["image", "category", "annotation"]}[target_type]
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        label, k = item
        cls = self._classes[label]
        path = os.path.join(self._images_dir, cls, f"image_{k:04d}.jpg")
        if not os.path.exists(path):
            raise ValueError(f"The image file {path} does not exist or permission denied!")
        image = image_column(path, self._decode)
        if self._target == "category":
            return image, np.int64(label)
        from scipy.io import loadmat
        note = os.path.join(self._notes_dir, self._ANNOTATION_NAMES.get(cls, cls), f"annotation_{k:04d}.mat")
        if not os.path.exists(note):
            raise ValueError(f"The annotation file {note} does not exist or permission denied!")
        contour = loadmat(note)["obj_contour"]
        return (image, contour) if self._target == "annotation" else (image, np.int64(label), contour)


class Flowers102Dataset(CorpusDataset):
    """Oxford 102 Flowers from ``dataset_dir`` (``jpg/image_00001.jpg`` ..., ``imagelabels.mat``, ``setid.mat``
    with the ``trnid``/``tstid``/``valid`` splits; ``usage='all'`` is train, test, valid in that order;
    ``task='Segmentation'`` adds ``segmim/segmim_00001.jpg``): ``image``, [``segmentation``,] ``label`` (uint32,
    0..101).

    Example:
        >>> Flowers102Dataset("/no/such/dir")
        Traceback (most recent call last):
        ...
        ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
    """

    def __init__(self, dataset_dir: str, task: str = "Classification", usage: str = "all",
                 num_samples: Optional[int] = None, num_parallel_workers: int = 1, shuffle: Optional[bool] = None,
                 decode: bool = False, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None) -> None:
        from scipy.io import loadmat

        from mskernel.dataset.corpus import check_file
        _check_dir(dataset_dir)
        _check_dir(os.path.join(dataset_dir, "jpg"))
        check_file(os.path.join(dataset_dir, "imagelabels.mat"))
        check_file(os.path.join(dataset_dir, "setid.mat"))
        if usage is not None:
            _check_str(usage, ["train", "valid", "test", "all"], "usage")
        if task is not None:
            _check_str(task, ["Classification", "Segmentation"], "task")
        if task == "Segmentation":
            _check_dir(os.path.join(dataset_dir, "segmim"))
        self._root = os.path.realpath(dataset_dir)
        self._task, self._decode = task or "Classification", decode
        labels = loadmat(os.path.join(self._root, "imagelabels.mat"))["labels"][0]
        self._flower_labels = (labels - 1).astype(np.uint32)
        setid = loadmat(os.path.join(self._root, "setid.mat"))
        keys = {"train": ["trnid"], "test": ["tstid"], "valid": ["valid"], "all": ["trnid", "tstid", "valid"]}
        items = [int(i) for key in keys[usage or "all"] for i in setid[key][0].tolist()]
        names = ["image", "label"] if self._task == "Classification" else ["image", "segmentation", "label"]
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _file(self, folder: str, stem: str, index: int) -> np.ndarray:
        path = os.path.join(self._root, folder, f"{stem}_{index:05d}.jpg")
        if not os.path.exists(path):
            raise RuntimeError("Can not find " + ("image" if folder == "jpg" else "segmentation") + " file: " + path)
        return image_column(path, self._decode)

    def _row(self, item: Any) -> Row:
        image, label = self._file("jpg", "image", item), self._flower_labels[item - 1]
        if self._task == "Segmentation":
            return image, self._file("segmim", "segmim", item), label
        return image, label
