"""Detection and segmentation corpora: ``VOCDataset`` (PASCAL VOC's folders and XML annotations) and
``CocoDataset`` (COCO's JSON annotation files), ``WIDERFaceDataset`` (face boxes) and ``KITTIDataset`` (3-D
object labels), read from local files.

Boxes come out as float32 ``[x, y, width, height]`` rows, one per object, with their labels as ``(n, 1)``
uint32 columns, as MindSpore's readers give them; images are the files' bytes unless ``decode=True``.

Example:
    >>> VOCDataset("/no/such/dir")
    Traceback (most recent call last):
    ...
    ValueError: The folder /no/such/dir does not exist or is not a directory or permission denied!
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Optional

import numpy as np

from mskernel.dataset.corpus import CorpusDataset, check_file, image_column, pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.sources import _check_dir

__all__ = ["VOCDataset", "CocoDataset", "WIDERFaceDataset", "KITTIDataset"]


def _column(values: List[Any], dtype: Any, width: int = 1) -> np.ndarray:
    return np.array(values, dtype).reshape(len(values), width)


class VOCDataset(CorpusDataset):
    """PASCAL VOC from ``dataset_dir`` (``Annotations/``, ``ImageSets/{Main,Segmentation}/<usage>.txt``,
    ``JPEGImages/``, ``SegmentationClass/``). ``task='Detection'``: columns ``image``, ``bbox`` (float32
    ``[xmin, ymin, xmax - xmin, ymax - ymin]`` per object), ``label``, ``difficult``, ``truncate`` (uint32,
    ``(n, 1)``); the labels index the object names in sorted order unless ``class_indexing`` gives them (objects
    of other names are then left out, and an image left without objects too). ``task='Segmentation'``: ``image``
    and ``target`` (the ``SegmentationClass`` PNG). ``extra_metadata=True`` adds ``_meta-filename`` (the image
    id), which the iterators show only once renamed.

    Example:
        >>> import tempfile
        >>> root = tempfile.mkdtemp()
        >>> VOCDataset(root, task="Detection")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: The file .../ImageSets/Main/train.txt does not exist or permission denied!
    """

    def __init__(self, dataset_dir: str, task: str = "Segmentation", usage: str = "train",
                 class_indexing: Optional[Dict[str, int]] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None, extra_metadata: bool = False, decrypt: Any = None) -> None:
        _check_dir(dataset_dir)
        task = "Segmentation" if task is None else task
        usage = "train" if usage is None else usage
        root = os.path.realpath(dataset_dir)
        if task == "Segmentation":
            if class_indexing is not None:
                raise ValueError("class_indexing is not supported in Segmentation task.")
            listing = os.path.join(root, "ImageSets", "Segmentation", usage + ".txt")
        elif task == "Detection":
            listing = os.path.join(root, "ImageSets", "Main", usage + ".txt")
        else:
            raise ValueError("Invalid task : " + str(task) + ".")
        check_file(listing)
        with open(listing, encoding="utf-8") as f:
            ids = [line.strip() for line in f if line.strip()]
        self._root, self._task, self._decode, self._decrypt = root, task, decode, decrypt
        names = ["image", "target"] if task == "Segmentation" else ["image", "bbox", "label", "difficult", "truncate"]
        items: List[Any] = ids
        self._indexing: Dict[str, int] = {}
        if task == "Detection":
            objects = {i: self._objects(i) for i in ids}
            if class_indexing:
                self._indexing = dict(class_indexing)
                objects = {i: [o for o in objs if o[0] in self._indexing] for i, objs in objects.items()}
            else:
                found = sorted({o[0] for objs in objects.values() for o in objs})
                self._indexing = {n: k for k, n in enumerate(found)}
            items = [(i, objects[i]) for i in ids if objects[i]]
        if extra_metadata:
            names.append("_meta-filename")
        self._meta = extra_metadata
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def _objects(self, image_id: str) -> List[tuple]:
        path = os.path.join(self._root, "Annotations", image_id + ".xml")
        try:
            tree = ET.parse(path).getroot()
        except (OSError, ET.ParseError):
            raise pipeline_error(f"Invalid file, failed to load xml file: {path}") from None
        out = []
        for obj in tree.iter("object"):
            box = obj.find("bndbox")
            if box is None:
                raise pipeline_error(f"Invalid data, bndbox dismatch in {path}")

            def num(node: Any, tag: str) -> float:
                child = node.find(tag)
                return float(child.text) if child is not None and child.text else 0.0
            x1, y1, x2, y2 = (num(box, t) for t in ("xmin", "ymin", "xmax", "ymax"))
            out.append((obj.findtext("name", "").strip(), x1, y1, x2 - x1, y2 - y1,
                        int(num(obj, "difficult")), int(num(obj, "truncated"))))
        return out

    def get_class_indexing(self) -> Dict[str, int]:
        """The object name → label map (``Detection`` only).

        Example:
            >>> import tempfile
            >>> root = tempfile.mkdtemp(); os.makedirs(os.path.join(root, "ImageSets", "Segmentation"))
            >>> _ = open(os.path.join(root, "ImageSets", "Segmentation", "train.txt"), "w").write("")
            >>> VOCDataset(root).get_class_indexing()
            Traceback (most recent call last):
            ...
            NotImplementedError: Only 'Detection' support get_class_indexing.
        """
        if self._task != "Detection":
            raise NotImplementedError("Only 'Detection' support get_class_indexing.")
        return dict(self._indexing)

    def _image(self, image_id: str) -> np.ndarray:
        path = os.path.join(self._root, "JPEGImages", image_id + ".jpg")
        if self._decrypt is not None:
            data = np.frombuffer(self._decrypt(path), np.uint8)
            return image_column_bytes(data, self._decode)
        return image_column(path, self._decode)

    def _row(self, item: Any) -> Row:
        if self._task == "Segmentation":
            row: Row = (self._image(item),
                        image_column(os.path.join(self._root, "SegmentationClass", item + ".png"), self._decode))
            image_id = item
        else:
            image_id, objs = item
            row = (self._image(image_id), np.array([o[1:5] for o in objs], np.float32),
                   _column([self._indexing[o[0]] for o in objs], np.uint32),
                   _column([o[5] for o in objs], np.uint32), _column([o[6] for o in objs], np.uint32))
        return row + ((np.array(image_id),) if self._meta else ())


def image_column_bytes(data: np.ndarray, decode: bool) -> np.ndarray:
    from mskernel.dataset.image_folder import decode_image
    return decode_image(data) if decode else np.asarray(data, np.uint8)


_COCO_COLUMNS = {"Detection": ["image", "bbox", "category_id", "iscrowd"],
                 "Stuff": ["image", "segmentation", "iscrowd"],
                 "Keypoint": ["image", "keypoints", "num_keypoints"],
                 "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
                 "Captioning": ["image", "captions"]}


class CocoDataset(CorpusDataset):
    """COCO from ``dataset_dir`` (the images) and ``annotation_file`` (the JSON). Each image with annotations
    is a row, in the order of the file's ``images``; the columns depend on ``task``: ``Detection`` (``bbox``
    float32 ``[x, y, w, h]``, ``category_id``, ``iscrowd``), ``Stuff`` (``segmentation``: each polygon, or an
    RLE's ``counts`` for a crowd, as a float32 row padded with -1; ``iscrowd``), ``Keypoint`` (``keypoints``
    float32, ``num_keypoints``), ``Panoptic`` (from ``segments_info``: ``bbox``, ``category_id``, ``iscrowd``,
    ``area``) and ``Captioning`` (``captions``, strings); integer columns are uint32 ``(n, 1)``.

    Example:
        >>> import tempfile
        >>> CocoDataset(tempfile.gettempdir(), "/no/such.json")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such.json does not exist or permission denied!
    """

    def __init__(self, dataset_dir: str, annotation_file: str, task: str = "Detection",
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, decode: bool = False, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None,
                 extra_metadata: bool = False, decrypt: Any = None) -> None:
        _check_dir(dataset_dir)
        check_file(annotation_file)
        task = "Detection" if task is None else task
        if task not in _COCO_COLUMNS:
            raise ValueError(f"Invalid task type: {task}.")
        with open(annotation_file, encoding="utf-8") as f:
            doc = json.load(f)
        self._root, self._task, self._decode, self._meta = dataset_dir, task, decode, extra_metadata
        self._file = os.path.realpath(annotation_file)
        per_image: Dict[Any, List[Any]] = {}
        if task == "Panoptic":
            for ann in doc.get("annotations", []):
                per_image.setdefault(ann["image_id"], []).extend(ann.get("segments_info", []))
            self._indexing = {c["name"]: [c["id"], c.get("isthing", 0)] for c in doc.get("categories", [])}
        else:
            for ann in doc.get("annotations", []):
                per_image.setdefault(ann["image_id"], []).append(ann)
            self._indexing = {c["name"]: [c["id"]] for c in doc.get("categories", [])}
        items = [(img["file_name"], per_image[img["id"]]) for img in doc.get("images", []) if per_image.get(img["id"])]
        names = list(_COCO_COLUMNS[task]) + (["_meta-filename"] if extra_metadata else [])
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    def get_class_indexing(self) -> Dict[str, List[int]]:
        """The category name → ``[id]`` (``Detection``) or ``[id, isthing]`` (``Panoptic``) map.

        Example:
            >>> import tempfile, json
            >>> p = os.path.join(tempfile.mkdtemp(), "a.json")
            >>> json.dump({"images": [], "annotations": [], "categories": [{"id": 3, "name": "cat"}]}, open(p, "w"))
            >>> CocoDataset(os.path.dirname(p), p).get_class_indexing()
            {'cat': [3]}
        """
        if self._task not in ("Detection", "Panoptic"):
            raise NotImplementedError("Only 'Detection' and 'Panoptic' support get_class_indexing.")
        return {k: list(v) for k, v in self._indexing.items()}

    def _segmentation(self, anns: List[Any]) -> np.ndarray:
        rows: List[List[float]] = []
        for ann in anns:
            seg = ann.get("segmentation")
            if ann.get("iscrowd", 0):
                if not isinstance(seg, dict) or "counts" not in seg:
                    raise pipeline_error(f"Invalid annotation, the attribute of 'counts' is missing in annotation "
                                         f"file: {self._file}.")
                rows.append([float(v) for v in seg["counts"]])
            else:
                rows += [[float(v) for v in poly] for poly in (seg or [])]
        width = max((len(r) for r in rows), default=0)
        return np.array([r + [-1.0] * (width - len(r)) for r in rows], np.float32).reshape(len(rows), width)

    def _row(self, item: Any) -> Row:
        file_name, anns = item
        image = image_column(os.path.join(self._root, file_name), self._decode)
        task = self._task
        if task in ("Detection", "Panoptic"):
            row: Row = (image, np.array([a["bbox"] for a in anns], np.float32).reshape(len(anns), 4),
                        _column([a["category_id"] for a in anns], np.uint32),
                        _column([a.get("iscrowd", 0) for a in anns], np.uint32))
            if task == "Panoptic":
                row += (_column([a.get("area", 0) for a in anns], np.uint32),)
        elif task == "Stuff":
            row = (image, self._segmentation(anns), _column([a.get("iscrowd", 0) for a in anns], np.uint32))
        elif task == "Keypoint":
            row = (image, np.array([a["keypoints"] for a in anns], np.float32).reshape(len(anns), -1),
                   _column([a.get("num_keypoints", 0) for a in anns], np.uint32))
        else:
            row = (image, np.array([a["caption"] for a in anns]).reshape(len(anns), 1))
        return row + ((np.array(os.path.splitext(file_name)[0]),) if self._meta else ())


_WIDER_ATTRS = ["blur", "expression", "illumination", "occlusion", "pose", "invalid"]


class WIDERFaceDataset(CorpusDataset):
    """WIDER FACE from ``dataset_dir`` (``WIDER_{train,val,test}/images/<event>/<image>.jpg``, boxes in
    ``wider_face_split/wider_face_{train,val}_bbx_gt.txt``: a file name, a count, then per face ``x y w h`` and
    six attributes; ``usage`` train, valid, test or all): a row per image in sorted path order, ``image``,
    ``bbox`` (int32 ``(n, 4)``) and ``blur``, ``expression``, ``illumination``, ``occlusion``, ``pose``,
    ``invalid`` (int32 ``(n,)``, the six numbers in that order); ``usage='test'`` gives ``image`` only, in the
    order of ``wider_face_test_filelist.txt``.

    Example:
        >>> import tempfile
        >>> WIDERFaceDataset(tempfile.mkdtemp(), usage="dev")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test', 'valid', 'all'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        from mskernel.dataset.corpus import check_usage
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test", "valid", "all"])
        self._decode, self._test = decode, usage == "test"
        items: List[Any] = []
        if usage == "test":
            listing = os.path.join(dataset_dir, "wider_face_split", "wider_face_test_filelist.txt")
            if not os.path.isfile(listing):
                raise pipeline_error(f"Invalid file, failed to open WIDERFace file list: {os.path.realpath(listing)}")
            with open(listing, encoding="utf-8") as f:
                names_listed = [ln.strip() for ln in f if ln.strip()]
            items = [(os.path.join(dataset_dir, "WIDER_test", "images", n), None) for n in names_listed]
            names = ["image"]
        else:
            for part, gt in (("train", "train"), ("valid", "val")):
                if usage in (part, "all"):
                    boxes = self._boxes(os.path.join(dataset_dir, "wider_face_split", f"wider_face_{gt}_bbx_gt.txt"))
                    folder = os.path.join(dataset_dir, f"WIDER_{gt}", "images")
                    items += [(os.path.join(folder, name), boxes[name]) for name in sorted(boxes)]
            names = ["image", "bbox"] + _WIDER_ATTRS
        super().__init__(names, items, num_samples, shuffle, sampler, num_shards, shard_id)

    @staticmethod
    def _boxes(path: str) -> Dict[str, np.ndarray]:
        if not os.path.isfile(path):
            raise pipeline_error(f"Invalid file, failed to open WIDERFace annotation file: {os.path.realpath(path)}")
        with open(path, encoding="utf-8") as f:
            lines = [ln.strip() for ln in f if ln.strip()]
        out, pos = {}, 0
        while pos < len(lines):
            name, count = lines[pos], int(lines[pos + 1])
            rows = max(count, 1)  # an image without faces still has one line of zeros
            out[name] = np.array([[int(float(v)) for v in ln.split()[:10]] for ln in lines[pos + 2:pos + 2 + rows]],
                                 np.int32).reshape(rows, 10)
            pos += 2 + rows
        return out

    def _row(self, item: Any) -> Row:
        path, values = item
        image = image_column(path, self._decode)
        if self._test:
            return (image,)
        return (image, np.ascontiguousarray(values[:, :4])) + tuple(np.ascontiguousarray(values[:, 4 + k])
                                                                      for k in range(6))


