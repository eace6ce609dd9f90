"""Fixtures for the C++ extension API tests: each test module is compiled once per session.

Builds go through ``CustomOpBuilder`` (the build layer) into a session-private build cache
(``MSKERNEL_CACHE_DIR``, set only while building); the pybind11 precompiled header stays in the
user's normal PCH directory so a new session does not rebuild it.
"""
from __future__ import annotations

import contextlib
import os
import types
from pathlib import Path
from typing import Iterator

import pytest

SRC = Path(__file__).parent / "src"


@contextlib.contextmanager
def _scoped_env(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="session")
def scoped_env():
    """``with scoped_env(NAME=value, ...):`` sets environment variables for a block (module and
    session fixtures cannot use monkeypatch)."""
    return _scoped_env


@pytest.fixture(scope="session")
def build_ops(tmp_path_factory):
    """``build_ops(name, source, backend="CPU") -> module``: CustomOpBuilder(...).load() in a private cache."""
    from mskernel.toolchain import pch_dir
    from mskernel.ops import CustomOpBuilder

    cache = tmp_path_factory.mktemp("cpp_cache")
    os.chmod(cache, 0o700)
    shared_pch = os.environ.get("MSKERNEL_PCH_DIR") or str(pch_dir())

    def build(name: str, source: Path, backend: str = "CPU") -> types.ModuleType:
        with _scoped_env(MSKERNEL_CACHE_DIR=str(cache), MSKERNEL_PCH_DIR=shared_pch):
            return CustomOpBuilder(name, [str(source)], backend=backend).load()

    build.cache_dir = str(cache)  # type: ignore[attr-defined]  (for subprocesses loading the same builds)
    build.pch_dir = shared_pch  # type: ignore[attr-defined]
    return build


@pytest.fixture(scope="session")
def fops(build_ops) -> types.ModuleType:
    """tests/cpp/src/function_ops.cpp: Function<T> test ops."""
    return build_ops("mk_test_function_ops", SRC / "function_ops.cpp")


@pytest.fixture(scope="session")
def pyb(build_ops) -> types.ModuleType:
    """tests/cpp/src/pyboost_cpu_add.cpp: PyboostRunner, ms::Tensor, aclnn and kernels.h test ops."""
    return build_ops("mk_test_pyboost_cpu_add", SRC / "pyboost_cpu_add.cpp")


@pytest.fixture
def grad_on() -> Iterator[None]:
    """Grad mode on for the test (restored afterwards)."""
    from mskernel.autograd import STATE

    prev = STATE.enabled
    STATE.enabled = True
    yield
    STATE.enabled = prev
