"""``SummaryRecord``: collect scalars, tensors, images and histograms with ``add_value`` and write them to a
summary file (``<prefix>.out.events.summary.<seconds>.<device id>.<host><suffix>`` in ``log_dir``) with
``record(step)``. The file is made at the first write and begins with a version event; each ``record`` with
values appends one ``Event`` holding them. Only one ``SummaryRecord`` may be open in a process, as in MindSpore.

Writing is synchronous here (MindSpore packs events in a pool of worker processes): after ``record`` returns,
``flush`` puts the bytes on disk.

Example:
    >>> import os, tempfile, mskernel as ms
    >>> d = tempfile.mkdtemp()
    >>> with SummaryRecord(log_dir=d) as sr:
    ...     sr.add_value("scalar", "loss", ms.Tensor(0.5))
    ...     sr.record(1)
    True
    >>> from mskernel.train.summary.event_file import read_events
    >>> [e.step for e in read_events(open(sr.log_dir, "rb").read())]
    [0, 1]
"""
from __future__ import annotations

import atexit
import logging
import os
import platform
import re
import stat
import threading
import time
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import summary_cache
from mskernel.train.summary.event_file import Event, write_record
from mskernel.train.summary.values import fill_value

__all__ = ["SummaryRecord"]

logger = logging.getLogger(__name__)

_VALUE_PLUGINS = ("tensor", "scalar", "image", "histogram")
_OTHER_PLUGINS = ("train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data", "graph")
_NAME_RULE = r"^\w+[0-9a-zA-Z\_\.]*$"
_instance_lock = threading.Lock()


def _check_name_part(value: str) -> None:
    if re.match(_NAME_RULE, value, flags=re.ASCII) is None:
        raise ValueError(f"The {value!r} is illegal, it must be match regular'{_NAME_RULE}' by flags're.ASCII.'")


def _make_dir(path: Any, arg_name: str) -> str:
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if not path.strip():
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    real = os.path.realpath(os.path.expanduser(path))
    os.makedirs(real, exist_ok=True)
    return real


def _type_check(name: str, value: Any, kinds: tuple, names: List[str]) -> None:
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        want = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"The type of '{name}' should be {want}, but got type '{type(value).__name__}'.")


def _to_numpy(plugin: str, value: Any, who: str = "SummaryRecord") -> np.ndarray:
    arr = np.array(value.asnumpy(), copy=True)
    if plugin == "scalar" and arr.size != 1:
        raise ValueError(f'For "{who}", the v rank must be less than or equal to 1, but got {len(arr)}.')
    if plugin == "image" and arr.ndim != 4:
        raise ValueError(f'For "{who}", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram") and arr.ndim == 0:
        raise ValueError(f'For "{who}", the value should not be empty.')
    return arr


def _export_options(options: Any) -> Optional[Dict[str, Optional[str]]]:
    if options is None:
        return None
    _type_check("export_options", options, (dict, type(None)), ["dict", "NoneType"])
    allowed = {"tensor_format": {"npy", None}}
    unexpected = set(options) - set(allowed)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are unsupported, '
                         f'expect the follow keys: {list(allowed)}')
    for key, fmt in options.items():
        bad = {fmt} - allowed[key]
        if bad:
            raise ValueError(f'For "SummaryRecord", the export_format {bad} of "export_options" are unsupported '
                             f'for {key}, expect the follow values: {list(allowed[key])}')
    return dict(options)


