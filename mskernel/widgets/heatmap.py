"""What the gradient-check view draws for one input: the matrices, the error against the tolerance, the worst elements.

:func:`panels` turns an :class:`~mskernel.gradcheck.InputReport` into the analytic and numerical
matrices, their absolute and relative differences, the **error relative to the tolerance**
(``|analytic - numerical| / (atol + rtol * |numerical| + allowance)``, the gradcheck criterion, the
allowance bounding the rounding of the difference quotient itself: an element fails when this is above 1;
an element the check left out, the function jumping within its stencil, has an infinite allowance) and
the mask of elements over tolerance. Small Jacobians are shown whole
(rows: flattened outputs, columns: flattened input); when the Jacobian has more than
``max_entries`` entries the gradient of the sum of the outputs (the Jacobian's column sums) is
shown instead, in the input's own shape.

The error panel is coloured in fixed bands of that ratio (:data:`RATIO_BANDS`): white to grey for
errors well inside the tolerance (round-off of a passing check stays white), amber close to it, red
only above it -- so a passing check looks calm and a failing element stands out whatever the size
of the other errors. :func:`heatmap_png` draws the panels with matplotlib, sized from the matrix
(about 12 px per element, at most 192 px per panel); :func:`heatmap_html` draws them as coloured
HTML tables (the static fallback); :func:`legend_html` explains both colour scales;
:func:`worst_table_html` lists the worst elements (never the exact matches).

Example:
    >>> import mskernel as ms
    >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
    >>> p = panels(rep.inputs[0], rep.atol, rep.rtol)
    >>> p.kind, p.analytic.shape, int(p.bad.sum()), float(p.ratio.max()) < 1e-3
    ('jacobian', (2, 2), 0, True)
    >>> ratio_color(0.5) in CALM_COLORS, ratio_color(3.0) in ALARM_COLORS
    (True, True)
"""
from __future__ import annotations

import html
import io
import math
from dataclasses import dataclass
from typing import Any, List, Tuple

import numpy as np

__all__ = ["Panels", "panels", "heatmap_png", "heatmap_html", "figure_pixels", "legend_html", "worst_elements",
           "worst_table_html", "ratio_color", "RATIO_BANDS", "CALM_COLORS", "ALARM_COLORS", "NONFINITE_COLOR",
           "MAX_ENTRIES"]

MAX_ENTRIES = 4096  # Jacobians bigger than this are shown as gradients (column sums)
_TITLES = ("analytic", "numerical", "error / tolerance")

# colour bands of error / tolerance: (upper bound, colour); an element passes while the ratio is <= 1
RATIO_BANDS: Tuple[Tuple[float, str], ...] = (
    (1e-3, "#ffffff"),  # round-off: white
    (1e-2, "#f1f5f9"),
    (1e-1, "#e2e8f0"),
    (0.5, "#cbd5e1"),
    (1.0, "#fde68a"),   # close to the tolerance, still passing: amber
    (10.0, "#ff5c47"),  # over the tolerance: red, darker the further over
    (100.0, "#f5332b"),
    (math.inf, "#eb0f1f"),
)
CALM_COLORS = tuple(c for top, c in RATIO_BANDS if top <= 1.0)
ALARM_COLORS = tuple(c for top, c in RATIO_BANDS if top > 1.0)
NONFINITE_COLOR = "#ff00ff"  # NaN/Inf, in every panel


@dataclass
class Panels:
    """The matrices of one input's check, the over-tolerance mask and what they show."""

    kind: str  # "jacobian" or "gradient"
    analytic: np.ndarray
    numerical: np.ndarray
    abs_diff: np.ndarray
    rel_diff: np.ndarray
    ratio: np.ndarray  # abs_diff / (atol + rtol * |numerical|): > 1 is over tolerance
    bad: np.ndarray
    row_label: str
    col_label: str

    @property
    def arrays(self) -> Tuple[np.ndarray, ...]:
        """The three drawn panels in display order: analytic, numerical, error / tolerance."""
        return self.analytic, self.numerical, self.ratio


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
    allowance = getattr(rep, "allowance", None)  # the bound on each difference quotient's own rounding
    allowance = np.zeros(a.shape) if allowance is None else allowance
    if a.size > max_entries:
        a = _as_2d(a.sum(axis=0).reshape(rep.shape))
        n = _as_2d(n.sum(axis=0).reshape(rep.shape))
        allowance = _as_2d(allowance.sum(axis=0).reshape(rep.shape))
        kind, rows, cols = "gradient", "input rows", "input columns"
    else:
        kind, rows, cols = "jacobian", "output element", f"input {rep.index} element"
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(a - n)
        rel = diff / np.maximum(np.abs(n), 1e-12)
        tol = atol + rtol * np.abs(n) + allowance
        bad = ~(diff <= tol)  # the gradcheck criterion; NaN/Inf on either side counts as a mismatch
        # tolerance 0 (atol = rtol = 0): an exact match is 0, any other finite difference is infinitely over
        ratio = np.where(tol > 0, diff / np.where(tol > 0, tol, 1.0), np.where(diff == 0, 0.0, np.inf))
        ratio = np.where(np.isnan(diff), np.nan, ratio)
    return Panels(kind, a, n, diff, rel, ratio, bad, rows, cols)