_KITTI_COLUMNS = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions", "location", "rotation_y"]


class KITTIDataset(CorpusDataset):
    """KITTI object detection from ``dataset_dir`` (``data_object_image_2/{training,testing}/image_2/000000.png``
    numbered from 0, and ``data_object_label_2/training/label_2/000000.txt``): for ``usage='train'`` the columns
    ``image``, ``label`` (uint32, the object type's index among all the types found, in sorted order),
    ``truncated``, ``occluded`` (uint32), ``alpha``, ``bbox`` (4), ``dimensions`` (3), ``location`` (3),
    ``rotation_y``, each ``(objects, k)`` and float32 unless said; ``usage='test'`` gives ``image`` only.

    Example:
        >>> import tempfile
        >>> KITTIDataset(tempfile.mkdtemp(), usage="all")
        Traceback (most recent call last):
        ...
        ValueError: Input usage is not within the valid set of ['train', 'test'].
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, decode: bool = False,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None) -> None:
        from mskernel.dataset.corpus import check_usage
        _check_dir(dataset_dir)
        usage = check_usage(usage, ["train", "test"], default="train")
        part = "training" if usage == "train" else "testing"
        folder = os.path.join(dataset_dir, "data_object_image_2", part, "image_2")
        count = len(os.listdir(folder)) if os.path.isdir(folder) else 0
        self._decode, self._test = decode, usage == "test"
        items: List[Any] = []
        names = set()
        for i in range(count):
            image = os.path.join(folder, f"{i:06d}.png")
            objects = []
            if usage == "train":
                label_file = os.path.join(dataset_dir, "data_object_label_2", part, "label_2", f"{i:06d}.txt")
                if not os.path.isfile(label_file):
                    raise pipeline_error(f"Invalid file, failed to open KITTI label file: {label_file}")
                with open(label_file, encoding="utf-8") as f:
                    objects = [ln.split() for ln in f if ln.strip()]
                names |= {o[0] for o in objects}
            items.append((image, objects))
        self._types = {n: k for k, n in enumerate(sorted(names))}
        super().__init__(["image"] if self._test else list(_KITTI_COLUMNS), items, num_samples, shuffle, sampler,
                         num_shards, shard_id)

    def _row(self, item: Any) -> Row:
        path, objects = item
        if not os.path.isfile(path):
            raise pipeline_error(f"Failed to open file: {path}")
        image = image_column(path, self._decode)
        if self._test:
            return (image,)
        vals = np.array([[float(v) for v in o[1:15]] for o in objects], np.float64).reshape(len(objects), 14)
        return (image, _column([self._types[o[0]] for o in objects], np.uint32),
                vals[:, 0:1].astype(np.float32), vals[:, 1:2].astype(np.int64).astype(np.uint32),
                vals[:, 2:3].astype(np.float32), vals[:, 3:7].astype(np.float32), vals[:, 7:10].astype(np.float32),
                vals[:, 10:13].astype(np.float32), vals[:, 13:14].astype(np.float32))
