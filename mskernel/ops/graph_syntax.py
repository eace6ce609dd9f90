"""MindSpore's graph-syntax helpers: the primitives its graph compiler lowers Python syntax to
(``x[i]`` on a tuple, ``a + b`` on scalars, ``len``, ``in``, ``is``, ...), as plain callables.

MindSpore 2.10 exports them from ``mindspore.ops`` and runs most of them in PyNative mode too; here each is
one row of :data:`HELPERS`: its MindSpore name, the primitive name it prints as (``Prim[TupleGetItem]``) and
what it computes. A few have no PyNative implementation in the wheel (it raises "has no attr:__infer__") and
only work inside a ``jit`` graph; they compute what the graph gives (``bool_and``, ``string_concat``,
``scalar_ne``, ``make_dict``, ``dict_setitem``, ``zip_operation``).

Example:
    >>> from mskernel import ops
    >>> ops.tuple_getitem((1, 2, 3), -1), ops.scalar_add(7, 2.5), ops.make_range(1, 5, 2), ops.tuple_getitem
    (3, 9.5, (1, 3), Prim[TupleGetItem])
"""
from __future__ import annotations

import builtins
import math
import operator
from typing import Any, Callable, Dict, NamedTuple, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.primitive import Primitive
from mskernel.ops.shape import identity


class GraphHelper(Primitive):
    """A graph-syntax helper: a primitive whose call is a plain Python computation.

    Example:
        >>> h = GraphHelper("MyHelper", lambda a: a * 2)
        >>> h(3), h
        (6, Prim[MyHelper])
    """

    def __init__(self, name: str, fn: Callable[..., Any], doc: str = "") -> None:
        super().__init__(name)
        self._fn = fn
        self.__doc__ = doc or fn.__doc__

    def __call__(self, *args: Any) -> Any:
        return self._fn(*args)


class Row(NamedTuple):
    """One helper: MindSpore's name, the primitive name it prints as, the computation, a runnable example."""
    name: str
    prim: str
    fn: Callable[..., Any]
    example: str


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _check_seq(x: Any, kind: type, op: str) -> None:
    if not isinstance(x, kind):
        raise TypeError(f"For '{op}', the input must be a {kind.__name__}, but got {type(x).__name__}.")


def _getitem(op: str) -> Callable[[Sequence[Any], int], Any]:
    def get(seq: Sequence[Any], index: int) -> Any:
        n = len(seq)
        if not -n <= index < n:
            raise IndexError(f"{op} evaluator index should be in range[{-n}, {n}), but got {index}.")
        return seq[index]
    return get


def _setitem(kind: type) -> Callable[[Any, int, Any], Any]:
    def put(seq: Any, index: int, value: Any) -> Any:
        n = len(seq)
        if not -n <= index < n:
            raise IndexError(f"{kind.__name__}_setitem evaluator the index: {index} to set out of range: "
                             f"[{-n},{n - 1}].")
        out = list(seq)
        out[index] = value
        return kind(out)
    return put


