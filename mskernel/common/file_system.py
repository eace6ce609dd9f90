"""MindIO, Huawei's in-memory checkpoint store: ``set_mindio_server_info`` records its server's pool size and
``mindio_preload`` preloads a checkpoint through it. Without the ``mindio`` package (as on the CPU wheel's
machine, and here) there is nothing to preload into, and ``mindio_preload`` answers False as MindSpore does.

Example:
    >>> set_mindio_server_info(8); SERVER_INFO
    {'memfs.data_block_pool_capacity_in_gb': '8'}
    >>> mindio_preload("net.ckpt")
    False
"""
from __future__ import annotations

import importlib.util
from typing import Dict

__all__ = ["set_mindio_server_info", "mindio_preload"]

#: the MindIO server settings set_mindio_server_info recorded
SERVER_INFO: Dict[str, str] = {}


def set_mindio_server_info(data_block_pool_capacity_in_gb: int = 100) -> None:
    """Record the capacity (GB, a positive int) of the MindIO server's data-block pool.

    Example:
        >>> set_mindio_server_info(0)
        Traceback (most recent call last):
        ...
        ValueError: The 'data_block_pool_capacity_in_gb' must be int and must > 0, but got '0' with type 'int'.
    """
    v = data_block_pool_capacity_in_gb
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise ValueError(f"The 'data_block_pool_capacity_in_gb' must be int and must > 0, but got '{v}' with type "
                         f"'{type(v).__name__}'.")
    SERVER_INFO["memfs.data_block_pool_capacity_in_gb"] = str(v)


def mindio_preload(ckpt_file_name: str) -> bool:
    """Preload ``ckpt_file_name`` through MindIO: True when done, False when MindIO is not installed.

    Example:
        >>> mindio_preload(3)
        Traceback (most recent call last):
        ...
        TypeError: For 'mindio_preload', the type of 'ckpt_file_name' should be 'str', but got type 'int'.
    """
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'mindio_preload', the type of 'ckpt_file_name' should be 'str', but got type "
                        f"'{type(ckpt_file_name).__name__}'.")
    if importlib.util.find_spec("mindio") is None:
        return False
    import mindio  # pragma: no cover (not installable here)

    if not hasattr(mindio, "preload"):  # pragma: no cover
        return False
    mindio.preload(ckpt_file_name)  # pragma: no cover
    return True  # pragma: no cover
