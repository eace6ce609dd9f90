"""The second wave of random table programs (tests/golden/cases/random_table_more.py: the ops added to the table
after the first wave was recorded) agrees with MindSpore 2.10, except the disagreements pinned here; the rules and
the machinery are test_random_table.py's (coverage of the whole table is checked there, over every wave)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Dict

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import test_random_table as base  # noqa: E402

SUITE = "random_table_more"
CASES = base._cases(SUITE)
RECORDED = json.loads((HERE / f"{SUITE}.json").read_text())["cases"]

_OPEN = "open: found by the programs at the deadline, not yet analysed"
_TIES = ("open: top_k among tied values: the wheel's indices of equal values come in another order (values agree); "
         "not yet analysed")
_RAISES = ("open: the wheel raises an internal error (RuntimeError: The int64_t value(-1) is less than 0.) on this "
           "chain; mskernel runs it")
_RESERVE = ("convention: LSTM's fourth output (reserve) is the CPU kernel's workspace, whose contents its docs do not "
            "define; mskernel returns zeros of its shape (the outputs y, h, c agree)")
PINNED: Dict[str, base.Pin] = {
    "table2_v000": base.Pin(_RESERVE, "_lstm"),  # _lstm, type_as, _resize_area
    "table2_v003": base.Pin(_RESERVE, "_lstm"),  # _lstm, _resize_area
    "table2_d001": base.Pin(_OPEN, "_ctc_loss_v1"),  # _ctc_loss_v1 (its gradient output), _resize_bicubic
    "table2_d006": base.Pin(_RAISES, ""),  # crop_and_resize, _select_view, svd
    "table2_d010": base.Pin(_OPEN, "_ctc_loss_v1"),  # _crop_and_resize_primitive, _ctc_loss_v1, _roi_align, ...
    "table2_d013": base.Pin(_TIES, "top_k"),  # top_k, _transpose_view
}


def test_the_recording_is_current_and_every_pin_names_a_program():
    base.recording_is_current(SUITE, CASES, RECORDED, PINNED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_random_table_more_program(name):
    base.check_program(name, CASES, RECORDED, PINNED)
