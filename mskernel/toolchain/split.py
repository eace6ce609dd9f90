"""Split pybind11 builds: pybind11's runtime compiled once, every module's own code compiled alone.

Why: pybind11 3 defines its runtime -- the call dispatcher, ``cpp_function::initialize_generic``,
module creation, internals, error formatting -- as inline functions in its headers, and
``error_already_set::what()`` (the key function of a class with a vtable) is defined ``inline`` at the
end of ``pybind11.h``. So every translation unit that includes ``pybind11.h`` compiles that whole
runtime again (~120 KB of code at -O2 for a one-function module, most of its compile time), only for
the linker to keep one copy.

How (no pybind11 code is carried in mskernel's repository; everything is derived from the
*installed* pybind11, into the user's cache, when a build needs it):

1. **Derived headers** (:func:`split_headers`): a copy, in the cache, of the installed ``pybind11/``
   include tree, except for the few files named in :data:`RULES`. Those are rewritten by the
   rules, one per line: ``"declare"`` replaces a function's body with ``;`` (and drops its
   ``inline``), leaving a declaration; ``"drop"`` removes an out-of-class definition of a
   member function (its in-class declaration stays). A module compiled against the derived headers
   refers to those functions instead of compiling them -- and to nothing reachable only through
   them. The original definitions stay in the derived files, marked ``__attribute__((used))``, under
   ``#ifdef MSKERNEL_SPLIT_SUPPORT`` (:data:`SUPPORT_MACRO`), which only the support object's compile
   defines. Every rule must match exactly once, at a function definition; if one does not (a pybind11
   release that changed those functions), nothing is derived and builds use the plain headers
   ("full" mode), with the reason logged.
2. **The support object** (:mod:`mskernel.toolchain.support`): ``#include <pybind11/pybind11.h>`` of
   the derived headers compiled once with ``-DMSKERNEL_SPLIT_SUPPORT`` -- to the compiler, the
   installed headers with the rules' functions marked used, so g++ emits exactly those (the functions
   a module refers to) and what they call -- and ``-ffunction-sections``; each module links it
   statically with ``--gc-sections``, keeping only what it uses. The same code at the same
   optimization level as a full build, so calls cost the same. (It used to be every inline function
   of the plain headers, ``-fkeep-inline-functions``: ~7200 functions instead of ~400, and 16 s of CPU
   instead of ~4.5 s for the runtime's compile.)

A split module is an ordinary pybind11 module: every pybind11 API works (``py::class_``,
``numpy.h``, ...), behaviour is identical (``tests/cpp/test_cpp_split.py`` builds one feature-rich
source both ways and compares), and it is self-contained (no shared support library to find at
load time). Full mode is chosen instead when: ``-DMSKERNEL_FULL_PYBIND11`` is in the cflags, the
compiler is not g++ (split builds are made and tested for g++ only), pybind11 is missing, or the rules do
not apply. A split build that fails with an error mentioning pybind11 (e.g. a user's own ``-I``
to another pybind11) is rebuilt in full mode, and the fallback is remembered for that source.

Example:
    >>> h = split_headers()
    >>> (h.include / "pybind11" / "pybind11.h").is_file(), (h.include / "pybind11" / "attr.h").is_file()
    (True, True)
    >>> choose_mode(["-DMSKERNEL_FULL_PYBIND11"])
    ('full', '-DMSKERNEL_FULL_PYBIND11 was given')
"""
from __future__ import annotations

import logging
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence, Union

from mskernel._version import __version__
from mskernel.toolchain.cache import compute_key, ensure_private_dir, pch_dir, publish_once, sha256_bytes
from mskernel.toolchain.diagnostics import BuildError
from mskernel.toolchain.discover import find_toolchain

__all__ = ["RULES", "FULL_FLAG", "SUPPORT_MACRO", "SplitHeaders", "DeriveError", "derive", "split_headers",
           "split_unavailable", "choose_mode", "retry_in_full_mode", "remember_fallback", "fell_back"]

log = logging.getLogger("mskernel.toolchain")

FULL_FLAG = "MSKERNEL_FULL_PYBIND11"
SUPPORT_MACRO = "MSKERNEL_SPLIT_SUPPORT"  # defined only where the support object compiles the runtime's definitions
DERIVE_SECONDS = 2  # about how long deriving the headers takes, once per pybind11 install (shown while it runs)

