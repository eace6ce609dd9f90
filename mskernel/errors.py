"""Error types shared by every layer of mskernel.

The lowest module of the package: it imports nothing from mskernel. Errors raised
because of *user code* (a hybrid kernel, a C++ source, a notebook cell) carry a
:class:`SourceLocation`, so tools (the ``%%custom_op`` magic, tracebacks) can point
at the user's line.

Example:
    >>> loc = SourceLocation("kernel.py", 3, 5, "    while i < 3:")
    >>> str(loc)
    'kernel.py:3:5'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class SourceLocation:
    """A position in user code: file (or notebook cell name), 1-based line and column.

    Example:
        >>> SourceLocation("<cell 2>", 4, 1).file
        '<cell 2>'
    """

    file: str
    line: int
    col: int = 0
    source_line: Optional[str] = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.col else f"{self.file}:{self.line}"


class MskernelError(Exception):
    """Base class of mskernel's own error types.

    Example:
        >>> isinstance(UserCodeError("bad", None), MskernelError)
        True
    """


class UserCodeError(MskernelError):
    """An error located in the user's code; ``location`` says where (may be None).

    Example:
        >>> e = UserCodeError("x is undefined", SourceLocation("k.py", 2, 3, "y = x"))
        >>> e.location.line
        2
    """

    def __init__(self, message: str, location: Optional[SourceLocation] = None):
        super().__init__(message)
        self.message = message
        self.location = location


class RefusedError(MskernelError, NotImplementedError):
    """A MindSpore name mskernel has only to refuse it: what it does cannot happen on a CPU in one process
    (it needs a device, MindSpore's graph compiler or another process). ``name`` is MindSpore's dotted name,
    ``reason`` says why; the refusal table is :mod:`mskernel.refusals`.

    Example:
        >>> e = RefusedError("mindspore.ops.Send", "point-to-point communication needs a peer process")
        >>> print(e)
        mindspore.ops.Send cannot run in mskernel: point-to-point communication needs a peer process
        >>> isinstance(e, NotImplementedError), e.name
        (True, 'mindspore.ops.Send')
    """

    def __init__(self, name: str, reason: str):
        super().__init__(f"{name} cannot run in mskernel: {reason}")
        self.name = name
        self.reason = reason
