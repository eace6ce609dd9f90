"""The documentation site, built once per test session with the one command users run
(``python -m mskernel docs --out DIR``), for every test under tests/docs that reads it."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from tool_policy import require_tool

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))  # the site's generators (mskernel_docs), read by the tests
# test_examples.py loads suite modules such as tests/test_doctests.py, which import helpers beside them
# (float32_checker): pytest puts tests/ on the path only when it collects a module there itself
sys.path.insert(0, str(ROOT / "tests"))


@dataclass
class Site:
    html: Path
    returncode: int
    log: str


def docs_tools() -> tuple:
    """What building the site needs: the docs packages, and npm to fetch the widget manager (unless
    MSKERNEL_DOCS_WIDGETS=cdn loads it from a CDN)."""
    npm = () if os.environ.get("MSKERNEL_DOCS_WIDGETS") == "cdn" else ("npm",)
    return ("sphinx", "myst_nb", "furo", "sphinx_copybutton") + npm


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    require_tool(*docs_tools())  # tests/tool_policy.py: skip without them, fail under CI
    out = tmp_path_factory.mktemp("site") / "html"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    proc = subprocess.run([sys.executable, "-m", "mskernel", "docs", "--out", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=1800)
    return Site(out, proc.returncode, proc.stdout + proc.stderr)
