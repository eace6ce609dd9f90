"""Static counts of a hybrid kernel: its loads, stores and arithmetic, read from the kernel's IR.

No hardware counters: the kernel's checked IR (:meth:`HybridKernel.specialize` for the inputs'
signature) is walked with the inputs' concrete shapes and attributes. Loop trip counts are
evaluated from the bounds; a loop whose inner bounds or conditions do not depend on its variable
is counted once and multiplied, otherwise it is walked iteration by iteration (up to
``max_iterations`` in all, else :class:`CountError`).

What is counted, per execution of the kernel:

* ``loads`` / ``stores``: element accesses of the kernel's tensors (inputs and outputs), with their
  bytes. Within one iteration a repeated read of the same element (``x[i] * x[i]``), or a read of
  an element just stored, is one access -- what a compiler keeps in a register. The element a
  ``reduce`` loop accumulates into (``y[i] = y[i] + x[i, j]``) is read once before the loop and
  written once after it, as the compiled loop does (:func:`mskernel.hybrid.reduction.held_elements`;
  in a ``range`` loop it is read and written at every iteration). Accesses of
  ``allocate`` temporaries are counted apart (``temp_loads``/``temp_stores``): they usually stay in
  cache.
* ``flops``: float ``+ - * / % // **`` on values (index arithmetic is not counted); ``special``:
  float math intrinsics (sqrt, exp, max, ...); ``int_ops``: integer arithmetic on values.
  Comparisons, selects, casts and negation are not counted.
* ``compulsory_bytes``: the bytes no execution can avoid: every input read once, every output
  written once (the zero-filling of outputs by the caller is outside the kernel).

A condition that depends on data (``if x[i] > 0``) counts the costlier branch and marks the counts
``exact=False`` with a note.

Example:
    >>> import numpy as np
    >>> from mskernel.hybrid import HybridKernel
    >>> hk = HybridKernel.from_source("def sq(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * x[i]\\n    return y\\n")
    >>> c = count_kernel(hk, np.zeros(1000, np.float32))
    >>> c.loads, c.stores, c.flops, c.bytes, c.compulsory_bytes, c.exact
    (1000, 1000, 1000, 8000, 8000, True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Optional

import numpy as np

from mskernel.errors import MskernelError

__all__ = ["Counts", "CountError", "count_kernel", "hybrid_kernel_of"]

_ARITH = {"+", "-", "*", "/", "%", "//", "**"}
_INT_ARITH = _ARITH | {"&", "|", "^", "<<", ">>"}
_NOT_COUNTED_CALLS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                      "float32", "float64", "bool"}


class CountError(MskernelError):
    """A kernel's accesses cannot be counted statically (bounds that depend on data, too many iterations).

    Example:
        >>> import numpy as np
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def k(x, n):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...                               "    for i in range(n[0]):\\n        y[i] = x[i]\\n    return y\\n")
        >>> try:
        ...     count_kernel(hk, np.ones(3, np.float32), np.array([2], np.int32))
        ... except CountError as e:
        ...     print(str(e)[:62])
        cannot count kernel 'k' statically: the loop at line 3 has bou
    """


@dataclass
class Counts:
    """Loads, stores and arithmetic of one kernel execution (see the module docstring for the rules).

    Example:
        >>> c = Counts("k", loads=2, stores=1, load_bytes=8, store_bytes=4, flops=3)
        >>> c.bytes, round(c.intensity, 3)
        (12, 0.25)
    """

    kernel: str
    loads: int = 0
    stores: int = 0
    load_bytes: int = 0
    store_bytes: int = 0
    flops: int = 0
    special: int = 0
    int_ops: int = 0
    temp_loads: int = 0
    temp_stores: int = 0
    compulsory_bytes: int = 0
    exact: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def bytes(self) -> int:
        """Bytes loaded and stored, access by access (the most traffic the kernel can cause)."""
        return self.load_bytes + self.store_bytes

    @property
    def intensity(self) -> float:
        """``flops / bytes`` (access-by-access traffic): the lowest arithmetic intensity."""
        return self.flops / self.bytes if self.bytes else math.inf

    @property
    def max_intensity(self) -> float:
        """``flops / compulsory_bytes``: the highest arithmetic intensity any execution can reach."""
        return self.flops / self.compulsory_bytes if self.compulsory_bytes else math.inf

    def describe(self) -> str:
        """One line for these counts.

        Example:
            >>> print(Counts("sq", loads=4, stores=4, load_bytes=16, store_bytes=16, flops=4,
            ...              compulsory_bytes=32).describe())
            sq: 4 loads, 4 stores (32 B), 4 flops, 0 special, 0 int ops; compulsory 32 B; intensity 0.125-0.125 flop/B
        """
        text = (f"{self.kernel}: {self.loads} loads, {self.stores} stores ({self.bytes} B), {self.flops} flops, "
                f"{self.special} special, {self.int_ops} int ops; compulsory {self.compulsory_bytes} B; "
                f"intensity {self.intensity:.3g}-{self.max_intensity:.3g} flop/B")
        if self.temp_loads or self.temp_stores:
            text += f"; temporaries {self.temp_loads} loads, {self.temp_stores} stores"
        if not self.exact:
            text += " (upper bound: " + "; ".join(self.notes) + ")"
        return text


class _Unknown(Exception):
    """An expression whose value depends on data (or on a variable not known here)."""


_COUNTERS = [f.name for f in fields(Counts) if f.type == "int"]


def _zero() -> dict[str, int]:
    return dict.fromkeys(_COUNTERS, 0)


def _add(a: dict[str, int], b: dict[str, int], k: int = 1) -> None:
    for name in _COUNTERS:
        a[name] += k * b[name]


class _Walker:
    def __init__(self, typed: Any, shapes: dict[str, tuple[int, ...]], attrs: dict[str, Any],
                 max_iterations: int) -> None:
        from mskernel.hybrid import ir

        self.ir = ir
        self.typed = typed
        self.shapes = shapes
        self.attrs = attrs
        self.budget = max_iterations
        self.notes: list[str] = []
        self.itemsize = {n: np.dtype(t.dtype).itemsize for n, t in typed.tensors.items()}
        self.kind = {n: t.kind for n, t in typed.tensors.items()}
        self.loaded: set[str] = set()
        self.stored: set[str] = set()
        self.held: set[int] = set()  # accesses of reduce-loop accumulator elements, counted once per loop

    # ------------------------------------------------------------------ integer evaluation
    def value(self, e: Any, env: dict[str, Any]) -> Any:
        ir = self.ir
        if isinstance(e, ir.Const):
            return e.value
        if isinstance(e, ir.Var):
            if e.name in env:
                return env[e.name]
            raise _Unknown(e.name)
        if isinstance(e, ir.Param):
            return self.attrs[e.name]
        if isinstance(e, ir.ShapeDim):
            return self.shapes[e.tensor][e.dim]
        if isinstance(e, ir.Rank):
            return len(self.shapes[e.tensor])
        if isinstance(e, ir.GridComponent):
            if e.var in env:
                return env[e.var][e.index]
            raise _Unknown(e.var)
        if isinstance(e, ir.BinOp):
            a, b = self.value(e.left, env), self.value(e.right, env)
            return _BIN[e.op](a, b)
        if isinstance(e, ir.UnaryOp):
            v = self.value(e.operand, env)
            return {"-": lambda: -v, "+": lambda: v, "~": lambda: ~v, "not": lambda: not v}[e.op]()
        if isinstance(e, ir.Compare):
            return _CMP[e.op](self.value(e.left, env), self.value(e.right, env))
        if isinstance(e, ir.BoolOp):
            vals = [self.value(v, env) for v in e.values]
            return all(vals) if e.op == "and" else any(vals)
        if isinstance(e, ir.Select):
            return self.value(e.then, env) if self.value(e.cond, env) else self.value(e.orelse, env)
        if isinstance(e, ir.Call) and e.func in ("max", "min"):
            vals = [self.value(a, env) for a in e.args]
            return max(vals) if e.func == "max" else min(vals)
        if isinstance(e, ir.Call) and e.func == "ceil_div":
            a, b = (self.value(x, env) for x in e.args)
            return -(-a // b)
        raise _Unknown(type(e).__name__)

    def shape_of(self, shape: Any, env: dict[str, Any]) -> tuple[int, ...]:
        if shape.of is not None:
            return self.shapes[shape.of]
        return tuple(int(self.value(d, env)) for d in shape.dims)

    # ------------------------------------------------------------------ expressions
    def key(self, e: Any) -> Any:
        ir = self.ir
        if isinstance(e, (ir.Const,)):
            return ("c", e.value)
        if isinstance(e, ir.Var):
            return ("v", e.name)
        if isinstance(e, ir.Load):
            return ("l", e.tensor, e.grid, tuple(self.key(i) for i in e.indices))
        parts = [type(e).__name__, getattr(e, "op", None), getattr(e, "func", None), getattr(e, "name", None),
                 getattr(e, "tensor", None), getattr(e, "dim", None), getattr(e, "var", None),
                 getattr(e, "index", None)]
        kids = [getattr(e, n) for n in ("left", "right", "operand", "cond", "then", "orelse") if hasattr(e, n)]
        kids += list(getattr(e, "values", None) or getattr(e, "args", None) or [])
        return (*parts, tuple(self.key(k) for k in kids))

    def expr(self, e: Any, c: dict[str, int], seen: set, value: bool = True) -> None:
        """Count ``e``; ``value=False`` for index positions (only the loads inside count)."""
        ir = self.ir
        if isinstance(e, ir.Load):
            for i in e.indices:
                self.expr(i, c, seen, value=False)
            if id(e) in self.held:
                return
            k = self.key(e)
            if k in seen:
                return
            seen.add(k)
            if self.kind.get(e.tensor) == "temp":
                c["temp_loads"] += 1
            else:
                c["loads"] += 1
                c["load_bytes"] += self.itemsize[e.tensor]
                self.loaded.add(e.tensor)
            return
        if value and isinstance(e, ir.BinOp):
            t = self.typed.types.get(id(e), "")
            if t.startswith("float") and e.op in _ARITH:
                c["flops"] += 1
            elif e.op in _INT_ARITH and (t.startswith("int") or t.startswith("uint")) and self._reads_data(e):
                c["int_ops"] += 1
        if value and isinstance(e, ir.Call) and e.func not in _NOT_COUNTED_CALLS:
            if self.typed.types.get(id(e), "").startswith("float"):
                c["special"] += 1
        kids = [getattr(e, n) for n in ("left", "right", "operand", "cond", "then", "orelse") if hasattr(e, n)]
        kids += list(getattr(e, "values", None) or getattr(e, "args", None) or [])
        for k in kids:
            self.expr(k, c, seen, value)

    def _reads_data(self, e: Any) -> bool:
        from mskernel.hybrid.ir import walk_exprs

        return any(isinstance(s, self.ir.Load) for s in walk_exprs(e))

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, env: dict[str, Any], seen: set) -> dict[str, int]:
        ir = self.ir
        c = _zero()
        for s in stmts:
            if isinstance(s, ir.Store):
                self.expr(s.value, c, seen)
                for i in s.indices:
                    self.expr(i, c, seen, value=False)
                seen.difference_update({k for k in seen if k[0] == "l" and k[1] == s.tensor})
                seen.add(("l", s.tensor, s.grid, tuple(self.key(i) for i in s.indices)))
                if id(s) in self.held:
                    continue
                if self.kind.get(s.tensor) == "temp":
                    c["temp_stores"] += 1
                else:
                    c["stores"] += 1
                    c["store_bytes"] += self.itemsize[s.tensor]
                    self.stored.add(s.tensor)
            elif isinstance(s, ir.Assign):
                self.expr(s.value, c, seen)
                try:
                    env[s.name] = self.value(s.value, env)
                except (_Unknown, KeyError, ZeroDivisionError, TypeError):
                    env.pop(s.name, None)
                seen.difference_update({k for k in seen if ("v", s.name) in _flatten(k)})
            elif isinstance(s, ir.If):
                self.expr(s.cond, c, seen)
                try:
                    taken = bool(self.value(s.cond, env))
                except (_Unknown, KeyError, ZeroDivisionError, TypeError):
                    a = self.block(s.then, dict(env), set(seen))
                    b = self.block(s.orelse, dict(env), set(seen))
                    costlier = a if _cost(a) >= _cost(b) else b
                    _add(c, costlier)
                    _forget_stored(seen, [*s.then, *s.orelse], ir)
                    note = f"line {s.loc[0]}: a condition on data; the costlier branch counted"
                    if note not in self.notes:
                        self.notes.append(note)
                    continue
                _add(c, self.block(s.then if taken else s.orelse, env, seen))
                _forget_stored(seen, [*s.then, *s.orelse], ir)
            elif isinstance(s, ir.For):
                _add(c, self.loop(s, env))
                seen.clear()  # the loop may have stored anything seen before it
            # Alloc: outputs are allocated by the caller, temporaries are not memory traffic
        return c

    def loop(self, s: Any, env: dict[str, Any]) -> dict[str, int]:
        ir = self.ir
        try:
            if s.kind == "grid":
                extents = self.shape_of(s.grid_shape, env)
                values: Any = None
                trip = int(np.prod(extents)) if extents else 1
            else:
                start = int(self.value(s.start, env)) if s.start is not None else 0
                stop = int(self.value(s.stop, env))
                step = int(self.value(s.step, env)) if s.step is not None else 1
                trip = max(0, -(-(stop - start) // step)) if step > 0 else max(0, -(-(start - stop) // -step))
        except _Unknown as exc:
            raise CountError(f"cannot count kernel {self.typed.kernel.name!r} statically: the loop at line "
                             f"{s.loc[0]} has bounds that depend on data ({exc})") from None
        if trip == 0:
            return _zero()
        once = _zero()  # accumulator elements of a reduce loop: one load before it, one store after it
        if s.kind == "reduce":
            from mskernel.hybrid.reduction import held_elements

            for a in held_elements(self.typed, s):
                self.held |= {id(a.store), *(id(x) for x in a.operands)}
                temp = self.kind.get(a.name) == "temp"
                once["temp_loads" if temp else "loads"] += 1
                once["temp_stores" if temp else "stores"] += 1
                if not temp:
                    once["load_bytes"] += self.itemsize[a.name]
                    once["store_bytes"] += self.itemsize[a.name]
                    self.loaded.add(a.name)
                    self.stored.add(a.name)
        names = {s.var, *s.grid_names}
        if not (names | _assigned(s.body, ir)) & _control_names(s.body, ir):
            total = {k: v * trip for k, v in self.block(s.body, dict(env), set()).items()}
            _add(total, once)
            return total
        self.budget -= trip
        if self.budget < 0:
            raise CountError(f"cannot count kernel {self.typed.kernel.name!r} statically: the loop at line "
                             f"{s.loc[0]} has bounds inside that depend on its variable, and walking its "
                             "iterations exceeds max_iterations (count at a smaller size)")
        total = dict(once)
        if s.kind == "grid":
            values = np.ndindex(*extents)
        else:
            values = range(start, stop, step)
        for v in values:
            inner = dict(env)
            inner[s.var] = tuple(int(x) for x in v) if s.kind == "grid" else v
            _add(total, self.block(s.body, inner, set()))
        return total


def _forget_stored(seen: set, stmts: list, ir: Any) -> None:
    """Drop the remembered loads of every tensor stored somewhere in ``stmts``."""
    from mskernel.hybrid.ir import walk_stmts

    stored = {s.tensor for s in walk_stmts(stmts) if isinstance(s, ir.Store)}
    seen.difference_update({k for k in seen if k[0] == "l" and k[1] in stored})


def _cost(c: dict[str, int]) -> int:
    return c["load_bytes"] + c["store_bytes"] + c["flops"] + c["special"]


def _flatten(k: Any) -> list:
    out = [k]
    for item in k if isinstance(k, tuple) else ():
        out += _flatten(item)
    return out


def _control_names(stmts: list, ir: Any) -> set[str]:
    """Variables read by loop bounds, grid shapes and conditions inside ``stmts``."""
    from mskernel.hybrid.ir import stmt_exprs, walk_exprs, walk_stmts

    names: set[str] = set()
    for s in walk_stmts(stmts):
        if isinstance(s, (ir.For, ir.If)):
            for e in stmt_exprs(s):
                for x in walk_exprs(e):
                    if isinstance(x, ir.Var):
                        names.add(x.name)
                    elif isinstance(x, ir.GridComponent):
                        names.add(x.var)
    return names


def _assigned(stmts: list, ir: Any) -> set[str]:
    from mskernel.hybrid.ir import walk_stmts

    return {s.name for s in walk_stmts(stmts) if isinstance(s, ir.Assign)}


_BIN = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
        "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b, "&": lambda a, b: a & b,
        "|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b}
_CMP = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
        "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def hybrid_kernel_of(obj: Any) -> Optional[Any]:
    """The :class:`~mskernel.hybrid.HybridKernel` behind ``obj`` -- a HybridKernel, an ``ops.Custom``
    hybrid/akg op, or a ``@kernel`` function -- or None for anything else.

    Example:
        >>> hybrid_kernel_of(len) is None
        True
    """
    from mskernel.hybrid import HybridKernel

    if isinstance(obj, HybridKernel):
        return obj
    of_op = getattr(obj, "hybrid_kernel", None)  # an ops.Custom op's (None for its other func_types)
    if isinstance(of_op, HybridKernel):
        return of_op
    if getattr(obj, "ms_kernel_flag", False) and callable(obj):
        return HybridKernel.from_function(obj)
    return None


def count_kernel(kernel: Any, *args: Any, max_iterations: int = 1_000_000) -> Counts:
    """Count the loads, stores and arithmetic of one run of a hybrid kernel on ``args``.

    ``kernel`` is a HybridKernel, an ``ops.Custom`` hybrid op or a ``@kernel`` function; ``args`` its
    inputs (tensors -- arrays or Tensors -- then attributes), of which only shapes, dtypes and
    attribute values are used: nothing runs.

    Example:
        >>> import numpy as np
        >>> from mskernel.hybrid import HybridKernel
        >>> mm = HybridKernel.from_source(
        ...     "def mm(a, b):\\n    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)\\n"
        ...     "    for i in range(a.shape[0]):\\n        for j in range(b.shape[1]):\\n"
        ...     "            for k in range(a.shape[1]):\\n                c[i, j] = c[i, j] + a[i, k] * b[k, j]\\n"
        ...     "    return c\\n")
        >>> c = count_kernel(mm, np.zeros((4, 5)), np.zeros((5, 6)))
        >>> c.flops, c.loads, c.stores, c.compulsory_bytes
        (240, 360, 120, 592)
    """
    from mskernel.hybrid.dsl import to_numpy
    from mskernel.hybrid.runner import plain_attr

    hk = hybrid_kernel_of(kernel)
    if hk is None:
        raise TypeError(f"count_kernel: expected a hybrid kernel (HybridKernel, ops.Custom hybrid op or @kernel "
                        f"function), got {type(kernel).__name__}")
    k = 0
    while k < len(args) and (isinstance(args[k], np.ndarray) or hasattr(args[k], "asnumpy")):
        k += 1
    arrays = [to_numpy(a) for a in args[:k]]
    attrs = [plain_attr(a) for a in args[k:]]
    sig = hk.signature([a.dtype for a in arrays], [a.ndim for a in arrays], attrs, debug=False)
    typed = hk.specialize(sig)
    params = hk.ir.params
    shapes = {p: tuple(int(d) for d in a.shape) for p, a in zip(params, arrays)}
    attr_values = dict(zip(params[k:], attrs))
    for name, (shape, _dt) in zip([r for r in hk.ir.returns if r not in params],
                                  [o for r, o in zip(hk.ir.returns, hk.infer([a.shape for a in arrays],
                                                                              [a.dtype for a in arrays], attrs))
                                   if r not in params]):
        shapes[name] = shape
    walker = _Walker(typed, shapes, attr_values, max_iterations)
    env: dict[str, Any] = {}
    for name, alloc in hk.ir.allocs.items():
        if name not in shapes:
            try:
                shapes[name] = walker.shape_of(alloc.shape, env)
            except (_Unknown, KeyError):
                shapes[name] = ()
    c = walker.block(hk.ir.body, env, set())
    out = Counts(hk.name, **c)
    for name in walker.loaded | walker.stored:
        if typed.tensors[name].kind == "temp":
            continue
        size = int(np.prod(shapes.get(name, ()))) * walker.itemsize[name]
        out.compulsory_bytes += size * ((name in walker.loaded) + (name in walker.stored))
    out.compulsory_bytes -= sum(int(np.prod(shapes[n])) * walker.itemsize[n] for n in walker.loaded & walker.stored
                                if typed.tensors[n].kind == "output")  # an output read back is not read from memory
    out.notes = walker.notes
    out.exact = not walker.notes
    return out
