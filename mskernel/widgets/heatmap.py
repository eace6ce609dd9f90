"""What the gradient-check view draws for one input: the matrices, their differences, the worst elements.

:func:`panels` turns an :class:`~mskernel.gradcheck.InputReport` into four 2-D arrays (analytic,
numerical, absolute and relative difference) plus the mask of elements over tolerance. Small
Jacobians are shown whole (rows: flattened outputs, columns: flattened input); when the Jacobian
has more than ``max_entries`` entries the gradient of the sum of the outputs (the Jacobian's column
sums) is shown instead, in the input's own shape. :func:`heatmap_png` draws the panels with
matplotlib; :func:`heatmap_html` draws them as coloured HTML tables (the static fallback, whose
colours are quantised so round-off does not change the text); :func:`worst_table_html` lists the
worst elements.

Example:
    >>> import mskernel as ms
    >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
    >>> p = panels(rep.inputs[0], rep.atol, rep.rtol)
    >>> p.kind, p.analytic.shape, int(p.bad.sum())
    ('jacobian', (2, 2), 0)
"""
from __future__ import annotations

import html
import io
import math
from dataclasses import dataclass
from typing import Any, List, Tuple

import numpy as np

__all__ = ["Panels", "panels", "heatmap_png", "heatmap_html", "worst_elements", "worst_table_html", "MAX_ENTRIES"]

MAX_ENTRIES = 4096  # Jacobians bigger than this are shown as gradients (column sums)
_TITLES = ("analytic", "numerical", "|analytic - numerical|", "relative difference")


@dataclass
class Panels:
    """The four matrices of one input's check, the over-tolerance mask and what they show."""

    kind: str  # "jacobian" or "gradient"
    analytic: np.ndarray
    numerical: np.ndarray
    abs_diff: np.ndarray
    rel_diff: np.ndarray
    bad: np.ndarray
    row_label: str
    col_label: str

    @property
    def arrays(self) -> Tuple[np.ndarray, ...]:
        """The four panels in display order."""
        return self.analytic, self.numerical, self.abs_diff, self.rel_diff


def _as_2d(a: np.ndarray) -> np.ndarray:
    if a.ndim == 2:
        return a
    if a.ndim < 2:
        return a.reshape(1, -1)
    return a.reshape(-1, a.shape[-1])


def panels(rep: Any, atol: float, rtol: float, max_entries: int = MAX_ENTRIES) -> Panels:
    """The panels of one input report (which must carry both Jacobians: a full-mode or failed check)."""
    if rep.analytic is None or rep.numerical is None:
        raise ValueError(f"GradCheckView: input {rep.index} has no Jacobians (a fast-mode check that passed); "
                         f"run the check with fast_mode=False.")
    a, n = rep.analytic, rep.numerical
    if a.size > max_entries:
        a = _as_2d(a.sum(axis=0).reshape(rep.shape))
        n = _as_2d(n.sum(axis=0).reshape(rep.shape))
        kind, rows, cols = "gradient", "input rows", "input columns"
    else:
        kind, rows, cols = "jacobian", "output element", f"input {rep.index} element"
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(a - n)
        rel = diff / np.maximum(np.abs(n), 1e-12)
        bad = ~(diff <= atol + rtol * np.abs(n))
    return Panels(kind, a, n, diff, rel, bad, rows, cols)


