"""MindSpore's installation check and log-level queries, answered for mskernel.

``get_level`` and ``get_log_config`` read the ``GLOG_*`` environment variables as they were when mskernel was
imported (MindSpore reads them when it starts too: setting them later changes nothing). ``run_check`` checks
that a multiplication runs and says so.

Example:
    >>> get_level() in ("0", "1", "2", "3")
    True
"""
from __future__ import annotations

import os
from typing import Dict

#: the MindSpore release whose API mskernel implements (what run_check reports)
MINDSPORE_API_VERSION = "2.10.0"

__all__ = ["get_level", "get_log_config", "run_check", "async_ckpt_thread_status"]

_LOG_KEYS = ("GLOG_v", "GLOG_logtostderr", "GLOG_log_dir", "logger_maxBytes", "logger_backupCount",
             "GLOG_stderrthreshold")
_AT_IMPORT = {k: os.environ[k] for k in _LOG_KEYS if k in os.environ}


def get_level() -> str:
    """The log level as a string: ``'2'`` (warnings) unless ``GLOG_v`` said otherwise at import.

    Example:
        >>> isinstance(get_level(), str)
        True
    """
    return _AT_IMPORT.get("GLOG_v", "2")


def get_log_config() -> Dict[str, str]:
    """The log configuration: the level and where logs go, with any other ``GLOG_*`` settings made before
    import.

    Example:
        >>> sorted(get_log_config())[:2]
        ['GLOG_logtostderr', 'GLOG_v']
    """
    out = {"GLOG_v": get_level(), "GLOG_logtostderr": _AT_IMPORT.get("GLOG_logtostderr", "1")}
    if out["GLOG_logtostderr"] == "0":
        out.update({k: v for k, v in _AT_IMPORT.items() if k not in out})
    return out


def run_check() -> None:
    """Check the installation: multiply two tensors and print the result of the check, in MindSpore's words (the
    version printed is that of the MindSpore API mskernel implements, as ``mindspore`` code expects).

    Example:
        >>> run_check()  # doctest: +NORMALIZE_WHITESPACE
        MindSpore version:  2.10.0
        The result of multiplication calculation is correct, MindSpore has been installed on platform [CPU]
        successfully!
    """
    import numpy as np

    from mskernel.common.tensor import Tensor

    print(f"MindSpore version:  {MINDSPORE_API_VERSION}")
    x = Tensor(np.ones((2, 2), np.float32))
    ok = np.array_equal((x * x).asnumpy(), np.ones((2, 2), np.float32))
    if not ok:
        raise RuntimeError("The result of multiplication calculation is not correct.")
    print("The result of multiplication calculation is correct, MindSpore has been installed on platform [CPU] "
          "successfully!")


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save is still running: never (mskernel saves synchronously).

    Example:
        >>> async_ckpt_thread_status()
        False
    """
    return False
