"""What the device-portability check reports: :class:`PortabilityIssue` (with its :class:`Access` es), the
:class:`PortabilityWarning` that carries it, and the advice texts (one per pattern).

Example:
    >>> a = Access("y", "read", 3, 5, "y[0]")
    >>> PortabilityIssue("uninitialised-read", "y", "<cell 2>", 3, 5, None, None, None, (a,), "m", "").location.line
    3
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["Access", "PortabilityIssue", "PortabilityWarning", "ADVICE", "BUFFER_CALLS", "subscript_text"]


class PortabilityWarning(UserWarning):
    """A kernel that is right on the CPU here but races or reads uninitialised memory on a device.

    Emitted once when a hybrid kernel is built from its source (never per call), at the user's
    line; ``issue`` is the :class:`PortabilityIssue` it reports. Turn it into an error with
    ``warnings.simplefilter("error", PortabilityWarning)``.

    Example:
        >>> import warnings
        >>> from mskernel.hybrid import HybridKernel
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     hk = HybridKernel.from_source(
        ...         "def acc(x):\\n    y = output_tensor((1,), x.dtype)\\n    y[0] = 0.0\\n"
        ...         "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n",
        ...         filename="<cell 7>")
        >>> w = seen[0]
        >>> w.category.__name__, w.filename, w.lineno
        ('PortabilityWarning', '<cell 7>', 5)
        >>> print(str(w.message).splitlines()[0])
        race on a device: two iterations of the parallel loop over i (line 4) touch y[0]
    """

    def __init__(self, message: str, issue: Optional["PortabilityIssue"] = None) -> None:
        super().__init__(message)
        self.issue = issue


@dataclass(frozen=True)
class Access:
    """One access of a tensor (or scalar) in the kernel's source: ``kind`` is "read" or "write".

    Example:
        >>> Access("y", "write", 5, 9, "y[0]")
        Access(tensor='y', kind='write', line=5, column=9, text='y[0]')
    """

    tensor: str
    kind: str
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class PortabilityIssue:
    """A device-portability problem of a kernel, located at the user's line.

    ``kind`` is "race" or "uninitialised-read"; ``tensor`` the tensor or scalar; ``line`` and
    ``column`` where the warning points (the write of a race, the read of an uninitialised
    buffer); ``loop_var``/``loop_line``/``loop_kind`` the parallel loop of a race (None for an
    uninitialised read); ``accesses`` the two accesses that meet (a race; one access may meet
    itself in another iteration) or the read and nothing else; ``message`` the whole text and
    ``advice`` what to write instead.

    Example:
        >>> a = Access("s", "write", 4, 9, "s")
        >>> issue = PortabilityIssue("race", "s", "<cell 1>", 4, 9, "i", 3, "parallel", (a, a), "...", "...")
        >>> issue.location
        SourceLocation(file='<cell 1>', line=4, col=9, source_line=None)
    """

    kind: str
    tensor: str
    filename: str
    line: int
    column: int
    loop_var: Optional[str]
    loop_line: Optional[int]
    loop_kind: Optional[str]
    accesses: tuple[Access, ...]
    message: str
    advice: str

    @property
    def location(self):  # -> SourceLocation (mskernel.errors), typed loosely to keep this module's imports low
        """The :class:`~mskernel.errors.SourceLocation` of the issue (file, line, column)."""
        from mskernel.errors import SourceLocation

        return SourceLocation(self.filename, self.line, self.column)


# ---------------------------------------------------------------------------------------------- texts
#: what to write instead, per pattern of race (the key names the pattern)
ADVICE: dict[str, str] = {
    "same element": ("accumulate over {var} in a reduce loop (for {var} in reduce(...)), or keep a temporary per "
                     "iteration and write each element of {tensor} from the one iteration that owns it"),
    "other element": ("index every access of {tensor} in the loop by the loop variable in one fixed dimension "
                      "({tensor}[{var}, ...]) so each iteration owns its elements; read what other iterations "
                      "write from a copy made before the loop, or make the loop serial (range)"),
    "scalar": ("assign {tensor} first inside the loop so each iteration has its own, or accumulate it in a reduce "
               "loop (for {var} in reduce(...))"),
    "uninitialised": ("write every element of {tensor} before reading it (e.g. {tensor}[...] = 0.0 in a loop before "
                      "accumulating), or accumulate in a scalar and write {tensor} once"),
}
BUFFER_CALLS = {"output": "output_tensor", "temp": "allocate"}


def subscript_text(line: Optional[str], col: int, name: str) -> str:
    """The access as written: ``name[...]`` (brackets matched) from column ``col`` of ``line``."""
    if not line or not line[col - 1:].startswith(name):
        return name
    k, depth, end = col - 1 + len(name), 0, None
    while k < len(line):
        c = line[k]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                end = k + 1
                if not line[k + 1:k + 2] == "[":
                    break
        elif depth == 0 and not c.isspace():
            break
        k += 1
    return line[col - 1:end] if end is not None else name