def heatmap_png(p: Panels, title: str = "", dpi: int = 72) -> bytes:
    """The four panels as one PNG: a colour bar each, over-tolerance elements marked with a red ×,
    NaN/Inf shown in magenta."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    h, w = p.analytic.shape
    cell = min(0.35, 6.0 / max(w, 1), 4.0 / max(h, 1))
    fig = Figure(figsize=(4 * max(2.2, min(4.0, w * cell + 1.2)), max(2.2, min(4.0, h * cell + 1.5))), dpi=dpi)
    axes = fig.subplots(1, 4)
    bad_y, bad_x = np.nonzero(p.bad)
    both = np.ma.masked_invalid(np.stack([p.analytic, p.numerical]))
    shared = float(np.abs(both).max()) if both.count() else 1.0  # analytic and numerical share one scale
    for ax, arr, name in zip(axes, p.arrays, _TITLES):
        masked = np.ma.masked_invalid(arr)
        cmap = "RdBu_r" if name in ("analytic", "numerical") else "viridis"
        lim = shared if cmap == "RdBu_r" else (float(np.abs(masked).max()) if masked.count() else 1.0)
        lim = lim if lim > 0 else 1.0
        kw = {"vmin": -lim, "vmax": lim} if cmap == "RdBu_r" else {"vmin": 0.0, "vmax": lim}
        cm = colormaps[cmap].with_extremes(bad="#ff00ff")
        im = ax.imshow(masked, cmap=cm, aspect="auto", interpolation="nearest", **kw)
        if len(bad_x) and name != "analytic":
            ax.scatter(bad_x, bad_y, marker="x", color="red", s=30, linewidths=1.5)
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, format="%.2g").ax.tick_params(labelsize=7)
    axes[0].set_ylabel(p.row_label, fontsize=8)
    axes[0].set_xlabel(p.col_label, fontsize=8)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.subplots_adjust(left=0.06, right=0.94, bottom=0.2, top=0.8, wspace=0.6)  # tight_layout costs 2x
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _level(v: float, top: float, levels: int = 8) -> int:
    if not math.isfinite(v) or top <= 0:
        return levels - 1 if not math.isfinite(v) else 0
    return min(levels - 1, int(levels * abs(v) / top))


def _color(v: float, top: float, signed: bool) -> str:
    if not math.isfinite(v):
        return "#ff00ff"
    lv = _level(v, top)
    t = lv / 7.0
    if not signed:
        return f"rgb({int(255 - 200 * t)},{int(255 - 120 * t)},{int(255 - 40 * t)})"
    if v >= 0:
        return f"rgb(255,{int(255 - 200 * t)},{int(255 - 200 * t)})"
    return f"rgb({int(255 - 200 * t)},{int(255 - 200 * t)},255)"


def heatmap_html(p: Panels, max_cells: int = 24) -> str:
    """The panels as coloured HTML tables (at most ``max_cells`` rows and columns are drawn; colours are
    quantised in 8 levels; NaN/Inf magenta; over-tolerance cells get a red border).

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
        >>> heatmap_html(panels(rep.inputs[0], 1e-5, 1e-3)).count("<table")
        4
    """
    out = []
    h, w = p.analytic.shape
    for arr, name in zip(p.arrays, _TITLES):
        finite = arr[np.isfinite(arr)]
        diff_panel = name not in ("analytic", "numerical")
        top = float(np.abs(finite).max()) if finite.size else 0.0
        if diff_panel:
            # differences are coloured against the tolerance scale, so round-off stays white
            top = max(top, 1e-3)
        rows = []
        for i in range(min(h, max_cells)):
            cells = []
            for j in range(min(w, max_cells)):
                v = float(arr[i, j])
                border = "2px solid #dc2626" if p.bad[i, j] else "1px solid #e5e7eb"
                cells.append(f"<td style='width:12px;height:12px;padding:0;background:{_color(v, top, not diff_panel)};"
                             f"border:{border}'></td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        more = f"<br><small>first {max_cells} of {h}×{w}</small>" if h > max_cells or w > max_cells else ""
        out.append(f"<div style='display:inline-block;margin:4px;vertical-align:top'><small>{name}</small>"
                   f"<table style='border-collapse:collapse'>{''.join(rows)}</table>{more}</div>")
    return "<div class='mk-heatmaps'>" + "".join(out) + "</div>"


def worst_elements(p: Panels, k: int = 8) -> List[Tuple[Tuple[int, int], float, float, float, float, bool]]:
    """The ``k`` elements with the largest absolute difference (NaN first): ``((row, col), analytic,
    numerical, abs diff, rel diff, over tolerance)``.

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
        >>> len(worst_elements(panels(rep.inputs[0], 1e-5, 1e-3), k=3))
        3
    """
    key = np.where(np.isfinite(p.abs_diff), p.abs_diff, np.inf).reshape(-1)
    idx = np.argsort(-key, kind="stable")[:k]
    out = []
    for f in idx:
        r, c = np.unravel_index(int(f), p.abs_diff.shape)
        out.append(((int(r), int(c)), float(p.analytic[r, c]), float(p.numerical[r, c]), float(p.abs_diff[r, c]),
                    float(p.rel_diff[r, c]), bool(p.bad[r, c])))
    return out


def worst_table_html(p: Panels, k: int = 8) -> str:
    """An HTML table of :func:`worst_elements`; differences below 1e-6 print as ``<1e-6`` (round-off)."""
    def small(v: float) -> str:
        return "&lt;1e-6" if math.isfinite(v) and abs(v) < 1e-6 else f"{v:.4g}"
    rows = []
    for (r, c), a, n, d, rel, bad in worst_elements(p, k):
        style = " style='color:#dc2626;font-weight:bold'" if bad else ""
        rows.append(f"<tr{style}><td>({r}, {c})</td><td>{a:.6g}</td><td>{n:.6g}</td><td>{small(d)}</td>"
                    f"<td>{small(rel)}</td><td>{'over' if bad else 'ok'}</td></tr>")
    head = f"<tr><th>({html.escape(p.row_label)}, {html.escape(p.col_label)})</th><th>analytic</th>" \
           "<th>numerical</th><th>abs diff</th><th>rel diff</th><th>tolerance</th></tr>"
    return f"<table class='mk-worst'>{head}{''.join(rows)}</table>"
