"""``mindspore.ops.composite`` (imported as ``C``): the gradient API, functional transforms,
``MultitypeFuncGraph``, ``HyperMap`` and ``Map``.

``MultitypeFuncGraph`` is a function overloaded on MindSpore type names ("Tensor", "Number",
"Tuple", "Function", "String", ...); ``HyperMap`` applies a function element-wise over equally long
(nested) tuples/lists and ``Map`` over one level of them -- as optimizers use them to update every
parameter.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import composite as C
    >>> print(C.GradOperation()(lambda x: x * x)(ms.Tensor(3.0)))
    6.0
    >>> scale = C.MultitypeFuncGraph("scale")
    >>> @scale.register("Number", "Tensor")
    ... def _scale(k, x):
    ...     return x * k
    >>> C.HyperMap()(scale, (2, 3), (ms.Tensor(1.0), ms.Tensor(1.0)))
    (Tensor(shape=[], dtype=Float32, value= 2), Tensor(shape=[], dtype=Float32, value= 3))
"""
from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from mskernel.autograd.api import GradOperation, grad, value_and_grad
from mskernel.autograd.transforms import jacfwd, jacrev, jvp, vjp
from mskernel.autograd.vmap import vmap
from mskernel.common.tensor import Tensor
from mskernel.dtype import Type
from mskernel.ops.hook_ops import Depend, HookBackward, InsertGradientOf, Partial, depend, partial

__all__ = ["GradOperation", "grad", "value_and_grad", "jvp", "vjp", "jacfwd", "jacrev", "vmap", "MultitypeFuncGraph",
           "HyperMap", "Map", "HookBackward", "InsertGradientOf", "Depend", "depend", "Partial", "partial"]

# type name -> (shown as, predicate); the names MindSpore's register accepts, with its subtype rules
_SCALAR_DTYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float16", "Float32",
                  "Float64", "BFloat16", "Complex64", "Complex128")


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex, np.number, np.bool_)) and not isinstance(x, Tensor)


def _scalar_dtype(x: Any) -> Optional[str]:
    """MindSpore's dtype of a Python/numpy scalar: int -> Int64, float -> Float64."""
    if isinstance(x, (bool, np.bool_)):
        return "Bool"
    if isinstance(x, int):
        return "Int64"
    if isinstance(x, float):
        return "Float64"
    if isinstance(x, np.number):
        return _NP_NAMES.get(x.dtype.name)
    return None


_NP_NAMES = {n.lower(): n for n in _SCALAR_DTYPES}


def _tensor_of(name: str) -> Callable[[Any], bool]:
    want = name[len("Tensor["):-1].lower()
    return lambda x: isinstance(x, Tensor) and str(x.dtype).split(".")[-1].lower() == want


_TYPES = {
    "Tensor": ("mindspore.tensor", lambda x: isinstance(x, Tensor)),
    "Number": ("mindspore.number", _is_number),
    "Bool": ("mindspore.bool", lambda x: isinstance(x, (bool, np.bool_))),
    "Int": ("mindspore.int", lambda x: _is_number(x) and (_scalar_dtype(x) or "").startswith("Int")),
    "UInt": ("mindspore.uint", lambda x: _is_number(x) and (_scalar_dtype(x) or "").startswith("UInt")),
    "Float": ("mindspore.float", lambda x: _is_number(x) and (_scalar_dtype(x) or "").startswith(("Float", "BFloat"))),
    "Complex": ("mindspore.complex", lambda x: _is_number(x) and (_scalar_dtype(x) or "").startswith("Complex")),
    "Tuple": ("mindspore.tuple_", lambda x: isinstance(x, tuple)),
    "List": ("mindspore.list_", lambda x: isinstance(x, list)),
    "String": ("mindspore.string_", lambda x: isinstance(x, str)),
    "None": ("mindspore.type_none", lambda x: x is None),
    "Function": ("mindspore.function", lambda x: callable(x) and not isinstance(x, (Tensor, type))),
    "Dictionary": ("mindspore.Dictionary", lambda x: isinstance(x, dict)),
    "Slice": ("mindspore.Slice", lambda x: isinstance(x, slice)),
    "Ellipsis": ("mindspore.Ellipsis", lambda x: x is Ellipsis),
    "TypeType": ("mindspore.type_type", lambda x: isinstance(x, Type)),
}
_NEVER = ("RowTensor", "COOTensor", "CSRTensor", "MapTensor", "UMonad", "IOMonad", "Problem", "EnvType",
          "Undetermined")


def _signature(t: Any) -> Tuple[str, Callable[[Any], bool]]:
    """(shown as, predicate) for one registered type (a name or a dtype)."""
    if isinstance(t, Type):
        return repr(t), lambda x, t=t: _is_number(x) and _scalar_dtype(x) == _NP_NAMES.get(str(t).split(".")[-1])
    if not isinstance(t, str):
        raise TypeError(f"For 'MultitypeFuncGraph', register only support str or {Type}, but got 'type_input': {t}.")
    if t in _TYPES:
        return _TYPES[t]
    if t in _SCALAR_DTYPES:
        return f"mindspore.{t.lower()}", lambda x: _is_number(x) and _scalar_dtype(x) == t
    if t.startswith("Tensor[") and t.endswith("]"):
        return f"mindspore.tensor[{t[7:-1].lower()}]", _tensor_of(t)
    for seq in ("Tuple", "List"):
        if t.startswith(seq + "[") and t.endswith("]"):
            return _TYPES[seq]
    if t in _NEVER:
        return f"mindspore.{t}", lambda x: False
    raise RuntimeError(f"Unsupported type name: {t}!")


