"""Which pybind11 a ``kind="pybind11"`` build compiles against: "lite" or "full".

**Lite** (the default for custom ops written the way MindSpore's tutorials write them): the
sources see ``mskernel/pybind11_lite.h`` -- pybind11's type casters, a lite ``PYBIND11_MODULE`` and
``m.def`` -- instead of ``<pybind11/pybind11.h>``, and link the support library
(:mod:`mskernel.toolchain.support`) that holds pybind11's runtime, compiled once. That runtime is
what most of a pybind11 module's compile time goes to (pybind11 3 emits it into every translation
unit that includes pybind11.h), so a lite op compiles in a fraction of the time.

**Full**: exactly what pybind11 modules always got (``pybind11.h`` + ``stl.h``, the pybind11
precompiled header). Chosen by a conservative scan of the sources and the user's own headers
(:func:`choose_mode`) whenever they use anything outside the lite subset:

* a ``#include <pybind11/...>`` of their own (the user asked for pybind11 itself);
* ``py::``/``pybind11::`` names outside :data:`LITE_NAMES` (``py::class_``, ``py::enum_``,
  ``py::init``, ``py::module_``, ``py::array_t``, ``py::print``, ...), ``using namespace py``;
* ``PYBIND11_*`` macros other than ``PYBIND11_MODULE(name, m)`` (two arguments) and
  ``PYBIND11_TYPE_CASTER``; ``.def_submodule(``/``.import(``/``.reload(`` calls;
* no mskernel header at all (then there is nothing to gain);
* ``-DMSKERNEL_FULL_PYBIND11`` in cflags (the explicit override), a pybind11 other than
  3.0.x/3.1.x (the versions whose ``cpp_function::initialize`` the lite header copies), or a
  compiler other than g++ (the only one tested).

A safety net catches what a text scan cannot: if a lite build fails and its first error mentions
pybind11 (``py::``, ``pybind11``, ``mskernel::lite``, ...), the build layer rebuilds in full mode and
reports an error only if that fails too (:func:`retry_in_full_mode`); the fallback is remembered
(:func:`remember_fallback`), so the next load of the same source goes straight to full mode.

Example:
    >>> ms_ext = [str(include_dir() / "ms_extension.h")]   # the headers the source includes
    >>> choose_mode(['#include "ms_extension.h"\\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("f", &f); }'],
    ...             [], headers=ms_ext)[0]
    'lite'
    >>> choose_mode(['#include "ms_extension.h"\\nPYBIND11_MODULE(n, m) { py::class_<A>(m, "A"); }'], [],
    ...             headers=ms_ext)
    ('full', 'uses py::class_')
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Optional, Sequence

from mskernel.toolchain.cache import ensure_private_dir
from mskernel.toolchain.diagnostics import BuildError
from mskernel.toolchain.pch import LITE_DEFINE
from mskernel.toolchain.discover import find_toolchain, include_dir

__all__ = ["LITE_NAMES", "API_HEADERS", "FULL_FLAG", "LITE_DEFINE", "choose_mode", "lite_supported", "pch_eligible",
           "retry_in_full_mode", "remember_fallback", "fell_back"]

FULL_FLAG = "MSKERNEL_FULL_PYBIND11"
SUPPORTED_PYBIND11 = ((3, 0), (3, 1))
# The headers that give a source all of mskernel's API (what the lite precompiled header holds).
API_HEADERS = ("ms_extension.h", "ms_extension/api.h", "mskernel/extension.h")

# py::X names that work in lite builds: declared in pybind11's cast.h/attr.h/pytypes.h/common.h with
# their code there too (or in the support library).
LITE_NAMES = frozenset("""
    arg arg_v kw_only pos_only doc name return_value_policy call_guard
    object handle none str bytes bytearray bool_ int_ float_ tuple list dict set frozenset anyset
    sequence iterable iterator slice ellipsis capsule memoryview buffer buffer_info function
    args kwargs type weakref staticmethod
    cast cast_error reference_cast_error reinterpret_borrow reinterpret_steal isinstance len hash
    hasattr getattr setattr delattr repr iter make_tuple make_iterator_ overload_cast const_
    error_already_set builtin_exception stop_iteration index_error key_error value_error type_error
    buffer_error import_error attribute_error set_error raise_from
    detail ssize_t literals gil_scoped_acquire gil_scoped_release
