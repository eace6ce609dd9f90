"""Build and call the CustomOpBuilder tutorial's C++ op, side by side with peers.

Prints (quote the ratios; the machine is shared and noisy):

1. build times, each in a fresh process and a fresh cache directory:
   the one-time artifacts first, reported separately (split builds' pybind11 support object, their
   two precompiled headers, full mode's pybind11 precompiled header); then, interleaved ``--repeat``
   times (best and median printed, and the ratio to the bare module per round): the seed op
   (the tutorial's ``Function<CustomMul>``, read from ``../shared/seeds/restored/function_ops.cpp`` beside the
   checkout: this repository keeps no copy) through ``CustomOpBuilder`` -- a split
   build (mskernel.toolchain.split: derived pybind11 headers that only declare pybind11's runtime,
   which comes from the support object) -- the same op forced to full pybind11
   (``-DMSKERNEL_FULL_PYBIND11``, with its precompiled header), a bare one-function module through
   ``CustomOpBuilder`` (split too), and that bare module built with plain ``g++ -O2`` (the
   reference). Then the seed op's cached load, its cold build without any precompiled header, and
   torch's ``torch.utils.cpp_extension.load_inline`` of the same op (when torch is installed).
2. per-call cost of the op's forward and forward+backward (best of interleaved rounds), split build
   vs a full pybind11 build at plain -O2 (no precompiled header, no -O1 glue; goal: split within
   1.2x), vs a pyfunc Custom op doing the same, mskernel's built-in ``mul`` and numpy.

Measured numbers are in the guide (docs/guide/cpp.md, "Build times"); quote ratios, the machine is shared.

Run: ``python benchmarks/build_and_call.py [--no-torch] [--repeat 3] [--builds-only]``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Optional

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SEED = REPO.parent / "shared" / "seeds" / "restored" / "function_ops.cpp"  # MindSpore's tutorial, not ours
sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import fmt_time, interleaved_best  # noqa: E402

TORCH_OP = r"""
#include <torch/extension.h>
struct CustomMul : public torch::autograd::Function<CustomMul> {
  static torch::Tensor forward(torch::autograd::AutogradContext *ctx, torch::Tensor x, torch::Tensor y) {
    ctx->save_for_backward({x, y});
    return x * y;
  }
  static torch::autograd::tensor_list backward(torch::autograd::AutogradContext *ctx,
                                               torch::autograd::tensor_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto dout = grad_outputs[0];
    return {dout * saved[1], dout * saved[0]};
  }
};
torch::Tensor mul(torch::Tensor x, torch::Tensor y) { return CustomMul::apply(x, y); }
"""

BARE = """#include <pybind11/pybind11.h>
int add(int a, int b) { return a + b; }
PYBIND11_MODULE(bare_mod, m) { m.def("add", &add); }
"""


def in_fresh_process(code: str, cache: str, extra_env: Optional[dict] = None) -> float:
    """Seconds the snippet reports (it prints one float), run in a new interpreter."""
    env = dict(os.environ, MSKERNEL_CACHE_DIR=cache, **(extra_env or {}))
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         cwd=REPO, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return float(out.stdout.strip().splitlines()[-1])


def _cold_seed(cache: str, pch_dir: str, cflags: Optional[str] = None) -> float:
    return in_fresh_process(f"""
        import time
        from mskernel.ops import CustomOpBuilder
        t = time.perf_counter(); CustomOpBuilder("my_ops", [{str(SEED)!r}], cflags={cflags!r}).load()
        print(time.perf_counter() - t)
    """, cache, {"MSKERNEL_PCH_DIR": pch_dir})


def _cold_empty(cache: str, pch_dir: str) -> float:
    src = BARE.replace("bare_mod", "MS_EXTENSION_NAME")
    return in_fresh_process(f"""
        import time
        from mskernel.ops import CustomOpBuilder
        t = time.perf_counter(); CustomOpBuilder("empty_mod", {src!r}).load(); print(time.perf_counter() - t)
    """, cache, {"MSKERNEL_PCH_DIR": pch_dir})


def _one_time(code: str, cache: str, pch_dir: str) -> float:
    """Seconds ``build()`` takes after ``code`` defined it (a one-time artifact's build)."""
    snippet = f"import time\n{code}\nt = time.perf_counter(); build(); print(time.perf_counter() - t)\n"
    return in_fresh_process(snippet, cache, {"MSKERNEL_PCH_DIR": pch_dir})


def _bare(tmp: str) -> float:
    src = Path(tmp) / "bare_mod.cpp"
    src.write_text(BARE)
    inc = subprocess.run([sys.executable, "-m", "pybind11", "--includes"], capture_output=True,
                         text=True).stdout.split()
    t0 = time.perf_counter()
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-std=c++17", *inc, str(src), "-o",
                    str(Path(tmp) / "bare_mod.so")], check=True)
    return time.perf_counter() - t0


