"""The gradient-check view: where the analytic and numerical gradients disagree, element by element.

``GradCheckView(fn, inputs)`` runs :func:`mskernel.gradcheck` (full mode, ``raise_exception=False``)
and shows, for the input picked in the selector, the analytic and numerical Jacobian (or gradient,
for large inputs) and their error relative to the tolerance as heatmaps sized to the data (the error
coloured in fixed bands: calm while an element passes, red only when it fails; see
:mod:`mskernel.widgets.heatmap`), a table of the worst elements that differ and a pass/fail badge.
Moving the eps slider or editing a tolerance recomputes the check; "re-run" recomputes it after you
edited the op (``fn`` is called again, so a redefined op it refers to is picked up). Without a widget
front end it renders as HTML heatmaps and the report's text.

``report=`` shows a check already made (the ``%%custom_op`` gradient gate's) without running it again:
the controls start from its eps/atol/rtol and the first recompute runs the check. ``compact=True`` is the
smaller form a cell shows under its summary: the failing input first, the picture at most
:data:`COMPACT_WIDTH` pixels wide and the few worst elements, the eps slider and "re-run" still there.

Example:
    >>> import mskernel as ms
    >>> view = GradCheckView(lambda a: ms.ops.sin(a) * a, (ms.Tensor([0.5, 1.0, 2.0]),))
    >>> bool(view.report), view.badge.value.count("PASSED")
    (True, 1)
    >>> view.eps.value = 1e-3  # the slider: the check runs again
    >>> view.report.eps, view.runs
    (0.001, 2)
"""
from __future__ import annotations

import html
import math
from typing import Any, Callable, Dict, Optional

import ipywidgets as W

from mskernel.gradcheck import GradcheckReport, gradcheck
from mskernel.widgets.heatmap import (MAX_ENTRIES, figure_pixels, heatmap_html, heatmap_png, legend_html, panels,
                                      worst_table_html)

__all__ = ["COMPACT_WIDTH", "GradCheckView"]

COMPACT_WIDTH = 420  # px: the widest a compact view's picture is shown
_COMPACT_ROWS = 4  # worst elements listed by a compact view


def _check_number(name: str, value: Any, positive: bool) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    ok = ok and (value > 0 if positive else value >= 0)
    if not ok:
        want = "a finite number > 0" if positive else "a finite number >= 0"
        raise ValueError(f"GradCheckView: {name} must be {want}, got {value!r}.")
    return float(value)


def _badge(report: GradcheckReport) -> str:
    color = "#1a7f37" if report.passed else "#cf222e"
    text = "PASSED" if report.passed else "FAILED"
    steps = "steps eps/4 to 4 eps tried" if report.swept else "at this eps only"
    return (f"<span class='mk-badge' style='background:{color};color:white;padding:2px 8px;border-radius:4px;"
            f"font-weight:bold'>{text}</span> <small>gradcheck, {html.escape(report.band())} ({steps})</small>")


