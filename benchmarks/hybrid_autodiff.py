"""Automatic backward of hybrid kernels vs a hand-written hybrid bprop vs the built-in ops' backward.

Run: ``python benchmarks/hybrid_autodiff.py`` (``--quick`` for smaller sizes). Prints one table;
quote the ratios (shared machines are noisy).

For each kernel (float32):

* **backward kernel**: the derived backward kernel (``mskernel.hybrid.autodiff``) vs a
  hand-written hybrid kernel computing the same gradients, each called directly on numpy
  arrays (compiled, outputs allocated by the call). The goal: auto within 1.5x of hand.
* **grad step**: ``ms.grad`` of ``(op(x) * w).sum()`` end to end (forward, engine, backward)
  with the op's backward derived automatically, with ``bprop=`` running the hand-written
  kernel, and with the same function composed of built-in ops.

Kernels: an elementwise cube, a matmul written as an accumulation loop, a 3x3 convolution,
and a row softmax (whose derived backward replays the forward to recover the running maximum
and the row buffer it overwrote, which a hand-written bprop avoids by reading the output).
"""
from __future__ import annotations

import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mskernel as ms  # noqa: E402
from engine_overhead import interleaved_best  # noqa: E402  (the shared timing loop)
from mskernel import ops  # noqa: E402
from mskernel.hybrid import HybridKernel  # noqa: E402
from mskernel.hybrid.autodiff import backward_kernel  # noqa: E402

CUBE = ("""
def cube(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[i] = x[i] * x[i] * x[i]
    return y
""", """
def cube_bprop(x, dy):
    dx = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        dx[i] = 3.0 * x[i] * x[i] * dy[i]
    return dx
""", lambda x: x * x * x)

MATMUL = ("""
def matmul(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            for j in range(b.shape[1]):
                c[i, j] = c[i, j] + a[i, k] * b[k, j]
    return c
""", """
def matmul_bprop(a, b, dc):
    da = output_tensor(a.shape, a.dtype)
    db = output_tensor(b.shape, b.dtype)
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            for j in range(b.shape[1]):
                da[i, k] = da[i, k] + dc[i, j] * b[k, j]
                db[k, j] = db[k, j] + a[i, k] * dc[i, j]
    return da, db
""", lambda a, b: ops.matmul(a, b))

CONV = ("""
def conv(x, w):
    out = output_tensor((x.shape[0] - w.shape[0] + 1, x.shape[1] - w.shape[1] + 1), x.dtype)
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            acc = float32(0)
            for p in range(w.shape[0]):
                for q in range(w.shape[1]):
                    acc = acc + x[i + p, j + q] * w[p, q]
            out[i, j] = acc
    return out
""", """
def conv_bprop(x, w, dout):
    dx = output_tensor(x.shape, x.dtype)
    dw = output_tensor(w.shape, w.dtype)
    for i in range(dout.shape[0]):
        for j in range(dout.shape[1]):
            for p in range(w.shape[0]):
                for q in range(w.shape[1]):
                    dx[i + p, j + q] = dx[i + p, j + q] + dout[i, j] * w[p, q]
                    dw[p, q] = dw[p, q] + dout[i, j] * x[i + p, j + q]
    return dx, dw
""", None)

SOFTMAX = ("""
def softmax(x):
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        total = float32(0)
        for j in range(x.shape[1]):
            row[j] = exp(x[i, j] - m)
            total = total + row[j]
        for j in range(x.shape[1]):
            y[i, j] = row[j] / total
    return y
""", """
def softmax_bprop(x, dy):
    dx = output_tensor(x.shape, x.dtype)
    y = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        total = float32(0)
        for j in range(x.shape[1]):
            y[j] = exp(x[i, j] - m)
            total = total + y[j]
        dot = float32(0)
        for j in range(x.shape[1]):
            y[j] = y[j] / total
            dot = dot + dy[i, j] * y[j]
        for j in range(x.shape[1]):
            dx[i, j] = y[j] * (dy[i, j] - dot)
    return dx
""", lambda x: _softmax_ops(x))


