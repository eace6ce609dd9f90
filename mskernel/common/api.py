"""``mindspore.jit`` and ``mindspore.mutable``, eager: mskernel always runs PyNative.

``jit`` compiles a function to a graph in MindSpore; here it returns a function (or a Cell's bound
``construct``) that runs the original eagerly, accepting and checking every argument MindSpore 2.10's
decorator takes, so code written with ``@jit``, ``@jit(jit_level="O1")`` or ``jit(fn)`` runs unchanged and
gives the same results (gradients included). What 2.10 does not compile (a ``functools.partial``, a
callable object) it returns unchanged, and so does mskernel. ``mutable`` marks a value as a graph variable
in MindSpore; here it checks the value's type as MindSpore does and returns it.

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
import logging
import types
from typing import Any, Callable, Optional

from mskernel.common import jit_scope
from mskernel.common.tensor import Tensor
from mskernel.errors import RefusedError

__all__ = ["jit", "JitConfig", "mutable", "_pynative_executor", "enable_dynamic"]

logger = logging.getLogger(__name__)


_DEPRECATED_OPTIONS = {"mode": "capture_mode", "input_signature": "dynamic", "hash_args": "",
                       "jit_config": "jit_level, fullgraph or options", "compile_once": ""}


def _check_jit_arguments(capture_mode: Any, jit_level: Any, dynamic: Any, fullgraph: Any, options: dict) -> None:
    """MindSpore 2.10's checks of ``jit``'s arguments, with its messages; deprecated options are dropped with
    a warning (``input_signature``, ``jit_config``, ``mode``, ``hash_args``, ``compile_once``)."""
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the 'capture_mode' must be str and must be in '['ast', 'bytecode', 'trace']', "
                         f"but got '{capture_mode}'.")
    if jit_level not in ("O0", "O1"):
        raise ValueError(f"For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1']', but got "
                         f"'{jit_level}'.")
    if isinstance(dynamic, bool) or not isinstance(dynamic, int):
        raise TypeError(f"For 'jit', the 'dynamic' must be int, but got {type(dynamic).__name__}.")
    if not 0 <= dynamic <= 1:
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got {dynamic} with type 'int'.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' must be a bool, but got {type(fullgraph).__name__}.")
    for key, instead in _DEPRECATED_OPTIONS.items():
        if key in options:
            del options[key]
            logger.warning("For 'jit', the parameter '%s' has been deprecated.%s", key,
                           f" Please use the parameter '{instead}' instead." if instead else "")


_BUILT_IN_BACKENDS = ("ms_backend", "GE")


def _check_backend(backend: str) -> None:
    """A ``jit`` function naming a backend other than the built-in ones runs only where that backend is a
    registered plugin (``mindspore.graph.register_custom_backend``), and such a plugin cannot run here."""
    path = jit_scope.CUSTOM_BACKENDS.get(backend)
    if path is None:
        raise RuntimeError(f"Invalid backend name: {backend}, you should register custom backend first")
    raise RefusedError(f"mindspore.jit(backend={backend!r})", f"the custom backend plugin {path} is a shared library "
                       "written against MindSpore's C++ graph-compiler API, which mskernel does not have (it runs "
                       "jit functions eagerly)")


def jit(function: Optional[Callable] = None, *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
    """MindSpore 2.10's ``jit``: a decorator (bare or with options) or a function; what it returns runs eagerly.

    As in the wheel: a function gives a wrapped function, a method a bound method of it, a Cell instance the
    bound method of its (wrapped) ``construct`` and a Cell class the class with ``construct`` wrapped; anything
    else — a ``functools.partial``, a callable object — is returned unchanged (with a warning in MindSpore's
    log), so it runs as plain Python. The arguments are checked as there; ``input_signature`` and
    ``jit_config`` are deprecated in 2.10 and dropped with a warning. While a jit function runs, the op wrappers
    and infer functions of :mod:`mskernel.graph` apply to the primitives it calls (:mod:`mskernel.common.jit_scope`);
    a ``backend`` other than ``"ms_backend"``/``"GE"`` must be a registered custom backend (RuntimeError
    otherwise, as in the wheel), whose plugin cannot run here (:class:`~mskernel.errors.RefusedError`).

    Example:
        >>> import functools
        >>> @jit(capture_mode="ast", jit_level="O0")
        ... def g(a, b):
        ...     return a - b
        >>> g(5, 3), g.__name__
        (2, 'g')
        >>> part = functools.partial(g, b=1)
        >>> jit(part) is part
        True
        >>> jit(g, jit_level="O2")
        Traceback (most recent call last):
        ...
        ValueError: For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1']', but got 'O2'.
    """
    function = options.pop("fn", function)
    _check_jit_arguments(capture_mode, jit_level, dynamic, fullgraph, options)
    settings = dict(options, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic, fullgraph=fullgraph,
                    backend=backend)
    custom_backend = bool(backend) and backend not in _BUILT_IN_BACKENDS

    def wrap(func: Any) -> Any:
        from mskernel.nn.cell import Cell
        if isinstance(func, Cell):
            return types.MethodType(wrap(type(func).construct), func)
        if isinstance(func, type) and issubclass(func, Cell):
            func.construct = wrap(func.construct)
            return func
        if isinstance(func, types.MethodType):
            return types.MethodType(wrap(func.__func__), func.__self__)
        if not isinstance(func, types.FunctionType):
            logger.warning("The func should be function, method or cell instance/class, but got %s", func)
            return func

        @functools.wraps(func)
        def eager(*call_args: Any, **call_kwargs: Any) -> Any:
            if custom_backend:
                _check_backend(backend)
            jit_scope.enter()
            try:
                return func(*call_args, **call_kwargs)
            finally:
                jit_scope.leave()
        eager.__jit_options__ = settings  # type: ignore[attr-defined]
        eager.__wrapped_by_jit__ = True  # type: ignore[attr-defined]
        return eager

    return wrap if function is None else wrap(function)


class JitConfig:
    """MindSpore's ``JitConfig`` (the options a graph compiles with; accepted here, where everything runs
    eagerly, and readable as ``jit_config_dict``).

    Example:
        >>> JitConfig(jit_level="O1").jit_config_dict["jit_level"]
        'O1'
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        kwargs.pop("suppress_infer_boost_warning", None)
        for name, value, allowed, shown in (
                ("jit_level", jit_level, ["", "O0", "O1", "O2"], "['O0', 'O1', 'O2']"),
                ("exc_mode", exc_mode, ["auto", "sink", "no_sink"], "'['auto', 'sink', 'no_sink']'"),
                ("jit_syntax_level", jit_syntax_level, ["", "STRICT", "COMPATIBLE", "LAX"], "'['STRICT', 'LAX']'"),
                ("debug_level", debug_level, ["RELEASE", "DEBUG"], "'['RELEASE', 'DEBUG']'"),
                ("infer_boost", infer_boost, ["", "on", "off"], "'['on', 'off']'")):
            if value not in allowed:
                raise ValueError(f"For '{name}' must be one of {shown}.")
        self.jit_config_dict = dict(kwargs, jit_level=jit_level, exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level, debug_level=debug_level,
                                    infer_boost=infer_boost)
        if "backend" not in self.jit_config_dict and jit_level in ("O0", "O1", "O2"):
            self.jit_config_dict["backend"] = "GE" if jit_level == "O2" else "ms_backend"


