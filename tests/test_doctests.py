"""The runnable examples in the core modules' docstrings run and print what they show.

(The build layer's and the hybrid compiler's examples build code; tests/toolchain and tests/hybrid run
those.)
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mskernel
from float32_checker import Float32Checker

SKIP = ("mskernel.toolchain", "mskernel.hybrid", "mskernel.doctor", "mskernel.__main__", "mskernel.cpp")
MODULES = ["mskernel"] + sorted(m.name for m in pkgutil.walk_packages(mskernel.__path__, "mskernel.")
                               if not m.name.startswith(SKIP)
                               and m.name not in ("mskernel.autograd._cengine", "mskernel._version"))


def test_the_checker_tolerates_only_float32_last_digits():
    check = Float32Checker().check_output
    assert check("[ 0.32175058 -0.46364763]\n", "[ 0.32175055 -0.4636476 ]\n", 0)
    assert not check("[0.3217]\n", "[0.3218]\n", 0)  # a real difference
    assert not check("[1. 2.]\n", "[1. 2. 3.]\n", 0)
    assert not check("(2,) Float32\n", "(2,) Float64\n", 0)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(checker=Float32Checker(), verbose=False,
                                   optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
