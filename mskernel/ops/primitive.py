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
import inspect
from typing import Any, Callable, Dict

__all__ = ["Primitive", "PrimitiveWithInfer", "prim_attr_register"]


class Primitive:
    """Base of primitive ops: a name, attributes (``add_prim_attr``) and ``__call__``.

    Example:
        >>> p = Primitive("MyOp")
        >>> p.add_prim_attr("k", 3).attrs["k"]
        3
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.attrs: Dict[str, Any] = {}

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
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


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


def prim_attr_register(fn: Callable) -> Callable:
    """Decorate a primitive's ``__init__``: the primitive is initialised with its class name and each argument
    (defaults included) becomes an attribute (MindSpore's ``ops.prim_attr_register``).

    Example:
        >>> class Scale(Primitive):
        ...     @prim_attr_register
        ...     def __init__(self, factor=2):
        ...         pass
        >>> Scale(3)
        Prim[Scale]<factor=3>
    """
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self, type(self).__name__)
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            setattr(self, name, value)
            self.add_prim_attr(name, value)
        fn(self, *args, **kwargs)
    return init