def _shown(x: Any) -> str:
    if isinstance(x, Tensor):
        return f"mindspore.tensor[{str(x.dtype).split('.')[-1].lower()}]"
    d = _scalar_dtype(x) if _is_number(x) else None
    if d is not None:
        return f"mindspore.{d.lower()}"
    for name in ("Tuple", "List", "String", "None", "Function"):
        if _TYPES[name][1](x):
            return _TYPES[name][0]
    return type(x).__name__


class MultitypeFuncGraph:
    """A function overloaded on argument types (MindSpore's ``ops.MultitypeFuncGraph``).

    ``@f.register("Tensor", "Number")`` registers an implementation for those argument types (type
    names: "Tensor", "Tensor[Float32]", "Number", "Int", "Float", "Bool", "Int32", "Tuple", "List",
    "String", "None", "Function", "Dictionary", ...). A call runs the first registration whose
    types match; with a single registration it is called whatever the types. ``read_value`` is
    accepted for compatibility.

    Example:
        >>> import mskernel as ms
        >>> add = MultitypeFuncGraph("add")
        >>> @add.register("Number", "Number")
        ... def _add_numbers(x, y):
        ...     return x + y
        >>> @add.register("Tensor", "Tensor")
        ... def _add_tensors(x, y):
        ...     return ms.ops.add(x, y)
        >>> add(1, 2), add(ms.Tensor([0.5]), ms.Tensor([1.0]))
        (3, Tensor(shape=[1], dtype=Float32, value= [ 1.50000000e+00]))
    """

    def __init__(self, name: str, read_value: bool = False) -> None:
        self.name = name
        self.read_value = read_value
        self.entries: List[Tuple[Tuple[Tuple[str, Callable[[Any], bool]], ...], Callable]] = []

    def register(self, *type_names: Any) -> Callable[[Callable], Callable]:
        """A decorator registering a function for arguments of the given types."""
        def deco(fn: Callable) -> Callable:  # as in MindSpore, the names are checked when decorating
            sigs = tuple(_signature(t) for t in type_names)
            self.entries.append((sigs, fn))
            return fn
        return deco

    def __call__(self, *args: Any) -> Any:
        for a in args:
            if isinstance(a, np.ndarray):
                raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        if len(self.entries) == 1:
            return self.entries[0][1](*args)
        for sigs, fn in self.entries:
            if len(sigs) == len(args) and all(pred(a) for (_, pred), a in zip(sigs, args)):
                return fn(*args)
        got = [(tuple(s for s, _ in sigs), fn) for sigs, fn in self.entries]
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): "
                         f"{_entries_text(got)}, and (dtype, args): ({', '.join(_shown(a) for a in args)}"
                         f"{',' if len(args) == 1 else ''}).")

    def __repr__(self) -> str:
        return f"MultitypeFuncGraph({self.name!r})"


def _entries_text(got: List[Tuple[Tuple[str, ...], Callable]]) -> str:
    parts = []
    for sigs, fn in got:
        inner = ", ".join(sigs) + ("," if len(sigs) == 1 else "")
        parts.append(f"(({inner}), {fn!r})")
    return "[" + ", ".join(parts) + "]"


def _check_map_ops(ops: Any, who: str, error: type) -> None:
    if ops is not None and not isinstance(ops, MultitypeFuncGraph):
        raise error(f"For '{who}', 'ops' must be a MultitypeFuncGraph or None (give a plain function as the first "
                    f"call argument instead), but got {type(ops).__name__}.")


class HyperMap:
    """Apply a function to every element of (nested) tuples/lists (MindSpore's ``ops.HyperMap``).

    ``HyperMap(f)(xs, ys)`` is ``f(xs[i], ys[i])`` for each i, recursing into nested sequences;
    ``HyperMap()(f, xs, ys)`` takes the function as the first argument (any callable). The
    result is a tuple (nested like the inputs); a non-sequence argument is a leaf: ``f`` is called
    on it directly. ``reverse`` is accepted for compatibility (graph mode only in MindSpore).

    Example:
        >>> square = MultitypeFuncGraph("square")
        >>> @square.register("Number")
        ... def _sq(x):
        ...     return x * x
        >>> HyperMap(square)(((1, 2), (3, 4)))
        ((1, 4), (9, 16))
    """

    def __init__(self, ops: Optional[MultitypeFuncGraph] = None, reverse: bool = False) -> None:
        _check_map_ops(ops, "HyperMap", RuntimeError)
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        func, items, again = self.ops, args, self
        if self.ops is None:
            func, items = args[0], args[1:]
            again = functools.partial(self, func)
        if not isinstance(items[0], (tuple, list)):
            return func(*items)
        return tuple(map(again, *items))


class Map:
    """Apply a function to the elements of tuples/lists, one level deep (MindSpore's ``ops.Map``).

    Example:
        >>> Map()(lambda a, b: a + b, (1, 2), (10, 20))
        (11, 22)
    """

    def __init__(self, ops: Optional[MultitypeFuncGraph] = None, reverse: bool = False) -> None:
        _check_map_ops(ops, "Map", TypeError)
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        func, items = self.ops, args
        if self.ops is None:
            func, items = args[0], args[1:]
        return tuple(map(func, *items))
