"""MindSpore's settings and decorators for its graph compiler, kept as one eager process keeps them.

mskernel has no graph compiler: code written for ``GRAPH_MODE`` runs eagerly (:mod:`mskernel.context`). The
decorators that steer the compiler (``jit_class``, ``lazy_inline``, ``no_inline``) therefore return what they
decorate, marked as MindSpore marks it; ``set_recursion_limit`` and ``set_deterministic`` check and keep their
value; ``COMPATIBLE``, ``STRICT`` and ``LAX`` are the ``jit_syntax_level`` constants.

Example:
    >>> import mskernel as ms
    >>> @ms.jit_class
    ... class Scale:
    ...     def __init__(self):
    ...         self.k = 10
    >>> Scale().k, ms.STRICT, ms.COMPATIBLE, ms.LAX
    (10, 0, 1, 2)
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

__all__ = ["STRICT", "COMPATIBLE", "LAX", "jit_class", "lazy_inline", "no_inline", "set_recursion_limit",
           "set_deterministic", "SETTINGS"]

#: ``jit_syntax_level`` values
STRICT = 0
COMPATIBLE = 1
LAX = 2

#: what the setters were given
SETTINGS: Dict[str, Any] = {"recursion_limit": 1000, "deterministic": None}


def jit_class(cls: type) -> type:
    """Mark a user class as usable inside ``jit`` code (it already is: mskernel runs it eagerly).

    Example:
        >>> @jit_class
        ... class Net:
        ...     pass
        >>> Net.__ms_class__
        True
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    cls.__ms_class__ = True
    return cls


def _marker(attr: str) -> Callable[..., Any]:
    def decorate(fn: Optional[Callable[..., Any]] = None, **options: Any) -> Any:
        def mark(f: Callable[..., Any]) -> Callable[..., Any]:
            setattr(f, attr, options or True)
            return f
        return mark(fn) if fn is not None else mark
    return decorate


def lazy_inline(fn: Optional[Callable[..., Any]] = None, attrs: Any = None, policy: Any = None) -> Any:
    """Mark a Cell's ``__init__`` for lazy inlining by the graph compiler; here it runs as it is.

    Example:
        >>> @lazy_inline
        ... def __init__(self):
        ...     pass
        >>> __init__.lazy_inline
        True
    """
    return _marker("lazy_inline")(fn, **({"attrs": attrs} if attrs is not None else {}),
                                  **({"policy": policy} if policy is not None else {}))


def no_inline(fn: Optional[Callable[..., Any]] = None) -> Any:
    """Mark a function or Cell not to be inlined by the graph compiler; here it runs as it is.

    Example:
        >>> @no_inline
        ... def f(x):
        ...     return x + 1
        >>> f(1), f.no_inline
        (2, True)
    """
    return _marker("no_inline")(fn)


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """The graph compiler's recursion depth (kept; mskernel compiles nothing).

    Example:
        >>> set_recursion_limit(10000); SETTINGS["recursion_limit"]
        10000
    """
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int) or recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got '{recursion_limit}' with type "
                         f"'{type(recursion_limit).__name__}'.")
    SETTINGS["recursion_limit"] = recursion_limit


def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic kernels (mskernel's numpy kernels always are); as in MindSpore, once per process.

    Example:
        >>> try:
        ...     set_deterministic(True)  # the first call in this process sets it
        ... except RuntimeError:
        ...     pass
        >>> SETTINGS["deterministic"] is not None
        True
        >>> set_deterministic(False)
        Traceback (most recent call last):
        ...
        RuntimeError: The 'mindspore.set_deterministic' can not be set repeatedly.
    """
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got {type(deterministic)}")
    if SETTINGS["deterministic"] is not None:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    SETTINGS["deterministic"] = deterministic
