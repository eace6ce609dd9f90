"""What an edit-and-re-run costs the process: memory and mapped libraries kept per reload.

Run: ``python benchmarks/reload_cost.py [--rounds 20]``. Prints one table.

A shared library cannot be unloaded safely once Python code may hold a function from it (a
CPython extension never is), so every edited-and-rebuilt op stays mapped until the process
ends. This measures how much that is: for a hybrid kernel (a plain library called through
the dispatcher) and for a C++ op built with ``CustomOpBuilder`` (a pybind11 module), each edited
``--rounds`` times (a different constant each time, so each round compiles and loads a new
library). Columns: resident memory growth per reload (after a warm-up round), and new mapped
libraries per reload, from ``/proc/self``. The peer row is ``torch.utils.cpp_extension
.load_inline`` with the same edits, if torch is installed.
"""
from __future__ import annotations

import gc
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

HYBRID = """
def scale{k}(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * {k}.0
    return y
"""

CPP = """
#include <ms_extension/api.h>
int64_t scale(int64_t a) {{ return a * {k}; }}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.def("scale", &scale); }}
"""

TORCH = "int64_t scale(int64_t a) {{ return a * {k}; }}"


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def mapped_libraries() -> int:
    with open("/proc/self/maps") as f:
        return len({line.split()[-1] for line in f if line.rstrip().endswith(".so") or ".so." in line})


def measure(make, rounds: int) -> tuple[float, float]:
    make(0)  # warm-up: one-time artifacts, imports
    gc.collect()
    rss, libs = rss_kib(), mapped_libraries()
    for k in range(1, rounds + 1):
        make(k)
    gc.collect()
    return (rss_kib() - rss) / rounds / 1024, (mapped_libraries() - libs) / rounds


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 20
    import numpy as np

    from mskernel.hybrid import HybridKernel
    from mskernel.toolchain import CustomOpBuilder

    x = np.arange(8.0)
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MSKERNEL_CACHE_DIR"] = cache

        def hybrid(k: int) -> None:
            HybridKernel.from_source(HYBRID.format(k=k)).run([x])

        def cpp(k: int) -> None:
            src = os.path.join(cache, f"scale_{k}.cpp")
            with open(src, "w") as f:
                f.write(CPP.format(k=k))
            CustomOpBuilder("reload_scale", [src]).load()

        rows.append(("hybrid kernel edited and re-run", *measure(hybrid, rounds)))
        rows.append(("C++ op edited, CustomOpBuilder.load()", *measure(cpp, rounds)))
        try:
            import torch
            from torch.utils.cpp_extension import load_inline

            def peer(k: int) -> None:
                load_inline(f"reload_scale_{k}", TORCH.format(k=k), functions=["scale"],
                            build_directory=tempfile.mkdtemp(dir=cache))
            rows.append((f"torch {torch.__version__} load_inline, edited", *measure(peer, max(3, rounds // 5))))
        except ImportError:
            rows.append(("torch load_inline", float("nan"), float("nan")))
    print(f"{'what (' + str(rounds) + ' edits)':<42} {'RSS per reload':>15} {'libraries per reload':>21}")
    for what, mib, libs in rows:
        print(f"{what:<42} {mib:12.2f} MiB {libs:21.1f}")


if __name__ == "__main__":
    main()
