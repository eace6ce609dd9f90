"""Benchmark the build layer against bare g++: cold builds, the pybind11 PCH, cached loads.

Prints side-by-side tables (one process):

1. cold build times -- a tiny extern "C" kernel and a one-function pybind11 module, through
   ``mskernel.toolchain`` (without PCH, with a ready PCH, and the very first build on a machine,
   before the PCH exists) versus the bare command
   ``g++ -O2 -shared -fPIC $(python -m pybind11 --includes)``; the same one-function module
   written against ``ms_extension.h`` (split, with the PCH holding mskernel's API); the same module
   forced to full pybind11 (its PCH compiles pybind11's runtime at -O1); the one-time PCH and
   support object builds; cached ``build()`` calls in-process and in a fresh process.
2. kernel speed -- the same small pybind11 op built bare and through the layer (split, PCH), to
   show the faster build does not slow the kernel down; and the call overhead of the
   one-function module via ``ms_extension.h`` (its dispatcher is the support object's).

The machine is shared, so every build is repeated (``--repeat``, interleaved) and the best
wall time is reported together with the compiler CPU time (user+sys of child processes).

Run:  python benchmarks/build_layer.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mskernel.toolchain import (Source, build, find_toolchain, load_python_module, prepare_pch,  # noqa: E402
                            prepare_support)

PLAIN = 'extern "C" int add(int a, int b) { return a + b; }\n'
PYBIND = """#include <pybind11/pybind11.h>
int add(int a, int b) { return a + b; }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("add", &add); }
"""
API = PYBIND.replace("#include <pybind11/pybind11.h>", '#include "ms_extension.h"')
KERNEL = """#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
namespace py = pybind11;
int add(int a, int b) { return a + b; }
double ssq(py::array_t<double, py::array::c_style> a) {
    auto r = a.unchecked<1>();
    double s = 0;
    for (py::ssize_t i = 0; i < r.shape(0); ++i) s += r(i) * r(i);
    return s;
}
float softplus_sum(py::array_t<float, py::array::c_style> a) {
    const float* p = a.data();
    float s = 0;
    for (py::ssize_t i = 0; i < a.size(); ++i) s += std::log1p(std::exp(p[i]));
    return s;
}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
    m.def("add", &add); m.def("ssq", &ssq); m.def("softplus_sum", &softplus_sum);
}
"""


class Timer:
    """Wall time plus CPU time of finished child processes (the compilers)."""

    def __enter__(self) -> "Timer":
        self.r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (r1.ru_utime - self.r0.ru_utime) + (r1.ru_stime - self.r0.ru_stime)


def bare_build(src: str, name: str, out_dir: Path, pybind: bool) -> None:
    """The floor: one g++ command, no build system, no cache."""
    path = out_dir / f"{name}.cpp"
    path.write_text(src.replace("MS_EXTENSION_NAME", name))
    includes = shlex.split(subprocess.check_output([sys.executable, "-m", "pybind11", "--includes"], text=True)) \
        if pybind else []
    suffix = find_toolchain().ext_suffix if pybind else ".so"
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-std=c++17", *includes, str(path), "-o",
                    str(out_dir / f"{name}{suffix}")], check=True)


def fresh_env(root: Path, tag: str, pch_dir: Path) -> None:
    cache = root / tag
    os.environ["MSKERNEL_CACHE_DIR"] = str(cache)
    os.environ["MSKERNEL_PCH_DIR"] = str(pch_dir)


def cold_builds(repeat: int, root: Path) -> tuple[dict, dict, float, float]:
    """Best (wall, cpu) per case over `repeat` interleaved rounds; plus the one-time PCH and
    support library seconds."""
    pch_dir = root / "pch-shared"
    fresh_env(root, "warmup", pch_dir)
    with Timer() as t_pch:
        prepare_pch()
    with Timer() as t_support:
        prepare_support()
    prepare_pch(split=True)
    prepare_pch(split=True, api=True)
    results: dict[str, list[tuple[float, float]]] = {}

    def record(case: str, t: Timer) -> None:
        results.setdefault(case, []).append((t.wall, t.cpu))

    for i in range(repeat):
        bare_dir = Path(tempfile.mkdtemp(dir=root))
        with Timer() as t:
            bare_build(PLAIN, f"plain{i}", bare_dir, pybind=False)
        record("plain_bare", t)
        fresh_env(root, f"plain{i}", pch_dir)
        with Timer() as t:
            assert not build("plain", [Source("<bench>", PLAIN)]).cached
        record("plain_ours", t)
        with Timer() as t:
            bare_build(PYBIND, f"bare{i}", bare_dir, pybind=True)
        record("pyb_bare", t)
        fresh_env(root, f"nopch{i}", pch_dir)
        with Timer() as t:
            assert not build("pyb", [Source("<bench>", PYBIND)], kind="pybind11", pch=False).cached
        record("pyb_nopch", t)
        fresh_env(root, f"pch{i}", pch_dir)
        with Timer() as t:
            assert not build("pyb", [Source("<bench>", PYBIND)], kind="pybind11", pch=True).cached
        record("pyb_pch", t)
        fresh_env(root, f"full{i}", pch_dir)
        with Timer() as t:
            art = build("pyb", [Source("<bench>", PYBIND)], kind="pybind11", pch=True, split=False)
        assert not art.cached and art.mode == "full"
        record("pyb_full", t)
        fresh_env(root, f"api{i}", pch_dir)
        with Timer() as t:
            art = build("pyl", [Source("<bench>", API)], kind="pybind11", pch=True)
        assert not art.cached and art.mode == "split"
        record("pyb_api", t)
    # The first pybind11 build on a fresh machine (no PCH yet: it is started in the background afterwards).
    first_pch_dir = root / "pch-first"
    fresh_env(root, "first", first_pch_dir)
    with Timer() as t:
        build("pyb", [Source("<bench>", PYBIND)], kind="pybind11")
    record("pyb_first", t)
    prepare_pch()  # wait for the background PCH build before measuring anything else
    best = {case: min(v, key=lambda x: x[0]) for case, v in results.items()}
    median = {case: statistics.median(w for w, _ in v) for case, v in results.items()}
    return best, median, t_pch.wall, t_support.wall


def cached_loads(root: Path) -> tuple[float, float]:
    """(in-process cached build() ms, fresh-process cached build()+load ms), best of 20 / 5."""
    fresh_env(root, "cached", root / "pch-shared")
    src = [Source("<bench>", PYBIND)]
    load_python_module(build("cached_pyb", src, kind="pybind11"), "cached_pyb")
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        art = build("cached_pyb", src, kind="pybind11")
        times.append(time.perf_counter() - t0)
        assert art.cached
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        t0 = time.perf_counter()
        from mskernel.toolchain import Source, build, load_python_module
        t1 = time.perf_counter()
        art = build("cached_pyb", [Source("<bench>", {PYBIND!r})], kind="pybind11")
        mod = load_python_module(art, "cached_pyb")
        t2 = time.perf_counter()
        assert art.cached and mod.add(1, 2) == 3
        print(t2 - t1)
    """)
    fresh = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", code], env=os.environ.copy(), capture_output=True, text=True,
                             check=True)
        fresh.append(float(out.stdout))
    return 1e3 * min(times), 1e3 * min(fresh)


