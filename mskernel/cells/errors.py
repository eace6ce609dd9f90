"""A failed cell, shown at the cell's own lines: :class:`CellError` and its text/HTML rendering.

The error keeps the cell's text, the line number its first line has in the notebook (a cell
magic's body starts on line 2), the located message (from a ``BuildError`` or a ``HybridError``)
and the full compiler log. ``str()`` and :meth:`CellError.render_text` show the offending line
marked with ``>`` among its neighbours; :meth:`CellError.render_html` does the same in a notebook
and keeps the full log one click away in a collapsed ``<details>``.

Example:
    >>> from mskernel.errors import SourceLocation
    >>> err = CellError("square", "'y' was not declared", code="int f() {\\n  return y;\\n}",
    ...                 first_line=2, location=SourceLocation("<cell square>", 3, 10))
    >>> print(err.render_text())
    %%custom_op square: 'y' was not declared (cell line 3)
        2 | int f() {
    >   3 |   return y;
                     ^
        4 | }
    <BLANKLINE>
"""
from __future__ import annotations

import html

from mskernel.errors import SourceLocation, UserCodeError

__all__ = ["CellError"]

_CONTEXT = 2  # lines shown before and after the offending one


class CellError(UserCodeError):
    """A ``%%custom_op`` cell that could not be turned into an op (compile error, DSL error, bad option).

    ``location`` is in cell lines (the notebook's numbering), ``log`` the full compiler output (may
    be empty), ``allowed`` what is allowed at the offending line (a hybrid DSL rule: shown under
    the marked lines; may be empty), ``kept`` a description of what NAME is still bound to (set by
    the runner when a previous op stays bound).

    Example:
        >>> e = CellError("op", "no kernel in the cell")
        >>> str(e)
        '%%custom_op op: no kernel in the cell'
    """

    def __init__(self, name: str, reason: str, *, code: str = "", first_line: int = 1,
                 location: SourceLocation | None = None, log: str = "", allowed: str = ""):
        self.name = name
        self.reason = reason
        self.code = code
        self.first_line = first_line
        self.log = log
        self.allowed = allowed
        self.kept: str | None = None
        super().__init__(self._headline(), location)

    def _headline(self) -> str:
        where = f" (cell line {self.location.line})" if getattr(self, "location", None) else ""
        return f"%%custom_op {self.name}: {self.reason}{where}"

    def __str__(self) -> str:
        return self.render_text()

    def _window(self) -> list[tuple[int, str, bool]]:
        """``(line number, text, is the offending line)`` around the error, in cell numbering."""
        if self.location is None or not self.code:
            return []
        lines = self.code.splitlines()
        at = self.location.line
        lo = max(self.first_line, at - _CONTEXT)
        hi = min(self.first_line + len(lines) - 1, at + _CONTEXT)
        return [(n, lines[n - self.first_line], n == at) for n in range(lo, hi + 1)]

    def render_text(self) -> str:
        """Plain text: the message, the cell lines with the offending one marked, what stays bound.

        Example:
            >>> print(CellError("op", "bad option").render_text())
            %%custom_op op: bad option
        """
        out = [self._headline()]
        for n, text, here in self._window():
            out.append(f"{'>' if here else ' '} {n:4d} | {text}")
            if here and self.location.col:
                out.append(" " * (8 + self.location.col) + "^")
        if self.allowed:
            out.append(self.allowed)
        if self.kept:
            out.append(self.kept)
        return "\n".join(out) + ("\n" if len(out) > 1 else "")

    def render_html(self) -> str:
        """HTML for a notebook: message, marked cell lines, what stays bound, the log in ``<details>``.

        Example:
            >>> "<details>" in CellError("op", "failed", log="g++: error").render_html()
            True
        """
        rows = []
        for n, text, here in self._window():
            style = ' style="background:#fdd;font-weight:bold"' if here else ""
            rows.append(f"<span{style}>{'&gt;' if here else '&nbsp;'} {n:4d} | {html.escape(text)}</span>")
        parts = ['<div class="mskernel-cell-error" style="border-left:4px solid #c00;padding-left:8px">',
                 f"<b>%%custom_op {html.escape(self.name)}</b>: {html.escape(self.reason)}"
                 + (f" (cell line {self.location.line})" if self.location else "")]
        if rows:
            parts.append('<pre style="margin:4px 0">' + "\n".join(rows) + "</pre>")
        if self.allowed:
            parts.append(f"<div>{html.escape(self.allowed)}</div>")
        if self.kept:
            parts.append(f"<div><i>{html.escape(self.kept)}</i></div>")
        if self.log:
            parts.append(f"<details><summary>full compiler log</summary><pre>{html.escape(self.log)}</pre></details>")
        parts.append("</div>")
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        return self.render_html()

    def _repr_pretty_(self, p: object, cycle: bool) -> None:
        p.text(self.render_text().rstrip("\n"))  # type: ignore[attr-defined]
