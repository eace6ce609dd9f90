"""Error types of the hybrid DSL compiler, and the "did you mean" hint of its messages.

:class:`HybridError` is the one error raised for a rule violation in a kernel: it is a
``UserCodeError`` (so tools can read ``.location``) and also a ``TypeError`` and a
``ValueError``, so code written for MindSpore (which raises either, depending on the rule)
catches it unchanged. Its message says what is not allowed and what is allowed at that
point, then shows the line with a caret under the offending column.
:class:`HybridInternalError` is raised when *generated* code fails to compile: that is a bug
in mskernel, and the message shows the generated source and the log.

Example:
    >>> from mskernel.errors import SourceLocation
    >>> loc = SourceLocation("k.py", 3, 5, "    while i < 3:")
    >>> e = HybridError("'while' loops are not part of the DSL", loc, kernel="f")
    >>> isinstance(e, TypeError) and isinstance(e, ValueError)
    True
    >>> print(str(e).splitlines()[1])
      File "k.py", line 3, column 5, in kernel f
"""
from __future__ import annotations

import difflib
from typing import Iterable, Optional

from mskernel.errors import MskernelError, SourceLocation, UserCodeError

__all__ = ["HybridError", "HybridInternalError", "format_location", "did_you_mean"]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the known name closest to ``name``, or "" when none is close.

    Example:
        >>> did_you_mean("sqrtt", ["sqrt", "exp"]), did_you_mean("zz", ["sqrt"])
        (' (did you mean sqrt?)', '')
    """
    close = difflib.get_close_matches(name, sorted(set(known) - {name}), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def format_location(location: Optional[SourceLocation], kernel: str) -> str:
    """Render ``location`` as a traceback-like block with the source line and a caret.

    Example:
        >>> from mskernel.errors import SourceLocation
        >>> print(format_location(SourceLocation("k.py", 2, 3, "  y = x"), "f"))
          File "k.py", line 2, column 3, in kernel f
            y = x
            ^
    """
    if location is None:
        return f"  in kernel {kernel}"
    text = f'  File "{location.file}", line {location.line}, column {location.col}, in kernel {kernel}'
    if location.source_line is not None:
        src = location.source_line.rstrip("\n").expandtabs(4)
        stripped = src.lstrip()
        indent = len(src) - len(stripped)
        caret = max(location.col - 1 - indent, 0)
        text += f"\n    {stripped}\n    {' ' * caret}^"
    return text


class HybridError(UserCodeError, TypeError, ValueError):
    """A hybrid-DSL rule violation, located at the user's line and column.

    ``reason`` is the core message (what is not allowed), ``allowed`` what is allowed there
    instead when that is a list too long for the reason (may be empty), ``kernel`` the
    kernel's name; ``str(error)`` is the reason, the file, line, column, the line with a
    caret under the offending column, then ``allowed``.

    Example:
        >>> try:
        ...     raise HybridError("z is not defined in the kernel", None, kernel="f")
        ... except ValueError as e:
        ...     print(e.reason)
        z is not defined in the kernel
    """

    def __init__(self, reason: str, location: Optional[SourceLocation] = None, *, kernel: str = "?",
                 allowed: str = ""):
        self.reason = reason
        self.kernel = kernel
        self.allowed = allowed
        text = f"{reason}\n{format_location(location, kernel)}" + (f"\n  {allowed}" if allowed else "")
        super().__init__(text, location)


class HybridInternalError(MskernelError, RuntimeError):
    """Generated C++ failed to compile (a bug in mskernel): carries the source and the log.

    Example:
        >>> e = HybridInternalError("f", "int main(", "error: expected ')'")
        >>> "generated source" in str(e)
        True
    """

    def __init__(self, kernel: str, source: str, log: str):
        self.kernel = kernel
        self.source = source
        self.log = log
        numbered = "\n".join(f"{i:4d} | {line}" for i, line in enumerate(source.splitlines(), 1))
        super().__init__(
            f"internal error: the C++ generated for hybrid kernel '{kernel}' did not compile. "
            f"This is a bug in mskernel.hybrid; please report it with this message.\n"
            f"--- generated source ---\n{numbered}\n--- build log ---\n{log}"
        )
