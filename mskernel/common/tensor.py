"""Tensor: a numpy buffer, a MindSpore dtype, and autograd bookkeeping.

A Tensor owns (or views) one numpy array. Slicing gives strided zero-copy views, like numpy.
This module holds the data and knows no op: the operators and methods that compute (``x * y``,
``x.sum()``, ``x.exp_()``) are attached by the op table when :mod:`mskernel.ops` loads (the entries
in :mod:`mskernel.ops.table`, and :mod:`mskernel.ops.methods` for those whose Tensor form differs from
the functional op), so they are the same recorded ops as ``ops.mul`` or ``ops.sum``.

Example:
    >>> import mskernel as ms
    >>> t = ms.Tensor([1.0, 2.0, 3.0])
    >>> t.shape, t.dtype, t.ndim, t.size
    ((3,), mindspore.float32, 1, 3)
    >>> print(ms.Tensor(1.0, ms.float32) * 2)
    2.0
    >>> ms.Tensor(1.0, ms.float32) * 2
    Tensor(shape=[], dtype=Float32, value= 2)
"""
from __future__ import annotations

import numbers
import weakref
from typing import Any, List, Optional, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel._accel import cengine
from mskernel._format import LOW_FLOATS, low_float_str, tensor_repr
from mskernel.dtype import Type
from mskernel.common.symbol import Symbol

__all__ = ["Tensor", "from_numpy", "is_tensor", "tensor"]

_UNINITIALIZED: "weakref.WeakValueDictionary[int, Tensor]" = weakref.WeakValueDictionary()  # init= before init_data()
_META: "weakref.WeakValueDictionary[int, Tensor]" = weakref.WeakValueDictionary()  # made with device='meta'
# What Tensor methods need from the layers above it, filled by those layers when they load (so no
# import reaches upward): "initializer" by mskernel.common.initializer, "register_hook" by
# mskernel.autograd.hooks. ``import mskernel`` loads both before any Tensor can be built.
PROVIDERS: "dict[str, Any]" = {}


_SCALARS = (int, float, bool, np.ndarray, np.generic)


def _list_to_array(data: Any) -> np.ndarray:
    def conv(x):
        if isinstance(x, Tensor):
            return x._data
        if isinstance(x, (list, tuple)):
            return [conv(e) for e in x]
        return x
    arr = np.array(conv(data))
    if arr.dtype == np.float64 and not _has_numpy_float64(data):
        arr = arr.astype(np.float32)  # Python floats make Float32 tensors, as in MindSpore
    return arr


def _has_numpy_float64(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_numpy_float64(e) for e in data)
    return isinstance(data, (np.ndarray, np.floating)) and np.asarray(data).dtype == np.float64


def _to_array(input_data: Any, dtype: Optional[Type]) -> np.ndarray:
    if isinstance(input_data, Tensor):
        arr = input_data._data
    elif isinstance(input_data, np.ndarray):
        arr = input_data
    elif isinstance(input_data, np.generic):  # before float: np.float64 is a Python float subclass
        arr = np.array(input_data)
    elif isinstance(input_data, bool):
        arr = np.array(input_data, np.bool_)
    elif isinstance(input_data, numbers.Integral) and not isinstance(input_data, np.generic):
        arr = np.array(input_data, np.int64)
    elif isinstance(input_data, float):
        arr = np.array(input_data, np.float32)
    elif isinstance(input_data, complex):
        arr = np.array(input_data)
    elif isinstance(input_data, (list, tuple)):
        arr = _list_to_array(input_data)
    else:
        raise TypeError(f"For 'Tensor', the type of 'input_data' should be one of [Tensor, numpy.ndarray, list, "
                        f"tuple, float, int, bool, complex], but got {type(input_data).__name__}.")
    if arr.dtype.kind not in "biufc" and (arr.dtype not in Type._by_np or arr.dtype.names):
        raise TypeError(f"For 'Tensor', the numpy dtype {arr.dtype} is not supported: use numbers or booleans.")
    target = dtype.np if dtype is not None else arr.dtype
    if target.names:  # HiFloat8: a name without storage here
        raise TypeError(f"For 'Tensor', mskernel cannot store values of dtype {dtype}: it has no encoder for its "
                        f"8-bit format; use float8_e4m3fn, float8_e5m2 or bfloat16.")
    if target not in Type._by_np:
        raise TypeError(f"For 'Tensor', the numpy dtype {arr.dtype} has no MindSpore dtype.")
    return np.array(arr, dtype=target, copy=True)


