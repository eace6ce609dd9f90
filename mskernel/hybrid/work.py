"""The work of a parallel loop, estimated before it runs: does it pay to wake the thread pool?

A parallel loop goes to the pool when its estimated work reaches :data:`~.codegen.PARALLEL_MIN_WORK`
(else its body runs on the calling thread, inlined). The estimate is a C++ expression of the loop's
extents, evaluated once before the loop: its trip count times the operations of one iteration, where
each load, store and arithmetic operation counts 1, a division or modulo 4, a math function (``exp``,
``log``, ``sqrt``, ``tanh``, ...) 16, an ``allocate`` 16, and an inner loop its trip count times its
body -- when its bounds do not depend on the iteration (else its body once: an underestimate, so such
a loop stays serial rather than waste a wake-up). Index arithmetic is not counted (the compiler
strength-reduces it), loads inside indices are. So ``y[i] = x[i] * x[i]`` costs 4 per iteration and a
row softmax over 1024 columns about 28 per element.

Example:
    >>> from mskernel.hybrid import HybridKernel, ir
    >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        y[i] = x[i] * x[i]\\n    return y\\n")
    >>> loop = next(s for s in ir.walk_stmts(hk.ir.body) if isinstance(s, ir.For))
    >>> estimate(loop, "x_n0", lambda inner: "n")
    'x_n0 * 4.0'
"""
from __future__ import annotations

from typing import Callable

from . import ir

__all__ = ["estimate"]

#: functions that cost far more than an arithmetic operation (scalar libm calls, not vectorized)
_EXPENSIVE = {"exp", "expm1", "log", "sin", "cos", "tanh", "atan", "atan2", "erf", "power", "sqrt", "rsqrt"}
_SLOW_OPS = {"/", "//", "%", "**"}


def _expr(e: ir.Expr) -> int:
    """Operations of one evaluation of ``e``: index arithmetic is not counted, loads inside indices are."""
    if isinstance(e, ir.Load):
        return 1 + sum(isinstance(x, ir.Load) for i in e.indices for x in ir.walk_exprs(i))
    if isinstance(e, ir.BinOp):
        return (4 if e.op in _SLOW_OPS else 1) + _expr(e.left) + _expr(e.right)
    if isinstance(e, ir.Compare):
        return 1 + _expr(e.left) + _expr(e.right)
    if isinstance(e, ir.UnaryOp):
        return 1 + _expr(e.operand)
    if isinstance(e, ir.BoolOp):
        return len(e.values) - 1 + sum(_expr(v) for v in e.values)
    if isinstance(e, ir.Select):
        return 1 + _expr(e.cond) + _expr(e.then) + _expr(e.orelse)
    if isinstance(e, ir.Call):
        return (16 if e.func in _EXPENSIVE else 1) + sum(_expr(a) for a in e.args)
    return 0  # constants, variables, parameters, extents


def _names(e: ir.Expr) -> set[str]:
    out = set()
    for x in ir.walk_exprs(e):
        if isinstance(x, ir.Var):
            out.add(x.name)
        elif isinstance(x, (ir.GridComponent, ir.Load)):
            out.add("<iteration-dependent>")
    return out


def _iteration_cost(stmts: list[ir.Stmt], local: set[str], trip: Callable[[ir.For], str]) -> str:
    """A C++ expression for the operations of ``stmts`` run once; ``local``: names that change from one
    iteration of the enclosing parallel loop to the next; ``trip(loop)``: an inner loop's trip count in C++."""
    const, terms = 0, []
    for s in stmts:
        if isinstance(s, ir.Store):
            const += 1 + _expr(s.value) + sum(isinstance(x, ir.Load) for i in s.indices for x in ir.walk_exprs(i))
        elif isinstance(s, ir.Assign):
            const += _expr(s.value)
            local.add(s.name)
        elif isinstance(s, ir.Alloc):
            const += 16 if s.kind == "temp" else 0
        elif isinstance(s, ir.If):
            const += _expr(s.cond)
            for branch in (s.then, s.orelse):
                inner = _iteration_cost(branch, local, trip)
                if inner != "0.0":
                    terms.append(inner)
        elif isinstance(s, ir.For):
            bounds = set().union(*(_names(e) for e in ir.stmt_exprs(s)))
            inner = _iteration_cost(s.body, local | {s.var, *s.grid_names, *s.decls}, trip)
            if inner == "0.0":
                continue
            dependent = bool(bounds & local) or "<iteration-dependent>" in bounds
            terms.append(_wrap(inner) if dependent else f"{trip(s)} * {_wrap(inner)}")
    parts = ([f"{const}.0"] if const or not terms else []) + terms
    return " + ".join(parts)


def _wrap(text: str) -> str:
    return f"({text})" if " + " in text else text


def estimate(loop: ir.For, trip: str, trip_of: Callable[[ir.For], str]) -> str:
    """The estimated operations of all ``trip`` iterations of parallel loop ``loop`` (a C++ expression).

    Example:
        >>> from mskernel.hybrid import HybridKernel, ir
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in parallel(x.shape[0]):\\n        for j in range(x.shape[1]):\\n"
        ...     "            y[i, j] = exp(x[i, j])\\n    return y\\n")
        >>> loop = next(s for s in ir.walk_stmts(hk.ir.body) if isinstance(s, ir.For))
        >>> estimate(loop, "x_n0", lambda inner: "x_n1")
        'x_n0 * x_n1 * 18.0'
    """
    body = _iteration_cost(loop.body, {loop.var, *loop.grid_names, *loop.decls}, trip_of)
    return f"{trip} * {_wrap(body)}"
