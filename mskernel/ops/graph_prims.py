"""MindSpore's primitive-definition helpers (``prim_attr_register``, ``prim_arg_register``, ``constexpr``,
``PrimitiveWithCheck``) and the small primitives built on them that run in PyNative mode: the control-flow
loops (``ForiLoop``, ``WhileLoop``, ``Scan``), ``Eps``, ``IdentityN``, ``CheckNumerics``, ``TensorToTuple``,
``Assert``, ``Morph``, and ``linearize``.

Example:
    >>> from mskernel import ops
    >>> ops.ForiLoop()(0, 4, lambda i, r: i + r, 0), ops.WhileLoop()(lambda x: x < 100, lambda x: x + 1, 10)
    (6, 100)
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F
from mskernel.ops.primitive import Primitive, PrimitiveWithInfer

__all__ = ["PrimitiveWithCheck", "prim_attr_register", "prim_arg_register", "constexpr", "ForiLoop", "WhileLoop",
           "Scan", "Eps", "IdentityN", "CheckNumerics", "TensorToTuple", "Assert", "Morph", "linearize"]


class PrimitiveWithCheck(Primitive):
    """Primitive with ``check_shape``/``check_dtype`` hooks.

    Example:
        >>> class Flatten(PrimitiveWithCheck):
        ...     @prim_attr_register
        ...     def __init__(self):
        ...         pass
        >>> Flatten()
        Prim[Flatten]
    """

    def check_shape(self, *args: Any) -> None:
        """Check the input shapes (nothing by default)."""

    def check_dtype(self, *args: Any) -> None:
        """Check the input dtypes (nothing by default)."""


def _bound(fn: Callable[..., Any], self: Any, args: Any, kwargs: Any) -> List[Tuple[str, Any]]:
    sig = inspect.signature(fn).bind(self, *args, **kwargs)
    sig.apply_defaults()
    return [(k, v) for k, v in list(sig.arguments.items())[1:]]


def _init_name(self: Primitive) -> None:
    if not hasattr(self, "attrs"):
        Primitive.__init__(self, type(self).__name__)


def prim_attr_register(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a primitive's ``__init__``: its arguments (defaults included) become the primitive's
    attributes, readable as ``p.attrs[name]`` and ``p.name``.

    Example:
        >>> class Add(Primitive):
        ...     @prim_attr_register
        ...     def __init__(self, attr1, attr2=5):
        ...         pass
        >>> Add(attr1=1), Add(1).attr2
        (Prim[Add]<attr1=1, attr2=5>, 5)
    """
    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        _init_name(self)
        for k, v in _bound(fn, self, args, kwargs):
            self.add_prim_attr(k, v)
            setattr(self, k, v)
        fn(self, *args, **kwargs)
    return init


