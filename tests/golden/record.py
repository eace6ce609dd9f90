"""Record MindSpore's own answers for the golden cases (run by hand; the tests never need MindSpore).

    python tests/golden/record.py                 # every suite in tests/golden/cases/
    python tests/golden/record.py ops_math nn     # some suites

The first run makes a virtual environment with MindSpore 2.10's CPU wheel (it needs ``numpy<2``, about
3 GB; it is never a dependency of mskernel) at ``$MSKERNEL_MS_VENV`` (default
``~/.cache/mskernel/mindspore-2.10``), then runs this file again inside it with ``--inside``. Each
suite ``tests/golden/cases/NAME.py`` defines ``CASES = {case name: source}``; its answers go to
``tests/golden/NAME.json`` beside the sources they came from, so a test notices an edited case that
was not recorded again. A suite may also define ``VIA = {case name: source}``: for a program the CPU wheel
cannot run (no CPU kernel: much of ``mindspore.mint``), an equivalent program it can run (``ops`` in place of
``mint``); the case's answer is the equivalent's, and what the wheel did with the program itself is kept
(``wheel_own``), so a test notices when a wheel runs it.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
WHEEL = "mindspore==2.10.0"


def venv_dir() -> Path:
    return Path(os.environ.get("MSKERNEL_MS_VENV", Path.home() / ".cache" / "mskernel" / "mindspore-2.10"))


def ensure_venv() -> Path:
    """The wheel's interpreter, installing it on first use."""
    venv = venv_dir()
    py = venv / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(py), "-c", "import mindspore"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(py), "-m", "pip", "install", "-q", "numpy<2", WHEEL, "protobuf", "safetensors"],
                       check=True)
    return py


def load_module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"golden_cases_{name}", CASES_DIR / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def load_suite(name: str) -> Dict[str, str]:
    return dict(load_module(name).CASES)


def _alone(suite: str, case: str, via: bool) -> Dict[str, Any]:
    """One case's answer from a fresh process of the wheel. MindSpore reports a failed kernel launch again at
    later synchronisations (erratically: the next op, or one a few cases on), so a case that raised in the
    shared process may have raised another case's error: its answer is taken from a process of its own."""
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--one", suite, case]
                          + (["--via"] if via else []), capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def record_one(suite: str, case: str, via: bool) -> None:
    """Runs in the wheel's environment: one case (or its equivalent), the answer as one line of JSON."""
    import warnings

    warnings.filterwarnings("ignore")
    sys.path.insert(0, str(HERE))
    import mindspore
    from harness import run

    mindspore.set_device("CPU")
    mod = load_module(suite)
    src = dict(getattr(mod, "VIA", {}))[case] if via else dict(mod.CASES)[case]
    print(json.dumps(run(src, mindspore)))


def suites() -> List[str]:
    return sorted(p.stem for p in CASES_DIR.glob("*.py") if not p.stem.startswith("_"))


def record_inside(names: List[str]) -> None:
    """Runs in the wheel's environment: every case of every suite, answers to JSON."""
    import warnings

    warnings.filterwarnings("ignore")
    sys.path.insert(0, str(HERE))
    import mindspore
    from harness import run

    mindspore.set_device("CPU")
    scratch = os.getcwd()  # main() starts this process in a scratch directory
    for name in names:
        mod = load_module(name)
        cases, via = dict(mod.CASES), dict(getattr(mod, "VIA", {}))
        out = {"mindspore": mindspore.__version__, "cases": {}}
        for case, src in cases.items():
            os.chdir(os.environ.get("MSKERNEL_GOLDEN_TMP") or scratch)  # a case may have changed directory
            entry = {"src": src, "expect": run(src, mindspore)}
            if "error" in entry["expect"]:
                entry["expect"] = _alone(name, case, False)
            if case in via:  # the wheel cannot run the program itself: record that, and its equivalent's answer
                entry["wheel_own"], entry["via"] = entry["expect"], via[case]
                entry["expect"] = run(via[case], mindspore)
                if "error" in entry["expect"]:
                    entry["expect"] = _alone(name, case, True)
            out["cases"][case] = entry
        (HERE / f"{name}.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        errors = sum("error" in c["expect"] for c in out["cases"].values())
        print(f"{name}: {len(cases)} cases recorded ({errors} raise)", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", nargs="*", help="suite names (default: all)")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--via", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        record_one(args.suites[0], args.suites[1], args.via)
        return
    names = args.suites or suites()
    if args.inside:
        record_inside(names)
        return
    py = ensure_venv()
    # MindSpore writes into its working directory (rank_0/om/analyze_fail.ir when a graph fails to compile,
    # kernel_meta/, ...): run it in a scratch directory, never in the checkout
    with tempfile.TemporaryDirectory(prefix="mskernel-golden-") as scratch:
        subprocess.run([str(py), str(Path(__file__).resolve()), "--inside", *names], check=True, cwd=scratch)


if __name__ == "__main__":
    main()
