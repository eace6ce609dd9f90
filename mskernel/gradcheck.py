"""Gradient checking: analytic Jacobians (through the engine) against central differences.

``gradcheck(fn, inputs)`` compares, in float64, the Jacobian the engine computes (backward
passes with one-hot output gradients) with central differences of ``fn``. It returns a
:class:`GradcheckReport` (pass/fail, per input the max absolute/relative error and the worst
element, both Jacobians) that prints as text and renders as HTML in a notebook.
``fast_mode`` first compares random projections ``v^T J u`` (one backward, two forward passes
per input) and builds the full Jacobians only when a projection disagrees — so a failure is
reported with the same detail as in full mode. ``gradgradcheck`` checks second derivatives.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.linspace(0.1, 1.0, 6).reshape(2, 3))
    >>> report = ms.gradcheck(lambda a: ops.sin(a * a + a), (x,))
    >>> report.passed, report.mode
    (True, 'full')
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.autograd.api import recording, track_inputs
from mskernel.autograd.engine import gradients
from mskernel.autograd.node import STATE
from mskernel.errors import MskernelError
from mskernel.common.tensor import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckReport", "InputReport", "GradcheckError", "check_bound_op"]

_FAST_THRESHOLD = 4096  # Jacobian entries above which the default is fast mode


class GradcheckError(MskernelError, AssertionError):
    """Raised by gradcheck on a mismatch when ``raise_exception`` is True; ``.report`` has the details.

    Example:
        >>> import mskernel as ms
        >>> wrong = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                       bprop=lambda x, out, dout: (dout * x,))  # should be 2 * x * dout
        >>> gradcheck(wrong, (ms.Tensor([1.0, 2.0]),))
        Traceback (most recent call last):
        ...
        mskernel.gradcheck.GradcheckError: gradcheck FAILED (full mode, eps=1e-06, atol=1e-05, rtol=0.001)
          [FAIL] input 0 shape [2]: max abs error 2.000e+00, max rel error 5.000e-01
                 worst: d output[0][1] / d input[0][1]: analytic 2, numerical 4
    """

    def __init__(self, report: "GradcheckReport") -> None:
        super().__init__(str(report))
        self.report = report


@dataclass
class InputReport:
    """Comparison for one differentiable input: the Jacobians (the engine's, by finite differences), where
    they differ most and by how much.

    Example:
        >>> import mskernel as ms
        >>> square = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                        bprop=lambda x, out, dout: (dout * x,))  # the factor 2 is missing
        >>> r = ms.gradcheck(square, (ms.Tensor([1.0, 2.0], ms.float64),), raise_exception=False)
        >>> i = r.inputs[0]
        >>> i.index, i.shape, i.passed, i.worst_input, i.analytic_value, round(i.numerical_value, 6)
        (0, (2,), False, (1,), 2.0, 4.0)
        >>> print(i.analytic)
        [[1. 0.]
         [0. 2.]]
    """

    index: int
    shape: Tuple[int, ...]
    passed: bool
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0
    worst_output: Optional[Tuple[int, Tuple[int, ...]]] = None  # (output number, element index)
    worst_input: Optional[Tuple[int, ...]] = None  # element index in this input
    analytic_value: float = 0.0
    numerical_value: float = 0.0
    analytic: Optional[np.ndarray] = None  # Jacobian rows: flattened outputs, columns: flattened input
    numerical: Optional[np.ndarray] = None


@dataclass
class GradcheckReport:
    """The outcome of a gradient check; truthy when it passed.

    Example:
        >>> import mskernel as ms
        >>> r = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0], ms.float64),))
        >>> bool(r), r.inputs[0].max_abs_error < 1e-6
        (True, True)
    """

    passed: bool
    mode: str
    eps: float
    atol: float
    rtol: float
    inputs: List[InputReport] = field(default_factory=list)
    order: int = 1
    names: List[str] = field(default_factory=list)  # the inputs' names, where known (a kernel's parameters)
    worst_rel_error: float = 0.0  # the largest relative error seen (projections in fast mode, elements in full)

    def input_name(self, r: InputReport) -> str:
        """``"input 0 (x)"``: an input by number, and by name where known."""
        name = self.names[r.index] if r.index < len(self.names) else ""
        return f"input {r.index}" + (f" ({name})" if name else "")

    def summary(self) -> str:
        """One line for a cell's summary: ``"gradients checked: ok, worst relative error 3e-07"``, or the
        failing input and its worst element."""
        if self.passed:
            return f"gradients checked: ok, worst relative error {self.worst_rel_error:.0e}"
        bad = self.worst
        text = f"gradients checked: FAILED for {self.input_name(bad)}"
        if bad.worst_input is not None and bad.worst_output is not None:
            text += (f", worst at d out[{bad.worst_output[0]}]{list(bad.worst_output[1])} / d in{list(bad.worst_input)}:"
                     f" analytic {bad.analytic_value:.6g} vs numerical {bad.numerical_value:.6g}")
        return text

    def __bool__(self) -> bool:
        return self.passed

    @property
    def worst(self) -> Optional[InputReport]:
        """The failing input with the largest absolute error (None if all passed)."""
        bad = [r for r in self.inputs if not r.passed]
        return max(bad, key=lambda r: r.max_abs_error) if bad else None

    def __str__(self) -> str:
        what = "gradgradcheck" if self.order == 2 else "gradcheck"
        head = f"{what} {'passed' if self.passed else 'FAILED'} ({self.mode} mode, eps={self.eps:g}, " \
               f"atol={self.atol:g}, rtol={self.rtol:g})"
        lines = [head]
        for r in self.inputs:
            status = "ok  " if r.passed else "FAIL"
            line = (f"  [{status}] input {r.index} shape {list(r.shape)}: max abs error {r.max_abs_error:.3e}, "
                    f"max rel error {r.max_rel_error:.3e}")
            if not r.passed and r.worst_input is not None and r.worst_output is not None:
                line += (f"\n         worst: d output[{r.worst_output[0]}]{list(r.worst_output[1])} / "
                         f"d input[{r.index}]{list(r.worst_input)}: analytic {r.analytic_value:.6g}, "
                         f"numerical {r.numerical_value:.6g}")
            lines.append(line)
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        color = "#1a7f37" if self.passed else "#cf222e"
        what = "gradgradcheck" if self.order == 2 else "gradcheck"
        rows = []
        for r in self.inputs:
            worst = _worst_text(r)
            rows.append(f"<tr><td>{r.index}</td><td>{list(r.shape)}</td>"
                        f"<td style='color:{'#1a7f37' if r.passed else '#cf222e'}'>{'ok' if r.passed else 'FAIL'}</td>"
                        f"<td>{r.max_abs_error:.3e}</td><td>{r.max_rel_error:.3e}</td><td>{html.escape(worst)}</td></tr>")
        return (f"<div class='mk-gradcheck'><b style='color:{color}'>{what} "
                f"{'passed' if self.passed else 'FAILED'}</b> <small>({self.mode} mode, eps={self.eps:g}, "
                f"atol={self.atol:g}, rtol={self.rtol:g})</small><table><tr><th>input</th><th>shape</th><th>status</th>"
                f"<th>max abs err</th><th>max rel err</th><th>worst element</th></tr>{''.join(rows)}</table></div>")


def _worst_text(r: InputReport) -> str:
    """The worst element of one input, for the report's table: where it is and both values."""
    if r.worst_input is None or r.worst_output is None:
        return "not computed (fast mode: the random projections agreed)" if r.passed else "-"
    if r.max_abs_error == 0.0:
        return "none: analytic and numerical are equal in every element"
    diff = abs(r.analytic_value - r.numerical_value)
    return (f"out[{r.worst_output[0]}]{list(r.worst_output[1])} / in{list(r.worst_input)}: "
            f"analytic {r.analytic_value:.6g} vs numerical {r.numerical_value:.6g} (|diff| {diff:.3g})")


