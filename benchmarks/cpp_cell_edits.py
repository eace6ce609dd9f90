"""Benchmark editing a C++ ``%%custom_op`` cell: the CustomOpBuilder tutorial's op, edit after edit.

The op is the tutorial's ``function_ops.cpp`` (``Function<CustomMul>``, ``AutogradContext``, its own
``PYBIND11_MODULE``), read from ``../shared/seeds/restored/`` beside the checkout (as ``tests/seeds`` does).
It runs as a ``%%custom_op my_ops`` cell in one real IPython InteractiveShell, with a fresh build cache
and ccache off (``MSKERNEL_CCACHE=off``: a user's edit is new to every cache). Each row is edit-to-ready:
the cell run plus the first call ``my_ops.mul(x, y)``.

Rows: the first cell (it includes the one-time preparation: pybind11's runtime, mskernel's glue and the
precompiled headers), the first edit right after it (whatever the first cell left running in the
background is still running then), then the best of ``--repeat`` rounds of edits that each compile a new
source -- the docstring of ``m.def``, a comment in ``Forward``, a statement in ``Forward``'s body -- and the
unchanged cell run again (a cache hit).
``wall`` is elapsed time; ``cpu`` is the user+system time of the compiler processes (less sensitive
than wall to other work on a shared machine). Edits are repeated ``--repeat`` times with fresh salts
(best shown); the load average is printed before and after, since the machine is shared.

Goal (issue [22] item 4): an edit ready in <= 2 s, the one-time preparation <= 15 s (2-core machine).

Run:  python benchmarks/cpp_cell_edits.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SEED = REPO.parent / "shared" / "seeds" / "restored" / "function_ops.cpp"
os.environ["MSKERNEL_CACHE_DIR"] = tempfile.mkdtemp(prefix="mskernel-bench-cell-edits-")  # cold means cold
os.environ.pop("MSKERNEL_PCH_DIR", None)
os.environ["MSKERNEL_CCACHE"] = "off"

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

DOC = "Calculate the value x multiplied by y."


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _ready(shell: InteractiveShell, code: str) -> tuple[float, float]:
    """(wall, compiler cpu) seconds of running the cell and calling the op once."""
    c0, t0 = _children_cpu(), time.perf_counter()
    with capture_output() as cap:
        ok = shell.run_cell("%%custom_op my_ops\n" + code).success and shell.run_cell("my_ops.mul(x, y)").success
    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
    if not ok:
        raise RuntimeError(f"benchmark cell failed:\n{cap.stdout}{[o.data for o in cap.outputs]}")
    return wall, cpu


def _edits(src: str, salt: str) -> dict[str, str]:
    base = src.replace(DOC, f"{DOC} ({salt})")
    return {"docstring edit": src.replace(DOC, f"{DOC} [{salt}]"),
            "Forward comment edit": base.replace("    bool x_require_grad", f"    // {salt}\n    bool x_require_grad"),
            "Forward body edit": base.replace("    return output;",
                                              f"    volatile int v_{salt} = 0;\n    (void)v_{salt};\n"
                                              "    return output;")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each edit (the best is shown)")
    args = parser.parse_args()
    if not SEED.is_file():
        raise SystemExit(f"{SEED} not found (the tutorial's C++; see tests/seeds/test_seeds.py)")
    src = SEED.read_text()
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())} ({os.cpu_count()} cores)")
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "mskernel")
    shell.run_cell("import mskernel as ms\nx = ms.Tensor(2.0, ms.float32)\ny = ms.Tensor(3.0, ms.float32)")
    rows = [("first cell (with one-time preparation)", _ready(shell, src.replace(DOC, f"{DOC} <{uuid.uuid4().hex}>")))]
    best: dict[str, tuple[float, float]] = {}
    for i in range(args.repeat):
        for label, code in _edits(src, uuid.uuid4().hex[:8]).items():
            got = _ready(shell, code)
            if not best:  # what the user meets first: anything the first cell left to do is still running
                rows.append((f"{label}, right after the first cell", got))
            best[label] = min(best.get(label, got), got)
            last = code
    rows += [(f"{label}, best of {args.repeat}", got) for label, got in best.items()]
    rows.append(("unchanged cell (cache hit)", _ready(shell, last)))
    print(f"load average after:  {' '.join(f'{v:.2f}' for v in os.getloadavg())}\n")
    print(f"{'edit-to-ready (cell run + first call)':52}{'wall':>9}{'cpu':>9}")
    for label, (wall, cpu) in rows:
        print(f"{label:52}{wall:8.2f}s{cpu:8.2f}s")
    edit = max(w for label, (w, _) in rows if "edit" in label and "best" in label)
    first = rows[0][1][0]
    print(f"\ngoals: first cell {first:.1f} s (one-time <= 15 s: {'met' if first <= 15 else 'NOT met'}); "
          f"slowest edit {edit:.2f} s (<= 2 s: {'met' if edit <= 2 else 'NOT met'})")


if __name__ == "__main__":
    main()
