"""Reading a value back from the store that wrote it, instead of recomputing or re-recording it.

Two uses, both recording the stored value once, right after the store, in the replay:

* **Results of intrinsics.** ``t[I] = exp(u)``: the derivative of ``exp`` is its result, which is
  ``t[I]`` just after the store -- read back (from the final tensor when nothing overwrites that
  element later, else from a record made after the store) instead of computing ``exp`` again.
  ``RESULT_RULES`` holds one such rule per intrinsic.
* **Forwarding.** A value read at ``S`` that later statements overwrite (``row[j]`` in a softmax
  whose row buffer is reused for every row) would be recorded before ``S``, in a loop of its own.
  When a single store ``W``, earlier in the same iteration of the shared loops and not under a
  branch, wrote exactly that element -- its own loops cover the element with the same ranges as
  ``S``'s loops -- the value recorded after ``W`` is the value ``S`` reads.

The builder calls these functions with itself; :class:`Builds` lists what they use of it.

Example:
    >>> RESULT_RULES["exp"]("g", "r")
    '(g * r)'
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Protocol

from .. import ir
from ..check import Typed
from .analysis import Analysis, Level
from .printer import Printer

__all__ = ["Builds", "RESULT_RULES", "stored_value", "forwarded"]


class Builds(Protocol):
    """What forwarding reads and records in the backward builder (``builder._Builder``)."""

    t: Typed
    a: Analysis
    grids: dict[str, list[str]]
    replay_tensors: set[str]
    tape_allocs: list[str]
    tapes_after: dict[int, tuple[str, str]]

    def value(self, e: ir.Expr, at: ir.Stmt) -> str: ...
    def is_static(self, lv: Level) -> bool: ...
    def trip(self, lv: Level) -> str: ...
    def counter_of(self, lv: Level) -> str: ...
    def temp(self, base: str = "_g") -> str: ...
    def tensor_dtype(self, name: str) -> str: ...

#: derivative of an intrinsic from its result ``r`` (one rule per line)
RESULT_RULES: dict[str, Callable[[str, str], str]] = {
    "exp": lambda g, r: f"({g} * {r})",
    "expm1": lambda g, r: f"({g} * ({r} + 1))",
    "sqrt": lambda g, r: f"({g} / (2 * {r}))",
    "tanh": lambda g, r: f"({g} * (1 - {r} * {r}))",
}


def _unconditional(b: "Builds", s: ir.Stmt) -> bool:
    return all(k != -1 for _, k in b.a.path[id(s)])


def stored_value(b: "Builds", w: ir.Store) -> Optional[str]:
    """Text of the value ``w`` stored, valid in ``w``'s adjoint; None if it cannot be read back."""
    if w.grid is not None:
        return None
    if b.a.stable_after(w):
        if b.t.tensors[w.tensor].kind == "temp":
            b.replay_tensors.add(w.tensor)
        return f"{w.tensor}[{', '.join(b.value(i, w) for i in w.indices)}]"
    levels = b.a.enclosing_levels(w)
    if not all(b.is_static(lv) for lv in levels) or any(lv.loop.kind == "grid" for lv in levels):
        return None
    return f"{_record_after(b, w)}[{', '.join(b.counter_of(lv) for lv in levels) or '0'}]"


def _record_after(b: "Builds", w: ir.Store) -> str:
    """The tape recording the value ``w`` stores, right after it stores it (made on first use)."""
    if id(w) not in b.tapes_after:
        levels = b.a.enclosing_levels(w)
        name = b.temp("tape")
        dims = [b.trip(lv) for lv in levels] or ["1"]
        b.tape_allocs.append(f"{name} = allocate(({', '.join(dims)}, ), \"{b.tensor_dtype(w.tensor)}\")")
        b.tapes_after[id(w)] = (name, ", ".join(b.counter_of(lv) for lv in levels) or "0")
        b.replay_tensors.add(w.tensor)  # the store itself must run in the replay
    return b.tapes_after[id(w)][0]


def forwarded(b: "Builds", load: ir.Load, at: ir.Stmt) -> Optional[str]:
    """The value ``load`` reads at ``at``, read from the record after the single store that wrote
    it (see the module docstring); None when that cannot be shown."""
    writers = b.a.writers.get(load.tensor, [])
    if len(writers) != 1 or load.grid is not None:
        return None
    w = writers[0]
    if w.grid is not None or w is at or b.a.order(w, at) != "before" or not _unconditional(b, w):
        return None
    common = b.a._common(w, at)
    extra = b.a.loops[id(w)][len(common):]
    mine = b.a.loops[id(at)][len(common):]
    if any(lp.kind == "grid" for lp in b.a.loops[id(w)] + b.a.loops[id(at)]):
        return None
    p = Printer(b.grids)
    local = {lp.var for lp in extra} | {lp.var for lp in mine}
    match: dict[str, ir.For] = {}  # W's own loop var -> the loop of ``at`` that walks the same range
    for wi, li in zip(w.indices, load.indices):
        own = next((lp for lp in extra if isinstance(wi, ir.Var) and wi.name == lp.var), None)
        if own is not None:
            other = next((lp for lp in mine if isinstance(li, ir.Var) and li.name == lp.var), None)
            if other is None or own.var in match or any(
                    p.expr(x) != p.expr(y) for x, y in ((own.start, other.start), (own.stop, other.stop),
                                                        (own.step, other.step))):  # type: ignore[arg-type]
                return None
            match[own.var] = other
            continue
        if p.expr(wi) != p.expr(li):
            return None
        for x in ir.walk_exprs(wi):
            if isinstance(x, ir.Load) or (isinstance(x, ir.Var) and (x.name in local or x.name not in b.a.loop_vars)):
                return None
    if len(match) != len(extra):
        return None
    levels = b.a.enclosing_levels(w)
    if not all(b.is_static(lv) for lv in levels):
        return None
    name = _record_after(b, w)
    index = [b.counter_of(replace(lv, name=match[lv.loop.var].var) if lv.loop in extra else lv)
             for lv in levels]  # W's own positions are counted by ``at``'s loops over the same ranges
    return f"{name}[{', '.join(index) or '0'}]"
