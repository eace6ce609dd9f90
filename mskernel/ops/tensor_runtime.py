"""Tensor's runtime internals that MindSpore exposes, as they are on a CPU in one process: the storage
(:class:`UntypedStorage`: the tensor's bytes, sharing its memory), the hooks registered on it (``hooks()``,
``remove_hook``), synchronisation (``data_sync``, ``wait_pipeline``: nothing is pending here), DLPack
(``to_dlpack``, ``from_dlpack``), ``to_`` (the tensor stays on the CPU), ``set_`` (share another tensor's
memory) and the internal flags the CPU wheel answers with constants (``symbolic_shape`` None, ``virtual_flag``
False, ``param_info`` None until set, ``index_of_parent_``/``parent_tensor_`` None).

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([1.0, 2.0])
    >>> s = x.untyped_storage(); print(s.nbytes(), s.data_ptr() == x.data_ptr(), x.hooks(), x.virtual_flag)
    8 True [] False
"""
from __future__ import annotations

import weakref
from typing import Any, Dict, List, Optional

import numpy as np

from mskernel.autograd.hooks import leaf_hooks
from mskernel.common.storage import UntypedStorage
from mskernel.common.tensor import Tensor
from mskernel.utils import dlpack

__all__ = ["UntypedStorage", "EXTRAS", "attach"]


def storage(self: Tensor) -> UntypedStorage:
    """The tensor's memory (dtype-agnostic, sharing it)."""
    if not self._data.flags.c_contiguous:
        self._data = np.ascontiguousarray(self._data)
    return UntypedStorage(self._data)


def hooks(self: Tensor) -> List[Any]:
    """The hook functions registered on this tensor with ``register_hook``, in order."""
    table = leaf_hooks(self)
    return list(table.values()) if table else []


def remove_hook(handle: Any) -> None:
    """Remove a hook by the handle ``register_hook`` returned."""
    if not hasattr(handle, "remove"):
        raise TypeError(f"For 'Tensor.remove_hook', the argument must be the handle register_hook returned, but got "
                        f"{type(handle).__name__}.")
    handle.remove()


def data_sync(self: Tensor, wait: bool = True) -> None:
    """Synchronise the host copy with the device (a CPU tensor is its host copy)."""


def wait_pipeline(self: Tensor) -> None:
    """Run the tensor's pending asynchronous tasks (mskernel runs every op when it is called)."""


def to_(self: Tensor, device: Optional[str] = None, non_blocking: bool = False) -> Tensor:
    """Move the tensor to ``device`` in place; returns it (here every tensor is on the CPU, where it stays)."""
    if device not in ("Ascend", "CPU"):
        raise ValueError(f"The value of 'to' must be one of ['Ascend', 'CPU'], but got {device}")
    return self


def set_(self: Tensor, source: Any = None, storage_offset: int = 0, size: Any = None, stride: Any = None) -> Tensor:
    """Make this tensor use ``source``'s memory (a Tensor: its shape too; a storage: ``size``/``stride`` in
    elements from ``storage_offset``); with no source, an empty tensor. Returns the tensor."""
    if source is None:
        self._data = np.empty((0,), self._data.dtype)
    elif isinstance(source, Tensor) and size is None:
        self._data = source._data
    else:
        buf = source._array if isinstance(source, UntypedStorage) else source._data
        flat = buf.reshape(-1).view(np.uint8).view(self._data.dtype)
        shape = tuple(size) if size is not None else (flat.size - storage_offset,)
        if stride is None:
            stride, acc = [], 1
            for d in reversed(shape):
                stride.insert(0, acc)
                acc *= d
        item = flat.itemsize
        self._data = np.lib.stride_tricks.as_strided(flat[storage_offset:], shape, tuple(s * item for s in stride))
    self._version += 1
    return self


def to_dlpack(self: Tensor) -> Any:
    """A DLPack capsule of the tensor's data."""
    return dlpack.to_dlpack(self)


_PARAM_INFO: "weakref.WeakKeyDictionary[Tensor, Any]" = weakref.WeakKeyDictionary()


def param_info(self: Tensor) -> Any:
    """The Parameter information set with ``set_param_info`` (None for a plain tensor)."""
    return _PARAM_INFO.get(self)


def set_param_info(self: Tensor, info: Any) -> None:
    """Attach Parameter information to the tensor."""
    _PARAM_INFO[self] = info


def set_cast_dtype(self: Tensor, dtype: Any = None) -> None:
    """Record the dtype a Parameter is cast to in mixed precision (the CPU wheel's returns None, as here)."""


def assign_value_cpp(self: Tensor, value: Tensor) -> Tensor:
    """Replace the tensor's data by ``value``'s (``assign_value``'s native form)."""
    return self.assign_value(value)


def _constant(v: Any) -> Any:
    return property(lambda self: v)


#: name -> what Tensor gets
EXTRAS: Dict[str, Any] = {
    "storage": storage, "untyped_storage": storage, "hooks": hooks, "remove_hook": staticmethod(remove_hook),
    "data_sync": data_sync, "wait_pipeline": wait_pipeline, "to_": to_, "set_": set_, "to_dlpack": to_dlpack,
    "from_dlpack": staticmethod(dlpack.from_dlpack), "param_info": property(param_info),
    "set_param_info": set_param_info, "set_cast_dtype": set_cast_dtype, "assign_value_cpp": assign_value_cpp,
    "symbolic_shape": _constant(None), "virtual_flag": _constant(False), "index_of_parent_": _constant(None),
    "parent_tensor_": _constant(None),
}


def attach() -> None:
    """Put :data:`EXTRAS` on Tensor (never over a name it has).

    Example:
        >>> import mskernel as ms
        >>> attach(); print(ms.Tensor([1.0]).symbolic_shape)
        None
    """
    for name, obj in EXTRAS.items():
        if name not in vars(Tensor):
            setattr(Tensor, name, obj)
