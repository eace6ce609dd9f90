"""Collective-communication management for one process: rank 0 of a group of 1.

MindSpore's ``init()`` starts HCCL/NCCL/MCCL (and on a CPU without ``mpirun`` raises). mskernel
runs in one process on the CPU, so ``init()`` just records that it was called and every query
answers for a single device: ``get_rank() == 0``, ``get_group_size() == 1``. Scripts written for
data-parallel training therefore run unchanged, as one worker.

Example:
    >>> init(); get_rank(), get_group_size(), GlobalComm.INITED
    (0, 1, True)
"""
from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "destroy_group", "get_local_rank", "get_local_rank_size",
           "get_comm_name", "get_process_group_ranks", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

logger = logging.getLogger(__name__)

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"

_BACKEND_GROUPS = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}
_GROUPS: Dict[str, List[int]] = {}


class GlobalComm:
    """The communication state: backend name, world group name, whether ``init`` ran.

    Example:
        >>> GlobalComm.WORLD_COMM_GROUP
        'hccl_world_group'
    """

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def init(backend_name: Optional[str] = None) -> None:
    """Start communication (here: one process, nothing to start).

    Example:
        >>> init("nccl"); GlobalComm.WORLD_COMM_GROUP
        'nccl_world_group'
        >>> init("hccl")
    """
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name)}")
    name = (backend_name or "hccl").lower()
    if name not in _BACKEND_GROUPS:
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' or 'mccl', but "
                           f"got '{backend_name}'.")
    GlobalComm.BACKEND = name
    GlobalComm.WORLD_COMM_GROUP = _BACKEND_GROUPS[name]
    GlobalComm.INITED = True
    logger.info("mskernel runs in one process: communication init() gives rank 0 of a group of 1.")


def release() -> None:
    """Stop communication.

    Example:
        >>> release(); GlobalComm.INITED
        False
    """
    GlobalComm.INITED = False
    _GROUPS.clear()


def _group_ranks(group: str) -> List[int]:
    if not isinstance(group, str):
        raise TypeError(f"For communication APIs, the argument 'group' must be a string, but got {type(group)}.")
    return _GROUPS.get(group, [0])


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group``: 0.

    Example:
        >>> get_rank()
        0
    """
    _group_ranks(group)
    return 0


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of processes in ``group``: 1 for the world group.

    Example:
        >>> get_group_size()
        1
    """
    return len(_group_ranks(group))


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The rank on this machine: 0.

    Example:
        >>> get_local_rank()
        0
    """
    _group_ranks(group)
    return 0


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of processes on this machine: 1.

    Example:
        >>> get_local_rank_size()
        1
    """
    _group_ranks(group)
    return 1


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of ``group_rank_id`` in ``group``.

    Example:
        >>> get_world_rank_from_group_rank("hccl_world_group", 0)
        0
    """
    ranks = _group_ranks(group)
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For 'get_world_rank_from_group_rank', the 'group_rank_id' {group_rank_id} is out of the "
                         f"group's {len(ranks)} ranks.")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``.

    Example:
        >>> get_group_rank_from_world_rank(0, "hccl_world_group")
        0
    """
    ranks = _group_ranks(group)
    if world_rank_id not in ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', the world rank {world_rank_id} is not in the "
                         f"group {group}.")
    return ranks.index(world_rank_id)


def create_group(group: str, rank_ids: List[int], options: Any = None) -> None:
    """Create a user group; only rank 0 exists here.

    Example:
        >>> create_group("g0", [0]); get_group_size("g0")
        1
        >>> destroy_group("g0")
    """
    if not isinstance(rank_ids, list) or any(r != 0 for r in rank_ids) or not rank_ids:
        raise ValueError(f"For 'create_group', the 'rank_ids' must be a non-empty list of existing ranks (only rank 0 "
                         f"exists in one process), but got {rank_ids}.")
    _GROUPS[group] = sorted(set(rank_ids))


def destroy_group(group: str) -> None:
    """Remove a user group.

    Example:
        >>> create_group("g1", [0]); destroy_group("g1")
    """
    _GROUPS.pop(group, None)


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    """The communicator's name (the group name here).

    Example:
        >>> get_comm_name("hccl_world_group")
        'hccl_world_group'
    """
    _group_ranks(group)
    return group


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> List[int]:
    """The world ranks in ``group``.

    Example:
        >>> get_process_group_ranks()
        [0]
    """
    return list(_group_ranks(group))
