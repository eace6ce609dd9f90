"""Op table: ops that reorder or pad blocks of a tensor — reverse_sequence, mirror_pad, padding, space_to_batch_nd /
batch_to_space_nd, SpaceToDepth / DepthToSpace, channel_shuffle, bias_add, Flatten — and small index utilities:
unique_consecutive, unique_with_pad, sequence_mask, intopk, InvertPermutation, UnravelIndex, ListDiff,
NthElement, DataFormatDimMap, DataFormatVecPermute, IdentityN, ParallelConcat, FillV2.

Every reordering is one numpy rearrangement of the input's position map (:func:`rearrange._index`), -1 where a
constant 0 goes, read back with :func:`rearrange.gather_map`: the values and the gradient come from that map.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(ops.reverse_sequence(x, ms.Tensor([2, 3]), seq_dim=1))
    [[2. 1. 3.]
     [6. 5. 4.]]
    >>> print(ops.mirror_pad(x, ms.Tensor([[0, 0], [1, 1]]), "REFLECT"))
    [[2. 1. 2. 3. 2.]
     [5. 4. 5. 6. 5.]]
"""
from __future__ import annotations

from typing import Any, List, Sequence

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.index import _axis1, _ints
from mskernel.ops.table.rearrange import _index, gather_map


def _seq(v: Any) -> List[int]:
    if isinstance(v, Tensor):
        v = v._data.tolist()
    return [int(i) for i in (v if isinstance(v, (list, tuple)) else [v])]


def _pairs(v: Any) -> List[List[int]]:
    a = v._data if isinstance(v, Tensor) else np.asarray(v)
    return [[int(p), int(q)] for p, q in np.asarray(a).reshape(-1, 2)]


