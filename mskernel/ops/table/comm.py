"""Op table: the collective-communication primitives, as rank 0 of a group of one process.

mskernel runs one process (:mod:`mskernel.communication`: ``get_rank() == 0``, ``get_group_size() == 1``), so
each collective is what it is over one rank: a reduction (``AllReduce``, ``Reduce``, ``ReduceScatter``) leaves
its input as it is (the sum, max, min, product or mean of one value), a gather (``AllGather``,
``CollectiveGather``, ``AllGatherV``) concatenates the one input, a scatter or all-to-all keeps the one part
that goes to rank 0, and ``Broadcast`` from rank 0 returns its inputs. Each returns a new tensor and is
differentiable: the backward of a gather is a reduce-scatter and the other way round, of an all-reduce an
all-reduce, of an all-to-all the transposed all-to-all; over one rank each is the identity on the gradient
(as the MindSpore 2.10 CPU wheel gives, measured with ``init()`` in a one-worker cluster).

Arguments are checked as MindSpore checks them (its error texts), and what a group of one cannot do is an
error naming the op: a rank other than 0, sizes that do not match the one rank's data, ``split_count`` other
than the group's size. The CPU wheel's kernels do only ``op='sum'`` and float types; mskernel does every
reduction and dtype, which are well defined over one rank.

``all_gather_matmul`` and ``matmul_reduce_scatter`` (the Ascend NPU's fused communication + matmul, whose CPU
wheel has no kernel) are the same composition: the matmul of the gathered input, and the reduce-scattered
matmul.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(ops.AllReduce()(x), ops.AllGather()(x).shape)
    [[1. 2.]
     [3. 4.]] (2, 2)
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.communication import management as _m
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_WORLD = "hccl_world_group"  # MindSpore's default group name; the world group of whatever backend init() chose
#: the reductions of ``ReduceOp``
REDUCTIONS = ("sum", "max", "min", "prod", "avg")


def _type_error(op: str, arg: str, want: str, got: Any) -> TypeError:
    return TypeError(f"For '{op}', the type of '{arg}' should be '{want}', but got type '{type(got).__name__}'.")


def _group_size(group: Any, op: str) -> int:
    """The size of ``group`` (1 for the world group), after MindSpore's check of its type."""
    if not isinstance(group, str):
        raise _type_error(op, "group", "str", group)
    return _m.get_group_size(_m.GlobalComm.WORLD_COMM_GROUP if group == _WORLD else group)


def _check_op(reduce_op: Any, op: str) -> None:
    if not isinstance(reduce_op, str):
        raise _type_error(op, "op", "str", reduce_op)
    if reduce_op not in REDUCTIONS:
        raise ValueError(f"For '{op}', the 'op' must be one of {list(REDUCTIONS)}, but got '{reduce_op}'.")


def _check_int(value: Any, op: str, arg: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _type_error(op, arg, "int", value)
    return value


def _check_rank(rank: Any, size: int, op: str, arg: str) -> int:
    rank = _check_int(rank, op, arg)
    if not 0 <= rank < size:
        raise ValueError(f"For '{op}', the '{arg}' must be a rank of the group, in [0, {size}), but got {rank} "
                         f"(mskernel runs one process: rank 0 of a group of {size}).")
    return rank


def _copy(x: Tensor) -> Tensor:
    return F.identity(x, copy=True)


def _sizes(values: Any, op: str, arg: str) -> List[int]:
    """A list of ints from a list, tuple or 1-D integer Tensor."""
    if isinstance(values, Tensor):
        values = values._data.reshape(-1).tolist()
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, (int, np.integer)) for v in values):
        raise TypeError(f"For '{op}', the '{arg}' must be a tuple[int], list[int] or Tensor of ints, but got "
                        f"{values!r}.")
    return [int(v) for v in values]


def _one_rank_part(values: Any, size: int, op: str, arg: str) -> int:
    """The entry of ``values`` for rank 0, after checking that it has one entry per rank."""
    got = _sizes(values, op, arg)
    if len(got) != size:
        raise ValueError(f"For '{op}', the '{arg}' must have one entry per rank of the group ({size}), but got "
                         f"{got}.")
    return got[0]


