"""The CPU kernels' tuning: ``threads_num`` records how many threads CPU kernels may use (MindSpore's default is
25; mskernel's numpy kernels take numpy's own threading, so the number is kept for code that reads it back).

Example:
    >>> sorted(SETTINGS)
    ['threads_num']
"""
from typing import Dict

__all__ = ["threads_num", "SETTINGS"]

#: the CPU tuning settings, as set
SETTINGS: Dict[str, int] = {"threads_num": 25}


def threads_num(num: int) -> None:
    """Set the number of threads for CPU kernels (a positive int).

    Example:
        >>> threads_num(0)
        Traceback (most recent call last):
        ...
        ValueError: The 'num' must be int and must > 0, but got '0' with type 'int'.
    """
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"The parameter 'num' must be {int}, but got {type(num)}")
    if num <= 0:
        raise ValueError(f"The 'num' must be int and must > 0, but got '{num}' with type 'int'.")
    SETTINGS["threads_num"] = num
