"""Per-call cost of table-generated ops against the hand-written ops they replaced, and bare numpy.

Run: ``python benchmarks/op_table.py``. For each op, the same computation three ways on an 8-element
float32 tensor: a hand-written function in the style mskernel's ops had before the op table (dtype check,
numpy call, the engine's C record path; kept here as the reference, and ``mul`` is still hand-written in
mskernel.ops.math), the op as an op-table entry (forward on arrays + backward with ops; the functional
op is generated from the entry), and the numpy call alone. Forward untracked, forward with recording,
and forward+backward. Quote the ratios: the machines are shared and noisy.
"""
from __future__ import annotations

import time
from typing import Callable, List

import numpy as np

import mskernel as ms
from mskernel.autograd.node import STATE, _record1
from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import float_input
from mskernel.ops.opdef import Op


def _hand_unary(op: str, fn: Callable, backward: Callable, needs_outputs: bool = False) -> Callable:
    """The pre-table pattern: check, compute, record one node with a closure."""
    def f(input):
        x = float_input(input, op)
        out = Tensor._wrap(fn(x._data))
        if STATE.enabled and x._rg:
            _record1(op, (x,), out, backward(x), needs_outputs)
        return out
    return f


hand_exp = _hand_unary("Exp", np.exp, lambda x: (lambda d, o: (d[0] * o[0],)), True)
hand_sin = _hand_unary("Sin", np.sin, lambda x: (lambda d: (d[0] * ms.ops.cos(x),)))
hand_tanh = _hand_unary("Tanh", np.tanh, lambda x: (lambda d, o: (d[0] * (1 - o[0] * o[0]),)), True)


def _per_call(fn: Callable[[], object], n: int = 20000, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main() -> None:
    rows: List[tuple] = []
    x = ms.Tensor(np.random.default_rng(0).random(8).astype(np.float32))
    xr = ms.Tensor(x.asnumpy().copy())
    xr.requires_grad = True
    cases = [
        ("exp", hand_exp, Op("exp_t", "input", np.exp, lambda g, out: (g * out,), dtype="float").functional(), np.exp),
        ("sin", hand_sin, Op("sin_t", "input", np.sin, lambda g, input: (g * ms.ops.cos(input),),
                             dtype="float").functional(),
         np.sin),
        ("tanh", hand_tanh, Op("tanh_t", "input", np.tanh, lambda g, out: (g * (1 - out * out),),
                            dtype="float").functional(), np.tanh),
        ("mul", M.mul, Op("mul_t", "input, other", np.multiply, lambda g, input, other: (g * other, g * input),
                          inputs=2, dtype="promote").functional(), np.multiply),
    ]
    for name, hand, table, npf in cases:
        args = (x, x) if name == "mul" else (x,)
        rargs = (xr, xr) if name == "mul" else (xr,)
        arrs = tuple(a.asnumpy() for a in args)
        t_np = _per_call(lambda: npf(*arrs))
        fwd = [_per_call(lambda f=f: f(*args)) for f in (hand, table)]
        rec = [_per_call(lambda f=f: f(*rargs)) for f in (hand, table)]
        fb = [_per_call(lambda f=f: ms.grad(lambda *a: f(*a).sum())(*rargs), n=2000) for f in (hand, table)]
        rows.append((name, t_np, fwd, rec, fb))
    print(f"{'op':6} {'numpy':>8} | {'forward hand':>12} {'table':>8} {'ratio':>6} | {'recorded hand':>13} "
          f"{'table':>8} {'ratio':>6} | {'fwd+bwd hand':>12} {'table':>8} {'ratio':>6}")
    for name, t_np, fwd, rec, fb in rows:
        us = [v * 1e6 for v in (t_np, *fwd, *rec, *fb)]
        print(f"{name:6} {us[0]:7.2f}us | {us[1]:10.2f}us {us[2]:6.2f}us {fwd[1] / fwd[0]:5.2f}x | "
              f"{us[3]:11.2f}us {us[4]:6.2f}us {rec[1] / rec[0]:5.2f}x | {us[5]:10.2f}us {us[6]:6.2f}us "
              f"{fb[1] / fb[0]:5.2f}x")
    print("ratio = table-generated / hand-written (below 1.00: the table's op is cheaper)")


if __name__ == "__main__":
    main()