def _flat_part(x: Tensor, n: int, op: str, arg: str) -> Tensor:
    """The first ``n`` elements of ``x`` flattened; an empty result is a 0-d tensor, as MindSpore documents."""
    flat = F.reshape(x, (-1,))
    if not 0 <= n <= flat.shape[0]:
        raise ValueError(f"For '{op}', the '{arg}' asks for {n} elements of rank 0's input, which has "
                         f"{flat.shape[0]}.")
    if n == 0:
        return Tensor._wrap(np.zeros((), x._data.dtype))
    return _copy(flat) if n == flat.shape[0] else flat[:n]


def all_reduce(input_x: Any, op: str = "sum", group: str = _WORLD) -> Tensor:
    """The reduction of every rank's ``input_x``: over one rank, a copy of it."""
    if not isinstance(op, str):
        raise TypeError(f"For 'AllReduce', the 'op' must be str, but got {type(op).__name__}.")
    if not isinstance(group, str):
        raise TypeError(f"For 'AllReduce', the 'group' must be str, but got {type(group).__name__}.")
    _check_op(op, "AllReduce")
    _group_size(group, "AllReduce")
    return _copy(check_tensor(input_x, "AllReduce", "input_x"))


def all_gather(input_x: Any, group: str = _WORLD) -> Tensor:
    """Every rank's ``input_x`` concatenated along axis 0: over one rank, a copy of it."""
    size = _group_size(group, "AllGather")
    x = check_tensor(input_x, "AllGather", "input_x")
    if x.ndim == 0:
        raise ValueError("For 'AllGather', the 'x shape' must be a positive int, but got 0.")
    return F.concat([x] * size, 0) if size > 1 else _copy(x)


def reduce_scatter(input_x: Any, op: str = "sum", group: str = _WORLD) -> Tensor:
    """Every rank's ``input_x`` reduced, split along axis 0, this rank's part: over one rank, a copy."""
    _check_op(op, "ReduceScatter")
    size = _group_size(group, "ReduceScatter")
    x = check_tensor(input_x, "ReduceScatter", "input_x")
    if x.ndim == 0 or x.shape[0] % size:
        raise ValueError(f"For 'ReduceScatter', the first dimension of the input must be divisible by the group's "
                         f"size {size}, but got shape {x.shape}.")
    return _copy(x)


def broadcast(input_x: Any, root_rank: int, group: str = _WORLD) -> Tuple[Tensor, ...]:
    """Rank ``root_rank``'s tensors to every rank: over one rank (root 0), copies of them, as a tuple."""
    _check_int(root_rank, "Broadcast", "root_rank")
    size = _group_size(group, "Broadcast")
    _check_rank(root_rank, size, "Broadcast", "root_rank")
    xs = input_x if isinstance(input_x, (tuple, list)) else (input_x,)
    return tuple(_copy(check_tensor(x, "Broadcast", "input_x")) for x in xs)


