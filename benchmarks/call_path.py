"""Per-call cost of a custom op of each kind against the built-in op of the same arity.

Run: ``python benchmarks/call_path.py [--sizes 8,1024]``. One process; each row's implementations
are timed in interleaved rounds (best per-call time of 9 rounds), so a burst of load on a shared
machine hits them alike. Quote the ratios.

The op is ``z = x * y`` (two float32 inputs) with its backward ``(dz * y, dz * x)``:

* ``built-in``: ``ops.mul`` (its backward is the engine's own rule);
* ``hybrid``: a hybrid-DSL kernel, backward derived from the DSL by mskernel;
* ``aot``: a C kernel in MindSpore's AOT ABI built through the build layer, bprop in Python;
* ``pyfunc``: a numpy function, bprop in Python;
* ``cpp Function``: a C++ ``Function`` (Forward/Backward in C++, seed 000's ``CustomMul``: MindSpore's
  tutorial, read from ``../shared/seeds/restored/`` beside the checkout, which this repository does not copy).

Rows: forward alone and forward+backward (``ms.grad`` w.r.t. both inputs), per size. The goal of
issue [15]: every kind within 2x the built-in op, forward and forward+backward.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import numpy as np

import mskernel as ms
from mskernel import ops
from mskernel.ops import kernel

sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import fmt_time, interleaved_best  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL_CPP = ROOT.parent / "shared" / "seeds" / "restored" / "function_ops.cpp"
GOAL = 2.0

AOT_SOURCE = r"""
#include <cstdint>
extern "C" int Mul(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                   void *extra) {
  const float *x = static_cast<const float *>(params[0]);
  const float *y = static_cast<const float *>(params[1]);
  float *z = static_cast<float *>(params[2]);
  int64_t n = 1;
  for (int i = 0; i < ndims[2]; ++i) n *= shapes[2][i];
  for (int64_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
  return 0;
}
"""


@kernel
def hybrid_mul(x, y):
    z = output_tensor(x.shape, x.dtype)  # noqa: F821  (a hybrid-DSL intrinsic)
    for i in range(x.shape[0]):
        z[i] = x[i] * y[i]
    return z


def mul_bprop(x, y, out, dout):
    return dout * y, dout * x


def make_ops(workdir: Path) -> Dict[str, Callable]:
    """The binary ``mul`` of each kind, keyed by the name shown in the table."""
    src = workdir / "call_path_mul.cc"
    src.write_text(AOT_SOURCE)
    cpp = ops.CustomOpBuilder("call_path_mul", [str(TUTORIAL_CPP)],
                              backend="CPU").load()
    same = lambda x, y: x  # noqa: E731
    return {
        "built-in": ops.mul,
        "hybrid": ops.Custom(hybrid_mul, func_type="hybrid"),
        "aot": ops.Custom(f"{src}:Mul", same, same, func_type="aot", bprop=mul_bprop),
        "pyfunc": ops.Custom(lambda x, y: x * y, same, same, func_type="pyfunc", bprop=mul_bprop),
        "cpp Function": cpp.mul,
    }


def check_agree(kinds: Dict[str, Callable], x: ms.Tensor, y: ms.Tensor) -> None:
    """Every kind computes the built-in's values and gradients (else the timings mean nothing)."""
    ref = kinds["built-in"](x, y).asnumpy()
    ref_g = [g.asnumpy() for g in ms.grad(lambda a, b: kinds["built-in"](a, b).sum(), (0, 1))(x, y)]
    for name, f in kinds.items():
        np.testing.assert_allclose(f(x, y).asnumpy(), ref, rtol=1e-6, err_msg=name)
        got = ms.grad(lambda a, b: f(a, b).sum(), (0, 1))(x, y)
        for g, r in zip(got, ref_g):
            np.testing.assert_allclose(g.asnumpy(), r, rtol=1e-6, err_msg=f"{name} gradient")


def measure(kinds: Dict[str, Callable], n: int) -> Tuple[List[str], float]:
    """Table lines for size ``n`` and the worst ratio to the built-in op."""
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal(n).astype(np.float32))
    y = ms.Tensor(rng.standard_normal(n).astype(np.float32))
    check_agree(kinds, x, y)
    fwd = {k: (lambda f=f: f(x, y)) for k, f in kinds.items()}
    grads = {k: ms.grad(lambda a, b, f=f: f(a, b).sum(), (0, 1)) for k, f in kinds.items()}
    fb = {k: (lambda g=g: g(x, y)) for k, g in grads.items()}
    lines, worst = [], 0.0
    for label, fns in ((f"forward, n={n}", fwd), (f"forward+backward, n={n}", fb)):
        best = interleaved_best(fns, rounds=15)
        base = best["built-in"]
        cells = [f"{fmt_time(best[k]).strip()} {best[k] / base:5.2f}x" for k in kinds]  # under its header
        lines.append(f"{label:<26}" + "".join(f"{c:>18}" for c in cells))
        worst = max(worst, *(best[k] / base for k in kinds))
    return lines, worst


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,1024", help="comma-separated element counts (default 8,1024)")
    args = parser.parse_args(argv)
    if not TUTORIAL_CPP.is_file():
        sys.exit(f"the tutorial's C++ is read from {TUTORIAL_CPP} (../shared/seeds beside the checkout), "
                 "which is not here")
    with tempfile.TemporaryDirectory() as tmp:
        kinds = make_ops(Path(tmp))
        print("per-call time of z = x * y, and its ratio to the built-in op (best of 15 interleaved rounds)")
        print(f"{'':<26}" + "".join(f"{k:>18}" for k in kinds))
        worst = 0.0
        for n in (int(s) for s in args.sizes.split(",")):
            lines, w = measure(kinds, n)
            print("\n".join(lines))
            worst = max(worst, w)
        print(f"goal: every custom kind within {GOAL:g}x the built-in op, forward and forward+backward: "
              f"{'met' if worst <= GOAL else 'not met'} (worst {worst:.2f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
