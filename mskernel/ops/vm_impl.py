"""MindSpore's registry of Python implementations of primitives (what its debugging VM runs for a primitive):
``vm_impl_registry.register(name)`` decorates a function that, given the primitive, returns the implementation,
and ``get_vm_impl_fn(prim)`` looks it up.

Example:
    >>> @vm_impl_registry.register("Double")
    ... def vm_impl_double(self):
    ...     return lambda x: 2 * x
    >>> get_vm_impl_fn("Double")(21)
    42
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

__all__ = ["Registry", "vm_impl_registry", "get_vm_impl_fn"]


class Registry:
    """Name -> the function that makes a primitive's Python implementation.

    Example:
        >>> r = Registry()
        >>> neg = r.register("Neg")(lambda prim: lambda x: -x)
        >>> r.get("Neg") is neg
        True
    """

    def __init__(self) -> None:
        self._table: Dict[str, Callable[..., Any]] = {}

    def register(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register ``fn`` under ``name``."""
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._table[name] = fn
            return fn
        return deco

    def get(self, name: str) -> Optional[Callable[..., Any]]:
        """The function registered under ``name``, or None."""
        return self._table.get(name)


#: the registry MindSpore's ``ops.vm_impl_registry`` is
vm_impl_registry = Registry()


def get_vm_impl_fn(prim: Any) -> Optional[Callable[..., Any]]:
    """The Python implementation registered for ``prim`` (a primitive or its name), made for it; None when none is
    registered.

    Example:
        >>> get_vm_impl_fn("NoSuchPrimitive") is None
        True
    """
    name = prim if isinstance(prim, str) else getattr(prim, "name", type(prim).__name__)
    make = vm_impl_registry.get(name)
    return None if make is None else make(prim)
