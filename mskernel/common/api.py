"""``mindspore.jit`` and ``mindspore.mutable``, eager: mskernel always runs PyNative.

``jit`` compiles a function to a graph in MindSpore; here it returns a function (or Cell) that
runs the original eagerly, accepting every argument MindSpore's decorator takes, so code written
with ``@jit``, ``@jit(jit_level="O1")`` or ``jit(fn)`` runs unchanged and gives the same results
(gradients included). ``mutable`` marks a value as a graph variable in MindSpore; here it checks
the value's type as MindSpore does and returns it.

Example:
    >>> import mskernel as ms
    >>> @ms.jit
    ... def f(x):
    ...     return x * 2
    >>> print(f(ms.Tensor([1.0, 2.0])), ms.jit(lambda x: x + 1, jit_level="O1")(1))
    [2. 4.] 2
    >>> ms.mutable((1, 2))
    (1, 2)
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from mskernel.common.tensor import Tensor

__all__ = ["jit", "mutable", "_pynative_executor"]


def jit(function: Optional[Callable] = None, *args: Any, **options: Any) -> Any:
    """Decorator (bare or with MindSpore's options) or function form; the result runs eagerly.

    Example:
        >>> @jit(capture_mode="ast", jit_level="O0")
        ... def g(a, b):
        ...     return a - b
        >>> g(5, 3), g.__name__
        (2, 'g')
    """
    function = options.pop("fn", function)
    if function is None:
        return lambda fn: jit(fn, *args, **options)
    if not callable(function):
        raise TypeError(f"For 'jit', the decorated object must be a function, a method or a Cell, but got "
                        f"{type(function).__name__}.")
    if hasattr(function, "construct") and not isinstance(function, type):  # a Cell instance: it already runs
        return function

    @functools.wraps(function)
    def eager(*call_args: Any, **call_kwargs: Any) -> Any:
        return function(*call_args, **call_kwargs)
    eager.__jit_options__ = options  # type: ignore[attr-defined]
    return eager


_MUTABLE_TYPES = (int, float, bool, Tensor, tuple, list, dict)


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """``input_data`` itself, after MindSpore's type checks.

    Example:
        >>> mutable([1, 2], dynamic_len=True)
        [1, 2]
    """
    if not isinstance(input_data, _MUTABLE_TYPES):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (int, float, bool, Tensor, tuple, list, "
                        f"dict), but got {type(input_data)}.")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the 'dynamic_len' is True, the 'input_data' should be one of (tuple, "
                        f"list), but got {type(input_data)}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the 'dynamic_len' should be bool, but got {type(dynamic_len)}.")
    return input_data


class _PynativeExecutor:
    """MindSpore's ``mindspore.common.api._pynative_executor``: here everything already runs eagerly.

    Real files call a few of its methods (``sync``, ``set_grad_flag``, ``grad_flag``, ``requires_grad``,
    ``enable_grad``, ``new_graph``/``end_graph``); they reflect or switch mskernel's grad mode, or do nothing
    where MindSpore would only manage its graph executor.

    Example:
        >>> from mskernel.common.api import _pynative_executor
        >>> _pynative_executor.sync(); _pynative_executor.enable_grad()
        True
    """

    def __init__(self) -> None:
        self._grad_flag = False

    def sync(self) -> None:
        """Wait for queued kernels (none: mskernel runs each op when it is called)."""

    def set_grad_flag(self, flag: bool) -> None:
        """Remember the flag MindSpore sets while a gradient is being taken."""
        self._grad_flag = bool(flag)

    def grad_flag(self) -> bool:
        """The flag given to :meth:`set_grad_flag`."""
        return self._grad_flag

    def enable_grad(self) -> bool:
        """Whether ops record gradients now (mskernel's grad mode)."""
        from mskernel.autograd.node import STATE
        return STATE.enabled

    def set_enable_grad(self, flag: bool) -> None:
        """Turn recording on or off (as ``mskernel.autograd.set_grad_enabled``)."""
        from mskernel.autograd.node import STATE
        STATE.enabled = bool(flag)

    def requires_grad(self) -> bool:
        """Whether a gradient is being taken."""
        return self._grad_flag

    def new_graph(self, obj: Any, *args: Any, **kwargs: Any) -> None:
        """Nothing to do: mskernel records each op as it runs."""

    def end_graph(self, obj: Any, output: Any, *args: Any, **kwargs: Any) -> None:
        """Nothing to do: mskernel records each op as it runs."""

    def check_run(self, *args: Any, **kwargs: Any) -> bool:
        """Always runnable."""
        return True

    def clear_res(self) -> None:
        """Nothing is cached between runs."""

    def set_async_for_graph(self, flag: bool) -> None:
        """Accepted; ops always run synchronously here."""


_pynative_executor = _PynativeExecutor()
