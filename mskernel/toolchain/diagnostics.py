"""Compiler and linker diagnostics: parse gcc/g++/ld output and point at the user's code.

:func:`parse_diagnostics` turns a build log into :class:`Diagnostic` objects (errors,
warnings, notes, ``In file included from`` chains, ``required from here`` context, linker
``undefined reference`` errors). :class:`BuildError` carries the full log, the failing
command, every diagnostic and the location of the first error in *user* code, with the
offending source line filled in (from an inline source's text, honouring ``#line``
directives, or from the file on disk).

Example:
    >>> log = "<cell 3>:2:9: error: 'y' was not declared in this scope\\n"
    >>> [d] = parse_diagnostics(log)
    >>> (d.severity, d.location.file, d.location.line, d.location.col)
    ('error', '<cell 3>', 2, 9)
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence

from mskernel.errors import SourceLocation, UserCodeError

__all__ = ["Diagnostic", "BuildError", "parse_diagnostics", "line_table", "first_user_error"]


@dataclass(frozen=True)
class Diagnostic:
    """One compiler/linker message.

    ``severity`` is ``'error'``, ``'warning'`` or ``'note'`` (gcc's ``fatal error`` is an
    ``'error'``). ``location.line`` is 0 when the tool gave no line (driver or linker
    messages). ``context`` holds the locations gcc printed before the message
    (``In file included from``, ``required from here``), outermost first.

    Example:
        >>> d = Diagnostic("warning", SourceLocation("k.cpp", 3, 5), "unused variable 'x'")
        >>> str(d)
        "k.cpp:3:5: warning: unused variable 'x'"
    """

    severity: str
    location: SourceLocation
    message: str
    context: tuple[SourceLocation, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"


_DIAG = re.compile(
    r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?:(?P<col>\d+):)? "
    r"(?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_TOOL_DIAG = re.compile(r"^(?P<file>[^:\s]+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_INCLUDED = re.compile(r"^(?:In file included from|\s+from) (?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?[:,]$")
_REQUIRED = re.compile(r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?:(?P<col>\d+):)?\s+(?:required|in) .*$")
_LD_FUNC = re.compile(r"^(?:.*/)?ld(?:\.\w+)?: (?P<obj>.+?): in function [`'‘](?P<func>.*)['’]:$")
_LD_UNDEF = re.compile(
    r"^(?:(?:.*/)?ld(?:\.\w+)?: )?(?P<where>.+?):(?:(?P<line>\d+)|\(\.[^)]*\)): "
    r"(?P<msg>undefined reference to .*)$")
_LD_OTHER = re.compile(r"^(?:.*/)?ld(?:\.\w+)?: (?P<msg>.*)$")


def parse_diagnostics(log: str) -> list[Diagnostic]:
    """Parse gcc/g++/clang/ld output into diagnostics, in order.

    Lines that are not diagnostics (caret lines, source excerpts, ninja status, ``In
    function`` headers) are skipped; include chains and instantiation context become the
    ``context`` of the next diagnostic.

    Example:
        >>> log = ("In file included from k.cpp:1:\\n"
        ...        "inc.h:4:3: error: expected ';' before '}' token\\n")
        >>> d = parse_diagnostics(log)[0]
        >>> d.location.file, [c.file for c in d.context]
        ('inc.h', ['k.cpp'])
    """
    out: list[Diagnostic] = []
    context: list[SourceLocation] = []
    ld_function: Optional[str] = None
    for raw in log.splitlines():
        line = raw.rstrip("\r")
        m = _INCLUDED.match(line)
        if m:
            context.append(_loc(m))
            continue
        m = _DIAG.match(line)
        if m:
            sev = "error" if m["sev"] == "fatal error" else m["sev"]
            out.append(Diagnostic(sev, _loc(m), m["msg"].strip(), tuple(context)))
            if sev != "note":
                context = []
            continue
        m = _REQUIRED.match(line)
        if m:
            context.append(_loc(m))
            continue
        m = _LD_FUNC.match(line)
        if m:
            ld_function = m["func"]
            continue
        m = _LD_UNDEF.match(line)
        if m:
            where = m["where"]
            msg = m["msg"]
            if ld_function:
                msg += f" (in function '{ld_function}')"
            out.append(Diagnostic("error", SourceLocation(where, int(m["line"] or 0)), msg))
            continue
        m = _TOOL_DIAG.match(line)
        if m:
            sev = "error" if m["sev"] == "fatal error" else m["sev"]
            if not (m["file"] == "collect2" and out and out[-1].severity == "error"):
                out.append(Diagnostic(sev, SourceLocation(m["file"], 0), m["msg"].strip()))
            continue
        m = _LD_OTHER.match(line)
        if m and "in function" not in line:
            msg = m["msg"].strip()
            sev = "warning" if msg.startswith("warning:") else "error"
            out.append(Diagnostic(sev, SourceLocation("ld", 0), msg.removeprefix("warning:").strip()))
            continue
    return out


def _loc(m: re.Match) -> SourceLocation:
    col = m.groupdict().get("col")
    return SourceLocation(m["file"], int(m["line"]), int(col) if col else 0)


_LINE_DIRECTIVE = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:[^"\\]|\\.)*)")?')


def line_table(name: str, text: str, first_line: int = 1) -> dict[tuple[str, int], str]:
    """Map ``(file, line)`` as the compiler reports them to the text of that line.

    ``text`` is compiled as if it started with ``#line first_line "name"``; ``#line`` directives
    inside the text (e.g. from a notebook magic) are followed.

    Example:
        >>> t = line_table("<cell 1>", 'int a;\\n#line 10 "nb.ipynb"\\nint b;')
        >>> t[("<cell 1>", 1)], t[("nb.ipynb", 10)]
        ('int a;', 'int b;')
    """
    table: dict[tuple[str, int], str] = {}
    cur_file, cur_line = name, first_line
    for line in text.splitlines():
        m = _LINE_DIRECTIVE.match(line)
        if m and re.match(r"^\s*#\s*line\b", line):
            cur_line = int(m.group(1))
            if m.group(2) is not None:
                cur_file = m.group(2).encode().decode("unicode_escape")
            continue
        table[(cur_file, cur_line)] = line
        cur_line += 1
    return table


def _source_line(loc: SourceLocation, tables: Sequence[Mapping[tuple[str, int], str]]) -> Optional[str]:
    for table in tables:
        text = table.get((loc.file, loc.line))
        if text is not None:
            return text
    if loc.line > 0 and os.path.isfile(loc.file):
        try:
            with open(loc.file, encoding="utf-8", errors="replace") as f:
                for i, text in enumerate(f, 1):
                    if i == loc.line:
                        return text.rstrip("\n")
        except OSError:
            return None
    return None


def _char_col(byte_col: int, source_line: Optional[str]) -> int:
    """gcc reports byte columns (-fdiagnostics-column-unit=byte); convert to a 1-based character column."""
    if not source_line or byte_col <= 1:
        return byte_col
    prefix = source_line.encode("utf-8")[: byte_col - 1]
    return len(prefix.decode("utf-8", errors="ignore")) + 1


def first_user_error(diagnostics: Iterable[Diagnostic], user_files: Iterable[str],
                     tables: Sequence[Mapping[tuple[str, int], str]] = ()) -> Optional[SourceLocation]:
    """Location of the first error, mapped into user code, with ``source_line`` filled.

    The first ``error`` diagnostic wins. If it lies outside the user's files (say inside a
    pybind11 header), the innermost user-file location of its context (``required from
    here``, ``In file included from``) is used instead. Tool/linker errors without a line
    give None.

    Example:
        >>> d = parse_diagnostics("k.cpp:2:5: error: boom\\n")
        >>> first_user_error(d, ["k.cpp"], [{("k.cpp", 2): "int x = ;"}]).source_line
        'int x = ;'
    """
    users = {os.path.normpath(f) for f in user_files}
    for d in diagnostics:
        if d.severity != "error":
            continue
        loc = d.location
        if loc.line <= 0:
            return None
        if os.path.normpath(loc.file) not in users:
            for ctx in reversed(d.context):
                if os.path.normpath(ctx.file) in users and ctx.line > 0:
                    loc = ctx
                    break
        text = _source_line(loc, tables)
        return SourceLocation(loc.file, loc.line, _char_col(loc.col, text), text)
    return None


class BuildError(UserCodeError, RuntimeError):
    """A compile or link failure, pointing at the user's code.

    Attributes:
        log: the full compiler + ninja output.
        command: the failing command line ('' when unknown).
        location: SourceLocation of the first error in the user's file (``source_line``
            filled), or None (e.g. a linker error).
        diagnostics: every parsed :class:`Diagnostic`.
        name: the op/module name being built.
        disk_full: True when the build ran out of disk space (the message then says which directory
            is full and how to move it; nothing was built to retry).

    ``str(e)`` is short: the first error with its line and a caret, then a hint that
    ``e.log`` holds everything.

    Example:
        >>> loc = SourceLocation("<cell 1>", 2, 9, "int y = x;")
        >>> e = BuildError("op", [Diagnostic("error", loc, "'x' was not declared")], "log", "g++ ...", loc)
        >>> print(str(e).splitlines()[0])
        op: compile error at <cell 1>:2:9: 'x' was not declared
    """

    disk_full = False

    def __init__(self, name: str, diagnostics: Sequence[Diagnostic], log: str, command: str,
                 location: Optional[SourceLocation], summary: Optional[str] = None):
        self.name = name
        self.diagnostics = list(diagnostics)
        self.log = log
        self.command = command
        message = summary or _summarize(name, self.diagnostics, location, log)
        super().__init__(message, location)


def _summarize(name: str, diagnostics: Sequence[Diagnostic], location: Optional[SourceLocation],
               log: str) -> str:
    errors = [d for d in diagnostics if d.severity == "error"]
    warnings = sum(d.severity == "warning" for d in diagnostics)
    first = errors[0] if errors else None
    lines: list[str]
    if first is not None and location is not None:
        lines = [f"{name}: compile error at {location}: {first.message}"]
        if location.source_line is not None:
            src = location.source_line
            caret_prefix = "".join(c if c == "\t" else " " for c in src[: max(location.col - 1, 0)])
            lines += [f"  {src}", f"  {caret_prefix}^"]
    elif first is not None:
        kind = "link error" if "undefined reference" in first.message or first.location.file in (
            "ld", "collect2") else "build error"
        where = f" in {first.location.file}" if first.location.file not in ("ld", "collect2", "cc1plus",
                                                                              "cc1", "g++", "gcc") else ""
        lines = [f"{name}: {kind}{where}: {first.message}"]
    else:
        tail = [ln for ln in log.strip().splitlines() if ln.strip()][-5:]
        lines = [f"{name}: build failed"] + [f"  {ln}" for ln in tail]
    more = len(errors) - 1
    counts = []
    if more > 0:
        counts.append(f"{more} more error{'s' if more > 1 else ''}")
    if warnings:
        counts.append(f"{warnings} warning{'s' if warnings > 1 else ''}")
    extra = f" ({', '.join(counts)})" if counts else ""
    lines.append(f"The full compiler output{extra} is in the exception's .log attribute.")
    return "\n".join(lines)
