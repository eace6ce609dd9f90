"""The performance page's plots: a benchmark's ratio tables as horizontal bars, one panel per table.

Bars start at 0 on a linear axis, or at the panel's edge on a logarithmic one when the ratios (and 1) span
more than a factor 8; each bar is labelled with the ratio as printed and a dashed line marks 1 (equal). A
reference column (1.00x on every row) is the dashed line, not bars.
The SVG is the same for the same input on every build: no date in its metadata, element ids from a fixed
salt (``svg.hashsalt``), text kept as text (``svg.fonttype = "none"``).
"""
from __future__ import annotations

import io
import re
import textwrap
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from .printout import REFERENCE, Table

#: bar colours, told apart by colour-blind readers too (Okabe and Ito's palette)
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
STYLE = {"svg.hashsalt": "mskernel-docs-performance", "svg.fonttype": "none", "font.size": 8,
         "axes.spines.top": False, "axes.spines.right": False}
LOG_SPAN = 8.0


def value(cell: str) -> float:
    """The number a printed ratio draws as: its first ratio, a percentage as a fraction.

    Example:
        >>> value("0.61x / 0.61x"), value("153%")
        (0.61, 1.53)
    """
    m = re.match(r"(\d+(?:\.\d+)?)(x|%)", cell)
    if not m:
        raise ValueError(f"not a printed ratio: {cell!r}")
    return float(m.group(1)) / (100.0 if m.group(2) == "%" else 1.0)


def _series(table: Table) -> List[Tuple[str, List[Optional[Tuple[float, str]]]]]:
    """``[(legend name, [(value, label) or None per row]), ...]``: a column each, or the one inline ratio."""
    if table.inline:
        return [("ratio", [(value(r.cells[0]), r.cells[0]) for r in table.rows])]
    return [(col, [(value(r.cells[i]), r.cells[i]) if r.cells[i] else None for r in table.rows])
            for i, col in enumerate(table.columns) if not col.endswith(REFERENCE)]


def _wrap(label: str) -> List[str]:
    return textwrap.wrap(label, 52) or [""]


def _panel(ax, table: Table) -> None:  # noqa: ANN001 (a matplotlib Axes)
    series = _series(table)
    values = [v for _, cells in series for c in cells if c for v in (c[0],)]
    lo, hi = min(values + [1.0]), max(values + [1.0])
    log = hi / lo > LOG_SPAN
    height = 0.8 / len(series)
    for si, (name, cells) in enumerate(series):
        ys = [ri + si * height for ri, c in enumerate(cells) if c]
        xs = [c[0] for c in cells if c]
        ax.barh(ys, xs, height=height * 0.92, color=COLOURS[si % len(COLOURS)], label=name, zorder=2)
        for y, c in zip(ys, (c for c in cells if c)):
            ax.text(c[0], y, f" {c[1]}", va="center", ha="left", fontsize=7, zorder=3,
                    bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 0.2})
    ax.set_yticks([ri + height * (len(series) - 1) / 2 for ri in range(len(table.rows))])
    ax.set_yticklabels(["\n".join(_wrap(r.label)) for r in table.rows])
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
        ax.set_xlim(lo / 1.5, hi * 3.0)
    else:
        ax.set_xlim(0, hi * 1.25)
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.axvline(1.0, color="0.35", linewidth=0.9, linestyle="--", zorder=1)
    what = ("the ratio, relative to what the table's last column says" if table.inline
            else series[0][0] if len(series) == 1 else "the ratio")
    ax.set_xlabel(f"{what} (dashed line: 1x" + (", logarithmic axis)" if log else ")"))
    if table.title:
        ax.set_title(textwrap.fill(table.title, 90), fontsize=8, loc="left")
    if len(series) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)


def plot(tables: Sequence[Table], title: str, out: Path) -> bool:
    """Draw the ratio tables into ``out`` (SVG), one panel each; False when there is nothing to draw.

    Example:
        >>> import tempfile
        >>> from mskernel_docs.printout import Row, Table
        >>> t = Table("", "op", ("hybrid / numpy",), (Row("exp", 3, ("0.83x",)),))
        >>> out = Path(tempfile.mkdtemp()) / "t.svg"
        >>> plot([t], "t", out), out.read_text().count("0.83x")
        (True, 1)
    """
    tables = [t for t in tables if t.rows]
    if not tables:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        heights = [0.9 + 0.2 * sum(max(1.15 * len(_wrap(r.label)) + 0.2, 0.75 * len(_series(t)) + 0.4)
                                   for r in t.rows) for t in tables]
        fig, axes = plt.subplots(len(tables), 1, figsize=(8, sum(heights)), squeeze=False,
                                 gridspec_kw={"height_ratios": heights})
        for ax, table in zip(axes[:, 0], tables):
            _panel(ax, table)
        fig.suptitle(title, fontsize=10, x=0.01, ha="left")
        fig.tight_layout()
        svg = io.BytesIO()
        fig.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(fig)
    if not out.exists() or out.read_bytes() != svg.getvalue():  # unchanged: left alone (incremental builds)
        out.write_bytes(svg.getvalue())
    return True
