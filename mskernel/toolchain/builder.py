"""``CustomOpBuilder``: MindSpore's C++ custom-op builder, on mskernel's build layer.

Same constructor, argument validation (types, messages) and methods as
``mindspore.ops.CustomOpBuilder`` (2.6+). Differences, all in the user's favour on a CPU:

* ``sources`` may also be inline C++ strings (anything containing a newline, ``{`` or
  ``;``); they are named ``<name>_inline_<i>.cpp`` in diagnostics.
* ``load()`` honours edits: an unchanged source returns the same module object, an
  edited one is rebuilt and loaded as a new module (MindSpore caches by name per process).
* ``backend="Ascend"`` and ``enable_atb``/``enable_asdsip`` are accepted with a one-time
  warning and build for the CPU.
* ``op_def``/``op_doc`` (graph-mode YAML) are validated, then ignored with a one-time
  warning: mskernel runs custom ops eagerly, so no graph-mode registration is needed.
* Artifacts go to mskernel's content-addressed cache, or under ``build_dir`` if given.
* Modules build "split" (about twice as fast: pybind11's runtime comes from a support object
  compiled once, see ``mskernel.toolchain.split``). ``cflags="-DMSKERNEL_FULL_PYBIND11"`` forces
  full pybind11.

Example:
    >>> src = '''#include <pybind11/pybind11.h>
    ... int add(int a, int b) { return a + b; }
    ... PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("add", &add); }'''
    >>> CustomOpBuilder("doc_builder", src).load().add(2, 3)
    5
"""
from __future__ import annotations

import os
import shlex
import types
import warnings
from typing import Any, Optional, Union

from mskernel.toolchain.api import Artifact, Source, build
from mskernel.toolchain.diagnostics import BuildError
from mskernel.toolchain.split import remember_fallback
from mskernel.toolchain.loader import load_python_module
from mskernel.toolchain.discover import include_dir

__all__ = ["CustomOpBuilder"]

_warned: set[str] = set()
_KNOWN_KWARGS = {"build_dir", "debug_mode", "enable_atb", "enable_asdsip", "op_def", "op_doc"}
_SOURCE_SUFFIXES = (".cc", ".cpp", ".cxx", ".c++", ".c", ".h", ".hpp", ".hh", ".cu")


def _warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


# --- MindSpore's validators (mindspore/_checkparam.py), same messages ---------------------------

def _type_error(arg_name: str, value: Any, valid: tuple) -> TypeError:
    names = [t.__name__ for t in valid]
    shown = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
    return TypeError(f"The type of '{arg_name}' should be {shown}, but got type '{type(value).__name__}'.")


def _check_value_type(arg_name: str, value: Any, valid: tuple) -> Any:
    if isinstance(value, bool) and bool not in valid:
        raise _type_error(arg_name, value, valid)
    if not isinstance(value, valid):
        raise _type_error(arg_name, value, valid)
    return value


def _check_bool(value: Any, arg_name: Optional[str] = None) -> bool:
    if not isinstance(value, bool):
        subject = f"'{arg_name}'" if arg_name else "input value"
        raise TypeError(f"The {subject} must be a bool, but got {type(value).__name__}.")
    return value


def _check_str_or_list_str(arg_name: str, value: Any) -> Optional[list]:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    value = list(_check_value_type(arg_name, value, (list, tuple)))
    for element in value:
        if not isinstance(element, str):
            raise TypeError(f"The type of '{arg_name}' should be str, but got '{element}' with type "
                            f"'{type(element).__name__}'.")
    return value


def _is_inline(source: str) -> bool:
    """Inline C++ (rather than a file path): has a newline, '{' or ';', or is not path-like."""
    if "\n" in source or "{" in source or ";" in source:
        return True
    if os.path.exists(source):
        return False
    if source.lower().endswith(_SOURCE_SUFFIXES) or os.sep in source:
        raise FileNotFoundError(f"CustomOpBuilder: source file {source!r} not found "
                                f"(relative paths are resolved against {os.getcwd()!r})")
    return True


