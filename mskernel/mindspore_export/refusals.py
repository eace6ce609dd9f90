"""What does not carry over to MindSpore: each refusal names the construct, the line and what to change.

MindSpore 2.10 builds a ``@kernel`` op only if its checker (``mindspore.ops.operations._ms_kernel``)
accepts the kernel's text, and its ``@kernel`` emulator knows only its own intrinsics. mskernel's DSL
is nearly the same language, so an export checks the very text it writes -- the forward kernel,
the derived or user backward -- against MindSpore's rules, as recorded here from the 2.10 wheel
(``tests/golden/export`` compares these tables with the wheel's):

* a call must name one of MindSpore's intrinsics, with positional arguments only and the arity its
  checker wants; ``atan2``, ``expm1`` and ``float16`` are refused on the CPU (its checker rejects
  them there), so an export for the CPU refuses them too;
* a loop target must be one name (``for i, j in grid(...)`` breaks MindSpore's checker);
* ``--debug`` (bounds-checked kernels) is mskernel's own; an attribute's value type must be one
  MindSpore's ``CustomRegOp.attr`` documents; an mskernel-only header cannot be included;
* a kernel whose ``parallel``/``vectorize`` loop races (:mod:`mskernel.hybrid.portability`: mskernel runs
  it serially, MindSpore runs it in parallel on the device) is refused unless ``allow_races=True``.

Example:
    >>> try:
    ...     check_dsl("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n    y[0] = expm1(x[0])\\n"
    ...               "    return y\\n", op="f", role="the forward kernel", filename="<cell f>", first_line=2,
    ...               targets=("GPU", "CPU"))
    ... except ExportError as e:
    ...     print(e.construct, "at line", e.location.line)
    ...     print(e.change)
    expm1(...) at line 4
    Write exp(x) - 1.0 instead, or export for the GPU only (targets=("GPU",))
"""
from __future__ import annotations

import ast
from typing import Any, Iterable, Optional, Sequence

from mskernel.errors import SourceLocation, UserCodeError

__all__ = ["CPU_UNAVAILABLE", "ExportError", "MS_ATTR_TYPES", "MS_INTRINSICS", "TARGETS", "check_attr_specs",
           "check_dsl", "check_races", "check_targets", "refuse_debug"]

#: the targets a hybrid op can be registered for in MindSpore 2.10
TARGETS = ("GPU", "CPU")

_MS_BUFFERS = ("allocate", "output_tensor")
_MS_LOOPS = ("range", "serial", "vectorize", "parallel", "reduce", "grid")
_MS_SCOPES = ("attr", "block_realize")
_MS_UNARY = ("sqrt", "sign", "log", "tanh", "exp", "abs", "int32", "float16", "float32", "rsqrt", "erf", "isnan",
             "int8", "int16", "int64", "float64", "sin", "cos", "isinf", "isfinite", "atan", "expm1", "floor",
             "ceil", "trunc", "round")
_MS_BINARY = ("power", "atan2", "ceil_div")
_MS_BUILTINS = ("max", "min", "len")

#: every name MindSpore 2.10's hybrid DSL may call (its ``intrin_runtime`` plus the builtins its checker allows)
MS_INTRINSICS = frozenset(_MS_BUFFERS + _MS_LOOPS + _MS_SCOPES + _MS_UNARY + _MS_BINARY + _MS_BUILTINS)

#: intrinsics MindSpore's checker rejects when the op is built for the CPU
CPU_UNAVAILABLE = ("atan2", "expm1", "float16")

#: the value types ``CustomRegOp.attr`` documents
MS_ATTR_TYPES = ("int", "str", "bool", "float", "listInt", "listStr", "listBool", "listFloat")

_INSTEAD = {"expm1": "Write exp(x) - 1.0 instead", "atan2": "Compute the angle with atan(y / x) and the signs instead",
            "float16": "Use float32 instead"}


