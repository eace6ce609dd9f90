"""``mindspore.communication``: one process on the CPU, so rank 0 of a group of 1.

Example:
    >>> from mskernel.communication import init, get_rank, get_group_size
    >>> init(); get_rank(), get_group_size()
    (0, 1)
"""
from mskernel.communication import management
from mskernel.communication.management import *  # noqa: F401,F403

__all__ = list(management.__all__)
