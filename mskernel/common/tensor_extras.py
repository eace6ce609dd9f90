"""Tensor's odds and ends: the state queries, byte views and conversions MindSpore's Tensor has besides its ops.

A Tensor here is a numpy array on the CPU, always initialised, never pinned or shared: the queries answer so
(``device`` is ``'CPU'``, ``is_pinned()`` False, ``init_finished`` True), as the CPU wheel's do. :data:`EXTRAS`
is the table of what is attached to :class:`~mskernel.common.tensor.Tensor` (a method, a property, a static
method or a constant per name); :func:`attach` puts it there.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([1, 2, 3], ms.int16)
    >>> x.get_bytes(), x.is_signed(), x.device, x.short().dtype
    (b'\\x01\\x00\\x02\\x00\\x03\\x00', True, 'CPU', mindspore.int16)
"""
from __future__ import annotations

import weakref
from typing import Any, Dict, Optional, Sequence

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor, is_meta

__all__ = ["EXTRAS", "attach"]

_CONST_ARGS: "weakref.WeakKeyDictionary[Tensor, bool]" = weakref.WeakKeyDictionary()
_DEVICES = ("Ascend", "GPU", "CPU")


def data(self: Tensor) -> Tensor:
    """The tensor's data as a Tensor sharing its memory."""
    return Tensor._wrap(self._data)


def value(self: Tensor) -> Tensor:
    """The tensor's value (a Tensor sharing its memory).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0, 2.0]).value())
        [1. 2.]
    """
    return Tensor._wrap(self._data)


def data_ptr(self: Tensor) -> int:
    """The address of the tensor's first element.

    Example:
        >>> import mskernel as ms
        >>> isinstance(ms.Tensor([1, 2]).data_ptr(), int)
        True
    """
    return int(self._data.ctypes.data)


def is_signed(self: Tensor) -> bool:
    """Whether the dtype holds negative values (signed ints, floats, complex; not bool or unsigned ints).

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1], ms.int64).is_signed(), ms.Tensor([1], ms.uint64).is_signed()
        (True, False)
    """
    return self.dtype.np.kind in "ifc"


def itemset(self: Tensor, *args: Any) -> Tensor:
    """A copy with one element set: ``itemset(index, value)``, or ``itemset(value)`` for a one-element tensor
    (MindSpore returns the new tensor and leaves this one as it is).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.itemset((0, 1), 9.0), x.itemset(3, 7.0)[1])
        [[1. 9.]
         [3. 4.]] [3. 7.]
    """
    out = self._data.copy()
    if len(args) == 1:
        if out.size != 1:
            raise IndexError(f"Only tensor which shape is (1,) support 1 arg that means omit index, but the tensor "
                             f"shape is ({', '.join(map(str, out.shape))}) and got 1 input.")
        out.reshape(-1)[0] = args[0]
    elif len(args) == 2:
        index, val = args
        if isinstance(index, int):
            out.reshape(-1)[index] = val
        else:
            out[tuple(index)] = val
    else:
        raise TypeError(f"For 'itemset', 1 or 2 arguments are expected, but got {len(args)}.")
    return Tensor._wrap(out)


def new_empty(self: Tensor, size: Any, *, dtype: Any = None, device: Optional[str] = None) -> Tensor:
    """A new tensor of ``size`` with this one's dtype (or ``dtype``); its values are unspecified (zeros here).

    Example:
        >>> import mskernel as ms
        >>> y = ms.Tensor([1, 2]).new_empty((2, 3), dtype=ms.float64); y.shape, y.dtype
        ((2, 3), mindspore.float64)
    """
    shape = (size,) if isinstance(size, int) else tuple(size)
    return Tensor._wrap(np.zeros(shape, (mstype.to_dtype(dtype) if dtype is not None else self.dtype).np))