def all_to_all(input_x: Any, split_count: int, split_dim: int, concat_dim: int, group: str = _WORLD) -> Tensor:
    """``input_x`` split in ``split_count`` parts along ``split_dim``, part ``r`` to rank ``r``, the parts
    received concatenated along ``concat_dim``: over one rank (``split_count == 1``), a copy."""
    size = _group_size(group, "AlltoAll")
    for name, v in (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"The type of '<class 'int'>' must be 'int', but got '{type(v).__name__}'.")
    x = check_tensor(input_x, "AlltoAll", "input_x")
    if split_count != size:
        raise ValueError(f"For 'AlltoAll', the 'split_count' must be the group's size {size}, but got {split_count}.")
    for name, d in (("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not -x.ndim <= d < x.ndim:
            raise ValueError(f"For 'AlltoAll', the '{name}' must be in [{-x.ndim}, {x.ndim}), but got {d}.")
    if x.shape[split_dim] % split_count:
        raise ValueError(f"For 'AlltoAll', the input's dimension {split_dim} ({x.shape[split_dim]}) must be divisible "
                         f"by 'split_count' {split_count}.")
    return _copy(x)


def barrier(group: str = _WORLD) -> Tensor:
    """Wait for every rank of the group (only this one): a float32 tensor of shape (1,), as MindSpore infers."""
    _group_size(group, "Barrier")
    return Tensor._wrap(np.zeros((1,), np.float32))


def reduce(input_x: Any, dest_rank: int, op: str = "sum", group: str = _WORLD) -> Tensor:
    """Every rank's ``input_x`` reduced onto ``dest_rank``: over one rank (dest 0), a copy."""
    _check_op(op, "Reduce")
    size = _group_size(group, "Reduce")
    _check_rank(dest_rank, size, "Reduce", "dest_rank")
    return _copy(check_tensor(input_x, "Reduce", "input_x"))


def collective_gather(input_x: Any, dest_rank: int, group: str = _WORLD) -> Tensor:
    """Every rank's ``input_x`` concatenated along axis 0 on ``dest_rank``: over one rank, a copy."""
    size = _group_size(group, "CollectiveGather")
    _check_rank(dest_rank, size, "CollectiveGather", "dest_rank")
    return _copy(check_tensor(input_x, "CollectiveGather", "input_x"))


def collective_scatter(input_x: Any, src_rank: int = 0, group: str = _WORLD) -> Tensor:
    """``src_rank``'s ``input_x`` split along axis 0, part ``r`` to rank ``r``: over one rank, a copy."""
    size = _group_size(group, "CollectiveScatter")
    _check_rank(src_rank, size, "CollectiveScatter", "src_rank")
    x = check_tensor(input_x, "CollectiveScatter", "input_x")
    if x.ndim == 0 or x.shape[0] % size:
        raise ValueError(f"For 'CollectiveScatter', the first dimension of the input must be divisible by the "
                         f"group's size {size}, but got shape {x.shape}.")
    return _copy(x)


def all_gather_v(input_x: Any, output_split_sizes: Any, group: str = _WORLD) -> Tensor:
    """Every rank's 1-D ``input_x`` (``output_split_sizes[r]`` elements from rank ``r``) concatenated."""
    size = _group_size(group, "AllGatherV")
    x = check_tensor(input_x, "AllGatherV", "input_x")
    n = _one_rank_part(output_split_sizes, size, "AllGatherV", "output_split_sizes")
    if n != x.size:
        raise ValueError(f"For 'AllGatherV', the 'output_split_sizes' entry of rank 0 must be its input's number "
                         f"of elements {x.size}, but got {n}.")
    return _flat_part(x, n, "AllGatherV", "output_split_sizes")


def reduce_scatter_v(input_x: Any, input_split_sizes: Any, op: str = "sum", group: str = _WORLD) -> Tensor:
    """Every rank's 1-D ``input_x`` reduced, ``input_split_sizes[r]`` elements to rank ``r``: rank 0's part."""
    _check_op(op, "ReduceScatterV")
    size = _group_size(group, "ReduceScatterV")
    x = check_tensor(input_x, "ReduceScatterV", "input_x")
    n = _one_rank_part(input_split_sizes, size, "ReduceScatterV", "input_split_sizes")
    return _flat_part(x, n, "ReduceScatterV", "input_split_sizes")


def all_to_all_v(input_x: Any, send_numel_list: Any, recv_numel_list: Any, group: str = _WORLD,
                 block_size: int = 1) -> Tensor:
    """``send_numel_list[r] * block_size`` elements of the flat ``input_x`` to rank ``r``, the received parts
    concatenated: over one rank, the part rank 0 sends itself."""
    size = _group_size(group, "AlltoAllV")
    _check_int(block_size, "AlltoAllV", "block_size")
    x = check_tensor(input_x, "AlltoAllV", "input_x")
    send = _one_rank_part(send_numel_list, size, "AlltoAllV", "send_numel_list")
    recv = _one_rank_part(recv_numel_list, size, "AlltoAllV", "recv_numel_list")
    if send != recv:
        raise ValueError(f"For 'AlltoAllV', rank 0 receives what it sends itself: 'recv_numel_list' [{recv}] must be "
                         f"'send_numel_list' [{send}].")
    return _flat_part(x, send * block_size, "AlltoAllV", "send_numel_list")


def all_to_all_v_c(input_x: Any, send_count_matrix: Any, group: str = _WORLD, block_size: int = 1,
                   transpose: bool = False) -> Tensor:
    """``send_count_matrix[i * size + j]`` elements from rank ``i`` to rank ``j``: over one rank, the first
    ``send_count_matrix[0] * block_size`` elements of the flat input."""
    size = _group_size(group, "AlltoAllVC")
    _check_int(block_size, "AlltoAllVC", "block_size")
    x = check_tensor(input_x, "AlltoAllVC", "input_x")
    counts = _sizes(send_count_matrix, "AlltoAllVC", "send_count_matrix")
    if len(counts) != size * size:
        raise ValueError(f"For 'AlltoAllVC', the 'send_count_matrix' must hold rank_size * rank_size ({size * size}) "
                         f"entries, but got {len(counts)}.")
    return _flat_part(x, counts[0] * block_size, "AlltoAllVC", "send_count_matrix")


def all_swap(tensor_in: Any, send_size: Any, recv_size: Any, group: str = _WORLD) -> Tensor:
    """Rows of the 2-D ``tensor_in``, ``send_size[r]`` of them to rank ``r``, the rows received stacked: over one
    rank, the first ``send_size[0]`` rows."""
    size = _group_size(group, "_AllSwap")
    x = check_tensor(tensor_in, "_AllSwap", "tensor_in")
    for name, t in (("send_size", send_size), ("recv_size", recv_size)):
        t = check_tensor(t, "_AllSwap", name)
        if t.dtype != mstype.int64:
            raise TypeError(f"For '_AllSwap', the '{name}' must be an int64 Tensor, but got {t.dtype}.")
        if t.ndim != 1:
            raise ValueError(f"For '_AllSwap', the dimension of '{name}' must be 1, but got {t.ndim}.")
    if x.ndim != 2:
        raise ValueError(f"For '_AllSwap', the dimension of 'tensor_in' must be 2, but got {x.ndim}.")
    send = _one_rank_part(send_size, size, "_AllSwap", "send_size")
    recv = _one_rank_part(recv_size, size, "_AllSwap", "recv_size")
    if send != recv or not 0 <= send <= x.shape[0]:
        raise ValueError(f"For '_AllSwap', rank 0 receives the {send} rows it sends itself, of the {x.shape[0]} it "
                         f"has: 'recv_size' [{recv}] must be 'send_size' [{send}].")
    return x[:send] if send < x.shape[0] else _copy(x)


def _world(group: Any, world_size: Any, op: str) -> None:
    size = _group_size(group, op)
    if world_size != size:
        raise ValueError(f"For '{op}', the 'world_size' must be the size of the group '{group}' ({size}), but got "
                         f"{world_size}.")


def _mm(a: Tensor, b: Tensor, trans_a: bool, trans_b: bool, bias: Optional[Tensor]) -> Tensor:
    out = F.matmul(F.transpose(a, (1, 0)) if trans_a else a, F.transpose(b, (1, 0)) if trans_b else b)
    return out if bias is None else out + bias


def all_gather_matmul(input: Any, x2: Any, group: str, world_size: int, *, bias: Any = None,  # noqa: A002
                      gather_index: int = 0, gather_output: bool = True, comm_turn: int = 0, trans_input: bool = False,
                      trans_x2: bool = False) -> Tuple[Tensor, Optional[Tensor]]:
    """``(matmul(all_gather(input), x2) + bias, all_gather(input))`` (the gathered operand, ``gather_index`` 0
    for ``input``, 1 for ``x2``, is returned when ``gather_output``): over one rank, the matmul."""
    _world(group, world_size, "all_gather_matmul")
    a, b = check_tensor(input, "all_gather_matmul", "input"), check_tensor(x2, "all_gather_matmul", "x2")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"For 'all_gather_matmul', 'input' and 'x2' must be 2-D, but got shapes {a.shape} and "
                         f"{b.shape}.")
    out = _mm(a, b, trans_input, trans_x2, None if bias is None else check_tensor(bias, "all_gather_matmul", "bias"))
    gathered = _copy(a if gather_index == 0 else b) if gather_output else None
    return out, gathered


def matmul_reduce_scatter(input: Any, x2: Any, group: str, world_size: int, *,  # noqa: A002
                          reduce_op: str = "sum", bias: Any = None, comm_turn: int = 0, trans_input: bool = False,
                          trans_x2: bool = False) -> Tensor:
    """``reduce_scatter(matmul(input, x2) + bias)`` along axis 0: over one rank, the matmul."""
    _world(group, world_size, "matmul_reduce_scatter")
    _check_op(reduce_op, "matmul_reduce_scatter")
    a, b = check_tensor(input, "matmul_reduce_scatter", "input"), check_tensor(x2, "matmul_reduce_scatter", "x2")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"For 'matmul_reduce_scatter', 'input' and 'x2' must be 2-D, but got shapes {a.shape} and "
                         f"{b.shape}.")
    return _mm(a, b, trans_input, trans_x2,
               None if bias is None else check_tensor(bias, "matmul_reduce_scatter", "bias"))