def _stats(xs: list) -> str:
    return f"best {fmt_time(min(xs))}, median {fmt_time(statistics.median(xs))}"


def _ratio_row(what: str, xs: list, bares: list, goal: str = "") -> tuple:
    ratios = [a / b for a, b in zip(xs, bares)]
    return (what, statistics.median(xs),
            f"{_stats(xs)}; {min(ratios):.2f}x / {statistics.median(ratios):.2f}x bare (best / median){goal}")


def build_times(with_torch: bool, repeat: int) -> list:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        pch_dir = os.path.join(tmp, "pch")
        one_time = [
            ("one-time split support object build", "from mskernel.toolchain.support import prepare_support as build"),
            ("one-time split PCH (+ mskernel API) build",
             "from functools import partial\nfrom mskernel.toolchain import prepare_pch\n"
             "build = partial(prepare_pch, split=True, api=True)"),
            ("one-time split PCH build",
             "from functools import partial\nfrom mskernel.toolchain import prepare_pch\n"
             "build = partial(prepare_pch, split=True)"),
            ("one-time full pybind11 PCH build", "from mskernel.toolchain import prepare_pch as build"),
        ]
        for i, (what, code) in enumerate(one_time):
            seconds = _one_time(code, os.path.join(tmp, f"cache_once_{i}"), pch_dir)
            rows.append((what, seconds, "not in the cold builds"))
        seeds, fulls, empties, bares = [], [], [], []
        for i in range(repeat):  # interleaved: the machine's load drifts
            seeds.append(_cold_seed(os.path.join(tmp, f"cache_{i}"), pch_dir))
            fulls.append(_cold_seed(os.path.join(tmp, f"cache_full_{i}"), pch_dir, "-DMSKERNEL_FULL_PYBIND11"))
            empties.append(_cold_empty(os.path.join(tmp, f"cache_empty_{i}"), pch_dir))
            bares.append(_bare(tmp))
        cold = statistics.median(seeds)
        rows.append(_ratio_row("seed op: cold build + load (split)", seeds, bares, ", goal <= 0.6x"))
        rows.append(_ratio_row("seed op forced to full pybind11 (PCH)", fulls, bares))
        rows.append(_ratio_row("bare module via CustomOpBuilder (split, PCH)", empties, bares))
        rows.append(("bare pybind11 module, plain g++ -O2", statistics.median(bares), _stats(bares)))
        cached = [in_fresh_process(f"""
            import time
            from mskernel.ops import CustomOpBuilder
            t = time.perf_counter(); CustomOpBuilder("my_ops", [{str(SEED)!r}]).load(); print(time.perf_counter() - t)
        """, os.path.join(tmp, "cache_0"), {"MSKERNEL_PCH_DIR": pch_dir}) for _ in range(5)]
        rows.append(("seed op: cached load, fresh process", statistics.median(cached),
                     f"{_stats(cached)} of 5; goal < 20 ms"))
        no_pch = in_fresh_process(f"""
            import time
            from mskernel.toolchain import build, load_python_module
            t = time.perf_counter()
            art = build("my_ops", [{str(SEED)!r}], kind="pybind11", pch=False)
            load_python_module(art, "my_ops"); print(time.perf_counter() - t)
        """, os.path.join(tmp, "cache_nopch"), {"MSKERNEL_PCH_DIR": pch_dir})
        rows.append(("seed op: cold build + load, split, no PCH", no_pch, f"{no_pch / statistics.median(bares):.2f}x "
                     f"median bare"))
        if with_torch:
            try:
                torch_t = in_fresh_process(f"""
                    import time
                    from torch.utils.cpp_extension import load_inline
                    t = time.perf_counter()
                    load_inline("custom_mul", cpp_sources=[{TORCH_OP!r}], functions=["mul"], verbose=False)
                    print(time.perf_counter() - t)
                """, os.path.join(tmp, "cache_torch"), {"TORCH_EXTENSIONS_DIR": os.path.join(tmp, "torch_ext")})
                rows.append(("torch load_inline of the same op", torch_t, f"{torch_t / cold:.1f}x our cold build "
                             f"(goal >= 5x)"))
            except Exception as e:  # torch missing or its toolchain not usable here
                rows.append(("torch load_inline of the same op", None, f"unavailable: {str(e)[-120:]}"))
    return rows