def _softmax_ops(x):
    e = ops.exp(x - ops.stop_gradient(ops.amax(x, axis=1, keepdims=True)))
    return e / e.sum(axis=1, keepdims=True)


def _custom(text: str, name: str, bprop=None):
    namespace: dict = {}
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mskernel_bench_{name}.py")
    with open(path, "w") as f:
        f.write("from mskernel.hybrid import *\n" + text)
    exec(compile(open(path).read(), path, "exec"), namespace)  # noqa: S102 - our own kernel text
    return namespace[name], ops.Custom(namespace[name], func_type="akg", bprop=bprop)


def row(label: str, fwd: str, hand: str, builtin, arrays: list) -> tuple:
    fwd_name, hand_name = fwd.split("(")[0].split()[-1], hand.split("(")[0].split()[-1]
    hk, hand_hk = HybridKernel.from_source(fwd, fwd_name), HybridKernel.from_source(hand, hand_name)
    auto_bk, _ = backward_kernel(hk, hk.signature([a.dtype for a in arrays], [a.ndim for a in arrays]))
    out = hk.run(arrays)[0]
    dout = np.random.default_rng(1).standard_normal(out.shape).astype(out.dtype)
    hand_args = [*arrays, dout]
    auto_args = [*arrays, out, dout]
    np.testing.assert_allclose(auto_bk.run(auto_args)[0], hand_hk.run(hand_args)[0], rtol=2e-3, atol=2e-3)
    kern = interleaved_best({"auto": lambda: auto_bk.run(auto_args), "hand": lambda: hand_hk.run(hand_args)})

    _, auto_op = _custom(fwd, fwd_name)
    def hand_bprop(*a):  # (*inputs, out, dout): the hand-written kernel on the inputs and dout
        return tuple(ms.Tensor(g) for g in hand_hk.run([t.asnumpy() for t in (*a[:-2], a[-1])]))

    hand_op = ops.Custom(auto_op.func, func_type="akg", bprop=hand_bprop)
    tensors = [ms.Tensor(a) for a in arrays]
    w = ms.Tensor(dout)
    pos = tuple(range(len(tensors)))
    steps = {"auto": ms.grad(lambda *t: (auto_op(*t) * w).sum(), grad_position=pos),
             "hand": ms.grad(lambda *t: (hand_op(*t) * w).sum(), grad_position=pos)}
    if builtin is not None:
        steps["built-in"] = ms.grad(lambda *t: (builtin(*t) * w).sum(), grad_position=pos)
    step = interleaved_best({k: (lambda f=f: f(*tensors)) for k, f in steps.items()}, rounds=5)
    return (label, kern["auto"] / kern["hand"], step["auto"] / step["hand"],
            step["auto"] / step["built-in"] if "built-in" in step else None)


def main(quick: bool = False) -> None:
    rng = np.random.default_rng(0)
    n = 256 if quick else 1024
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    cases = [
        (f"cube, {n * n} elements", CUBE, [f32(n * n)]),
        (f"matmul {n // 4}^3", MATMUL, [f32(n // 4, n // 4), f32(n // 4, n // 4)]),
        (f"conv 3x3 on {n // 2}^2", CONV, [f32(n // 2 + 2, n // 2 + 2), f32(3, 3)]),
        (f"softmax {n // 2}x{n // 2}", SOFTMAX, [f32(n // 2, n // 2)]),
    ]
    print(f"{'kernel':28} {'backward kernel':>16} {'grad step':>11} {'grad step':>16}")
    print(f"{'':28} {'auto / hand':>16} {'auto / hand':>11} {'auto / built-in':>16}")
    for label, (fwd, hand, builtin), arrays in cases:
        r = row(label, fwd, hand, builtin, arrays)
        builtin_ratio = f"{r[3]:.2f}x" if r[3] is not None else "-"
        print(f"{r[0]:28} {r[1]:>15.2f}x {r[2]:>10.2f}x {builtin_ratio:>16}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