class CustomOpBuilder:
    """Build and load a pybind11 custom-op module, MindSpore style.

    Args:
        name: the module name (``PYBIND11_MODULE(MS_EXTENSION_NAME, m)`` gets it).
        sources: a file path, inline C++ source, or a list/tuple of them.
        backend: ``"CPU"``, ``"Ascend"`` (built for the CPU, with a warning) or None.
        include_paths: extra include directory or list of them.
        cflags: one string of extra compiler flags (split like a shell).
        ldflags: one string of extra linker flags (split like a shell).
        **kwargs: ``build_dir`` (str), ``debug_mode`` (bool: ``-g``, no ``-O2``),
            ``enable_atb`` / ``enable_asdsip`` (bool, Ascend-only: accepted, ignored),
            ``op_def`` / ``op_doc`` (YAML paths for graph mode: validated, ignored).

    Example:
        >>> b = CustomOpBuilder("doc_cob", "int f() { return 1; }", backend="CPU", cflags="-DX=1")
        >>> b.get_cflags()[-1], b.get_sources()
        ('-DX=1', ['int f() { return 1; }'])
    """

    def __init__(self, name: str, sources: Union[str, list, tuple], backend: Optional[str] = None,
                 include_paths: Union[str, list, tuple, None] = None, cflags: Optional[str] = None,
                 ldflags: Optional[str] = None, **kwargs: Any):
        self.name = _check_value_type("name", name, (str,))
        if sources is None:
            raise _type_error("sources", sources, (list, tuple))
        self.source = _check_str_or_list_str("sources", sources)
        self.backend = _check_value_type("backend", backend, (str, type(None)))
        if self.backend is not None and self.backend not in {"CPU", "Ascend"}:
            raise ValueError(f"For 'backend', only 'CPU' or 'Ascend' are allowed, but got '{self.backend}'.")
        self.include_paths = _check_str_or_list_str("include_paths", include_paths)
        self.cflags = _check_value_type("cflags", cflags, (str, type(None)))
        self.ldflags = _check_value_type("ldflags", ldflags, (str, type(None)))
        build_dir = kwargs.get("build_dir")
        self.build_dir = os.fspath(build_dir) if isinstance(build_dir, os.PathLike) else \
            _check_value_type("build_dir", build_dir, (str, type(None)))
        self.debug_mode = _check_bool(kwargs.get("debug_mode", False), "debug_mode")
        self.enable_asdsip = _check_bool(kwargs.get("enable_asdsip", False), "enable_asdsip")
        self.yaml = _check_str_or_list_str("op_def", kwargs.get("op_def"))
        self.doc = _check_str_or_list_str("op_doc", kwargs.get("op_doc"))
        self.enable_atb = _check_bool(kwargs.get("enable_atb", False))
        for flag in ("enable_atb", "enable_asdsip"):
            if getattr(self, flag) and backend is not None and backend != "Ascend":
                raise ValueError(f"For 'CustomOpBuilder', when '{flag}' is set to True, the 'backend' must be "
                                 f"'Ascend' (or left implicit), but got '{backend}'")
        unknown = sorted(set(kwargs) - _KNOWN_KWARGS)
        if unknown:
            warnings.warn(f"CustomOpBuilder: unknown keyword argument(s) {unknown} are ignored "
                          f"(known: {sorted(_KNOWN_KWARGS)})", UserWarning, stacklevel=2)
        if self.backend == "Ascend" or self.enable_atb or self.enable_asdsip:
            _warn_once("ascend", "CustomOpBuilder: backend 'Ascend' (ATB/ASDSIP) is not available in mskernel; "
                                 "the op is built and run on the CPU.")
        if self.yaml is not None:
            _warn_once("op_def", "CustomOpBuilder: 'op_def' (graph-mode YAML) is ignored: mskernel runs custom "
                                 "ops eagerly (PyNative), which needs no graph-mode registration.")
        self._artifact: Optional[Artifact] = None

    def get_sources(self) -> list:
        """The sources as given (paths and/or inline C++ strings).

        Example:
            >>> CustomOpBuilder("m", ["a.cpp", "int g();"]).get_sources()
            ['a.cpp', 'int g();']
        """
        return list(self.source)

    def get_include_paths(self) -> list:
        """The user's include paths, then mskernel's ``include_dir()`` (``ms_extension.h``).

        Example:
            >>> CustomOpBuilder("m", "x.cpp", include_paths="inc").get_include_paths()[0]
            'inc'
        """
        return list(self.include_paths or []) + [str(include_dir())]

    def get_cflags(self) -> list:
        """Compiler flags: MindSpore's CPU-relevant ones, then the user's ``cflags`` split like a shell.

        Example:
            >>> CustomOpBuilder("m", "x.cpp", cflags="-DA=1 -Wall").get_cflags()
            ['-DMS_EXTENSION_NAME=m', '-std=c++17', '-fPIC', '-O2', '-DA=1', '-Wall']
        """
        return self._default_cflags() + (shlex.split(self.cflags) if self.cflags else [])

    def get_ldflags(self) -> list:
        """Linker flags: ``-shared`` (and ``-s`` unless debugging), then the user's ``ldflags``.

        Example:
            >>> CustomOpBuilder("m", "x.cpp", ldflags="-lm").get_ldflags()
            ['-shared', '-s', '-lm']
        """
        return self._default_ldflags() + (shlex.split(self.ldflags) if self.ldflags else [])

    def _sources_for_build(self) -> list:
        out: list = []
        for i, src in enumerate(self.get_sources()):
            if _is_inline(src):
                out.append(Source(f"{self.name}_inline_{i}.cpp", src, directory=os.getcwd()))
            else:
                out.append(src)
        return out

    def build_artifact(self) -> Artifact:
        """Build (or fetch from the cache) and return the :class:`~mskernel.toolchain.Artifact`.

        Example:
            >>> src = "#include <pybind11/pybind11.h>\\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {}"
            >>> CustomOpBuilder("doc_b2", src).build_artifact().kind
            'pybind11'
        """
        self._artifact = build(self.name, self._sources_for_build(), kind="pybind11",
                               include_paths=self._extra(self.get_include_paths(), [str(include_dir())], tail=True),
                               cflags=self._extra(self.get_cflags(), self._default_cflags()),
                               ldflags=self._extra(self.get_ldflags(), self._default_ldflags()),
                               debug=self.debug_mode, build_dir=self.build_dir)
        return self._artifact

    def _default_cflags(self) -> list:
        return [f"-DMS_EXTENSION_NAME={self.name}", "-std=c++17", "-fPIC", "-g" if self.debug_mode else "-O2"]

    def _default_ldflags(self) -> list:
        return ["-shared"] + ([] if self.debug_mode else ["-s"])

    @staticmethod
    def _extra(flags: list, defaults: list, tail: bool = False) -> list:
        """``flags`` without the builder's own defaults (at the head, or the tail), which
        ``build()`` adds itself: passing them again only duplicated them on the command line.
        A subclass that overrides ``get_cflags()`` etc. keeps every flag it adds."""
        n = len(defaults)
        if tail and flags[len(flags) - n:] == defaults:
            return flags[:len(flags) - n]
        if not tail and flags[:n] == defaults:
            return flags[n:]
        return flags

    def build(self) -> str:
        """Compile (unless cached) and return the path of the built ``.so``.

        Example:
            >>> src = "#include <pybind11/pybind11.h>\\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {}"
            >>> CustomOpBuilder("doc_b2", src).build().endswith(".so")
            True
        """
        return str(self.build_artifact().path)

    def load(self) -> types.ModuleType:
        """Build if needed and import the module; the same object while the sources are unchanged.

        A split build (see ``mskernel.toolchain.split``) that cannot be loaded because it references a
        pybind11 symbol the support object lacks is rebuilt with full pybind11 (and remembered).

        Example:
            >>> src = "#include <pybind11/pybind11.h>\\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {}"
            >>> b = CustomOpBuilder("doc_b2", src)
            >>> b.load() is b.load()
            True
        """
        art = self.build_artifact()
        try:
            return load_python_module(art, self.name)
        except BuildError as exc:
            if art.mode != "split" or "pybind11" not in str(exc):
                raise
            remember_fallback(art.path.parent.parent, art.path.parent.name)
            return load_python_module(self.build_artifact(), self.name)
