"""The intrinsics of the hybrid DSL: their names, arities and numpy stand-ins.

The same table drives three things: the parser's checks (is ``sqrt`` known, how many
arguments does it take), the pure-Python execution (the stand-ins below are what the names
mean when a kernel runs as Python, as in MindSpore), and the typing of compiled code (the
result type of ``sqrt(int32)`` is whatever numpy's stand-in returns).

Example:
    >>> INTRINSICS["sqrt"].arity, INTRINSICS["atan2"].arity, INTRINSICS["float32"].kind
    (1, 2, 'cast')
    >>> output_tensor((2, 3), "float32").shape
    (2, 3)
    >>> list(grid((2, 2)))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> usage("power"), usage("max")
    ('power(x, y)', 'max(a, b, ...)')
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence

import numpy as np

__all__ = [
    "Intrinsic", "INTRINSICS", "LOOP_KINDS", "PARALLEL_KINDS", "RUNTIME_NAMES", "output_tensor", "allocate",
    "serial", "parallel", "vectorize", "reduce", "grid", "rsqrt", "erf", "ceil_div", "attr",
    "block_realize", "usage", "describe_calls", "NUMPY_EXAMPLES", "numpy_example",
]


def allocate(shape: Any, dtype: Any = "float32", scope: str = "global") -> np.ndarray:
    """A zero-filled temporary tensor (MindSpore's numpy emulation).

    Example:
        >>> allocate((2,), "int32")
        array([0, 0], dtype=int32)
    """
    del scope
    return _zeros("allocate", shape, dtype)


def output_tensor(shape: Any, dtype: Any = "float32") -> np.ndarray:
    """A zero-filled output tensor (MindSpore's numpy emulation).

    Example:
        >>> output_tensor((1, 2), "float64")
        array([[0., 0.]])
    """
    return _zeros("output_tensor", shape, dtype)


def _zeros(func: str, shape: Any, dtype: Any) -> np.ndarray:
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if any(int(d) < 0 for d in dims):
        raise ValueError(f"{func}(): negative dimensions are not allowed, got shape {tuple(int(d) for d in dims)}")
    return np.zeros(shape).astype(dtype)


def serial(*args: int) -> range:
    """A sequential loop; in Python, ``range``.

    Example:
        >>> list(serial(1, 7, 3))
        [1, 4]
    """
    return range(*args)


def parallel(*args: int) -> range:
    """A loop whose iterations may run in parallel (on the thread pool when compiled); in Python, ``range``.

    Example:
        >>> list(parallel(3))
        [0, 1, 2]
    """
    return range(*args)


def vectorize(*args: int) -> range:
    """A loop to vectorize (``#pragma omp simd`` when compiled); in Python, ``range``.

    Example:
        >>> list(vectorize(2))
        [0, 1]
    """
    return range(*args)


def reduce(*args: int) -> range:
    """A reduction loop; in Python, ``range`` (in order). Compiled, its sums, products, max and min may be
    combined over SIMD lanes -- float sums reassociated (see :mod:`mskernel.hybrid.reduction`).

    Example:
        >>> list(reduce(2))
        [0, 1]
    """
    return range(*args)


def grid(extents: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """All index tuples of a box of the given extents, row-major.

    Example:
        >>> list(grid((1, 3)))
        [(0, 0), (0, 1), (0, 2)]
    """
    return itertools.product(*[range(e) for e in extents])


def rsqrt(x: Any) -> Any:
    """Reciprocal square root, ``1 / sqrt(x)``, in the dtype of ``x``.

    Example:
        >>> float(rsqrt(np.float32(4.0)))
        0.5
    """
    return np.ones_like(x) / np.sqrt(x)


_erf_array = np.vectorize(math.erf, otypes=[np.float64])


def erf(x: Any) -> Any:
    """The error function, in the dtype of a floating ``x`` (float64 for integers).

    Example:
        >>> round(float(erf(np.float32(0.5))), 6)
        0.5205
    """
    out = _erf_array(x)
    dtype = np.result_type(np.sqrt(np.zeros((), np.asarray(x).dtype)))
    if isinstance(x, (bool, int, float)):
        return float(out)
    return out.astype(dtype)[()] if np.ndim(out) == 0 else out.astype(dtype)


def ceil_div(a: Any, b: Any) -> Any:
    """Integer division rounding up: ``(a + b - 1) // b``.

    Example:
        >>> ceil_div(7, 2)
        4
    """
    return (a + b - 1) // b


class _WithStub:
    """A no-op context manager standing in for ``attr(...)`` / ``block_realize(...)``."""

    def __call__(self, *args: Any, **kwargs: Any) -> "_WithStub":
        return self

    def __enter__(self) -> "_WithStub":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


attr = _WithStub()
block_realize = _WithStub()


@dataclass(frozen=True)
class Intrinsic:
    """One DSL name: ``kind`` is buffer/loop/scope/unary/binary/cast/minmax/len.

    ``fn`` is the numpy stand-in; ``arity`` the exact argument count (None: variable).

    Example:
        >>> int(INTRINSICS["power"].fn(2, 3))
        8
    """

    name: str
    kind: str
    arity: Optional[int]
    fn: Callable[..., Any]


def _table() -> dict[str, Intrinsic]:
    t: dict[str, Intrinsic] = {}
    t["allocate"] = Intrinsic("allocate", "buffer", 2, allocate)
    t["output_tensor"] = Intrinsic("output_tensor", "buffer", 2, output_tensor)
    for name, fn in [("range", range), ("serial", serial), ("parallel", parallel),
                     ("vectorize", vectorize), ("reduce", reduce)]:
        t[name] = Intrinsic(name, "loop", None, fn)
    t["grid"] = Intrinsic("grid", "loop", 1, grid)
    t["attr"] = Intrinsic("attr", "scope", 2, attr)
    t["block_realize"] = Intrinsic("block_realize", "scope", 1, block_realize)
    unary = {
        "sqrt": np.sqrt, "rsqrt": rsqrt, "exp": np.exp, "expm1": np.expm1, "log": np.log,
        "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "atan": np.arctan, "erf": erf,
        "abs": np.abs, "sign": np.sign, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
        "round": np.round, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
    }
    for name, fn in unary.items():
        t[name] = Intrinsic(name, "unary", 1, fn)
    for name, fn in [("power", np.power), ("atan2", np.arctan2), ("ceil_div", ceil_div)]:
        t[name] = Intrinsic(name, "binary", 2, fn)
    for name in ["int8", "int16", "int32", "int64", "float16", "float32", "float64"]:
        t[name] = Intrinsic(name, "cast", 1, getattr(np, name))
    t["max"] = Intrinsic("max", "minmax", None, max)
    t["min"] = Intrinsic("min", "minmax", None, min)
    t["len"] = Intrinsic("len", "len", 1, len)
    return t


#: every name the DSL knows, with its kind, arity and numpy stand-in
INTRINSICS: dict[str, Intrinsic] = _table()

#: loop intrinsics and what they mean for code generation
LOOP_KINDS = ("range", "serial", "parallel", "vectorize", "reduce", "grid")
#: the loop kinds whose iterations run at the same time on a device
PARALLEL_KINDS = ("parallel", "vectorize")

#: the globals a kernel sees when it runs as Python (MindSpore's ``intrin_runtime``)
RUNTIME_NAMES: dict[str, Any] = {
    name: intr.fn for name, intr in INTRINSICS.items() if intr.kind not in ("minmax", "len")
}


#: an example of each numpy function the package exports as an intrinsic (their docstrings are numpy's), one per
#: line: the statement's right-hand side, the output dtype, the input values and what printing the result shows;
#: the API reference shows them and doctest runs them from ``__test__``
NUMPY_EXAMPLES: dict[str, tuple[str, str, str, str]] = {
    "sqrt": ("sqrt(x[i])", "float64", "[1.0, 4.0]", "[1. 2.]"),
    "exp": ("exp(x[i])", "float64", "[0.0, 1.0]", "[1.         2.71828183]"),
    "expm1": ("expm1(x[i])", "float64", "[0.0, 1.0]", "[0.         1.71828183]"),
    "log": ("log(x[i])", "float64", "[1.0, 10.0]", "[0.         2.30258509]"),
    "sin": ("sin(x[i])", "float64", "[0.0, 1.0]", "[0.         0.84147098]"),
    "cos": ("cos(x[i])", "float64", "[0.0, 1.0]", "[1.         0.54030231]"),
    "tanh": ("tanh(x[i])", "float64", "[0.0, 1.0]", "[0.         0.76159416]"),
    "atan": ("atan(x[i])", "float64", "[0.0, 1.0]", "[0.         0.78539816]"),
    "atan2": ("atan2(x[i], 1.0)", "float64", "[0.0, 1.0]", "[0.         0.78539816]"),
    "sign": ("sign(x[i])", "float64", "[-3.0, 0.0, 2.0]", "[-1.  0.  1.]"),
    "floor": ("floor(x[i])", "float64", "[-1.5, 1.5]", "[-2.  1.]"),
    "ceil": ("ceil(x[i])", "float64", "[-1.5, 1.5]", "[-1.  2.]"),
    "trunc": ("trunc(x[i])", "float64", "[-1.5, 1.5]", "[-1.  1.]"),
    "isnan": ("isnan(x[i])", "bool", "[np.nan, 1.0]", "[ True False]"),
    "isinf": ("isinf(x[i])", "bool", "[np.inf, 1.0]", "[ True False]"),
    "isfinite": ("isfinite(x[i])", "bool", "[np.inf, 1.0]", "[False  True]"),
    "power": ("power(x[i], 2.0)", "float64", "[2.0, 3.0]", "[4. 9.]"),
    "int8": ("int8(x[i] * 2.0)", "int8", "[1.25, -2.5]", "[ 2 -5]"),
    "int16": ("int16(x[i] * 2.0)", "int16", "[1.25, -2.5]", "[ 2 -5]"),
    "int32": ("int32(x[i] * 2.0)", "int32", "[1.25, -2.5]", "[ 2 -5]"),
    "int64": ("int64(x[i] * 2.0)", "int64", "[1.25, -2.5]", "[ 2 -5]"),
    "float16": ("float16(x[i]) / float16(3.0)", "float16", "[1.0, 2.0]", "[0.3333 0.6665]"),
    "float32": ("float32(x[i]) / float32(3.0)", "float32", "[1.0, 2.0]", "[0.33333334 0.6666667 ]"),
    "float64": ("float64(x[i]) / float64(3.0)", "float64", "[1.0, 2.0]", "[0.33333333 0.66666667]"),
}


def numpy_example(name: str) -> str:
    """The doctest of :data:`NUMPY_EXAMPLES` entry ``name``: a kernel using it, run as Python on float64 input.

    Example:
        >>> numpy_example("int32").splitlines()[-4:]
        ['...         y[i] = int32(x[i] * 2.0)', '...     return y', '>>> print(f(np.array([1.25, -2.5])))', '[ 2 -5]']
    """
    rhs, dtype, values, out = NUMPY_EXAMPLES[name]
    return (f">>> import numpy as np\n>>> from mskernel.hybrid import kernel, output_tensor, {name}\n>>> @kernel\n"
            f"... def f(x):\n...     y = output_tensor(x.shape, \"{dtype}\")\n...     for i in range(x.shape[0]):\n"
            f"...         y[i] = {rhs}\n...     return y\n>>> print(f(np.array({values})))\n{out}\n")


__test__ = {name: numpy_example(name) for name in NUMPY_EXAMPLES}


_USAGE = {"buffer": "{}(shape, dtype)", "unary": "{}(x)", "cast": "{}(x)", "binary": "{}(x, y)",
          "minmax": "{}(a, b, ...)", "len": "{}(t.shape)", "loop": "{}(stop) or {}(start, stop[, step])"}
_SPECIAL_USAGE = {"grid": "grid(shape)", "attr": "attr(name, value)", "block_realize": "block_realize(tensor)"}


def usage(name: str) -> str:
    """How the intrinsic ``name`` is written, for messages: ``sqrt(x)``, ``output_tensor(shape, dtype)``.

    Example:
        >>> usage("sqrt"), usage("output_tensor"), usage("range")
        ('sqrt(x)', 'output_tensor(shape, dtype)', 'range(stop) or range(start, stop[, step])')
    """
    if name in _SPECIAL_USAGE:
        return _SPECIAL_USAGE[name]
    return _USAGE[INTRINSICS[name].kind].replace("{}", name)


def describe_calls() -> str:
    """The calls an expression may make, grouped by kind (every name comes from :data:`INTRINSICS`).

    Example:
        >>> print(describe_calls()[:39])
        math sqrt, rsqrt, exp, expm1, log, sin,
    """
    def names(kind: str) -> str:
        return ", ".join(n for n, i in INTRINSICS.items() if i.kind == kind)
    return (f"math {names('unary')}; two-argument {names('binary')}; casts {names('cast')}; "
            f"max(a, b, ...), min(a, b, ...); len(t.shape)")