def reverse_sequence(x: Any, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> Tensor:
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch ``b`` (along ``batch_dim``).

    Example:
        >>> import mskernel as ms
        >>> print(reverse_sequence(ms.Tensor([[1, 2, 3], [4, 5, 6]]), ms.Tensor([1, 3]), 1))
        [[1 2 3]
         [6 5 4]]
    """
    t = check_tensor(x, "ReverseSequence", "x")
    sd, bd = _axis1(seq_dim, t.ndim, "ReverseSequence"), _axis1(batch_dim, t.ndim, "ReverseSequence")
    lens = _ints(seq_lengths, "ReverseSequence", "seq_lengths").reshape(-1)
    n = t.shape[sd]
    if lens.size != t.shape[bd] or (lens > n).any() or (lens < 0).any():
        raise ValueError(f"For 'ReverseSequence', 'seq_lengths' must have {t.shape[bd]} values in [0, {n}], but "
                         f"got {lens.tolist()}.")
    j = np.arange(n)
    shape = [1] * t.ndim
    shape[bd] = lens.size
    L = lens.reshape(shape)
    jj = j.reshape([n if k == sd else 1 for k in range(t.ndim)])
    src = np.broadcast_to(np.where(jj < L, L - 1 - jj, jj), t.shape)
    return gather_map(t, np.take_along_axis(_index(t.shape), src, axis=sd))


def mirror_pad(input_x: Any, paddings: Any, mode: str) -> Tensor:
    """Pad each axis by ``paddings[i] = (before, after)`` with its mirror image (``REFLECT`` without the edge,
    ``SYMMETRIC`` with it).

    Example:
        >>> import mskernel as ms
        >>> print(mirror_pad(ms.Tensor([1, 2, 3]), ms.Tensor([[2, 1]]), "SYMMETRIC"))
        [2 1 1 2 3 3]
    """
    t = check_tensor(input_x, "MirrorPad", "input_x")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode}.")
    pads = _pairs(paddings)
    if len(pads) != t.ndim:
        raise ValueError(f"For 'MirrorPad', the 'paddings' must have {t.ndim} rows, but got {len(pads)}.")
    return gather_map(t, np.pad(_index(t.shape), pads, mode=mode.lower()))


def padding(x: Any, pad_dim_size: int = 8) -> Tensor:
    """Extend the last axis (of size 1) to ``pad_dim_size`` with zeros.

    Example:
        >>> import mskernel as ms
        >>> print(padding(ms.Tensor([[8.0], [10.0]]), 3))
        [[ 8.  0.  0.]
         [10.  0.  0.]]
    """
    t = check_tensor(x, "Padding", "x")
    if t.ndim < 1 or t.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got {t.shape[-1] if t.ndim else 0}.")
    if int(pad_dim_size) < 1:
        raise ValueError(f"For 'Padding', the 'pad_dim_size' must be greater than 0, but got {pad_dim_size}.")
    return gather_map(t, np.pad(_index(t.shape), [(0, 0)] * (t.ndim - 1) + [(0, int(pad_dim_size) - 1)],
                                constant_values=-1))


def space_to_batch_nd(input_x: Any, block_size: Any, paddings: Any) -> Tensor:
    """Move blocks of the last ``len(block_size)`` (spatial) axes, after padding them, into the batch axis.

    Example:
        >>> import mskernel as ms
        >>> print(space_to_batch_nd(ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), [2, 2], [[0, 0], [0, 0]]).shape)
        (4, 1, 1, 1)
    """
    t = check_tensor(input_x, "SpaceToBatchND", "input_x")
    blocks = _seq(block_size)
    if len(blocks) == 1 and t.ndim == 4:
        blocks = blocks * 2
    m = len(blocks)
    pads = _pairs(paddings)
    lead = t.ndim - m
    pos = np.pad(_index(t.shape), [(0, 0)] * lead + pads, constant_values=-1)
    sp = pos.shape[lead:]
    if any(s % b for s, b in zip(sp, blocks)):
        raise ValueError(f"For 'SpaceToBatchND', the padded spatial shape {list(sp)} must be divisible by "
                         f"'block_shape' {blocks}.")
    split = pos.reshape(pos.shape[:lead] + tuple(v for s, b in zip(sp, blocks) for v in (s // b, b)))
    n_ax = list(range(lead))
    outer = [lead + 2 * i for i in range(m)]
    inner = [lead + 2 * i + 1 for i in range(m)]
    moved = split.transpose(inner + n_ax + outer)
    out = moved.reshape((int(np.prod(blocks)) * t.shape[0],) + pos.shape[1:lead] + tuple(s // b for s, b in
                                                                                          zip(sp, blocks)))
    return gather_map(t, out)


def batch_to_space_nd(input_x: Any, block_shape: Any, crops: Any) -> Tensor:
    """The inverse of :func:`space_to_batch_nd`: blocks of the batch axis back into the spatial axes, then cropped.

    Example:
        >>> import mskernel as ms
        >>> print(batch_to_space_nd(ms.Tensor([[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]]), [2, 2], [[0, 0], [0, 0]]))
        [[[[1. 2.]
           [3. 4.]]]]
    """
    t = check_tensor(input_x, "BatchToSpaceND", "input_x")
    blocks = _seq(block_shape)
    if len(blocks) == 1 and t.ndim == 4:
        blocks = blocks * 2
    m = len(blocks)
    lead = t.ndim - m
    nb = int(np.prod(blocks))
    if t.shape[0] % nb:
        raise ValueError("For 'BatchToSpaceND', the first dim of 'input_x' must be divisible by "
                         f"'block_shape_prod'. But got first dim of 'input_x': {t.shape[0]}, 'block_shape_prod' as "
                         f"the product of block shapes with value: {nb}, and block shapes being: [const vector]"
                         f"{{{', '.join(map(str, blocks))}}}.")
    pos = _index(t.shape).reshape(tuple(blocks) + (t.shape[0] // nb,) + t.shape[1:])
    order = [m + k for k in range(lead)]
    for i in range(m):
        order += [m + lead + i, i]
    moved = pos.transpose(order)
    sp = tuple(t.shape[lead + i] * blocks[i] for i in range(m))
    full = moved.reshape((t.shape[0] // nb,) + t.shape[1:lead] + sp)
    cut = tuple(slice(None) for _ in range(lead)) + tuple(slice(a, s - b) for (a, b), s in zip(_pairs(crops), sp))
    return gather_map(t, full[cut])


def _space_to_depth(x: Any, block_size: int) -> Tensor:
    t = check_tensor(x, "SpaceToDepth", "x")
    b = int(block_size)
    n, c, h, w = t.shape
    if h % b or w % b:
        raise ValueError(f"For 'SpaceToDepth', the height and width of 'x' must be divisible by 'block_size' {b}, "
                         f"but got {h} and {w}.")
    pos = _index(t.shape).reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return gather_map(t, pos.reshape(n, b * b * c, h // b, w // b))


def _depth_to_space(x: Any, block_size: int) -> Tensor:
    t = check_tensor(x, "DepthToSpace", "x")
    b = int(block_size)
    n, c, h, w = t.shape
    if c % (b * b):
        raise ValueError(f"For 'DepthToSpace', the channels of 'x' must be divisible by 'block_size' * "
                         f"'block_size' {b * b}, but got {c}.")
    pos = _index(t.shape).reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return gather_map(t, pos.reshape(n, c // (b * b), h * b, w * b))


def channel_shuffle(x: Any, groups: int) -> Tensor:
    """Interleave the channels (axis 1) of ``groups`` groups.

    Example:
        >>> import mskernel as ms
        >>> print(channel_shuffle(ms.Tensor(np.arange(4).reshape(1, 4, 1, 1)), 2).reshape(-1))
        [0 2 1 3]
    """
    t = check_tensor(x, "ChannelShuffle", "x")
    g = int(groups)
    if t.ndim <= 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {t.ndim}.")
    if g <= 0 or t.shape[1] % g:
        raise ValueError(f"For 'ChannelShuffle', the channels of 'x' must be divisible by 'group' {g}, but got "
                         f"shape {list(t.shape)}.")
    n, c = t.shape[:2]
    pos = _index(t.shape).reshape((n, g, c // g) + t.shape[2:]).swapaxes(1, 2)
    return gather_map(t, pos.reshape(t.shape))


def bias_add(input_x: Any, bias: Any, data_format: str = "NCHW") -> Tensor:
    """``input_x`` plus the 1-D ``bias`` along its channel axis (1, or the last for ``NHWC``).

    Example:
        >>> import mskernel as ms
        >>> print(bias_add(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([10.0, 20.0])))
        [[11. 22.]
         [13. 24.]]
    """
    t = check_tensor(input_x, "BiasAdd", "input_x")
    b = check_tensor(bias, "BiasAdd", "bias")
    if t.ndim < 2 or b.ndim != 1:
        raise ValueError(f"For 'BiasAdd', 'input_x' must be at least 2-D and 'bias' 1-D, but got {t.ndim}-D and "
                         f"{b.ndim}-D.")
    ax = t.ndim - 1 if data_format == "NHWC" else 1
    if b.shape[0] != t.shape[ax]:
        raise ValueError(f"For 'BiasAdd', the size of 'bias' must be {t.shape[ax]}, but got {b.shape[0]}.")
    return t + F.reshape(b, tuple(-1 if k == ax else 1 for k in range(t.ndim)))


def unique_consecutive(input: Any, return_inverse: bool = False, return_counts: bool = False,
                       dim: Any = None) -> Any:
    """The elements (or slices along ``dim``) with consecutive repeats collapsed; with ``return_inverse`` each
    element's index among them, with ``return_counts`` each run's length (Int64).

    Example:
        >>> import mskernel as ms
        >>> print(unique_consecutive(ms.Tensor([1, 1, 2, 1]), return_counts=True))
        (Tensor(shape=[3], dtype=Int64, value= [1, 2, 1]), Tensor(shape=[3], dtype=Int64, value= [2, 1, 1]))
    """
    t = check_tensor(input, "UniqueConsecutive", "input")
    if dim is None:
        flat = t._data.reshape(-1)
        new = np.r_[True, flat[1:] != flat[:-1]] if flat.size else np.zeros(0, bool)
        values = gather_map(t, np.flatnonzero(new))
        inv_shape = t.shape
    else:
        ax = _axis1(dim, t.ndim, "UniqueConsecutive")
        moved = np.moveaxis(t._data, ax, 0).reshape(t.shape[ax], -1)
        new = np.r_[True, (moved[1:] != moved[:-1]).any(axis=1)] if len(moved) else np.zeros(0, bool)
        values = gather_map(t, np.take(_index(t.shape), np.flatnonzero(new), axis=ax))
        inv_shape = (t.shape[ax],)
    inverse = (np.cumsum(new) - 1).astype(np.int64)
    starts = np.flatnonzero(new)
    counts = np.diff(np.r_[starts, new.size]).astype(np.int64)
    out = [values]
    if return_inverse:
        out.append(Tensor._wrap(inverse.reshape(inv_shape)))
    if return_counts:
        out.append(Tensor._wrap(counts))
    return out[0] if len(out) == 1 else tuple(out)


def unique_with_pad(x: Any, pad_num: Any) -> tuple:
    """The distinct elements of the 1-D ``x`` in order of first appearance, padded to ``x``'s length with
    ``pad_num``, and each element's index among them.

    Example:
        >>> import mskernel as ms
        >>> print(unique_with_pad(ms.Tensor([3, 1, 3], ms.int32), 0))
        (Tensor(shape=[3], dtype=Int32, value= [3, 1, 0]), Tensor(shape=[3], dtype=Int32, value= [0, 1, 0]))
    """
    t = check_tensor(x, "UniqueWithPad", "x")
    if t.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', the 'x' must be 1-D, but got {t.ndim}-D.")
    values, idx = F.unique(t)
    pad = np.full(t.size - values.size, pad_num._data if isinstance(pad_num, Tensor) else pad_num, t._data.dtype)
    return Tensor._wrap(np.concatenate([values._data, pad])), Tensor._wrap(idx._data.astype(t._data.dtype))


def sequence_mask(lengths: Any, maxlen: Any = None) -> Tensor:
    """``out[..., j] = j < lengths[...]`` for ``j`` below ``maxlen`` (the largest length by default).

    Example:
        >>> import mskernel as ms
        >>> print(sequence_mask(ms.Tensor([1, 3]), 4))
        [[ True False False False]
         [ True  True  True False]]
    """
    lens = _ints(lengths, "SequenceMask", "lengths")
    n = int(lens.max()) if maxlen is None and lens.size else int(maxlen if maxlen is not None else 0)
    if n <= 0 and maxlen is not None:
        raise ValueError(f"For 'SequenceMask', the 'maxlen' must be greater than 0, but got {maxlen}.")
    return Tensor._wrap(np.arange(n) < lens[..., None])


def intopk(x1: Any, x2: Any, k: int) -> Tensor:
    """Whether each row's target ``x2[i]`` is among the ``k`` largest of ``x1[i]`` (ties count as in).

    Example:
        >>> import mskernel as ms
        >>> print(intopk(ms.Tensor([[1.0, 8.0, 5.0], [4.0, 9.0, 1.0]]), ms.Tensor([1, 2], ms.int32), 2))
        [ True False]
    """
    a = check_tensor(x1, "InTopK", "x1")
    if a._data.dtype.kind != "f":
        raise TypeError(f"For 'InTopK', the 'x1' must be a Tensor of float16 or float32, but got {a.dtype}.")
    t = _ints(x2, "InTopK", "x2")
    target = a._data[np.arange(a.shape[0]), t]
    return Tensor._wrap((a._data > target[:, None]).sum(axis=1) < int(k))


def _invert_permutation(input_x: Any) -> Any:
    p = np.asarray(input_x._data if isinstance(input_x, Tensor) else input_x, np.int64)
    if sorted(p.tolist()) != list(range(p.size)):
        raise ValueError(f"For 'InvertPermutation', the 'input_x' must be a permutation of 0 ... {p.size - 1}, but "
                         f"got {p.tolist()}.")
    inv = np.empty_like(p)
    inv[p] = np.arange(p.size)
    if isinstance(input_x, Tensor):
        return Tensor._wrap(inv.astype(input_x._data.dtype))
    return tuple(int(i) for i in inv)


def _unravel_index(indices: Any, dims: Any) -> Tensor:
    idx = _ints(indices, "UnravelIndex", "indices")
    d = _ints(dims, "UnravelIndex", "dims")
    dt = indices._data.dtype if isinstance(indices, Tensor) else np.int64
    return Tensor._wrap(np.stack(np.unravel_index(idx, tuple(int(v) for v in d))).astype(dt))


def _list_diff(x: Any, y: Any, out_idx: Any = mstype.int32) -> tuple:
    a = check_tensor(x, "ListDiff", "x")._data
    b = check_tensor(y, "ListDiff", "y")._data
    keep = ~np.isin(a, b)
    return Tensor._wrap(a[keep]), Tensor._wrap(np.flatnonzero(keep).astype(mstype.to_dtype(out_idx).np))


def _nth_element(input: Any, n: Any, reverse: bool = False) -> Tensor:
    t = check_tensor(input, "NthElement", "input")
    k = int(n._data if isinstance(n, Tensor) else n)
    if not 0 <= k < t.shape[-1]:
        raise ValueError(f"For 'NthElement', the 'n' must be in [0, {t.shape[-1]}), but got {k}.")
    order = np.argsort(-t._data if reverse else t._data, axis=-1, kind="stable")[..., k]
    return gather_map(t, np.take_along_axis(_index(t.shape), order[..., None], -1)[..., 0])


def _check_formats(src: str, dst: str, op: str) -> None:
    if sorted(src) != sorted(dst) or len(src) != 4:
        raise ValueError(f"For '{op}', 'src_format' and 'dst_format' must be permutations of each other of 4 "
                         f"letters, but got {src} and {dst}.")


def _data_format_dim_map(x: Any, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    _check_formats(src_format, dst_format, "DataFormatDimMap")
    a = check_tensor(x, "DataFormatDimMap", "input_x")._data
    table = np.array([src_format.index(c) for c in dst_format])
    return Tensor._wrap(table[a % 4].astype(a.dtype))


def _data_format_vec_permute(x: Any, src_format: str = "NHWC", dst_format: str = "NCHW") -> Tensor:
    _check_formats(src_format, dst_format, "DataFormatVecPermute")
    t = check_tensor(x, "DataFormatVecPermute", "input_x")
    order = np.array([src_format.index(c) for c in dst_format])
    return gather_map(t, np.take(_index(t.shape), order, axis=0))


def _fill_v2(shape: Any, value: Any) -> Tensor:
    dims = tuple(int(v) for v in (shape._data.tolist() if isinstance(shape, Tensor) else shape))
    v = check_tensor(value, "FillV2", "value")
    return F.broadcast_to(v, dims)


def _seq_tensors(values: Sequence[Any]) -> tuple:
    return tuple(values)


def _parallel_concat(values: Sequence[Any]) -> Tensor:
    for i, v in enumerate(values):
        if v.shape[0] != 1:
            raise ValueError(f"For primitive[ParallelConcat], the x{i}.shape[0] must be equal to 1, but got "
                             f"{v.shape[0]}.")
    return F.concat(tuple(values), 0)


OPS: List[Op] = [
    Op("reverse_sequence", "x, seq_lengths, seq_dim, batch_dim=0", fn=reverse_sequence, method=True,
       prim="ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths) -> x, seq_lengths, seq_dim, batch_dim"),
    Op("mirror_pad", "input_x, paddings, mode", fn=mirror_pad,
       prim="MirrorPad(mode='REFLECT')(input_x, paddings) -> input_x, paddings, mode"),
    Op("padding", "x, pad_dim_size=8", fn=padding, prim="Padding(pad_dim_size=8)(x) -> x, pad_dim_size"),
    Op("space_to_batch_nd", "input_x, block_size, paddings", fn=space_to_batch_nd,
       prim="SpaceToBatchND(block_shape, paddings)(input_x) -> input_x, block_shape, paddings"),
    Op("batch_to_space_nd", "input_x, block_shape, crops", fn=batch_to_space_nd,
       prim=("BatchToSpaceND(block_shape, crops)(input_x) -> input_x, block_shape, crops",
             "BatchToSpaceNDV2()(input_x, block_shape, crops) -> input_x, block_shape, crops")),
    Op("_space_to_depth", "x, block_size", fn=_space_to_depth,
       prim="SpaceToDepth(block_size)(x) -> x, block_size"),
    Op("_depth_to_space", "x, block_size", fn=_depth_to_space,
       prim="DepthToSpace(block_size)(x) -> x, block_size"),
    Op("channel_shuffle", "x, groups", fn=channel_shuffle, prim="ChannelShuffle(group)(x) -> x, group"),
    Op("bias_add", "input_x, bias", fn=lambda input_x, bias, data_format="NCHW": bias_add(input_x, bias, data_format),
       prim="BiasAdd(data_format='NCHW')(input_x, bias) -> input_x, bias, data_format"),
    Op("_flatten_prim", "input_x", fn=lambda input_x: F.reshape(input_x, (input_x.shape[0], -1) if input_x.ndim
                                                                else (1, 1)),
       prim="Flatten()(input_x) -> input_x"),
    Op("unique_consecutive", "input, return_inverse=False, return_counts=False, dim=None", fn=unique_consecutive,
       method=True, prim="UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(input) -> input, "
                         "return_inverse, return_counts, dim"),
    Op("unique_with_pad", "x, pad_num", fn=unique_with_pad, method=True,
       prim="UniqueWithPad()(x, pad_num) -> x, pad_num"),
    Op("sequence_mask", "lengths, maxlen=None", fn=sequence_mask),
    Op("intopk", "x1, x2, k", fn=intopk, prim="InTopK(k)(x1, x2) -> x1, x2, k"),
    Op("_invert_permutation", "input_x", fn=_invert_permutation, prim="InvertPermutation()(input_x) -> input_x"),
    Op("_unravel_index", "indices, dims", fn=_unravel_index, prim="UnravelIndex()(indices, dims) -> indices, dims"),
    Op("_list_diff", "x, y, out_idx=mindspore.int32", fn=_list_diff,
       prim="ListDiff(out_idx=mindspore.int32)(x, y) -> x, y, out_idx"),
    Op("_nth_element", "input, n, reverse=False", fn=_nth_element,
       prim="NthElement(reverse=False)(input, n) -> input, n, reverse"),
    Op("_data_format_dim_map", "input_x, src_format='NHWC', dst_format='NCHW'", fn=_data_format_dim_map,
       prim="DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x) -> input_x, src_format, dst_format"),
    Op("_data_format_vec_permute", "input_x, src_format='NHWC', dst_format='NCHW'", fn=_data_format_vec_permute,
       prim="DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(input_x) -> input_x, src_format, "
            "dst_format"),
    Op("_identity_n", "x", fn=_seq_tensors, prim="IdentityN()(x) -> x"),
    Op("_parallel_concat", "values", fn=_parallel_concat,
       prim="ParallelConcat()(values) -> values"),
    Op("_fill_v2", "shape, value", fn=_fill_v2, prim="FillV2()(shape, value) -> shape, value"),
]

_X = "x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])"

#: the examples, by op or primitive name (see mskernel.ops.table)
EXAMPLES = {
    "bias_add": ("ops.bias_add(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([10.0, 20.0]))",
                 "[[11. 22.]\n [13. 24.]]"),
    "ReverseSequence": (_X, "ops.ReverseSequence(seq_dim=0, batch_dim=1)(x, ms.Tensor([2, 1, 2]))",
                        "[[4. 2. 6.]\n [1. 5. 3.]]"),
    "MirrorPad": (_X, "ops.MirrorPad('SYMMETRIC')(x, ms.Tensor([[1, 0], [0, 1]]))",
                  "[[1. 2. 3. 3.]\n [1. 2. 3. 3.]\n [4. 5. 6. 6.]]"),
    "Padding": ("ops.Padding(3)(ms.Tensor([[1.0], [2.0]]))", "[[1. 0. 0.]\n [2. 0. 0.]]"),
    "SpaceToBatchND": ("ops.SpaceToBatchND([1, 2], [[0, 0], [0, 0]])(ms.Tensor([[[[1.0, 2.0]]]])).shape",
                       "(2, 1, 1, 1)"),
    "BatchToSpaceND": ("ops.BatchToSpaceND([1, 2], [[0, 0], [0, 0]])(ms.Tensor([[[[1.0]]], [[[2.0]]]]))",
                       "[[[[1. 2.]]]]"),
    "BatchToSpaceNDV2": ("ops.BatchToSpaceNDV2()(ms.Tensor([[[[1.0]]], [[[2.0]]]]), ms.Tensor([1, 2]), "
                         "ms.Tensor([[0, 0], [0, 0]]))",
                         "[[[[1. 2.]]]]"),
    "SpaceToDepth": ("ops.SpaceToDepth(2)(ops.arange(4.0).reshape(1, 1, 2, 2)).reshape(-1)",
                     "[0. 1. 2. 3.]"),
    "DepthToSpace": ("ops.DepthToSpace(2)(ops.arange(4.0).reshape(1, 4, 1, 1))",
                     "[[[[0. 1.]\n   [2. 3.]]]]"),
    "ChannelShuffle": ("ops.ChannelShuffle(2)(ops.arange(4).reshape(1, 4, 1, 1)).reshape(-1)", "[0 2 1 3]"),
    "BiasAdd": ("ops.BiasAdd('NHWC')(ms.Tensor([[1.0, 2.0]]), ms.Tensor([10.0, 20.0]))", "[[11. 22.]]"),
    "Flatten": ("ops.Flatten()(ops.ones((2, 3, 4))).shape", "(2, 12)"),
    "UniqueConsecutive": ("*ops.UniqueConsecutive(True, True)(ms.Tensor([1, 1, 2, 1]))", "[1 2 1] [0 0 1 2] [2 1 1]"),
    "UniqueWithPad": ("*ops.UniqueWithPad()(ms.Tensor([3, 1, 3], ms.int32), ms.Tensor(0, ms.int32))",
                      "[3 1 0] [0 1 0]"),
    "InTopK": ("ops.InTopK(1)(ms.Tensor([[1.0, 8.0], [4.0, 2.0]]), ms.Tensor([1, 1], ms.int32))", "[ True False]"),
    "InvertPermutation": ("ops.InvertPermutation()((2, 0, 1))", "(1, 2, 0)"),
    "UnravelIndex": ("ops.UnravelIndex()(ms.Tensor([2, 5], ms.int32), ms.Tensor([3, 3], ms.int32))",
                     "[[0 1]\n [2 2]]"),
    "ListDiff": ("*ops.ListDiff()(ms.Tensor([1, 2, 3, 4], ms.int32), ms.Tensor([2, 4], ms.int32))", "[1 3] [0 2]"),
    "NthElement": ("ops.NthElement(reverse=True)(ms.Tensor([[1, 5, 3], [4, 2, 6]]), 1)", "[3 4]"),
    "DataFormatDimMap": ("ops.DataFormatDimMap()(ms.Tensor([0, 1, 2, 3], ms.int32))", "[0 3 1 2]"),
    "DataFormatVecPermute": ("ops.DataFormatVecPermute()(ms.Tensor([1, 2, 3, 4], ms.int32))", "[1 4 2 3]"),
    "IdentityN": ("*ops.IdentityN()([ms.Tensor([1]), ms.Tensor([2.0])])", "[1] [2.]"),
    "ParallelConcat": ("ops.ParallelConcat()((ms.Tensor([[1]]), ms.Tensor([[2]])))", "[[1]\n [2]]"),
    "FillV2": ("ops.FillV2()(ms.Tensor([2, 2], ms.int32), ms.Tensor(1.5, ms.float32))", "[[1.5 1.5]\n [1.5 1.5]]"),
}


def _gather_nd_method(self: Tensor, indices: Any) -> Tensor:
    """``x.gather_nd(indices)``: ``ops.gather_nd``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 2], [3, 4]]).gather_nd(ms.Tensor([[1, 0]])))
        [3]
    """
    return F.gather_nd(self, indices)


def _swapdims_method(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """``x.swapdims(dim0, dim1)``: the two axes exchanged.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 2]]).swapdims(0, 1).shape)
        (2, 1)
    """
    return F.swapaxes(self, dim0, dim1)


def _reshape_as_method(self: Tensor, other: Tensor) -> Tensor:
    """``x.reshape_as(other)``: ``x`` in ``other``'s shape.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1, 2, 3, 4]).reshape_as(ms.Tensor([[0, 0], [0, 0]])))
        [[1 2]
         [3 4]]
    """
    return F.reshape(self, other.shape)


def _ndimension_method(self: Tensor) -> int:
    """``x.ndimension()``: the number of axes.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([[1, 2]]).ndimension()
        2
    """
    return self.ndim


def _numel_method(self: Tensor) -> int:
    """``x.numel()``: the number of elements.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([[1, 2]]).numel()
        2
    """
    return self.size


METHODS = {"gather_nd": _gather_nd_method, "swapdims": _swapdims_method, "reshape_as": _reshape_as_method,
           "ndimension": _ndimension_method, "numel": _numel_method}
