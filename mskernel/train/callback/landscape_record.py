"""What ``SummaryCollector`` keeps for a loss landscape (``collect_specified_data={"collect_landscape": {...}}``):
the network's weights at the steps (``unit='step'``) or epochs (``unit='epoch'``) named in ``intervals``, each as a
checkpoint ``<summary_dir>/ckpt_dir/<Backbone>_<n>_<unit>.ckpt``, and at the end of training
``ckpt_dir/train_metadata.json``: ``epoch_group`` (interval index -> its steps), ``model_params_file_map`` (step ->
checkpoint path), ``step_per_epoch``, ``unit``, ``num_samples``, ``landscape_size`` and ``create_landscape``.
``SummaryLandscape`` reads them back. Files already there are kept (as MindSpore's; they are made read-only).

Example:
    >>> import json, os, tempfile, numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> from mskernel.train import Model, SummaryCollector
    >>> net = nn.Dense(2, 1)
    >>> model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((8, 2), np.float32), "y": np.ones((8, 1), np.float32)})
    >>> d = tempfile.mkdtemp()
    >>> spec = {"collect_landscape": {"landscape_size": 4, "unit": "step", "num_samples": 4,
    ...                               "create_landscape": {"train": True, "result": True}, "intervals": [[1, 2, 3]]}}
    >>> model.train(1, data.batch(2), callbacks=[SummaryCollector(d, collect_specified_data=spec)],
    ...             dataset_sink_mode=False)
    >>> sorted(os.listdir(os.path.join(d, "ckpt_dir")))
    ['Dense_1_step.ckpt', 'Dense_2_step.ckpt', 'Dense_3_step.ckpt', 'train_metadata.json']
    >>> meta = json.load(open(os.path.join(d, "ckpt_dir", "train_metadata.json")))
    >>> meta["epoch_group"], meta["step_per_epoch"]
    ({'0': [1, 2, 3]}, 4)
"""
from __future__ import annotations

import json
import logging
import os
import stat
from collections import defaultdict
from typing import Any, Dict, List

__all__ = ["check_value_type", "check_collect_landscape", "LandscapeRecorder"]

logger = logging.getLogger(__name__)

_KEYS = ["landscape_size", "unit", "num_samples", "create_landscape", "intervals"]


