"""A hybrid op -> one Python file MindSpore runs: ``forward``, ``backward``, ``bprop`` and ``op``.

The file imports only ``mindspore``. It holds the forward kernel as its user wrote it under
MindSpore's ``@kernel``; the backward kernel -- derived by mskernel from the forward (each adjoint
under a ``# line N:`` comment quoting line N of this file's forward), or the cell's bprop kernel,
or the op's Python bprop; the output shapes and dtypes as small functions; a ``CustomRegOp``
registration per target for the dtypes the op is exported for (kernel attributes registered with
the values used, as defaults); and ``op = ops.Custom(forward, ..., func_type="hybrid", bprop=bprop)``.

The export is specialised to one signature (:func:`~mskernel.mindspore_export.provenance.choose_signature`):
the derived backward depends on dtypes and ranks. Every kernel text written is checked against
MindSpore's ``@kernel`` rules first (:func:`~mskernel.mindspore_export.refusals.check_dsl`).

Example:
    >>> import tempfile, numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> from mskernel.ops import kernel
    >>> @kernel
    ... def cube(x):
    ...     y = output_tensor(x.shape, x.dtype)
    ...     for i in range(x.shape[0]):
    ...         y[i] = x[i] * x[i] * x[i]
    ...     return y
    >>> op = ops.Custom(cube, func_type="hybrid")
    >>> path = export_hybrid(op, tempfile.mkdtemp() + "/cube_ms.py", example=(np.ones(3, np.float32),))
    >>> text = path.read_text()
    >>> "import mindspore as ms" in text and "forward = cube" in text and "backward = cube_grad" in text
    True
"""
from __future__ import annotations

import linecache
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from mskernel.cells.result import CellResult
from mskernel.errors import SourceLocation
from mskernel.mindspore_export.provenance import choose_signature, origin
from mskernel.mindspore_export.refusals import ExportError, check_dsl, check_races, check_targets, refuse_debug
from mskernel.hybrid.shapes import shape_source

__all__ = ["export_hybrid", "ms_dtype", "datatype"]

_DATATYPE = {"bool": "BOOL", "int8": "I8", "int16": "I16", "int32": "I32", "int64": "I64", "uint8": "U8",
             "uint16": "U16", "uint32": "U32", "uint64": "U64", "float16": "F16", "float32": "F32",
             "float64": "F64"}
_RESERVED = {"ms", "ops", "kernel", "CustomRegOp", "DataType", "TARGETS", "ATTRS", "forward", "backward", "bprop",
             "op", "_backward_op", "_forward_shape", "_backward_shape", "_forward_info", "_backward_info"}


def ms_dtype(name: str) -> str:
    """The MindSpore spelling of a dtype name.

    Example:
        >>> ms_dtype("float32"), ms_dtype("bool")
        ('ms.float32', 'ms.bool_')
    """
    return "ms.bool_" if name == "bool" else f"ms.{name}"


def datatype(name: str) -> str:
    """The ``DataType`` constant of a dtype name in the default format.

    Example:
        >>> datatype("float64")
        'DataType.F64_Default'
    """
    return f"DataType.{_DATATYPE[name]}_Default"


@dataclass
class _Kernel:
    """One kernel as the file shows it: its text and what its registration and infer functions need."""

    name: str
    text: str
    first_line: int                 # the line of its ``def`` in the user's file or cell
    inputs: list[str]               # tensor parameters
    attrs: list[tuple[str, str, Any]]  # (name, value type, value)
    outputs: list[str]
    in_dtypes: list[str]
    out_dtypes: list[str]
    shapes: list[str]               # Python expressions of each output's shape over ``shapes``
    role: str = "the forward kernel"
    notes: list[str] = field(default_factory=list)


def _describe(hk: Any, dtypes: Sequence[str], ranks: Sequence[int], attrs: Sequence[Any], role: str,
              text: Optional[str] = None) -> _Kernel:
    """Type ``hk`` for the signature and collect what the file needs of it."""
    sig = hk.signature(dtypes, ranks, attrs, debug=False)
    typed = hk.specialize(sig)
    n = len(dtypes)
    params, returns = hk.input_names, hk.output_names
    shape_iter = iter(shape_source(typed, "shapes[{}]"))
    shapes = [f"tuple(shapes[{params.index(r)}])" if r in params[:n] else next(shape_iter) for r in returns]
    outputs = [f"{r}_out" if r in params else r for r in returns]
    attr_specs = [(p, sig.attr_types[k], attrs[k]) for k, p in enumerate(params[n:])]
    return _Kernel(hk.name, text if text is not None else hk.dsl_text, hk.ir.def_line, list(params[:n]), attr_specs,
                   outputs, list(sig.dtypes), [typed.tensors[r].dtype for r in returns], shapes, role)


