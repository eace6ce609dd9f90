"""Finding a kernel's source text and mapping AST positions back to the user's file.

A kernel comes either from a live function (``inspect.getsourcelines`` gives the text and the
first line; nested ``def``s are dedented, and the removed indentation is added back to every
column) or from source text (a notebook cell) with a file name and the line number of its
first line. Either way the result is a :class:`KernelSource` whose ``location`` turns an AST
node into a :class:`~mskernel.errors.SourceLocation` with the real line, column and text.

Example:
    >>> src = KernelSource.from_text("def f(x):\\n    return x\\n", "f", "<cell 3>", first_line=10)
    >>> src.location((2, 4))
    SourceLocation(file='<cell 3>', line=11, col=5, source_line='    return x')
"""
from __future__ import annotations

import ast
import inspect
import textwrap
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from mskernel.errors import SourceLocation

from .errors import HybridError

__all__ = ["KernelSource", "unwrap"]


def unwrap(func: Callable[..., Any]) -> Callable[..., Any]:
    """The user's original function under ``@kernel`` (or any functools.wraps) wrappers.

    Example:
        >>> def f(x): return x
        >>> unwrap(f) is f
        True
    """
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__  # type: ignore[attr-defined]
    return func


@dataclass
class KernelSource:
    """The parsed ``def`` of one kernel plus what is needed to point into the user's file.

    Example:
        >>> s = KernelSource.from_text("def g(a):\\n    return a\\n", "g", filename="<cell 2>", first_line=4)
        >>> s.name, s.filename, s.lines
        ('g', '<cell 2>', {4: 'def g(a):', 5: '    return a'})
    """

    name: str
    tree: ast.FunctionDef
    filename: str
    line_offset: int
    col_offset: int
    lines: dict[int, str]
    outer_names: dict[str, Any] = field(default_factory=dict)  # globals/closure names the function reads

    def location(self, loc: tuple[int, int]) -> SourceLocation:
        """The user-file location of an AST ``(lineno, col_offset)`` pair (col 0-based).

        Example:
            >>> s = KernelSource.from_text("def g(a):\\n  return a", "g")
            >>> s.location((2, 2)).col
            3
        """
        line = loc[0] + self.line_offset
        col = loc[1] + self.col_offset + 1
        return SourceLocation(self.filename, line, col, self.lines.get(line))

    def def_text(self) -> str:
        """The kernel's ``def`` as written (comments kept, decorators dropped), dedented.

        Example:
            >>> s = KernelSource.from_text("@kernel\\ndef g(a):\\n    # same\\n    return a\\nx = 1\\n", "g")
            >>> print(s.def_text(), end="")
            def g(a):
                # same
                return a
        """
        first = self.tree.lineno + self.line_offset
        last = (self.tree.end_lineno or self.tree.lineno) + self.line_offset
        return textwrap.dedent("\n".join(self.lines.get(n, "") for n in range(first, last + 1))) + "\n"

    def node_loc(self, node: ast.AST) -> tuple[int, int]:
        """``(file line, 1-based column)`` of an AST node, the form the IR stores.

        Example:
            >>> s = KernelSource.from_text("def g(a):\\n  return a", "g", first_line=5)
            >>> s.node_loc(s.tree.body[0])
            (6, 3)
        """
        return (getattr(node, "lineno", 1) + self.line_offset,
                getattr(node, "col_offset", 0) + self.col_offset + 1)

    @classmethod
    def from_function(cls, func: Callable[..., Any]) -> "KernelSource":
        """Read the source of ``func`` (decorated or not) without executing it.

        Example:
            >>> def twice(x):
            ...     return x
            >>> KernelSource.from_function(twice).name
            'twice'
        """
        func = unwrap(func)
        name = getattr(func, "__name__", "<kernel>")
        try:
            raw_lines, first = inspect.getsourcelines(func)
            filename = inspect.getsourcefile(func) or inspect.getfile(func)
        except (OSError, TypeError) as exc:
            raise HybridError(
                f"cannot read the source of the function {name}: {exc}. Define it in a file or a "
                f"notebook cell, or use HybridKernel.from_source(text, name)", None, kernel=name
            ) from exc
        text = "".join(raw_lines)
        src = cls._build(text, name, filename, max(first, 1), dedent=True)
        closure = inspect.getclosurevars(func) if isinstance(func, types.FunctionType) else None
        if closure is not None:  # names Python would resolve but the DSL does not (see parse's message)
            src.outer_names = {**closure.globals, **closure.nonlocals}
        return src

    @classmethod
    def from_text(cls, text: str, name: Optional[str] = None, filename: str = "<string>",
                  first_line: int = 1) -> "KernelSource":
        """Find ``def name`` (or the only top-level ``def``) in source text.

        Example:
            >>> KernelSource.from_text("x = 1\\ndef k(a):\\n    return a\\n").name
            'k'
        """
        return cls._build(text, name, filename, first_line, dedent=False)

    @classmethod
    def _build(cls, text: str, name: Optional[str], filename: str, first_line: int,
               dedent: bool) -> "KernelSource":
        original = text.splitlines()
        indent = 0
        if dedent:
            dedented = textwrap.dedent(text)
            first_src = next((ln for ln in original if ln.strip()), "")
            first_ded = next((ln for ln in dedented.splitlines() if ln.strip()), "")
            indent = len(first_src) - len(first_ded)
            text = dedented
        lines = {first_line + i: ln for i, ln in enumerate(original)}
        label = name or "<kernel>"
        try:
            module = ast.parse(text, filename=filename)
        except SyntaxError as exc:
            line = (exc.lineno or 1) + first_line - 1
            loc = SourceLocation(filename, line, (exc.offset or 0) + indent, lines.get(line))
            raise HybridError(f"invalid Python syntax in the function {label}: {exc.msg}", loc,
                              kernel=label) from None
        defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if name is not None:
            defs = [d for d in defs if d.name == name]
        if len(defs) != 1:
            what = f"a function named {name!r}" if name else "exactly one function"
            raise HybridError(f"the source of the hybrid kernel must define {what}", None,
                              kernel=label)
        tree = defs[0]
        if isinstance(tree, ast.AsyncFunctionDef):
            loc = SourceLocation(filename, tree.lineno + first_line - 1, tree.col_offset + 1 + indent,
                                 lines.get(tree.lineno + first_line - 1))
            raise HybridError(f"an async function cannot be a hybrid kernel: {tree.name}", loc,
                              kernel=tree.name)
        return cls(tree.name, tree, filename, first_line - 1, indent, lines)
