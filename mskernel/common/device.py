"""``DeviceCtx``: a ``with`` block that runs on a named device. mskernel runs everything on the CPU (GPU and
Ascend code runs unchanged on it), so the block checks the name and id as MindSpore does and records the
device it asked for; tensors and ops are the same inside and out.

Example:
    >>> with DeviceCtx("CPU") as ctx:
    ...     current()
    ('CPU', 0)
    >>> print(current())
    None
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

__all__ = ["DeviceCtx", "current"]

_VALID = ["CPU", "GPU", "Ascend", "meta"]
_STACK: List[Tuple[str, int]] = []


def current() -> Optional[Tuple[str, int]]:
    """The (name, device_id) of the innermost active DeviceCtx, or None.

    Example:
        >>> print(current())
        None
    """
    return _STACK[-1] if _STACK else None


class DeviceCtx:
    """``DeviceCtx(name, device_id=None)``: a device scope (see the module docstring).

    Example:
        >>> with DeviceCtx("NPU"):
        ...     pass
        Traceback (most recent call last):
        ...
        ValueError: For DeviceCtx, the name must be one of ['CPU', 'GPU', 'Ascend', 'meta'], but got NPU.
    """

    def __init__(self, name: str, device_id: Optional[int] = None) -> None:
        self.name = name
        self.device_id = device_id

    def __enter__(self) -> "DeviceCtx":
        if self.name not in _VALID:
            raise ValueError(f"For DeviceCtx, the name must be one of {_VALID}, but got {self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.device_id is None:
            self.device_id = 0
        _STACK.append((self.name, self.device_id))
        return self

    def __exit__(self, *exc: Any) -> None:
        _STACK.pop()
