"""Device portability: kernels that are right here but race, or read garbage, on a device.

On the CPU a ``parallel``/``vectorize`` loop runs serially whenever mskernel cannot prove its
iterations independent (:mod:`mskernel.hybrid.schedule`), and ``output_tensor``/``allocate``
memory is zero-filled like MindSpore's Python emulation. On an Ascend or GPU device the loop
runs in parallel and the memory is not zeroed, so the same kernel can be wrong there. This
module finds, statically and once per kernel, the two ways that happens:

* ``"race"``: two iterations of a ``parallel`` or ``vectorize`` loop may touch one element of a
  tensor (or one scalar declared outside the loop), at least one of them writing. An issue is
  reported only with a witness: two iterations (and values of the loops around and inside) for
  which both accesses run and hit the same element -- ``y[0]`` written by every iteration,
  ``y[i]`` written and ``y[i + 1]`` read, ``y[i]`` written and ``y[0]`` read. Indices are solved
  as integer affine forms (so ``y[2 * i]`` and ``y[2 * i + 1]`` never meet), the inner loops of
  the two iterations independently. What cannot be proved stays silent: indices read from data
  (``y[idx[i]]``), non-affine indices, accesses under a condition that cannot be evaluated for
  the witness. Temporaries allocated inside the loop and scalars declared inside it are private
  to an iteration; ``range``, ``serial``, ``grid`` and ``reduce`` loops run serially everywhere.
* ``"uninitialised-read"``: the first access of an ``output_tensor`` or ``allocate`` buffer is a
  read that provably runs before any write: it is not under an ``if`` (nor in the untaken arm
  of ``a if c else b``, nor after ``and``/``or``), and the loops around it between the buffer's
  allocation and the read keep their trip counts from one iteration to the next (so the read,
  if it runs at all, runs before anything after it writes the buffer).

:func:`check_portability` returns the issues of a parsed kernel; :func:`warn_portability`
emits one :class:`PortabilityWarning` per issue at the user's line
(``HybridKernel`` does both when it is built from source, once).

Example:
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.source import KernelSource
    >>> src = ("def total(x):\\n    y = output_tensor((1,), x.dtype)\\n    y[0] = 0.0\\n"
    ...        "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n")
    >>> [issue] = check_portability(parse(KernelSource.from_text(src, filename="<cell 1>")))
    >>> issue.kind, issue.tensor, issue.line, issue.loop_var, issue.loop_line
    ('race', 'y', 5, 'i', 4)
    >>> [(a.kind, a.text, a.line) for a in issue.accesses]
    [('write', 'y[0]', 5), ('read', 'y[0]', 5)]
"""
from __future__ import annotations

import warnings
from typing import Callable, Iterator, Optional

from .. import ir
from .issue import Access, PortabilityIssue, PortabilityWarning
from .races import races
from .reads import uninitialised_reads

__all__ = ["Access", "PortabilityIssue", "PortabilityWarning", "check_portability", "warn_portability", "CHECKS"]


#: the checks, each yielding the issues of one kind
CHECKS: dict[str, Callable[[ir.Kernel], Iterator[PortabilityIssue]]] = {
    "race": races, "uninitialised-read": uninitialised_reads}


def check_portability(kernel: ir.Kernel) -> list[PortabilityIssue]:
    """Every device-portability issue of a parsed kernel, in source order (see the module doc).

    Example:
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.source import KernelSource
        >>> src = ("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...        "    for i in parallel(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
        >>> check_portability(parse(KernelSource.from_text(src)))
        []
    """
    issues = [issue for check in CHECKS.values() for issue in check(kernel)]
    return sorted(issues, key=lambda i: (i.line, i.column, i.kind))


def warn_portability(issues: list[PortabilityIssue], module_globals: Optional[dict] = None) -> None:
    """Emit one :class:`PortabilityWarning` per issue, pointing at the issue's file and line.

    Example:
        >>> import warnings
        >>> a = Access("y", "read", 3, 5, "y[0]")
        >>> issue = PortabilityIssue("uninitialised-read", "y", "<cell 2>", 3, 5, None, None, None, (a,), "m", "")
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     warn_portability([issue])
        >>> (seen[0].filename, seen[0].lineno, seen[0].message.issue is issue)
        ('<cell 2>', 3, True)
    """
    for issue in issues:
        warnings.warn_explicit(PortabilityWarning(issue.message, issue), PortabilityWarning, issue.filename,
                               issue.line, module_globals=module_globals)
