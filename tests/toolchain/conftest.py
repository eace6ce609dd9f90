"""Fixtures for the build-layer tests: private caches, a shared PCH, compiler wrappers.

Every test gets its own cache through ``MSKERNEL_CACHE_DIR`` (read by ``cache_dir()`` at call
time). The build-layer tests pin compile commands and count compiler calls, so they run without ccache
(``MSKERNEL_CCACHE=off``) unless they ask for it: ``test_build_ccache.py`` tests the build through ccache.
The pybind11 precompiled header lives in one session-wide directory
(``MSKERNEL_PCH_DIR``) so it is built once per test session, not once per test.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PYBIND_SRC = """#include <pybind11/pybind11.h>
static int version() {{ return {version}; }}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.def("version", &version); }}
"""


@pytest.fixture(scope="session", autouse=True)
def _session_pch_dir(tmp_path_factory):
    """One PCH directory for the whole session (set before any test builds)."""
    old = os.environ.get("MSKERNEL_PCH_DIR")
    path = tmp_path_factory.mktemp("pch")
    os.chmod(path, 0o700)
    os.environ["MSKERNEL_PCH_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("MSKERNEL_PCH_DIR", None)
    else:
        os.environ["MSKERNEL_PCH_DIR"] = old


@pytest.fixture(autouse=True)
def _no_ccache(monkeypatch):
    """Builds compile directly (a test that wants ccache sets MSKERNEL_CCACHE itself)."""
    monkeypatch.setenv("MSKERNEL_CCACHE", "off")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A fresh, private cache dir for one test."""
    root = tmp_path / "cache"
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(root))
    return root


@pytest.fixture(scope="session")
def first_split_build(_session_pch_dir, tmp_path_factory):
    """The session's first split pybind11 build through ``build()`` (so it builds the support object
    itself, alongside its compile, unless an earlier test did): ``(stages it reported, whether the
    support object was missing before)``."""
    from mskernel.toolchain import Source, build, find_support

    missing = find_support() is None
    stages: list[str] = []
    build("mk_first_split", [Source("<first>", PYBIND_SRC.format(version=0))], kind="pybind11",
          build_dir=tmp_path_factory.mktemp("first_split"), on_stage=stages.append)
    return stages, missing


@pytest.fixture(scope="session")
def pch_ready(_session_pch_dir, first_split_build):
    """The precompiled headers and split builds' support object for default options, built once;
    returns the full-mode pybind11 PCH."""
    from mskernel.toolchain import prepare_pch, prepare_support

    prepare_support()
    prepare_pch(split=True)
    prepare_pch(split=True, api=True)
    return prepare_pch()


def pybind_source(version: int):
    """A one-function pybind11 module whose ``version()`` returns ``version``."""
    from mskernel.toolchain import Source

    return Source("<pyb>", PYBIND_SRC.format(version=version))


@pytest.fixture(scope="session")
def pybind_v1(tmp_path_factory, pch_ready):
    """A pybind11 module built once per session into its own build_dir.

    Returns ``(artifact, build_dir, pybind_source)``; ``pybind_source(n)`` makes the same module
    returning ``n``.
    """
    from mskernel.toolchain import build

    root = tmp_path_factory.mktemp("pybind_v1")
    art = build("mk_pyb", [pybind_source(1)], kind="pybind11", build_dir=root)
    return art, root, pybind_source


class Wrapper:
    """A CXX wrapper script that appends every invocation to ``log`` and then runs g++.

    With ``sleep`` it sleeps before each compile (``-c``) so tests can race or kill builds; a compile whose
    sleep ran to its end logs "<pid> slept" (:meth:`slept`).
    """

    def __init__(self, directory: Path, sleep: float = 0.0):
        directory.mkdir(parents=True, exist_ok=True)
        self.log = directory / "cxx.log"
        self.path = directory / "cxx-wrapper.sh"
        self.path.write_text(textwrap.dedent(f"""\
            #!/bin/sh
            echo "$$ $*" >> {self.log}
            case " $* " in *" -c "*) sleep {sleep}; echo "$$ slept" >> {self.log} ;; esac
            exec g++ "$@"
            """))
        self.path.chmod(self.path.stat().st_mode | stat.S_IXUSR)

    def invocations(self) -> list[str]:
        """Every logged call (compiles, links, --version probes)."""
        return [ln for ln in self._lines() if not ln.endswith(" slept")]

    def _lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def slept(self) -> list[str]:
        """Logged ends of a compile's sleep: a wrapper that was stopped while it slept never logs one."""
        return [ln for ln in self._lines() if ln.endswith(" slept")]

    def compiles(self) -> list[str]:
        """Logged calls that compiled a source (``-c``)."""
        return [ln for ln in self.invocations() if " -c " in f" {ln} "]


@pytest.fixture
def cxx_wrapper(tmp_path):
    """Factory: ``cxx_wrapper(sleep=0.0) -> Wrapper`` (a new script in a new directory each call)."""
    count = iter(range(1000))

    def make(sleep: float = 0.0) -> Wrapper:
        return Wrapper(tmp_path / f"wrapper{next(count)}", sleep)

    return make


@pytest.fixture
def run_python():
    """``run_python(code, env, **kw)``: run code in a fresh interpreter that imports this checkout."""

    def run(code: str, env: dict, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
        full_env = {**os.environ, **env, "PYTHONPATH": str(REPO)}
        return subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True,
                              timeout=timeout, **kw)

    return run
