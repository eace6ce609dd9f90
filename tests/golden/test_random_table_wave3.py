"""The third wave of random table programs (tests/golden/cases/random_table_wave3.py: the image, detection, sequence
and fused optimizer primitives that landed after the second wave was measured, and the fractional pools with their
random samples given) agrees with MindSpore 2.10, except the disagreements pinned here; the rules and the machinery
are test_random_table.py's (coverage of the whole table is checked there, over every wave)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Dict

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import test_random_table as base  # noqa: E402

SUITE = "random_table_wave3"
CASES = base._cases(SUITE)
RECORDED = json.loads((HERE / f"{SUITE}.json").read_text())["cases"]

PINNED: Dict[str, base.Pin] = {
}


def test_the_recording_is_current_and_every_pin_names_a_program():
    base.recording_is_current(SUITE, CASES, RECORDED, PINNED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_random_table_wave3_program(name):
    base.check_program(name, CASES, RECORDED, PINNED)