def assign_value(self: Tensor, value: Tensor) -> Tensor:
    """Replace this tensor's data (shape and dtype included) by ``value``'s; returns the tensor.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1, 2, 3, 4]); x.assign_value(ms.Tensor([[1, 2], [3, 4]])) is x; print(x)
        True
        [[1 2]
         [3 4]]
    """
    if not isinstance(value, Tensor):
        raise TypeError(f"For 'assign_value', the 'value' must be a Tensor, but got {type(value).__name__}.")
    self._data = value._data.copy()
    return self


def set_const_arg(self: Tensor, const_arg: bool = True) -> Tensor:
    """Mark the tensor as a constant argument of ``jit`` graphs; returns the tensor.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0]).set_const_arg(True); x.const_arg
        True
    """
    if not isinstance(const_arg, bool):
        raise TypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', but got type "
                        f"'{type(const_arg).__name__}'.")
    _CONST_ARGS[self] = const_arg
    return self


def const_arg(self: Tensor) -> bool:
    """Whether ``set_const_arg`` marked the tensor constant."""
    return _CONST_ARGS.get(self, False)


def _cast_wrapping(self: Tensor, np_dtype: Any) -> Tensor:
    arr = self._data
    if arr.dtype.kind == "f":  # truncate toward zero, then wrap into the narrower type, as the CPU kernel does
        arr = np.trunc(arr).astype(np.int64)
    return Tensor._wrap(arr.astype(np_dtype))


def byte(self: Tensor) -> Tensor:
    """The tensor as uint8.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.7, -1.0]).byte())
        [  1 255]
    """
    return _cast_wrapping(self, np.uint8)


def short(self: Tensor) -> Tensor:
    """The tensor as int16.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.7, -1.0]).short())
        [ 1 -1]
    """
    return _cast_wrapping(self, np.int16)


def move_to(self: Tensor, to: str = "CPU", blocking: bool = True) -> Tensor:
    """A copy of the tensor on device ``to``; only ``"CPU"`` exists here (MindSpore's CPU wheel says the same).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1, 2]).move_to("CPU"))
        [1 2]
    """
    if to not in _DEVICES:
        raise ValueError(f"The value of 'to' must be one of {list(_DEVICES)}, but got {to}")
    if to != "CPU":
        raise RuntimeError(f"The value of arg 'to' of method 'move_to' should be same with device target, bug got "
                           f"to:{to}, device target: CPU")
    return Tensor._wrap(self._data.copy())


def flush_from_cache(self: Tensor) -> None:
    """Flush the cache of an embedding cache table (nothing is cached here)."""
    return None


def get_bytes(self: Tensor) -> bytes:
    """The tensor's data as bytes (C order).

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1.0], ms.float32).get_bytes()
        b'\\x00\\x00\\x80?'
    """
    return np.ascontiguousarray(self._data).tobytes()


