"""MindSpore's primitive base classes: ``Primitive`` and ``PrimitiveWithInfer``.

The op table generates one subclass per primitive (:mod:`mskernel.ops.registry`); ``ops.Custom``
derives from ``PrimitiveWithInfer``.

Example:
    >>> p = Primitive("MyOp")
    >>> p.add_prim_attr("k", 3).attrs["k"], p
    (3, Prim[MyOp]<k=3>)
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict

from mskernel.common import jit_scope
from mskernel.ops.init_checks import check_args, install

__all__ = ["Primitive", "PrimitiveWithInfer"]


class Primitive:
    """Base of primitive ops: a name, attributes (``add_prim_attr``) and ``__call__``.

    Example:
        >>> p = Primitive("MyOp")
        >>> p.add_prim_attr("k", 3).attrs["k"]
        3
    """

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):  # MindSpore's C++ constructor takes only a str
            check_args("Primitive", {"name": name})
        self.name = name
        self.attrs: Dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """MindSpore's own primitives (classes defined in mskernel) check their constructor's arguments when built
        (:mod:`mskernel.ops.init_checks`); a subclass made while an op wrapper or infer function is registered
        (``mindspore.graph``) has its ``__call__`` routed through :mod:`mskernel.common.jit_scope` at once (see
        :func:`_route_calls`)."""
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("mskernel."):
            install(cls)
        if jit_scope.REGISTERED[0]:
            _route(cls, True)

    def add_prim_attr(self, name: str, value: Any) -> "Primitive":
        """Set an attribute (MindSpore's ``add_prim_attr``)."""
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        """Remove an attribute."""
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs: Any, outputs: Any) -> None:
        """Record input/output names (kept as attributes, as in MindSpore)."""
        self.attrs["input_names"] = list(inputs)
        self.attrs["output_names"] = list(outputs)

    def __repr__(self) -> str:
        shown = getattr(self, "_shown_attrs", None)  # prim_arg_register shows only the init arguments
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items() if shown is None or k in shown)
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


def _scoped(run: Callable[..., Any]) -> Callable[..., Any]:
    armed = jit_scope.ARMED
    scoped_call = jit_scope.call

    @functools.wraps(run)
    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        if armed[0]:
            return scoped_call(self, run, args, kwargs)
        return run(self, *args, **kwargs)
    __call__.__jit_scoped__ = True  # type: ignore[attr-defined]
    return __call__


def _route(cls: type, on: bool) -> None:
    own = cls.__dict__.get("__call__")
    if own is None:
        return
    scoped = hasattr(own, "__jit_scoped__")
    if on and not scoped:
        cls.__call__ = _scoped(own)  # type: ignore[attr-defined]
    elif not on and scoped:
        cls.__call__ = own.__wrapped__  # type: ignore[attr-defined]


def _route_calls(on: bool) -> None:
    """Route every primitive class's own ``__call__`` through :func:`mskernel.common.jit_scope.call` (``on``:
    an op wrapper or infer function has been registered), or back to itself (the last one was cleared). Routed,
    a call outside ``jit`` costs one flag read and a frame; with nothing registered, nothing at all."""
    todo = [Primitive]
    while todo:
        cls = todo.pop()
        _route(cls, on)
        todo.extend(cls.__subclasses__())


jit_scope.ON_REGISTERED.append(_route_calls)


class PrimitiveWithInfer(Primitive):
    """Primitive with ``infer_shape``/``infer_dtype`` hooks (MindSpore's base of ``Custom``).

    Example:
        >>> import mskernel as ms
        >>> class Twice(PrimitiveWithInfer):
        ...     def __init__(self):
        ...         super().__init__("Twice")
        ...     def infer_shape(self, x_shape):
        ...         return x_shape
        ...     def __call__(self, x):
        ...         return x * 2
        >>> op = Twice()
        >>> op, op.infer_shape([2, 3]), issubclass(ms.ops.Custom, PrimitiveWithInfer)
        (Prim[Twice], [2, 3], True)
        >>> print(op(ms.Tensor([1.0, 2.0])))
        [2. 4.]
    """

