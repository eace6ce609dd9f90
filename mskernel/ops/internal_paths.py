"""MindSpore's internal module paths that code imports ops from, as facades over mskernel's ops.

MindSpore's own examples and real programs reach ops through the modules that define them, not only through
``mindspore.ops``: ``ops.function.math_func.amax_ext``, ``ops.auto_generate.argmax_ext``,
``from mindspore.ops.function.array_func import expand_as``, ``ops.operations.array_ops``. mskernel defines
its ops once, in the op table, so each of those modules is a facade: a name resolves, in this order, to

* the op or primitive of the same name in ``mskernel.ops``;
* for ``<name>_ext``, the ``mint`` function of that name (``amax_ext`` is ``mint.amax``: the ``_ext`` ops are
  the implementations of ``mint``'s signatures), looked up in ``mint``, ``mint.nn.functional``,
  ``mint.special`` and ``mint.linalg``;
* for ``<name>_view``, what ``<name>`` resolves to (mskernel's results never alias their input, so a view op and
  its copying op print the same).

``functional_overload`` holds the torch-style signatures, so there mint's function comes first for every name;
``function.nn_func`` looks in ``mint.nn.functional`` before ``mint``; ``communication`` in ``mint.distributed``.

A name that resolves to nothing raises AttributeError naming the module path, as a missing attribute does.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops.function.math_func import amax_ext
    >>> print(amax_ext(ms.Tensor([[1.0, 5.0], [3.0, 2.0]]), dim=1))
    [5. 3.]
    >>> from mskernel.ops import auto_generate
    >>> auto_generate.unsqueeze_view(ms.Tensor([1.0, 2.0]), 0).shape
    (1, 2)
"""
from __future__ import annotations

import importlib
import sys
import types
from typing import Any, Callable, Tuple

__all__ = ["resolve", "facade", "FACADES", "FUNCTION_MODULES"]

#: where an ``_ext`` name's mint function is looked for, in order
_MINT_HOMES = ("mskernel.mint", "mskernel.mint.nn.functional", "mskernel.mint.special", "mskernel.mint.linalg")

#: the modules of ``mindspore.ops.function`` (one facade each)
FUNCTION_MODULES = ("array_func", "math_func", "nn_func", "random_func", "linalg_func", "clip_func", "debug_func",
                    "grad", "image_func", "other_func", "parameter_func", "sparse_func", "spectral_func",
                    "vmap_func", "reshard_func")

#: facade module names under ``mskernel.ops`` (the package ``function`` holds FUNCTION_MODULES)
FACADES = ("auto_generate", "gen_ops_def", "gen_ops_prim", "pyboost_inner_prim", "functional_overload",
           "gen_extend_func", "array_ops", "linalg_ops", "other_ops", "communication")


def _suffixed(name: str, suffix: str) -> Tuple[bool, str]:
    return name.endswith(suffix) and len(name) > len(suffix), name[: -len(suffix)]


def _homes(where: str) -> Tuple[str, ...]:
    if where.endswith("communication"):  # the collectives, as mint.distributed has them
        return ("mskernel.mint.distributed",) + _MINT_HOMES
    if where.endswith("nn_func"):
        return ("mskernel.mint.nn.functional",) + tuple(h for h in _MINT_HOMES if h != "mskernel.mint.nn.functional")
    return _MINT_HOMES


def _in_mint(name: str, where: str) -> Any:
    for home in _homes(where):
        obj = getattr(importlib.import_module(home), name, None)
        if obj is not None and not isinstance(obj, type(sys)):
            return obj
    return None


def resolve(name: str, where: str = "mindspore.ops") -> Any:
    """mskernel's object for ``name`` as found in MindSpore's module ``where`` (rules in the module docstring).

    Example:
        >>> import mskernel as ms
        >>> resolve("tril_ext") is ms.mint.tril, resolve("select_ext_view") is ms.mint.select
        (True, True)
    """
    if name.startswith("__"):
        raise AttributeError(f"module {where!r} has no attribute {name!r}")
    ops = importlib.import_module("mskernel.ops")
    if where.endswith(("functional_overload", "communication")):
        obj = _in_mint(name, where)
        if obj is not None:
            return obj
    if name in vars(ops):
        return vars(ops)[name]
    is_view, base = _suffixed(name, "_view")
    if is_view:
        return resolve(base, where)
    is_ext, base = _suffixed(name, "_ext")
    if is_ext:
        obj = _in_mint(base, where)
        if obj is None:
            obj = vars(ops).get(base)
        if obj is not None:
            return obj
    raise AttributeError(f"module {where!r} has no attribute {name!r} in mskernel")


def facade(module_name: str, where: str, doc: str) -> types.ModuleType:
    """A module (registered in ``sys.modules``) whose attributes resolve through :func:`resolve`.

    Example:
        >>> m = facade("mskernel.ops._example_facade", "mindspore.ops.example", "An example.")
        >>> m.exp.__name__
        'exp'
    """
    mod = sys.modules.get(module_name)
    if mod is None:
        mod = types.ModuleType(module_name, doc)
        getter: Callable[[str], Any] = lambda name: resolve(name, where)  # noqa: E731
        mod.__getattr__ = getter  # type: ignore[attr-defined]  (PEP 562)
        sys.modules[module_name] = mod
    return mod


def install(package: types.ModuleType) -> None:
    """Put the facades under ``package`` (mskernel.ops): ``package.auto_generate`` ... and
    ``package.function.<name>`` for each of FUNCTION_MODULES.

    Example:
        >>> import mskernel.ops
        >>> mskernel.ops.function.nn_func.relu is mskernel.ops.relu
        True
    """
    for name in FACADES:
        setattr(package, name, facade(f"{package.__name__}.{name}", f"mindspore.ops.{name}",
                                      f"mindspore.ops.{name}, resolved onto mskernel's ops (see {__name__})."))
    function = facade(f"{package.__name__}.function", "mindspore.ops.function",
                      f"mindspore.ops.function, resolved onto mskernel's ops (see {__name__}).")
    function.__path__ = []  # a package: its modules are the facades below
    for name in FUNCTION_MODULES:
        setattr(function, name, facade(f"{function.__name__}.{name}", f"mindspore.ops.function.{name}",
                                       f"mindspore.ops.function.{name}, resolved onto mskernel's ops."))
    package.function = function