_MUTABLE_TYPES = (int, float, bool, Tensor, tuple, list, dict)


def enable_dynamic(**kwargs: Any) -> Callable[[Callable], Callable]:
    """A decorator naming which arguments of a ``jit`` function have dynamic shapes (``Tensor(shape=[None, 3],
    ...)``, or a tuple/list of them); mskernel runs eagerly, where every shape is dynamic, so it checks the
    arguments as MindSpore does and returns the function unchanged.

    Example:
        >>> import mskernel as ms
        >>> f = enable_dynamic(y=ms.Tensor(shape=[None, 3], dtype=ms.float32))(lambda x, y: x + y)
        >>> print(f(ms.Tensor([1.0]), ms.Tensor([2.0])))
        [3.]
        >>> enable_dynamic(y=3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the argument ...
    """
    for name, arg in kwargs.items():
        items = arg if isinstance(arg, (tuple, list)) else (arg,)
        if not all(isinstance(a, Tensor) for a in items):
            bad = next(a for a in items if not isinstance(a, Tensor))
            raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
                            f"argument : {name} is type of:{type(bad)}.")

    def decorate(fn: Callable) -> Callable:
        return fn
    return decorate


class _Tuple(tuple):
    """A tuple ``mutable`` marked (gradients flow to its Tensors)."""


class _List(list):
    """A list ``mutable`` marked (gradients flow to its Tensors)."""


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """``input_data`` after MindSpore's type checks; a tuple or list comes back marked (``__ms_mutable__``), and
    ``grad`` of a function at a marked tuple's position gives a tuple of gradients, one per Tensor in it.

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
    if isinstance(input_data, (tuple, list)) and not hasattr(input_data, "__ms_mutable__"):
        marked = (_Tuple if isinstance(input_data, tuple) else _List)(input_data)
        marked.__ms_mutable__ = True  # type: ignore[attr-defined]
        marked.__ms_dynamic_len__ = dynamic_len  # type: ignore[attr-defined]
        return marked
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
