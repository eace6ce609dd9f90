"""The graph compiler's own helpers that ``mindspore.ops`` exports: iteration (``iter_converter``,
``ms_hasnext``, ``ms_next``, ``tail``), scalars and arrays (``array_to_scalar``, ``array_reduce``,
``SliceGetItem``), the gradient environment (``environ_create``/``set``/``get``/``add``, ``env_get``, ``embed``,
``ref_to_embed``), function wrappers (``_Grad``, ``_Vmap``, ``add_flags``, ``_add_attr``, ``recompute_block``,
``_ms_pyfunc``), casts for mixed precision (``mixed_precision_cast``, ``_ones_like_for_grad``), the primitive
instances MindSpore exports under lower-case names (``pows``, ``reshape_``, ``tensor_range``) and
``tensor_operator_registry``.

mskernel has no graph compiler: each computes what it computes inside a MindSpore graph (``jit``), where the
wheel's PyNative call of several of them does nothing (returns None) or raises "has no attr:__infer__".

Example:
    >>> from mskernel import ops
    >>> ops.tail((1, 2, 3)), ops.ms_next((1, 2, 3)), ops.ms_hasnext(())
    ((2, 3), (1, (2, 3)), False)
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from mskernel.autograd.api import _grad_wrapper
from mskernel.autograd.vmap import vmap
from mskernel.common.tensor import Tensor
from mskernel.ops.graph_syntax import GraphHelper
from mskernel.ops.operations import Pow, Range, Reshape
from mskernel.ops.primitive import Primitive

__all__ = ["tail", "ms_next", "ms_hasnext", "iter_converter", "array_to_scalar", "array_reduce", "SliceGetItem",
           "environ_create", "environ_set", "environ_get", "environ_add", "env_get", "embed", "ref_to_embed",
           "add_flags", "_add_attr", "_Grad", "_Vmap", "recompute_block", "_ms_pyfunc", "mixed_precision_cast",
           "_ones_like_for_grad", "pows", "reshape_", "tensor_range", "tensor_operator_registry", "Registry"]


def _seq(x: Any, op: str) -> Tuple[Any, ...]:
    if isinstance(x, (tuple, list)):
        return tuple(x)
    if isinstance(x, Tensor):
        return tuple(x[i] for i in range(x.shape[0]))
    if isinstance(x, dict):
        return tuple(x)
    raise TypeError(f"For '{op}', the input must be a tuple, list, dict or Tensor, but got {type(x).__name__}.")


def _tail(x: Any) -> Tuple[Any, ...]:
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"For 'tail', the input must be a tuple or list, but got {type(x).__name__}.")
    return tuple(x[1:])


def _next(it: Any) -> Tuple[Any, Any]:
    items = _seq(it, "next")
    if not items:
        raise IndexError("For 'next', the iterator is exhausted.")
    return items[0], items[1:]


def _array_to_scalar(x: Any) -> Any:
    if not isinstance(x, Tensor) or x.size != 1:
        raise TypeError(f"For 'array_to_scalar', the input must be a Tensor of one element, but got {x!r}.")
    return x.asnumpy().reshape(()).item()


def _array_reduce(fn: Callable[[Any, Any], Any], x: Tensor, axis: Any) -> Tensor:
    """``x`` folded along each axis of ``axis`` with ``fn`` (the axes removed)."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = x
    for ax in sorted((a % x.ndim for a in axes), reverse=True):
        acc = out[(slice(None),) * ax + (0,)]
        for i in range(1, out.shape[ax]):
            acc = fn(acc, out[(slice(None),) * ax + (i,)])
        out = acc
    return out


def _slice_getitem(s: slice, attr: str) -> Any:
    if attr not in ("start", "stop", "step"):
        raise ValueError(f"For 'SliceGetItem', the attribute must be 'start', 'stop' or 'step', but got {attr!r}.")
    return getattr(s, attr)