class ExportError(UserCodeError, ValueError):
    """An op that cannot be exported as it is: ``construct`` is what does not carry over, ``location``
    where it is (the user's line, when there is one), ``change`` what to do instead.

    Among the refusals: an intrinsic or a loop form MindSpore's ``@kernel`` checker rejects, a
    bounds-checked (debug) op, an attribute type ``CustomRegOp`` does not document, and a hybrid
    kernel whose ``parallel``/``vectorize`` loop races (two iterations may touch one element, one
    writing; see ``PortabilityWarning``): mskernel runs such a loop serially, MindSpore runs it in
    parallel on the device. That refusal names the loop and the line of the write; export with
    ``allow_races=True`` (``%custom_op_export ... --allow-races``) to write the file anyway.

    Example:
        >>> e = ExportError("sq", "debug=True", "bounds checks are mskernel's own", "build the op without it")
        >>> print(e)
        sq: debug=True does not carry over to MindSpore: bounds checks are mskernel's own. Build the op without it
    """

    def __init__(self, op: str, construct: str, why: str, change: str,
                 location: Optional[SourceLocation] = None) -> None:
        self.op, self.construct, self.why, self.change = op, construct, why, change
        text = f"{op}: {construct} does not carry over to MindSpore: {why}. {change[:1].upper()}{change[1:]}"
        if location is not None:
            text += f'\n  File "{location.file}", line {location.line}'
            if location.source_line:
                text += f"\n    {location.source_line.strip()}"
        super().__init__(text, location)


def _arity_ok(name: str, n: int) -> bool:
    if name in _MS_UNARY:
        return n == 1
    if name in _MS_BINARY or name in _MS_BUFFERS:
        return n == 2
    return True


def check_dsl(text: str, *, op: str, role: str, filename: str, first_line: int, targets: Sequence[str],
              available: Iterable[str] = MS_INTRINSICS) -> None:
    """Raise :class:`ExportError` at the first construct of the DSL ``text`` MindSpore's ``@kernel`` checker
    rejects for ``targets``. ``role`` says which kernel it is (messages), ``filename``/``first_line``
    where its first line is; ``available`` is the set of names MindSpore knows.

    Example:
        >>> check_dsl("def f(x):\\n    return x\\n", op="f", role="the forward kernel", filename="<f>",
        ...           first_line=1, targets=("GPU",))
    """
    lines = text.splitlines()
    known = frozenset(available)

    def where(node: ast.AST) -> SourceLocation:
        k = getattr(node, "lineno", 1)
        return SourceLocation(filename, first_line + k - 1, getattr(node, "col_offset", 0) + 1,
                              lines[k - 1] if k <= len(lines) else None)

    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.For) and not isinstance(node.target, ast.Name):
            raise ExportError(op, "a loop over several names", f"MindSpore's @kernel checker reads one name per loop "
                              f"target (in {role})", "write `for idx in grid(shape):` and index with idx "
                              "(t[idx]) or idx[0], idx[1], ...", where(node))
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
        if name not in known:
            raise ExportError(op, f"{name}(...)", f"it is not an intrinsic of MindSpore's hybrid DSL (in {role})",
                              "use one of " + ", ".join(sorted(known)), where(node))
        if node.keywords or not _arity_ok(name, len(node.args)):
            raise ExportError(op, f"{name}(...)", f"MindSpore's @kernel checker wants {name} with "
                              f"{'one argument' if name in _MS_UNARY else 'two arguments'}, given by position "
                              f"(in {role})", f"write {name}({'x' if name in _MS_UNARY else 'a, b'})", where(node))
        if "CPU" in targets and name in CPU_UNAVAILABLE:
            raise ExportError(op, f"{name}(...)", f"its hybrid DSL has no {name} on the CPU (its checker rejects it "
                              f"when the op is built for the CPU; in {role})",
                              f'{_INSTEAD[name]}, or export for the GPU only (targets=("GPU",))', where(node))