def call_times() -> list:
    import mskernel as ms
    from mskernel import ops
    from mskernel.ops import CustomOpBuilder
    from mskernel.toolchain import build, load_python_module
    my_ops = CustomOpBuilder("my_ops", [str(SEED)]).load()
    assert CustomOpBuilder("my_ops", [str(SEED)]).build_artifact().mode == "split"
    full_art = build("my_ops", [str(SEED)], kind="pybind11", split=False, pch=False)  # plain -O2, full pybind11
    full_ops = load_python_module(full_art, "my_ops")
    pyfunc = ops.Custom(lambda a, b: a * b, lambda a, b: a, lambda a, b: a, func_type="pyfunc",
                        bprop=lambda a, b, out, dout: (dout * b, dout * a))
    rows = []
    for n in (1, 1_000_000):
        xa = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        ya = np.random.default_rng(1).standard_normal(n).astype(np.float32)
        x, y = ms.Tensor(xa), ms.Tensor(ya)
        fwd = interleaved_best({"split": lambda: my_ops.mul(x, y), "full": lambda: full_ops.mul(x, y),
                                "pyfunc": lambda: pyfunc(x, y), "mul": lambda: x * y, "numpy": lambda: xa * ya})
        rows.append((f"forward, n={n}", *fwd.values()))
        g_cpp = ms.grad(lambda a, b: my_ops.mul(a, b).sum(), (0, 1))
        g_full = ms.grad(lambda a, b: full_ops.mul(a, b).sum(), (0, 1))
        g_py = ms.grad(lambda a, b: pyfunc(a, b).sum(), (0, 1))
        g_ms = ms.grad(lambda a, b: (a * b).sum(), (0, 1))
        np.testing.assert_allclose(g_cpp(x, y)[0].asnumpy(), ya, rtol=1e-6)
        both = interleaved_best({"split": lambda: g_cpp(x, y), "full": lambda: g_full(x, y),
                                 "pyfunc": lambda: g_py(x, y), "mul": lambda: g_ms(x, y),
                                 "numpy": lambda: (xa * ya, ya.copy(), xa.copy())})
        rows.append((f"forward+backward, n={n}", *both.values()))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-torch", action="store_true", help="skip torch's load_inline (slow: ~30 s)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds of the cold builds (default 3)")
    ap.add_argument("--builds-only", action="store_true", help="skip section 2 (per-call times)")
    args = ap.parse_args()
    if not SEED.is_file():
        sys.exit(f"the tutorial's C++ is read from {SEED} (../shared/seeds beside the checkout), which is not here")
    try:
        import torch  # noqa: F401
        have_torch = not args.no_torch
    except Exception:
        have_torch = False
    print("1. building the CustomOpBuilder tutorial's op (fresh processes, fresh caches)")
    for what, t, note in build_times(have_torch, max(1, args.repeat)):
        print(f"  {what:<46}{fmt_time(t) if t is not None else '-':>13}  {note}")
    if args.builds_only:
        return
    print("\n2. per call")
    print(f"  {'':<28}{'C++ split':>11}{'C++ full -O2':>14}{'split/full':>11}{'pyfunc Custom':>15}"
          f"{'built-in mul':>14}{'numpy':>12}")
    for what, a, f, b, c, d in call_times():
        print(f"  {what:<28}{fmt_time(a):>11}{fmt_time(f):>14}{a / f:>10.2f}x{fmt_time(b):>15}{fmt_time(c):>14}"
              f"{fmt_time(d):>12}")


if __name__ == "__main__":
    main()
