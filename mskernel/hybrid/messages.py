"""What the hybrid DSL allows, in words: the texts its parser's rejections end with.

A rejected construct is named (:data:`LABELS`), then the message says what may stand there
instead: :data:`STATEMENTS` for a statement, :data:`EXPRESSIONS` for an expression,
:data:`KEYWORDS` for the loop keywords ``while``/``break``/``continue``. The calls an
expression may make are listed by :func:`mskernel.hybrid.intrinsics.describe_calls`.

Example:
    >>> import ast
    >>> LABELS[ast.Lambda]
    'a lambda'
    >>> KEYWORDS[ast.While].split(":")[0]
    "'while' loops are not part of the DSL"
"""
from __future__ import annotations

import ast

__all__ = ["EXPRESSIONS", "KEYWORDS", "LABELS", "STATEMENTS"]

#: the loop keywords the DSL rejects, each with what to write instead
KEYWORDS: dict[type, str] = {
    ast.While: "'while' loops are not part of the DSL: loop a fixed number of times with "
               "'for v in range(n)' (or serial, parallel, vectorize, reduce, grid)",
    ast.Break: "'break' is not part of the DSL: a loop always runs to its end; guard the rest of its body "
               "with an if",
    ast.Continue: "'continue' is not part of the DSL: guard the rest of the loop body with an if",
}
#: what may stand where a rejected statement or expression stood
STATEMENTS = ("a kernel's body may hold: v = e, t[i, j] = e, t[i] += e, for v in range(...) (or serial, "
              "parallel, vectorize, reduce, grid), if/elif/else, with attr(...) or block_realize(...), pass, "
              "a docstring, and a final return of its output tensors")
EXPRESSIONS = ("an expression may use: numbers, scalars, parameters, t[i, j], t.shape[k], len(t.shape), "
               "+ - * / // % ** & | ^ << >> ~, comparisons, and/or/not, a if c else b, and calls of intrinsics")
#: how a rejected construct is named in a message (else by its ``ast`` class name)
LABELS: dict[type, str] = {
    ast.Assert: "an assert statement", ast.Delete: "del", ast.Raise: "raise", ast.Try: "try",
    ast.Import: "import", ast.ImportFrom: "import", ast.Global: "global", ast.Nonlocal: "nonlocal",
    ast.FunctionDef: "a nested def", ast.ClassDef: "a class", ast.AnnAssign: "an annotated assignment",
    ast.Lambda: "a lambda", ast.ListComp: "a list comprehension", ast.GeneratorExp: "a generator",
    ast.List: "a list", ast.Tuple: "a tuple", ast.Dict: "a dict", ast.Set: "a set",
    ast.JoinedStr: "an f-string", ast.Starred: "* unpacking", ast.NamedExpr: "an := assignment",
}
