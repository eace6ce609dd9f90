"""What a gradient check found: per input the Jacobians, the worst element and the step sweep; against float64,
how far a run in the user's dtype strayed. Prints as text, renders as HTML.

Example:
    >>> import mskernel as ms
    >>> r = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0], ms.float64),))
    >>> print(r)
    gradcheck passed (full mode, float64: eps 1e-06 (2-point stencil), atol 1e-05, rtol 0.001)
      [ok  ] input 0 shape [2]: max abs error ..., max rel error ...
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import numpy as np

from mskernel.errors import MskernelError
from mskernel.gradcheck.tolerances import Tolerance, tolerance_for

__all__ = ["GradcheckError", "InputReport", "GradcheckReport", "Deviation", "AgainstFloat64"]

_GREEN, _RED = "#1a7f37", "#cf222e"


class GradcheckError(MskernelError, AssertionError):
    """Raised by gradcheck on a mismatch when ``raise_exception`` is True; ``.report`` has the details.

    Example:
        >>> import mskernel as ms
        >>> wrong = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                       bprop=lambda x, out, dout: (dout * x,))  # should be 2 * x * dout
        >>> ms.gradcheck(wrong, (ms.Tensor([1.0, 2.0]),))
        Traceback (most recent call last):
        ...
        mskernel.gradcheck.GradcheckError: gradcheck FAILED (full mode, float64: eps 1e-06 (2-point stencil), ...)
          [FAIL] input 0 shape [2]: max abs error 2.000e+00, max rel error 5.000e-01
                 worst: d output[0][1] / d input[0][1]: analytic 2, numerical 4 (wrong at every step tried)
    """

    def __init__(self, report: "GradcheckReport") -> None:
        super().__init__(str(report))
        self.report = report


@dataclass
class InputReport:
    """Comparison for one differentiable input: the Jacobians (the engine's, by finite differences), where
    they differ most and by how much. ``allowance`` is what each element may differ by besides
    ``atol + rtol * |numerical|``: the bound on the rounding of its difference quotient. ``verdict`` is the
    step sweep's reading of the worst element: ``"ok"``, ``"mismatch"`` or ``"not smooth"`` (elements
    that are not smooth at the point are shown but not counted); ``sweep`` lists ``(step, error)`` there.

    Example:
        >>> import mskernel as ms
        >>> square = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                        bprop=lambda x, out, dout: (dout * x,))  # the factor 2 is missing
        >>> r = ms.gradcheck(square, (ms.Tensor([1.0, 2.0], ms.float64),), raise_exception=False)
        >>> i = r.inputs[0]
        >>> i.index, i.shape, i.passed, i.worst_input, i.analytic_value, round(i.numerical_value, 6), i.verdict
        (0, (2,), False, (1,), 2.0, 4.0, 'mismatch')
        >>> print(i.analytic)
        [[1. 0.]
         [0. 2.]]
    """

    index: int
    shape: Tuple[int, ...]
    passed: bool
    max_abs_error: float = 0.0
    max_rel_error: float = 0.0  # |a - n| / max(|n|, atol / rtol): elements near zero are not inflated
    worst_output: Optional[Tuple[int, Tuple[int, ...]]] = None  # (output number, element index)
    worst_input: Optional[Tuple[int, ...]] = None  # element index in this input
    analytic_value: float = 0.0
    numerical_value: float = 0.0
    analytic: Optional[np.ndarray] = None  # Jacobian rows: flattened outputs, columns: flattened input
    numerical: Optional[np.ndarray] = None
    allowance: Optional[np.ndarray] = None
    verdict: str = "ok"
    sweep: List[Tuple[float, float]] = field(default_factory=list)
    not_smooth: int = 0  # elements left out: the function jumps within the stencil there
    relative_error: float = 0.0  # the worst over the counted elements, each at least atol / rtol in size


@dataclass
class Deviation:
    """One output or gradient of the run in the user's dtype against the float64 run: the largest error
    relative to the tolerance, where it is and both values.

    Example:
        >>> d = Deviation("output 0", True, 0.12, (3,), 1.0005, 1.0)
        >>> d.text()
        'output 0: 0.12 of the tolerance (worst at [3]: 1.0005 vs float64 1)'
    """

    what: str
    passed: bool
    ratio: float  # max |got - float64| / allowed
    worst: Tuple[int, ...]
    got: float
    want: float

    def text(self) -> str:
        if not np.isfinite(self.got) and np.isfinite(self.want):  # overflow, 0/0...: said as such
            return f"{self.what}: {self.got:g} at {list(self.worst)} where float64 gives {self.want:.6g}"
        return (f"{self.what}: {self.ratio:.2g} of the tolerance (worst at {list(self.worst)}: {self.got:.6g} vs "
                f"float64 {self.want:.6g})")


@dataclass
class AgainstFloat64:
    """A run in ``dtype`` compared with the float64 run of the same op on the same (upcast) inputs: its
    outputs and its gradients for one random output gradient, each within ``tolerance.vs_float64``
    (relative to the element, or to the array's root mean square for elements near zero).

    Example:
        >>> a = AgainstFloat64("float16", tolerance_for("float16"), [Deviation("output 0", True, 0.1, (0,), 1, 1)])
        >>> a.passed, a.worst.what
        (True, 'output 0')
    """

    dtype: str
    tolerance: Tolerance
    items: List[Deviation] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(d.passed for d in self.items)

    @property
    def worst(self) -> Optional[Deviation]:
        return max(self.items, key=lambda d: d.ratio if np.isfinite(d.ratio) else np.inf, default=None)

    def text(self) -> str:
        head = (f"{self.dtype} against float64 (within {self.tolerance.vs_float64:g}): "
                f"{'ok' if self.passed else 'FAILED'}")
        return "\n".join([head] + [f"  [{'ok  ' if d.passed else 'FAIL'}] {d.text()}" for d in self.items])


@dataclass
class GradcheckReport:
    """The outcome of a gradient check; truthy when it passed. ``tolerance`` is the row of the dtype the
    Jacobians were compared in (``checked_in``, or the outputs' where they are less precise); ``dtype`` is
    the inputs' own dtype; ``against_float64`` compares a run in ``dtype`` with the float64 run (when the check
    ran in float64 for a lower dtype).

    Example:
        >>> import mskernel as ms
        >>> r = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0], ms.float64),))
        >>> bool(r), r.inputs[0].max_abs_error < 1e-6, r.checked_in
        (True, True, 'float64')
    """

    passed: bool
    mode: str
    eps: float
    atol: float
    rtol: float
    inputs: List[InputReport] = field(default_factory=list)
    order: int = 1
    names: List[str] = field(default_factory=list)  # the inputs' names, where known (a kernel's parameters)
    worst_rel_error: float = 0.0  # largest relative error of a projection (fast) or an element (full)
    checked_in: str = "float64"
    dtype: str = "float64"
    tolerance: Tolerance = field(default_factory=lambda: tolerance_for("float64"))
    against_float64: Optional[AgainstFloat64] = None
    note: str = ""  # why the check ran where it did, e.g. "; the op does not take float64"
    swept: bool = True  # a failing element was tried at other steps before it was called wrong

    def __bool__(self) -> bool:
        return self.passed

    @property
    def worst(self) -> Optional[InputReport]:
        """The failing input with the largest absolute error (None if all passed)."""
        bad = [r for r in self.inputs if not r.passed]
        return max(bad, key=lambda r: r.max_abs_error) if bad else None

    def input_name(self, r: InputReport) -> str:
        """``"input 0 (x)"``: an input by number, and by name where known."""
        name = self.names[r.index] if r.index < len(self.names) else ""
        return f"input {r.index}" + (f" ({name})" if name else "")

    def band(self) -> str:
        """The tolerances the Jacobians were compared with (eps and atol/rtol as given or from the dtype's row)."""
        t = self.tolerance
        return f"{t.dtype}: eps {self.eps:.2g} ({t.points}-point stencil), atol {self.atol:g}, rtol {self.rtol:g}"

    def summary(self) -> str:
        """One line for a cell's summary: ``"gradients checked: ok, worst relative error 3e-07"``, or what failed.

        Example:
            >>> import mskernel as ms
            >>> ms.gradcheck(lambda a: a * 3, (ms.Tensor([1.0, 2.0]),)).summary()[:30]
            'gradients checked: ok, worst r'
        """
        left_out = sum(r.not_smooth for r in self.inputs)
        left = (f"; {left_out} element{'s' if left_out != 1 else ''} not counted: not differentiable there"
                if left_out else "")
        if self.passed:
            where = f"in {self.checked_in}" + (f", and {self.dtype} against it" if self.against_float64 else "")
            return (f"gradients checked: ok, worst relative error {self.worst_rel_error:.0e} "
                    f"({where}{self.note}{left})")
        bad = self.worst
        if bad is None:  # the Jacobians agree; the run in the user's dtype strayed from float64
            assert self.against_float64 is not None
            return (f"gradients checked: FAILED in {self.dtype} against float64: "
                    f"{self.against_float64.worst.text()}")
        text = f"gradients checked in {self.checked_in}{self.note}{left}: FAILED for {self.input_name(bad)}"
        if bad.worst_input is not None and bad.worst_output is not None:
            out = f"d out[{bad.worst_output[0]}]{list(bad.worst_output[1])}"
            text += (f", worst at {out} / d in{list(bad.worst_input)}: analytic {bad.analytic_value:.6g} vs "
                     f"numerical {bad.numerical_value:.6g}")
        return text

    def __str__(self) -> str:
        what = "gradgradcheck" if self.order == 2 else "gradcheck"
        lines = [f"{what} {'passed' if self.passed else 'FAILED'} ({self.mode} mode, {self.band()}{self.note})"]
        for r in self.inputs:
            status = "ok  " if r.passed else "FAIL"
            if r.analytic is None:  # fast mode, passed: no Jacobians, only projections
                lines.append(f"  [{status}] input {r.index} shape {list(r.shape)}: random projections agree (worst "
                             f"relative error {r.relative_error:.3e})")
                continue
            line = (f"  [{status}] input {r.index} shape {list(r.shape)}: max abs error {r.max_abs_error:.3e}, "
                    f"max rel error {r.max_rel_error:.3e}")
            if not r.passed and r.worst_input is not None and r.worst_output is not None:
                line += (f"\n         worst: d output[{r.worst_output[0]}]{list(r.worst_output[1])} / "
                         f"d input[{r.index}]{list(r.worst_input)}: analytic {r.analytic_value:.6g}, "
                         f"numerical {r.numerical_value:.6g}{_sweep_text(r)}")
            if r.not_smooth:
                many = "s" if r.not_smooth != 1 else ""
                line += (f"\n         {r.not_smooth} element{many} not counted: the function jumps within the stencil "
                         f"there (not differentiable at this point)")
            lines.append(line)
        if self.against_float64 is not None:  # its details when it failed; one line when all was within
            text = self.against_float64.text().splitlines()
            lines += ["  " + s for s in (text if not self.against_float64.passed else text[:1])]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        color = _GREEN if self.passed else _RED
        what = "gradgradcheck" if self.order == 2 else "gradcheck"
        rows = []
        for r in self.inputs:
            worst = _worst_text(r)
            rows.append(f"<tr><td>{r.index}</td><td>{list(r.shape)}</td>"
                        f"<td style='color:{_GREEN if r.passed else _RED}'>{'ok' if r.passed else 'FAIL'}</td>"
                        f"<td>{r.max_abs_error:.3e}</td><td>{r.max_rel_error:.3e}</td><td>{html.escape(worst)}</td></tr>")
        extra = ""
        if self.against_float64 is not None:
            extra = f"<pre>{html.escape(self.against_float64.text())}</pre>"
        return (f"<div class='mk-gradcheck'><b style='color:{color}'>{what} "
                f"{'passed' if self.passed else 'FAILED'}</b> <small>({self.mode} mode, {html.escape(self.band())})"
                f"</small><table><tr><th>input</th><th>shape</th><th>status</th>"
                f"<th>max abs err</th><th>max rel err</th><th>worst element</th></tr>{''.join(rows)}</table>"
                f"{extra}</div>")


def _sweep_text(r: InputReport) -> str:
    if r.verdict == "mismatch" and len(r.sweep) > 1:
        return " (wrong at every step tried)"
    return ""


def _worst_text(r: InputReport) -> str:
    """The worst element of one input, for the report's table: where it is and both values."""
    if r.worst_input is None or r.worst_output is None:
        return "not computed (fast mode: the random projections agreed)" if r.passed else "-"
    if r.max_abs_error == 0.0:
        return "none: analytic and numerical are equal in every element"
    diff = abs(r.analytic_value - r.numerical_value)
    return (f"out[{r.worst_output[0]}]{list(r.worst_output[1])} / in{list(r.worst_input)}: "
            f"analytic {r.analytic_value:.6g} vs numerical {r.numerical_value:.6g} (|diff| {diff:.3g})")
