"""The runnable examples in the build layer's docstrings run (they build real code)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["mskernel.toolchain", "mskernel.toolchain.api", "mskernel.toolchain.builder", "mskernel.toolchain.cache",
           "mskernel.toolchain.diagnostics", "mskernel.toolchain.evict", "mskernel.toolchain.flags",
           "mskernel.toolchain.split", "mskernel.toolchain.glue", "mskernel.toolchain.loader",
           "mskernel.toolchain.ninja", "mskernel.toolchain.process", "mskernel.toolchain.support",
           "mskernel.toolchain.pch", "mskernel.toolchain.discover", "mskernel.toolchain.ccache",
           "mskernel.toolchain.numpy_ext", "mskernel.toolchain.artifact", "mskernel.toolchain.units", "mskernel.doctor",
           "mskernel.__main__"]


@pytest.mark.slow
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, cache, monkeypatch, pch_ready):
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(cache))  # examples that set it are undone afterwards
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