# -- helpers ---------------------------------------------------------------------------------------
def _as_tuple(inputs: Any) -> tuple:
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _outputs(out: Any) -> List[Tensor]:
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            raise TypeError(f"gradcheck: the function's outputs must be Tensors, but output {i} is {type(o).__name__}.")
    return [o for o in outs if o._data.dtype.kind in "fc"]


def _evaluate(fn: Callable, args: Sequence[Any]) -> List[np.ndarray]:
    prev = STATE.enabled
    STATE.enabled = False
    try:
        return [np.array(o._data, dtype=np.float64) for o in _outputs(fn(*args))]
    finally:
        STATE.enabled = prev


class _Tracked:
    """One forward pass with the differentiable inputs tracked, for repeated backward passes."""

    def __init__(self, fn: Callable, args: Sequence[Any], diff: Sequence[int]) -> None:
        with recording():  # a grad call inside fn records its backward (gradgradcheck)
            call, self.targets = track_inputs(args, diff, "gradcheck")
            self.outs = _outputs(fn(*call))

    def vjp(self, sens: List[np.ndarray]) -> List[np.ndarray]:
        grads = gradients(self.outs, self.targets, [Tensor._wrap(s.astype(o._data.dtype, copy=False))
                                                     for s, o in zip(sens, self.outs)], retain_graph=True)
        return [np.zeros(t.shape) if g is None else np.asarray(g._data, np.float64)
                for g, t in zip(grads, self.targets)]


