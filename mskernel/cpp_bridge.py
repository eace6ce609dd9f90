"""Python support for mskernel's C++ extension headers (``mskernel/include``).

The headers keep C++ compile times low by leaving everything that is not per-op arithmetic to
this module: allocating numpy buffers for C++ tensors, ``ms::Tensor``'s reshaping/casting
methods, the CPU implementations behind ``custom::CustomLaunchAclnn``, and — most importantly —
:func:`record_function`, which puts a C++ ``Function<T>::Apply`` into mskernel's one autograd
graph through :func:`mskernel.autograd.record` (kind ``"cpp_function"``).

Nothing here is needed from Python code; it is public so that the C++ side has a stable place to
call, and so that :data:`ACLNN_OPS` can be inspected.

Example:
    >>> import numpy as np
    >>> from mskernel import cpp_bridge
    >>> x, y = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)
    >>> out = cpp_bridge.empty((2,), "float32")
    >>> cpp_bridge.launch_aclnn("aclnnMul", [x, y], [out])
    >>> out
    array([3., 8.], dtype=float32)
    >>> "aclnnMatmul" in cpp_bridge.ACLNN_OPS
    True
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from mskernel.autograd.node import STATE, record
from mskernel.tensor import Tensor
from mskernel.tensor import array_storage_offset as storage_offset  # called by the C++ headers by name

__all__ = ["STATE", "Tensor", "wrap", "empty", "zeros", "ones", "full", "from_values", "storage_offset",
           "copy_into", "contiguous", "cast", "reshape", "flatten", "chunk", "repeat", "index_select",
           "repeat_interleave", "record_function", "launch_aclnn", "ACLNN_OPS", "SecondOrderError"]

wrap = Tensor._wrap
"""``wrap(array)``: a Tensor sharing ``array`` (no copy, no autograd history)."""


# -- buffers ---------------------------------------------------------------------------------------
def empty(shape: Sequence[int], dtype: str) -> np.ndarray:
    """An uninitialized C-contiguous buffer (what ``make_shared<BaseTensor>(type, shape)`` owns).

    Example:
        >>> empty((2, 3), "int32").shape
        (2, 3)
    """
    return np.empty(tuple(shape), dtype)


def zeros(shape: Sequence[int], dtype: str) -> np.ndarray:
    """A zero-filled buffer (``ms::zeros``).

    Example:
        >>> zeros((2,), "float32")
        array([0., 0.], dtype=float32)
    """
    return np.zeros(tuple(shape), dtype)


def ones(shape: Sequence[int], dtype: str) -> np.ndarray:
    """A buffer of ones (``ms::ones``).

    Example:
        >>> ones((1,), "int64")
        array([1])
    """
    return np.ones(tuple(shape), dtype)


def full(shape: Sequence[int], value: Any, dtype: str) -> np.ndarray:
    """A buffer filled with ``value``.

    Example:
        >>> full((2,), 7, "int8")
        array([7, 7], dtype=int8)
    """
    return np.full(tuple(shape), value, dtype)


def from_values(values: Any, dtype: str) -> np.ndarray:
    """A new buffer holding ``values`` (a number or a sequence), as ``ms::tensor`` builds.

    Example:
        >>> from_values([1, 2], "float64")
        array([1., 2.])
    """
    return np.array(values, dtype=dtype)


def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[...] = src`` (with broadcasting and casting), for writing results back into views.

    Example:
        >>> d = np.zeros(2, np.int32); copy_into(d, np.array([1.5, 2.5])); d
        array([1, 2], dtype=int32)
    """
    np.copyto(dst, src, casting="unsafe")


# -- ms::Tensor methods (numpy; views where numpy gives views) -----------------------------------
def contiguous(arr: np.ndarray) -> np.ndarray:
    """``arr`` itself if C-contiguous, else a C-contiguous copy.

    Example:
        >>> contiguous(np.arange(6).reshape(2, 3)[:, 1:]).flags.c_contiguous
        True
    """
    return np.ascontiguousarray(arr)


def cast(arr: np.ndarray, dtype: str) -> np.ndarray:
    """A copy converted to ``dtype``.

    Example:
        >>> cast(np.array([1.7]), "int32")
        array([1], dtype=int32)
    """
    return arr.astype(dtype)


def reshape(arr: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """``arr`` with a new shape (one entry may be -1); a view when the layout allows.

    Example:
        >>> reshape(np.arange(6), [2, -1]).shape
        (2, 3)
    """
    return np.reshape(arr, tuple(shape))


def _dim(d: int, ndim: int, what: str) -> int:
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"{what}: dimension {d} is out of range for a tensor of rank {ndim}")
    return d % n


