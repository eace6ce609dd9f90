"""Load built artifacts into the running process.

Python extensions are imported straight from their cache path with
``importlib.util.spec_from_file_location`` and are *not* put in ``sys.modules``: every
edit of a source has its own key, hence its own file, hence a new module object, while a
module loaded earlier keeps working. Loading the same artifact twice returns the same
module object. The module's ``__name__`` is ``_mskernel_<tag>.<module_name>``: pybind11 3
caches modules by that name, so a plain ``<module_name>`` would hand back the first version.

Limitation: pybind11 registers ``py::class_`` types process-wide by C++ type name, so an
edited module that re-binds the same class fails to load in the same process ("already
registered") unless the class is bound with ``py::module_local()``. Plain libraries are opened
with ``ctypes.CDLL`` (``RTLD_LOCAL``).

Example:
    >>> from mskernel.toolchain import build, Source
    >>> art = build("doc_loader", [Source("k.cpp", 'extern "C" int three() { return 3; }')])
    >>> load_library(art).three()
    3
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import threading
import types
from pathlib import Path
from typing import Optional, Union

from mskernel.toolchain.diagnostics import BuildError, Diagnostic
from mskernel.errors import SourceLocation

__all__ = ["load_python_module", "load_library", "artifact_of"]

_lock = threading.RLock()
_modules: dict[tuple[str, str], types.ModuleType] = {}
_artifacts: dict[str, object] = {}  # a loaded module's __name__ -> the Artifact it was loaded from
_libraries: dict[str, ctypes.CDLL] = {}

PathOrArtifact = Union["os.PathLike[str]", str, object]


def _path_of(artifact: PathOrArtifact) -> str:
    path = getattr(artifact, "path", artifact)
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"expected an Artifact or a path to a shared library, but got {type(artifact).__name__}")
    return os.path.abspath(os.fspath(path))


def _demangle(symbol: str) -> str:
    exe = shutil.which("c++filt")
    if not exe or not symbol.startswith("_Z"):
        return symbol
    try:
        out = subprocess.run([exe, symbol], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return symbol
    return out or symbol


_CORRUPT = re.compile(r"invalid ELF header|file too short|ELF load command|not an ELF|wrong ELF class")


def _load_error(path: str, module_name: str, exc: ImportError) -> Exception:
    msg = str(exc)
    m = re.search(r"undefined symbol: (\S+)", msg)
    if m:
        sym = _demangle(m.group(1))
        text = (f"undefined symbol {sym!r}: it is declared and used but never defined in the sources "
                f"(or its library is missing from ldflags)")
        diag = Diagnostic("error", SourceLocation(path, 0), text)
        return BuildError(module_name, [diag], msg, "", None,
                          summary=f"{module_name}: link error: {text}\n(loader message: {msg})")
    if "module export function" in msg or "PyInit_" in msg:
        return ImportError(
            f"{path} does not define PyInit_{module_name.rpartition('.')[2]}: load it under the name it was "
            f"built with (pybind11 sources should use PYBIND11_MODULE(MS_EXTENSION_NAME, m)); loader said: {msg}",
            name=module_name, path=path)
    if _CORRUPT.search(msg):
        return ImportError(f"{path} is not a valid shared library ({msg}): the cached file was damaged after it was "
                           f"built -> delete its cache entry {os.path.dirname(path)!r} (or run 'python -m mskernel "
                           f"cache --prune') and build again", name=module_name, path=path)
    return exc


def load_python_module(artifact: PathOrArtifact, module_name: str) -> types.ModuleType:
    """Import a CPython/pybind11 extension from ``artifact.path`` as ``module_name``.

    ``module_name`` must be the name in the module's ``PyInit_<name>`` symbol (the ``name``
    given to :func:`build` for ``kind="pybind11"``). The module is not registered in
    ``sys.modules``; loading the same file again returns the same module object.

    Raises:
        BuildError: the library references a symbol nothing defines (a link error that a
            Python extension can only reveal at load time).
        ImportError: wrong module name, or the file is not a loadable extension.

    Example:
        >>> from mskernel.toolchain import build, Source
        >>> src = Source("m.cpp", "#include <pybind11/pybind11.h>\\n"
        ...              "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\\"two\\", [] { return 2; }); }")
        >>> load_python_module(build("doc_mod", [src], kind="pybind11"), "doc_mod").two()
        2
    """
    path = _path_of(artifact)
    key = (path, module_name)
    with _lock:
        module = _modules.get(key)
        if module is not None:
            _remember(module, artifact)
            return module
        if not os.path.isfile(path):
            raise ImportError(f"no such extension file: {path}", name=module_name, path=path)
        # pybind11 (>= 3) caches initialized modules per interpreter by spec name, so a second
        # file loaded under the same name would silently return the *first* module. A unique
        # package prefix per file keeps the init symbol (CPython uses the last component for
        # PyInit_<name>) and gives every artifact its own module.
        tag = hashlib.sha256(path.encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(f"_mskernel_{tag}.{module_name}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path} is not a loadable Python extension (suffix must be one of the "
                              f"interpreter's extension suffixes)", name=module_name, path=path)
        try:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except ImportError as exc:
            raise _load_error(path, module_name, exc) from exc
        _modules[key] = module
        _remember(module, artifact)
        return module


def _remember(module: types.ModuleType, artifact: PathOrArtifact) -> None:
    if getattr(artifact, "request", None) is not None or module.__name__ not in _artifacts:
        if hasattr(artifact, "path") and hasattr(artifact, "key"):
            _artifacts[module.__name__] = artifact


def artifact_of(obj: object) -> Optional[object]:
    """The :class:`~mskernel.toolchain.Artifact` a module was loaded from by :func:`load_python_module`
    -- given the module, or a function or class defined in it (found by its ``__module__``) -- or None.

    Its ``request`` (:class:`~mskernel.toolchain.BuildRequest`) says which sources and flags built it.

    Example:
        >>> from mskernel.toolchain import build, Source
        >>> src = Source("m.cpp", "#include <pybind11/pybind11.h>\\n"
        ...              "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\\"five\\", [] { return 5; }); }")
        >>> mod = load_python_module(build("doc_artifact_of", [src], kind="pybind11"), "doc_artifact_of")
        >>> artifact_of(mod.five).request.sources[0].name
        'm.cpp'
        >>> artifact_of(len) is None
        True
    """
    name = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", None)
    if not isinstance(name, str):
        return None
    with _lock:
        return _artifacts.get(name)


def load_library(artifact: PathOrArtifact) -> ctypes.CDLL:
    """Open a plain shared library with ``ctypes.CDLL`` (``RTLD_LOCAL``), cached per path.

    Example:
        >>> from mskernel.toolchain import build, Source
        >>> lib = load_library(build("doc_lib", [Source("k.c", "int seven(void) { return 7; }")]))
        >>> lib.seven()
        7
    """
    path = _path_of(artifact)
    with _lock:
        lib = _libraries.get(path)
        if lib is None:
            try:
                lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
            except OSError as exc:
                m = re.search(r"undefined symbol: (\S+)", str(exc))
                if m:
                    text = f"undefined symbol {_demangle(m.group(1))!r}"
                    raise BuildError(Path(path).stem, [Diagnostic("error", SourceLocation(path, 0), text)],
                                     str(exc), "", None, summary=f"{Path(path).stem}: link error: {text}") from exc
                if _CORRUPT.search(str(exc)):
                    raise OSError(f"{path} is not a valid shared library ({exc}): the file was damaged after it "
                                  f"was built -> delete its cache entry {os.path.dirname(path)!r} and build "
                                  f"again") from exc
                raise
            _libraries[path] = lib
        return lib
