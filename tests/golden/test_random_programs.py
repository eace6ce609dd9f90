"""Random programs over the op table agree with MindSpore 2.10 (recorded) at least 95% of the time.

The programs are made by tests/golden/cases/random_programs.py (seeded); their MindSpore values and
gradients were recorded by record.py. Each disagreement is listed; the README names what remains.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import Mismatch  # noqa: E402
from test_goldens import check  # noqa: E402


def test_random_programs_agree_with_mindspore():
    recorded = json.loads((HERE / "random_programs.json").read_text())["cases"]
    assert len(recorded) >= 200
    disagree = {}
    for name, rec in recorded.items():
        try:
            check(rec, {"rtol": 1e-4, "atol": 1e-5})
        except Mismatch as e:
            disagree[name] = str(e).splitlines()[0][:200]
    rate = 1 - len(disagree) / len(recorded)
    assert rate >= 0.95, f"{rate:.1%} agree; disagreements: {json.dumps(disagree, indent=1)}"