# (file under the include root, where the definition starts (a regex), action). One rule per line.
# The functions are the roots of pybind11's runtime: with these declared, a module no longer
# compiles the dispatcher, function registration, module creation, internals or error formatting.
RULES: tuple[tuple[str, str, str], ...] = (
    ("pybind11/pybind11.h", r"\bvoid initialize_generic\(", "declare"),
    ("pybind11/pybind11.h", r"\bstatic PyObject \*\s*dispatcher\(", "declare"),
    ("pybind11/pybind11.h", r"\bstatic void destruct\(detail::function_record \*rec", "declare"),
    ("pybind11/pybind11.h", r"\binline PyObject \*get_cached_module\(", "declare"),
    ("pybind11/pybind11.h", r"\binline void cache_completed_module\(", "declare"),
    ("pybind11/pybind11.h", r"\binline PyObject \*cached_create_module\(", "declare"),
    ("pybind11/pybind11.h", r"\binline const char \*error_already_set::what\(\) const", "drop"),
    ("pybind11/pytypes.h", r"\bexplicit error_fetch_and_normalize\(const char \*called\)", "declare"),
    ("pybind11/pytypes.h", r"\bstd::string format_value_and_trace\(\) const", "declare"),
    ("pybind11/pytypes.h", r"\binline std::string error_string\(\)", "declare"),
    ("pybind11/detail/internals.h", r"\bPYBIND11_NOINLINE internals &get_internals\(\)", "declare"),
    ("pybind11/detail/internals.h", r"\binline void ensure_internals\(\)", "declare"),
)
_SPECIFIERS = re.compile(r"^(?:(?:inline|PYBIND11_NOINLINE)\s+)+")


class DeriveError(ValueError):
    """A rule of :data:`RULES` does not apply to the installed pybind11 (builds use full mode).

    Example:
        >>> derive("int f(int x);", [(r"inline int g\\(", "declare")])  # the anchor is not in the header
        Traceback (most recent call last):
        ...
        mskernel.toolchain.split.DeriveError: <header>: 'inline int g\\\\(' matches 0 times (expected once)
    """


@dataclass(frozen=True)
class SplitHeaders:
    """The derived include root (put it before pybind11's own: ``-isystem include``) and its key.

    Example:
        >>> h = split_headers()
        >>> len(h.key), h.include.name
        (64, 'include')
    """

    include: Path
    key: str


def _skip_literal(text: str, i: int) -> int:
    """Index of the closing quote of the string/char literal opening at ``text[i]``."""
    quote, j = text[i], i + 1
    if quote == '"' and text[i - 1:i] == "R":  # R"delim( ... )delim"
        delim = text[j:text.index("(", j)]
        return text.index(f"){delim}\"", j) + len(delim) + 1
    while text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j


def _body_end(text: str, start: int) -> int:
    """Index of the ``}`` that closes the ``{`` at ``text[start]`` (comments and literals skipped)."""
    depth, i = 0, start
    while i < len(text):
        if text.startswith("//", i):
            i = text.index("\n", i)
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 1
        elif text[i] in "\"'" and not (text[i] == "'" and text[i - 1].isalnum()):  # not a digit separator
            i = _skip_literal(text, i)
        elif text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise DeriveError("unbalanced braces")


def derive(text: str, rules: Sequence[tuple[str, str]], file: str = "<header>") -> str:
    """Apply ``(anchor, action)`` rules to one header's text (each anchor is looked up in ``text`` as given).

    Each definition a rule matches is kept for the support object, marked ``__attribute__((used))`` under
    ``#ifdef MSKERNEL_SPLIT_SUPPORT`` (g++ then emits it, and what it calls, without being asked for every
    inline function); every other compile sees a declaration in its place (``"declare"``) or nothing
    (``"drop"``: an out-of-class member definition whose in-class declaration stays).

    Raises:
        DeriveError: an anchor matches zero or several times, not at a function definition, or inside
            another rule's definition.

    Example:
        >>> print(derive("struct A {\\n  inline int f(int x) { return x; }\\n};", [(r"inline int f\\(", "declare")]))
        struct A {
        #ifdef MSKERNEL_SPLIT_SUPPORT
          __attribute__((used)) inline int f(int x) { return x; }
        #else
          int f(int x);
        #endif
        };
    """
    spans = []
    for anchor, action in rules:
        if action not in ("declare", "drop"):
            raise ValueError(f"unknown rule action {action!r} (expected 'declare' or 'drop')")
        found = list(re.finditer(anchor, text))
        if len(found) != 1:
            raise DeriveError(f"{file}: {anchor!r} matches {len(found)} times (expected once)")
        start = found[0].start()
        brace = text.find("{", found[0].end())
        if brace < 0 or ";" in text[start:brace]:
            raise DeriveError(f"{file}: {anchor!r} does not start a function definition")
        spans.append((start, brace, _body_end(text, brace), action, anchor))
    out, pos = [], 0
    for start, brace, end, action, anchor in sorted(spans):
        if start < pos:
            raise DeriveError(f"{file}: {anchor!r} is inside another rule's definition")
        line_start = text.rfind("\n", 0, start) + 1
        indent = text[line_start:start]
        if indent.strip():  # something precedes the definition on its line: it stays in front of both branches
            out.append(text[pos:start] + "\n")
            indent = ""
        else:
            out.append(text[pos:line_start])
        out.append(f"#ifdef {SUPPORT_MACRO}\n{indent}__attribute__((used)) {text[start:end + 1]}\n")
        if action == "declare":
            out.append(f"#else\n{indent}{_SPECIFIERS.sub('', text[start:brace].rstrip())};\n")
        out.append("#endif")
        pos = end + 1
        if not text.startswith("\n", pos):
            out.append("\n")  # what followed the definition on its line
    out.append(text[pos:])
    return "".join(out)