def _band(v: float) -> int:
    for i, (top, _) in enumerate(RATIO_BANDS):
        if v <= top:
            return i
    return len(RATIO_BANDS) - 1


def ratio_color(v: float) -> str:
    """The colour of an error / tolerance value (:data:`RATIO_BANDS`; NaN magenta, +Inf the last red).

    Example:
        >>> ratio_color(1e-6), ratio_color(1.0), ratio_color(1.01), ratio_color(float("nan"))
        ('#ffffff', '#fde68a', '#ff5c47', '#ff00ff')
    """
    if math.isnan(v):
        return NONFINITE_COLOR
    return RATIO_BANDS[_band(abs(v))][1]


# -- the PNG ------------------------------------------------------------------------------------------
_CELL, _BIG_CELL, _MAX_PANEL, _SLOT = 12, 24, 192, 96  # px per element (small matrices: up to 24), bounds
_LEFT, _GAP, _RIGHT, _TOP, _BOTTOM = 44, 44, 12, 18, 30  # margins (tick labels, titles, axis labels)


def _panel_pixels(h: int, w: int) -> Tuple[int, int, int]:
    """Width and height of one panel's axes (square elements) and of its slot (room for the title)."""
    n = max(h, w, 1)
    cell = min(float(_BIG_CELL), max(float(_CELL), _SLOT / n), _MAX_PANEL / n)
    pw, ph = int(round(w * cell)), int(round(h * cell))
    return pw, ph, max(_SLOT, pw)


def figure_pixels(p: Panels) -> Tuple[int, int]:
    """``(width, height)`` in pixels of :func:`heatmap_png`'s picture: 12 to 24 px per (square) element, each
    panel at most 192×192 px in a slot at least 96 px wide, plus room for titles and tick labels.

    Example:
        >>> import numpy as np
        >>> z = np.zeros((12, 12))
        >>> figure_pixels(Panels("jacobian", z, z, z, z, z, z.astype(bool), "r", "c"))
        (576, 192)
    """
    _, ph, slot = _panel_pixels(*p.analytic.shape)
    return _LEFT + 3 * slot + 2 * _GAP + _RIGHT, _TOP + ph + _BOTTOM


