"""Builds MindSpore's op surface from the op table: functional ops, primitive classes, Tensor methods.

Every module of :mod:`mskernel.ops.table` holds ``OPS``, a list of :class:`~mskernel.ops.opdef.Op`
entries. Loading this module builds, once:

* ``FUNCTIONS``: name → functional op (``ops.exp``; aliases too), also reachable as ``opdef.F.exp``
  for backward rules;
* ``PRIMITIVES``: name → primitive class (``ops.Exp``), generated from each entry's ``prim`` spec;
* the Tensor methods (``x.exp()``) and in-place forms (``x.exp_()``), set on :class:`Tensor`;
* :func:`compat_rows`, the compatibility table's rows;
* each op's and primitive's docstring example, from the ``EXAMPLES`` of the table modules (see
  :func:`example_section`): an entry's example is there unless its hand-written ``fn`` has one in its
  docstring; a primitive called as its functional op (``prim="Exp"``) gets that example with
  ``ops.Exp()(...)`` in place of ``ops.exp(...)``, any other has its own under its class name.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops.registry import FUNCTIONS, PRIMITIVES
    >>> x = ms.Tensor([0.0, 1.0])
    >>> print(FUNCTIONS["exp"](x), PRIMITIVES["Exp"]()(x), x.exp())
    [1.       2.718282] [1.       2.718282] [1.       2.718282]
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from mskernel.common.tensor import Tensor
from mskernel.ops import methods, table
from mskernel.ops.codecache import compiled
from mskernel.ops.opdef import SIG_NAMES, F, Front, Op
from mskernel.ops.inplace import inplace_update
from mskernel.ops.primitive import Primitive

__all__ = ["OPS", "FUNCTIONS", "PRIMITIVES", "METHODS", "EXAMPLES", "add_example", "compat_rows", "derived_example",
           "example_section", "front_ends", "gather_examples", "inplace_update", "method_form"]

OPS: List[Op] = [op for mod in table.MODULES for op in mod.OPS]
#: op or primitive name -> ``(setup statement, ..., expression, what printing it shows)``, from the table modules
EXAMPLES: Dict[str, Tuple[str, ...]] = {}
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
        >>> from mskernel.ops.reductions import sum as rsum
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
    check = getattr(fn, "init_check", None)  # the primitive's checks of its constructor's arguments
    if check is not None:
        lines.append(f"    _check({', '.join(init_names)})")
    for a in init_names:
        lines.append(f"    self.{a} = {a}")
        lines.append(f"    self.add_prim_attr({a!r}, {a})")
    lines.append(f"def __call__(self, {call_sig}):")
    for a in init_names:
        lines.append(f"    {a} = self.{a}")
    lines.append(f"    return _fn({mapping})")
    scope: Dict[str, Any] = {**SIG_NAMES, "_fn": fn, "_Primitive": Primitive, "_check": check}
    exec(compiled("\n".join(lines) + "\n", f"<op table: {name}>"), scope)  # noqa: S102 (our own text)
    form = (f"the primitive form of ``ops.{op.name}`` (an entry without a functional op of its own)"
            if op.name.startswith("_") else f"the primitive form of :func:`mskernel.ops.{op.name}`")
    doc = f"MindSpore's ``ops.{name}({init_sig})({call if call is not None else ', '.join(op.params)})``: {form}."
    cls = type(name, (Primitive,), {"__init__": scope["__init__"], "__call__": scope["__call__"], "__doc__": doc,
                                      "__module__": "mskernel.ops.operations"})
    return cls


def example_section(example: Tuple[str, ...], indent: str = "",
                    imports: Tuple[str, ...] = ("import mskernel as ms", "from mskernel import ops")) -> str:
    """The ``Example:`` section a table example becomes in a docstring (the lines are doctests that
    tests/test_doctests.py runs): the imports, the setup statements, then ``print(expression)`` and its output.

    Example:
        >>> lines = example_section(("x = ms.Tensor([1.0])", "ops.neg(x)", "[-1.]")).split("\\n")
        >>> lines[2:4], lines[5:8]
        (['Example:', '    >>> import mskernel as ms'], ['    >>> x = ms.Tensor([1.0])', '    >>> print(ops.neg(x))', '    [-1.]'])
    """  # noqa: E501
    *setup, expr, out = example
    src = [*imports, *setup, f"print({expr})"]
    lines = ["", "", f"{indent}Example:"] + [f"{indent}    >>> {line}" for line in src]
    lines += [f"{indent}    {line or '<BLANKLINE>'}" for line in out.split("\n")]
    return "\n".join(lines) + "\n"


def _indent(doc: str) -> str:
    """The indentation of a docstring's lines after the first (what ``inspect.cleandoc`` removes)."""
    rest = [ln for ln in doc.split("\n")[1:] if ln.strip()]
    return min((ln[:len(ln) - len(ln.lstrip())] for ln in rest), key=len) if rest else ""