def _rules_by_file() -> dict[str, list[tuple[str, str]]]:
    by_file: dict[str, list[tuple[str, str]]] = {}
    for file, anchor, action in RULES:
        by_file.setdefault(file, []).append((anchor, action))
    return by_file


def _write_tree(source_root: Path, dest: Path, derived: dict[str, str]) -> None:
    """Copy ``source_root/pybind11`` under ``dest``, writing the ``derived`` files instead of theirs.

    Copies, not symlinks: g++ may replace a system header's path by its canonical one (when that
    is shorter), and a symlinked header would then include its neighbours from the installed tree
    -- the unmodified headers -- beside the derived ones.
    """
    for path in sorted((source_root / "pybind11").rglob("*")):
        rel = path.relative_to(source_root).as_posix()
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            out.mkdir(exist_ok=True)
        elif rel in derived:
            out.write_text(derived[rel])
        else:
            shutil.copyfile(path, out)


def _tree_signature(source_root: Path) -> list:
    """(path, size, mtime) of every file in the installed tree: a reinstall gives new copies."""
    out = []
    for path in sorted((source_root / "pybind11").rglob("*")):
        if path.is_file():
            st = path.stat()
            out.append((path.relative_to(source_root).as_posix(), st.st_size, st.st_mtime_ns))
    return out


_memo: dict[tuple, Union[SplitHeaders, str]] = {}


def _split_headers(pybind11_include: Path, root: Path,
                   on_stage: Optional[Callable[[str], None]] = None) -> Union[SplitHeaders, str]:
    """The derived headers for this pybind11 install (created on first use: ``on_stage`` hears of it),
    or why there are none."""
    by_file = _rules_by_file()
    try:
        texts = {f: (pybind11_include / f).read_text() for f in by_file}
    except OSError as exc:
        return f"pybind11's headers do not fit mskernel's split rules ({exc})"
    key = compute_key({"v": 3, "mskernel": __version__, "rules": RULES, "root": str(pybind11_include),
                       "texts": {f: sha256_bytes(t.encode()) for f, t in texts.items()},
                       "tree": _tree_signature(pybind11_include)})
    entry = root / f"pybind11-split-{key[:16]}"
    headers = SplitHeaders(entry / "include", key)
    if (entry / "complete").exists():  # derived (and checked) from exactly these texts before
        return headers
    if on_stage is not None:
        on_stage(f"preparing headers (once; usually ~{DERIVE_SECONDS} s)")
    try:
        derived = {f: derive(texts[f], rules, f) for f, rules in by_file.items()}
    except DeriveError as exc:
        return f"pybind11's headers do not fit mskernel's split rules ({exc})"
    publish_once(root, entry, lambda tmp: _write_tree(pybind11_include, tmp / "include", derived),
                 f"{pybind11_include} by mskernel.toolchain.split")
    log.debug("derived split pybind11 headers in %s", entry)
    return headers


