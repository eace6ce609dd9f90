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

_CTC_PAD = ("the wheel's CTCLoss gradient output past a sequence's length is an uninitialised buffer (it changes "
            "between calls on the same input: 0.27/-1.16/-1.37, then 3.85/3.81/4.35); the loss never reads those "
            "frames, so numpy's central differences (and mskernel) give 0 there; the other frames agree ("
            + base.ORACLES + ")")
_SELECT_NEGATIVE = ("the wheel's SelectView kernel fails on a negative index (RuntimeError: The int64_t value(-1) is "
                    "less than 0., an internal error) where Tensor.select and mint.select take it; mskernel counts it "
                    "from the end as numpy indexing does (" + base.ORACLES + ")")
_RESERVE = ("convention: LSTM's fourth output (reserve) is the CPU kernel's workspace, whose contents its docs do not "
            "define; mskernel returns zeros of its shape (the outputs y, h, c agree)")
PINNED: Dict[str, base.Pin] = {
    "table2_v000": base.Pin(_RESERVE, "_lstm"),  # _lstm, type_as, _resize_area
    "table2_v003": base.Pin(_RESERVE, "_lstm"),  # _lstm, _resize_area
    "table2_d001": base.Pin(_CTC_PAD, "_ctc_loss_v1"),  # _ctc_loss_v1 (its gradient output), _resize_bicubic
    "table2_d006": base.Pin(_SELECT_NEGATIVE, ""),  # crop_and_resize, _select_view, svd
    "table2_d010": base.Pin(_CTC_PAD, "_ctc_loss_v1"),  # _crop_and_resize_primitive, _ctc_loss_v1, _roi_align, ...
}


def test_the_recording_is_current_and_every_pin_names_a_program():
    base.recording_is_current(SUITE, CASES, RECORDED, PINNED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_random_table_more_program(name):
    base.check_program(name, CASES, RECORDED, PINNED)
