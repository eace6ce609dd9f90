"""The gradient gate: a ``%%custom_op`` cell with ``--example`` has its op's gradients checked as it is bound.

After binding (so a mismatch never unbinds the op: the user debugs the op they have),
:func:`run_gradcheck` calls :func:`mskernel.gradcheck.check_bound_op` on the evaluated ``--example``:

* a hybrid cell: the ``ops.Custom`` op, in float64 (a hybrid kernel compiles for any dtype), the
  inputs named by the kernel's parameters -- through a twin of the op over the same kernel and bprop, so
  that the bound op's record of the signatures it was called with (what an export specialises to) stays
  the user's;
* a C++ cell with ``--forward/--backward``: the op, in the example's own dtype (a C++ kernel takes
  only its own), the inputs named by the forward function's parameters where it has names;
* a C++ module cell: its one public function, in the example's dtype -- unless the module binds
  several functions or its output records no gradient (not differentiable), which leaves a note.

The :class:`~mskernel.gradcheck.GradcheckReport` goes to ``CellResult.grad_check``; why there is none
(no ``--example``, a module of several functions, the op raising on its example...) to
``CellResult.grad_check_note``, one line saying how to check the gradients by hand. ``--no-gradcheck``
runs nothing and says nothing. No error of the check propagates.

Example:
    >>> import numpy as np
    >>> from mskernel.cells import CellOptions, run_cell
    >>> code = ("def cube(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        y[i] = x[i] * x[i] * x[i]\\n    return y\\n"
    ...         "def cube_grad(x, dout):\\n    dx = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        dx[i] = 3.0 * x[i] * dout[i]\\n    return dx\\n")
    >>> ns = {"np": np}
    >>> opts = CellOptions(bprop="cube_grad", example="np.array([1.0, 2.0], np.float32)")
    >>> result = run_cell("cube", code, opts, ns, first_line=2)  # the bprop misses a factor x
    >>> result.grad_check.passed, result.grad_check.names
    (False, ['x'])
    >>> print(result.grad_check_line)
    gradients checked in float64: FAILED for input 0 (x), worst at d out[0][1] / d in[1]: analytic 6 vs numerical 12
    >>> print(run_cell("cube", code, CellOptions(bprop="cube_grad"), ns, first_line=2).grad_check_line)
    gradients unchecked (no --example): give --example INPUTS, or run %gradcheck cube(x)
"""
from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mskernel.cells.binding import ForwardBackwardOp
from mskernel.cells.options import CellOptions
from mskernel.cells.result import COULD_NOT_CHECK, CellResult
from mskernel.common.tensor import Tensor
from mskernel.gradcheck import check_bound_op

__all__ = ["GateCall", "gate_call", "run_gradcheck"]

_AUTO_NAME = re.compile(r"arg\d+")  # pybind11's name for a parameter declared without py::arg


@dataclass(frozen=True)
class GateCall:
    """What the gate checks for a cell: ``fn(*args)`` (example arrays as Tensors), in float64 or in the
    inputs' own dtype, the inputs' ``names`` where known, and ``label`` -- how the user calls it
    (``NAME`` or ``NAME.fn``).

    Example:
        >>> call = GateCall(abs, (Tensor([1.0]),), float64=False, names=["x"], label="op")
        >>> call.hint()
        '%gradcheck op(x)'
    """

    fn: Callable[..., Any]
    args: tuple
    float64: bool
    names: list
    label: str

    def hint(self) -> str:
        """The ``%gradcheck`` line that checks the op by hand."""
        return f"%gradcheck {self.label}({', '.join(self.names) or 'x'})"


def _as_args(example: Any) -> tuple:
    """The call's arguments: a tuple example as is, another value as the only argument; numpy arrays as Tensors."""
    args = example if isinstance(example, tuple) else (example,)
    return tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in args)


def _parameter_names(fn: Callable[..., Any]) -> list[str]:
    """A function's parameter names: from its signature, or the first line of a pybind11 docstring
    (``f(x: Tensor, y: Tensor) -> Tensor``); [] where they are unknown (pybind11's own ``arg0``...)."""
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        first = ((getattr(fn, "__doc__", None) or "").strip().splitlines() or [""])[0]
        inside = first[first.find("(") + 1:first.rfind(")")] if "(" in first and ")" in first else ""
        names = [part.split(":")[0].strip() for part in inside.split(",") if part.strip()]
    return [] if any(not n.isidentifier() or _AUTO_NAME.fullmatch(n) for n in names) else names


def _module_functions(module: Any) -> list[str]:
    """The public functions of a built module (classes it binds are not ops)."""
    return [a for a in dir(module) if not a.startswith("_") and callable(getattr(module, a))
            and not isinstance(getattr(module, a), type)]