def convert_bytes_to_tensor(bytes_data: bytes, shape: Sequence[int], dtype: Any) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` read from ``bytes_data`` (what ``get_bytes`` gives).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor.convert_bytes_to_tensor(b'\\x01\\x00\\x02\\x00', (2,), ms.int16))
        [1 2]
    """
    arr = np.frombuffer(bytes_data, mstype.to_dtype(dtype).np).reshape(tuple(shape))
    return Tensor._wrap(arr.copy())


def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """Set ``requires_grad`` in place; returns the tensor.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1.0]).requires_grad_().requires_grad
        True
    """
    self.requires_grad = requires_grad
    return self


def sum_to_size(self: Tensor, *size: Any) -> Tensor:
    """The sum of the tensor down to ``size`` (the shape it was broadcast from): summed over its leading extra
    dimensions and, keeping them, over the dimensions ``size`` has as 1.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).sum_to_size(1, 2))
        [[4. 6.]]
    """
    from mskernel.ops import functional as F  # ops sit above common

    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)
    lead = self.ndim - len(shape)
    if lead < 0 or any(s not in (1, d) for s, d in zip(shape, self.shape[lead:])):
        raise ValueError(f"For 'Tensor.sum_to_size', the tensor of shape {list(self.shape)} cannot be summed to "
                         f"size {list(shape)}")
    out = F.sum(self, tuple(range(lead))) if lead else self
    axes = tuple(i for i, (s, d) in enumerate(zip(shape, out.shape)) if s == 1 and d != 1)
    return F.sum(out, axes, True) if axes else out


def resize(self: Tensor, *new_shape: Any) -> Tensor:
    """A new tensor of ``new_shape`` holding this one's elements in order, cut off or followed by zeros
    (MindSpore's, where numpy's ``resize`` repeats them).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).resize(1, 3), ms.Tensor([1, 2]).resize(3))
        [[1. 2. 3.]] [1 2 0]
    """
    shape = tuple(new_shape[0]) if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)) \
        else tuple(new_shape)
    flat = self._data.reshape(-1)
    out = np.zeros(int(np.prod(shape, dtype=np.int64)), self._data.dtype)
    n = min(out.size, flat.size)
    out[:n] = flat[:n]
    return Tensor._wrap(out.reshape(shape))


_OFFLOADED: Dict[int, str] = {}


def offload(self: Tensor, file_path: str) -> bool:
    """Write the tensor's bytes to ``file_path`` (MindSpore moves device memory to the file; a CPU tensor keeps
    its data too), remembering the path.

    Example:
        >>> import mskernel as ms, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "t.data")
        >>> t = ms.Tensor([1.0, 2.0]); t.offload(path), t.offload_file_path() == path
        (True, True)
    """
    with open(file_path, "wb") as f:
        f.write(self._data.tobytes())
    _OFFLOADED[id(self)] = str(file_path)
    return True


def offload_file_path(self: Tensor) -> str:
    """The file :func:`offload` wrote the tensor to ('' when it was not offloaded)."""
    return _OFFLOADED.get(id(self), "")


def set_init_flag(self: Tensor, flag: bool) -> None:
    """Mark the tensor's data as initialised (mskernel's tensors always hold their data).

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1.0]).set_init_flag(True)
    """


def _false(self: Tensor) -> bool:
    return False


def _constant(v: Any) -> Any:
    return property(lambda self: v)


#: name -> what Tensor gets (a function becomes a method; property/staticmethod objects and constants as they are)
EXTRAS: Dict[str, Any] = {
    "data": property(data, doc="The tensor's data (a Tensor sharing its memory)."),
    "value": value, "data_ptr": data_ptr, "is_signed": is_signed, "itemset": itemset, "new_empty": new_empty,
    "assign_value": assign_value, "set_const_arg": set_const_arg,
    "const_arg": property(const_arg, doc="Whether the tensor is a constant argument of jit graphs."),
    "byte": byte, "short": short, "move_to": move_to, "flush_from_cache": flush_from_cache,
    "get_bytes": get_bytes, "convert_bytes_to_tensor": staticmethod(convert_bytes_to_tensor),
    "requires_grad_": requires_grad_, "sum_to_size": sum_to_size, "resize": resize, "offload": offload,
    "offload_file_path": offload_file_path, "set_init_flag": set_init_flag,
    "has_init": _constant(False), "init": _constant(None), "init_flag": _constant(False),
    "init_finished": _constant(True), "is_init": _false, "is_pinned": _false, "is_shared": _false,
    "device": property(lambda self: "meta" if is_meta(self) else "CPU"),
    "is_meta": property(is_meta, doc="Whether the tensor is on the 'meta' device (shape and dtype only)."),
    "delta_seed": 0,
}


def attach() -> None:
    """Put :data:`EXTRAS` on Tensor (never over a name it has).

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1.0]).init_finished, ms.Tensor([1.0]).is_pinned()
        (True, False)
    """
    for name, obj in EXTRAS.items():
        if name not in vars(Tensor):
            setattr(Tensor, name, obj)