""".split()) - {"make_iterator_"}

_PY_NAME = re.compile(r"\b(?:py|pybind11)\s*::\s*(?:literals\s*::\s*)?([A-Za-z_]\w*)")
_ALIAS = re.compile(r"\bnamespace\s+(\w+)\s*=\s*(?:::\s*)?pybind11\s*;")
_USING_NS = re.compile(r"\busing\s+namespace\s+(?:py|pybind11)\b")
_MACRO = re.compile(r"\bPYBIND11_[A-Z0-9_]+")
_MODULE = re.compile(r"\bPYBIND11_MODULE\s*\(\s*(\w+)\s*,\s*(\w+)\s*(,?)")
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_FULL_METHOD = re.compile(r"\.\s*(def_submodule|import|reload|create_extension_module)\s*\(")
_FULL_FLAG_RE = re.compile(rf"-D{FULL_FLAG}(=.*)?")
_VERSION = re.compile(r"(\d+)\.(\d+)")
_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|error|warning)\b.*$", re.MULTILINE)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def lite_supported(cflags: Sequence[str] = ()) -> Optional[str]:
    """None when this toolchain and these flags allow lite builds, else why not.

    Example:
        >>> lite_supported(["-DMSKERNEL_FULL_PYBIND11"]) == lite_supported(["-D", "MSKERNEL_FULL_PYBIND11=1"])
        True
        >>> lite_supported(["-DMSKERNEL_FULL_PYBIND11"])
        '-DMSKERNEL_FULL_PYBIND11 was given'
    """
    flags = list(cflags)
    if any(_FULL_FLAG_RE.fullmatch(f) or (f == "-D" and _FULL_FLAG_RE.fullmatch("-D" + nxt))
           for f, nxt in zip(flags, flags[1:] + [""])):
        return f"-D{FULL_FLAG} was given"
    tc = find_toolchain()
    if not tc.pybind11_version:
        return "pybind11 not found"
    m = _VERSION.match(tc.pybind11_version)
    if not m or (int(m.group(1)), int(m.group(2))) not in SUPPORTED_PYBIND11:
        return f"pybind11 {tc.pybind11_version} (lite builds support 3.0.x and 3.1.x)"
    if not tc.is_gcc:
        return "the compiler is not g++"
    return None


def _strip_comments(text: str) -> str:
    """Source text without // and /* */ comments (string literals kept; good enough for a scan)."""
    return _COMMENT.sub(" ", text)


def _scan(text: str) -> Optional[str]:
    """Why this (user) text needs full pybind11, or None."""
    code = _strip_comments(text)
    for kind, spelling in _INCLUDE.findall(code):
        if spelling.strip().startswith("pybind11/"):
            return f"includes <{spelling.strip()}>"
    if _USING_NS.search(code):
        return "uses 'using namespace' for pybind11"
    names = list(_PY_NAME.finditer(code))
    for alias in set(_ALIAS.findall(code)) - {"py"}:  # namespace pb = pybind11; pb::class_<...>
        names += re.finditer(rf"\b{alias}\s*::\s*([A-Za-z_]\w*)", code)
    for m in names:
        if m.group(1) not in LITE_NAMES:
            return f"uses py::{m.group(1)}"
    for m in _MACRO.finditer(_CONDITIONAL.sub("", code)):  # testing a macro needs no pybind11
        if m.group(0) not in ("PYBIND11_MODULE", "PYBIND11_TYPE_CASTER"):
            return f"uses {m.group(0)}"
    for m in _MODULE.finditer(code):
        if m.group(3):
            return "passes options to PYBIND11_MODULE"
    hit = _FULL_METHOD.search(code)
    if hit:
        return f"calls module_::{hit.group(1)}"
    return None


def _inside(path: str, root: Path) -> bool:
    """``path`` (normalized, as scan_local_headers gives them) is under ``root`` (include_dir())."""
    return os.path.normpath(path).startswith(os.path.join(str(root), ""))


