"""Sanitizer reports -> :class:`~mskernel.kernelcheck.Finding` s, located in the op's own source.

AddressSanitizer's reports (one per run: it stops at the first memory error) and UndefinedBehaviorSanitizer's
``file:line:col: runtime error: ...`` lines are read from a checked child's stderr (see :mod:`.cpp`). Each
becomes a finding at the first stack frame in one of the op's sources -- a C++ cell's line numbers are the
notebook's -- with a one-line summary (what was accessed, how far past which block, where it was freed) and
the raw report in ``.detail``.

Example:
    >>> report = ("<cell f>:3:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be "
    ...           "represented in type 'int'\\n"
    ...           "    #0 0x7f00 in f(int) <cell f>:3\\n")
    >>> [f] = parse_reports(report, {"<cell f>": "\\nint f(int x) {\\n  return x + 1;\\n}\\n"})
    >>> f.kind, f.line
    ('undefined-behaviour', 3)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from mskernel.kernelcheck.report import Finding

__all__ = ["parse_reports"]

_FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-fA-F]+ (?:in (.*)|\((.*)\))$")
_ASAN_START = re.compile(r"^==(\d+)==ERROR: AddressSanitizer: (\S+)(.*)$")
_UBSAN = re.compile(r"^(.*?):(\d+):(\d+): runtime error: (.*)$")
_ACCESS = re.compile(r"^(READ|WRITE) of size (\d+) at")
_REGION = re.compile(r"is located (\d+) bytes? (to the right of|to the left of|inside of) (\d+)-byte region")
_STACK_VAR = re.compile(r"\[(\d+), (\d+)\) '([^']*)'(?: \(line (\d+)\))? <== Memory access at offset \d+ "
                        r"(overflows|underflows|partially overflows|partially underflows|is inside) this variable")


@dataclass
class _Frame:
    function: str
    file: Optional[str]  # a user source's name when the frame is in one, else None
    line: Optional[int]


def _frame(text: str, sources: Sequence[str]) -> Optional[_Frame]:
    m = _FRAME.match(text)
    if m is None:
        return None
    where = (m.group(2) or m.group(3) or "").rstrip()
    loc = re.search(r":(\d+)(?::\d+)?$", where)
    if loc is not None:
        head = where[:loc.start()]
        for name in sources:
            if head == name or head.endswith("/" + name) or head.endswith(" " + name):
                return _Frame(head[:len(head) - len(name)].strip(), name, int(loc.group(1)))
    return _Frame(where, None, None)


def _stack(lines: list[str], start: int, sources: Sequence[str]) -> tuple[list[_Frame], int]:
    """The frames from ``lines[start]`` on (stops at the first line that is not a frame)."""
    frames, i = [], start
    while i < len(lines):
        f = _frame(lines[i], sources)
        if f is None:
            break
        frames.append(f)
        i += 1
    return frames, i


def _user(frames: list[_Frame]) -> Optional[_Frame]:
    return next((f for f in frames if f.file is not None), None)


def _source_line(sources: dict[str, str], file: Optional[str], line: Optional[int]) -> Optional[str]:
    if file is None or line is None:
        return None
    lines = sources.get(file, "").splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def _asan_message(bug: str, rest: str, block: list[str], sources: Sequence[str]) -> str:
    """A one-line summary of an ASan report (``block`` is its lines)."""
    access = next((m for m in map(_ACCESS.match, block) if m), None)
    what = f"{access.group(1)} of size {access.group(2)}" if access else ""
    region = next((m for m in map(_REGION.search, block) if m), None)
    freed = None
    for i, line in enumerate(block):
        if line.strip().startswith("freed by thread"):
            freed = _user(_stack(block, i + 1, sources)[0])
    if bug == "SEGV" or bug.startswith("SEGV"):
        cause = next((re.search(r"caused by a (\w+) memory access", b) for b in block
                      if "caused by a" in b), None)
        addr = re.search(r"on unknown address (0x[0-9a-fA-F]+)", rest)
        zero = any("zero page" in b for b in block)
        text = f"SEGV: {cause.group(1) if cause else 'a'} memory access at address " \
               f"{hex(int(addr.group(1), 16)) if addr else '?'}"
        return text + (" (a null pointer)" if zero else "")
    if "double-free" in bug:
        tail = f" (freed before at {freed.file}:{freed.line})" if freed else ""
        size = f" of a {region.group(3)}-byte block" if region else ""
        return f"double-free{size}{tail}"
    parts = [f"{bug}: {what}" if what else bug]
    if region is not None:
        n, side, size = int(region.group(1)), region.group(2), region.group(3)
        if side == "to the right of":
            parts.append(f"past the end of a {size}-byte block" if n == 0 else
                         f"{n} bytes past the end of a {size}-byte block")
        elif side == "to the left of":
            parts.append(f"{n} bytes before the start of a {size}-byte block")
        else:
            parts.append(f"at byte {n} of a {size}-byte block")
        if freed is not None:
            parts.append(f"freed at {freed.file}:{freed.line}")
    var = next((m for m in map(_STACK_VAR.search, block) if m), None)
    if var is not None:
        verb = {"overflows": "past the end of", "underflows": "before the start of"}.get(var.group(5), "at")
        size = int(var.group(2)) - int(var.group(1))
        at = f" (line {var.group(4)})" if var.group(4) else ""
        parts.append(f"{verb} the {size}-byte local variable '{var.group(3)}'{at}")
    return " ".join(parts)


def parse_reports(text: str, sources: dict[str, str]) -> list[Finding]:
    """The :class:`Finding` s in sanitizer output ``text`` (a child's stderr); ``sources`` maps each source
    name, as the reports' stack frames show it, to its text (for ``.source``).

    Example:
        >>> report = ("<cell f>:3:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be "
        ...           "represented in type 'int'\\n"
        ...           "    #0 0x7f00 in f(int) <cell f>:3\\n")
        >>> [f] = parse_reports(report, {"<cell f>": "\\nint f(int x) {\\n  return x + 1;\\n}\\n"})
        >>> f.kind, f.line, f.source
        ('undefined-behaviour', 3, '  return x + 1;')
        >>> f.message
        "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
    """
    names = sorted(sources, key=len, reverse=True)
    lines = text.splitlines()
    found: dict[tuple, Finding] = {}

    def add(kind: str, frame: Optional[_Frame], message: str, detail: str) -> None:
        file, line = (frame.file, frame.line) if frame else (None, None)
        key = (kind, file, line, message)
        if key in found:
            old = found[key]
            found[key] = Finding(kind, None, None, line, message, file=file, count=old.count + 1,
                                 source=old.source, detail=old.detail)
        else:
            found[key] = Finding(kind, None, None, line, message, file=file,
                                 source=_source_line(sources, file, line), detail=detail)

    i = 0
    while i < len(lines):
        m = _ASAN_START.match(lines[i])
        if m is not None:
            end = i + 1
            while end < len(lines) and not lines[end].startswith(f"=={m.group(1)}==ABORTING"):
                end += 1
            block = lines[i:end + 1]
            first = next((k for k, b in enumerate(block) if _FRAME.match(b)), None)
            frames = _stack(block, first, names)[0] if first is not None else []
            add("address", _user(frames), _asan_message(m.group(2), m.group(3), block, names), "\n".join(block))
            i = end + 1
            continue
        u = _UBSAN.match(lines[i])
        if u is not None:
            frames, end = _stack(lines, i + 1, names)
            here = _frame(f"    #0 0x0 in ? {u.group(1)}:{u.group(2)}", names)
            frame = here if here is not None and here.file is not None else _user(frames)
            add("undefined-behaviour", frame, u.group(4).strip(), "\n".join(lines[i:end]))
            i = max(end, i + 1)
            continue
        i += 1
    return list(found.values())