class Environ(dict):
    """The gradient environment of MindSpore's graphs: key → value, each write giving a new environment.

    Example:
        >>> e = Environ().set("w", 1.0)
        >>> e.get("w", 0.0), e.get("b", 0.0)
        (1.0, 0.0)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def set(self, key: Any, value: Any) -> "Environ":
        """A new environment with ``key`` bound to ``value``."""
        out = Environ(self)
        out[key] = value
        return out


def _environ_set(env: Environ, key: Any, value: Any) -> Environ:
    return env.set(key, value)


def _environ_get(env: Environ, key: Any, default: Any) -> Any:
    return dict.get(env, key, default)


def _environ_add(a: Environ, b: Environ) -> Environ:
    """Both environments' keys; a key in both holds the sum of its values."""
    out = Environ(a)
    for k, v in b.items():
        out[k] = out[k] + v if k in out else v
    return out


def _embed(x: Any) -> int:
    """The environment key of ``x``: the identity of the object (a Parameter, a Tensor)."""
    return id(x)


tail = GraphHelper("tail", _tail, "``ops.tail(seq)``: the elements of a tuple or list after the first, as a tuple.")
ms_next = GraphHelper("next", _next, "``ops.ms_next(it)``: ``(first element, the rest)`` of a sequence.")
ms_hasnext = GraphHelper("has_next", lambda it: len(_seq(it, "has_next")) > 0,
                         "``ops.ms_hasnext(it)``: whether a sequence has an element left.")
iter_converter = GraphHelper("iter_converter", lambda x: _seq(x, "iter_converter"),
                             "``ops.iter_converter(x)``: what a ``for`` loop walks: the elements as a tuple.")
array_to_scalar = GraphHelper("array_to_scalar", _array_to_scalar,
                              "``ops.array_to_scalar(t)``: the Python number a one-element Tensor holds.")
array_reduce = GraphHelper("array_reduce", _array_reduce,
                           "``ops.array_reduce(fn, x, axis)``: ``x`` folded with ``fn`` along ``axis``.")
SliceGetItem = GraphHelper("SliceGetItem", _slice_getitem,
                           "``ops.SliceGetItem(s, 'start')``: the ``start``, ``stop`` or ``step`` of a slice.")
environ_create = GraphHelper("EnvironCreate", lambda: Environ(), "``ops.environ_create()``: an empty environment.")
environ_set = GraphHelper("EnvironSet", _environ_set,
                          "``ops.environ_set(env, key, value)``: a new environment with ``key`` bound.")
environ_get = GraphHelper("EnvironGet", _environ_get,
                          "``ops.environ_get(env, key, default)``: ``key``'s value, or ``default``.")
environ_add = GraphHelper("EnvironAdd", _environ_add,
                          "``ops.environ_add(a, b)``: both environments merged, shared keys summed.")
embed = GraphHelper("embed", _embed, "``ops.embed(x)``: the environment key of ``x``.")
ref_to_embed = GraphHelper("RefToEmbed", _embed, "``ops.ref_to_embed(param)``: the environment key of a Parameter.")


def env_get(env: Environ, parameter: Any) -> Any:
    """``parameter``'s value in ``env``, zeros of its shape when absent (what a gradient of it starts from).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> print(ops.env_get(ops.environ_create(), ms.Tensor([1.0, 2.0])))
        [0. 0.]
    """
    if not isinstance(parameter, Tensor):
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (env, parameter): "
                         f"(EnvType, {type(parameter).__name__})")
    from mskernel.ops.opdef import F
    return _environ_get(env, _embed(parameter), F.zeros_like(parameter))


def add_flags(fn: Optional[Callable] = None, **flags: Any) -> Any:
    """``fn`` with ``flags`` added to its ``_func_graph_flags`` (a decorator when ``fn`` is None).

    Example:
        >>> from mskernel import ops
        >>> def f(x):
        ...     return x
        >>> ops.add_flags(f, defer_inline=True)._func_graph_flags
        {'defer_inline': True}
    """
    def deco(f: Callable) -> Callable:
        old = getattr(f, "_func_graph_flags", {})
        merged = {**old, **flags}
        try:
            f._func_graph_flags = merged
        except AttributeError:
            object.__setattr__(f, "_func_graph_flags", merged)
        return f
    return deco if fn is None else deco(fn)