def _tuple_div(x: Tuple[int, ...], y: Tuple[int, ...]) -> Tuple[int, ...]:
    if len(x) != len(y):
        raise ValueError(f"The size of inputs of 'tuple_div' operator must be the same, but the size of divisor "
                         f"tuple is {len(y)}, the size of dividend tuple is {len(x)}.")
    out = []
    for a, b in zip(x, y):
        if b == 0 or a % b != 0:
            raise RuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but they are not divisible "
                               f"now, the dividend is {a}, the divisor is {b}.")
        out.append(a // b)
    return tuple(out)


def _divisor(op: Callable[[Any, Any], Any], message: str = "The divisor could not be zero. But the divisor is "
             "zero now.") -> Callable[[Any, Any], Any]:
    def div(x: Any, y: Any) -> Any:
        if not _is_tensor(y) and y == 0:
            raise ValueError(message)
        return op(x, y)
    return div


def _make_range(*args: int) -> Tuple[int, ...]:
    return tuple(builtins.range(*args))


def _reduced_shape(shape: Tuple[int, ...], axis: Any) -> Tuple[int, ...]:
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:  # reducing over every axis
        return (1,) * len(shape)
    axes = tuple(a % len(shape) for a in axes)
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _shape_mul(shape: Tuple[int, ...]) -> int:
    if not isinstance(shape, tuple):
        raise ValueError("For primitive [shape_mul], input must be tuple")
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _broadcast_gradient_args(x: Tuple[int, ...], y: Tuple[int, ...]) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """The axes each input's gradient is summed over after broadcasting (right-aligned shapes)."""
    n = max(len(x), len(y))
    xs, ys = (1,) * (n - len(x)) + tuple(x), (1,) * (n - len(y)) + tuple(y)
    rx, ry = [], []
    for i, (a, b) in enumerate(zip(xs, ys)):
        if a == b:
            if a == 1 and i < n - len(x):
                rx.append(i)
            if b == 1 and i < n - len(y):
                ry.append(i)
            continue
        if a == 1:
            rx.append(i)
        elif b == 1:
            ry.append(i)
        else:
            raise ValueError(f"For 'BroadcastGradientArgs', the shapes {tuple(x)} and {tuple(y)} cannot broadcast.")
    return tuple(rx), tuple(ry)


def _is_element_unknown(seq: Any) -> bool:
    raise TypeError("The input of IsElementUnknown should be variable length sequence.")


def _scalar_type(x: Any) -> str:
    return {bool: "Bool", int: "Int64", float: "Float32", str: "String"}.get(type(x), type(x).__name__)


def _tensor_bool_cond(x: Any) -> bool:
    if not isinstance(x, Tensor):
        raise TypeError(f"The input of IsTensorBoolCond should be a tensor but got {type(x).__name__}.")
    if x.shape not in ((), (1,)):
        raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape is "
                         f"({', '.join(map(str, x.shape))})")
    return True


def _seq_type(x: Any) -> str:
    if isinstance(x, (list, tuple)):
        inner = {type(v) for v in x}
        item = _scalar_type(x[0]).replace("Int64", "int").replace("Float32", "float") if len(inner) == 1 else "Any"
        return f"{'List' if isinstance(x, list) else 'Tuple'}<{item}>"
    return type(x).__name__


def _hastype(x: Any, of: Any) -> bool:
    from mskernel import dtype as mstype
    from mskernel.common.obj_dtype import get_py_obj_dtype
    got = get_py_obj_dtype(x)
    if of is mstype.tensor_type:
        return isinstance(got, mstype.TensorType)
    if of is mstype.number:
        return isinstance(got, mstype.Type)
    return bool(got == of)


def _typeof(x: Any) -> Any:
    from mskernel.common.obj_dtype import get_py_obj_dtype
    return get_py_obj_dtype(x)


def _switch(cond: Any, true_branch: Any, false_branch: Any) -> Any:
    return true_branch if bool(cond) else false_branch


def _switch_layer(index: Any, branches: Sequence[Any]) -> Any:
    if not isinstance(index, Tensor):
        raise TypeError(f"For 'switch_layer', input[0] should be Tensor, but got {_scalar_type(index)}.")
    return branches[int(index.asnumpy().reshape(()))]


def _hyper_add(x: Any, y: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return type(x)(_hyper_add(a, b) for a, b in zip(x, y))
    if isinstance(x, Tensor) != isinstance(y, Tensor):  # MindSpore's add is defined for two Tensors or two numbers
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): the "
                         f"signatures of hyper_add, and (x, y): ({_scalar_type(x)}, {_scalar_type(y)})")
    return x + y


def _bool_not(x: Any) -> Tensor:
    return Tensor(not x)


def _zip(*seqs: Sequence[Any]) -> Tuple[Tuple[Any, ...], ...]:
    return tuple(zip(*seqs))


