"""The ``@kernel`` decorator (MindSpore's ``ops.kernel``) and pure-Python execution.

A decorated function is still an ordinary Python function: called on numpy arrays (or on
anything with ``.asnumpy()``) it runs as Python with numpy stand-ins for the intrinsics,
exactly how MindSpore runs it to compute expected values and to infer output shapes. The
stand-ins are provided through a globals *overlay* -- the function runs with a copy-free
view of its module globals plus the intrinsics -- so the user's module is not rewritten
wholesale as in MindSpore. For code that relies on MindSpore's injection (calling an
undecorated helper that uses ``output_tensor`` after a decorated one ran), the DSL-only names
(``output_tensor``, ``allocate``, the loop keywords, the math intrinsics) are added to the
module's globals when absent; names that would shadow Python builtins (``range``, ``abs``,
``round``, ``max``, ``min``) and names the module defines itself are never touched.

Example:
    >>> import numpy as np
    >>> @kernel
    ... def add_one(a):
    ...     b = output_tensor(a.shape, a.dtype)
    ...     for i in range(a.shape[0]):
    ...         b[i] = a[i] + 1.0
    ...     return b
    >>> add_one(np.array([1.0, 2.0], np.float32))
    array([2., 3.], dtype=float32)
    >>> add_one.ms_kernel_flag, is_kernel(add_one)
    (True, True)
"""
from __future__ import annotations

import builtins
import functools
import json
import types
import warnings
from typing import Any, Callable, Optional, Union

from .intrinsics import RUNTIME_NAMES
from .source import unwrap

__all__ = ["kernel", "ms_kernel", "is_kernel", "call_python", "to_numpy"]


def to_numpy(value: Any) -> Any:
    """``value.asnumpy()`` for tensor-like objects, else ``value`` unchanged.

    Example:
        >>> to_numpy(3)
        3
    """
    asnumpy = getattr(value, "asnumpy", None)
    return asnumpy() if callable(asnumpy) else value


class _Overlay(dict):
    """Globals for a kernel run as Python: the intrinsics, then the module's own globals."""

    def __init__(self, module_globals: dict[str, Any]):
        super().__init__(RUNTIME_NAMES)
        self.module_globals = module_globals
        self["__builtins__"] = module_globals.get("__builtins__", builtins)

    def __missing__(self, key: str) -> Any:
        return self.module_globals[key]


@functools.lru_cache(maxsize=256)
def _python_version(func: types.FunctionType) -> types.FunctionType:
    overlay = _Overlay(func.__globals__)
    fn = types.FunctionType(func.__code__, overlay, func.__name__, func.__defaults__, func.__closure__)
    fn.__kwdefaults__ = func.__kwdefaults__
    return fn


def _inject(module_globals: dict[str, Any]) -> None:
    for name, value in RUNTIME_NAMES.items():
        if not hasattr(builtins, name) and name not in module_globals:
            module_globals[name] = value


def call_python(func: Callable[..., Any], *args: Any) -> Any:
    """Run the (possibly undecorated) DSL function ``func`` as Python on numpy arrays.

    Example:
        >>> import numpy as np
        >>> def double(x):
        ...     y = output_tensor(x.shape, x.dtype)
        ...     for i in range(x.shape[0]):
        ...         y[i] = x[i] * 2
        ...     return y
        >>> call_python(double, np.arange(3))
        array([0, 2, 4])
    """
    raw = unwrap(func)
    if not isinstance(raw, types.FunctionType):
        return raw(*(to_numpy(a) for a in args))
    return _python_version(raw)(*(to_numpy(a) for a in args))


def _check_args(reg_info: Any, compile_attrs: Any) -> dict[str, Any]:
    if compile_attrs is None:
        compile_attrs = {}
    if not isinstance(compile_attrs, dict):
        raise TypeError(f"@kernel(compile_attrs=...) must be a dict with str keys, not a "
                        f"{type(compile_attrs).__name__}")
    for key in compile_attrs:
        if not isinstance(key, str):
            raise TypeError(f"@kernel(compile_attrs=...) must have str keys, but the key {key!r} has type "
                            f"{type(key).__name__}")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise TypeError(f"@kernel(reg_info=...) must be a str (JSON), a dict or a tuple of them, not a "
                        f"{type(reg_info).__name__}")
    return compile_attrs


def kernel(fn: Optional[Callable[..., Any]] = None, reg_info: Union[str, dict, tuple, None] = None,
           compile_attrs: Optional[dict[str, Any]] = None) -> Any:
    """Mark ``fn`` as a hybrid-DSL kernel (usable by ``ops.Custom(func_type="hybrid")``).

    Sets ``ms_kernel_flag = True``, ``compile_attrs`` (a JSON string) and ``reg_info`` on the
    function, and returns a wrapper (carrying the same attributes and ``__wrapped__``) that
    runs the kernel as Python on numpy arrays. Usable bare (``@kernel``) or with arguments
    (``@kernel(reg_info=..., compile_attrs={...})``).

    Example:
        >>> @kernel(compile_attrs={"test": 1})
        ... def ident(a):
        ...     return a
        >>> ident.compile_attrs, ident.__wrapped__.__name__
        ('{"test": 1}', 'ident')
    """
    attrs = _check_args(reg_info, compile_attrs)

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        func.ms_kernel_flag = True  # type: ignore[attr-defined]
        func.compile_attrs = json.dumps(attrs)  # type: ignore[attr-defined]
        if reg_info is not None:
            func.reg_info = reg_info  # type: ignore[attr-defined]

        @functools.wraps(func)
        def _run_as_python(*args: Any) -> Any:
            module_globals = getattr(func, "__globals__", None)
            if isinstance(module_globals, dict):
                _inject(module_globals)
            return call_python(func, *args)

        return _run_as_python

    if fn is not None:
        return wrap(fn)
    return wrap


def ms_kernel(fn: Optional[Callable[..., Any]] = None, reg_info: Union[str, dict, tuple, None] = None,
              compile_attrs: Optional[dict[str, Any]] = None) -> Any:
    """Deprecated alias of :func:`kernel` (warns, then behaves identically).

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     f = ms_kernel(lambda a: a)
        >>> f.ms_kernel_flag, w[0].category.__name__
        (True, 'DeprecationWarning')
    """
    warnings.warn("ms_kernel is deprecated: use kernel, which takes the same arguments",
                  DeprecationWarning, stacklevel=2)
    return kernel(fn, reg_info, compile_attrs)


def is_kernel(func: Any) -> bool:
    """True if ``func`` was decorated by :func:`kernel` / :func:`ms_kernel`.

    Example:
        >>> is_kernel(len), is_kernel(kernel(lambda a: a))
        (False, True)
    """
    return bool(getattr(func, "ms_kernel_flag", False))
