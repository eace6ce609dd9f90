"""``mindspore.mint.distributed``: collective communication in one process, rank 0 of a group of 1.

mskernel runs one process, as :mod:`mskernel.communication` does: ``get_rank()`` is 0, ``get_world_size()``
is 1, and every collective is what it is in a group of one. A reduction, broadcast or barrier leaves its
tensor as it is; a gather or all-gather puts the one input in the one output slot; a scatter, reduce-scatter or
all-to-all puts the one input slot in the output. The point-to-point functions are refused with the reason
(:mod:`mskernel.refusals`): there is no peer.

Example:
    >>> import mskernel as ms
    >>> from mskernel.mint import distributed as dist
    >>> dist.init_process_group(); dist.get_rank(), dist.get_world_size(), dist.is_initialized()
    (0, 1, True)
    >>> out = [ms.Tensor([0.0, 0.0])]
    >>> dist.all_gather(out, ms.Tensor([1.0, 2.0])); print(out[0])
    [1. 2.]
    >>> dist.destroy_process_group()
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from mskernel.common.tensor import Tensor
from mskernel.communication import management as _m
from mskernel.communication.p2p import P2POp  # noqa: F401  (a description; batch_isend_irecv is refused)
from mskernel.communication.tcp_store import TCPStore  # noqa: F401  (mint.distributed.TCPStore)
from mskernel.refusals import refused_names

_REFUSED = refused_names("mindspore.mint.distributed")
globals().update(_REFUSED)

#: MindSpore's reduction names for ``op``
REDUCE_OPS = ("sum", "max", "min", "prod")
_NEW_GROUPS: List[str] = []


class CommHandle:
    """What an ``async_op=True`` collective gives: ``wait()`` returns at once (the work is done).

    Example:
        >>> CommHandle().wait()
    """

    def wait(self) -> None:
        """Wait for the collective (it has finished already)."""


def _done(async_op: bool) -> Optional[CommHandle]:
    return CommHandle() if async_op else None


def _group(group: Optional[str], who: str) -> str:
    if group is None:
        return _m.GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def _tensor(x: Any, who: str, arg: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', the input '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _tensors(xs: Any, who: str, arg: str) -> List[Tensor]:
    if not isinstance(xs, list) or len(xs) != 1:
        raise TypeError(f"For '{who}', the '{arg}' must be a list of one Tensor per rank (a group of 1 here), but "
                        f"got {xs!r}.")
    return [_tensor(x, who, arg) for x in xs]


def _op(op: Any, who: str) -> None:
    if not isinstance(op, str) or op not in REDUCE_OPS:
        raise TypeError(f"For '{who}', the 'op' must be one of {', '.join(REDUCE_OPS)}, but got {op!r}.")


def _rank0(rank: Any, who: str, arg: str) -> None:
    if rank != 0:
        raise ValueError(f"For '{who}', the '{arg}' must be a rank of the group (only rank 0 in one process), but "
                         f"got {rank}.")


def _put(out: Tensor, src: Tensor, who: str) -> None:
    if out.shape != src.shape:
        raise ValueError(f"For '{who}', the output's shape {out.shape} must be the input's {src.shape} in a "
                         f"group of 1.")
    out.copy_(src)


def is_available() -> bool:
    """Whether collective communication is available (it is: a group of 1).

    Example:
        >>> is_available()
        True
    """
    return True


def init_process_group(backend: str = "hccl", init_method: Any = None, timeout: Any = None, world_size: int = -1,
                       rank: int = -1, store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Any = None) -> None:
    """Start communication (:func:`mskernel.communication.init`); ``world_size`` and ``rank`` may only say 1 and 0.

    Example:
        >>> init_process_group(); is_initialized()
        True
        >>> destroy_process_group()
    """
    if world_size not in (-1, 1):
        raise ValueError(f"For 'init_process_group', the 'world_size' must be -1 or 1 (mskernel runs one process), "
                         f"but got {world_size}.")
    if rank not in (-1, 0):
        raise ValueError(f"For 'init_process_group', the 'rank' must be -1 or 0 (mskernel runs one process), but "
                         f"got {rank}.")
    _m.init(backend)


def is_initialized() -> bool:
    """Whether ``init_process_group`` ran (and no ``destroy_process_group`` since).

    Example:
        >>> destroy_process_group(); is_initialized()
        False
    """
    return bool(_m.GlobalComm.INITED)


def destroy_process_group(group: Optional[str] = None) -> None:
    """Destroy ``group``, or stop communication altogether when ``group`` is None.

    Example:
        >>> destroy_process_group()
    """
    if group is None or group == _m.GlobalComm.WORLD_COMM_GROUP:
        _m.release()
        _NEW_GROUPS.clear()
    else:
        _m.destroy_group(_group(group, "destroy_process_group"))


def new_group(ranks: Optional[List[int]] = None, timeout: Any = None, backend: Optional[str] = None,
              pg_options: Any = None, use_local_synchronization: bool = False, group_desc: Optional[str] = None) -> str:
    """A new group of ``ranks`` (only ``[0]`` here), by its name.

    Example:
        >>> name = new_group([0]); get_world_size(name), get_process_group_ranks(name)
        (1, [0])
    """
    ranks = [0] if ranks is None else ranks
    name = group_desc or f"mskernel_group_{len(_NEW_GROUPS)}"
    _m.create_group(name, list(ranks))
    _NEW_GROUPS.append(name)
    return name


def get_backend(group: Optional[str] = None) -> str:
    """The backend's name (``"hccl"`` unless ``init_process_group`` chose another).

    Example:
        >>> get_backend()
        'hccl'
    """
    _m.get_group_size(_group(group, "get_backend"))
    return _m.GlobalComm.BACKEND


def get_rank(group: Optional[str] = None) -> int:
    """This process's rank: 0.

    Example:
        >>> get_rank()
        0
    """
    return _m.get_rank(_group(group, "get_rank"))


def get_world_size(group: Optional[str] = None) -> int:
    """The number of processes in ``group``: 1.

    Example:
        >>> get_world_size()
        1
    """
    return _m.get_group_size(_group(group, "get_world_size"))


def get_global_rank(group: str, group_rank: int) -> int:
    """The global rank of ``group_rank`` in ``group``.

    Example:
        >>> get_global_rank(None, 0)
        0
    """
    return _m.get_world_rank_from_group_rank(_group(group, "get_global_rank"), group_rank)


def get_group_rank(group: str, global_rank: int) -> int:
    """The rank in ``group`` of ``global_rank``.

    Example:
        >>> get_group_rank(None, 0)
        0
    """
    return _m.get_group_rank_from_world_rank(global_rank, _group(group, "get_group_rank"))


def get_process_group_ranks(group: Optional[str] = None) -> List[int]:
    """The global ranks in ``group``: ``[0]``.

    Example:
        >>> get_process_group_ranks()
        [0]
    """
    return _m.get_process_group_ranks(_group(group, "get_process_group_ranks"))


def barrier(group: Optional[str] = None, async_op: bool = False, device_ids: Any = None) -> Optional[CommHandle]:
    """Wait for every process of ``group`` (there is only this one).

    Example:
        >>> barrier() is None
        True
    """
    _group(group, "barrier")
    return _done(async_op)


def all_reduce(tensor: Tensor, op: str = "sum", group: Optional[str] = None,
               async_op: bool = False) -> Optional[CommHandle]:
    """Reduce ``tensor`` over the group in place; over one process it stays as it is.

    Example:
        >>> import mskernel as ms
        >>> t = ms.Tensor([1.0, 2.0]); all_reduce(t); print(t)
        [1. 2.]
    """
    _tensor(tensor, "all_reduce", "tensor")
    _op(op, "all_reduce")
    _group(group, "all_reduce")
    return _done(async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: Optional[str] = None,
           async_op: bool = False) -> Optional[CommHandle]:
    """Reduce ``tensor`` onto rank ``dst`` (0); over one process it stays as it is.

    Example:
        >>> import mskernel as ms
        >>> t = ms.Tensor([3.0]); reduce(t, 0); print(t)
        [3.]
    """
    _tensor(tensor, "reduce", "tensor")
    _op(op, "reduce")
    _rank0(dst, "reduce", "dst")
    _group(group, "reduce")
    return _done(async_op)


def broadcast(tensor: Tensor, src: int, group: Optional[str] = None, async_op: bool = False) -> Optional[CommHandle]:
    """Send ``tensor`` from rank ``src`` (0) to the group; here it stays as it is.

    Example:
        >>> import mskernel as ms
        >>> t = ms.Tensor([1, 2]); broadcast(t, 0); print(t)
        [1 2]
    """
    _tensor(tensor, "broadcast", "tensor")
    _rank0(src, "broadcast", "src")
    _group(group, "broadcast")
    return _done(async_op)


def all_gather(tensor_list: List[Tensor], tensor: Tensor, group: Optional[str] = None,
               async_op: bool = False) -> Optional[CommHandle]:
    """Every rank's ``tensor`` into ``tensor_list`` (one slot here).

    Example:
        >>> import mskernel as ms
        >>> out = [ms.Tensor([0, 0])]; all_gather(out, ms.Tensor([1, 2])); print(out[0])
        [1 2]
    """
    outs = _tensors(tensor_list, "all_gather", "tensor_list")
    _put(outs[0], _tensor(tensor, "all_gather", "tensor"), "all_gather")
    _group(group, "all_gather")
    return _done(async_op)


def all_gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, group: Optional[str] = None,
                           async_op: bool = False) -> Optional[CommHandle]:
    """Every rank's ``input_tensor`` concatenated along axis 0 into ``output_tensor``.

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0, 0.0]); all_gather_into_tensor(out, ms.Tensor([1.0, 2.0])); print(out)
        [1. 2.]
    """
    who = "all_gather_into_tensor"
    _put(_tensor(output_tensor, who, "output_tensor"), _tensor(input_tensor, who, "input_tensor"), who)
    _group(group, who)
    return _done(async_op)


def all_gather_into_tensor_uneven(output: Tensor, input: Tensor, output_split_sizes: Optional[List[int]] = None,  # noqa: A002
                                  group: Optional[str] = None, async_op: bool = False) -> Optional[CommHandle]:
    """``all_gather_into_tensor`` with a first-axis size per rank (``output_split_sizes``, one entry here).

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0]); all_gather_into_tensor_uneven(out, ms.Tensor([5.0]), [1]); print(out)
        [5.]
    """
    who = "all_gather_into_tensor_uneven"
    src = _tensor(input, who, "input")
    if output_split_sizes is not None and list(output_split_sizes) != [src.shape[0] if src.ndim else 1]:
        raise ValueError(f"For '{who}', the 'output_split_sizes' must hold the input's first-axis size for the one "
                         f"rank, but got {output_split_sizes}.")
    _put(_tensor(output, who, "output"), src, who)
    _group(group, who)
    return _done(async_op)


def reduce_scatter(output: Tensor, input_list: List[Tensor], op: str = "sum", group: Optional[str] = None,
                   async_op: bool = False) -> Optional[CommHandle]:
    """The reduction of every rank's ``input_list[rank]`` into ``output`` (one slot here).

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0]); reduce_scatter(out, [ms.Tensor([4.0])]); print(out)
        [4.]
    """
    _op(op, "reduce_scatter")
    _put(_tensor(output, "reduce_scatter", "output"), _tensors(input_list, "reduce_scatter", "input_list")[0],
         "reduce_scatter")
    _group(group, "reduce_scatter")
    return _done(async_op)


def reduce_scatter_tensor(output: Tensor, input: Tensor, op: str = "sum", group: Optional[str] = None,  # noqa: A002
                          async_op: bool = False) -> Optional[CommHandle]:
    """``input`` reduced over the ranks and split along axis 0, this rank's part into ``output``.

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0, 0.0]); reduce_scatter_tensor(out, ms.Tensor([1.0, 2.0])); print(out)
        [1. 2.]
    """
    who = "reduce_scatter_tensor"
    _op(op, who)
    _put(_tensor(output, who, "output"), _tensor(input, who, "input"), who)
    _group(group, who)
    return _done(async_op)


def reduce_scatter_tensor_uneven(output: Tensor, input: Tensor, input_split_sizes: Optional[List[int]] = None,  # noqa: A002
                                 op: str = "sum", group: Optional[str] = None,
                                 async_op: bool = False) -> Optional[CommHandle]:
    """``reduce_scatter_tensor`` with a first-axis size per rank (one entry here).

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0]); reduce_scatter_tensor_uneven(out, ms.Tensor([2.0]), [1]); print(out)
        [2.]
    """
    who = "reduce_scatter_tensor_uneven"
    _op(op, who)
    src = _tensor(input, who, "input")
    if input_split_sizes is not None and list(input_split_sizes) != [src.shape[0] if src.ndim else 1]:
        raise ValueError(f"For '{who}', the 'input_split_sizes' must hold the input's first-axis size for the one "
                         f"rank, but got {input_split_sizes}.")
    _put(_tensor(output, who, "output"), src, who)
    _group(group, who)
    return _done(async_op)


def all_to_all(output_tensor_list: List[Tensor], input_tensor_list: List[Tensor], group: Optional[str] = None,
               async_op: bool = False) -> Optional[CommHandle]:
    """``input_tensor_list[r]`` to rank ``r``, received into ``output_tensor_list`` (one slot each here).

    Example:
        >>> import mskernel as ms
        >>> out = [ms.Tensor([0])]; all_to_all(out, [ms.Tensor([7])]); print(out[0])
        [7]
    """
    outs = _tensors(output_tensor_list, "all_to_all", "output_tensor_list")
    ins = _tensors(input_tensor_list, "all_to_all", "input_tensor_list")
    _put(outs[0], ins[0], "all_to_all")
    _group(group, "all_to_all")
    return _done(async_op)


def all_to_all_single(output: Tensor, input: Tensor, output_split_sizes: Optional[List[int]] = None,  # noqa: A002
                      input_split_sizes: Optional[List[int]] = None, group: Optional[str] = None,
                      async_op: bool = False) -> Optional[CommHandle]:
    """``all_to_all`` on one tensor split along axis 0.

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0, 0]); all_to_all_single(out, ms.Tensor([3, 4])); print(out)
        [3 4]
    """
    who = "all_to_all_single"
    _put(_tensor(output, who, "output"), _tensor(input, who, "input"), who)
    _group(group, who)
    return _done(async_op)


def gather(tensor: Tensor, gather_list: List[Tensor], dst: int = 0, group: Optional[str] = None,
           async_op: bool = False) -> Optional[CommHandle]:
    """Every rank's ``tensor`` into ``gather_list`` on rank ``dst`` (0).

    Example:
        >>> import mskernel as ms
        >>> out = [ms.Tensor([0.0])]; gather(ms.Tensor([9.0]), out); print(out[0])
        [9.]
    """
    _rank0(dst, "gather", "dst")
    _put(_tensors(gather_list, "gather", "gather_list")[0], _tensor(tensor, "gather", "tensor"), "gather")
    _group(group, "gather")
    return _done(async_op)


def scatter(tensor: Tensor, scatter_list: List[Tensor], src: int = 0, group: Optional[str] = None,
            async_op: bool = False) -> Optional[CommHandle]:
    """``scatter_list[r]`` from rank ``src`` (0) into each rank's ``tensor``.

    Example:
        >>> import mskernel as ms
        >>> t = ms.Tensor([0.0]); scatter(t, [ms.Tensor([6.0])]); print(t)
        [6.]
    """
    _rank0(src, "scatter", "src")
    _put(_tensor(tensor, "scatter", "tensor"), _tensors(scatter_list, "scatter", "scatter_list")[0], "scatter")
    _group(group, "scatter")
    return _done(async_op)


def _objects(xs: Any, who: str, arg: str) -> list:
    if not isinstance(xs, list) or len(xs) != 1:
        raise TypeError(f"For '{who}', the '{arg}' must be a list of one object per rank (a group of 1 here), but "
                        f"got {xs!r}.")
    return xs


def all_gather_object(object_list: list, obj: Any, group: Optional[str] = None) -> None:
    """Every rank's picklable ``obj`` into ``object_list`` (one slot here).

    Example:
        >>> out = [None]; all_gather_object(out, {"a": 1}); out
        [{'a': 1}]
    """
    _objects(object_list, "all_gather_object", "object_list")[0] = obj
    _group(group, "all_gather_object")


def gather_object(obj: Any, object_gather_list: Optional[list] = None, dst: int = 0,
                  group: Optional[str] = None) -> None:
    """Every rank's ``obj`` into ``object_gather_list`` on rank ``dst`` (0).

    Example:
        >>> out = [None]; gather_object("x", out); out
        ['x']
    """
    _rank0(dst, "gather_object", "dst")
    _objects(object_gather_list, "gather_object", "object_gather_list")[0] = obj
    _group(group, "gather_object")


def broadcast_object_list(object_list: list, src: int = 0, group: Optional[str] = None, device: Any = None) -> None:
    """Rank ``src``'s (0) objects to every rank; here they stay as they are.

    Example:
        >>> objs = [1, "a"]; broadcast_object_list(objs); objs
        [1, 'a']
    """
    _rank0(src, "broadcast_object_list", "src")
    if not isinstance(object_list, list):
        raise TypeError(f"For 'broadcast_object_list', the 'object_list' must be a list, but got "
                        f"{type(object_list).__name__}.")
    _group(group, "broadcast_object_list")


def scatter_object_list(scatter_object_output_list: list, scatter_object_input_list: list, src: int = 0,
                        group: Optional[str] = None) -> None:
    """``scatter_object_input_list[r]`` from rank ``src`` (0) into each rank's output list's one slot.

    Example:
        >>> out = [None]; scatter_object_list(out, ["x"]); out
        ['x']
    """
    _rank0(src, "scatter_object_list", "src")
    ins = _objects(scatter_object_input_list, "scatter_object_list", "scatter_object_input_list")
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError(f"For 'scatter_object_list', the 'scatter_object_output_list' must be a non-empty list, but "
                        f"got {scatter_object_output_list!r}.")
    scatter_object_output_list[0] = ins[0]
    _group(group, "scatter_object_list")


#: whether the collective functions write their result into their input tensor (set_comm_ops_inplace)
INPLACE: Dict[str, Any] = {"enabled": False, "functions": None}


def set_comm_ops_inplace(is_enable: bool, func_list: Any = None) -> None:
    """Make the collective functions (all of them, or those named in ``func_list``) write their result into their
    input tensor. In a group of one each result equals its input, so the values are the same either way; the
    choice is recorded in ``INPLACE``.

    Example:
        >>> set_comm_ops_inplace(True); INPLACE["enabled"]
        True
        >>> set_comm_ops_inplace(False)
    """
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, but got "
                        f"'is_enable' type : {type(is_enable)}.")
    INPLACE.update(enabled=is_enable, functions=None if func_list is None else list(func_list))


def _comm_args(who: str, group: Any, async_op: Any) -> str:
    group = _m.GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    return group


def _rooted(output_tensor: Any, input_tensor: Any, root: Any, root_name: str, who: str) -> None:
    if not isinstance(input_tensor, Tensor):
        raise TypeError(f"For {who}, the input tensor must be tensor")
    if not isinstance(output_tensor, Tensor):
        raise TypeError(f"For {who}, the output tensor must be tensor")
    if not isinstance(root, int):
        raise TypeError(f"For {who}, the {root_name} must be int")


def gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, dst: int = 0, group: Optional[str] = None,
                       async_op: bool = False) -> Optional[CommHandle]:
    """Every rank's ``input_tensor`` concatenated along axis 0 into ``output_tensor`` on rank ``dst`` (0).

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0, 0.0]); gather_into_tensor(out, ms.Tensor([1.0, 2.0])); print(out)
        [1. 2.]
    """
    _rooted(output_tensor, input_tensor, dst, "dst", "gather_into_tensor")
    group = _comm_args("gather_into_tensor", group, async_op)
    _m.get_group_rank_from_world_rank(dst, group)
    _put(output_tensor, input_tensor, "gather_into_tensor")
    return _done(async_op)


def scatter_tensor(output_tensor: Tensor, input_tensor: Tensor, src: int = 0, group: Optional[str] = None,
                   async_op: bool = False) -> Optional[CommHandle]:
    """Rank ``src``'s (0) ``input_tensor`` split along axis 0, this rank's part into ``output_tensor``.

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0, 0]); scatter_tensor(out, ms.Tensor([5, 6])); print(out)
        [5 6]
    """
    _rooted(output_tensor, input_tensor, src, "src", "scatter_tensor")
    group = _comm_args("scatter_tensor", group, async_op)
    _m.get_group_rank_from_world_rank(src, group)
    _put(output_tensor, input_tensor, "scatter_tensor")
    return _done(async_op)


def all_to_all_v_c(output: Tensor, input: Tensor, send_count_matrix: List[int],  # noqa: A002
                   group: Optional[str] = None, async_op: bool = False) -> Optional[CommHandle]:
    """``send_count_matrix[i * size + j]`` elements of rank ``i``'s flat ``input`` to rank ``j``, received into
    ``output``: over one rank, the first ``send_count_matrix[0]`` elements.

    Example:
        >>> import mskernel as ms
        >>> out = ms.Tensor([0.0, 0.0]); all_to_all_v_c(out, ms.Tensor([[1.0, 2.0]]), [2]); print(out)
        [1. 2.]
    """
    for t in (input, output):
        if not isinstance(t, Tensor):
            raise TypeError(f"Expected tensor, but got {type(t)}")
    group = _comm_args("all_to_all_v_c", group, async_op)
    if not isinstance(send_count_matrix, list):
        raise TypeError(f"send_count_matrix must be list, but got {type(send_count_matrix)}")
    if not all(isinstance(x, int) for x in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    size = _m.get_group_size(group)
    if size * size != len(send_count_matrix):
        raise TypeError(f"send_count_matrix must be square matrix, but got {len(send_count_matrix)}.")
    n = send_count_matrix[0]
    flat = input.reshape(-1)
    if not 0 <= n <= flat.shape[0] or output.size != n:
        raise ValueError(f"For 'all_to_all_v_c', rank 0 sends itself send_count_matrix[0] = {n} elements of its "
                         f"{flat.shape[0]}, into an output of {output.size}.")
    if n:
        output.copy_(flat[:n].reshape(output.shape))
    return _done(async_op)


#: the collective functions (``mindspore.ops`` has the same names)
COLLECTIVES = ["all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_gather_object",
               "all_reduce", "all_to_all", "all_to_all_single", "barrier", "broadcast", "broadcast_object_list",
               "destroy_process_group", "gather", "gather_object", "get_backend", "get_global_rank", "get_group_rank",
               "get_process_group_ranks", "get_rank", "get_world_size", "init_process_group", "is_available",
               "is_initialized", "new_group", "reduce", "reduce_scatter", "reduce_scatter_tensor",
               "reduce_scatter_tensor_uneven", "scatter", "scatter_object_list"]
COLLECTIVES += ["gather_into_tensor", "scatter_tensor", "all_to_all_v_c", "TCPStore"]
__all__ = sorted(COLLECTIVES + list(_REFUSED) + ["P2POp"])
