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

from mskernel.train.callback.protocol import Callback, RunContext, check_non_negative_int

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

logger = logging.getLogger(__name__)


def _check_non_negative(value: Any, name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For 'CheckpointConfig', the type of '{name}' must be int, but got {type(value).__name__}.")
    return check_non_negative_int(value)


def _keeping(keep_max: Optional[int], per_minutes: Optional[int]) -> tuple:
    """(keep_checkpoint_max, keep_checkpoint_per_n_minutes) as MindSpore settles them: a maximum count wins;
    with neither given, one file is kept."""
    if keep_max:
        return keep_max, None
    return (keep_max if per_minutes else 1), per_minutes


def _extra_entries(append_info: Optional[List[Any]]) -> Optional[Dict[str, Any]]:
    """``append_info`` as the dict saved with the parameters: 'epoch_num'/'step_num' start at 0, dicts merge."""
    if append_info is None or (isinstance(append_info, list) and not append_info):
        return None
    if not isinstance(append_info, list):
        raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list, but got "
                        f"{type(append_info)}.")
    merged: Dict[str, Any] = {}
    for entry in append_info:
        if isinstance(entry, dict):
            merged.update(entry)
        elif entry in ("epoch_num", "step_num"):
            merged[entry] = 0
        else:
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' element must be str or dict, but "
                            f"got {type(entry)}.")
    return merged


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
        self._steps = steps
        self._seconds = None if steps else seconds  # a step count wins over a time interval
        self._keep_max, self._keep_minutes = _keeping(keep_max, per_minutes)
        self._integrated, self._async = integrated_save, async_save
        self._network = saved_network
        self._extras = _extra_entries(append_info)
        self._key, self._cipher = enc_key, enc_mode
        self._crc = crc_check
        self._fmt = format
        self.exception_save = exception_save
        self.remove_redundancy = remove_redundancy

    save_checkpoint_steps = property(lambda self: self._steps, doc="Save every this many steps (None/0: by time).")
    save_checkpoint_seconds = property(lambda self: self._seconds, doc="Save every this many seconds.")
    keep_checkpoint_max = property(lambda self: self._keep_max, doc="How many files to keep.")
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_minutes,
                                             doc="Keep one file per this many minutes.")
    integrated_save = property(lambda self: self._integrated, doc="Accepted (one process: always whole).")
    async_save = property(lambda self: self._async, doc="Accepted; saving is synchronous here.")
    saved_network = property(lambda self: self._network, doc="The network to save instead of the train net.")
    append_dict = property(lambda self: self._extras, doc="Extra entries saved with the parameters.")
    enc_key = property(lambda self: self._key, doc="Encryption key (passed to save_checkpoint).")
    enc_mode = property(lambda self: self._cipher, doc="Encryption mode.")
    crc_check = property(lambda self: self._crc, doc="Whether to write a CRC.")
    format = property(lambda self: self._fmt, doc="'ckpt' or 'safetensors'.")

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
        self._name_fn = prefix if callable(prefix) else None
        self._dir_fn = directory if callable(directory) else None
        if config is None:
            config = CheckpointConfig()
        if directory is None:
            folder = os.getcwd()
        else:
            folder = "" if callable(directory) else _make_directory(directory)
        if not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', but "
                            f"got {type(config)}.")
        self._policy = config
        self._folder = folder
        # a fixed prefix steps past the files of an earlier run in the same folder
        self._prefix = prefix if (callable(prefix) or callable(directory)) else _same_prefix(folder, prefix)
        self._extras = dict(config.append_dict or {})
        self._epoch_base = self._extras.get("epoch_num", 0)
        self._step_base = self._extras.get("step_num", 0)
        self._latest = ""
        self._saved_step = 0  # cur_step_num of the last file written
        self._clock = time.time()  # when the last time-triggered save happened
        self._kept: List[str] = []

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last file written.

        Example:
            >>> ModelCheckpoint().latest_ckpt_file_name
            ''
        """
        return self._latest

    def step_end(self, run_context: RunContext) -> None:
        """Save when the configured number of steps (or seconds) has passed.

        Example:
            >>> ModelCheckpoint().step_end.__name__
            'step_end'
        """
        cb = run_context.original_args()
        if self._name_fn is not None:
            stem = self._name_fn(cb)
            self._prefix = stem
            if not isinstance(stem, str) or "/" in stem:
                raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, "
                                 f"it must return a string that does not contain '/', but got {stem}.")
        if self._dir_fn is not None:
            self._folder = _make_directory(self._dir_fn(cb))
        self._save(cb)

    def end(self, run_context: RunContext) -> None:
        """Save the last step at the end of training.

        Example:
            >>> ModelCheckpoint().end.__name__
            'end'
        """
        self._save(run_context.original_args(), force=True)

    def _due(self, step: int, force: bool) -> bool:
        every_steps = self._policy.save_checkpoint_steps
        if every_steps and every_steps > 0:
            return force or step - self._saved_step >= every_steps
        every_seconds = self._policy.save_checkpoint_seconds
        if not (every_seconds and every_seconds > 0):
            return False
        now = time.time()
        if not force and now - self._clock <= every_seconds:
            return False
        self._clock = now
        return True

    def _file_name(self, cb: dict) -> str:
        fmt = self._policy.format
        step_in_epoch = (cb["cur_step_num"] - 1) % cb["batch_num"] + 1
        if self._name_fn is not None:
            return f"{self._prefix}.{fmt}"
        return f"{self._prefix}-{cb['cur_epoch_num']}_{step_in_epoch}.{fmt}"

    def _save(self, cb: dict, force: bool = False) -> None:
        step = cb["cur_step_num"]
        if step == self._saved_step or not self._due(step, force):
            return
        name = self._file_name(cb)
        self._make_room()
        path = os.path.join(self._folder, name)
        self._saved_step = step
        for key, base, now in (("epoch_num", self._epoch_base, cb["cur_epoch_num"]),
                               ("step_num", self._step_base, step)):
            if key in self._extras:
                self._extras[key] = base + now
        chosen = self._policy.saved_network
        from mskernel.train.serialization import save_checkpoint  # the train layer's own module, loaded on use

        save_checkpoint(cb["train_network"] if chosen is None else chosen, path, append_dict=self._extras or None)
        self._latest = path

    def _make_room(self) -> None:
        """Before a save: drop the oldest file when ``keep_checkpoint_max`` are there, or thin the files of the
        last ``keep_checkpoint_per_n_minutes`` down to their oldest."""
        self._kept = self._existing_files(self._policy.format)
        keep_max = self._policy.keep_checkpoint_max
        minutes = self._policy.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= len(self._kept):
            self._remove(min(self._kept, key=os.path.getmtime))
        elif minutes and minutes > 0:
            self._keep_one_per_minutes(minutes, time.time())

    def _existing_files(self, fmt: str) -> List[str]:
        """The files this callback wrote here: ``<prefix>-<digits and separators>.<fmt>``."""
        head, tail = self._prefix + "-", f".{fmt}"
        return [os.path.join(self._folder, name) for name in os.listdir(self._folder)
                if name.startswith(head) and os.path.splitext(name)[1] == tail
                and not any(ch.isalpha() for ch in name[len(self._prefix):-len(tail)])]

    def _remove(self, path: str) -> None:
        try:
            os.chmod(path, stat.S_IWRITE | stat.S_IREAD)
            os.remove(path)
            self._kept.remove(path)
        except (OSError, ValueError):
            logger.warning("Failed to remove the older ckpt file %s.", path)

    def _keep_one_per_minutes(self, minutes: int, now: float) -> None:
        recent = [f for f in self._kept if now - os.path.getmtime(f) < 60 * minutes]
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
