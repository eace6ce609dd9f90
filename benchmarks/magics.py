"""Benchmark edit-to-ready time of ``%%custom_op`` cells against their peers, side by side.

One elementwise op (``x**3`` on float64) written five ways, each timed from running the cell to
the first result: a hybrid ``%%custom_op`` cell; a C++ ``%%custom_op`` cell (``--forward/--backward``);
``CustomOpBuilder`` on the same C++ source (with its ``PYBIND11_MODULE``); Cython's ``%%cython`` (when
Cython is installed); torch's
``load_inline`` (when torch is installed). Each is timed cold (a source never built before: a fresh
constant is folded into it) and cached (the unchanged cell run again). The one-time pieces of a new
cache (the hybrid dispatcher, split builds' pybind11 support object and precompiled headers) are
built first, so cold is the cost of one new op. Everything runs in one real
IPython InteractiveShell in this process; the cache directories are temporary, so nothing on the
machine is reused.

Goals (issue [5]): hybrid cold <= 0.3 s, cached <= 20 ms; C++ cell cold no slower than
CustomOpBuilder on the same source. The machine is shared: times are the best of ``--repeat`` runs
and the ratios are what to read.

Run:  python benchmarks/magics.py [--repeat 2]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SCRATCH = tempfile.mkdtemp(prefix="mskernel-bench-magics-")
os.environ["MSKERNEL_CACHE_DIR"] = os.path.join(SCRATCH, "mskernel")  # cold means cold
os.environ["TORCH_EXTENSIONS_DIR"] = os.path.join(SCRATCH, "torch")

import numpy as np  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

HYBRID = """%%custom_op {name} --quiet
def {name}(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * x[i] + {salt}
    return y
"""
CPP_BODY = """#include "ms_extension.h"
ms::Tensor cube(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>();
  double *o = out.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) o[i] = a[i] * a[i] * a[i] + SALT;
  return out;
}
ms::Tensor cube_grad(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  ms::Tensor dx(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>(), *d = dout.data_ptr<double>();
  double *g = dx.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) g[i] = 3.0 * a[i] * a[i] * d[i];
  return dx;
}
"""
CPP_MODULE = CPP_BODY + """PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("cube", &cube);
  m.def("cube_grad", &cube_grad);
}
"""
CYTHON = """%%cython
def {name}(double[::1] x):
    out = bytearray(8 * x.shape[0])
    cdef double[::1] o = memoryview(out).cast("d")
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        o[i] = x[i] * x[i] * x[i] + {salt}
    return o
"""
TORCH = "torch::Tensor cube(torch::Tensor x) {{ return x * x * x + {salt}; }}"


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _cell(shell: InteractiveShell, text: str) -> None:
    with capture_output() as cap:
        result = shell.run_cell(text)
    if not result.success:
        raise RuntimeError(f"benchmark cell failed:\n{text}\n{cap.stdout}{[o.data for o in cap.outputs]}")


def _salt() -> str:
    return f"{uuid.uuid4().int % 10**6}e-12"


def bench_hybrid(shell, x):
    name = "bh_" + uuid.uuid4().hex[:6]
    text = HYBRID.format(name=name, salt=_salt())
    call = f"{name}(ms.Tensor(xb))"
    cold = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    cached = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    return cold, cached


def bench_cpp_cell(shell, x):
    name = "bc_" + uuid.uuid4().hex[:6]
    text = f"%%custom_op {name} --forward cube --backward cube_grad --quiet\n#define SALT {_salt()}\n{CPP_MODULE}"
    call = f"{name}(ms.Tensor(xb))"
    cold = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    cached = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    return cold, cached


def bench_builder(shell, x):
    import mskernel as ms
    from mskernel.ops import CustomOpBuilder

    name = "bb_" + uuid.uuid4().hex[:6]
    src = f"#define SALT {_salt()}\n{CPP_MODULE}"
    run = lambda: CustomOpBuilder(name, src, backend="CPU").load().cube(ms.Tensor(x))  # noqa: E731
    return _timed(run), _timed(run)


def bench_cython(shell, x):
    if importlib.util.find_spec("Cython") is None:
        return None
    name = "cy_" + uuid.uuid4().hex[:6]
    text = CYTHON.format(name=name, salt=_salt())
    call = f"{name}(xb)"
    cold = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    cached = _timed(lambda: (_cell(shell, text), _cell(shell, call)))
    return cold, cached


def bench_torch(shell, x):
    if importlib.util.find_spec("torch") is None:
        return None
    import torch
    from torch.utils.cpp_extension import load_inline

    name = "bt_" + uuid.uuid4().hex[:6]
    src = TORCH.format(salt=_salt())
    run = lambda: load_inline(name, cpp_sources=src, functions=["cube"]).cube(torch.from_numpy(x))  # noqa: E731
    return _timed(run), _timed(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (the best is shown)")
    args = parser.parse_args()
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "mskernel")
    if importlib.util.find_spec("Cython") is not None:
        shell.run_line_magic("load_ext", "Cython")
    x = np.linspace(-1.0, 1.0, 1000)
    shell.user_ns.update(xb=x)
    _cell(shell, "import mskernel as ms")
    peers = [("hybrid %%custom_op", bench_hybrid), ("C++ %%custom_op", bench_cpp_cell),
             ("CustomOpBuilder", bench_builder), ("%%cython", bench_cython), ("torch load_inline", bench_torch)]
    for fn in (bench_hybrid, bench_cpp_cell):  # one-time pieces (hybrid dispatcher, support library, PCH)
        fn(shell, x)
    from mskernel.toolchain import prepare_pch, prepare_support
    prepare_support()
    prepare_pch(split=True)
    prepare_pch(split=True, api=True)
    results = {}
    for label, fn in peers:
        runs = [fn(shell, x) for _ in range(args.repeat)]
        if runs[0] is None:
            print(f"({label}: not installed, column skipped)")
            continue
        results[label] = (min(r[0] for r in runs), min(r[1] for r in runs))
    base = results["C++ %%custom_op"]
    print(f"\nedit-to-ready time (cell run + first call), best of {args.repeat}; ratio = time / C++ %%custom_op\n")
    print(f"{'':28}{'cold':>10}{'ratio':>8}{'cached':>12}{'ratio':>8}")
    for label, (cold, cached) in results.items():
        print(f"{label:28}{cold:9.3f}s{cold / base[0]:8.2f}{cached * 1e3:10.1f}ms{cached / base[1]:8.2f}")
    hc, hh = results["hybrid %%custom_op"]
    print(f"\ngoals: hybrid cold {hc:.3f} s (<= 0.3 s: {'met' if hc <= 0.3 else 'NOT met'}); hybrid cached "
          f"{hh * 1e3:.1f} ms (<= 20 ms: {'met' if hh <= 0.02 else 'NOT met'}); C++ cell cold / CustomOpBuilder "
          f"cold = {base[0] / results['CustomOpBuilder'][0]:.2f} (<= 1: "
          f"{'met' if base[0] <= results['CustomOpBuilder'][0] else 'NOT met'})")


if __name__ == "__main__":
    main()