def _jacobians(fn: Callable, args: List[Any], diff: List[int], eps: float
               ) -> Tuple[List[np.ndarray], List[np.ndarray], List[tuple]]:
    base = _evaluate(fn, args)
    sizes = [o.size for o in base]
    n_out = sum(sizes)
    numerical = []
    for i in diff:
        x = args[i]._data
        jac = np.zeros((n_out, x.size))
        flat = x.reshape(-1)
        for j in range(x.size):
            old = flat[j].item()
            flat[j] = old + eps
            fp = _evaluate(fn, args)
            flat[j] = old - eps
            fm = _evaluate(fn, args)
            flat[j] = old
            jac[:, j] = np.concatenate([((p - m) / (2 * eps)).reshape(-1) for p, m in zip(fp, fm)]) if fp else 0
        numerical.append(jac)
    tracked = _Tracked(fn, args, diff)
    analytic = [np.zeros((n_out, args[i]._data.size)) for i in diff]
    row = 0
    for k, o in enumerate(tracked.outs):
        for e in range(o._data.size):
            sens = [np.zeros(x.shape) for x in tracked.outs]
            sens[k].reshape(-1)[e] = 1.0
            for a, g in zip(analytic, tracked.vjp(sens)):
                a[row] = g.reshape(-1)
            row += 1
    out_shapes = [o.shape for o in base]
    return analytic, numerical, out_shapes


def _locate(flat_row: int, out_shapes: List[tuple]) -> Tuple[int, Tuple[int, ...]]:
    for k, shp in enumerate(out_shapes):
        n = int(np.prod(shp)) if shp else 1
        if flat_row < n:
            return k, tuple(int(v) for v in np.unravel_index(flat_row, shp)) if shp else ()
        flat_row -= n
    return len(out_shapes) - 1, ()


def _compare(index: int, shape: tuple, a: np.ndarray, n: np.ndarray, atol: float, rtol: float,
             out_shapes: List[tuple]) -> InputReport:
    diff = np.abs(a - n)
    rel = diff / np.maximum(np.abs(n), 1e-12)
    bad = ~(diff <= atol + rtol * np.abs(n))  # written so that NaN/Inf on either side counts as a mismatch
    rep = InputReport(index, tuple(shape), not bad.any(), float(diff.max(initial=0.0)),
                      float(rel[diff != 0].max(initial=0.0)), analytic=a, numerical=n)
    if diff.size:
        r, c = np.unravel_index(int(np.argmax(np.where(bad, diff, -1.0) if bad.any() else diff)), diff.shape)
        rep.worst_output = _locate(int(r), out_shapes)
        rep.worst_input = tuple(int(v) for v in np.unravel_index(int(c), shape)) if shape else ()
        rep.analytic_value, rep.numerical_value = float(a[r, c]), float(n[r, c])
    return rep


def _prepare(inputs: Any, cast_float64: bool, grad_position: Optional[Sequence[int]]) -> Tuple[List[Any], List[int]]:
    args = []
    for a in _as_tuple(inputs):
        if isinstance(a, Tensor):
            data = a._data.astype(np.float64) if cast_float64 and a._data.dtype.kind == "f" else a._data.copy()
            args.append(Tensor._wrap(np.ascontiguousarray(data)))
        else:
            args.append(a)
    if grad_position is None:
        diff = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a._data.dtype.kind == "f"]
    else:
        diff = list(grad_position)
        for i in diff:
            if not isinstance(args[i], Tensor) or args[i]._data.dtype.kind != "f":
                raise TypeError(f"gradcheck: input {i} must be a floating-point Tensor to be checked.")
    if not diff:
        raise ValueError("gradcheck: no floating-point Tensor inputs to check.")
    return args, diff


