"""Builds MindSpore's op surface from the op table: functional ops, primitive classes, Tensor methods.

Every module of :mod:`mskernel.ops.table` holds ``OPS``, a list of :class:`~mskernel.ops.opdef.Op`
entries. Loading this module builds, once:

* ``FUNCTIONS``: name → functional op (``ops.exp``; aliases too), also reachable as ``opdef.F.exp``
  for backward rules;
* ``PRIMITIVES``: name → primitive class (``ops.Exp``), generated from each entry's ``prim`` spec;
* the Tensor methods (``x.exp()``) and in-place forms (``x.exp_()``), set on :class:`Tensor`;
* :func:`compat_rows`, the compatibility table's rows.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops.registry import FUNCTIONS, PRIMITIVES
    >>> x = ms.Tensor([0.0, 1.0])
    >>> print(FUNCTIONS["exp"](x), PRIMITIVES["Exp"]()(x), x.exp())
    [1.       2.718282] [1.       2.718282] [1.       2.718282]
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from mskernel.common.tensor import Tensor
from mskernel.ops import methods, table
from mskernel.ops.opdef import SIG_NAMES, F, Op
from mskernel.ops.inplace import inplace_update
from mskernel.ops.primitive import Primitive

__all__ = ["OPS", "FUNCTIONS", "PRIMITIVES", "METHODS", "compat_rows", "inplace_update", "method_form"]

OPS: List[Op] = [op for mod in table.MODULES for op in mod.OPS]
FUNCTIONS: Dict[str, Callable] = {}
PRIMITIVES: Dict[str, type] = {}
METHODS: Dict[str, Callable] = {}


def _split_spec(spec: str) -> Tuple[str, Optional[str], Optional[str], Optional[str]]:
    """``"Name(init)(call) -> args"`` → (name, init, call, args); parentheses may nest in defaults."""
    head, _, mapping = spec.partition("->")
    head = head.strip()
    m = re.match(r"(\w+)", head)
    name, rest = m.group(1), head[m.end():]
    groups: List[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(rest):
        if ch == "(":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                groups.append(rest[start:i])
    init = groups[0] if groups else None
    call = groups[1] if len(groups) > 1 else None
    return name, init, call, mapping.strip() or None


def _params(sig: str) -> List[str]:
    import inspect
    return list(inspect.signature(eval(f"lambda {sig}: None", SIG_NAMES)).parameters)  # noqa: S307 (our table)


def _fn_params(fn: Callable) -> List[str]:
    import inspect
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def make_primitive(spec: str, fn: Callable, op: Op) -> type:
    """A primitive class from an entry's ``prim`` spec (see :mod:`mskernel.ops.opdef`).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.ops.reduce import sum as rsum
        >>> P = make_primitive("RSum(keep_dims=False)(x, axis=()) -> x, axis, keep_dims", rsum, OPS[0])
        >>> print(P(keep_dims=True)(ms.Tensor([[1.0, 2.0]]), 1), P().keep_dims)
        [[3.]] False
    """
    name, init, call, mapping = _split_spec(spec)
    init_sig = init or ""
    init_names = _params(init_sig) if init_sig else []
    call_sig = call if call is not None else "*args, **kwargs"
    if mapping is None:
        mapping = "*args, **kwargs" if call is None else ", ".join(_params(call))
    lines = [f"def __init__(self{', ' if init_sig else ''}{init_sig}):",
             f"    _Primitive.__init__(self, {name!r})"]
    for a in init_names:
        lines.append(f"    self.{a} = {a}")
        lines.append(f"    self.add_prim_attr({a!r}, {a})")
    lines.append(f"def __call__(self, {call_sig}):")
    for a in init_names:
        lines.append(f"    {a} = self.{a}")
    lines.append(f"    return _fn({mapping})")
    scope: Dict[str, Any] = {**SIG_NAMES, "_fn": fn, "_Primitive": Primitive}
    exec(compile("\n".join(lines) + "\n", f"<op table: {name}>", "exec"), scope)  # noqa: S102 (our own text)
    form = (f"the primitive form of ``ops.{op.name}`` (an entry without a functional op of its own)"
            if op.name.startswith("_") else f"the primitive form of :func:`mskernel.ops.{op.name}`")
    doc = f"MindSpore's ``ops.{name}({init_sig})({call if call is not None else ', '.join(op.params)})``: {form}."
    cls = type(name, (Primitive,), {"__init__": scope["__init__"], "__call__": scope["__call__"], "__doc__": doc,
                                      "__module__": "mskernel.ops.operations"})
    return cls


def _method_inplace(fn: Callable, name: str) -> Callable:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return inplace_update(self, fn(self, *args, **kwargs), name)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place form of :meth:`{name[:-1]}` (writes the result into this tensor)."
    return method


_SYNONYMS = ({"axis", "dim"}, {"keepdims", "keepdim", "keep_dims"})


def method_form(fn: Callable, params: List[str]) -> Callable:
    """The Tensor-method form of a functional op: MindSpore's methods take ``axis=`` or ``dim=`` and
    ``keepdims=``/``keepdim=``/``keep_dims=`` alike, whichever the functional op names.

    Example:
        >>> import mskernel as ms
        >>> m = method_form(lambda input, dim=None, keepdim=False: (dim, keepdim), ["input", "dim", "keepdim"])
        >>> m(ms.Tensor([1.0]), axis=1, keepdims=True)
        (1, True)
    """
    renames = {}
    for group in _SYNONYMS:
        own = [p for p in params if p in group]
        if own:
            renames.update({alias: own[0] for alias in group if alias != own[0]})
    if not renames:
        return fn

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        for alias in kwargs.keys() & renames.keys():
            kwargs[renames[alias]] = kwargs.pop(alias)
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = getattr(fn, "__name__", "method")
    method.__doc__ = fn.__doc__
    return method


def _build() -> None:
    for op in OPS:
        fn = op.functional()
        if op.name in FUNCTIONS:
            raise RuntimeError(f"op table: '{op.name}' is declared twice")
        FUNCTIONS[op.name] = fn
        for alias in op.aliases:
            FUNCTIONS[alias] = fn
        specs = op.prim_spec if isinstance(op.prim_spec, tuple) else (op.prim_spec,) if op.prim_spec else ()
        for spec in specs:
            cls = make_primitive(spec, fn, op)
            if cls.__name__ in PRIMITIVES:
                raise RuntimeError(f"op table: primitive '{cls.__name__}' is declared twice")
            PRIMITIVES[cls.__name__] = cls
        for m in op.methods:
            METHODS[m] = method_form(fn, op.params) if op.fn is None else method_form(fn, _fn_params(fn))
            if op.inplace:
                METHODS[m + "_"] = _method_inplace(fn, m + "_")
    for mod in table.MODULES:  # methods shaped differently from their functional op, kept beside the entries
        METHODS.update({k: method_form(v, _fn_params(v)) for k, v in getattr(mod, "METHODS", {}).items()})
    for name, fn in FUNCTIONS.items():
        setattr(F, name, fn)
    for name, fn in METHODS.items():
        setattr(Tensor, name, fn)
    methods.attach()  # operators and the methods shaped differently from their functional op


def compat_rows() -> List[Tuple[str, str, str, str]]:
    """One row per table entry: (functional name, primitive classes, Tensor methods, note).

    Example:
        >>> ("exp", "Exp", "exp, exp_", "") in compat_rows()
        True
    """
    rows = []
    for op in OPS:
        specs = op.prim_spec if isinstance(op.prim_spec, tuple) else (op.prim_spec,) if op.prim_spec else ()
        prims = ", ".join(_split_spec(s)[0] for s in specs)
        meths = ", ".join(m + (", " + m + "_" if op.inplace else "") for m in op.methods)
        names = ", ".join(n for n in (op.name,) + op.aliases if not n.startswith("_"))
        if not names and not prims:  # an internal entry (e.g. the adjoint of another): not a MindSpore name
            continue
        rows.append((names or "(primitive only)", prims, meths, op.note))
    return rows


_build()