def prim_arg_register(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a primitive's ``__init__`` recording its arguments (MindSpore keeps them as the
    primitive's init arguments, and only they show in its repr).

    Example:
        >>> class MatMul(PrimitiveWithCheck):
        ...     @prim_arg_register
        ...     def __init__(self, transpose_a=False, transpose_b=False):
        ...         self.init_prim_io_names(inputs=['x1', 'x2'], outputs=['output'])
        >>> MatMul(True)
        Prim[MatMul]<transpose_a=True, transpose_b=False>
    """
    registered = prim_attr_register(fn)

    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        registered(self, *args, **kwargs)
        self._shown_attrs = [k for k, _ in _bound(fn, self, args, kwargs)]
    return init


def constexpr(fn: Optional[Callable[..., Any]] = None, get_instance: bool = True, name: Optional[str] = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """Make ``fn`` a primitive evaluated on constants (at compile time in MindSpore's graphs; called directly
    in PyNative mode). With ``get_instance=False`` the primitive class is returned instead of an instance.

    Example:
        >>> @constexpr
        ... def twice(x):
        ...     return x * 2
        >>> twice, twice(3)
        (Prim[twice]<constexpr_prim=True>, 6)
    """
    def decorator(func: Callable[..., Any]) -> Any:
        op_name = name or func.__name__

        class ProxyOp(PrimitiveWithInfer):
            """A constant-evaluating primitive made by ``constexpr``."""

            def __init__(self) -> None:
                super().__init__(op_name)
                self.add_prim_attr("constexpr_prim", True)
                self.fn = func

            def __call__(self, *args: Any) -> Any:
                return func(*args)
        return ProxyOp() if get_instance else ProxyOp
    return decorator(fn) if fn is not None else decorator


class _Prim(Primitive):
    def __init__(self) -> None:
        super().__init__(type(self).__name__)


def _loop_bound(value: Any, arg: str) -> int:
    if isinstance(value, Tensor):
        return int(value.asnumpy().reshape(()))
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For 'ForiLoop', the type of '{arg}' should be one of '['int', 'Tensor']', but got type "
                        f"'{type(value).__name__}'.")
    return value


class ForiLoop(_Prim):
    """``ForiLoop()(lower, upper, body_fun, init_val, unroll=True)``: ``val = body_fun(i, val)`` for ``i`` in
    ``range(lower, upper)``.

    Example:
        >>> ForiLoop()(0, 4, lambda i, r: i + r, 0)
        6
    """

    def __call__(self, lower: Any, upper: Any, body_fun: Callable[[int, Any], Any], init_val: Any,
                 unroll: bool = True) -> Any:
        val = init_val
        for i in range(_loop_bound(lower, "lower"), _loop_bound(upper, "upper")):
            val = body_fun(i, val)
        return val


class WhileLoop(_Prim):
    """``WhileLoop()(cond_func, loop_func, init_val)``: apply ``loop_func`` while ``cond_func`` holds.

    Example:
        >>> WhileLoop()(lambda x: x < 100, lambda x: x + 1, 10)
        100
    """

    def __call__(self, cond_func: Callable[[Any], Any], loop_func: Callable[[Any], Any], init_val: Any) -> Any:
        val = init_val
        while cond_func(val):
            val = loop_func(val)
        return val


class Scan(_Prim):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)``: carry ``init`` through ``loop_func(carry, x)``
    for each ``x`` of ``xs``, collecting its second output; gives ``(carry, [ys])``.

    Example:
        >>> Scan()(lambda r, e: (r + e, r + e), 0, [1, 2, 3, 4])
        (10, [1, 3, 6, 10])
    """

    def __call__(self, loop_func: Callable[[Any, Any], Tuple[Any, Any]], init: Any, xs: Sequence[Any],
                 length: Optional[int] = None, unroll: bool = True) -> Tuple[Any, List[Any]]:
        carry, ys = init, []
        for x in xs:
            carry, y = loop_func(carry, x)
            ys.append(y)
        return carry, ys


def _float_tensor(x: Any, prim: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For Primitive[{prim}], the type of input argument[x] must be Tensor but got "
                        f"{type(x).__name__}.")
    if x.dtype.np.kind != "f":
        raise TypeError(f"For primitive[{prim}], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x.dtype}].")
    return x


class Eps(_Prim):
    """A Tensor like ``x`` filled with its float dtype's machine epsilon (``ops.eps`` as a primitive).

    Example:
        >>> import mskernel as ms
        >>> print(Eps()(ms.Tensor([4.0, 1.0], ms.float16)))
        [0.000977 0.000977]
    """

    def __call__(self, x: Tensor) -> Tensor:
        from mskernel.ops.graph_syntax import eps
        return eps(x)


class CheckNumerics(_Prim):
    """``x`` itself when it has no NaN or Inf; otherwise a RuntimeError.

    Example:
        >>> import mskernel as ms
        >>> print(CheckNumerics()(ms.Tensor([1.0, 3.0])))
        [1. 3.]
    """

    def __call__(self, x: Tensor) -> Tensor:
        arr = _float_tensor(x, "CheckNumerics").asnumpy()
        if np.isnan(arr).any():
            raise RuntimeError(": Tensor had NaN values")
        if np.isinf(arr).any():
            raise RuntimeError(": Tensor had Inf values")
        return Tensor(arr.copy())


class IdentityN(_Prim):
    """The tensors of a list or tuple, unchanged, as a tuple.

    Example:
        >>> import mskernel as ms
        >>> IdentityN()([ms.Tensor([1]), ms.Tensor([2.0])])
        (Tensor(shape=[1], dtype=Int64, value= [1]), Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))
        >>> print(ms.grad(lambda a: (IdentityN()([a])[0] * a).sum())(ms.Tensor([3.0])))
        [6.]
    """

    def __call__(self, x: Sequence[Tensor]) -> Tuple[Tensor, ...]:
        if not isinstance(x, (list, tuple)) or not all(isinstance(t, Tensor) for t in x):
            got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
            raise TypeError(f"For [IdentityN] should have ListTensor or TupleTensor input but get {got}")
        return tuple(F.identity(t) for t in x)  # copies that the gradient flows through, as MindSpore's


class TensorToTuple(_Prim):
    """A 1-D Tensor's elements as a tuple of Python scalars.

    Example:
        >>> import mskernel as ms
        >>> TensorToTuple()(ms.Tensor([1, 2]))
        (1, 2)
    """

    def __call__(self, input_x: Tensor) -> Any:
        if not isinstance(input_x, Tensor):
            return None  # MindSpore 2.10 gives None for a non-Tensor input
        return tuple(input_x.asnumpy().reshape(-1).tolist())


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: raise when ``condition`` is False, printing the
    first ``summarize`` values of each input.

    Example:
        >>> Assert(summarize=2)
        Prim[Assert]<summarize=2, side_effect_io=True>
    """

    def __init__(self, summarize: int = 3) -> None:
        super().__init__("Assert")
        if isinstance(summarize, bool) or not isinstance(summarize, int):
            raise TypeError(f"For 'Assert', the type of 'summarize' should be int, but got "
                            f"{type(summarize).__name__}.")
        self.summarize = summarize
        self.add_prim_attr("summarize", summarize)
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, condition: Any, input_data: Sequence[Tensor]) -> None:
        cond = condition.asnumpy().all() if isinstance(condition, Tensor) else bool(condition)
        if not cond:
            lines = ["For 'Assert' condition is false."]
            for t in input_data:
                arr = t.asnumpy() if isinstance(t, Tensor) else np.asarray(t)
                lines.append(f"input data: {arr.reshape(-1)[:self.summarize]}")
            raise RuntimeError("assert failed\n" + "\n".join(lines))


class Morph(Primitive):
    """``Morph(fn, infer_shape, infer_dtype, bprop_fn=None)``: a primitive that runs a Python function; in
    GRAPH_MODE it calls ``fn`` (differentiated through the ops it uses, or by ``bprop_fn``); in PyNative mode
    it raises, as MindSpore's does.

    Example:
        >>> import mskernel as ms
        >>> op = Morph(lambda x: x * 100, lambda s: s, lambda t: t)
        >>> ms.set_context(mode=ms.GRAPH_MODE)
        >>> print(op(ms.Tensor([1.0, 2.0])))
        [100. 200.]
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
    """

    def __init__(self, fn: Callable[..., Any], infer_shape: Callable[..., Any], infer_dtype: Callable[..., Any],
                 bprop_fn: Optional[Callable[..., Any]] = None) -> None:
        super().__init__("Morph")  # MindSpore builds it with any arguments: they are checked when it is called
        self.__fn = fn
        self.__bprop = bprop_fn
        self.infer_shape = infer_shape
        self.infer_dtype = infer_dtype

    def __call__(self, *args: Any) -> Any:
        from mskernel.context import GRAPH_MODE, get_context
        if get_context("mode") != GRAPH_MODE:
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        if not callable(self.__fn) or not callable(self.infer_shape) or not callable(self.infer_dtype):
            raise TypeError("For 'Morph', 'fn', 'infer_shape' and 'infer_dtype' must be callable.")
        if self.__bprop is None:
            return self.__fn(*args)
        from mskernel.autograd.function import _Function
        fn, bprop = self.__fn, self.__bprop

        class _MorphFunction(_Function):
            @staticmethod
            def forward(ctx: Any, *xs: Any) -> Any:
                ctx.xs = xs
                ctx.out = fn(*xs)
                return ctx.out

            @staticmethod
            def backward(ctx: Any, dout: Any) -> Any:
                grads = bprop(*ctx.xs, ctx.out, dout)
                return grads[0] if len(ctx.xs) == 1 else tuple(grads)
        return _MorphFunction.apply(*args)


def linearize(fn: Callable[..., Any], inputs: Any) -> Tuple[Any, Callable[[Any], Any]]:
    """``fn(*inputs)`` and its Jacobian-vector product at ``inputs`` as a function of the tangents.

    Example:
        >>> import mskernel as ms
        >>> out, jvp_fn = linearize(lambda x: x * x, ms.Tensor([1.0, 2.0]))
        >>> print(out, jvp_fn(ms.Tensor([1.0, 1.0])))
        [1. 4.] [2. 4.]
    """
    from mskernel.ops.composite import jvp
    primals = inputs if isinstance(inputs, tuple) else (inputs,)
    output = fn(*primals)

    def jvp_fn(v: Any) -> Any:
        tangents = v if isinstance(v, tuple) else (v,)
        return jvp(fn, primals, tangents)[1]
    return output, jvp_fn
