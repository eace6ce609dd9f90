"""``serialize``, ``deserialize`` and ``show``: a pipeline as MindSpore's JSON description and back.

Covered: the MNIST-format and CIFAR sources (``MnistDataset``, ``FashionMnistDataset``, ``KMnistDataset``,
``Cifar10Dataset``, ``Cifar100Dataset``), ``batch``, ``repeat``, ``take``, ``skip``, ``shuffle``, ``project``,
``rename``, and ``map`` with the transforms of :data:`TRANSFORMS`. Other steps (Python sources, Python functions
in ``map``) raise a ``TypeError`` naming them.

Example:
    >>> sorted(name for name, _, _ in TRANSFORMS.values())
    ['HwcToChw', 'Normalize', 'Rescale', 'Resize', 'TypeCast']
"""
from __future__ import annotations

import json
import logging
import os
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from mskernel.dataset import config, file_sources, ops, sources, transforms
from mskernel.dataset.engine import Dataset
from mskernel.dataset.vision import basic

__all__ = ["serialize", "deserialize", "show", "TRANSFORMS"]

_LOG = logging.getLogger(__name__)
QUEUE = 16  # connector_queue_size


def _workers(n: Optional[int]) -> int:
    return int(n) if n else min(config.get_num_parallel_workers(), os.cpu_count() or 1)


# Inter -> the number MindSpore's C++ interpolation modes give it in the JSON (linear 0, nearest 1, ...)
_INTER_CODE = {basic.Inter.LINEAR: 0, basic.Inter.NEAREST: 1, basic.Inter.CUBIC: 2, basic.Inter.AREA: 3,
               basic.Inter.PILCUBIC: 4}
_CODE_INTER = {v: k for k, v in _INTER_CODE.items()}


def _inter(mode: Any) -> int:
    return _INTER_CODE[basic.Inter(getattr(mode, "value", mode))]


#: transform class -> (MindSpore's tensor_op_name, its parameters, rebuild from the parameters)
TRANSFORMS: Dict[type, Tuple[str, Callable[[Any], Any], Callable[[Dict[str, Any]], Any]]] = {
    basic.Resize: ("Resize", lambda t: {"device_target": "CPU", "interpolation": _inter(t.interpolation),
                                        "size": [t.size] if isinstance(t.size, int) else list(t.size)},
                   lambda p: basic.Resize(p["size"][0] if len(p["size"]) == 1 else p["size"],
                                          _CODE_INTER[p["interpolation"]])),
    basic.HWC2CHW: ("HwcToChw", lambda t: None, lambda p: basic.HWC2CHW()),
    basic.Normalize: ("Normalize", lambda t: {"device_target": "CPU", "is_hwc": t.is_hwc,
                                              "mean": t.mean.tolist(), "std": t.std.tolist()},
                      lambda p: basic.Normalize(p["mean"], p["std"], p["is_hwc"])),
    basic.Rescale: ("Rescale", lambda t: {"rescale": float(t.rescale), "shift": float(t.shift)},
                    lambda p: basic.Rescale(p["rescale"], p["shift"])),
    transforms.TypeCast: ("TypeCast", lambda t: {"data_type": np.dtype(t.data_type).name},
                          lambda p: transforms.TypeCast(np.dtype(p["data_type"]))),
}
_BY_NAME = {name: rebuild for name, _, rebuild in TRANSFORMS.values()}


def _sampler(d: Any) -> Dict[str, Any]:
    if d._sampler is not None or d._shard[0]:
        raise TypeError("serialize: a source with a sampler or shards is not supported here.")
    n = d._num_samples or 0
    if d._shuffle:
        return {"num_samples": n, "replacement": bool(n), "reshuffle_each_epoch": True,
                "sampler_name": "RandomSampler", "shuffle_mode": 2}
    return {"num_samples": n, "sampler_name": "SequentialSampler", "start_index": 0}


def _source(d: Any) -> Dict[str, Any]:
    args = d.source_args
    return {"connector_queue_size": QUEUE, "dataset_dir": args["dataset_dir"],
            "num_parallel_workers": _workers(args.get("workers")), "op_type": type(d).__name__,
            "sampler": _sampler(d), "usage": args["usage"]}


def _map(d: Any) -> Dict[str, Any]:
    opers = []
    for t in d.operations:
        if type(t) not in TRANSFORMS:
            raise TypeError(f"serialize: the map operation {t!r} cannot be serialized here (only "
                            f"{sorted(n for n, _, _ in TRANSFORMS.values())}).")
        name, params, _ = TRANSFORMS[type(t)]
        opers.append({"tensor_op_name": name, "tensor_op_params": params(t)})
    return {"callback": [], "connector_queue_size": QUEUE, "input_columns": list(d.input_columns),
            "num_parallel_workers": _workers(getattr(d, "num_parallel_workers", None)), "op_type": "Map",
            "operations": opers, "output_columns": list(d.output_columns)}