def check_targets(op: str, targets: Sequence[str]) -> tuple[str, ...]:
    """The targets as a tuple, each one MindSpore runs hybrid kernels on.

    Example:
        >>> check_targets("f", ["GPU"])
        ('GPU',)
    """
    targets = tuple(targets)
    bad = [t for t in targets if t not in TARGETS]
    if bad or not targets:
        raise ExportError(op, f"targets={targets!r}", "MindSpore 2.10 runs hybrid kernels on " + " and ".join(TARGETS),
                          f"pass targets as a non-empty tuple of {', '.join(map(repr, TARGETS))}")
    return targets


def refuse_debug(op: str, location: Optional[SourceLocation] = None, *, cell: bool = True) -> ExportError:
    """The refusal of a bounds-checked (``--debug``/``debug=True``) op.

    Example:
        >>> print(refuse_debug("sq", cell=False).change)
        build the op without debug=True (ops.Custom(..., debug=None)), check it, then export that op
    """
    what = "--debug" if cell else "debug=True"
    change = ("run the cell without --debug, then export the op it binds" if cell else
              "build the op without debug=True (ops.Custom(..., debug=None)), check it, then export that op")
    return ExportError(op, what, "bounds-checked kernels are mskernel's own (MindSpore compiles the kernel with akg, "
                       "which has no such checks)", change, location)


def check_races(op: str, kernel: Any, *, role: str, allow_races: bool = False) -> None:
    """Refuse ``kernel`` (a ``HybridKernel``) when its compile-time check found a race in a parallel loop.

    ``role`` says which kernel it is (messages); ``allow_races=True`` exports it anyway.

    Example:
        >>> import warnings
        >>> from mskernel.hybrid import HybridKernel
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     hk = HybridKernel.from_source(
        ...         "def acc(x):\\n    y = output_tensor((1,), x.dtype)\\n    y[0] = 0.0\\n"
        ...         "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n",
        ...         filename="<cell 3>")
        >>> try:
        ...     check_races("acc", hk, role="the forward kernel")
        ... except ExportError as e:
        ...     print(e.construct, "at line", e.location.line)
        the parallel loop over i (line 4) at line 5
        >>> check_races("acc", hk, role="the forward kernel", allow_races=True)
    """
    race = next((i for i in getattr(kernel, "portability", ()) if i.kind == "race"), None)
    if race is None or allow_races:
        return
    first, second = race.accesses
    other = "the same write" if second == first else f"{second.kind}s {second.text} (line {second.line})"
    where = SourceLocation(race.filename, race.line, race.column, kernel.ir.lines.get(race.line))
    raise ExportError(op, f"the {race.loop_kind} loop over {race.loop_var} (line {race.loop_line})",
                      f"two of its iterations may touch {race.tensor} at once: one {first.kind}s {first.text} "
                      f"(line {first.line}), another {other} (in {role}). mskernel runs the loop serially, but "
                      f"MindSpore runs it in parallel on the device, where it races",
                      f"{race.advice}; or pass allow_races=True to export it as it is", where)


def check_attr_specs(op: str, specs: Sequence[dict]) -> None:
    """Refuse registration attributes whose value type or kind ``CustomRegOp.attr`` does not document.

    Example:
        >>> try:
        ...     check_attr_specs("f", [{"name": "k", "paramType": "required", "type": "all"}])
        ... except ExportError as e:
        ...     print(e.construct)
        the attribute k (value type 'all')
    """
    for spec in specs:
        name, value_type, kind = spec.get("name"), spec.get("type"), spec.get("paramType")
        if value_type is not None and value_type not in MS_ATTR_TYPES:
            raise ExportError(op, f"the attribute {name} (value type {value_type!r})",
                              "CustomRegOp.attr takes the value types " + ", ".join(MS_ATTR_TYPES),
                              f"declare {name} with one of them")
        if kind is not None and kind not in ("required", "optional"):
            raise ExportError(op, f"the attribute {name} (param_type {kind!r})",
                              "CustomRegOp.attr takes param_type 'required' or 'optional'",
                              f"declare {name} as 'required' or 'optional'")