def heatmap_png(p: Panels, title: str = "", dpi: int = 72) -> bytes:
    """The three panels as one PNG of :func:`figure_pixels` size: analytic and numerical on one shared
    blue-white-red scale, the error in :data:`RATIO_BANDS` colours; over-tolerance elements marked with a
    red ×, NaN/Inf magenta. The scales are explained by :func:`legend_html` (no colour bars in the picture).
    ``title`` is a caption above the panels (empty: none).

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
        >>> heatmap_png(panels(rep.inputs[0], rep.atol, rep.rtol))[:4]
        b'\x89PNG'
    """
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    h, w = p.analytic.shape
    pw, ph, slot = _panel_pixels(h, w)
    top = _TOP + (14 if title else 0)
    fw, fh = figure_pixels(p)
    fh += top - _TOP
    fig = Figure(figsize=(fw / dpi, fh / dpi), dpi=dpi)
    lim = _shared_limit(p)
    # band i holds (top[i-1], top[i]] as ratio_color does: a ratio of exactly 1 passes, so it is not red
    bounds = [0.0] + [float(np.nextafter(b, np.inf)) for b, _ in RATIO_BANDS[:-1]]
    band_cmap = ListedColormap([c for _, c in RATIO_BANDS[:-1]]).with_extremes(
        over=RATIO_BANDS[-1][1], bad=NONFINITE_COLOR)
    signed = colormaps["RdBu_r"].with_extremes(bad=NONFINITE_COLOR)
    bad_y, bad_x = np.nonzero(p.bad)
    for k, (arr, name) in enumerate(zip(p.arrays, _TITLES)):
        left = _LEFT + k * (slot + _GAP) + (slot - pw) // 2
        ax = fig.add_axes((left / fw, (fh - top - ph) / fh, pw / fw, ph / fh))
        masked = np.ma.masked_invalid(arr)
        if name == "error / tolerance":
            masked = np.ma.masked_invalid(np.where(np.isposinf(arr), 1e300, arr))  # +Inf: over, not bad
            ax.imshow(masked, cmap=band_cmap, norm=BoundaryNorm(bounds, len(bounds) - 1),
                      aspect="auto", interpolation="nearest")
        else:
            ax.imshow(masked, cmap=signed, vmin=-lim, vmax=lim, aspect="auto", interpolation="nearest")
        if len(bad_x) and name == "numerical":  # (the error panel is red there already)
            ax.scatter(bad_x, bad_y, marker="x", color="red", s=min(30, max(8, (pw / w) ** 2 / 4)), linewidths=1.2)
        ax.set_title(name, fontsize=9, pad=3)
        ax.tick_params(labelsize=7, length=2, pad=1)
        for axis, n, room in ((ax.xaxis, w, pw), (ax.yaxis, h, ph)):
            if n <= max(1, room // 16):
                axis.set_ticks(range(n))  # every element numbered when there is room
            else:
                axis.set_major_locator(MaxNLocator(nbins=max(2, min(6, room // 24)), integer=True))
        if k == 0:
            if ph >= 90:
                ax.set_ylabel(p.row_label, fontsize=8, labelpad=1)
                ax.set_xlabel(p.col_label, fontsize=8, labelpad=1)
            else:  # too low for a vertical label
                ax.set_xlabel(f"{p.col_label} (rows: {p.row_label})", fontsize=8, labelpad=1, loc="left")
    if title:
        fig.text(0.5, 1 - 3 / fh, title, ha="center", va="top", fontsize=9)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _shared_limit(p: Panels) -> float:
    both = np.ma.masked_invalid(np.stack([p.analytic, p.numerical]))
    lim = float(np.abs(both).max()) if both.count() else 1.0  # analytic and numerical share one scale
    return lim if lim > 0 else 1.0


def legend_html(p: Panels) -> str:
    """The two colour scales as HTML: analytic/numerical (blue -max .. white 0 .. red +max) and the
    error / tolerance bands (which pass, which fail).

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
        >>> "passes" in legend_html(panels(rep.inputs[0], rep.atol, rep.rtol))
        True
    """
    lim = _shared_limit(p)

    def swatch(color: str, text: str) -> str:
        return (f"<span style='display:inline-block;width:10px;height:10px;background:{color};"
                f"border:1px solid #94a3b8;margin:0 2px 0 6px;vertical-align:middle'></span>{html.escape(text)}")
    labels = ["≤1e-3", "≤0.01", "≤0.1", "≤0.5", "≤1", ">1", ">10", ">100"]
    calm = "".join(swatch(c, t) for (_, c), t in zip(RATIO_BANDS, labels) if c in CALM_COLORS)
    alarm = "".join(swatch(c, t) for (_, c), t in zip(RATIO_BANDS, labels) if c in ALARM_COLORS)
    scale = ("<span style='display:inline-block;width:80px;height:10px;vertical-align:middle;border:1px solid "
             "#94a3b8;background:linear-gradient(to right,#053061,#f7f7f7,#67001f)'></span>")
    formula = "|analytic − numerical| / (atol + rtol·|numerical|): an element passes when it is ≤ 1"
    return (f"<div class='mk-gc-legend' style='font-size:11px;line-height:18px'>"
            f"<div>analytic, numerical: {-lim:.3g} {scale} {lim:.3g}</div>"
            f"<div title='{html.escape(formula)}'>error / tolerance: "
            f"<span class='mk-gc-calm'>{calm} passes</span> &nbsp;·&nbsp; "
            f"<span class='mk-gc-alarm'>{alarm} fails</span> &nbsp;·&nbsp;{swatch(NONFINITE_COLOR, 'NaN/Inf')}"
            f"</div></div>")


# -- the static HTML ------------------------------------------------------------------------------------
def _signed_color(v: float, top: float, levels: int = 8) -> str:
    if not math.isfinite(v):
        return NONFINITE_COLOR
    t = 0 if top <= 0 else min(levels - 1, int(levels * abs(v) / top)) / (levels - 1)
    if v >= 0:
        return f"rgb(255,{int(255 - 200 * t)},{int(255 - 200 * t)})"
    return f"rgb({int(255 - 200 * t)},{int(255 - 200 * t)},255)"


def heatmap_html(p: Panels, max_cells: int = 24) -> str:
    """The panels as coloured HTML tables (at most ``max_cells`` rows and columns are drawn; analytic and
    numerical in 8 levels of one shared scale, the error in :data:`RATIO_BANDS` colours; NaN/Inf
    magenta; over-tolerance cells get a red border), followed by :func:`legend_html`.

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),))
        >>> heatmap_html(panels(rep.inputs[0], 1e-5, 1e-3)).count("<table")
        3
    """
    out = []
    h, w = p.analytic.shape
    lim = _shared_limit(p)
    for arr, name in zip(p.arrays, _TITLES):
        rows = []
        for i in range(min(h, max_cells)):
            cells = []
            for j in range(min(w, max_cells)):
                v = float(arr[i, j])
                color = ratio_color(v) if name == "error / tolerance" else _signed_color(v, lim)
                border = "2px solid #dc2626" if p.bad[i, j] else "1px solid #e5e7eb"
                cells.append(f"<td style='width:12px;height:12px;padding:0;background:{color};"
                             f"border:{border}'></td>")
            rows.append("<tr>" + "".join(cells) + "</tr>")
        more = f"<br><small>first {max_cells} of {h}×{w}</small>" if h > max_cells or w > max_cells else ""
        out.append(f"<div style='display:inline-block;margin:4px;vertical-align:top'><small>{name}</small>"
                   f"<table style='border-collapse:collapse'>{''.join(rows)}</table>{more}</div>")
    return "<div class='mk-heatmaps'>" + "".join(out) + legend_html(p) + "</div>"


# -- the worst elements -----------------------------------------------------------------------------------
def worst_elements(p: Panels, k: int = 8) -> List[Tuple[Tuple[int, int], float, float, float, float, bool]]:
    """Up to ``k`` elements that differ, largest error / tolerance first (NaN first): ``((row, col),
    analytic, numerical, abs diff, rel diff, over tolerance)``. Exact matches (difference 0) are left out,
    so an exact gradient has none.

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: a * 3, (ms.Tensor([1.0, 2.0]),))
        >>> sorted(e[0] for e in worst_elements(panels(rep.inputs[0], 1e-5, 1e-3), k=3))  # only the diagonal differs
        [(0, 0), (1, 1)]
    """
    ratio = np.where(np.isnan(p.ratio), np.inf, p.ratio).reshape(-1)
    diff = np.where(np.isnan(p.abs_diff), np.inf, p.abs_diff).reshape(-1)
    differs = np.flatnonzero(~(p.abs_diff.reshape(-1) == 0))  # NaN differs too
    nan_first = ~np.isnan(p.ratio.reshape(-1)[differs])
    idx = differs[np.lexsort((-diff[differs], -ratio[differs], nan_first))][:k]
    out = []
    for f in idx:
        r, c = np.unravel_index(int(f), p.abs_diff.shape)
        out.append(((int(r), int(c)), float(p.analytic[r, c]), float(p.numerical[r, c]), float(p.abs_diff[r, c]),
                    float(p.rel_diff[r, c]), bool(p.bad[r, c])))
    return out


_WORST_CSS = ".mk-worst td, .mk-worst th {padding: 1px 10px 1px 0; text-align: left}"


def worst_table_html(p: Panels, k: int = 8, k_passed: int = 3) -> str:
    """An HTML table of :func:`worst_elements` with each one's error / tolerance: ``k`` rows when some element
    is over tolerance, ``k_passed`` when none is (round-off is not worth a long table). Differences below
    1e-6 print as ``<1e-6``. An exact gradient gives a one-line note instead of a table.

    Example:
        >>> import mskernel as ms
        >>> rep = ms.gradcheck(lambda a: ms.ops.sin(a), (ms.Tensor([0.5, 1.0, 2.0, 3.0]),))
        >>> worst_table_html(panels(rep.inputs[0], rep.atol, rep.rtol)).count("<tr")  # heading + 3
        4
    """
    def small(v: float) -> str:
        return "&lt;1e-6" if math.isfinite(v) and abs(v) < 1e-6 else f"{v:.4g}"
    n_differ = int((~(p.abs_diff == 0)).sum())
    shown = worst_elements(p, k if p.bad.any() else k_passed)
    rows = []
    for (r, c), a, n, d, rel, bad in shown:
        style = " style='color:#dc2626;font-weight:bold'" if bad else ""
        ratio = float(p.ratio[r, c])
        rows.append(f"<tr{style}><td>({r}, {c})</td><td>{a:.6g}</td><td>{n:.6g}</td><td>{small(d)}</td>"
                    f"<td>{small(rel)}</td><td>{ratio:.2g}</td><td>{'over' if bad else 'ok'}</td></tr>")
    if not rows:
        return "<p class='mk-worst mk-worst-exact'>analytic and numerical are equal in every element</p>"
    head = "<tr>" + "".join(f"<th>{html.escape(t)}</th>" for t in (
        f"({p.row_label}, {p.col_label})", "analytic", "numerical", "abs diff", "rel diff", "error / tolerance",
        "tolerance")) + "</tr>"
    caption = (f"<caption style='text-align:left;font-size:11px;color:#475569'>the {len(rows)} largest of "
               f"{n_differ} differing element{'s' if n_differ != 1 else ''} (exact matches not listed)</caption>")
    return (f"<style>{_WORST_CSS}</style><table class='mk-worst' style='border-collapse:collapse;font-size:12px;"
            f"line-height:1.4'>{caption}{head}{''.join(rows)}</table>")