def flatten(arr: np.ndarray, start_dim: int = 0, end_dim: int = -1) -> np.ndarray:
    """Merges dimensions ``start_dim..end_dim`` into one.

    Example:
        >>> flatten(np.zeros((2, 3, 4)), 1).shape
        (2, 12)
    """
    if arr.ndim == 0:
        return arr.reshape(1)
    s, e = _dim(start_dim, arr.ndim, "flatten"), _dim(end_dim, arr.ndim, "flatten")
    if s > e:
        raise ValueError("flatten: start_dim must not come after end_dim")
    shape = arr.shape[:s] + (int(np.prod(arr.shape[s:e + 1])),) + arr.shape[e + 1:]
    return arr.reshape(shape)


def chunk(arr: np.ndarray, chunks: int, dim: int = 0) -> List[np.ndarray]:
    """Views splitting ``dim`` into pieces of ``ceil(n / chunks)`` elements (the last may be smaller).

    Example:
        >>> [c.shape for c in chunk(np.zeros((5, 2)), 2)]
        [(3, 2), (2, 2)]
    """
    if chunks <= 0:
        raise ValueError(f"chunk: 'chunks' must be positive, but got {chunks}")
    d = _dim(dim, arr.ndim, "chunk")
    n = arr.shape[d]
    step = max(-(-n // chunks), 1)
    index = [slice(None)] * arr.ndim
    out = []
    for start in range(0, max(n, 1), step):
        index[d] = slice(start, start + step)
        out.append(arr[tuple(index)])
    return out


def repeat(arr: np.ndarray, repeats: Sequence[int]) -> np.ndarray:
    """Tiles ``arr`` ``repeats[i]`` times along each dimension (``len(repeats) >= rank``).

    Example:
        >>> repeat(np.array([1, 2]), [2, 2]).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    if len(repeats) < arr.ndim:
        raise ValueError(f"repeat: got {len(repeats)} repeats for a tensor of rank {arr.ndim}")
    return np.tile(arr, tuple(repeats))


def index_select(arr: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """Elements at ``index`` along ``dim`` (a copy).

    Example:
        >>> index_select(np.arange(6).reshape(2, 3), 1, np.array([2, 0])).tolist()
        [[2, 0], [5, 3]]
    """
    return np.take(arr, index.reshape(-1).astype(np.int64), axis=_dim(dim, arr.ndim, "index_select"))


def repeat_interleave(arr: np.ndarray, repeats: Any, dim: Optional[int] = None,
                      output_size: Optional[int] = None) -> np.ndarray:
    """Repeats each element ``repeats`` times along ``dim`` (the flattened tensor if None).

    Example:
        >>> repeat_interleave(np.array([1, 2]), 2).tolist()
        [1, 1, 2, 2]
    """
    if isinstance(repeats, np.ndarray):
        repeats = repeats.reshape(-1).astype(np.int64)
        if repeats.size == 1:
            repeats = int(repeats[0])
    out = np.repeat(arr, repeats, axis=None if dim is None else _dim(dim, arr.ndim, "repeat_interleave"))
    if output_size is not None and out.shape[0 if dim is None else dim] != output_size:
        raise ValueError(f"repeat_interleave: output_size is {output_size}, but the result has "
                         f"{out.shape[0 if dim is None else dim]} elements along the dimension")
    return out


# -- Function<T>::Apply -> the autograd graph ----------------------------------------------------
class SecondOrderError(RuntimeError):
    """A higher-order gradient was requested through a C++ Backward that computed with raw kernels.

    Example:
        >>> issubclass(SecondOrderError, RuntimeError)
        True
    """


def _no_double_backward(op: str) -> Callable:
    def backward(douts: Any, outs: Any = None) -> Any:
        raise SecondOrderError(
            f"Second-order gradients through the C++ Backward of '{op}' are not available: its Backward "
            f"computed its gradients with raw kernels (e.g. custom::CustomLaunchAclnn), which autograd cannot "
            f"differentiate. Differentiate only once, or build the gradients in Backward from differentiable ops "
            f"(another Function<...>::Apply whose Backward does the math).")
    return backward


def record_function(op: str, qualname: str, inputs: List[Optional[Tensor]], outputs: List[Tensor],
                    dirty: List[int], nondiff: List[int], cpp_backward: Callable,
                    needs_outputs: bool, materialize_grads: bool = True) -> List[Tensor]:
    """Record one ``Function<T>::Apply`` as a graph node; returns the outputs to hand back.

    ``inputs`` has one entry per Forward argument (None for non-tensors); ``dirty`` lists the
    argument positions Forward marked dirty (modified in place), ``nondiff`` the output positions
    marked non-differentiable. ``cpp_backward(douts, outs)`` runs the C++ Backward and returns one
    gradient per argument; with ``materialize_grads`` False (``SetMaterializeGrads(false)``) the
    gradient of an unused output arrives as None (nullptr in C++) instead of zeros. An output that is a (clean) input comes back as a new Tensor sharing
    its memory; a dirty input comes back as itself and its history moves to the new node.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([2.0]); x.requires_grad = True
        >>> y = wrap(x.asnumpy() * 3)
        >>> outs = record_function("Triple", "Triple", [x], [y], [], [], lambda d, o: [d[0] * 3], False)
        >>> outs[0].grad_fn.op, outs[0].grad_fn.kind
        ('Triple', 'cpp_function')
    """
    name = f"Function[{qualname}]"
    ins = list(inputs)
    for i in dirty:
        t = inputs[i]
        if t._rg and t._node is None:
            raise RuntimeError(f"{name}: A leaf tensor that need grad is being used in an inplace operator.")
        old = wrap(t._data)  # stands for the value before the in-place write, with the old history
        old._rg, old._node, old._idx = t._rg, t._node, t._idx
        ins[i] = old
        t._version += 1
    input_ids = {id(t) for t in inputs if t is not None}
    dirty_ids = {id(inputs[i]) for i in dirty}
    outs = list(outputs)
    seen: set = set()
    for j, o in enumerate(outs):
        if (id(o) in input_ids and id(o) not in dirty_ids) or id(o) in seen:
            outs[j] = wrap(o._data)  # a returned input (or a repeated output): same memory, new identity
        seen.add(id(outs[j]))
    real_ins = [t for t in ins if t is not None]

    def backward(douts: List[Tensor], fwd_outs: Optional[List[Tensor]] = None) -> List[Optional[Tensor]]:
        grads = cpp_backward(douts, fwd_outs if fwd_outs is not None else [])
        if STATE.enabled:  # create_graph: a gradient computed by raw kernels must not pass as a constant
            deps = [t for t in (*douts, *(fwd_outs or ()), *real_ins) if t is not None and t._rg]
            if deps:
                for g in grads:
                    if isinstance(g, Tensor) and not g._rg and g._data.dtype.kind in "fc":
                        record(f"{op}Backward", deps, (g,), _no_double_backward(op), kind="cpp_function",
                               info={"cpp_class": qualname, "backward_of": op})
        return grads

    record(op, ins, outs, backward, kind="cpp_function", info={"cpp_class": qualname}, needs_outputs=needs_outputs,
           materialize_grads=materialize_grads)
    for j in nondiff:
        o = outs[j]
        o._rg, o._node, o._idx = False, None, 0
    return outs


# -- custom::CustomLaunchAclnn on the CPU ----------------------------------------------------------
def _arr(x: Any) -> Any:
    return x._data if isinstance(x, Tensor) else x


def _binary(ufunc: Callable, scale_arg: bool = False) -> Callable:
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        a, b = ins[0], ins[1]
        if scale_arg and len(ins) > 2 and ins[2] is not None and ins[2] != 1:
            b = np.multiply(b, ins[2])
        ufunc(a, b, out=outs[0], casting="unsafe")
    return run


def _unary(fn: Callable) -> Callable:
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        np.copyto(outs[0], fn(np.asarray(ins[0])), casting="unsafe")
    return run


def _inplace(op: Callable) -> Callable:
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        op(ins, [ins[0]])
    return run


def _reduce(fn: Callable) -> Callable:
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        dims = ins[1] if len(ins) > 1 else None
        axis = tuple(dims) if isinstance(dims, (tuple, list)) and len(dims) else (None if dims in (None, ()) else dims)
        keep = bool(ins[2]) if len(ins) > 2 else False
        res = fn(np.asarray(ins[0]), axis=axis, keepdims=keep)
        np.copyto(outs[0], np.reshape(res, outs[0].shape), casting="unsafe")
    return run


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-a))


def _softmax(ins: List[Any], outs: List[np.ndarray]) -> None:
    a = np.asarray(ins[0])
    e = np.exp(a - a.max(axis=ins[1], keepdims=True))
    np.copyto(outs[0], e / e.sum(axis=ins[1], keepdims=True), casting="unsafe")


def _matmul(ins: List[Any], outs: List[np.ndarray]) -> None:
    np.copyto(outs[0], np.matmul(ins[0], ins[1]), casting="unsafe")


ACLNN_OPS: Dict[str, Callable[[List[Any], List[np.ndarray]], None]] = {
    "aclnnAdd": _binary(np.add, scale_arg=True), "aclnnAdds": _binary(np.add, scale_arg=True),
    "aclnnSub": _binary(np.subtract, scale_arg=True), "aclnnSubs": _binary(np.subtract, scale_arg=True),
    "aclnnMul": _binary(np.multiply), "aclnnMuls": _binary(np.multiply),
    "aclnnDiv": _binary(np.true_divide), "aclnnDivs": _binary(np.true_divide),
    "aclnnMaximum": _binary(np.maximum), "aclnnMinimum": _binary(np.minimum),
    "aclnnPowTensorTensor": _binary(np.power), "aclnnPowTensorScalar": _binary(np.power),
    "aclnnNeg": _unary(np.negative), "aclnnExp": _unary(np.exp), "aclnnLog": _unary(np.log),
    "aclnnSqrt": _unary(np.sqrt), "aclnnRsqrt": _unary(lambda a: 1.0 / np.sqrt(a)), "aclnnAbs": _unary(np.abs),
    "aclnnReciprocal": _unary(lambda a: 1.0 / a), "aclnnSin": _unary(np.sin), "aclnnCos": _unary(np.cos),
    "aclnnTanh": _unary(np.tanh), "aclnnSigmoid": _unary(_sigmoid), "aclnnRelu": _unary(lambda a: np.maximum(a, 0)),
    "aclnnSilu": _unary(lambda a: a * _sigmoid(a)), "aclnnSign": _unary(np.sign), "aclnnFloor": _unary(np.floor),
    "aclnnCeil": _unary(np.ceil), "aclnnCast": _unary(lambda a: a), "aclnnExpand": _unary(lambda a: a),
    "aclnnMatmul": _matmul, "aclnnMm": _matmul, "aclnnBatchMatMul": _matmul, "aclnnBmm": _matmul,
    "aclnnReduceSum": _reduce(np.sum), "aclnnMean": _reduce(np.mean), "aclnnSoftmax": _softmax,
    "aclnnInplaceCopy": lambda ins, outs: np.copyto(ins[0], ins[1], casting="unsafe"),
    "aclnnInplaceZero": lambda ins, outs: ins[0].fill(0),
    "aclnnInplaceFillScalar": lambda ins, outs: ins[0].fill(ins[1]),
    "aclnnInplaceAdd": _inplace(_binary(np.add, scale_arg=True)), "aclnnInplaceAdds": _inplace(_binary(np.add, True)),
    "aclnnInplaceSub": _inplace(_binary(np.subtract, True)), "aclnnInplaceMul": _inplace(_binary(np.multiply)),
    "aclnnInplaceMuls": _inplace(_binary(np.multiply)), "aclnnInplaceDiv": _inplace(_binary(np.true_divide)),
}
"""aclnn API name -> CPU implementation ``fn(inputs, outputs)`` (inputs: arrays or scalars)."""


def launch_aclnn(name: str, inputs: List[Any], outputs: List[Any]) -> None:
    """Run the CPU version of the aclnn API ``name`` (``custom::CustomLaunchAclnn``), broadcasting.

    Raises RuntimeError naming the op and the supported names when there is no CPU version.

    Example:
        >>> out = np.empty((2, 2), np.float32)
        >>> launch_aclnn("aclnnAdd", [np.ones((2, 1), np.float32), np.ones(2, np.float32), 2], [out])
        >>> out.tolist()
        [[3.0, 3.0], [3.0, 3.0]]
    """
    fn = ACLNN_OPS.get(name)
    if fn is None:
        raise RuntimeError(f"custom::CustomLaunchAclnn: '{name}' has no CPU implementation in mskernel. Supported "
                           f"names: {', '.join(sorted(ACLNN_OPS))}. Write the kernel yourself (see "
                           f"mskernel/kernels.h for broadcasting helpers) or call numpy from Python.")
    ins = [_arr(x) for x in inputs]
    outs = [_arr(x) for x in outputs]
    if not name.startswith("aclnnInplace") and not outs:
        raise RuntimeError(f"custom::CustomLaunchAclnn: '{name}' needs an output tensor.")
    try:
        fn(ins, outs)
    except (ValueError, TypeError, IndexError) as e:
        shapes = [np.shape(x) for x in ins]
        raise RuntimeError(f"custom::CustomLaunchAclnn('{name}') failed for input shapes {shapes} and output shapes "
                           f"{[o.shape for o in outs]}: {e}") from None