def choose_mode(texts: Sequence[str], cflags: Sequence[str], *, headers: Iterable[str] = (),
                requested: Optional[bool] = None) -> tuple[str, str]:
    """``("lite" | "full", reason)`` for a pybind11 build of these sources.

    ``texts`` are the sources' texts, ``headers`` the paths of the local headers they include
    (mskernel's own are skipped, the user's are scanned like sources). ``requested``: True forces
    lite (when supported), False forces full, None decides by the scan.

    Example:
        >>> choose_mode(["#include <pybind11/pybind11.h>"], [])
        ('full', 'includes <pybind11/pybind11.h>')
        >>> choose_mode(['#include "ms_extension.h"'], [], requested=False)
        ('full', 'requested')
    """
    if requested is False:
        return "full", "requested"
    why = lite_supported(cflags)
    if why:
        return "full", why
    inc = include_dir()
    user_headers = [h for h in headers if not _inside(h, inc)]
    uses_mskernel = any(_inside(h, inc) for h in headers)
    if requested is None:
        for text in texts:
            why = _scan(text)
            if why:
                return "full", why
        for path in user_headers:
            try:
                why = _scan(Path(path).read_text(errors="replace"))
            except OSError:
                continue
            if why:
                return "full", f"{why} (in {path})"
        if not uses_mskernel:
            return "full", "includes no mskernel header"
    return "lite", "the sources use only the lite pybind11 subset" if requested is None else "requested"


def pch_eligible(text: str, headers_by_spelling: dict) -> bool:
    """True when force-including ``mskernel/extension.h`` first cannot change what this source means:
    it includes one of :data:`API_HEADERS` (resolving to mskernel's own) and only system headers,
    blank lines and comments come before that include.

    Example:
        >>> pch_eligible('#include <string>\\n#include "ms_extension.h"\\nint x;', {})
        True
        >>> pch_eligible('#define N 4\\n#include "ms_extension.h"', {})
        False
    """
    code = _strip_comments(text)
    inc = include_dir()
    for line in code.splitlines():
        s = line.strip()
        if not s or s.startswith("#line") or s == "#pragma once":
            continue
        m = _INCLUDE.match(line)
        if not m:
            return False
        spelling = m.group(2).strip()
        resolved = headers_by_spelling.get(spelling)
        if spelling in API_HEADERS:
            return resolved is None or _inside(resolved, inc)
        if m.group(1) == '"' or resolved is not None:
            return False  # a local header before the API header: it may define macros
    return False


_ERROR_HINT = re.compile(r"\bpy\s*::|'py'|pybind11|PYBIND11|mskernel::lite|\bmodule_\b")


def retry_in_full_mode(err: BuildError) -> bool:
    """Whether a failed lite build may be a lite limitation: its first error mentions pybind11.

    Example:
        >>> from mskernel.toolchain.diagnostics import parse_diagnostics
        >>> e = BuildError("op", parse_diagnostics("a.cpp:3:5: error: 'print' is not a member of 'py'\\n"), "", "", None)
        >>> retry_in_full_mode(e)
        True
    """
    errors = [d for d in err.diagnostics if d.severity == "error"]
    if not errors:
        return False
    first = errors[0]
    files = [first.location.file] + [c.file for c in first.context]
    return bool(_ERROR_HINT.search(first.message)) or any("pybind11" in f for f in files)


def _marker(root: Path, entry_name: str) -> Path:
    return root / ".fallback" / entry_name


def remember_fallback(root: Path, lite_entry: str) -> None:
    """Record that the lite build with this entry name failed where full pybind11 works, so
    ``build()`` goes straight to full pybind11 for it next time (a hint, not an artifact: the
    entry name holds the key, which covers every input).

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> fell_back(root, "op-0123456789abcdef"), remember_fallback(root, "op-0123456789abcdef")
        (False, None)
        >>> fell_back(root, "op-0123456789abcdef")
        True
    """
    path = _marker(root, lite_entry)
    ensure_private_dir(path.parent)
    tmp = path.with_name(f"{path.name}.{os.getpid()}")
    tmp.write_text("this lite build failed; full pybind11 built it\n")
    os.replace(tmp, path)


def fell_back(root: Path, lite_entry: str) -> bool:
    """True when an earlier lite build with this entry name had to fall back to full pybind11.

    Example:
        >>> import tempfile
        >>> fell_back(Path(tempfile.mkdtemp()), "op-0123456789abcdef")
        False
    """
    return _marker(root, lite_entry).exists()

