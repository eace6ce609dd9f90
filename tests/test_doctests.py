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

SKIP = ("mskernel.toolchain", "mskernel.hybrid", "mskernel.doctor", "mskernel.__main__", "mskernel.cpp")
MODULES = sorted(m.name for m in pkgutil.walk_packages(mskernel.__path__, "mskernel.")
                 if not m.name.startswith(SKIP) and m.name not in ("mskernel.autograd._cengine", "mskernel._version"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False,
                             report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
