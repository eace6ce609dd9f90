"""The runnable examples in the ``magics`` package's docstrings (tests/test_doctests.py covers mskernel.*,
including mskernel.cells)."""
from __future__ import annotations

import doctest
import importlib

import pytest


MODULES = ["magics", "magics.custom_op", "magics.bench"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
