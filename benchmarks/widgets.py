"""Graph view cost against graph size: layout, SVG drawing and the whole widget, for 10/50/200/1000 nodes.

Run: ``python benchmarks/widgets.py``. One process, best-of-3 timings. Goals (issue [6]): a 200-node
graph laid out and drawn in under 0.5 s; a 1000-node graph stays usable (collapsed) in under 2 s.
The "of goal" column is the total divided by the goal (below 1.00 meets it). Also: the gradient-check
view's drawing (heatmap PNG) for small and large Jacobians, as a ratio to one gradcheck run.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import mskernel as ms
from mskernel import Tensor, ops
from mskernel.autograd.graph import trace
from mskernel.gradcheck import gradcheck
from mskernel.widgets import GraphView
from mskernel.widgets.heatmap import heatmap_png, panels
from mskernel.widgets.layout import layout
from mskernel.widgets.render import graph_svg

sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import best_time, fmt_time  # noqa: E402


def graph_of(n_nodes: int):
    """A traced graph with about ``n_nodes`` nodes: a residual chain with a few side branches."""
    steps = max(1, (n_nodes - 2) // 3)

    def f(x):
        h = x
        for i in range(steps):
            h = ops.tanh(h * 0.5) + h if i % 5 else ops.sin(h) * ops.cos(h)
        return h.sum()
    return trace(f, Tensor(np.linspace(0, 1, 8)))[0]


def main() -> None:
    print(f"mskernel {ms.__version__}: graph view cost (best of 3)\n")
    print(f"{'nodes':>6}{'boxes':>7}{'layout':>12}{'svg':>12}{'GraphView':>13}{'goal':>8}{'of goal':>9}")
    for target in (10, 50, 200, 1000):
        snap = graph_of(target)
        lay = layout(snap)
        t_layout = best_time(lambda: layout(snap), 0.1, 3)
        t_svg = best_time(lambda: graph_svg(snap, lay), 0.1, 3)
        t_view = best_time(lambda: GraphView(snap), 0.1, 3)
        goal = 2.0 if target > 200 else 0.5
        print(f"{len(snap.nodes):>6}{len(lay.boxes):>7}{fmt_time(t_layout):>12}{fmt_time(t_svg):>12}"
              f"{fmt_time(t_view):>13}{goal:>7.1f}s{t_view / goal:>8.2f}x")
    print("\ngradient-check view drawing vs one gradcheck run")
    print(f"{'jacobian':>12}{'gradcheck':>12}{'heatmap png':>14}{'png/check':>11}")
    for n in (4, 64):
        x = Tensor(np.linspace(-1, 1, n))
        rep = gradcheck(lambda a: ops.tanh(a) * a, (x,), raise_exception=False, fast_mode=False)
        p = panels(rep.inputs[0], rep.atol, rep.rtol)
        t_check = best_time(lambda: gradcheck(lambda a: ops.tanh(a) * a, (x,), raise_exception=False,
                                              fast_mode=False), 0.1, 3)
        t_png = best_time(lambda: heatmap_png(p), 0.1, 3)
        print(f"{f'{n}x{n}':>12}{fmt_time(t_check):>12}{fmt_time(t_png):>14}{t_png / t_check:>10.2f}x")


if __name__ == "__main__":
    main()