def _attr_default(value_type: str, value: Any) -> str:
    return str(bool(value)).lower() if value_type == "bool" else repr(value)


def _wrap(items: list[str], head: str, indent: str, width: int = 110) -> str:
    """``head(item, item, ...)``, continued on lines aligned after ``head(`` when longer than ``width``."""
    lines, line = [], head + "("
    for k, item in enumerate(items):
        piece = item + (", " if k + 1 < len(items) else ")")
        if len(indent + line + piece.rstrip()) > width and not line.endswith("("):
            lines.append(line.rstrip())
            line = " " * (len(head) + 1)
        line += piece
    return ("\n" + indent).join(lines + [line])


def _reg_function(fn: str, k: _Kernel) -> list[str]:
    pad = " " * 8
    chain = [f'CustomRegOp("{k.name}")']
    chain += [f'.input({i}, "{name}")' for i, name in enumerate(k.inputs)]
    chain += [f'.output({i}, "{name}")' for i, name in enumerate(k.outputs)]
    chain += [f'.attr("{name}", "required", "{t}", default_value="{_attr_default(t, v)}")' for name, t, v in k.attrs]
    chain.append(_wrap([datatype(d) for d in k.in_dtypes + k.out_dtypes], ".dtype_format", pad))
    chain += [".target(target)", ".get_op_info()"]
    return [f"def {fn}(target):", f'    """The registration of {k.name} for one target: inputs, outputs, '
            'attributes, dtypes."""', f"    return {chain[0]} \\"] + \
        [f"{pad}{c} \\" for c in chain[1:-1]] + [f"{pad}{chain[-1]}"]


def _shape_function(fn: str, k: _Kernel) -> list[str]:
    body = k.shapes[0] if len(k.shapes) == 1 else "(" + ", ".join(k.shapes) + ",)"
    lines = [f"def {fn}(*shapes):", f'    """The output shape{"s" if len(k.shapes) > 1 else ""} of {k.name} for '
             f'its input shapes (its output_tensor shapes{"; attributes as registered" if k.attrs else ""})."""']
    if "a[" in body:
        lines.append("    a = ATTRS")
    return lines + [f"    return {body}"]


def _out_dtype(k: _Kernel) -> str:
    names = [ms_dtype(d) for d in k.out_dtypes]
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _fresh(base: str, taken: set[str]) -> str:
    name = base
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _bprop_lines(fwd: _Kernel, bwd: Optional[_Kernel], wiring: Optional[Any], takes_out: bool) -> list[str]:
    """``def bprop(*inputs, out, dout)`` calling the backward op; one gradient per tensor input."""
    taken = set(fwd.inputs) | set(bwd.outputs if bwd else [])
    out, dout = _fresh("out", taken), _fresh("dout", taken)
    many = len(fwd.outputs) > 1
    item = (lambda v, k: f"{v}[{k}]") if many else (lambda v, k: v)
    head = [f"def bprop({', '.join(fwd.inputs + [out, dout])}):",
            '    """The gradient of op: the backward kernel on (inputs, outputs, douts), one gradient per input."""']
    if bwd is None:  # no float input: nothing to differentiate
        zeros = ", ".join(f"ops.zeros_like({x})" for x in fwd.inputs)
        return head + [f"    return ({zeros},)" if len(fwd.inputs) == 1 else f"    return {zeros}"]
    if wiring is None:  # the user's bprop kernel: (*inputs, out, dout) or (*inputs, dout)
        args = fwd.inputs + ([item(out, k) for k in range(len(fwd.outputs))] if takes_out else []) + \
            [item(dout, k) for k in range(len(fwd.outputs))]
        grads = {x: g for x, g in zip(fwd.inputs, bwd.outputs)}
    else:  # the derived backward: BackwardSource says which outputs it reads and where each gradient is
        returns = wiring.outputs_all
        args = fwd.inputs + [item(out, returns.index(r)) for r in wiring.outputs] + \
            [item(dout, k) for k in range(len(returns))]
        grads = {x: bwd.outputs[g] for x, g in zip(fwd.inputs, wiring.grads) if g is not None}
    got = ", ".join(bwd.outputs)
    result = ", ".join(grads.get(x, f"ops.zeros_like({x})") for x in fwd.inputs)
    return head + [f"    {got} = _backward_op({', '.join(args)})", f"    return ({result},)" if len(fwd.inputs) == 1
                   else f"    return {result}"]


@dataclass
class _Wiring:
    outputs: list[str]            # forward outputs the derived backward reads
    outputs_all: list[str]        # every forward output, in return order
    grads: list[Optional[int]]    # per tensor input: the backward output holding its gradient