def split_unavailable(cflags: Sequence[str] = (), on_stage: Optional[Callable[[str], None]] = None) -> Optional[str]:
    """None when split builds can be used with these cflags, else why not (``on_stage``: see
    :func:`split_headers_or_reason`).

    Example:
        >>> split_unavailable() is None
        True
        >>> split_unavailable(["-D", "MSKERNEL_FULL_PYBIND11=1"])
        '-DMSKERNEL_FULL_PYBIND11 was given'
    """
    flags = list(cflags)
    full = re.compile(rf"-D{FULL_FLAG}(=.*)?")
    if any(full.fullmatch(f) or (f == "-D" and full.fullmatch("-D" + nxt)) for f, nxt in zip(flags, flags[1:] + [""])):
        return f"-D{FULL_FLAG} was given"
    tc = find_toolchain()
    if not tc.pybind11_include:
        return "pybind11 not found"
    if not tc.is_gcc:
        return "the compiler is not g++ (split builds are made and tested for g++ only)"
    found = split_headers_or_reason(on_stage)
    return found if isinstance(found, str) else None


def split_headers_or_reason(on_stage: Optional[Callable[[str], None]] = None) -> Union[SplitHeaders, str]:
    """:func:`split_headers`, or the reason there are none (memoized per process and cache root).
    ``on_stage(text)`` is called when the headers have to be derived first (once per pybind11 install)."""
    tc = find_toolchain().require("pybind11")
    memo_key = (str(tc.pybind11_include), str(pch_dir()))
    if memo_key not in _memo:
        _memo[memo_key] = _split_headers(Path(tc.pybind11_include), ensure_private_dir(pch_dir()), on_stage)
    return _memo[memo_key]


def split_headers() -> SplitHeaders:
    """The derived headers of the installed pybind11 (created in the cache on first use).

    Raises:
        DeriveError: the rules do not apply to this pybind11 (builds use full mode).

    Example:
        >>> (split_headers().include / "pybind11" / "stl.h").parent.name
        'pybind11'
    """
    found = split_headers_or_reason()
    if isinstance(found, str):
        raise DeriveError(found)
    return found


def choose_mode(cflags: Sequence[str], requested: Optional[bool] = None,
                on_stage: Optional[Callable[[str], None]] = None) -> tuple[str, str]:
    """``("split" | "full", reason)`` for a pybind11 build with these cflags.

    ``requested``: False forces full mode, True or None use split mode where available. ``on_stage``
    hears when the split headers have to be derived first.

    Example:
        >>> choose_mode([])
        ('split', "pybind11's runtime comes from the support object")
        >>> choose_mode([], requested=False)
        ('full', 'requested')
    """
    if requested is False:
        return "full", "requested"
    why = split_unavailable(cflags, on_stage)
    if why:
        return "full", why
    return "split", "pybind11's runtime comes from the support object"


_ERROR_HINT = re.compile(r"\bpy\s*::|'py'|pybind11|PYBIND11|\bmodule_\b")


def retry_in_full_mode(err: BuildError) -> bool:
    """Whether a failed split build may be a split limitation: its first error mentions pybind11.

    Example:
        >>> from mskernel.toolchain.diagnostics import parse_diagnostics
        >>> diags = parse_diagnostics("a.cpp:3:5: error: 'print' is not a member of 'py'\\n")
        >>> e = BuildError("op", diags, "", "", None)
        >>> retry_in_full_mode(e)
        True
    """
    errors = [d for d in err.diagnostics if d.severity == "error"]
    if not errors:
        return "pybind11" in err.log and "undefined reference" in err.log
    first = errors[0]
    files = [first.location.file] + [c.file for c in first.context]
    return bool(_ERROR_HINT.search(first.message)) or any("pybind11" in f for f in files)


def _marker(root: Path, entry_name: str) -> Path:
    return root / ".fallback" / entry_name


def remember_fallback(root: Path, split_entry: str) -> None:
    """Record that the split build with this entry name failed where full pybind11 works, so
    ``build()`` goes straight to full mode for it next time (a hint, not an artifact: the entry
    name holds the key, which covers every input).

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> fell_back(root, "op-0123456789abcdef"), remember_fallback(root, "op-0123456789abcdef")
        (False, None)
        >>> fell_back(root, "op-0123456789abcdef")
        True
    """
    path = _marker(root, split_entry)
    ensure_private_dir(path.parent)
    tmp = path.with_name(f"{path.name}.{os.getpid()}")
    tmp.write_text("this split build failed; full pybind11 built it\n")
    os.replace(tmp, path)


def fell_back(root: Path, split_entry: str) -> bool:
    """True when an earlier split build with this entry name had to fall back to full pybind11.

    Example:
        >>> import tempfile
        >>> fell_back(Path(tempfile.mkdtemp()), "op-0123456789abcdef")
        False
    """
    return _marker(root, split_entry).exists()
