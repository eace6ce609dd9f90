"""A tiny tree of output lines for generated DSL code: blocks drop out when they end up empty.

The backward builder emits loops and branches before it knows whether anything inside them
does work (a loop over a rounding op contributes nothing); :class:`Block` renders only what
holds a statement, and a :class:`Lazy` line only when its condition turns true by the end
(an adjoint variable's ``= 0`` declaration, kept only if something used the variable). A nested
block may carry a comment line rendered above its header (:data:`PARALLEL_NOTE` above each
``parallel`` loop: a placeholder the assembler fills in, so no line moves).

Example:
    >>> body = Block()
    >>> loop = body.nest("for i in range(n):")
    >>> _ = loop.nest("if x[i] > 0:")
    >>> body.render(1)
    []
    >>> loop.line("y[i] = 1")
    >>> body.render(1)
    ['    for i in range(n):', '        y[i] = 1']
    >>> loop.accumulate("dx[i]", "a"); loop.accumulate("dx[i]", "b"); loop.flush()
    >>> body.render(0)[-1]
    '    dx[i] = dx[i] + (a + b)'
"""
from __future__ import annotations

from typing import Callable, Optional, Union

__all__ = ["Block", "Lazy", "PARALLEL_NOTE"]

#: the comment above every ``parallel`` loop of a backward until it says whether the loop stays parallel
PARALLEL_NOTE = "# parallel"


class Lazy:
    """A line rendered only if ``keep()`` is true when the code is rendered."""

    def __init__(self, text: str, keep: Callable[[], bool]) -> None:
        self.text, self.keep = text, keep


class Block:
    """Lines and nested blocks under an optional header (``for ...:``, ``if ...:``)."""

    def __init__(self, header: Optional[str] = None, note: Optional[str] = None) -> None:
        self.header = header
        self.note = note
        self.items: list[Union[str, Lazy, "Block"]] = []
        self.orelse: Optional[Block] = None
        self.pending: dict[str, list[str]] = {}

    def accumulate(self, target: str, term: str) -> None:
        """``target += term``, merged with the other terms for ``target`` until :meth:`flush`."""
        self.pending.setdefault(target, []).append(term)

    def flush(self) -> None:
        """Emit the pending accumulations (one ``t = t + (a + b)`` per target), here and nested."""
        for target, terms in self.pending.items():
            total = terms[0] if len(terms) == 1 else "(" + " + ".join(terms) + ")"
            self.items.append(f"{target} = {target} + {total}")
        self.pending = {}
        for item in self.items:
            if isinstance(item, Block):
                item.flush()
                if item.orelse is not None:
                    item.orelse.flush()

    def line(self, text: str) -> None:
        """Append one statement."""
        self.items.append(text)

    def lazy(self, text: str, keep: Callable[[], bool]) -> None:
        """Append a statement kept only if ``keep()`` holds at render time."""
        self.items.append(Lazy(text, keep))

    def nest(self, header: str, note: Optional[str] = None) -> "Block":
        """Append and return a nested block (``note``: a comment line above its header)."""
        child = Block(header, note)
        self.items.append(child)
        return child

    def branch(self, cond: str) -> tuple["Block", "Block"]:
        """Append ``if cond: ... else: ...``; returns the two branches."""
        then = self.nest(f"if {cond}:")
        then.orelse = Block("else:")
        return then, then.orelse

    def extend(self, other: "Block") -> None:
        """Append the items of a header-less block."""
        self.items.extend(other.items)

    def render(self, depth: int) -> list[str]:
        """The block's lines at indentation ``depth`` (4 spaces each); [] when it holds nothing."""
        pad = "    " * depth
        lines: list[str] = []
        for item in self.items:
            if isinstance(item, Block):
                lines += item._render_nested(depth)
            elif isinstance(item, Lazy):
                if item.keep():
                    lines.append(pad + item.text)
            else:
                lines.append(pad + item)
        return lines

    def _render_nested(self, depth: int) -> list[str]:
        pad = "    " * depth
        body = self.render(depth + 1)
        other = self.orelse.render(depth + 1) if self.orelse is not None else []
        if not body and not other:
            return []
        out = ([pad + self.note] if self.note else []) + [pad + self.header] + (body or [pad + "    pass"])  # type: ignore[operator]
        if other:
            out += [pad + "else:"] + other
        return out
