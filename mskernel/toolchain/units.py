"""Sources as a build compiles them: each normalised into a :class:`Unit` (its text, language and include
directory, from a path or an inline :class:`~mskernel.toolchain.Source`), and written into the work
directory as a snapshot behind a ``#line 1 "<name>"`` directive (:func:`write_sources`), so diagnostics show
the caller's name and line numbers and the compiled text is exactly the text that was hashed.

Example:
    >>> u = as_unit(Source("<cell 1>", "int f();"), 0)
    >>> u.display, u.lang
    ('<cell 1>', 'c++')
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence, Union

from mskernel.toolchain.artifact import Source
from mskernel.toolchain.ccache import needs_own_dir
from mskernel.toolchain.ninja import CompileUnit

__all__ = ["Unit", "as_unit", "write_sources", "HEADER_SUFFIXES"]

HEADER_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp"}


@dataclass
class Unit:
    """One source of a build: what diagnostics call it, its text, language and include directory."""

    display: str
    text: str
    lang: str  # "c", "c++" or "header"
    directory: str
    headers: list = field(default_factory=list)
    header_paths: dict = field(default_factory=dict)  # spelling -> resolved path
    sha: str = ""
    pch_ok: bool = False  # split builds: may use the precompiled header with mskernel's API


def as_unit(src: Union[str, os.PathLike, Source], index: int) -> Unit:
    if isinstance(src, Source):
        if not isinstance(src.name, str) or not isinstance(src.text, str):
            raise TypeError(f"Source(name, text) needs two strings, but got name={type(src.name).__name__}, "
                            f"text={type(src.text).__name__}")
        display, text = src.name, src.text
        if src.directory is not None:
            directory = os.path.abspath(src.directory)
        else:
            parent = os.path.dirname(os.path.abspath(display))
            directory = parent if os.path.isdir(parent) else os.getcwd()
    elif isinstance(src, (str, os.PathLike)):
        path = os.path.abspath(os.fspath(src))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"source #{index} not found: {os.fspath(src)!r} (build() takes paths of "
                                    f"existing files or Source(name, text) objects for inline code)")
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="surrogateescape")
        display, directory = path, os.path.dirname(path)
    else:
        raise TypeError(f"source #{index} must be a path (str or os.PathLike) or a Source, "
                        f"but got {type(src).__name__}")
    if "\n" in display or "\0" in display:
        raise ValueError(f"source name must be a single line, but got {display!r}")
    suffix = os.path.splitext(display.rstrip(">"))[1]
    if suffix == ".cu":
        raise ValueError(f"{display}: CUDA sources cannot be built; mskernel compiles for the CPU only")
    lang = "c" if suffix == ".c" else "header" if suffix in HEADER_SUFFIXES else "c++"
    return Unit(display, text, lang, directory)


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def write_sources(workdir: Path, units: Sequence[Unit], pch_flags: dict,
                   own_dir_if_needed: bool = False) -> list[CompileUnit]:
    """Write each source's snapshot (``#line 1 "<name>"`` + text) and describe its compile
    (C++ sources get the ``-include`` flags of their PCH, ``pch_flags[unit.pch_ok]``; ``-iquote`` of their
    own directory, with ``own_dir_if_needed`` only if it can matter: ``ccache.needs_own_dir``)."""
    out = []
    for u in units:
        if u.lang == "header":
            continue
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", os.path.splitext(os.path.basename(u.display.strip("<>")))[0])[:40]
        stem = stem.strip("._") or "source"
        snap = workdir / "src" / f"{stem}-{u.sha[:12]}{'.c' if u.lang == 'c' else '.cpp'}"
        if not snap.exists():
            tmp = snap.with_name(snap.name + f".{os.getpid()}")
            try:
                with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(f'#line 1 "{_c_string(u.display)}"\n{u.text}')
                    if not u.text.endswith("\n"):
                        f.write("\n")
                os.replace(tmp, snap)
            except BaseException:  # e.g. a full disk: no half-written snapshot left behind
                tmp.unlink(missing_ok=True)
                raise
        extra = tuple(pch_flags.get(u.pch_ok, ())) if u.lang == "c++" else ()
        own = ("-iquote", u.directory)
        if own_dir_if_needed and not needs_own_dir([u.text, *map(_read_text, u.header_paths.values())], u.directory):
            own = ()
        out.append(CompileUnit(str(snap), f"obj/{snap.stem}.o", u.lang, own + extra))
    return out


def _read_text(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
