"""Which outputs a kernel writes completely before it reads them (they need no zero-fill).

``output_tensor`` is zero-filled in the DSL (MindSpore's Python emulation allocates with
``numpy.zeros``), so a kernel may read an element it never wrote and get 0, or leave
elements unwritten and return zeros there. Zero-filling costs a write pass over the output
before the kernel writes it again (``calloc`` memsets memory that the allocator reuses), so an
output that is provably written in full before any read is allocated uninitialised
(``numpy.empty``) instead -- with the same result.

An output ``y`` of rank r >= 1 is *covered* when one top-level loop nest ``P`` (loops directly
inside one another, no ``if`` between them) stores to ``y`` in its innermost body, and

* every store index is a loop variable of ``P`` (or a component of a ``grid`` loop), each
  running over ``0 .. extent`` with step 1, where ``extent`` is that dimension of ``y`` as
  written in its ``output_tensor`` (the same expression, or ``y.shape[d]``), and every loop of
  ``P`` is used by one index (a loop of its own would not run when its trip count is 0);
* ``y`` is not read before the nest, nor in the nest's innermost body; inside the nest it is
  read only by statements after the inner loop that wrote it, at indices equal to the outer
  loops' variables (``out[i, j]`` after the ``j`` loop that wrote row ``i``, as in a row
  softmax).

Anything else keeps the zero-fill (accumulations such as ``c[i, j] = c[i, j] + ...``, writes
under ``if``, partial ranges).

Example:
    >>> from mskernel.hybrid import HybridKernel
    >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
    >>> fully_written(hk.specialize(hk.signature(["float32"], [1])))
    {'y': 3}
"""
from __future__ import annotations

from dataclasses import fields
from typing import Optional

from . import ir
from .check import Typed

__all__ = ["fully_written"]


def _same(a: object, b: object, static: dict[str, ir.Expr]) -> bool:
    """Structural equality of two expressions, ignoring locations; static scalars resolved."""
    if isinstance(a, ir.Var) and a.name in static:
        return _same(static[a.name], b, static)
    if isinstance(b, ir.Var) and b.name in static:
        return _same(a, static[b.name], static)
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y, static) for x, y in zip(a, b))  # type: ignore[arg-type]
    if not hasattr(a, "__dataclass_fields__"):
        return a == b
    return all(_same(getattr(a, f.name), getattr(b, f.name), static) for f in fields(a) if f.name != "loc")  # type: ignore[arg-type]


def _extents(typed: Typed, shape: ir.Shape, rank: int) -> Optional[list[object]]:
    """Each dimension of ``shape`` as an expression (``ShapeDim`` for ``of`` shapes)."""
    if shape.of is not None:
        return [ir.ShapeDim((0, 0), shape.of, d) for d in range(rank)]
    dims = list(shape.dims or [])
    return dims if len(dims) == rank else None


def _matches(typed: Typed, y: str, d: int, e: object) -> bool:
    """True if expression ``e`` is dimension ``d`` of output ``y``."""
    static = typed.static
    if _same(e, ir.ShapeDim((0, 0), y, d), static):
        return True
    dims = _extents(typed, typed.kernel.allocs[y].shape, typed.tensors[y].rank)
    return dims is not None and _same(e, dims[d], static)


def _loads_of(y: str, stmts: list[ir.Stmt]) -> list[ir.Load]:
    return [e for s in ir.walk_stmts(stmts) for root in ir.stmt_exprs(s) for e in ir.walk_exprs(root)
            if isinstance(e, ir.Load) and e.tensor == y]


def _index_dims(typed: Typed, y: str, store: ir.Store, path: list[ir.For]) -> Optional[dict[int, list[int]]]:
    """{loop position in ``path``: the dimensions of ``y`` it covers}, if ``store`` covers all of ``y``."""
    rank = typed.tensors[y].rank
    loops = {loop.var: k for k, loop in enumerate(path)}
    used: dict[int, list[int]] = {}
    if store.grid is not None:
        k = loops.get(store.grid)
        shape = path[k].grid_shape if k is not None else None
        dims = _extents(typed, shape, rank) if shape is not None else None
        if dims is None or not all(_matches(typed, y, d, e) for d, e in enumerate(dims)):
            return None
        used[k] = list(range(rank))  # type: ignore[index]
    else:
        if len(store.indices) != rank:
            return None
        for d, idx in enumerate(store.indices):
            if isinstance(idx, ir.Var) and idx.name in loops:
                loop = path[loops[idx.name]]
                if loop.kind == "grid" or not (_same(loop.start, ir.Const((0, 0), 0), {}) and
                                               _same(loop.step, ir.Const((0, 0), 1), {}) and
                                               _matches(typed, y, d, loop.stop)):
                    return None
                k = loops[idx.name]
            elif isinstance(idx, ir.GridComponent) and idx.var in loops and idx.index == d:
                k = loops[idx.var]
                shape = path[k].grid_shape
                dims = _extents(typed, shape, len(path[k].grid_names)) if shape is not None else None
                if dims is None or not _matches(typed, y, d, dims[idx.index]):
                    return None
            else:
                return None
            if any(d in ds or (k in used and path[k].kind != "grid") for ds in used.values()):
                return None
            used.setdefault(k, []).append(d)
    return used if len(used) == len(path) else None


def _candidates(y: str, stmts: list[ir.Stmt], path: list[ir.For]):
    """(store, path) for every store to ``y`` reached from ``stmts`` through loops only."""
    for s in stmts:
        if isinstance(s, ir.Store) and s.tensor == y and path:
            yield s, path
        elif isinstance(s, ir.For):
            yield from _candidates(y, s.body, path + [s])


def _reads_ok(y: str, store: ir.Store, path: list[ir.For], level: int, body: list[ir.Stmt]) -> bool:
    """No read of ``y`` in ``body`` (the body of ``path[level - 1]``) sees an element not yet written."""
    if level == len(path):
        return not _loads_of(y, body)
    fixed = [d for k in range(level) for d, idx in enumerate(store.indices)
             if _uses(idx, path[k])] if store.grid is None else None
    seen = False
    for s in body:
        if s is path[level]:
            seen = True
            if not _reads_ok(y, store, path, level + 1, path[level].body):
                return False
            continue
        loads = _loads_of(y, [s])
        if loads and (not seen or fixed is None):
            return False
        for load in loads:
            if load.grid is not None or len(load.indices) != len(store.indices):
                return False
            if not all(_same(load.indices[d], store.indices[d], {}) for d in fixed or []):
                return False
    return True


def _uses(idx: ir.Expr, loop: ir.For) -> bool:
    return (isinstance(idx, ir.Var) and idx.name == loop.var) or \
        (isinstance(idx, ir.GridComponent) and idx.var == loop.var)


def fully_written(typed: Typed) -> dict[str, int]:
    """{output name: line of the loop nest that writes all of it first} (see the module doc)."""
    k = typed.kernel
    result: dict[str, int] = {}
    for y in k.outputs:
        if typed.tensors[y].rank == 0:
            continue
        for s in k.body:
            if isinstance(s, ir.For):
                found = next((path for store, path in _candidates(y, [s], [])
                              if _index_dims(typed, y, store, path) is not None
                              and _reads_ok(y, store, path, 0, [s])), None)
                if found is not None:
                    result[y] = s.loc[0]
                    break
            if _loads_of(y, [s]):
                break  # read before it is written in full
    return result
