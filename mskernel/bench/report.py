"""How benchmark results read: a text table for terminals and tests, matplotlib figures for notebooks.

Text is built here from plain numbers; figures use ``matplotlib.figure.Figure`` directly (no pyplot,
so nothing global changes and no window opens). Roofline points that :func:`~mskernel.bench.roofline.place`
refused are listed in the text as counting errors and never drawn.

Example:
    >>> fmt_time(1.5e-6), fmt_time(0.25), fmt_time(2.5e-9)
    ('1.5 us', '250 ms', '2.5 ns')
"""
from __future__ import annotations

import io
import math
from typing import Any, Optional, Sequence

__all__ = ["fmt_time", "table", "timing_figure", "sweep_figure", "png"]


def fmt_time(seconds: float) -> str:
    """A time with 3 significant digits and a unit (ns, us, ms, s)."""
    if not math.isfinite(seconds):
        return str(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(seconds) >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as left-aligned columns separated by two spaces.

    Example:
        >>> print(table(["a", "bb"], [["xxx", "y"]]))
        a    bb
        xxx  y
    """
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    return "\n".join(lines)


def png(fig: Any) -> bytes:
    """A matplotlib figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    return buf.getvalue()


def _figure(ncols: int = 1) -> tuple[Any, list[Any]]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.5 * ncols, 3.6))
    axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    return fig, axes


def timing_figure(result: Any) -> Any:
    """A figure for one :class:`~mskernel.bench.api.BenchResult`: the median time per call with its quantile
    band (warm and, when measured, flushed), and the roofline when there are placed points."""
    has_roof = bool(result.roofline) and result.peaks is not None
    fig, axes = _figure(2 if has_roof else 1)
    ax = axes[0]
    names = result.names
    modes = [("warm", result.warm)] + ([("flushed", result.flushed)] if result.flushed else [])
    width = 0.8 / len(modes)
    for k, (mode, timings) in enumerate(modes):
        xs = [i + (k - (len(modes) - 1) / 2) * width for i in range(len(names))]
        med = [timings[n].median * 1e6 for n in names]
        lo = [m - timings[n].q_lo * 1e6 for m, n in zip(med, names)]
        hi = [timings[n].q_hi * 1e6 - m for m, n in zip(med, names)]
        ax.bar(xs, med, width, yerr=[lo, hi], capsize=3, label=f"{mode} cache")
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_ylabel("time per call (us), median and band")
    lo_q, hi_q = (round(q * 100) for q in result.method.quantiles)
    ax.set_title(f"{result.label}: median, q{lo_q}-q{hi_q}")
    ax.legend(fontsize=8)
    if has_roof:
        roofline_axes(axes[1], result.roofline.values(), result.peaks)
    fig.tight_layout()
    return fig


def roofline_axes(ax: Any, points: Any, peaks: Any) -> None:
    """Draw the roofs (bandwidth x intensity, capped by each dtype's peak) and the placed points on ``ax``."""
    points = list(points)
    xs = [p.intensity for p in points if math.isfinite(p.intensity) and p.intensity > 0]
    lo = min([*xs, 1 / 64]) / 4
    hi = max([*xs, 64.0]) * 4
    import numpy as np

    grid = np.logspace(math.log10(lo), math.log10(hi), 200)
    for dtype, peak in sorted(peaks.flops.items()):
        ax.plot(grid, np.minimum(peaks.bandwidth * grid, peak) / 1e9, label=f"roof {dtype}")
    for p in points:
        if math.isfinite(p.intensity) and p.intensity > 0:
            ax.plot([p.intensity], [p.gflops], "o")
            ax.annotate(f"{p.kernel} ({p.fraction:.0%})", (p.intensity, p.gflops), fontsize=8,
                        textcoords="offset points", xytext=(4, -10))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop / compulsory byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title("roofline (static counts)")
    ax.legend(fontsize=8)


def sweep_figure(sweep: Any, mode: Optional[str] = None) -> Any:
    """Lines for a :class:`~mskernel.bench.api.Sweep`: median time per call against the size, one line per
    implementation with its quantile band shaded; warm cache solid, flushed dashed."""
    fig, (ax,) = _figure(1)
    modes = [mode] if mode else ["warm"] + (["flushed"] if sweep.results and sweep.results[0].flushed else [])
    for m in modes:
        for name in sweep.names:
            ts = [r.timings(m)[name] for r in sweep.results]
            med = [t.median for t in ts]
            line, = ax.plot(sweep.sizes, med, "-" if m == "warm" else "--", marker="o", ms=3, label=f"{name} ({m})")
            ax.fill_between(sweep.sizes, [t.q_lo for t in ts], [t.q_hi for t in ts], alpha=0.2,
                            color=line.get_color())
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(sweep.param)
    ax.set_ylabel("time per call (s)")
    ax.set_title(f"{sweep.label}: median and quantile band")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
