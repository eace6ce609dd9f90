"""benchmarks/record.py's load guard: it refuses to time anything on a loaded machine unless forced."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def recorder():
    spec = importlib.util.spec_from_file_location("bench_record", ROOT / "benchmarks" / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guard_names_the_load_and_the_limit():
    rec = recorder()
    assert rec.load_refusal(1.5, load=1.5) is None
    assert rec.load_refusal(1.5, load=1.51) == ("the load average is 1.51, above 1.50: timings now would measure "
                                                "the other work (wait, or --force)")


def test_above_the_limit_nothing_runs_and_no_result_changes(capsys):
    rec = recorder()
    result = ROOT / "benchmarks" / "results" / "kernel_check.txt"
    before = result.read_bytes() if result.exists() else None
    assert rec.main(["--max-load", "-1", "kernel_check"]) == 2  # any load is above -1
    assert "not recording kernel_check: the load average is" in capsys.readouterr().err
    assert (result.read_bytes() if result.exists() else None) == before
