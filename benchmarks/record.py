"""Run benchmarks and keep what they print in ``benchmarks/results/NAME.txt``.

Run: ``python benchmarks/record.py [NAME ...]`` (no NAME: every benchmark, which takes a long while;
``--list`` shows the names and the arguments each is recorded with). Each result starts with ``#`` lines
saying the command, the date and the machine (with the load); the documentation's performance page shows
their ratios as tables and plots, the machine and load once, the raw printouts folded away
(``python -m mskernel docs`` rebuilds it). The site never runs a benchmark.
Quote ratios from these files: the machines are shared and noisy. It refuses to start a benchmark while the
1-minute load average is above ``--max-load`` (0.75 per core by default): other work would be measured too;
``--force`` records anyway and the result's header says so. Builds run without ccache
(``MSKERNEL_CCACHE=off`` unless set): the cold build times are those of a first build.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: the default ``--max-load``, per core: above it, other work would be measured too
MAX_LOAD_PER_CORE = 0.75
#: the arguments each benchmark is recorded with (the quick variants where a script has them)
ARGS: Dict[str, List[str]] = {
    "build_and_call": ["--no-torch", "--repeat", "1"],
    "build_layer": ["--repeat", "1"],
    "call_path": [],
    "cpp_cell_edits": ["--repeat", "3"],
    "custom_overhead": [],
    "engine_overhead": [],
    "gradient_gate": [],
    "hybrid_autodiff": ["--quick"],
    "hybrid_kernels": ["--quick"],
    "kernel_bandwidth": ["--quick"],
    "kernel_check": [],
    "magics": [],
    "op_table": [],
    "parallel_policy": [],
    "reload_cost": ["--rounds", "5"],
    "stream_threshold": [],
    "train_step": [],
    "widgets": [],
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    load = ", load average %.1f when it started" % os.getloadavg()[0] if hasattr(os, "getloadavg") else ""
    return (f"{os.cpu_count()} cores ({cpu}){load}, Python {platform.python_version()}, numpy {numpy.__version__}, "
            f"mskernel {commit.stdout.strip() or 'unknown commit'}")


def record(name: str, forced: Optional[str] = None) -> Path:
    """Run one benchmark and write its result file; raises RuntimeError (with its output) if it fails.
    ``forced``: why the load guard would have refused (recorded with ``--force``; the header says so)."""
    cmd = [sys.executable, str(HERE / f"{name}.py"), *ARGS[name]]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               MPLBACKEND="Agg")
    env.setdefault("MSKERNEL_CCACHE", "off")  # cold builds are timed as first builds: a compile cache would serve them
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmarks/{name}.py exited with {proc.returncode}:\n"
                           f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    shown = " ".join(["python", f"benchmarks/{name}.py", *ARGS[name]])
    head = [f"# command: {shown}", f"# date: {datetime.date.today().isoformat()}", f"# machine: {machine()}"]
    if forced:
        head.append(f"# recorded with --force: {forced.split(':')[0]}")
    out = HERE / "results" / f"{name}.txt"
    out.parent.mkdir(exist_ok=True)
    out.write_text("\n".join(head) + "\n" + proc.stdout)
    return out


def load_refusal(limit: float, load: Optional[float] = None) -> Optional[str]:
    """Why not to record now (the 1-minute load average above ``limit``), or None.

    Example:
        >>> load_refusal(1.5, load=0.4) is None, load_refusal(1.5, load=2.25)
        (True, 'the load average is 2.25, above 1.50: timings now would measure the other work (wait, or --force)')
    """
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load <= limit:
        return None
    return (f"the load average is {load:.2f}, above {limit:.2f}: timings now would measure the other work "
            "(wait, or --force)")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default: all of {sorted(ARGS)})")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and their arguments")
    parser.add_argument("--max-load", type=float, default=MAX_LOAD_PER_CORE * (os.cpu_count() or 1),
                        help="refuse to record while the 1-minute load average is above this (default: 0.75 per core)")
    parser.add_argument("--force", action="store_true", help="record whatever the load (the header says so)")
    args = parser.parse_args(argv)
    if args.list:
        for name, a in ARGS.items():
            print(f"{name:<16} {' '.join(a)}")
        return 0
    unknown = [n for n in args.names if n not in ARGS]
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; known: {sorted(ARGS)}")
    for name in args.names or list(ARGS):
        refusal = load_refusal(args.max_load)
        if refusal and not args.force:
            print(f"not recording {name}: {refusal}", file=sys.stderr)
            return 2
        print(f"recording {name} ...", flush=True)
        print("wrote", record(name, forced=refusal).relative_to(ROOT), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
