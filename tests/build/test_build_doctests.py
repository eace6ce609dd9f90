"""The runnable examples in the build layer's docstrings run (they build real code)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["mskernel.build", "mskernel.build.api", "mskernel.build.builder", "mskernel.build.cache",
           "mskernel.build.diagnostics", "mskernel.build.evict", "mskernel.build.flags", "mskernel.build.lite", "mskernel.build.loader",
           "mskernel.build.ninja", "mskernel.build.support",
           "mskernel.build.pch", "mskernel.build.toolchain", "mskernel.doctor", "mskernel.__main__"]


@pytest.mark.slow
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, cache, monkeypatch, pch_ready):
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(cache))  # examples that set it are undone afterwards
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