class SummaryRecord:
    """Record summary data (``add_value`` then ``record``) to a file in ``log_dir``; close it when done (or use
    ``with``). ``file_prefix``/``file_suffix`` frame the file name; ``max_file_size`` (bytes) bounds it;
    ``export_options={'tensor_format': 'npy'}`` also saves each recorded tensor as ``.npy`` under
    ``log_dir/export_<seconds>/tensor``. ``num_process`` is accepted for MindSpore's signature (writing is
    synchronous here); ``network`` graphs are not recorded (mskernel builds no graphs).

    Example:
        >>> import tempfile, numpy as np, mskernel as ms
        >>> with SummaryRecord(tempfile.mkdtemp(), file_prefix="xx_", file_suffix="_yy") as sr:
        ...     sr.add_value("histogram", "w", ms.Tensor(np.arange(4.0, dtype=np.float32)))
        ...     sr.set_mode("eval")
        ...     ok = sr.record(step=2)
        >>> ok, os.path.basename(sr.log_dir).startswith("xx_.out.events.summary.")
        (True, True)
    """

    count = 0

    def __init__(self, log_dir: str, file_prefix: str = "events", file_suffix: str = "_MS", num_process: int = 32,
                 network: Any = None, max_file_size: Optional[int] = None, raise_exception: bool = False,
                 export_options: Optional[dict] = None) -> None:
        self._check_count()
        with _instance_lock:
            self._check_count()
            SummaryRecord.count += 1
        self._mode: str = "train"
        self._data_pool: Dict[str, List[dict]] = defaultdict(list)
        self._status = {"closed": False, "has_graph": False}
        self.file_info: Dict[str, Optional[str]] = {"file_name": None, "file_path": None}
        self.base_log_dir, self.file_prefix, self.file_suffix = log_dir, file_prefix, file_suffix
        self.network, self.max_file_size, self._num_process = network, max_file_size, num_process
        self.raise_exception, self._export_options = raise_exception, export_options
        self._stream: Any = None
        self._export_dir = ""
        try:
            self._initialize()
        except (TypeError, ValueError):
            SummaryRecord.count -= 1
            raise

    @classmethod
    def _check_count(cls) -> None:
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, you are trying to "
                f"create a new one when the existing instance number is {cls.count}. Please check your scripts.")

    def _initialize(self) -> None:
        log_path = _make_dir(self.base_log_dir, "log_dir")
        if isinstance(self.max_file_size, bool) or not isinstance(self.max_file_size, (int, type(None))):
            raise TypeError(f"For '{type(self).__name__}', the 'max_file_size' should be int type, but got type "
                            f"{type(self.max_file_size)}")
        if not isinstance(self.file_prefix, str) or not isinstance(self.file_suffix, str):
            raise TypeError(f"For '{type(self).__name__}', `file_prefix` and `file_suffix`  should be str, but got "
                            f"type {type(self.file_prefix)}")
        _check_name_part(self.file_prefix)
        _check_name_part(self.file_suffix)
        if self.max_file_size is not None and self.max_file_size < 0:
            logger.warning("For 'SummaryRecord', the 'max_file_size' should be greater than 0. but got value %s.",
                           self.max_file_size)
            self.max_file_size = None
        _type_check("raise_exception", self.raise_exception, (bool,), ["bool"])
        seconds = str(int(time.time()))
        name = f"{self.file_prefix}.out.events.summary.{seconds}.0.{platform.node()}{self.file_suffix}"
        self.file_info = {"file_name": name, "file_path": os.path.join(log_path, name)}
        self._export_options = _export_options(self._export_options)
        if self._export_options is not None:
            self._export_dir = os.path.join(log_path, f"export_{seconds}")
        atexit.register(self.close)

    def __enter__(self) -> "SummaryRecord":
        if self._status["closed"]:
            raise ValueError(f'For "{type(self).__name__}", SummaryRecord has been closed, please check if close() '
                             'method is called')
        return self

    def __exit__(self, *err: Any) -> None:
        self.close()

    @property
    def log_dir(self) -> str:
        """The full path of the summary file.

        Example:
            >>> import tempfile
            >>> with SummaryRecord(tempfile.mkdtemp()) as sr:
            ...     sr.log_dir.endswith("_MS")
            True
        """
        return self.file_info["file_path"]  # type: ignore[return-value]

    def set_mode(self, mode: str) -> None:
        """'train' or 'eval' (in 'eval' the data of summary operators is not recorded).

        Example:
            >>> import tempfile
            >>> with SummaryRecord(tempfile.mkdtemp()) as sr:
            ...     sr.set_mode("eval")
        """
        if mode not in ("train", "eval"):
            raise ValueError(f'For "{type(self).__name__}.set_mode", {mode!r} is not a recognized mode, expect the '
                             'parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Keep ``value`` (a Tensor) under the tag ``name`` for the next ``record``; ``plugin`` is 'scalar',
        'tensor', 'image' (NCHW) or 'histogram' ('landscape' takes a ``LossLandscape`` message instead).

        Example:
            >>> import tempfile, mskernel as ms
            >>> with SummaryRecord(tempfile.mkdtemp()) as sr:
            ...     sr.add_value("scalar", "loss", ms.Tensor(0.1))
        """
        if plugin in _VALUE_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{type(self).__name__}", the parameter "name" type should be str, but got '
                                 f'{type(name)}.')
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{type(self).__name__}", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}')
            arr = _to_numpy(plugin, value)
            if name in {item["tag"] for item in self._data_pool[plugin]}:
                logger.warning("For \"SummaryRecord.add_value\", %r has duplicate values. Only the newest one will be "
                               "recorded.", f"{name}/{plugin}")
            data = {"tag": name, "value": arr}
            fmt_key = f"{plugin}_format"
            if self._export_options is not None and fmt_key in self._export_options:
                data["export_option"] = self._export_options[fmt_key]
            self._data_pool[plugin].append(data)
        elif plugin == "landscape":  # a LossLandscape message (SummaryLandscape makes them)
            self._data_pool[plugin].append({"tag": name, "value": value.SerializeToString()})
        elif plugin in _OTHER_PLUGINS:
            raise ValueError(f'For "{type(self).__name__}.add_value", the plugin {plugin!r} records lineage or graph '
                             'protobufs, which mskernel does not produce')
        else:
            raise ValueError(f'For "{type(self).__name__}.add_value", no such "plugin" of {plugin!r} , expect value is '
                             'one of [tensor, scalar, image, histogram, train_lineage, eval_lineage, dataset_graph, '
                             'custom_lineage_data, graph, landscape]')

    def record(self, step: int, train_network: Any = None,
               plugin_filter: Optional[Callable[[str], bool]] = None) -> bool:
        """Write the values added since the last ``record`` as one event at ``step``; False once closed.

        Example:
            >>> import tempfile
            >>> with SummaryRecord(tempfile.mkdtemp()) as sr:
            ...     sr.record(step=2)
            True
        """
        from mskernel.nn.cell import Cell

        _type_check("step", step, (int,), ["int"])
        _type_check("train_network", train_network, (Cell, type(None)), ["Cell", "NoneType"])
        if self._status["closed"]:
            logger.error("For 'SummaryRecord', The record writer is closed, please check if close() method is called")
            return False
        if self._mode == "train":
            self._add_operator_values()
        pool, self._data_pool = self._data_pool, defaultdict(list)
        if plugin_filter:
            pool = {k: v for k, v in pool.items() if plugin_filter(k)}
        try:
            self._write(pool, step)
        except (RuntimeError, OSError, RuntimeWarning) as err:
            if self.raise_exception:
                raise
            logger.error("For 'SummaryRecord', writing the summary failed: %s", err)
        return True

    def _add_operator_values(self) -> None:
        """What the summary operators were given (the last value of each name) joins the values to record."""
        latest: Dict[tuple, Any] = {}
        for op, name, value in summary_cache.take():
            plugin = op[:-len("Summary")].lower()
            if not isinstance(name, str) or not name:
                raise TypeError(f'For "{op}", the name must be valid string, but got "{name}".')
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{op}", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}')
            _to_numpy(plugin, value, op)
            latest[(name, plugin)] = value
        for (name, plugin), value in latest.items():
            self.add_value(plugin, name, value)

    def _write(self, pool: Dict[str, List[dict]], step: int) -> None:
        event = Event(wall_time=time.time(), step=int(step))
        for plugin, items in pool.items():
            for item in items:
                if not fill_value(event.summary.value.add(), plugin, item["tag"], item["value"]):
                    del event.summary.value[-1]
                if item.get("export_option") == "npy":
                    self._export_npy(item["tag"], step, item["value"])
        if event.summary.value:
            self._append(event.SerializeToString())

    def _export_npy(self, tag: str, step: int, value: np.ndarray) -> None:
        from urllib.parse import quote

        folder = os.path.join(self._export_dir, "tensor")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{quote(tag, safe='')}_{step}.npy")
        np.save(path, value)
        os.chmod(path, stat.S_IRUSR)

    def _append(self, data: bytes) -> None:
        if self._stream is None:
            path = self.log_dir
            self._stream = open(path, "wb")
            os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
            self._append(Event(wall_time=time.time(), version="MindSpore.Event:1").SerializeToString())
        need = len(data) + 16
        if self.max_file_size is not None:
            if self.max_file_size < need:
                raise RuntimeWarning(f"'max_file_size' reached: There are {self.max_file_size} bytes remaining, but "
                                     f"the '{self.log_dir}' requires to write {need} bytes.")
            self.max_file_size -= need
        write_record(self._stream, data)

    def flush(self) -> None:
        """Put the recorded events on disk.

        Example:
            >>> import tempfile
            >>> with SummaryRecord(tempfile.mkdtemp()) as sr:
            ...     sr.flush()
        """
        if self._status["closed"]:
            logger.error("For 'SummaryRecord', the record writer is closed and can not flush, please check if close() "
                         "method is called")
        elif self._stream is not None:
            self._stream.flush()

    def close(self) -> None:
        """Flush and close the file (``with`` does it on leaving).

        Example:
            >>> import tempfile
            >>> SummaryRecord(tempfile.mkdtemp()).close()
        """
        if not self._status["closed"]:
            atexit.unregister(self.close)
            if self._stream is not None:
                self._stream.close()
                os.chmod(self.log_dir, stat.S_IRUSR)
            self._status["closed"] = True
        with _instance_lock:
            SummaryRecord.count -= 1
