"""MindSpore's primitive base classes: ``Primitive`` and ``PrimitiveWithInfer``.

The op table generates one subclass per primitive (:mod:`mskernel.ops.registry`); ``ops.Custom``
derives from ``PrimitiveWithInfer``.

Example:
    >>> p = Primitive("MyOp")
    >>> p.add_prim_attr("k", 3).attrs["k"], p
    (3, Prim[MyOp]<k=3>)
"""
from __future__ import annotations

from typing import Any, Dict

from mskernel.ops.init_checks import check_args, install

__all__ = ["Primitive", "PrimitiveWithInfer"]


class Primitive:
    """Base of primitive ops: a name, attributes (``add_prim_attr``) and ``__call__``.

    Example:
        >>> p = Primitive("MyOp")
        >>> p.add_prim_attr("k", 3).attrs["k"]
        3
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("mskernel."):  # MindSpore's own primitives check their arguments when built
            install(cls)

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):  # MindSpore's C++ constructor takes only a str
            check_args("Primitive", {"name": name})
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
        shown = getattr(self, "_shown_attrs", None)  # prim_arg_register shows only the init arguments
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items() if shown is None or k in shown)
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