def _batch(d: Any) -> Dict[str, Any]:
    if d.per_batch_map is not None:
        raise TypeError("serialize: a batch with per_batch_map cannot be serialized here.")
    return {"batch_size": d.batch_size, "connector_queue_size": QUEUE, "drop_remainder": bool(d.drop_remainder),
            "input_columns": list(d.input_columns or []),
            "num_parallel_workers": _workers(getattr(d, "num_parallel_workers", None)), "op_type": "Batch",
            "output_columns": list(d.output_columns or [])}


#: dataset class -> its node (without children)
NODES: Dict[type, Callable[[Any], Dict[str, Any]]] = {
    sources.MnistDataset: _source, sources.Cifar10Dataset: _source, file_sources.FashionMnistDataset: _source,
    file_sources.KMnistDataset: _source, file_sources.Cifar100Dataset: _source,
    ops.MapDataset: _map, ops.BatchDataset: _batch,
    ops.RepeatDataset: lambda d: {"count": d.count, "op_type": "Repeat"},
    ops.TakeDataset: lambda d: {"count": d.count, "op_type": "Take"},
    ops.SkipDataset: lambda d: {"count": d.count, "op_type": "Skip"},
    ops.ShuffleDataset: lambda d: {"buffer_size": d.buffer_size, "op_type": "Shuffle", "reset_each_epoch": True},
    ops.ProjectDataset: lambda d: {"columns": d.get_col_names(), "op_type": "Project"},
    ops.RenameDataset: lambda d: {"input_columns": d.input_columns, "op_type": "Rename",
                                  "output_columns": d.output_columns},
}


def _node(d: Dataset) -> Dict[str, Any]:
    make = NODES.get(type(d))
    if make is None:
        raise TypeError(f"serialize: {type(d).__name__} cannot be serialized here.")
    out = make(d)
    out["children"] = [_node(c) for c in d.children]
    return dict(sorted(out.items()))


def serialize(dataset: Dataset, json_filepath: str = "") -> Dict[str, Any]:
    """The pipeline as a dict (MindSpore's JSON description); also written to ``json_filepath`` if given.

    Example:
        >>> import os, tempfile
        >>> from mskernel import dataset as ds
        >>> d = tempfile.mkdtemp()
        >>> for n in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        ...     _ = open(os.path.join(d, n), "wb").write(bytes([0, 0, 8, 1, 0, 0, 0, 0]))
        >>> serialize(ds.MnistDataset(d, "train", shuffle=False).repeat(2))["op_type"]
        'Repeat'
    """
    out = _node(dataset)
    if json_filepath:
        with open(json_filepath, "w") as f:
            json.dump(out, f, separators=(",", ":"), sort_keys=True)
    return out


_SOURCES = {cls.__name__: cls for cls in NODES if NODES[cls] is _source}


def _build(node: Dict[str, Any]) -> Dataset:
    kids = [_build(c) for c in node.get("children", [])]
    kind = node["op_type"]
    if kind in _SOURCES:
        s = node.get("sampler", {})
        shuffle = s.get("sampler_name") == "RandomSampler"
        return _SOURCES[kind](node["dataset_dir"], node.get("usage"), num_samples=s.get("num_samples") or None,
                              shuffle=shuffle, num_parallel_workers=node.get("num_parallel_workers"))
    parent = kids[0]
    if kind == "Map":
        opers = [_BY_NAME[o["tensor_op_name"]](o["tensor_op_params"] or {}) for o in node["operations"]]
        return parent.map(opers, node["input_columns"], node["output_columns"],
                          num_parallel_workers=node.get("num_parallel_workers"))
    if kind == "Batch":
        return parent.batch(node["batch_size"], node["drop_remainder"],
                            num_parallel_workers=node.get("num_parallel_workers"))
    if kind in ("Repeat", "Take", "Skip"):
        return getattr(parent, kind.lower())(node["count"])
    if kind == "Shuffle":
        return parent.shuffle(node["buffer_size"])
    if kind == "Project":
        return parent.project(node["columns"])
    if kind == "Rename":
        return parent.rename(node["input_columns"], node["output_columns"])
    raise TypeError(f"deserialize: the op_type {kind!r} is not supported here.")


def deserialize(input_dict: Optional[Dict[str, Any]] = None, json_filepath: Optional[str] = None) -> Dataset:
    """Rebuild a pipeline from :func:`serialize`'s dict or the JSON file it wrote.

    Example:
        >>> deserialize()
        Traceback (most recent call last):
        ...
        ValueError: At least one of input_dict and json_filepath should be specified.
    """
    if input_dict is None and json_filepath is None:
        raise ValueError("At least one of input_dict and json_filepath should be specified.")
    if input_dict is None:
        with open(json_filepath) as f:  # type: ignore[arg-type]
            input_dict = json.load(f)
    return _build(input_dict)


def show(dataset: Dataset, indentation: int = 2) -> None:
    """Log (at INFO level, as MindSpore does) the pipeline's JSON description with ``indentation``.

    Example:
        >>> show.__name__
        'show'
    """
    _LOG.info("\n%s", json.dumps(serialize(dataset), indent=indentation))
