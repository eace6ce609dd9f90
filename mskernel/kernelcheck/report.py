"""What a checked run of a kernel found: :class:`Finding` (one defect, located) and :class:`KernelCheck`.

A finding names the defect's ``kind``, the tensor (its name in the kernel), the element, the line
of the kernel's source file and, for a race, the two iterations of the parallel loop that touch
the element. Findings of one kind at one line on one tensor are reported once, with ``count``
saying how many elements or accesses were affected in all. :data:`KINDS` lists the kinds.

Example:
    >>> f = Finding("race", "y", (0,), 4, "y[0] is written by iterations i=0 and i=1 of the parallel "
    ...             "loop at line 3", iterations=(0, 1), file="<cell sum>", loop="i")
    >>> check = KernelCheck("sum", "hybrid", [f])
    >>> check.ok, check.findings[0].kind
    (False, 'race')
    >>> print(check)
    check_kernel(sum): 1 finding
      race at <cell sum>:4: y[0] is written by iterations i=0 and i=1 of the parallel loop at line 3
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = ["Finding", "KernelCheck", "KINDS"]

#: every finding kind, with what it means (shown in the HTML legend and the docs' error reference)
KINDS: dict[str, str] = {
    "race": "two iterations of a parallel/vectorize loop touch one element, at least one writing it",
    "uninitialised-read": "an element of an output_tensor or allocate buffer is read before anything wrote it",
    "unwritten-output": "an element of an output is never written (a device returns whatever memory held)",
    "out-of-bounds": "an index outside the tensor's shape",
    "address": "a C++ memory error found by AddressSanitizer (overflow, use after free, ...)",
    "undefined-behaviour": "C++ undefined behaviour found by UndefinedBehaviorSanitizer (overflow, bad shift, ...)",
}


def _index_text(index: Optional[tuple[int, ...]]) -> str:
    if index is None:
        return ""
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


@dataclass(frozen=True)
class Finding:
    """One defect a checked run found, located in the kernel's source.

    Example:
        >>> f = Finding("unwritten-output", "y", (7,), 2, "y[7] is never written", file="k.py", count=3)
        >>> f.where, f.element
        ('k.py:2', 'y[7]')
    """

    kind: str
    tensor: Optional[str]
    index: Optional[tuple[int, ...]]
    line: Optional[int]
    message: str
    iterations: Optional[tuple[Any, Any]] = None
    file: Optional[str] = None
    loop: Optional[str] = None
    count: int = 1
    source: Optional[str] = None
    detail: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Finding: kind must be one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def where(self) -> str:
        """``file:line`` (or what is known of it)."""
        if self.line is None:
            return self.file or "?"
        return f"{self.file or '?'}:{self.line}"

    @property
    def element(self) -> str:
        """``tensor[index]`` as text ('' when the finding is not about one element)."""
        return f"{self.tensor}{_index_text(self.index)}" if self.tensor else ""

    def __str__(self) -> str:
        more = f" ({self.count} in all)" if self.count > 1 else ""
        return f"{self.kind} at {self.where}: {self.message}{more}"


@dataclass
class KernelCheck:
    """The result of :func:`mskernel.check_kernel`: ``ok`` when nothing was found.

    ``language`` is ``"hybrid"`` or ``"cpp"``; ``outputs`` the checked run's outputs (new memory
    poisoned, so an element nothing wrote shows as NaN or a pattern); ``notes`` say what was run.

    Example:
        >>> KernelCheck("axpy", "hybrid", []).ok
        True
        >>> print(KernelCheck("axpy", "hybrid", [], notes=["ran once on 1 input"]))
        check_kernel(axpy): ok, no findings (ran once on 1 input)
    """

    op: str
    language: str
    findings: list[Finding] = field(default_factory=list)
    outputs: Optional[tuple] = None  # (tuple[Any, ...] breaks the docs site's signature parser)
    notes: list[str] = field(default_factory=list)
    log: str = ""

    @property
    def ok(self) -> bool:
        """True when the checked run found nothing."""
        return not self.findings

    def __bool__(self) -> bool:
        return self.ok

    def of_kind(self, kind: str) -> list[Finding]:
        """The findings of one kind.

        Example:
            >>> KernelCheck("k", "hybrid", []).of_kind("race")
            []
        """
        if kind not in KINDS:
            raise ValueError(f"KernelCheck.of_kind: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        return [f for f in self.findings if f.kind == kind]

    def __str__(self) -> str:
        notes = f" ({'; '.join(self.notes)})" if self.notes else ""
        if self.ok:
            return f"check_kernel({self.op}): ok, no findings{notes}"
        n = len(self.findings)
        lines = [f"check_kernel({self.op}): {n} finding{'s' if n != 1 else ''}{notes}"]
        for f in self.findings:
            lines.append(f"  {f}")
            if f.source:
                lines.append(f"      {f.source.strip()}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        esc = html.escape
        notes = f" <small>({esc('; '.join(self.notes))})</small>" if self.notes else ""
        if self.ok:
            return (f"<div class='mk-kernelcheck'><b style='color:#1a7f37'>check_kernel({esc(self.op)}): ok</b>"
                    f" no findings{notes}</div>")
        rows = []
        for f in self.findings:
            its = "" if f.iterations is None else f"{f.loop or 'iteration'} = {f.iterations[0]} and {f.iterations[1]}"
            src = f"<br><code>{esc(f.source.strip())}</code>" if f.source else ""
            rows.append(f"<tr><td style='color:#cf222e' title='{esc(KINDS[f.kind])}'>{esc(f.kind)}</td>"
                        f"<td>{esc(f.where)}</td><td><code>{esc(f.element)}</code></td><td>{esc(its)}</td>"
                        f"<td>{esc(f.message)}{' (' + str(f.count) + ' in all)' if f.count > 1 else ''}{src}</td></tr>")
        n = len(self.findings)
        return (f"<div class='mk-kernelcheck'><b style='color:#cf222e'>check_kernel({esc(self.op)}): {n} finding"
                f"{'s' if n != 1 else ''}</b>{notes}<table><tr><th>kind</th><th>where</th><th>element</th>"
                f"<th>iterations</th><th>what</th></tr>{''.join(rows)}</table></div>")
