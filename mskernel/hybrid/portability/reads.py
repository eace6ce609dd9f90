"""Reads of new memory before any write: the first access of an ``output_tensor`` or ``allocate`` buffer.

Reported when that first access is a read that provably runs before any write: not under an ``if``
(nor in the untaken arm of ``a if c else b``, nor after ``and``/``or``), and every loop around it
between the buffer's allocation and the read keeps its trip count from one iteration to the next.

Example:
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.source import KernelSource
    >>> src = ("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...        "    for i in range(x.shape[0]):\\n        y[i] = y[i] + x[i]\\n    return y\\n")
    >>> [(i.kind, i.tensor, i.line) for i in uninitialised_reads(parse(KernelSource.from_text(src)))]
    [('uninitialised-read', 'y', 4)]
"""
from __future__ import annotations

from typing import Iterator, Optional

from .. import ir
from .issue import ADVICE, BUFFER_CALLS, Access, PortabilityIssue, subscript_text

__all__ = ["uninitialised_reads"]


def uninitialised_reads(kernel: ir.Kernel) -> Iterator[PortabilityIssue]:
    for name, alloc in kernel.allocs.items():
        block = _block_of(kernel.body, alloc)
        if block is None:
            continue
        after = block[next(k for k, s in enumerate(block) if s is alloc) + 1:]
        found = _first_access(name, after, [])
        if found is None or found[0] != "read":
            continue
        _, loc, chain, unconditional = found
        if not unconditional or not _trips_fixed(chain):
            continue
        text = subscript_text(kernel.lines.get(loc[0]), loc[1], name)
        advice = ADVICE["uninitialised"].format(tensor=name)
        message = (f"uninitialised read on a device: {text} (line {loc[0]}) reads the {BUFFER_CALLS[alloc.kind]} "
                   f"{name} (line {alloc.loc[0]}) before anything writes it\n  here {BUFFER_CALLS[alloc.kind]} memory "
                   f"is zero-filled (as in MindSpore's Python emulation), so the read gets 0 and the result is "
                   f"right; on a device (Ascend, GPU) the memory is not initialised and the read gets garbage."
                   f"\n  Instead: {advice}.")
        read = Access(name, "read", loc[0], loc[1], text)
        yield PortabilityIssue("uninitialised-read", name, kernel.filename, loc[0], loc[1], None, None, None,
                               (read,), message, advice)


def _block_of(stmts: list[ir.Stmt], target: ir.Stmt) -> Optional[list[ir.Stmt]]:
    for s in stmts:
        if s is target:
            return stmts
        for inner in ((s.body,) if isinstance(s, ir.For) else (s.then, s.orelse) if isinstance(s, ir.If) else ()):
            found = _block_of(inner, target)
            if found is not None:
                return found
    return None


def _first_access(name: str, stmts: list[ir.Stmt], chain: list[ir.For], conditional: bool = False):
    """(kind, loc, loops around it, unconditional) of the first access of tensor ``name`` in ``stmts``."""
    for s in stmts:
        found = _first_in_exprs(name, ir.stmt_exprs(s), conditional)
        if found is not None:
            return ("read", found[0], chain, found[1])
        if isinstance(s, ir.Store) and s.tensor == name:
            return ("write", s.loc, chain, not conditional)
        if isinstance(s, ir.For):
            found = _first_access(name, s.body, chain + [s], conditional)
        elif isinstance(s, ir.If):
            found = _first_access(name, s.then + s.orelse, chain, True)
        else:
            found = None
        if found is not None:
            return found
    return None


def _first_in_exprs(name: str, exprs: list[ir.Expr], conditional: bool) -> Optional[tuple[ir.Loc, bool]]:
    for e in exprs:
        if isinstance(e, ir.Select):
            found = _first_in_exprs(name, [e.cond], conditional) or \
                _first_in_exprs(name, [e.then, e.orelse], True)
        elif isinstance(e, ir.BoolOp):
            found = _first_in_exprs(name, e.values[:1], conditional) or \
                _first_in_exprs(name, e.values[1:], True)
        elif isinstance(e, ir.Load):
            found = _first_in_exprs(name, list(e.indices), conditional) or \
                ((e.loc, not conditional) if e.tensor == name else None)
        else:
            found = _first_in_exprs(name, ir.operands(e), conditional)
        if found is not None:
            return found
    return None


def _trips_fixed(chain: list[ir.For]) -> bool:
    """The trip count of every loop of ``chain`` but the first is the same in every iteration around it."""
    if not chain:
        return True
    changing = {n for s in ir.walk_stmts(chain[0].body) if isinstance(s, ir.Assign) for n in [s.name]}
    loops = set()
    for k, loop in enumerate(chain):
        if k > 0:
            for root in ir.stmt_exprs(loop):
                for e in ir.walk_exprs(root):
                    if isinstance(e, ir.Load) or (isinstance(e, ir.Var) and (e.name in loops or e.name in changing)) \
                            or (isinstance(e, ir.GridComponent) and e.var in loops):
                        return False
        loops |= {loop.var, *loop.grid_names}
    return True