def _renumber(text: str, forward_at: int, forward_from: int, backward_at: int) -> str:
    """Point the derived backward's line numbers into this file: ``# line N:`` comments quote forward line N,
    the ``# parallel`` notes name lines of the backward itself."""
    out = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("# line "):
            line = re.sub(r"# line (\d+):", lambda m: f"# line {int(m.group(1)) - forward_from + forward_at}:", line)
        elif stripped.startswith("# parallel"):
            line = re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + backward_at - 1}", line)
        out.append(line)
    return "\n".join(out)


def export_hybrid(op: Any, path: str | Path, *, example: Any = None, targets: Sequence[str] = ("GPU", "CPU"),
                  result: Optional[CellResult] = None, allow_races: bool = False) -> Path:
    """Write the MindSpore file of a hybrid/akg ``ops.Custom`` op (see the module docstring); returns its path.

    A kernel of the user's (the forward, a bprop kernel) whose parallel loop races is refused
    (:func:`~mskernel.mindspore_export.refusals.check_races`) unless ``allow_races=True``."""
    from mskernel.hybrid.autodiff import backward_kernel

    hk = op.hybrid_kernel
    name = result.name if result is not None else hk.name
    targets = check_targets(name, targets)
    if op.debug or (result is not None and getattr(result.options, "debug", False)):
        line = 1 if result is not None else hk.ir.def_line  # the %%custom_op line (line 1 of the cell), or the def
        where = SourceLocation(hk.ir.filename, line, 1, linecache.getline(hk.ir.filename, line).rstrip("\n") or None)
        raise refuse_debug(name, where, cell=result is not None)
    dtypes, ranks, attrs = choose_signature(name, example, op.signatures_used(),
                                            result.example if result is not None else None)
    if len(dtypes) + len(attrs) != hk.num_inputs:
        raise ExportError(name, f"an example of {len(dtypes)} tensors and {len(attrs)} attributes",
                          f"the kernel {hk.name}({', '.join(hk.input_names)}) takes {hk.num_inputs} inputs",
                          "give one value per kernel parameter: tensors first, then attributes")
    fwd = _describe(hk, dtypes, ranks, attrs, "the forward kernel")
    check_races(name, hk, role=fwd.role, allow_races=allow_races)
    check_dsl(fwd.text, op=name, role=fwd.role, filename=hk.ir.filename, first_line=fwd.first_line, targets=targets)
    bwd, wiring, takes_out, how, python_bprop, bprop_name = None, None, False, "", None, "bprop"
    bprop = op.bprop
    outs = list(hk.output_names)
    typed = hk.specialize(hk.signature(dtypes, ranks, attrs, debug=False))
    o_dt = [typed.tensors[r].dtype for r in outs]
    o_rk = [typed.tensors[r].rank for r in outs]
    if bprop is None:
        bk, src = backward_kernel(hk, hk.signature(dtypes, ranks, attrs, debug=False), comments=True)
        if bk is not None:
            passed = [outs.index(r) for r in src.outputs]
            b_dt = list(dtypes) + [o_dt[k] for k in passed] + o_dt
            b_rk = list(ranks) + [o_rk[k] for k in passed] + o_rk
            bwd = _describe(bk, b_dt, b_rk, attrs, "the derived backward", text=src.source)
            bwd.first_line = 1
            check_dsl(bwd.text, op=name, role=bwd.role, filename=f"<derived backward of {name}>", first_line=1,
                      targets=targets)
            wiring = _Wiring(list(src.outputs), outs, list(src.grads))
        how = "derived by mskernel from the forward kernel (reverse mode on its DSL)"
    elif hasattr(bprop, "hybrid_kernel"):
        bk, takes_out = bprop.hybrid_kernel, bprop.takes_out
        if attrs:
            raise ExportError(name, f"the bprop kernel {bk.name}", "a bprop kernel of a kernel with attributes would "
                              "take them between the tensors", "drop --bprop to export the derived backward, or "
                              "make the attributes constants of the kernels")
        b_dt = list(dtypes) + (o_dt if takes_out else []) + o_dt
        b_rk = list(ranks) + (o_rk if takes_out else []) + o_rk
        bwd = _describe(bk, b_dt, b_rk, (), "the bprop kernel")
        check_races(name, bk, role=bwd.role, allow_races=allow_races)
        check_dsl(bwd.text, op=name, role=bwd.role, filename=bk.ir.filename, first_line=bwd.first_line,
                  targets=targets)
        how = f"the cell's bprop kernel {bk.name}"
    else:
        from mskernel.mindspore_export.pyfunc import Carrier

        known = {"ms": sys.modules["mskernel"], "ops": sys.modules["mskernel.ops"]}
        python_bprop = Carrier(name, reserved=_RESERVED - set(known) | {hk.name}, known=known)
        bprop_name = python_bprop.carry(bprop, "the bprop")
        how = f"the op's Python bprop {bprop_name}"
    for k in [fwd] + ([bwd] if bwd is not None else []):
        if k.name in _RESERVED - {"forward" if k is fwd else "backward"}:
            raise ExportError(name, f"the kernel name {k.name}", "the exported file needs that name for itself",
                              f"rename the kernel (e.g. {k.name}_kernel)")
    text = _assemble(name, Path(path).stem, fwd, bwd, wiring, takes_out, how, (python_bprop, bprop_name), targets,
                     attrs, origin(result, op.func, fwd.text), ranks)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return out


