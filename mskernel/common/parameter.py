"""Parameter and ParameterTuple (MindSpore's ``mindspore.common.parameter``): trainable tensors.

A Parameter is a Tensor with a ``name`` and a ``requires_grad`` flag. Unnamed Parameters get a
generated name ``Parameter#N``; a Cell renames a generated name to the attribute it is stored
under, and a Cell assigned into another Cell (``auto_prefix=True``) renames every parameter it
holds to its path, ``body.0.weight`` (see :mod:`mskernel.nn.cell`).

Example:
    >>> import mskernel as ms
    >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    >>> p.name, len(ms.ParameterTuple([p]))
    ('w', 1)
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor, _to_array

__all__ = ["Parameter", "ParameterTuple"]

GENERATED_PREFIX = "Parameter#"
_MAX_NAME_LEN = 1024
_param_counter = itertools.count(0)


def is_generated_name(name: str) -> bool:
    """Whether ``name`` is one MindSpore generates for an unnamed Parameter (``Parameter#N``).

    Example:
        >>> is_generated_name("Parameter#3"), is_generated_name("w")
        (True, False)
    """
    return name.startswith(GENERATED_PREFIX)


def check_name_regular(value: Any, pattern: str) -> None:
    """MindSpore's check of a name prefix against ``pattern`` (ValueError with its text).

    Example:
        >>> check_name_regular("a b", r"^\\w+$")
        Traceback (most recent call last):
        ...
        ValueError: The 'a b' is illegal, it must be match regular'^\\w+$' by flags're.ASCII.'
    """
    if re.match(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by flags're.ASCII.'")


def _initial_array(default_input: Any) -> np.ndarray:
    if isinstance(default_input, bool):
        raise ValueError("Parameter data can not be `bool`")
    if isinstance(default_input, Tensor):
        return np.array(default_input._data, copy=True)
    if isinstance(default_input, int):  # a Python int gives Int32, unlike Tensor(1)
        return np.array(default_input, np.int32)
    if isinstance(default_input, (float, np.ndarray, list, tuple, np.generic)):
        return _to_array(default_input, None)
    if isinstance(default_input, str):
        raise TypeError("For 'Tensor', the type of 'input_data' should be one of '['TensorPy', 'Tensor', 'ndarray', "
                        "'str_', 'list', 'tuple', 'float', 'int', 'bool', 'complex', 'bytes']', but got type 'str'.")
    raise TypeError(f"The type of the argument 'default_input' must be in ['Tensor', 'int', 'float', 'numpy.ndarray', "
                    f"'list']. But got type {type(default_input)}.")


class Parameter(Tensor):
    """A trainable tensor: ``Parameter(default_input, name=None, requires_grad=True, layerwise_parallel=False,
    parallel_optimizer=True)``.

    ``default_input`` is a Tensor (copied; an ``initializer(...)`` result too), a Python ``float``
    (Float32), ``int`` (Int32), a list or a numpy array; a ``bool`` is a ValueError. ``name=None``
    or an empty name gives ``Parameter#N``; names are stripped of surrounding spaces.

    Example:
        >>> import mskernel as ms
        >>> p = ms.Parameter(2.0, name="w")
        >>> p
        Parameter (name=w, shape=(), dtype=Float32, requires_grad=True)
        >>> ms.Parameter(1).dtype
        mindspore.int32
    """

    __slots__ = ("_name", "_requires_grad", "__dict__")

    def __init__(self, default_input: Any, name: Optional[str] = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True, storage_format: str = "",
                 device: Optional[str] = None) -> None:
        self._data = _initial_array(default_input)
        self._node = None
        self._idx = 0
        self._version = 0
        self._alias = None
        self._rg = False
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        if device is not None and device not in ("CPU", "Remote"):
            raise ValueError(f"Only 'CPU' and 'Remote' is supported for device, but got ${device}.")
        self.init_mode = None
        self.is_init = False
        self.sliced = False

    # -- name and flags ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The parameter's name (settable; None or ``""`` gives a generated ``Parameter#N``).

        Example:
            >>> p = Parameter(1.0, name="a"); p.name = " b "; p.name
            'b'
        """
        return self._name

    @name.setter
    def name(self, name_: Optional[str]) -> None:
        if name_ is None:
            name_ = f"{GENERATED_PREFIX}{next(_param_counter)}"
        elif isinstance(name_, str):
            name_ = name_.strip()
            if name_ == "":
                name_ = f"{GENERATED_PREFIX}{next(_param_counter)}"
            if len(name_) > _MAX_NAME_LEN:
                raise ValueError(f"The length of the '{name_}' name should be less than {_MAX_NAME_LEN}.")
        else:
            raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(name_)}.")
        self._name = name_

    @property
    def requires_grad(self) -> bool:
        """Whether the parameter wants a gradient (an integer one keeps the flag but gets none).

        Example:
            >>> p = Parameter(1.0, name="a"); p.requires_grad = False; p.requires_grad
            False
        """
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError("The argument `requires_grad` must be bool type")
        self._requires_grad = bool(value)
        # float parameters that want a gradient are tracked leaves; integer ones are never differentiated
        self._rg = bool(value) and mstype.is_float(self.dtype)

    @property
    def inited_param(self) -> None:
        """The initialized copy of a lazily initialized parameter: always None (data is never lazy here)."""
        return None

    @property
    def has_init(self) -> bool:
        """False: a Parameter's data is always materialized."""
        return False

    # -- printing -----------------------------------------------------------------------------------
    def __str__(self) -> str:
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __repr__ = __str__

    # -- data -----------------------------------------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """The value as a plain Tensor sharing memory (MindSpore's ``param.data``).

        Example:
            >>> p = Parameter([1.0, 2.0], name="p")
            >>> type(p.data).__name__, p.data.asnumpy().tolist()
            ('Tensor', [1.0, 2.0])
        """
        return Tensor._wrap(self._data)

    def value(self) -> Tensor:
        """The current value as a plain Tensor sharing memory.

        Example:
            >>> print(Parameter([1.0, 2.0], name="p").value())
            [1. 2.]
        """
        return Tensor._wrap(self._data)

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value: ``data`` is a Tensor, int or float, cast to the parameter's dtype; its shape
        becomes the parameter's shape (as MindSpore does on the CPU). A float into an integer parameter is a
        TypeError; other types are TypeErrors.

        Example:
            >>> import mskernel as ms
            >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
            >>> print(p.set_data(ms.Tensor([3.0, 4.0, 5.0])))
            Parameter (name=p, shape=(3,), dtype=Float32, requires_grad=True)
        """
        if not isinstance(data, (Tensor, int, float)):
            raise TypeError(f"Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like `Tensor`). "
                            f"But with type {type(data)}.")
        if isinstance(data, (int, float)) and not isinstance(data, Tensor):
            if isinstance(data, float) and not mstype.is_float(self.dtype) and self.dtype != mstype.bool_:
                raise TypeError(f"Incoming Parameter dtype can not be converted to current dtype implicitly. "
                                f"Current dtype is {self.dtype}, and incoming is Float. "
                                f"Use .set_dtype(xxx) to change the dtype.")
            arr = np.array(data)
        else:
            arr = data._data
        self._data = np.array(arr, dtype=self._data.dtype, copy=True)
        self._version += 1
        self.sliced = bool(slice_shape)
        return self

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> "Parameter":
        """MindSpore's lazy initialization: the data is already there, so the parameter itself.

        Example:
            >>> p = Parameter(1.0, name="p"); p.init_data() is p
            True
        """
        return self

    def clone(self, init: Any = "same") -> "Parameter":
        """A new Parameter with the same name, shape, dtype and ``requires_grad``; ``init="same"`` copies the
        value, an initializer name (``"zeros"``, ``"normal"``...), a number or a Tensor sets new data.

        Example:
            >>> p = Parameter([1.0, 2.0], name="p")
            >>> q = p.clone(init="ones"); q.name, q.asnumpy().tolist(), q is p
            ('p', [1.0, 1.0], False)
        """
        new = Parameter(Tensor._wrap(self._data), name=self.name, requires_grad=self.requires_grad,
                        layerwise_parallel=self.layerwise_parallel, parallel_optimizer=self.parallel_optimizer)
        if isinstance(init, Tensor):
            new.set_data(init)
        elif not (isinstance(init, str) and init == "same"):
            from mskernel.common.initializer import initializer
            new.set_data(initializer(init, self.shape, self.dtype))
        return new

    def copy(self) -> "Parameter":
        """``clone(init="same")``.

        Example:
            >>> Parameter(1.0, name="p").copy().name
            'p'
        """
        return self.clone(init="same")

    def __deepcopy__(self, memo: dict) -> "Parameter":
        new = self.clone()
        memo[id(self)] = new
        return new

    def __copy__(self) -> "Parameter":
        return self.clone()

    def __reduce__(self):
        return (_rebuild, (np.array(self._data), self.name, self.requires_grad))


