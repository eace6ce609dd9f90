"""Per-call cost of a pyfunc Custom op, and gradcheck time, side by side with peers.

Run: ``python benchmarks/custom_overhead.py``. One process, best-of-5 timings; quote ratios.

1. ``square`` with a bprop, forward and forward+backward, on 8 and 1M float32 elements:
   pyfunc ``ops.Custom`` vs the same computation with built-in ops vs ``torch.autograd.Function``.
2. ``gradcheck`` of ``sin(a*a + a)`` on a 10x10 float64 input, full and fast mode, vs
   ``torch.autograd.gradcheck``.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import numpy as np

import mskernel as ms
from mskernel import ops

sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import best_time, fmt_time  # noqa: E402

try:
    import torch
except Exception:  # optional comparison
    torch = None


def square(x):
    return x * x


def square_bprop(x, out, dout):
    return (2 * x * dout,)


def make_custom():
    return ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=square_bprop)


if torch is not None:
    class TorchSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.from_numpy(square(x.detach().numpy()))

        @staticmethod
        def backward(ctx, dout):
            (x,) = ctx.saved_tensors
            return 2 * x * dout


def row(label: str, a: float, b: float, c: Optional[float], ratio_label: str) -> str:
    ratio = f"{a / c:8.2f}x" if c else "       -"
    return f"{label:<34}{fmt_time(a):>13}{fmt_time(b):>15}{fmt_time(c):>16}{ratio:>14}"


def main() -> None:
    op = make_custom()
    print("1. pyfunc Custom op per call (square with bprop)")
    print(f"{'':<34}{'Custom':>13}{'built-in ops':>15}{'torch.Function':>16}{'Custom/torch':>14}")
    for n in (8, 1_000_000):
        xa = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        x = ms.Tensor(xa)
        fwd = best_time(lambda: op(x))
        fwd_b = best_time(lambda: square(x))
        g_custom = ms.grad(lambda a: op(a).sum())
        g_builtin = ms.grad(lambda a: square(a).sum())
        np.testing.assert_allclose(g_custom(x).asnumpy(), g_builtin(x).asnumpy(), rtol=1e-6)
        fb = best_time(lambda: g_custom(x))
        fb_b = best_time(lambda: g_builtin(x))
        t_fwd = t_fb = None
        if torch is not None:
            tx = torch.tensor(xa, requires_grad=True)

            def torch_fb():
                tx.grad = None
                TorchSquare.apply(tx).sum().backward()
            t_fwd = best_time(lambda: TorchSquare.apply(tx))
            t_fb = best_time(torch_fb)
        print(row(f"forward, n={n}", fwd, fwd_b, t_fwd, ""))
        print(row(f"forward+backward, n={n}", fb, fb_b, t_fb, ""))
    print("goal: Custom forward+backward overhead within 1.5x of torch.autograd.Function\n")

    print("2. gradcheck of sin(a*a + a), 10x10 float64")
    print(f"{'':<34}{'mskernel':>13}{'torch':>13}{'torch/ms':>11}")
    a = np.random.default_rng(1).random((10, 10))
    f = lambda t: ops.sin(t * t + t)  # noqa: E731
    for fast in (False, True):
        t_ms = best_time(lambda: ms.gradcheck(f, (ms.Tensor(a),), fast_mode=fast), min_time=0.5)
        t_th = None
        if torch is not None:
            ta = torch.tensor(a, requires_grad=True)
            t_th = best_time(lambda: torch.autograd.gradcheck(lambda t: torch.sin(t * t + t), (ta,),
                                                              fast_mode=fast), min_time=0.5)
        ratio = f"{t_th / t_ms:10.2f}x" if t_th else "         -"
        print(f"{'fast mode' if fast else 'full mode':<34}{fmt_time(t_ms):>13}{fmt_time(t_th):>13}{ratio:>11}")
    print("goal: gradcheck no slower than torch's in both modes (torch/ms >= 1)")
    if torch is None:
        print("(torch not installed: `pip install torch==2.13.0` for the comparison columns)")


if __name__ == "__main__":
    main()
