"""``set_context``/``get_context``/``set_device``: MindSpore's run settings, on a CPU.

Both modes run eagerly (GRAPH_MODE code runs as PyNative). Device targets "GPU" and "Ascend"
are accepted with a one-time warning that kernels run on the CPU, so tutorials written for those
devices run unchanged.

Example:
    >>> import mskernel as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE)
    >>> ms.get_context("mode") == ms.GRAPH_MODE
    True
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Dict, Optional

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "set_device", "get_current_device",
           "DeviceInfo", "device_warning"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
_VALID_TARGETS = ["CPU", "GPU", "Ascend"]

_context: Dict[str, Any] = {"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0, "check_bprop": False,
                            "save_graphs": False, "jit_level": "O0"}
_device_set: Optional[str] = None
_warned: set = set()


@dataclass(frozen=True)
class DeviceInfo:
    """The current device (``get_current_device()``).

    Example:
        >>> info = get_current_device()
        >>> info.device_target, type(info.device_id).__name__
        ('CPU', 'int')
    """

    device_target: str
    device_id: int


def device_warning(target: str, what: str = "kernels run") -> None:
    """Warn once per target that a GPU/Ascend request runs on the CPU.

    Example:
        >>> device_warning("CPU")  # nothing to say for the CPU
    """
    if target == "CPU" or target in _warned:
        return
    _warned.add(target)
    warnings.warn(f"mskernel: device_target '{target}' is accepted for compatibility; {what} on the CPU.",
                  UserWarning, stacklevel=3)


def _check_target(device_target: Any) -> str:
    if device_target not in _VALID_TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of {_VALID_TARGETS}, but got {device_target}.")
    return device_target


def set_device(device_target: str, device_id: Optional[int] = None) -> None:
    """Choose the device (``"CPU"``; ``"GPU"``/``"Ascend"`` run on the CPU with a warning).

    As in MindSpore, the device cannot be changed once set.

    Example:
        >>> set_device("CPU")
        >>> get_current_device().device_target
        'CPU'
    """
    global _device_set
    target = _check_target(device_target)
    if device_id is not None and (not isinstance(device_id, int) or device_id < 0):
        raise ValueError("The device id must bigger than or equal to 0.")
    if _device_set is not None and _device_set != target:
        raise RuntimeError("The 'mindspore.set_device' can not be modified.")
    _device_set = target
    _context["device_target"] = target
    if device_id is not None:
        _context["device_id"] = device_id
    device_warning(target)


def get_current_device() -> DeviceInfo:
    """The device chosen with :func:`set_device` (CPU by default).

    Example:
        >>> get_current_device().device_target
        'CPU'
    """
    return DeviceInfo(_context["device_target"], _context["device_id"])


def set_context(**kwargs: Any) -> None:
    """Set run options: ``mode`` (GRAPH_MODE or PYNATIVE_MODE; both run eagerly here),
    ``device_target``/``device_id`` (deprecated in MindSpore in favour of :func:`set_device`),
    ``check_bprop`` and other keys (stored, readable with :func:`get_context`).

    Example:
        >>> set_context(mode=PYNATIVE_MODE, check_bprop=True); get_context("check_bprop")
        True
    """
    if "mode" in kwargs:
        mode = kwargs["mode"]
        if mode not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(mode, bool):
            raise ValueError(f"For 'set_context', the argument 'mode' should be context.GRAPH_MODE (0) or "
                             f"context.PYNATIVE_MODE (1), but got {mode}.")
    if "device_target" in kwargs:
        target = _check_target(kwargs["device_target"])
        _context["device_target"] = target
        device_warning(target)
    for k, v in kwargs.items():
        if k != "device_target":
            _context[k] = v


def get_context(attr_key: str) -> Any:
    """A context value (``"mode"``, ``"device_target"``, ...).

    Example:
        >>> get_context("device_target") in ("CPU", "GPU", "Ascend")
        True
    """
    if attr_key not in _context:
        raise ValueError(f"For 'get_context', the argument 'attr_key' {attr_key!r} is not a context key; known keys: "
                         f"{sorted(_context)}.")
    return _context[attr_key]


def _reset_for_tests() -> None:
    """Back to defaults (tests and notebooks that switch devices in one process)."""
    global _device_set
    _device_set = None
    _context.update({"mode": PYNATIVE_MODE, "device_target": "CPU", "device_id": 0, "check_bprop": False})
