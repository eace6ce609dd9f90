"""``custom::CustomLaunchAclnn`` on the CPU: the aclnn kernel names the C++ headers may launch, on numpy.

Example:
    >>> import numpy as np
    >>> out = np.empty(2, np.float32)
    >>> launch_aclnn("aclnnMul", [np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)], [out])
    >>> out
    array([3., 8.], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["launch_aclnn", "ACLNN_OPS"]


def _binary(ufunc: Callable, scale_arg: bool = False) -> Callable:
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        a, b, o = ins[0], ins[1], outs[0]
        if scale_arg and len(ins) > 2 and ins[2] is not None and ins[2] != 1:
            b = np.multiply(b, ins[2])
        if a.__class__ is b.__class__ is np.ndarray and a.dtype == b.dtype == o.dtype:
            ufunc(a, b, o)  # one dtype: no cast to allow (the keywords cost more than the op on small arrays)
        else:
            ufunc(a, b, out=o, casting="unsafe")
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


def _log_softmax(a: np.ndarray, axis: int) -> np.ndarray:
    shifted = a - a.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _matmul(ins: List[Any], outs: List[np.ndarray]) -> None:
    np.copyto(outs[0], np.matmul(ins[0], ins[1]), casting="unsafe")


def _index_select(ins: List[Any], outs: List[np.ndarray]) -> None:  # (self, dim, index) -> out
    np.copyto(outs[0], np.take(ins[0], np.asarray(ins[2]).astype(np.int64), axis=int(ins[1])), casting="unsafe")


def _gather(ins: List[Any], outs: List[np.ndarray]) -> None:  # (self, dim, index): out[i][j] = self[index[i][j]][j]
    np.copyto(outs[0], np.take_along_axis(ins[0], np.asarray(ins[2]).astype(np.int64), axis=int(ins[1])),
              casting="unsafe")


def _index(ins: List[Any], outs: List[np.ndarray]) -> None:  # (self, indices: one index tensor per leading dim)
    idx = ins[1] if isinstance(ins[1], (list, tuple)) else ins[1:]
    np.copyto(outs[0], ins[0][tuple(None if i is None else np.asarray(i).astype(np.int64) for i in idx)],
              casting="unsafe")


def _arg(fn: Callable) -> Callable:  # (self, dim, keepdim) -> int64 indices
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        keep = bool(ins[2]) if len(ins) > 2 else False
        res = fn(np.asarray(ins[0]), axis=int(ins[1]), keepdims=keep)
        np.copyto(outs[0], np.reshape(res, outs[0].shape), casting="unsafe")
    return run


def _gelu(a: np.ndarray) -> np.ndarray:
    return 0.5 * a * (1.0 + np.vectorize(math.erf, otypes=[np.float64])(a / math.sqrt(2.0)))


def _with_scalar(fn: Callable) -> Callable:  # (self, scalar) -> out
    def run(ins: List[Any], outs: List[np.ndarray]) -> None:
        np.copyto(outs[0], fn(np.asarray(ins[0]), ins[1]), casting="unsafe")
    return run


ACLNN_OPS: Dict[str, Callable[[List[Any], List[np.ndarray]], None]] = {
    "aclnnIndexSelect": _index_select, "aclnnGatherV2": _index_select, "aclnnGather": _gather,
    "aclnnIndex": _index, "aclnnEmbedding": lambda ins, outs: _index_select([ins[0], 0, ins[1]], outs),
    "aclnnAmax": _reduce(np.max), "aclnnAmin": _reduce(np.min), "aclnnProd": _reduce(np.prod),
    "aclnnArgMax": _arg(np.argmax), "aclnnArgMin": _arg(np.argmin),
    "aclnnGelu": _unary(_gelu), "aclnnLeakyRelu": _with_scalar(lambda a, s: np.where(a > 0, a, a * s)),
    "aclnnSoftplus": _unary(lambda a: np.logaddexp(0, a)),
    "aclnnErf": _unary(np.vectorize(math.erf, otypes=[np.float64])),
    "aclnnClamp": lambda ins, outs: np.copyto(outs[0], np.clip(ins[0], ins[1], ins[2]), casting="unsafe"),
    "aclnnLogSoftmax": lambda ins, outs: np.copyto(outs[0], _log_softmax(np.asarray(ins[0]), int(ins[1])),
                                                   casting="unsafe"),
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
    ins = [x._data if isinstance(x, Tensor) else x for x in inputs]
    outs = [x._data if isinstance(x, Tensor) else x for x in outputs]
    if not name.startswith("aclnnInplace") and not outs:
        raise RuntimeError(f"custom::CustomLaunchAclnn: '{name}' needs an output tensor.")
    try:
        fn(ins, outs)
    except (ValueError, TypeError, IndexError) as e:
        shapes = [np.shape(x) for x in ins]
        raise RuntimeError(f"custom::CustomLaunchAclnn('{name}') failed for input shapes {shapes} and output shapes "
                           f"{[o.shape for o in outs]}: {e}") from None