def _assemble(name: str, module: str, fwd: _Kernel, bwd: Optional[_Kernel], wiring: Optional[_Wiring],
              takes_out: bool, how: str, carried: tuple, targets: tuple, attrs: tuple, where: Any,
              ranks: Sequence[int]) -> str:
    python_bprop, bprop = carried
    spec = ", ".join(f"{x} {d} (rank {r})" for x, d, r in zip(fwd.inputs, fwd.in_dtypes, ranks))
    if attrs:
        spec += "; attributes " + ", ".join(f"{a}={v!r}" for a, _, v in fwd.attrs)
    args = ", ".join(fwd.inputs)
    doc = [f'"""{name}: a custom operator for MindSpore (func_type "hybrid"), exported by mskernel.', "",
           *where.lines(),
           f"Exported for: {spec} (the backward is made for these dtypes and ranks)",
           f"Backward: {how}" + (";" if wiring else ""),
           *(["  each `# line N:` comment quotes line N of this file's forward"] if wiring else []),
           f"Targets: {' or '.join(targets)} (registered for the device_target set when this file is imported)", "",
           "Use it in a MindSpore model (the kernels compile with akg on the device):", "",
           "    import mindspore as ms",
           f'    ms.set_context(device_target="{targets[0]}")',
           f"    from {module} import op",
           f"    outputs = op({args})",
           f"    grads = ms.grad(lambda {args}: op({args}), grad_position={tuple(range(len(fwd.inputs)))})({args})",
           "", "Check the kernels without a device: MindSpore's @kernel runs them as Python on numpy arrays:", "",
           f"    {', '.join(fwd.outputs)} = forward({args + ''.join(', ' + repr(v) for v in attrs)})"]
    if bwd is not None:
        doc.append(f"    {', '.join(bwd.outputs)} = backward({', '.join(bwd.inputs + [repr(v) for v in attrs])})")
    imports = ["import mindspore as ms", "from mindspore import ops",
               "from mindspore.ops import CustomRegOp, DataType, kernel"]
    if python_bprop is not None:
        imports = [i for i in python_bprop.imports() if i not in imports] + imports
    lines = doc + ['"""', *imports]
    if attrs:
        lines += ["", f"ATTRS = {tuple(attrs)!r}  # the kernels' attribute values, registered as defaults"]
    lines += ["", ""]
    forward_at = len(lines) + 2  # the line of ``def`` (after ``@kernel``); every item of ``lines`` is one line
    lines += ["@kernel", *fwd.text.rstrip("\n").split("\n"), "", ""]
    if bwd is not None:
        backward_at = len(lines) + 2
        text = bwd.text if wiring is None else _renumber(bwd.text, forward_at, fwd.first_line, backward_at)
        lines += ["@kernel", *text.rstrip("\n").split("\n"), "", ""]
    lines += [f"forward = {fwd.name}", f"backward = {bwd.name if bwd else None}", "", ""]
    lines += _shape_function("_forward_shape", fwd) + ["", ""] + _reg_function("_forward_info", fwd) + ["", ""]
    if bwd is not None:
        lines += _shape_function("_backward_shape", bwd) + ["", ""] + _reg_function("_backward_info", bwd)
        lines += ["", "", _wrap(["backward", "out_shape=_backward_shape", f"out_dtype={_out_dtype(bwd)}",
                                 'func_type="hybrid"', 'reg_info=_backward_info(ms.get_context("device_target"))'],
                                "_backward_op = ops.Custom", ""), "", ""]
    if python_bprop is not None:
        lines += python_bprop.definitions() + ["", ""]
    else:
        lines += _bprop_lines(fwd, bwd, wiring, takes_out) + ["", ""]
    lines.append(_wrap(["forward", "out_shape=_forward_shape", f"out_dtype={_out_dtype(fwd)}", 'func_type="hybrid"',
                        f"bprop={bprop}", 'reg_info=_forward_info(ms.get_context("device_target"))'],
                       "op = ops.Custom", ""))
    return "\n".join(lines) + "\n"
