"""``CheckpointConfig`` and ``ModelCheckpoint``: save the training network's parameters as training runs.

Files are named as MindSpore names them: ``<prefix>-<epoch>_<step in epoch>.ckpt`` in ``directory``
(default: the current directory). If files of the same prefix are already there, the prefix becomes
``<prefix>_1``, ``<prefix>_2``, ... . At most ``keep_checkpoint_max`` files are kept (the oldest
go first); the end of training saves a last file unless that step was just saved. In PyNative
mode MindSpore writes no ``-graph.meta`` file, and neither does mskernel.

Example:
    >>> CheckpointConfig(save_checkpoint_steps=10, keep_checkpoint_max=2).save_checkpoint_steps
    10
"""
from __future__ import annotations

import logging
import os
import stat
import time
from typing import Any, Callable, Dict, List, Optional, Union

from mskernel.train.callback_base import Callback, RunContext

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

logger = logging.getLogger(__name__)


def _check_non_negative(value: Any, name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For 'CheckpointConfig', the type of '{name}' must be int, but got {type(value).__name__}.")
    if value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with type 'int'.")
    return value


class CheckpointConfig:
    """When to save (every ``save_checkpoint_steps`` steps or ``save_checkpoint_seconds``) and how many to keep.

    Example:
        >>> CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)
        Traceback (most recent call last):
        ...
        ValueError: For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', 'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0.
    """  # noqa: E501

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0, keep_checkpoint_max: int = 5,
                 keep_checkpoint_per_n_minutes: int = 0, integrated_save: bool = True, async_save: bool = False,
                 saved_network: Any = None, append_info: Optional[List[Any]] = None, enc_key: Optional[bytes] = None,
                 enc_mode: str = "AES-GCM", exception_save: bool = False, crc_check: bool = False,
                 remove_redundancy: bool = False, format: str = "ckpt", **kwargs: Any) -> None:
        steps = _check_non_negative(save_checkpoint_steps, "save_checkpoint_steps")
        seconds = _check_non_negative(save_checkpoint_seconds, "save_checkpoint_seconds")
        keep_max = _check_non_negative(keep_checkpoint_max, "keep_checkpoint_max")
        per_minutes = _check_non_negative(keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes")
        if saved_network is not None:
            from mskernel.nn.cell import Cell

            if not isinstance(saved_network, Cell):
                raise TypeError(f"For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, but got "
                                f"{str(type(saved_network))}.")
        if not steps and not seconds and not keep_max and not per_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'save_checkpoint', the format must be 'ckpt' or 'safetensors', but got {format}.")
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps else seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = per_minutes
        if keep_max:
            self._keep_checkpoint_per_n_minutes = None
        elif not per_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._append_info(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self.exception_save = exception_save
        self._crc_check = crc_check
        self.remove_redundancy = remove_redundancy
        self._format = format

    @staticmethod
    def _append_info(append_info: Optional[List[Any]]) -> Optional[Dict[str, Any]]:
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list, but got "
                            f"{type(append_info)}.")
        out: Dict[str, Any] = {}
        for item in append_info:
            if item in ("epoch_num", "step_num"):
                out[item] = 0
            elif isinstance(item, dict):
                out.update(item)
            else:
                raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' element must be str or dict, but "
                                f"got {type(item)}.")
        return out

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps,
                                     doc="Save every this many steps (None/0: by time).")
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds, doc="Save every this many seconds.")
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max, doc="How many files to keep.")
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes,
                                             doc="Keep one file per this many minutes.")
    integrated_save = property(lambda self: self._integrated_save, doc="Accepted (one process: always whole).")
    async_save = property(lambda self: self._async_save, doc="Accepted; saving is synchronous here.")
    saved_network = property(lambda self: self._saved_network, doc="The network to save instead of the train net.")
    append_dict = property(lambda self: self._append_dict, doc="Extra entries saved with the parameters.")
    enc_key = property(lambda self: self._enc_key, doc="Encryption key (passed to save_checkpoint).")
    enc_mode = property(lambda self: self._enc_mode, doc="Encryption mode.")
    crc_check = property(lambda self: self._crc_check, doc="Whether to write a CRC.")
    format = property(lambda self: self._format, doc="'ckpt' or 'safetensors'.")

    def get_checkpoint_policy(self) -> Dict[str, Any]:
        """The policy as a dict.

        Example:
            >>> CheckpointConfig(save_checkpoint_steps=2).get_checkpoint_policy()["save_checkpoint_steps"]
            2
        """
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def _same_prefix(directory: str, prefix: str) -> str:
    """``prefix`` or ``prefix_N`` so that new files do not mix with those of an earlier run."""
    suffix = 0
    for name in os.listdir(directory):
        ext = os.path.splitext(name)[1]
        if ext not in (".ckpt", ".safetensors") or name.endswith("_breakpoint.ckpt"):
            continue
        if not name.startswith(prefix) or len(name) <= len(prefix) or name[len(prefix)].isalpha():
            continue
        dash = name[len(prefix):].find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash != -1:
            num = name[len(prefix) + 1:len(prefix) + dash]
            if num.isdigit():
                suffix = max(suffix, int(num) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save checkpoints during training (``prefix-epoch_step.ckpt`` in ``directory``) as ``config`` says.

    Example:
        >>> ModelCheckpoint(prefix="a/b")
        Traceback (most recent call last):
        ...
        ValueError: For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it must be callable or string that does not contain '/', but got a/b.
    """  # noqa: E501

    def __init__(self, prefix: Union[str, Callable] = "CKP", directory: Union[str, Callable, None] = None,
                 config: Optional[CheckpointConfig] = None) -> None:
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be callable or string that does not contain '/', but got {prefix}.")
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._prefix = prefix
        if directory is None:
            self._directory = os.getcwd()
        elif callable(directory):
            self._directory = ""
        else:
            self._directory = _make_directory(directory)
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', but "
                            f"got {type(config)}.")
        self._config = config
        if not callable(prefix) and not callable(directory):
            self._prefix = _same_prefix(self._directory, prefix)
        self._append_dict = dict(config.append_dict or {})
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._latest_ckpt_file_name = ""
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._files: List[str] = []

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last file written.

        Example:
            >>> ModelCheckpoint().latest_ckpt_file_name
            ''
        """
        return self._latest_ckpt_file_name

    def step_end(self, run_context: RunContext) -> None:
        """Save when the configured number of steps (or seconds) has passed.

        Example:
            >>> ModelCheckpoint().step_end.__name__
            'step_end'
        """
        cb = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, "
                                 f"it must return a string that does not contain '/', but got {self._prefix}.")
        if self._directory_func is not None:
            self._directory = _make_directory(self._directory_func(cb))
        self._save(cb)

    def end(self, run_context: RunContext) -> None:
        """Save the last step at the end of training.

        Example:
            >>> ModelCheckpoint().end.__name__
            'end'
        """
        self._save(run_context.original_args(), force=True)

    def _due(self, cb: dict, force: bool) -> bool:
        steps = self._config.save_checkpoint_steps
        if steps and steps > 0:
            return cb["cur_step_num"] >= self._last_triggered_step + steps or force
        seconds = self._config.save_checkpoint_seconds
        if seconds and seconds > 0:
            now = time.time()
            if now - self._last_time > seconds or force:
                self._last_time = now
                return True
        return False

    def _save(self, cb: dict, force: bool = False) -> None:
        if cb["cur_step_num"] == self._last_triggered_step or not self._due(cb, force):
            return
        fmt = self._config.format
        step_in_epoch = (cb["cur_step_num"] - 1) % cb["batch_num"] + 1
        if self._prefix_func is not None:
            file_name = f"{self._prefix}.{fmt}"
        else:
            file_name = f"{self._prefix}-{cb['cur_epoch_num']}_{step_in_epoch}.{fmt}"
        self._files = self._existing_files(fmt)
        keep_max = self._config.keep_checkpoint_max
        per_minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= len(self._files):
            self._remove(min(self._files, key=os.path.getmtime))
        elif per_minutes and per_minutes > 0:
            self._keep_one_per_minutes(per_minutes, time.time())
        path = os.path.join(self._directory, file_name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb["cur_step_num"]
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb["cur_epoch_num"]
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + cb["cur_step_num"]
        network = self._config.saved_network if self._config.saved_network is not None else cb["train_network"]
        from mskernel.train.serialization import save_checkpoint  # the train layer's own module, loaded on use

        save_checkpoint(network, path, append_dict=self._append_dict or None)
        self._latest_ckpt_file_name = path

    def _existing_files(self, fmt: str) -> List[str]:
        out = []
        for name in os.listdir(self._directory):
            if os.path.splitext(name)[1] != f".{fmt}" or not name.startswith(self._prefix + "-"):
                continue
            middle = name[len(self._prefix):-(len(fmt) + 1)]
            if not any(ch.isalpha() for ch in middle):
                out.append(os.path.join(self._directory, name))
        return out

    def _remove(self, path: str) -> None:
        try:
            os.chmod(path, stat.S_IWRITE | stat.S_IREAD)
            os.remove(path)
            self._files.remove(path)
        except (OSError, ValueError):
            logger.warning("Failed to remove the older ckpt file %s.", path)

    def _keep_one_per_minutes(self, minutes: int, now: float) -> None:
        recent = [f for f in self._files if now - os.path.getmtime(f) < 60 * minutes]
        if not recent:
            return
        oldest = min(recent, key=os.path.getmtime)
        for path in recent:
            if path != oldest:
                self._remove(path)


def _make_directory(path: str) -> str:
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"For 'ModelCheckpoint', the argument 'directory' must be a non-empty str, but got {path}.")
    real = os.path.realpath(path)
    os.makedirs(real, exist_ok=True)
    return real