def _twin(op: Any) -> Any:
    """An ``ops.Custom`` built as the cell built ``op`` (the same kernel function, already compiled, and bprop):
    what the gate calls, so that its float64 calls are not signatures the bound op was called with (the one
    an export to MindSpore is specialised to)."""
    from mskernel.ops import Custom

    return Custom(op.func, op.out_shape, op.out_dtype, func_type=op.func_type, bprop=op.bprop, debug=op.debug)


def gate_call(result: CellResult, example: Any = None) -> GateCall | str:
    """What the gate checks for ``result`` on ``example`` (default: the cell's evaluated ``--example``), or
    the one-line note saying why it checks nothing there and how to check the gradients by hand.

    Example:
        >>> from mskernel.cells import run_cell
        >>> code = ("def neg(x, w):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...         "    for i in range(x.shape[0]):\\n        y[i] = -x[i] * w[i]\\n    return y\\n")
        >>> call = gate_call(run_cell("neg", code, CellOptions(), {}), (np.ones(2), np.ones(2)))
        >>> call.float64, call.names, type(call.args[0]).__name__
        (True, ['x', 'w'], 'Tensor')
    """
    value = result.value
    if result.lang == "hybrid":
        names = next((list(hk.input_names) for hk in result.kernels.values()), [])
        fn, float64, label = value, True, result.name
    elif isinstance(value, ForwardBackwardOp):
        fn, float64, names, label = value, False, _parameter_names(value.forward), result.name
    else:
        functions = _module_functions(value)
        if not functions:
            return f"gradients unchecked: module {result.name} binds no function"
        if len(functions) > 1:
            return (f"gradients unchecked: module {result.name} binds {len(functions)} functions "
                    f"({', '.join(functions)}); check one with %gradcheck {result.name}.{functions[0]}(x)")
        fn = getattr(value, functions[0])
        float64, names, label = False, _parameter_names(fn), f"{result.name}.{functions[0]}"
    if example is None and result.example is None:
        hint = GateCall(fn, (), float64, names, label).hint()
        return f"gradients unchecked (no --example): give --example INPUTS, or run {hint}"
    fn = _twin(fn) if result.lang == "hybrid" else fn
    return GateCall(fn, _as_args(result.example if example is None else example), float64, names, label)


def _records_gradient(call: GateCall) -> bool:
    """Whether ``call.fn``'s output records a gradient when its float inputs require one (a C++ module's
    function may be a plain one: its output is then a constant to the engine)."""
    from mskernel.autograd.api import recording, track_inputs

    floats = [i for i, a in enumerate(call.args)
              if isinstance(a, Tensor) and np.issubdtype(a.asnumpy().dtype, np.floating)]
    if not floats:
        return True  # the check says what it needs
    with recording():
        tracked, _ = track_inputs(call.args, floats, "the gradient gate")
        out = call.fn(*tracked)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return any(isinstance(o, Tensor) and (o.requires_grad or o.grad_fn is not None) for o in outs)


def _one_line(exc: BaseException) -> str:
    first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), "")
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def run_gradcheck(result: CellResult, opts: CellOptions, namespace: dict) -> None:
    """The gate for a bound cell: ``result.grad_check`` gets the report, or ``result.grad_check_note`` the line
    saying why there is none; nothing with ``--no-gradcheck``. ``namespace`` evaluates ``--example`` for a
    result that did not (the cells evaluate it before building). Never raises for the op's errors.

    Example:
        >>> from mskernel.cells import run_cell
        >>> code = ("def twice(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...         "    for i in range(x.shape[0]):\\n        y[i] = x[i] + x[i]\\n    return y\\n")
        >>> result = run_cell("twice", code, CellOptions(example="np.arange(3)"), {"np": np})  # integers
        >>> print(result.grad_check_line)
        gradients could not be checked: ValueError: gradcheck: no floating-point Tensor inputs to check.
        >>> result.grad_check is None
        True
    """
    if not opts.gradcheck:
        return
    check = result.kernel_check
    if result.lang == "cpp" and check is not None and check.of_kind("address"):
        result.grad_check_note = ("gradients unchecked: --check found memory errors in the op (running it "
                                  "unchecked could corrupt the process); fix them and run the cell again")
        return
    try:
        example = result.example
        if example is None and opts.example is not None:
            example = eval(opts.example, namespace)  # noqa: S307 - the user's own expression
        call = gate_call(result, example)
        if isinstance(call, str):
            result.grad_check_note = call
            return
        if result.lang == "cpp" and not isinstance(result.value, ForwardBackwardOp) and not _records_gradient(call):
            result.grad_check_note = (f"gradients unchecked: {call.label} records no gradient (its output does not "
                                      f"require grad: not differentiable); {call.hint()} checks one that is")
            return
        result.grad_check = check_bound_op(call.fn, call.args, float64=call.float64, names=call.names)
    except Exception as exc:  # the user's op may raise anything on its example: reported, never propagated
        result.grad_check_note = COULD_NOT_CHECK + _one_line(exc)