def gradcheck(fn: Callable, inputs: Any, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, *, fast_mode: Optional[bool] = None,
              grad_position: Optional[Sequence[int]] = None, cast_float64: bool = True,
              seed: int = 0) -> GradcheckReport:
    """Check ``fn``'s gradients against central differences; returns a :class:`GradcheckReport`.

    Args:
        fn: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of inputs; floating Tensors are checked (or those at
            ``grad_position``).
        eps, atol, rtol: finite-difference step and tolerances (``|a - n| <= atol + rtol * |n|``).
        raise_exception: raise :class:`GradcheckError` (with the report) on a mismatch.
        fast_mode: compare random projections first; None picks it for Jacobians with more than
            4096 entries. It is probabilistic: an error confined to a few elements can slip through
            a projection (about 1% of draws for one wrong element in 400); full mode is exact.
        cast_float64: run the check on float64 copies of the inputs (default).

    Example:
        >>> import mskernel as ms
        >>> ms.gradcheck(lambda a, b: a * b, (ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))).passed
        True
    """
    args, diff = _prepare(inputs, cast_float64, grad_position)
    n_out = sum(o.size for o in _evaluate(fn, args))
    n_in = sum(args[i]._data.size for i in diff)
    fast = fast_mode if fast_mode is not None else n_out * n_in > _FAST_THRESHOLD
    if fast:
        ok = _fast_check(fn, args, diff, eps, atol, rtol, seed)
        if ok:
            report = GradcheckReport(True, "fast", eps, atol, rtol,
                                     [InputReport(i, tuple(args[i].shape), True) for i in diff])
            return report
    analytic, numerical, out_shapes = _jacobians(fn, args, diff, eps)
    reps = [_compare(i, tuple(args[i].shape), a, n, atol, rtol, out_shapes)
            for i, a, n in zip(diff, analytic, numerical)]
    report = GradcheckReport(all(r.passed for r in reps), "fast" if fast else "full", eps, atol, rtol, reps,
                             worst_rel_error=max((r.max_rel_error for r in reps), default=0.0))
    if not report.passed and raise_exception:
        raise GradcheckError(report)
    return report


def _fast_check(fn: Callable, args: List[Any], diff: List[int], eps: float, atol: float, rtol: float,
                seed: int, probes: int = 2) -> bool:
    """``v^T J u`` per input, analytic (one backward) vs numerical (two forwards along u), for a
    few independent random probes; any disagreement sends the caller to full Jacobians."""
    rng = np.random.default_rng(seed)
    base = _evaluate(fn, args)
    tracked = _Tracked(fn, args, diff)
    for _ in range(probes):
        vs = [rng.standard_normal(o.shape) for o in base]
        vjps = tracked.vjp(vs)
        for i, g in zip(diff, vjps):
            x = args[i]._data
            u = rng.standard_normal(x.shape)
            old = x.copy()
            x += eps * u
            fp = _evaluate(fn, args)
            x[...] = old - eps * u
            fm = _evaluate(fn, args)
            x[...] = old
            numeric = sum(float(np.sum((p - m) / (2 * eps) * v)) for p, m, v in zip(fp, fm, vs))
            analytic = float(np.sum(g * u))
            if not abs(analytic - numeric) <= atol + rtol * abs(numeric):  # NaN fails too
                return False
    return True


def gradgradcheck(fn: Callable, inputs: Any, grad_outputs: Any = None, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, raise_exception: bool = True, *, fast_mode: Optional[bool] = None,
                  cast_float64: bool = True, seed: int = 0) -> GradcheckReport:
    """Check second derivatives: gradcheck of ``x -> grad_x <fn(x), v>`` (v random or ``grad_outputs``).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> ms.gradgradcheck(lambda a: ops.exp(a) * a, (ms.Tensor([0.5, 1.0]),)).passed
        True
    """
    from mskernel.autograd.api import grad

    args, diff = _prepare(inputs, cast_float64, None)
    rng = np.random.default_rng(seed + 1)
    outs = _evaluate(fn, args)
    if grad_outputs is None:
        vs = [Tensor._wrap(rng.standard_normal(o.shape)) for o in outs]
    else:
        vs = [Tensor._wrap(np.asarray(v._data if isinstance(v, Tensor) else v, np.float64))
              for v in _as_tuple(grad_outputs)]

    def first_order(*xs: Any) -> tuple:
        def inner(*ys: Any) -> Tensor:
            total = None
            for o, v in zip(_outputs(fn(*ys)), vs):
                term = (o * v).sum()
                total = term if total is None else total + term
            return total
        g = grad(inner, grad_position=tuple(diff))(*xs)
        return g

    report = gradcheck(first_order, tuple(args), eps, atol, rtol, raise_exception=False, fast_mode=fast_mode,
                       grad_position=diff, cast_float64=False, seed=seed)
    report.order = 2
    if not report.passed and raise_exception:
        raise GradcheckError(report)
    return report


def check_bound_op(op: Callable, example: Any, *, float64: bool, names: Optional[Sequence[str]] = None
                   ) -> GradcheckReport:
    """The gradient gate's check of a just-bound op on its example inputs (numpy arrays become Tensors);
    never raises on a mismatch. ``float64``: check on float64 copies (a hybrid kernel, compiled for any
    dtype), else in the inputs' own dtype (C++, pyfunc).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> r = check_bound_op(lambda a: a * a, (np.array([1.0, 2.0], np.float32),), float64=True, names=["x"])
        >>> r.passed, r.summary().startswith("gradients checked: ok")
        (True, True)
    """
    args = tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in _as_tuple(example))
    report = gradcheck(op, args, raise_exception=False, cast_float64=float64, fast_mode=True)
    report.names = list(names or [])
    return report