class GradCheckView(W.VBox):
    """Widget comparing ``fn``'s analytic gradients with central differences on ``inputs``.

    ``eps``, ``atol``, ``rtol`` start the controls (default: the given report's, else the row of the dtype the
    check runs in, :data:`mskernel.gradcheck.TOLERANCES`; the badge shows that band). Until the eps slider is
    moved, an element is called wrong only if it is wrong at every step of the sweep, as in ``ms.gradcheck``;
    once it is moved, the view judges at the slider's step alone;
    ``max_entries`` is the Jacobian size above which gradients (Jacobian column sums) are drawn instead.
    ``report`` is the current :class:`~mskernel.gradcheck.GradcheckReport` -- passed in, it is shown as
    is and nothing runs until a control asks for it; ``runs`` counts the checks run. ``compact`` makes
    the smaller view (see the module docstring).

    Example:
        >>> import mskernel as ms
        >>> wrong = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                       bprop=lambda x, out, dout: (dout * x,))  # should be 2 * x * dout
        >>> view = GradCheckView(lambda a: wrong(a), (ms.Tensor([1.0, 2.0]),))
        >>> bool(view.report), view.bad_elements()
        (False, [(0, 0), (1, 1)])
        >>> shown = GradCheckView(lambda a: wrong(a), (ms.Tensor([1.0, 2.0]),), report=view.report, compact=True)
        >>> shown.runs, shown.report is view.report, "FAILED" in shown.badge.value
        (0, True, True)
    """

    def __init__(self, fn: Callable, inputs: Any, eps: Optional[float] = None, atol: Optional[float] = None,
                 rtol: Optional[float] = None, max_entries: int = MAX_ENTRIES, *,
                 report: Optional[GradcheckReport] = None, compact: bool = False, **gradcheck_kwargs: Any) -> None:
        if not callable(fn):
            raise TypeError(f"GradCheckView: fn must be callable, got {type(fn).__name__}.")
        for bad in ("raise_exception", "fast_mode"):
            if bad in gradcheck_kwargs:
                raise TypeError(f"GradCheckView: {bad} is set by the view (it needs the failing report and both "
                                f"Jacobians); do not pass it.")
        if report is not None and not isinstance(report, GradcheckReport):
            raise TypeError(f"GradCheckView: report must be a GradcheckReport (or None to run the check), "
                            f"got {type(report).__name__}.")
        given = {k: _check_number(k, v, k == "eps") for k, v in (("eps", eps), ("atol", atol), ("rtol", rtol))
                 if v is not None}
        self.fn, self.inputs, self.max_entries, self.kwargs = fn, inputs, max_entries, gradcheck_kwargs
        self.compact = bool(compact)
        self.runs = 0
        self.error: Optional[str] = None
        self._sweep = True  # until the eps slider is moved: then the view shows that step alone
        # errors in fn propagate from the constructor; a given report is shown as it is; what is not given
        # comes from the row of the dtype the check runs in (mskernel.gradcheck.TOLERANCES)
        self.report: GradcheckReport = report if report is not None else self._run(
            given.get("eps"), given.get("atol"), given.get("rtol"))
        eps = given.get("eps", self.report.eps)
        atol = given.get("atol", self.report.atol)
        rtol = given.get("rtol", self.report.rtol)
        self.names = list(self.report.names)  # the inputs' names, where the first report knew them
        self.badge = W.HTML(_badge(self.report))
        self.badge.add_class("mk-gc-badge")
        self.input = W.Dropdown(options=[(self._label(r.index, r.shape), k) for k, r in enumerate(self.report.inputs)],
                                value=self._first_failing(), description="input")
        self.input.add_class("mk-gc-input")
        self.eps = W.FloatLogSlider(value=eps, base=10, min=-12, max=0, step=0.5, description="eps",
                                    continuous_update=False, readout_format=".0e")
        self.eps.add_class("mk-gc-eps")
        self.atol = W.FloatText(value=atol, description="atol", layout=W.Layout(width="180px"))
        self.atol.add_class("mk-gc-atol")
        self.rtol = W.FloatText(value=rtol, description="rtol", layout=W.Layout(width="180px"))
        self.rtol.add_class("mk-gc-rtol")
        self.rerun = W.Button(description="re-run", tooltip="run the check again (after editing the op)",
                              icon="refresh")
        self.rerun.add_class("mk-gc-rerun")
        self.status = W.HTML()
        self.status.add_class("mk-gc-status")
        self.image = W.Image(format="png", layout=W.Layout(max_width="100%", height="auto", object_fit="contain"))
        self.image.add_class("mk-gc-image")
        self.legend = W.HTML()
        self.legend.add_class("mk-gc-legend-box")
        self.worst = W.HTML()
        self.worst.add_class("mk-gc-worst")
        if self.compact:  # the controls in two rows, the picture and the few worst elements; no legend
            super().__init__([self.badge, W.HBox([self.input, self.eps]), W.HBox([self.atol, self.rtol, self.rerun]),
                              self.status, self.image, self.worst])
            self.add_class("mk-gradcheck-compact")
        else:
            super().__init__([self.badge, W.HBox([self.input, self.eps]), W.HBox([self.atol, self.rtol, self.rerun]),
                              self.status, self.image, self.legend, self.worst])
        self.add_class("mk-gradcheck-view")
        self.input.observe(lambda _: self._draw(), names="value")
        self.eps.observe(lambda _: self._at_this_step(), names="value")
        for w in (self.atol, self.rtol):
            w.observe(lambda _: self.recompute(), names="value")
        self.rerun.on_click(lambda _: self.recompute())
        self._draw()

    # -- computing ---------------------------------------------------------------------------------
    def _run(self, eps: Optional[float], atol: Optional[float], rtol: Optional[float]) -> GradcheckReport:
        report = gradcheck(self.fn, self.inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=False,
                           fast_mode=False, sweep=self._sweep, **self.kwargs)
        self.runs += 1
        return report

    def _at_this_step(self) -> None:
        """The eps slider moved: judge at that step alone (what it shows), not swept around it."""
        self._sweep = False
        self.recompute()

    def _first_failing(self) -> int:
        for k, r in enumerate(self.report.inputs):
            if not r.passed:
                return k
        return 0

    def _label(self, index: int, shape: Any) -> str:
        """``"input 0 (x) [3]"``: an input by number, by name where known, and its shape."""
        name = self.names[index] if index < len(self.names) and self.names[index] else ""
        return f"input {index}" + (f" ({name})" if name else "") + f" {list(shape)}"

    def recompute(self) -> GradcheckReport:
        """Run the check again with the controls' eps/atol/rtol (and the current ``fn``); on bad settings or
        an error in ``fn`` the previous report stays and the status line says what went wrong."""
        try:
            eps = _check_number("eps", self.eps.value, True)
            atol = _check_number("atol", self.atol.value, False)
            rtol = _check_number("rtol", self.rtol.value, False)
            report = self._run(eps, atol, rtol)
        except Exception as e:  # shown in the view; the previous report stays
            self.error = f"{type(e).__name__}: {e}"
            self.status.value = f"<pre style='color:#cf222e'>{html.escape(self.error)}</pre>"
            return self.report
        self.error = None
        self.report = report
        self.badge.value = _badge(report)
        self._draw()
        return report

    # -- drawing ---------------------------------------------------------------------------------------
    def _runs_text(self) -> str:
        if self.runs == 0:
            return "the report given, not run again (move eps or press re-run to run it)"
        return f"check run {self.runs} time{'s' if self.runs != 1 else ''}"

    def _draw(self) -> None:
        rep = self.report.inputs[self.input.value]
        if rep.analytic is None or rep.numerical is None:  # a fast-mode check that passed keeps no Jacobians
            self.status.value = (f"{self._label(rep.index, rep.shape)}: {'ok' if rep.passed else 'FAIL'}; the "
                                 f"report has no Jacobians to draw (a fast-mode check that passed): re-run to "
                                 f"compute them; {self._runs_text()}")
            self.image.value, self.legend.value, self.worst.value = b"", "", ""
            return
        p = panels(rep, self.report.atol, self.report.rtol, self.max_entries)
        what = "Jacobian" if p.kind == "jacobian" else "gradient of sum(outputs)"
        n_bad = int(p.bad.sum())
        self.status.value = (f"{self._label(rep.index, rep.shape)}: {what} {p.analytic.shape[0]}×"
                             f"{p.analytic.shape[1]}, {n_bad} element{'s' if n_bad != 1 else ''} over tolerance; "
                             f"{self._runs_text()}")
        self.image.value = heatmap_png(p)
        width = figure_pixels(p)[0]  # shown at its own size (scaled down only if need be)
        self.image.layout.width = f"{min(width, COMPACT_WIDTH) if self.compact else width}px"
        self.legend.value = legend_html(p)
        self.worst.value = worst_table_html(p, k=_COMPACT_ROWS) if self.compact else worst_table_html(p)

    def bad_elements(self, input_number: Optional[int] = None) -> list:
        """``(row, col)`` of the elements over tolerance in the shown (or given) input's panels ([] when the
        report has no Jacobians for it)."""
        k = self.input.value if input_number is None else input_number
        rep = self.report.inputs[k]
        if rep.analytic is None or rep.numerical is None:
            return []
        p = panels(rep, self.report.atol, self.report.rtol, self.max_entries)
        return [(int(r), int(c)) for r, c in zip(*p.bad.nonzero())]

    # -- static output -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return str(self.report)

    def _repr_html_(self) -> str:
        parts = [f"<div class='mk-gradcheck-static'>{_badge(self.report)}"]
        shown = self.report.inputs
        if self.compact:  # the failing inputs only (all of them when none fails)
            shown = [r for r in shown if not r.passed] or shown
        for r in shown:
            label = html.escape(self._label(r.index, r.shape))
            if r.analytic is None or r.numerical is None:
                parts.append(f"<p><b>{label}</b>: {'ok' if r.passed else 'FAIL'} (no Jacobians in the report: a "
                             f"fast-mode check that passed)</p>")
                continue
            p = panels(r, self.report.atol, self.report.rtol, self.max_entries)
            what = "Jacobian" if p.kind == "jacobian" else "gradient of sum(outputs)"
            table = worst_table_html(p, k=_COMPACT_ROWS) if self.compact else worst_table_html(p)
            parts.append(f"<p><b>{label}</b> ({what}): {'ok' if r.passed else 'FAIL'}</p>{heatmap_html(p)}{table}")
        return "".join(parts) + "</div>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Dict[str, Any]:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = str(self.report)
        bundle["text/html"] = self._repr_html_()
        return bundle