def _rebuild(data: np.ndarray, name: str, requires_grad: bool) -> Parameter:
    return Parameter(Tensor._wrap(data), name=name, requires_grad=requires_grad)


class ParameterTuple(tuple):
    """A tuple of Parameters with distinct names (MindSpore's ``ParameterTuple``), accepted as ``weights``.

    Example:
        >>> import mskernel as ms
        >>> pt = ParameterTuple([ms.Parameter(1.0, name="a")])
        >>> [p.name for p in pt.clone("new")]
        ['new.a']
    """

    def __new__(cls, iterable: Any = ()) -> "ParameterTuple":
        items = tuple(iterable)
        ids, names = set(), set()
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"For ParameterTuple initialization, ParameterTuple input should be 'Parameter' "
                                f"collection, but got a {type(iterable)}. ")
            if id(p) not in ids:
                if p.name in names:
                    raise ValueError(f"The value {p} , its name '{p.name}' already exists. "
                                     f"Please set a unique name for the parameter.")
                names.add(p.name)
                ids.add(id(p))
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: Any = "same") -> "ParameterTuple":
        """Each parameter cloned (see :meth:`Parameter.clone`) and renamed ``prefix.name``.

        Example:
            >>> pt = ParameterTuple([Parameter(1.0, name="a")]).clone("m", init="zeros")
            >>> pt[0].name, float(pt[0].asnumpy())
            ('m.a', 0.0)
        """
        check_name_regular(prefix, r"^\w+[0-9a-zA-Z\_\.]*$")
        out = []
        for p in self:
            q = p.clone(init)
            q.name = f"{prefix}.{q.name}"
            out.append(q)
        return ParameterTuple(out)