_G = f"group={_WORLD!r}"
OPS: List[Op] = [
    Op("_all_reduce_primitive", f"input_x, op='sum', {_G}", fn=all_reduce,
       prim=f"AllReduce(op='sum', {_G})(input_x) -> input_x, op, group"),
    Op("_all_gather_primitive", f"input_x, {_G}", fn=all_gather, prim=f"AllGather({_G})(input_x) -> input_x, group"),
    Op("_reduce_scatter_primitive", f"input_x, op='sum', {_G}", fn=reduce_scatter,
       prim=f"ReduceScatter(op='sum', {_G})(input_x) -> input_x, op, group"),
    Op("_broadcast_primitive", f"input_x, root_rank, {_G}", fn=broadcast,
       prim=f"Broadcast(root_rank, {_G})(input_x) -> input_x, root_rank, group"),
    Op("_all_to_all_primitive", f"input_x, split_count, split_dim, concat_dim, {_G}", fn=all_to_all,
       prim=f"AlltoAll(split_count, split_dim, concat_dim, {_G})(input_x) -> input_x, split_count, split_dim, "
            "concat_dim, group"),
    Op("_barrier_primitive", _G, inputs=0, fn=barrier, prim=f"Barrier({_G})() -> group"),
    Op("_reduce_primitive", f"input_x, dest_rank, op='sum', {_G}", fn=reduce,
       prim=f"Reduce(dest_rank, op='sum', {_G})(input_x) -> input_x, dest_rank, op, group"),
    Op("_collective_gather_primitive", f"input_x, dest_rank, {_G}", fn=collective_gather,
       prim=f"CollectiveGather(dest_rank, {_G})(input_x) -> input_x, dest_rank, group"),
    Op("_collective_scatter_primitive", f"input_x, src_rank=0, {_G}", fn=collective_scatter,
       prim=f"CollectiveScatter(src_rank=0, {_G})(input_x) -> input_x, src_rank, group"),
    Op("_all_gather_v_primitive", f"input_x, output_split_sizes, {_G}", inputs=2, fn=all_gather_v,
       prim=f"AllGatherV({_G})(input_x, output_split_sizes) -> input_x, output_split_sizes, group"),
    Op("_reduce_scatter_v_primitive", f"input_x, input_split_sizes, op='sum', {_G}", inputs=2, fn=reduce_scatter_v,
       prim=f"ReduceScatterV(op='sum', {_G})(input_x, input_split_sizes) -> input_x, input_split_sizes, op, group"),
    Op("_all_to_all_v_primitive", f"input_x, send_numel_list, recv_numel_list, {_G}, block_size=1", inputs=3,
       fn=all_to_all_v,
       prim=f"AlltoAllV({_G}, block_size=1)(input_x, send_numel_list, recv_numel_list) -> input_x, "
            "send_numel_list, recv_numel_list, group, block_size"),
    Op("_all_to_all_v_c_primitive", f"input_x, send_count_matrix, {_G}, block_size=1, transpose=False", inputs=2,
       fn=all_to_all_v_c,
       prim=f"AlltoAllVC({_G}, block_size=1, transpose=False)(input_x, send_count_matrix) -> input_x, "
            "send_count_matrix, group, block_size, transpose"),
    Op("_all_swap_primitive", f"tensor_in, send_size, recv_size, {_G}", inputs=3, fn=all_swap,
       prim=f"_AllSwap({_G})(tensor_in, send_size, recv_size) -> tensor_in, send_size, recv_size, group"),
    Op("all_gather_matmul", "input, x2, group, world_size, *, bias=None, gather_index=0, gather_output=True, "
       "comm_turn=0, trans_input=False, trans_x2=False", inputs=2, fn=all_gather_matmul),
    Op("matmul_reduce_scatter", "input, x2, group, world_size, *, reduce_op='sum', bias=None, comm_turn=0, "
       "trans_input=False, trans_x2=False", inputs=2, fn=matmul_reduce_scatter),
]

