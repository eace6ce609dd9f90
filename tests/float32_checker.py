"""A doctest output checker that compares float32 output to float32 precision (shared by the doctest runs
of tests/test_doctests.py and the documentation pages' code in tests/docs/prose.py)."""
from __future__ import annotations

import doctest
import re

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


class Float32Checker(doctest.OutputChecker):
    """Accepts output that differs from the example only in the last digits of float32 values.

    numpy's float32 transcendental functions (log1p, atan2, ...) differ in the last bit between CPU
    instruction sets and numpy releases; an example prints 8 significant digits, so it is compared to
    float32 precision (relative 1e-6), and everything between the numbers must match exactly (spaces
    aside, since numpy pads columns to the widest number).
    """

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        want_nums, got_nums = NUMBER.findall(want), NUMBER.findall(got)
        if len(want_nums) != len(got_nums) or not want_nums:
            return False
        text = [re.sub(r"\s+", "", "".join(NUMBER.split(o))) for o in (want, got)]
        return text[0] == text[1] and all(abs(float(a) - float(b)) <= 1e-6 * max(abs(float(a)), 1e-30)
                                           for a, b in zip(want_nums, got_nums))
