"""Derivative rules: one line per operator and intrinsic (tinygrad's table style).

A rule maps ``g`` (the text of the adjoint of the node's value) and ``v`` (``v(k)`` is the
text of operand ``k``'s forward value, computed only when a rule asks for it, so a value a
derivative does not need is never recorded) to the text of operand ``k``'s adjoint
contribution. ``BINARY`` and ``INTRINSIC`` give one rule per operand; names in ``ZERO`` have
a zero derivative almost everywhere (rounding, sign, tests, integer arithmetic), so nothing
flows through them. ``max``/``min``, conditional expressions and casts are control flow or
type changes, handled by the builder.

Example:
    >>> values = {0: "x[i]", 1: "w[j]"}.__getitem__
    >>> [rule("g", values) for rule in BINARY["*"]]
    ['(g * w[j])', '(g * x[i])']
    >>> INTRINSIC["sin"][0]("g", values)
    '(g * cos(x[i]))'
"""
from __future__ import annotations

from typing import Callable

__all__ = ["Rule", "BINARY", "UNARY", "INTRINSIC", "ZERO", "CASTS"]

#: (adjoint text, operand value getter) -> the operand's adjoint contribution
Rule = Callable[[str, Callable[[int], str]], str]

BINARY: dict[str, tuple[Rule, Rule]] = {
    "+": (lambda g, v: g, lambda g, v: g),
    "-": (lambda g, v: g, lambda g, v: f"(-{g})"),
    "*": (lambda g, v: f"({g} * {v(1)})", lambda g, v: f"({g} * {v(0)})"),
    "/": (lambda g, v: f"({g} / {v(1)})", lambda g, v: f"(-{g} * {v(0)} / ({v(1)} * {v(1)}))"),
    "**": (lambda g, v: f"({g} * {v(1)} * ({v(0)} ** ({v(1)} - 1)))",
           lambda g, v: f"({g} * log({v(0)}) * ({v(0)} ** {v(1)}))"),
    "%": (lambda g, v: g, lambda g, v: f"(-{g} * floor({v(0)} / {v(1)}))"),
}

UNARY: dict[str, Rule] = {
    "-": lambda g, v: f"(-{g})",
    "+": lambda g, v: g,
}

INTRINSIC: dict[str, tuple[Rule, ...]] = {
    "sqrt": (lambda g, v: f"({g} / (2 * sqrt({v(0)})))",),
    "rsqrt": (lambda g, v: f"(-0.5 * {g} * rsqrt({v(0)}) / {v(0)})",),
    "exp": (lambda g, v: f"({g} * exp({v(0)}))",),
    "expm1": (lambda g, v: f"({g} * exp({v(0)}))",),
    "log": (lambda g, v: f"({g} / {v(0)})",),
    "sin": (lambda g, v: f"({g} * cos({v(0)}))",),
    "cos": (lambda g, v: f"(-{g} * sin({v(0)}))",),
    "tanh": (lambda g, v: f"({g} * (1 - tanh({v(0)}) * tanh({v(0)})))",),
    "atan": (lambda g, v: f"({g} / (1 + {v(0)} * {v(0)}))",),
    "erf": (lambda g, v: f"({g} * 1.1283791670955126 * exp(-({v(0)} * {v(0)})))",),  # 2 / sqrt(pi)
    "abs": (lambda g, v: f"({g} * sign({v(0)}))",),
    "power": (lambda g, v: f"({g} * {v(1)} * power({v(0)}, {v(1)} - 1))",
              lambda g, v: f"({g} * log({v(0)}) * power({v(0)}, {v(1)}))"),
    "atan2": (lambda g, v: f"({g} * {v(1)} / ({v(0)} * {v(0)} + {v(1)} * {v(1)}))",
              lambda g, v: f"(-{g} * {v(0)} / ({v(0)} * {v(0)} + {v(1)} * {v(1)}))"),
}

#: operators and intrinsics whose derivative is zero wherever it exists
ZERO = frozenset({
    "//", "&", "|", "^", "<<", ">>", "~", "not", "floor", "ceil", "trunc", "round", "sign",
    "isnan", "isinf", "isfinite", "ceil_div", "int8", "int16", "int32", "int64",
})

#: casts between floating dtypes pass the adjoint through (cast back to the operand's dtype)
CASTS = frozenset({"float16", "float32", "float64"})
