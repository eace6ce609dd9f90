"""The docstring examples of every mskernel.hybrid module run and are right."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "cexpr", "check", "checked_codegen", "codegen", "compiler", "config", "coverage", "dsl",
           "dtypes", "errors", "hybrid_kernel", "independence", "intrinsics", "ir", "messages", "parse", "portability",
           "portability.issue", "portability.races", "portability.reads", "reduction", "runner", "schedule",
           "shapes", "source", "stream", "threads", "work",
           "autodiff", "autodiff.analysis", "autodiff.assemble", "autodiff.blocks", "autodiff.builder",
           "autodiff.printer", "autodiff.rules", "autodiff.forwarding"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module("mskernel.hybrid" if name == "__init__" else f"mskernel.hybrid.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