def add_example(obj: Any, name: str, example: Optional[Tuple[str, ...]],
                imports: Tuple[str, ...] = ("import mskernel as ms", "from mskernel import ops")) -> None:
    """Append ``example`` (see :func:`example_section`) to the docstring of ``obj``, the op or primitive
    ``name``; one that has an example already is an error in the table (an example is kept in one place).

    Example:
        >>> def f(x):
        ...     "Twice x."
        ...     return x * 2
        >>> add_example(f, "f", ("f(2)", "4"))
        >>> f.__doc__.split("\\n")[-3:]
        ['    >>> print(f(2))', '    4', '']
        >>> add_example(f, "f", ("f(3)", "6"))
        Traceback (most recent call last):
        ...
        RuntimeError: op table: 'f' has an example in its docstring and another in EXAMPLES
    """
    if example is None:
        return
    doc = obj.__doc__ or ""
    if ">>>" in doc:
        raise RuntimeError(f"op table: '{name}' has an example in its docstring and another in EXAMPLES")
    obj.__doc__ = doc.rstrip() + example_section(example, _indent(doc), imports)


def derived_example(op: Op, spec: str, example: Optional[Tuple[str, ...]]) -> Optional[Tuple[str, ...]]:
    """A functional op's ``example`` for its primitive ``spec`` when the primitive is called as the functional
    op is (``prim="Exp"``): ``ops.exp(...)`` becomes ``ops.Exp()(...)``; None for any other primitive.

    Example:
        >>> op = next(op for op in OPS if op.name == "exp")
        >>> derived_example(op, "Exp", ("ops.exp(ms.Tensor([0.0]))", "[1.]"))
        ('ops.Exp()(ms.Tensor([0.0]))', '[1.]')
        >>> derived_example(op, "Exp(axis)(x) -> x", ("ops.exp(ms.Tensor([0.0]))", "[1.]")) is None
        True
    """
    name, init, call, mapping = _split_spec(spec)
    if example is None or init is not None or call is not None or mapping is not None:
        return None
    expr = re.sub(rf"^(\*?)ops\.{op.name}\(", rf"\1ops.{name}()(", example[-2])
    return None if expr == example[-2] else (*example[:-2], expr, example[-1])


def gather_examples(modules: Sequence[Any], names: Set[str]) -> Dict[str, Tuple[str, ...]]:
    """The ``EXAMPLES`` of the table ``modules`` in one dict. A name with examples in two modules, or one that
    is not in ``names`` (the entries' and primitives' names), is an error in the table.

    Example:
        >>> from types import SimpleNamespace as M
        >>> gather_examples([M(EXAMPLES={"exp": ("e", "1")}), M()], {"exp"})
        {'exp': ('e', '1')}
        >>> gather_examples([M(EXAMPLES={"exp": ("e", "1")}), M(EXAMPLES={"exp": ("f", "2")})], {"exp"})
        Traceback (most recent call last):
        ...
        RuntimeError: op table: ['exp'] have examples in two table modules
        >>> gather_examples([M(EXAMPLES={"Exq": ("e", "1")})], {"exp", "Exp"})
        Traceback (most recent call last):
        ...
        RuntimeError: op table: EXAMPLES names ['Exq'], which are no entry or primitive
    """
    out: Dict[str, Tuple[str, ...]] = {}
    for mod in modules:
        examples = getattr(mod, "EXAMPLES", {})
        twice = out.keys() & examples.keys()
        if twice:
            raise RuntimeError(f"op table: {sorted(twice)} have examples in two table modules")
        out.update(examples)
    unknown = out.keys() - names
    if unknown:
        raise RuntimeError(f"op table: EXAMPLES names {sorted(unknown)}, which are no entry or primitive")
    return out


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


def _specs(op: Op) -> Tuple[str, ...]:
    return op.prim_spec if isinstance(op.prim_spec, tuple) else (op.prim_spec,) if op.prim_spec else ()


