"""``mindspore.multiprocessing``: Python's :mod:`multiprocessing`, under MindSpore's name (MindSpore adds a fork
hook for its device runtime; a CPU process forks as Python does).

Example:
    >>> from mskernel import multiprocessing as mp
    >>> mp.cpu_count() >= 1, mp.Process is __import__("multiprocessing").Process
    (True, True)
"""
from multiprocessing import *  # noqa: F401,F403
from multiprocessing import __all__  # noqa: F401