def _add_attr(fn: Callable, **kwargs: Any) -> Callable:
    """``fn``, as a function whose primitives would carry the attributes ``kwargs`` inside a graph (mskernel's
    ops have no compiled attributes: the values are ``fn``'s).

    Example:
        >>> from mskernel import ops
        >>> ops._add_attr(lambda x: x + 1, cast_type=1)(2)
        3
    """
    if not callable(fn) or isinstance(fn, Primitive):
        raise TypeError(f"the parameter 'fn' must be callable type except Primitive, but got:{type(fn)}")

    @functools.wraps(fn)
    def add_attr_fn(*args: Any) -> Any:
        return fn(*args)
    add_attr_fn.attrs = dict(kwargs)  # type: ignore[attr-defined]
    return add_attr_fn


class _Grad:
    """MindSpore's gradient transform behind ``grad``/``value_and_grad``: ``_Grad(get_all, get_by_list,
    sens_param, get_by_position, has_aux, get_value, return_ids, merge_forward)(fn, weights, grad_position)``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> print(ops._Grad(get_all=True)(lambda x, y: (x * y).sum())(ms.Tensor([2.0]), ms.Tensor([5.0])))
        (Tensor(shape=[1], dtype=Float32, value= [ 5.00000000e+00]), Tensor(shape=[1], dtype=Float32, \
value= [ 2.00000000e+00]))
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False,
                 get_by_position: bool = False, has_aux: bool = False, get_value: bool = False,
                 return_ids: bool = False, merge_forward: bool = False) -> None:
        for name, v in (("get_by_position", get_by_position), ("get_by_list", get_by_list),
                        ("sens_param", sens_param), ("has_aux", has_aux), ("get_value", get_value),
                        ("return_ids", return_ids)):
            if not isinstance(v, bool):
                raise TypeError(f"For '_Grad', the '{name}' should be bool, but got {type(v).__name__}")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.get_by_position, self.has_aux, self.get_value = get_by_position, has_aux, get_value
        self.return_ids, self.merge_forward = return_ids, merge_forward

    def __call__(self, fn: Callable, weights: Any = None, grad_position: Any = 0) -> Callable:
        kind = "value_and_grad" if self.get_value else "grad"
        ws = weights if self.get_by_list or self.get_by_position else None

        def after_grad(*args: Any) -> Any:
            if self.get_by_position and not isinstance(grad_position, tuple):
                raise RuntimeError("Grad position only support tuple when grad_by_position is set True.")
            if self.get_by_position:
                pos = grad_position
            elif self.get_all:
                pos = tuple(range(len(args) - (1 if self.sens_param else 0)))
            else:
                pos = None if self.get_by_list else 0
            return _grad_wrapper(fn, pos, ws, self.has_aux, self.return_ids, self.sens_param, kind)(*args)
        return after_grad


class _Vmap:
    """``_Vmap()(fn, in_axes, out_axes)``: ``fn`` vectorized over the given axes (``ops.vmap``'s engine).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> print(ops._Vmap()(lambda a: a.sum(), 0, 0)(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        [3. 7.]
    """

    def __call__(self, fn: Callable, in_axes: Any = 0, out_axes: Any = 0) -> Callable:
        return vmap(fn, in_axes, out_axes)


def _recompute_block(*args: Any) -> Any:
    """A block marked for recomputation in the backward pass: the same values (mskernel keeps what the
    backward reads), so a function is returned as it is and values pass through."""
    if len(args) == 1:
        return args[0]
    return args


recompute_block = GraphHelper("recompute_block", _recompute_block, _recompute_block.__doc__ or "")


def _ms_pyfunc(infer_func: Callable[..., Any]) -> Callable[[Callable[..., Any]], Primitive]:
    """A decorator turning a Python function into a primitive (``PyCallback_<name>``) that calls it;
    ``infer_func`` (shape and dtype inference for a graph) is kept on it.

    Example:
        >>> from mskernel import ops
        >>> @ops._ms_pyfunc(lambda x: x)
        ... def twice(x: float) -> float:
        ...     return x * 2
        >>> twice(3.0), twice
        (6.0, Prim[PyCallback_twice])
    """
    def decorator(pyfunc_fn: Callable[..., Any]) -> Primitive:
        prim = GraphHelper(f"PyCallback_{pyfunc_fn.__name__}", pyfunc_fn, pyfunc_fn.__doc__ or "")
        prim.infer_func = infer_func  # type: ignore[attr-defined]
        return prim
    return decorator


_FLOATS = ("Float16", "Float32", "Float64", "BFloat16")


def _cast_float(dst: Any, data: Any) -> Any:
    if isinstance(data, Tensor):
        return data.astype(dst) if str(data.dtype) in _FLOATS else data
    if isinstance(data, (tuple, list)):
        return type(data)(_cast_float(dst, d) for d in data)
    if isinstance(data, dict):
        return {k: _cast_float(dst, v) for k, v in data.items()}
    return data


mixed_precision_cast = GraphHelper("MixedPrecisionCast", _cast_float,
                                   "``ops.mixed_precision_cast(dst_dtype, x)``: every floating Tensor in ``x`` (a "
                                   "Tensor or nested tuples, lists, dicts) cast to ``dst_dtype``; the rest as is.")


def _ones_like(x: Any) -> Any:
    if isinstance(x, Tensor):
        return Tensor._wrap(np.ones(x.shape, x.asnumpy().dtype))
    if isinstance(x, (tuple, list)):
        return type(x)(_ones_like(v) for v in x)
    if isinstance(x, dict):
        return {k: _ones_like(v) for k, v in x.items()}
    if isinstance(x, (bool, int, float)):
        return type(x)(1)
    return x


_ones_like_for_grad = GraphHelper("ones_like_for_grad", _ones_like,
                                  "``ops._ones_like_for_grad(x)``: ones of each Tensor's shape and dtype in ``x`` "
                                  "(the sensitivity a gradient starts from).")

#: MindSpore exports these primitive instances under lower-case names
pows = Pow()
reshape_ = Reshape()
tensor_range = Range()


class Registry(dict):
    """Name → function: MindSpore's ``tensor_operator_registry`` through which Tensor's methods find their ops;
    a name not registered resolves to the op table's function of that name.

    Example:
        >>> from mskernel import ops
        >>> ops.tensor_operator_registry.get("abs") is ops.abs
        True
    """

    def register(self, name: str, obj: Any) -> None:
        """Register ``obj`` under ``name``."""
        self[name] = obj

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name in self:
            return self[name]
        from mskernel.ops.registry import FUNCTIONS
        return FUNCTIONS.get(name, default)


tensor_operator_registry = Registry()

#: the examples of the helpers made as objects, run by doctest from here
__test__: Dict[str, str] = {
    "iteration": """
    >>> from mskernel import ops
    >>> ops.iter_converter([1, 2]), ops.ms_hasnext((1,)), ops.ms_next([4, 5])
    ((1, 2), True, (4, (5,)))
    """,
    "scalars": """
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> ops.array_to_scalar(ms.Tensor(2.5)), ops.SliceGetItem(slice(1, 5, 2), 'step')
    (2.5, 2)
    >>> print(ops.array_reduce(ops.add, ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), (0,)))
    [4. 6.]
    """,
    "environment": """
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> w = ms.Tensor([1.0])
    >>> env = ops.environ_set(ops.environ_create(), ops.embed(w), ms.Tensor([2.0]))
    >>> print(ops.environ_get(env, ops.embed(w), ms.Tensor([0.0])), ops.env_get(env, w))
    [2.] [2.]
    """,
    "casts": """
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> a, n, i = ops.mixed_precision_cast(ms.float16, (ms.Tensor([1.0]), 1, ms.Tensor([1])))
    >>> a.dtype, n, i.dtype, ops._ones_like_for_grad((ms.Tensor([3.0]), 2))[1]
    (mindspore.float16, 1, mindspore.int64, 1)
    """,
    "instances": """
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> ops.pows, ops.reshape_, ops.tensor_range, ops.recompute_block(3)
    (Prim[Pow], Prim[Reshape], Prim[Range]<maxlen=1000000>, 3)
    """,
}