def check_value_type(name: str, value: Any, kinds: Any) -> None:
    """MindSpore's type check of a summary argument (a bool is not an int).

    Example:
        >>> check_value_type("num_samples", True, int)
        Traceback (most recent call last):
        ...
        TypeError: For `num_samples` the type should be a valid type of ['int'], but got bool.
    """
    kinds = tuple(kinds) if isinstance(kinds, (list, tuple)) else (kinds,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise TypeError(f"For `{name}` the type should be a valid type of {[k.__name__ for k in kinds]}, but got "
                        f"{type(value).__name__}.")


def check_collect_landscape(owner: str, landscape: Dict[str, Any]) -> None:
    """Check a ``collect_landscape`` dict as ``SummaryCollector`` does (MindSpore's texts; ``intervals`` is
    required).

    Example:
        >>> check_collect_landscape("SummaryCollector", {"landscape_size": 2, "intervals": [[1, 2, 3]]})
        Traceback (most recent call last):
        ...
        ValueError: For "SummaryCollector", the "landscape_size" in collect_specified_data should be less than 256 \
and more than 3, but got the: 2
    """
    unexpected = set(landscape) - set(_KEYS)
    if unexpected:
        raise ValueError(f'For "{owner}", the keys {unexpected} of `collect_landscape` are unsupported, expect the '
                         f'follow keys: {_KEYS}')
    size = landscape.get("landscape_size", 40)
    check_value_type("landscape_size", size, int)
    if size < 3 or size > 256:
        raise ValueError(f'For "{owner}", the "landscape_size" in collect_specified_data should be less than 256 and '
                         f'more than 3, but got the: {size}')
    unit = landscape.get("unit", "step")
    check_value_type("unit", unit, str)
    if unit not in ("step", "epoch"):
        raise ValueError(f'For "{owner}", unit in collect_specified_data should be step or epoch, but got the: '
                         f'{unit}.')
    check_value_type("num_samples", landscape.get("num_samples", 2048), int)
    create = landscape.get("create_landscape", {"train": True, "result": True})
    check_value_type("create_landscape", create, dict)
    for key, value in create.items():
        if key not in ("train", "result"):
            raise ValueError(f'For "{owner}", the key to create landscape should be in ["train", "result"], but got '
                             f'the: {key}.')
        check_value_type(key, value, bool)
    intervals = landscape.get("intervals")
    check_value_type("intervals", intervals, list)
    for interval in intervals:
        check_value_type("each interval inintervals", interval, list)
        if len(interval) < 3:
            raise ValueError(f'For "{owner}", the length of each list in "intervals" should not be less than three, '
                             f'but got the: {interval}')
        for j in interval:
            if not isinstance(j, int):
                raise TypeError(f'For "{owner}", the value of each list in "intervals" should be int, but got the: '
                                f'{type(j)}')


def _backbone(network: Any) -> Any:
    """The network being trained: the ``_backbone`` of the first cell that has one (a WithLossCell), else the
    innermost ``network`` of the wrappers."""
    found = next((getattr(cell, "_backbone") for _, cell in network.cells_and_names()
                  if hasattr(cell, "_backbone")), None)
    backbone = network if found is None else found
    while True:
        names = dict(backbone.name_cells())
        if "network" not in names:
            return backbone
        backbone = backbone.network
        if "optimizer" in names:
            return backbone


class LandscapeRecorder:
    """Save the weights at the intervals' steps or epochs and, at the end, the metadata (see the module).

    Example:
        >>> import tempfile
        >>> r = LandscapeRecorder(tempfile.mkdtemp(), {"intervals": [[1, 2, 3], [3, 4, 5]]})
        >>> dict(r.epoch_group)
        {0: [1, 2, 3], 1: [3, 4, 5]}
    """

    def __init__(self, ckpt_dir: str, landscape: Dict[str, Any]) -> None:
        self.ckpt_dir = ckpt_dir
        self.landscape = landscape
        self.files: Dict[str, str] = {}
        self.epoch_group: Dict[int, List[int]] = defaultdict(list)
        for i, interval in enumerate(landscape.get("intervals") or []):
            self.epoch_group[i].extend(interval)

    @property
    def unit(self) -> str:
        """'step' or 'epoch'.

        Example:
            >>> LandscapeRecorder("/tmp", {"intervals": [], "unit": "epoch"}).unit
            'epoch'
        """
        return self.landscape.get("unit", "step")

    def maybe_save(self, params: Any, unit: str) -> None:
        """At a step's (``unit='step'``) or an epoch's end, save the weights when its number is in an interval.

        Example:
            >>> LandscapeRecorder("/tmp", {"intervals": [[1, 2, 3]]}).maybe_save({"cur_step_num": 9}, "step")
        """
        if self.unit != unit or params.get("mode", "train") != "train":
            return
        num = params.get("cur_step_num") if unit == "step" else params.get("cur_epoch_num")
        if not any(num in interval for interval in self.landscape.get("intervals") or []):
            return
        from mskernel.train.serialization import save_checkpoint

        backbone = _backbone(params["train_network"])
        logger.info("Save model params, %s: %s.", unit, num)
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{num}_{unit}.ckpt")
        self.files[str(num)] = path
        if not os.path.isfile(path):
            save_checkpoint([{"name": p.name, "data": p.data} for p in backbone.get_parameters()], path)

    def save_metadata(self, step_per_epoch: Any) -> None:
        """Write ``train_metadata.json`` (unless it is there already).

        Example:
            >>> import os, tempfile
            >>> d = tempfile.mkdtemp()
            >>> LandscapeRecorder(d, {"intervals": [[1, 2, 3]]}).save_metadata(4)
            >>> os.listdir(d)
            ['train_metadata.json']
        """
        data = {"epoch_group": self.epoch_group, "model_params_file_map": self.files,
                "step_per_epoch": step_per_epoch, "unit": self.unit,
                "num_samples": self.landscape.get("num_samples", 2048),
                "landscape_size": self.landscape.get("landscape_size", 40),
                "create_landscape": self.landscape.get("create_landscape", {"train": True, "result": True})}
        path = os.path.join(self.ckpt_dir, "train_metadata.json")
        if os.path.isfile(path):
            return
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.chmod(path, stat.S_IRUSR)
        except OSError as err:
            logger.error("Write meta data %s failed, detail: %s", path, err)