#: every graph-syntax helper of ``mindspore.ops`` mskernel runs
HELPERS: Tuple[Row, ...] = (
    Row("augassign_add", "augassign_add", operator.add, "ops.augassign_add(1, 2)  # 3"),
    Row("augassign_sub", "augassign_sub", operator.sub, "ops.augassign_sub(5, 2)  # 3"),
    Row("augassign_mul", "augassign_mul", operator.mul, "ops.augassign_mul(5, 2)  # 10"),
    Row("augassign_div", "augassign_div", operator.truediv, "ops.augassign_div(5, 2)  # 2.5"),
    Row("augassign_floordiv", "augassign_floordiv", operator.floordiv, "ops.augassign_floordiv(5, 2)  # 2"),
    Row("augassign_mod", "augassign_mod", operator.mod, "ops.augassign_mod(5, 2)  # 1"),
    Row("bool_and", "bool_and", lambda a, b: a and b, "ops.bool_and(True, False)  # False"),
    Row("bool_or", "bool_or", lambda a, b: a or b, "ops.bool_or(True, False)  # True"),
    Row("bool_eq", "bool_eq", operator.eq, "ops.bool_eq(True, True)  # True"),
    Row("bool_not", "BoolNot", _bool_not, "ops.bool_not(True)  # a bool Tensor: False"),
    Row("tuple_getitem", "TupleGetItem", _getitem("TupleGetItem"), "ops.tuple_getitem((1, 2, 3), 1)  # 2"),
    Row("list_getitem", "list_getitem", _getitem("list_getitem"), "ops.list_getitem([1, 2, 3], 1)  # 2"),
    Row("tuple_setitem", "tuple_setitem", _setitem(tuple), "ops.tuple_setitem((1, 2, 3), 1, 9)  # (1, 9, 3)"),
    Row("list_setitem", "list_setitem", _setitem(list), "ops.list_setitem([1, 2, 3], 1, 9)  # [1, 9, 3]"),
    Row("tuple_len", "sequence_len", len, "ops.tuple_len((1, 2, 3))  # 3"),
    Row("list_len", "sequence_len", len, "ops.list_len([1, 2])  # 2"),
    Row("tuple_equal", "tuple_equal", operator.eq, "ops.tuple_equal((1, 2), (1, 2))  # True"),
    Row("list_equal", "list_equal", operator.eq, "ops.list_equal([1, 2], [1, 3])  # False"),
    Row("tuple_div", "tuple_div", _tuple_div, "ops.tuple_div((4, 6), (2, 3))  # (2, 2)"),
    Row("tuple_reversed", "tuple_reversed", lambda t: tuple(reversed(t)),
        "ops.tuple_reversed((1, 2, 3))  # (3, 2, 1)"),
    Row("dict_getitem", "dict_getitem", operator.getitem, "ops.dict_getitem({'a': 1}, 'a')  # 1"),
    Row("dict_setitem", "dict_setitem", lambda d, k, v: {**d, k: v},
        "ops.dict_setitem({'a': 1}, 'b', 2)  # a new dict"),
    Row("make_tuple", "MakeTuple", lambda *a: tuple(a), "ops.make_tuple(1, 2)  # (1, 2)"),
    Row("make_list", "make_list", lambda *a: list(a), "ops.make_list(1, 2)  # [1, 2]"),
    Row("make_dict", "make_dict", lambda k, v: dict(zip(k, v)),
        "ops.make_dict(('a', 'b'), (1, 2))  # {'a': 1, 'b': 2}"),
    Row("make_slice", "make_slice", slice, "ops.make_slice(1, 5, 2)  # slice(1, 5, 2)"),
    Row("make_range", "make_range", _make_range, "ops.make_range(1, 5, 2)  # (1, 3)"),
    Row("in_dict", "in_dict", lambda k, d: k in d, "ops.in_dict('a', {'a': 1})  # True"),
    Row("not_in_dict", "not_in_dict", lambda k, d: k not in d, "ops.not_in_dict('a', {'a': 1})  # False"),
    Row("is_", "is_", operator.is_, "ops.is_(None, None)  # True"),
    Row("is_not", "is_not", operator.is_not, "ops.is_not(1, None)  # True"),
    Row("string_concat", "string_concat", operator.add, "ops.string_concat('a', 'b')  # 'ab'"),
    Row("string_eq", "string_eq", operator.eq, "ops.string_eq('a', 'b')  # False"),
    Row("scalar_ne", "scalar_ne", operator.ne, "ops.scalar_ne(1, 2)  # True"),
    Row("reduced_shape", "reduced_shape", _reduced_shape, "ops.reduced_shape((2, 3), (1,))  # (2, 1)"),
    Row("is_sequence_shape_unknown", "IsDimUnKnown", lambda s: False, "ops.is_sequence_shape_unknown((1, 2))"),
    Row("is_sequence_value_unknown", "IsShapeUnKnown", lambda s: False, "ops.is_sequence_value_unknown((1, 2))"),
    Row("is_dynamic_sequence_element_unknown", "IsElementUnknown", _is_element_unknown,
        "ops.is_dynamic_sequence_element_unknown  # a constant tuple raises TypeError"),
    Row("is_tensor_bool_cond", "IsTensorBoolCond", _tensor_bool_cond, "ops.is_tensor_bool_cond(Tensor([True]))"),
    Row("switch", "Switch", _switch, "ops.switch(True, 1, 2)  # 1"),
    Row("switch_layer", "switch_layer", _switch_layer, "ops.switch_layer(Tensor(1, ms.int32), (f, g))  # g"),
    Row("hyper_add", "hyper_add", _hyper_add, "ops.hyper_add((a, b), (c, d))  # (a + c, b + d)"),
    Row("broadcast_gradient_args", "BroadcastGradientArgs", _broadcast_gradient_args,
        "ops.broadcast_gradient_args((2, 3), (3,))  # ((), (0,))"),
    Row("zip_operation", "zip_operation", _zip, "ops.zip_operation((1, 2), (3, 4))  # ((1, 3), (2, 4))"),
    Row("typeof", "typeof", _typeof, "ops.typeof(Tensor([1.0]))  # mindspore.tensor[float32]"),
    Row("hastype", "hastype", _hastype, "ops.hastype(Tensor([1.0]), ms.float32)  # False: it is a tensor type"),
    Row("J", "J", lambda fn: fn, "ops.J  # the forward-mode marker of MindSpore's graph autodiff"),
)


