"""``mindspore.graph``'s op wrappers and infer functions: code that replaces, or annotates the outputs of, a
primitive while a ``jit`` function runs.

In MindSpore they act as the graph compiler meets the primitive's node; mskernel runs ``jit`` eagerly, so they
act as the primitive is called inside a ``jit`` function (or a Cell called in GRAPH_MODE), and only there: a
PyNative call, and a functional op or a Tensor operator (``ops.add``, ``x + y``), run as they are. The
registry is :mod:`mskernel.common.jit_scope`.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops, jit
    >>> @register_op_wrapper("Add")
    ... def add_twice_y(x, y):
    ...     return lambda a, b: a + 2 * b
    >>> x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([10.0, 20.0])
    >>> print(jit(lambda a, b: ops.Add()(a, b))(x, y), ops.Add()(x, y))
    [21. 42.] [11. 22.]
    >>> clear_op_wrapper()
"""
from __future__ import annotations

from typing import Any, Callable

from mskernel.common import jit_scope

__all__ = ["register_op_infer", "register_op_wrapper", "clear_op_infer", "clear_op_wrapper"]


def _check_name(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string")


def register_op_infer(op_name: str, infer_name: str) -> Callable[[Callable], Callable]:
    """A decorator registering a function that computes attribute ``infer_name`` of the output of primitive
    ``op_name`` inside ``jit`` functions: it is called with the primitive's arguments, and its result is the
    output's ``infer_name`` for the infer functions and op wrappers of the ops that read that output later in
    the same ``jit`` call. Several infer names may be registered for one op; each once (RuntimeError
    otherwise). MindSpore calls infer functions while it compiles (twice per compilation, once per compiled
    graph); mskernel calls each once per primitive call.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops, nn, jit
        >>> class MyNet(nn.Cell):
        ...     @jit
        ...     def construct(self, x, y):
        ...         return ops.Mul()(ops.Add()(x, y), x)
        >>> @register_op_infer("Add", "layout")
        ... def infer_add_layout(x, y):
        ...     return x.shape + y.shape
        >>> @register_op_infer("Mul", "layout")
        ... def infer_mul_layout(x, y):
        ...     print(x.layout)
        >>> x = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> print(MyNet()(x, x))
        (2, 3, 2, 3)
        [[ 2.  8. 18.]
         [32. 50. 72.]]
        >>> register_op_infer("Add", "layout")(infer_add_layout)
        Traceback (most recent call last):
        ...
        RuntimeError: Registering function: layout for op: Add multiple times.
        >>> clear_op_infer()
    """
    _check_name(op_name, "op_name")
    _check_name(infer_name, "infer_name")

    def decorator(func: Callable) -> Callable:
        jit_scope.register_infer(op_name, infer_name, func)
        return func
    return decorator


def clear_op_infer() -> None:
    """Forget every infer function (:func:`register_op_infer`).

    Example:
        >>> register_op_infer("Neg", "tag")(lambda x: "negated")  # doctest: +ELLIPSIS
        <function <lambda> at ...>
        >>> clear_op_infer()
        >>> register_op_infer("Neg", "tag")(lambda x: "again") is not None
        True
        >>> clear_op_infer()
    """
    jit_scope.clear_infers()


def register_op_wrapper(op_name: str) -> Callable[[Callable], Callable]:
    """A decorator registering a wrapper for primitive ``op_name``: inside ``jit`` functions, a call of the
    primitive calls the wrapper with its arguments, and then the function the wrapper returns in its place
    (gradients flow through that function). One wrapper per op (RuntimeError otherwise); inside the
    function, the op itself runs unwrapped. MindSpore calls the wrapper once per compilation, with abstract
    tensors of the arguments' shapes; mskernel calls it on each call, with the arguments themselves.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops, nn, jit
        >>> @register_op_wrapper("Add")
        ... def double_add_wrapper(x, y):
        ...     def func(x, y):
        ...         return x + 2 * y
        ...     return func
        >>> class MyNet(nn.Cell):
        ...     @jit
        ...     def construct(self, x, y):
        ...         return ops.Add()(x, y)
        >>> print(MyNet()(ms.Tensor([1.0]), ms.Tensor([3.0])))
        [7.]
        >>> register_op_wrapper("Add")(double_add_wrapper)
        Traceback (most recent call last):
        ...
        RuntimeError: Registering op wrapper for op: Add multiple times.
        >>> clear_op_wrapper()
    """
    _check_name(op_name, "op_name")

    def decorator(func: Callable) -> Callable:
        jit_scope.register_wrapper(op_name, func)
        return func
    return decorator


def clear_op_wrapper() -> None:
    """Forget every op wrapper (:func:`register_op_wrapper`).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops, jit
        >>> _ = register_op_wrapper("Sub")(lambda x, y: (lambda a, b: a))
        >>> clear_op_wrapper()
        >>> print(jit(lambda a, b: ops.Sub()(a, b))(ms.Tensor([5.0]), ms.Tensor([1.0])))
        [4.]
    """
    jit_scope.clear_wrappers()
