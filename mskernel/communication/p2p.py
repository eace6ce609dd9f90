"""A point-to-point operation, described: what ``batch_isend_irecv`` would carry out.

``P2POp`` only records the operation (send or receive), the tensor, the peer rank and the group, checking each
as MindSpore 2.10 does; building one needs no peer. Carrying it out does: ``batch_isend_irecv``, ``isend`` and
``irecv`` are refused (:mod:`mskernel.refusals`), because mskernel runs one process (rank 0 of a group of 1).

Example:
    >>> import mskernel as ms
    >>> from mskernel.mint.distributed import P2POp, isend
    >>> op = P2POp(isend, ms.Tensor(1.0), 1)
    >>> op.op_name, op.peer, op.group, op.tag
    ('isend', 1, None, 0)
    >>> P2POp("send", ms.Tensor(1.0), 1)
    Traceback (most recent call last):
    ...
    TypeError: Expected op to be of type isend or irecv, but got send
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Union

from mskernel.common.tensor import Tensor

__all__ = ["P2POp"]

_KINDS = ("isend", "irecv")


def _is_p2p_function(op: Any) -> bool:
    """Whether ``op`` is one of the point-to-point functions (mint.distributed's or ops.communication's)."""
    from mskernel.refusals import refused_names
    return any(op is refused_names(ns).get(name) for ns in ("mindspore.mint.distributed", "mindspore.ops")
               for name in _KINDS)


class P2POp:
    """One send or receive for ``batch_isend_irecv``: ``op`` (``"isend"``/``"irecv"`` or the function itself),
    the ``tensor`` to send or to receive into, the ``peer`` rank, the ``group`` (``None``: the world group) and
    ``tag`` (only 0).

    Raises TypeError for another ``op``, a ``tensor`` that is not a Tensor or a ``peer`` that is not an int, and
    NotImplementedError for a ``tag`` other than 0, with MindSpore's texts.

    Example:
        >>> import mskernel as ms
        >>> recv = P2POp("irecv", ms.Tensor(0.0), 0)
        >>> recv.op_name, float(recv.tensor)
        ('irecv', 0.0)
    """

    def __init__(self, op: Union[str, Callable[..., Any]], tensor: Tensor, peer: int, group: Optional[str] = None,
                 tag: int = 0) -> None:
        if isinstance(op, str):
            if op not in _KINDS:
                raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
            self.op_name = op
        elif _is_p2p_function(op):
            self.op_name = op.__name__
        else:
            raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Expected tensor to be Tensor, but got {type(tensor)}.")
        if not isinstance(peer, int):
            raise TypeError("For P2POp, the peer must be int")
        if tag != 0:
            raise NotImplementedError("tag is not support yet.")
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag
