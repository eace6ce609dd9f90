"""What the gradient gate costs: a ``%%custom_op`` cell re-run with its gradients checked, against the same cell
re-run with ``--no-gradcheck``, and the gate beside torch's own fast gradcheck.

Run: ``python benchmarks/gradient_gate.py``. One process; every build is warmed first (the cell's kernel, its
derived backward, and the float64 twins the gate compiles), then interleaved best-of rounds; quote ratios.
A "warm re-run" is ``mskernel.cells.run_cell`` on an unchanged cell: parse, the build cache's answer, binding,
and -- with the gate -- the check of the bound op on the cell's 1000-element float32 example: random
projections in float64 (a backward pass and a stencil of forward passes per probe) and the float32 run
against the float64 one. torch.autograd.gradcheck (``fast_mode=True``, float64, one thread) on the same
function written with torch ops is the peer: it checks one projection and has no float32 comparison.
The "gate" column is ``check_bound_op`` alone on the bound op (its derived backward already built); what a
re-run adds beyond it is mostly the op the gate checks through (a twin of the cell's op, so that the gate's
float64 calls are not signatures of the bound one) deriving its backward for float64 and for the cell's dtype.

Goal (issue [19]): a warm re-run of a cell with a 1000-element example, gate included, well under a second
(<= 0.3 s here).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import mskernel as ms
from mskernel.cells import CellOptions, run_cell
from mskernel.gradcheck import check_bound_op

sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import fmt_time, interleaved_best  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except Exception:  # torch is optional (only a comparison)
    torch = None

SOFTCLIP = """
def softclip(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] / (1.0 + abs(x[i]))
    return y
"""

ROW_SOFTMAX = """
def row_softmax(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            y[i, j] = exp(x[i, j] - m)
            s = s + y[i, j]
        for j in range(x.shape[1]):
            y[i, j] = y[i, j] / s
    return y
"""


def main() -> None:
    ns: dict = {"np": np, "ms": ms}
    ns["x1000"] = np.linspace(-3, 3, 1000).astype(np.float32)
    ns["m1024"] = np.random.default_rng(0).standard_normal((32, 32)).astype(np.float32)
    cells = [("softclip, 1000 float32", "softclip", SOFTCLIP, "x1000", lambda t: t / (1 + t.abs())),
             ("row softmax (derived backward), 32x32 float32", "row_softmax", ROW_SOFTMAX, "m1024",
              lambda t: torch.softmax(t, dim=1))]
    print(f"{'':<48}{'no gate':>12}{'with gate':>12}{'gate':>12}{'torch fast':>12}{'with/without':>14}")
    worst = 0.0
    for label, name, code, example, torch_fn in cells:
        gated, plain = CellOptions(example=example), CellOptions(example=example, gradcheck=False)
        result = run_cell(name, code, gated, ns)  # warms every build, the gate's float64 twins included
        assert result.grad_check is not None and result.grad_check.passed, str(result)
        run_cell(name, code, plain, ns)
        fns = {"plain": lambda: run_cell(name, code, plain, ns), "gated": lambda: run_cell(name, code, gated, ns),
               "gate": lambda: check_bound_op(ns[name], (ns[example],), float64=True)}
        if torch is not None:
            xt = torch.tensor(ns[example], dtype=torch.float64, requires_grad=True)
            fns["torch"] = lambda: torch.autograd.gradcheck(torch_fn, (xt,), fast_mode=True)
        best = interleaved_best(fns, rounds=7, min_time=0.2)
        worst = max(worst, best["gated"])
        print(f"{label:<48}{fmt_time(best['plain']):>12}{fmt_time(best['gated']):>12}{fmt_time(best['gate']):>12}"
              f"{fmt_time(best.get('torch')):>12}{best['gated'] / best['plain']:>13.2f}x")
    print(f"goal: a warm re-run with the gate under 0.3 s: {'met' if worst <= 0.3 else 'NOT met'} "
          f"(slowest {fmt_time(worst).strip()})")


if __name__ == "__main__":
    main()
