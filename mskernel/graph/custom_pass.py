"""``mindspore.graph``'s custom passes: ``CustomPassType`` and ``register_custom_pass``.

A custom pass is a plugin, a shared library written against MindSpore's C++ graph-compiler API (it exports
``CreatePlugin``) that rewrites compiled graphs. mskernel has no graph compiler, so it keeps the wheel's
checks and answers: ``False`` for a file that is not such a plugin (missing, not ``.so``, not loadable,
without ``CreatePlugin``), and :class:`~mskernel.errors.RefusedError` for one that is.

Example:
    >>> print(CustomPassType.PATTERN, repr(CustomPassType.FULL_GRAPH))
    CustomPassType.PATTERN <CustomPassType.FULL_GRAPH: 1>
    >>> register_custom_pass("my_fusion_pass", "/path/to/my_plugin.so", device="cpu")
    False
"""
from __future__ import annotations

import ctypes
import enum
import logging
import os

from mskernel.errors import RefusedError

__all__ = ["CustomPassType", "register_custom_pass"]

logger = logging.getLogger(__name__)


class CustomPassType(enum.Enum):
    """The kind of a custom pass: ``PATTERN`` rewrites the graph where a pattern of ops matches (applied as
    the backend optimises), ``FULL_GRAPH`` rewrites it from the whole graph (applied by the frontend).

    Example:
        >>> print(CustomPassType.PATTERN, CustomPassType.PATTERN.value)
        CustomPassType.PATTERN 0
    """

    PATTERN = 0
    FULL_GRAPH = 1

    def __repr__(self) -> str:
        return f"<CustomPassType.{self.name}: {self.value}>"

    def __int__(self) -> int:
        return self.value


def _incompatible(pass_name: object, plugin_so_path: object, device: object, pass_type: CustomPassType) -> TypeError:
    return TypeError("register_custom_pass(): incompatible function arguments. The following argument types are "
                     "supported:\n    1. (pass_name: str, plugin_so_path: str, device: str, pass_type: "
                     f"mindspore._c_expression.CustomPassType) -> bool\n\nInvoked with: {pass_name!r}, "
                     f"{plugin_so_path!r}, {device!r}, {pass_type!r}")


def _is_plugin(path: str) -> bool:
    """Whether ``path`` is a loadable shared library exporting ``CreatePlugin`` (logging why not, as the wheel
    does)."""
    if not os.path.isfile(path):
        logger.error("Plugin file not found: %s", path)
        return False
    if os.path.splitext(path)[1] != ".so":
        logger.error("Unsupported plugin file extension: %s", os.path.splitext(path)[1])
        return False
    try:
        library = ctypes.CDLL(path)
    except OSError as e:
        logger.error("Failed to load plugin: %s, error: %s", path, e)
        return False
    if not hasattr(library, "CreatePlugin"):
        logger.error("Failed to find CreatePlugin function in: %s", path)
        return False
    return True


def register_custom_pass(pass_name: str, plugin_so_path: str, device: str = "all",
                         pass_type: CustomPassType = CustomPassType.PATTERN) -> bool:
    """Register the pass ``pass_name`` of the plugin ``plugin_so_path`` for ``device`` (``"cpu"``, ``"gpu"``,
    ``"ascend"`` or ``"all"``). ``False`` when the file is not a custom-pass plugin (the wheel's answer,
    with its reason in the log); a real plugin raises :class:`~mskernel.errors.RefusedError`, as it extends
    MindSpore's graph compiler, which mskernel does not have. A ``pass_type`` that is not a
    :class:`CustomPassType` is a TypeError.

    Example:
        >>> register_custom_pass("my_pass", "relative/plugin.so")
        False
        >>> register_custom_pass("my_pass", "/path/to/plugin.so", pass_type=1)
        Traceback (most recent call last):
        ...
        TypeError: pass_type must be of type CustomPassType, got int
    """
    if not isinstance(pass_type, CustomPassType):
        raise TypeError(f"pass_type must be of type CustomPassType, got {type(pass_type).__name__}")
    if not all(isinstance(a, str) for a in (pass_name, plugin_so_path, device)):
        raise _incompatible(pass_name, plugin_so_path, device, pass_type)
    if not _is_plugin(plugin_so_path):
        logger.error("Failed to load custom pass plugin from: %s for device: %s", plugin_so_path, device)
        return False
    raise RefusedError("mindspore.graph.register_custom_pass",
                       f"{plugin_so_path} is a custom-pass plugin, written against MindSpore's C++ graph-compiler "
                       "API to rewrite the graphs it compiles; mskernel has no graph compiler (it runs jit "
                       "functions eagerly)")
