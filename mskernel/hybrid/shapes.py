"""Output shapes as small Python functions generated from the IR.

The shape of every output is an expression of input extents, attributes and literals (the
checker guarantees it). :func:`shape_source` writes those expressions as Python; they are
compiled once per signature into ``infer(shapes, attrs)`` (used by ``HybridKernel.infer``)
and ``alloc(arrays, attrs)`` (used on every ``run`` to allocate the outputs: zero-filled unless
the kernel writes them in full, see :mod:`.coverage`),
so the per-call cost is one Python call, not an IR walk.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.check import specialize, Signature
    >>> k = parse(KernelSource.from_text("def mm(a, b):\\n"
    ...     "    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)\\n    return c\\n"))
    >>> t = specialize(k, Signature(("float32", "float32"), (2, 2)))
    >>> shape_source(t, "s[{}]")
    ['(s[0][0], s[1][1],)']
    >>> make_infer(t)([(2, 3), (3, 4)], ())
    [((2, 4), 'float32')]
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from . import ir
from .check import Typed
from .coverage import fully_written
from .intrinsics import INTRINSICS

__all__ = ["shape_source", "make_infer", "make_alloc", "make_call", "make_select", "shape_error"]


class _PyExpr:
    def __init__(self, typed: Typed, input_dims: str):
        self.t = typed
        self.input_dims = input_dims
        self.dims: dict[str, list[str]] = {}
        for name, info in typed.tensors.items():
            if info.kind == "input":
                base = input_dims.format(info.index)
                self.dims[name] = [f"{base}[{d}]" for d in range(info.rank)]

    def shape(self, shape: ir.Shape) -> list[str]:
        if shape.of is not None:
            return list(self.dims[shape.of])
        return [self.expr(d) for d in shape.dims or []]

    def expr(self, e: ir.Expr) -> str:
        if isinstance(e, ir.Const):
            return repr(e.value)
        if isinstance(e, ir.Param):
            return f"a[{self.t.attrs[e.name][0]}]"
        if isinstance(e, ir.ShapeDim):
            return self.dims[e.tensor][e.dim]
        if isinstance(e, ir.Rank):
            return str(self.t.tensors[e.tensor].rank)
        if isinstance(e, ir.Var):
            return f"({self.expr(self.t.static[e.name])})"
        if isinstance(e, ir.BinOp):
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, ir.UnaryOp):
            return f"({e.op} {self.expr(e.operand)})"
        if isinstance(e, ir.Compare):
            return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"
        if isinstance(e, ir.BoolOp):
            return "(" + f" {e.op} ".join(self.expr(v) for v in e.values) + ")"
        if isinstance(e, ir.Select):
            return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.orelse)})"
        if isinstance(e, ir.Call):
            args = [self.expr(a) for a in e.args]
            kind = INTRINSICS[e.func].kind
            if e.func == "ceil_div":
                return f"(({args[0]} + {args[1]} - 1) // {args[1]})"
            if kind == "cast":
                return f"int({args[0]})"
            return f"{e.func}({', '.join(args)})"
        raise AssertionError(f"not a static expression: {e!r}")  # the checker prevents this


def shape_source(typed: Typed, input_dims: str) -> list[str]:
    """Python tuple expressions of every non-in-place output's shape, in return order.

    ``input_dims`` spells the shape of input k, e.g. ``"s[{}]"`` or ``"t[{}].shape"``.
    """
    gen = _PyExpr(typed, input_dims)
    out: list[str] = []
    for name, alloc in typed.kernel.allocs.items():
        if alloc.kind == "output":
            gen.dims[name] = gen.shape(alloc.shape)
    for name in typed.kernel.returns:
        if name not in typed.kernel.params:
            out.append("(" + "".join(f"{d}, " for d in gen.dims[name]).rstrip() + ")")
    return out


def _outputs(typed: Typed) -> list[tuple[str, str]]:
    """(name, dtype) of every returned tensor, in return order."""
    return [(n, typed.tensors[n].dtype) for n in typed.kernel.returns]


def make_infer(typed: Typed) -> Callable[[Sequence[Sequence[int]], Sequence[Any]], list[tuple[tuple[int, ...], str]]]:
    """``infer(input_shapes, attrs) -> [(shape, dtype), ...]`` for every returned tensor."""
    shapes = iter(shape_source(typed, "s[{}]"))
    items = []
    for name, dtype in _outputs(typed):
        info = typed.tensors[name]
        shape = f"tuple(s[{info.index}])" if info.kind == "input" else f"tuple({next(shapes)})"
        items.append(f"({shape}, {dtype!r})")
    builtins = {"tuple": tuple, "max": max, "min": min, "int": int}
    fn = eval(f"lambda s, a: [{', '.join(items)}]", {"__builtins__": builtins})
    names = typed.kernel.returns

    def infer(s: Sequence[Sequence[int]], a: Sequence[Any]) -> list[tuple[tuple[int, ...], str]]:
        result = fn(s, a)
        for name, (shape, _) in zip(names, result):
            if shape and min(shape) < 0:
                raise shape_error(typed, name, shape)
        return result  # type: ignore[no-any-return]
    return infer


def shape_error(typed: Typed, name: str, shape: Sequence[int], exc: BaseException | None = None) -> Exception:
    """The error for output ``name`` of ``shape``: ValueError for a negative extent, else MemoryError.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.check import specialize, Signature
        >>> k = parse(KernelSource.from_text("def f(x):\\n    y = output_tensor((x.shape[0] - 5,), x.dtype)\\n"
        ...     "    return y\\n"))
        >>> print(shape_error(specialize(k, Signature(("float32",), (1,))), "y", (-2,)))
        hybrid kernel 'f': output_tensor y has shape (-2,): negative dimensions are not allowed at <string>:2:5
            y = output_tensor((x.shape[0] - 5,), x.dtype)
    """
    k = typed.kernel
    loc = k.allocs[name].loc if name in k.allocs else k.return_loc
    where = f"at {k.filename}:{loc[0]}:{loc[1]}\n    {k.lines.get(loc[0], '').strip()}"
    text = f"({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})"
    if min(shape, default=0) < 0:
        return ValueError(f"hybrid kernel '{k.name}': output_tensor {name} has shape {text}: negative dimensions "
                          f"are not allowed {where}")
    return MemoryError(f"hybrid kernel '{k.name}': cannot allocate output_tensor {name} with shape {text} "
                       f"and dtype {typed.tensors[name].dtype} ({exc}) {where}")


def _numpy_empty(shape: Any, dtype: Any, inputs: Any) -> np.ndarray:
    return np.empty(shape, dtype)


def _alloc_expression(typed: Typed, empty: Callable[[Any, Any, Any], np.ndarray]) -> tuple[str, dict[str, Any]]:
    """The Python tuple expression allocating the non-in-place outputs of arrays ``t``, attributes ``a``, and
    the names it uses."""
    shapes = shape_source(typed, "t[{}].shape")
    outputs = [(n, np.dtype(d)) for n, d in _outputs(typed) if n not in typed.kernel.params]
    covered = fully_written(typed)
    env: dict[str, Any] = {"__builtins__": {"max": max, "min": min, "int": int}, "_z": np.zeros, "_e": empty}
    parts = []
    for i, (shape, (name, dtype)) in enumerate(zip(shapes, outputs)):
        env[f"_d{i}"] = dtype
        parts.append(f"_e({shape}, _d{i}, t)" if name in covered else f"_z({shape}, _d{i})")
    return f"({''.join(p + ', ' for p in parts)})", env


def make_alloc(typed: Typed, empty: Callable[[Any, Any, Any], np.ndarray] = _numpy_empty
               ) -> Callable[[Sequence[np.ndarray], Sequence[Any]], tuple[np.ndarray, ...]]:
    """``alloc(arrays, attrs) -> tuple`` of the non-in-place outputs (return order): zero-filled, except
    those the kernel writes in full before reading them (:func:`~.coverage.fully_written`), which are
    left uninitialised (``empty(shape, dtype, inputs)``, by default ``numpy.empty``: no write pass before
    the kernel's own, no page touched before the kernel's threads touch it)."""
    expression, env = _alloc_expression(typed, empty)
    fast = eval(f"lambda t, a: {expression}", env)
    infer = make_infer(typed)
    names = [n for n in typed.kernel.returns if n not in typed.kernel.params]

    def alloc(t: Sequence[np.ndarray], a: Sequence[Any]) -> tuple[np.ndarray, ...]:
        try:
            return fast(t, a)  # type: ignore[no-any-return]
        except (ValueError, MemoryError):  # say which output, which shape and where
            try:
                inferred = infer([x.shape for x in t], a)  # raises for a negative extent
            except ValueError as negative:
                raise negative from None
            shapes = dict(zip(typed.kernel.returns, (shape for shape, _ in inferred)))
            for name in names:
                try:
                    np.zeros(shapes[name], typed.tensors[name].dtype)
                except (ValueError, MemoryError) as inner:
                    raise shape_error(typed, name, shapes[name], inner) from None
            raise
    return alloc


def make_call(typed: Typed, empty: Callable[[Any, Any, Any], np.ndarray], dispatch: Callable[..., Any],
              entries: tuple[int, int, bytes], into: bool = False) -> Callable[..., Any]:
    """``call(arrays, attrs)``: allocate the outputs, run the kernel through ``dispatch(contig, strided, spec,
    arrays + outputs, attrs)`` and return what the kernel returns -- one Python call, the per-call path of
    ``HybridKernel.run`` and of hybrid ``ops.Custom`` ops. It returns None when the kernel reports an error, and
    lets any exception out (a shape numpy refuses, an array the dispatcher refuses): the caller then takes the
    checked path, which says what went wrong. ``attrs`` must be a tuple of plain values.

    ``into=True`` makes ``call(arrays, attrs, out)`` instead, writing into given arrays (``run(..., out=)``):
    it returns None, running nothing, unless ``out`` holds exactly the outputs' shapes and dtypes.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] + 1.0\\n    return y\\n")
        >>> ck = hk.compile(["float64"], [1])
        >>> ck.call([np.zeros(2)], ())
        (array([1., 1.]),)
    """
    expression, env = _alloc_expression(typed, empty)
    select = make_select(typed)
    env.update(_dispatch=dispatch, _contig=entries[0], _strided=entries[1], _spec=entries[2], _select=select)
    result = "o" if select is None else "_select(t, o)"
    run = f"    if _dispatch(_contig, _strided, _spec, (*t, *o), a) is None:\n        return {result}\n"
    if into:
        shapes = shape_source(typed, "t[{}].shape")
        dtypes = [f"_d{i}" for i in range(len(shapes))]
        fits = " and ".join([f"o.__len__() == {len(shapes)}"] + [f"o[{i}].shape == {shape} and o[{i}].dtype == {d}"
                                                           for i, (shape, d) in enumerate(zip(shapes, dtypes))])
        text = f"def call(t, a, o):\n    if not ({fits}):\n        return None\n{run}"
    else:
        text = f"def call(t, a):\n    o = {expression}\n{run}"
    exec(text, env)  # noqa: S102 - generated from the kernel's shapes, not user text
    return env["call"]  # type: ignore[no-any-return]


def make_select(typed: Typed
                ) -> Callable[[Sequence[np.ndarray], tuple[np.ndarray, ...]], tuple[np.ndarray, ...]] | None:
    """``select(inputs, outs)`` -> the returned tuple, when some outputs are inputs (else None)."""
    params = typed.kernel.params
    if not any(r in params for r in typed.kernel.returns):
        return None
    items, k = [], 0
    for r in typed.kernel.returns:
        if r in params:
            items.append(f"t[{params.index(r)}]")
        else:
            items.append(f"o[{k}]")
            k += 1
    return eval(f"lambda t, o: ({''.join(i + ', ' for i in items)})", {"__builtins__": {}})  # type: ignore[no-any-return]