class Tensor:
    """A MindSpore-compatible tensor on the CPU.

    ``Tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False)``: from a
    numpy array (its dtype is kept), a Python scalar (float → Float32, int → Int64, bool → Bool),
    a list/tuple or another Tensor. The data is copied; :func:`from_numpy` shares instead.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]], dtype=ms.float64)
        >>> x[0, 1:].asnumpy()
        array([2.])
        >>> print(x.sum())
        10.0
    """

    # _alias: the views this tensor shares memory with, while gradients are recorded (mskernel.ops.alias)
    __slots__ = ("_data", "_rg", "_node", "_idx", "_version", "_alias", "__weakref__")
    __array_priority__ = 1000
    __array_ufunc__ = None  # numpy defers to our reflected operators: np.float32(2) * t is a Tensor

    def __new__(cls, input_data: Any = None, dtype: Optional[Type] = None, shape: Any = None, *args: Any,
                **kwargs: Any) -> "Tensor":
        if input_data is None and shape is not None and not isinstance(shape, int) and cls is Tensor \
                and any(_dynamic_dim(d) for d in shape):
            return object.__new__(_Placeholder)  # Tensor(shape=[4, None], dtype=...): a dynamic-shape placeholder
        return object.__new__(cls)

    def __init__(self, input_data: Any = None, dtype: Optional[Type] = None, shape: Any = None,
                 init: Any = None, const_arg: bool = False, device: Optional[str] = None) -> None:
        if dtype is not None and not isinstance(dtype, Type):
            raise TypeError(f"For 'Tensor', the 'dtype' must be a mindspore dtype such as mindspore.float32, "
                            f"but got {dtype!r} of type {type(dtype).__name__}.")
        if input_data is None:
            if shape is None or dtype is None:
                raise ValueError("For 'Tensor', when 'input_data' is None, 'shape' and 'dtype' must be set.")
            shp = (shape,) if isinstance(shape, int) else tuple(shape)
            if any(_dynamic_dim(d) for d in shp):  # a dynamic-shape placeholder (for Cell.set_inputs)
                if init is not None:
                    raise ValueError("For 'Tensor', a shape with None (dynamic) dimensions cannot take 'init'.")
                self._data = np.zeros(tuple(0 if _dynamic_dim(d) else d for d in shp), dtype.np)
                self._rg, self._node, self._idx, self._version, self._alias = False, None, 0, 0, None
                self._dyn_shape = tuple(-1 if _dynamic_dim(d) else int(d) for d in shp)  # type: ignore[attr-defined]
                return
            if init is None:
                arr = np.zeros(shp, dtype.np)
            else:
                arr = PROVIDERS["initializer"](init, shp, dtype)._data
                _UNINITIALIZED[id(self)] = self  # MindSpore initialises it on init_data(); until then it prints as such
        else:
            if shape is not None:
                raise ValueError("For 'Tensor', 'shape' can only be given when 'input_data' is None.")
            arr = _to_array(input_data, dtype)
        if device == "meta":
            _META[id(self)] = self
        self._data = arr
        self._rg = False
        self._node = None
        self._idx = 0
        self._version = 0
        self._alias = None

    # -- basic properties -----------------------------------------------------------------------
    @property
    def shape(self) -> Tuple[int, ...]:
        """The shape as a tuple of ints."""
        return self._data.shape

    @property
    def dtype(self) -> Type:
        """The MindSpore dtype (e.g. ``mindspore.float32``)."""
        return Type._by_np[self._data.dtype]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim

    @property
    def size(self) -> int:
        """Number of elements."""
        return self._data.size

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        """Total bytes of the elements."""
        return self._data.nbytes

    @property
    def strides(self) -> Tuple[int, ...]:
        """Byte strides of the underlying buffer (views of sliced tensors are strided)."""
        return self._data.strides

    @property
    def requires_grad(self) -> bool:
        """Whether autograd tracks this tensor."""
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value and not mstype.is_float(self.dtype):
            raise TypeError(f"only floating-point tensors can require gradients, but this one is {self.dtype}.")
        self._rg = bool(value)

    def register_hook(self, hook_fn: Any) -> Any:
        """Call ``hook_fn(grad)`` with the gradient w.r.t. this tensor; it may return a new one.

        Returns a handle whose ``remove()`` unregisters it (see :mod:`mskernel.autograd.hooks`).

        Example:
            >>> import mskernel as ms
            >>> def f(x):
            ...     x.register_hook(lambda g: g * 0.5)
            ...     return (x * 4).sum()
            >>> print(ms.grad(f)(ms.Tensor([1.0])))
            [2.]
        """
        return PROVIDERS["register_hook"](self, hook_fn)

    @property
    def grad_fn(self):
        """The graph node that produced this tensor (None for leaves and untracked tensors)."""
        return self._node

    def asnumpy(self) -> np.ndarray:
        """The values as a numpy array sharing this tensor's memory (as MindSpore's ``asnumpy``).

        Example:
            >>> import mskernel as ms
            >>> ms.Tensor([1, 2]).asnumpy()
            array([1, 2])
        """
        return self._data

    def numpy(self) -> np.ndarray:
        """Alias of :meth:`asnumpy`."""
        return self._data

    def item(self, index: Any = None) -> Union[int, float, bool]:
        """The single value as a Python scalar (or the value at ``index``).

        Example:
            >>> import mskernel as ms
            >>> ms.Tensor([[2.5]]).item()
            2.5
        """
        return self._data.item() if index is None else self._data.item(index)

    def tolist(self) -> Any:
        """The values as nested Python lists."""
        return self._data.tolist()

    def is_contiguous(self) -> bool:
        """True when the buffer is C-contiguous (not a strided view)."""
        return self._data.flags.c_contiguous

    def stride(self, dim: Optional[int] = None) -> Union[List[int], int]:
        """Strides in elements (MindSpore/torch convention): a list, or the stride of ``dim``.

        Example:
            >>> import mskernel as ms
            >>> x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
            >>> x.stride(), x.stride(-1)
            ([3, 1], 1)
        """
        strides = [s // self._data.itemsize for s in self._data.strides]
        if dim is None:
            return strides
        if not isinstance(dim, int) or isinstance(dim, bool) or not -len(strides) <= dim < max(len(strides), 1):
            raise IndexError(f"For 'Tensor.stride', 'dim' must be an int in [{-len(strides)}, {len(strides)}), "
                             f"but got {dim!r}")
        return strides[dim]

    def storage_offset(self) -> int:
        """Element offset of this view inside its base buffer."""
        return array_storage_offset(self._data)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise ValueError("The truth value of a Tensor with more than one element is ambiguous.")
        return bool(self._data.reshape(-1)[0])

    def __float__(self) -> float:
        return float(self._data)

    def __int__(self) -> int:
        return int(self._data)

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data)

    __hash__ = object.__hash__

    def __str__(self) -> str:
        if _UNINITIALIZED.get(id(self)) is self:
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=\n<uninitialized>)"
        if is_meta(self):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=\n<meta>)"
        if self._data.dtype in LOW_FLOATS:
            return low_float_str(self._data)
        if self._data.dtype == mstype.qint4x2.np:  # numpy's layout of the integers, as the wheel's int8 storage
            return str(self._data.astype(np.int8))
        return str(self._data)

    def init_data(self, slice_index: Any = None, shape: Any = None, opt_shard_group: Any = None) -> "Tensor":
        """Initialise a tensor made with ``init=`` (MindSpore creates its data lazily); returns it.

        Example:
            >>> import mskernel as ms
            >>> from mskernel.common.initializer import One
            >>> t = ms.Tensor(shape=(2,), dtype=ms.float32, init=One())
            >>> print(t)
            Tensor(shape=[2], dtype=Float32, value=
            <uninitialized>)
            >>> print(t.init_data())
            [1. 1.]
        """
        _UNINITIALIZED.pop(id(self), None)
        return self

    @staticmethod
    def from_numpy(array: np.ndarray) -> "Tensor":
        """A Tensor sharing memory with ``array`` (MindSpore's ``Tensor.from_numpy``).

        Example:
            >>> import numpy as np, mskernel as ms
            >>> a = np.ones(2, np.float32); t = ms.Tensor.from_numpy(a); a[0] = 3
            >>> print(t)
            [3. 1.]
        """
        return from_numpy(array)

    def __repr__(self) -> str:
        if is_meta(self):
            return str(self)
        return tensor_repr(self._data, self.dtype.name)

    def __array__(self, dtype=None, copy=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def __reduce__(self):
        return (Tensor, (np.array(self._data),))

    def __copy__(self) -> "Tensor":
        return Tensor._wrap(self._data.copy())

    def __deepcopy__(self, memo) -> "Tensor":
        return Tensor._wrap(self._data.copy())

    def copy(self) -> "Tensor":
        """A copy with its own buffer (not tracked by autograd)."""
        return Tensor._wrap(self._data.copy())

    def __setitem__(self, index: Any, value: Any) -> None:
        # replaced by the op table's recorded form (mskernel.ops.table.index) once mskernel.ops is imported
        index = _unwrap_index(index)
        self._data[index] = value._data if isinstance(value, Tensor) else value
        self._version += 1

    def set_dtype(self, dtype: Type) -> Type:
        """Cast in place (MindSpore's ``set_dtype``); returns the new dtype, as MindSpore does.

        Example:
            >>> import mskernel as ms
            >>> x = ms.Tensor([1.5, 2.0])
            >>> x.set_dtype(ms.int32), x
            (mindspore.int32, Tensor(shape=[2], dtype=Int32, value= [1, 2]))
        """
        self._data = self._data.astype(mstype.to_dtype(dtype).np)
        return mstype.to_dtype(dtype)


def array_storage_offset(arr: np.ndarray) -> int:
    """Element offset of a numpy view inside the buffer of the array it was sliced from.

    Example:
        >>> a = np.zeros((10, 10), np.float32)
        >>> array_storage_offset(a[2:, 3:])
        23
    """
    base = arr
    while isinstance(base.base, np.ndarray):
        base = base.base
    delta = arr.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return delta // arr.itemsize if arr.itemsize else 0


def _unwrap_index(index: Any) -> Any:
    if isinstance(index, Tensor):
        return index._data
    if isinstance(index, tuple):
        return tuple(i._data if isinstance(i, Tensor) else i for i in index)
    return index



_C = cengine()
_C.bind_tensor(Tensor, np.ndarray, np.asarray)
# Tensor._wrap(arr): a Tensor sharing ``arr``, no copy, no autograd history, no validation (the hot path of every
# op). It is the engine core's ``wrap`` (a builtin, so not bound as a method; its docstring has the example).
Tensor._wrap = _C.wrap  # type: ignore[attr-defined]


def _dynamic_dim(d: Any) -> bool:
    """Whether a declared dimension is dynamic: None, -1 or a :class:`~mskernel.common.symbol.Symbol`."""
    return d is None or isinstance(d, Symbol) or (isinstance(d, int) and d == -1)


class _Placeholder(Tensor):
    """``Tensor(shape=[4, None], dtype=...)``: a dynamic-shape placeholder for ``Cell.set_inputs``; no data."""

    __slots__ = ("_dyn_shape",)

    @property
    def shape(self) -> Tuple[int, ...]:
        """The declared shape, -1 for each dynamic dimension."""
        return self._dyn_shape

    def asnumpy(self) -> np.ndarray:
        raise RuntimeError(f"This Tensor of shape {list(self._dyn_shape)} is a dynamic-shape placeholder (for "
                           f"Cell.set_inputs): it has no data.")

    def __repr__(self) -> str:
        return f"Tensor(shape={list(self._dyn_shape)}, dtype={self.dtype}, value=<placeholder>)"

    __str__ = __repr__


def is_meta(t: Tensor) -> bool:
    """Whether ``t`` is on MindSpore's 'meta' device (made with ``device='meta'`` or ``.to('meta')``): a tensor
    of shape and dtype only, in MindSpore; here its values are kept but it prints as ``<meta>``.

    Example:
        >>> import numpy as np
        >>> is_meta(Tensor(np.ones(2), device="meta")), is_meta(Tensor(np.ones(2)))
        (True, False)
    """
    return _META.get(id(t)) is t


def to_meta(t: Tensor) -> Tensor:
    """A copy of ``t`` on the 'meta' device (see :func:`is_meta`).

    Example:
        >>> print(to_meta(Tensor([1.0])))
        Tensor(shape=[1], dtype=Float32, value=
        <meta>)
    """
    out = Tensor._wrap(t._data.copy())
    _META[id(out)] = out
    return out


def from_numpy(array: np.ndarray) -> Tensor:
    """A Tensor sharing memory with ``array`` (MindSpore's ``from_numpy``).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> a = np.zeros(2, np.float32); t = ms.from_numpy(a); a[0] = 5
        >>> print(t)
        [5. 0.]
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"For 'from_numpy', the input must be a numpy.ndarray, but got {type(array).__name__}.")
    if array.dtype not in Type._by_np:
        raise TypeError(f"For 'from_numpy', the numpy dtype {array.dtype} is not supported.")
    return Tensor._wrap(array)


def tensor(input_data: Any = None, dtype: Optional[Type] = None, shape: Any = None, init: Any = None,
           const_arg: bool = False, device: Optional[str] = None) -> Tensor:
    """MindSpore's factory ``mindspore.tensor(...)``: the same as ``Tensor(...)``.

    Example:
        >>> import mskernel as ms
        >>> ms.tensor([1, 2], ms.float32)
        Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])
    """
    return Tensor(input_data, dtype, shape, init, const_arg, device)


def is_tensor(obj: Any) -> bool:
    """True for a Tensor (or Parameter).

    Example:
        >>> import mskernel as ms
        >>> is_tensor(ms.Tensor(1)), is_tensor(1)
        (True, False)
    """
    return isinstance(obj, Tensor)