def _build() -> None:
    names = {op.name for op in OPS} | {_split_spec(spec)[0] for op in OPS for spec in _specs(op)}
    EXAMPLES.update(gather_examples(table.MODULES, names))
    for op in OPS:
        fn = op.functional()
        add_example(fn, op.name, EXAMPLES.get(op.name))
        if op.name in FUNCTIONS:
            raise RuntimeError(f"op table: '{op.name}' is declared twice")
        FUNCTIONS[op.name] = fn
        for alias in op.aliases:
            FUNCTIONS[alias] = fn
        for spec in _specs(op):
            cls = make_primitive(spec, fn, op)
            if cls.__name__ in PRIMITIVES:
                raise RuntimeError(f"op table: primitive '{cls.__name__}' is declared twice")
            example = EXAMPLES.get(cls.__name__) or derived_example(op, spec, EXAMPLES.get(op.name))
            add_example(cls, cls.__name__, example)
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
    # operators and the methods shaped differently from their functional op
    methods.attach({op.name: op.rule for op in OPS})


def front_ends(entries: Sequence[Front], namespace: str, helpers: Dict[str, Any],
               examples: Dict[str, Tuple[str, ...]], imports: Tuple[str, ...]) -> Dict[str, Callable]:
    """The functions of another front end of the op table (:class:`~mskernel.ops.opdef.Front` entries: each a
    signature and one call of the table's functional ops), built as the functional ops are: generated code,
    ``__module__`` the front end's module (``namespace``), a docstring naming MindSpore's function and the call it
    makes, and its example from ``examples``. ``helpers`` are extra names the calls may use (argument adapters).
    A call naming anything that is neither a functional op nor a helper is an error in the table.

    Example:
        >>> import mskernel as ms
        >>> fs = front_ends([Front("cat", "tensors, dim=0", "concat(tensors, dim)")], "mskernel.mint", {},
        ...                 {"cat": ("mint.cat([ms.Tensor([1.0]), ms.Tensor([2.0])])", "[1. 2.]")},
        ...                 ("import mskernel as ms", "from mskernel import mint"))
        >>> print(fs["cat"]([ms.Tensor([1.0]), ms.Tensor([2.0, 3.0])]))
        [1. 2. 3.]
        >>> front_ends([Front("f", "input", "no_such_op(input)")], "mskernel.mint", {}, {}, ())
        Traceback (most recent call last):
        ...
        RuntimeError: front end mskernel.mint: 'f' calls ['no_such_op'], which are no op or helper
    """
    import builtins
    import dis

    scope: Dict[str, Any] = {**SIG_NAMES, **FUNCTIONS, **helpers}
    out: Dict[str, Callable] = {}
    short = namespace.replace("mskernel.", "")
    for entry in entries:
        if entry.name in out:
            raise RuntimeError(f"front end {namespace}: '{entry.name}' is declared twice")
        code = compiled(f"def {entry.name}({entry.sig}):\n    return {entry.call}\n", f"<{namespace}: {entry.name}>")
        inner = next(c for c in code.co_consts if hasattr(c, "co_names"))
        names = {i.argval for i in dis.get_instructions(inner) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
        unknown = sorted(n for n in names if n not in scope and not hasattr(builtins, n))
        if unknown:
            raise RuntimeError(f"front end {namespace}: '{entry.name}' calls {unknown}, which are no op or helper")
        local: Dict[str, Any] = {}
        exec(code, scope, local)  # noqa: S102 (our own table text; defined in local, so its name is no op's)
        fn = local[entry.name]
        fn.__module__ = namespace
        fn.__doc__ = (f"MindSpore's ``{short}.{entry.name}({entry.sig})``"
                      + (f": {entry.doc}" if entry.doc else "") + f".\n\nComputed by the op table as ``{entry.call}``.")
        add_example(fn, entry.name, examples.get(entry.name), imports)
        out[entry.name] = fn
    return out


def compat_rows() -> List[Tuple[str, str, str, str]]:
    """One row per table entry: (functional name, primitive classes, Tensor methods, note).

    Example:
        >>> ("exp, tensor_exp", "Exp", "exp, exp_", "") in compat_rows()
        True
    """
    rows = []
    for op in OPS:
        specs = _specs(op)
        prims = ", ".join(_split_spec(s)[0] for s in specs)
        meths = ", ".join(m + (", " + m + "_" if op.inplace else "") for m in op.methods)
        names = ", ".join(n for n in (op.name,) + op.aliases if not n.startswith("_"))
        if not names and not prims:  # an internal entry (e.g. the adjoint of another): not a MindSpore name
            continue
        rows.append((names or "(primitive only)", prims, meths, op.note))
    return rows


_build()