def _scalar_helpers() -> Dict[str, Callable[..., Any]]:
    """The scalar primitives (``ops.scalar_add`` is an instance of ``ScalarAdd``): Python's arithmetic."""
    return {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": _divisor(operator.truediv),
            "floordiv": _divisor(operator.floordiv),
            "mod": _divisor(operator.mod, "Cannot perform modulo operation on zero."),
            "pow": operator.pow,
            "eq": operator.eq, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
            "max": max, "min": min, "log": math.log, "uadd": operator.pos, "usub": operator.neg}


SCALAR = _scalar_helpers()


def _make_scalar_class(suffix: str, fn: Callable[..., Any]) -> type:
    cls_name = "Scalar" + "".join(p.capitalize() for p in suffix.split("_")).replace("Floordiv", "FloorDiv")

    def __init__(self: GraphHelper) -> None:
        GraphHelper.__init__(self, cls_name, fn, type(self).__doc__)

    doc = (f"``{cls_name}()(x{', y' if fn not in (math.log, operator.pos, operator.neg) else ''})``: Python's "
           f"``{suffix}`` on scalars (``ops.scalar_{suffix}`` is an instance).\n\n    Example:\n"
           f"        >>> from mskernel import ops\n        >>> type(ops.scalar_{suffix}).__name__\n"
           f"        '{cls_name}'\n")
    return type(cls_name, (GraphHelper,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


SCALAR_CLASSES: Dict[str, type] = {s: _make_scalar_class(s, fn) for s, fn in SCALAR.items()}


def _doc(row: Row) -> str:
    return (f"MindSpore's ``{row.name}`` graph-syntax helper (prints as ``Prim[{row.prim}]``).\n\n"
            f"    Example:\n        >>> from mskernel import ops\n        >>> ops.{row.name}  # {row.example}\n"
            f"        Prim[{row.prim}]\n")


def shape_(x: Tensor) -> Tuple[int, ...]:
    """The shape of a Tensor as a tuple (MindSpore's ``ops.shape_``, a ``Shape`` instance).

    Example:
        >>> import mskernel as ms
        >>> shape_(ms.Tensor([[1.0, 2.0]]))
        (1, 2)
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"For primitive[Shape], the input argument must be Tensor, but got {type(x)}.")
    return x.shape


def dyn_shape(input_x: Tensor) -> Tensor:
    """The shape of a Tensor as an int64 Tensor.

    Example:
        >>> import mskernel as ms
        >>> print(dyn_shape(ms.Tensor([[1.0, 2.0]])))
        [1 2]
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f'Failed calling TensorShape with "TensorShape()(input_x={type(input_x).__name__})".')
    return Tensor(np.array(input_x.shape, np.int64))


def shape_mul(input_data: Tuple[int, ...]) -> int:
    """The product of a shape tuple's entries (1 for ``()``).

    Example:
        >>> shape_mul((2, 3))
        6
    """
    return _shape_mul(input_data)


def is_nonzero(input: Tensor) -> bool:  # noqa: A002 (MindSpore's argument name)
    """Whether a one-element Tensor is not zero.

    Example:
        >>> import mskernel as ms
        >>> is_nonzero(ms.Tensor([1.0])), is_nonzero(ms.Tensor(0))
        (True, False)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For is_nonzero, the input must be a Tensor, but got {type(input)}.")
    if input.size != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got {input.size}.")
    return bool(input.asnumpy().reshape(()))


def isconstant(x: Any) -> bool:
    """Whether ``x`` is a constant of the graph; in PyNative mode every value is (MindSpore gives True).

    Example:
        >>> isconstant(1)
        True
    """
    return True


def deepcopy(input_x: Tensor) -> Tensor:
    """A copy of ``input_x`` that shares no memory with it (MindSpore's Identity: the gradient passes through).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); y = deepcopy(x); y[0] = 5.0; print(x, y)
        [1. 2.] [5. 2.]
    """
    if not isinstance(input_x, Tensor):
        raise TypeError(f'Failed calling Identity with "Identity()(input_x={_seq_type(input_x)})".')
    return identity(input_x, copy=True)


def stop_gradient_(input: Tensor) -> None:  # noqa: A002
    """Stop gradients through ``input`` in place (MindSpore returns None).

    Example:
        >>> import mskernel as ms
        >>> stop_gradient_(ms.Tensor([1.0])) is None
        True
    """
    return None


def eps(x: Tensor) -> Tensor:
    """A Tensor like ``x`` filled with its float dtype's machine epsilon.

    Example:
        >>> import mskernel as ms
        >>> print(eps(ms.Tensor([1.0, 2.0])))
        [1.1920929e-07 1.1920929e-07]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"For Primitive[Eps], the type of input argument[x] must be Tensor but got "
                        f"{_scalar_type(x)}.")
    if x.dtype.np.kind != "f":
        raise TypeError(f"For primitive[Eps], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x.dtype}].")
    return Tensor(np.full(x.shape, np.finfo(x.dtype.np).eps, x.dtype.np))


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:  # noqa: A001 (MindSpore's name)
    """``[start, end)`` by ``step`` as a 1-D Tensor: int64 for int arguments, float32 otherwise.

    Example:
        >>> print(range(0, 5, 2), range(0.0, 1.0, 0.25))
        [0 2 4] [0.   0.25 0.5  0.75]
    """
    vals = [v.asnumpy().item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    kinds = ["Int64" if isinstance(v, int) and not isinstance(v, bool) else "Float32" if isinstance(v, float)
             else type(v).__name__ for v in vals]
    if len(set(kinds)) != 1 or kinds[0] not in ("Int64", "Float32"):
        raise TypeError(f"For Range, the dtypes of inputs must be the same, but got ({', '.join(kinds)}).")
    lo, hi, delta = vals
    if delta == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if delta > 0 and hi < lo:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    if delta < 0 and hi > lo:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    out = np.arange(lo, hi, delta).astype(np.int64 if kinds[0] == "Int64" else np.float32)
    if out.size > maxlen:
        raise ValueError(f"For Range, the number of elements {out.size} exceeds 'maxlen' {maxlen}.")
    return Tensor(out)


def _build() -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for row in HELPERS:
        out[row.name] = GraphHelper(row.prim, row.fn, _doc(row))
    for suffix, cls in SCALAR_CLASSES.items():
        out[f"scalar_{suffix}"] = cls()
    return out


NAMES: Dict[str, Any] = _build()

__all__ = sorted(NAMES) + ["shape_", "dyn_shape", "shape_mul", "is_nonzero", "isconstant", "deepcopy",
                           "stop_gradient_", "eps", "range", "GraphHelper"]
globals().update(NAMES)

#: the helpers' examples, run by doctest from here
__test__ = {**{row.name: NAMES[row.name].__doc__ for row in HELPERS},
            **{cls.__name__: cls for cls in SCALAR_CLASSES.values()}}