def kernel_speed(root: Path) -> list[tuple[str, float, float]]:
    """Per-call times of the same op built bare and through the layer (with the PCH)."""
    import numpy as np

    bare_dir = Path(tempfile.mkdtemp(dir=root))
    bare_build(KERNEL, "kbare", bare_dir, pybind=True)
    spec = importlib.util.spec_from_file_location("kbare", bare_dir / f"kbare{find_toolchain().ext_suffix}")
    bare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bare)
    fresh_env(root, "kernel", root / "pch-shared")
    ours = load_python_module(build("kours", [Source("<bench>", KERNEL)], kind="pybind11", pch=True), "kours")
    api = load_python_module(build("kapi", [Source("<bench>", API)], kind="pybind11", pch=True), "kapi")
    x = np.random.default_rng(0).random(1_000_000)
    xf = x.astype(np.float32)

    cases = [
        ("add(2, 3): call overhead [ns]", lambda: bare.add(2, 3), lambda: ours.add(2, 3), 20_000, 1e9),
        ("add(2, 3), via ms_extension.h: call overhead [ns]", lambda: bare.add(2, 3), lambda: api.add(2, 3), 20_000,
         1e9),
        ("ssq(1M float64), unchecked<1> [ms]", lambda: bare.ssq(x), lambda: ours.ssq(x), 10, 1e3),
        ("softplus_sum(1M float32), std::exp/log1p [ms]", lambda: bare.softplus_sum(xf),
         lambda: ours.softplus_sum(xf), 2, 1e3),
    ]
    best: dict[tuple[int, int], float] = {}
    for _round in range(9):  # interleaved rounds: machine noise hits both builds alike
        for i, (_label, f_bare, f_ours, number, _unit) in enumerate(cases):
            for j, fn in enumerate((f_bare, f_ours)):
                t0 = time.perf_counter()
                for _call in range(number):
                    fn()
                per_call = (time.perf_counter() - t0) / number
                best[i, j] = min(best.get((i, j), per_call), per_call)
    rows = []
    for i, (label, f_bare, f_ours, _, unit) in enumerate(cases):
        assert abs(f_bare() - f_ours()) <= 1e-3 * abs(f_bare()) + 1e-9
        rows.append((label, unit * best[i, 0], unit * best[i, 1]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds of cold builds (best is reported)")
    args = parser.parse_args()
    tc = find_toolchain()
    root = Path(tempfile.mkdtemp(prefix="mskernel-bench-"))
    os.chmod(root, 0o700)
    best, median, pch_seconds, support_seconds = cold_builds(args.repeat, root)
    in_proc_ms, fresh_ms = cached_loads(root)
    kernels = kernel_speed(root)

    print(f"\nmskernel build layer -- {tc.cxx_version}; pybind11 {tc.pybind11_version}; {os.cpu_count()} CPUs; "
          f"best of {args.repeat} (median in brackets); cpu = user+sys of the compiler processes\n")
    print(f"{'case':<58}{'wall s':>15}{'cpu s':>8}{'vs bare':>9}")
    rows = [
        ("plain extern \"C\" kernel: bare g++ -O2 -shared -fPIC", "plain_bare", "plain_bare"),
        ("plain extern \"C\" kernel: mskernel build (cold)", "plain_ours", "plain_bare"),
        ("pybind11 one-function module: bare g++ -O2 (the floor)", "pyb_bare", "pyb_bare"),
        ("pybind11 module: mskernel, pch=False", "pyb_nopch", "pyb_bare"),
        ("pybind11 module: mskernel split, PCH ready (default)", "pyb_pch", "pyb_bare"),
        ("pybind11 module: mskernel full pybind11, PCH ready", "pyb_full", "pyb_bare"),
        ("pybind11 module: mskernel, first build ever (no PCH yet)", "pyb_first", "pyb_bare"),
        ("same module via ms_extension.h (split, API PCH)", "pyb_api", "pyb_bare"),
    ]
    for label, case, ref in rows:
        wall, cpu = best[case]
        ratio = wall / best[ref][0]
        print(f"{label:<58}{wall:>7.2f} [{median[case]:>5.2f}]{cpu:>8.2f}{ratio:>8.2f}x")
    print(f"{'one-time pybind11 PCH build (pch dir, shared by all ops)':<58}{pch_seconds:>7.2f}")
    print(f"{'one-time split support object build (pch dir)':<58}{support_seconds:>7.2f}")
    print(f"{'cached build() call, in process':<58}{in_proc_ms:>6.2f} ms")
    print(f"{'cached build() + load_python_module, fresh process':<58}{fresh_ms:>6.2f} ms")
    print(f"\nratio pybind11 cold build, PCH ready / bare g++: {best['pyb_pch'][0] / best['pyb_bare'][0]:.2f}x best, "
          f"{median['pyb_pch'] / median['pyb_bare']:.2f}x median (goal <= 0.60x); without PCH: "
          f"{best['pyb_nopch'][0] / best['pyb_bare'][0]:.2f}x best, "
          f"{median['pyb_nopch'] / median['pyb_bare']:.2f}x median")
    print(f"\n{'kernel (same source)':<50}{'bare -O2':>12}{'mskernel':>12}{'ratio':>8}")
    for label, b, o in kernels:
        print(f"{label:<50}{b:>12.3f}{o:>12.3f}{o / b:>7.2f}x")


if __name__ == "__main__":
    main()