_X = "x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])"
EXAMPLES = {
    "AllReduce": (_X, "ops.AllReduce()(x)", "[[1. 2.]\n [3. 4.]]"),
    "AllGather": (_X, "ops.AllGather()(x).shape", "(2, 2)"),
    "ReduceScatter": (_X, "ops.ReduceScatter(ops.ReduceOp.MAX)(x)", "[[1. 2.]\n [3. 4.]]"),
    "Broadcast": (_X, "ops.Broadcast(0)((x,))[0]", "[[1. 2.]\n [3. 4.]]"),
    "AlltoAll": (_X, "ops.AlltoAll(1, 0, 1)(x).shape", "(2, 2)"),
    "Barrier": ("ops.Barrier()().shape", "(1,)"),
    "Reduce": (_X, "ops.Reduce(0)(x)[0]", "[1. 2.]"),
    "CollectiveGather": (_X, "ops.CollectiveGather(0)(x)[1]", "[3. 4.]"),
    "CollectiveScatter": (_X, "ops.CollectiveScatter()(x)[0]", "[1. 2.]"),
    "AllGatherV": ("ops.AllGatherV()(ms.Tensor([1.0, 2.0, 3.0]), [3])", "[1. 2. 3.]"),
    "ReduceScatterV": ("ops.ReduceScatterV()(ms.Tensor([1.0, 2.0, 3.0]), [3])", "[1. 2. 3.]"),
    "AlltoAllV": ("ops.AlltoAllV()(ms.Tensor([1.0, 2.0, 3.0]), [3], [3])", "[1. 2. 3.]"),
    "AlltoAllVC": ("ops.AlltoAllVC()(ms.Tensor([1.0, 2.0, 3.0]), [3])", "[1. 2. 3.]"),
    "_AllSwap": (_X, "ops._AllSwap()(x, ms.Tensor([1], ms.int64), ms.Tensor([1], ms.int64))", "[[1. 2.]]"),
    "all_gather_matmul": (_X, "ops.all_gather_matmul(x, x, 'hccl_world_group', 1)[0]", "[[ 7. 10.]\n [15. 22.]]"),
    "matmul_reduce_scatter": (_X, "ops.matmul_reduce_scatter(x, x, 'hccl_world_group', 1)",
                              "[[ 7. 10.]\n [15. 22.]]"),
}


class ReduceOp:
    """The reductions a collective can apply (an enumeration of names, not an op): ``SUM``, ``MAX``, ``MIN``,
    ``PROD`` and ``AVG`` (the sum divided by the group's size).

    Example:
        >>> ReduceOp.SUM, ReduceOp.AVG
        ('sum', 'avg')
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"
