"""The CI policy for tests that need outside tools (tests/tool_policy.py), run for real in a pytest subprocess whose
PATH holds none of them: locally such a test skips with its reason, under CI=true it fails, and under CI no other
skip passes unless ALLOWED_SKIPS lists it. And .ci/install-tools stops, non-zero and saying why, when apt-get
fails or leaves a tool missing (apt-get itself is a stand-in here: the real one would change this machine)."""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tool_policy import ALLOWED_SKIPS, TOOLS

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''
import pytest
import tool_policy
from tool_policy import require_tool

# the list is empty in the project today; the probe lists one reason to see that a listed skip stays a skip
tool_policy.ALLOWED_SKIPS["a reason the probe lists"] = ("listed by the probe to test the mechanism", lambda: True)


@pytest.mark.tools("node", "chromium")
def test_marked():
    pass


def test_called():
    require_tool("redis-server")


def test_unlisted_skip():
    pytest.skip("nobody listed this reason")


def test_listed_skip():
    pytest.skip("a reason the probe lists")


def test_runs():
    assert True
'''
MODULE_SKIP = 'import pytest\npytest.importorskip("no_such_module_for_the_probe")\n\n\ndef test_never():\n    pass\n'


def _run_probe(tmp_path: Path, ci: bool) -> tuple:
    """Outcome per probe test, and the run's text."""
    work = tmp_path / ("ci" if ci else "local")
    (work / "bin").mkdir(parents=True)  # the PATH: empty, so no tool is found
    (work / "test_probe.py").write_text(PROBE)
    (work / "test_probe_module.py").write_text(MODULE_SKIP)
    (work / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(PATH=str(work / "bin"), PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]))
    if ci:
        env["CI"] = "true"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "tool_policy", "-p", "no:cacheprovider", "-rA",
                           "-c", str(work / "pytest.ini"), "--rootdir", str(work), "--junitxml", str(work / "r.xml"),
                           str(work)], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    outcomes = {}
    for case in ET.parse(work / "r.xml").getroot().iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "skipped", "error")]
        outcomes[case.get("name")] = kinds[0] if kinds else "passed"
    return outcomes, proc.stdout + proc.stderr, proc.returncode


def test_locally_a_missing_tool_skips_with_its_reason(tmp_path):
    outcomes, out, code = _run_probe(tmp_path, ci=False)
    assert outcomes == {"test_marked": "skipped", "test_called": "skipped", "test_unlisted_skip": "skipped",
                        "test_listed_skip": "skipped", "test_runs": "passed", "test_probe_module": "skipped"}, out
    assert code == 0, out
    assert "node is not on PATH (apt-get install nodejs); chromium is not on PATH (apt-get install chromium " \
           "fonts-dejavu-core)" in out
    assert "redis-server is not on PATH (apt-get install redis-server)" in out


def test_under_ci_a_missing_tool_or_an_unlisted_skip_fails(tmp_path):
    outcomes, out, code = _run_probe(tmp_path, ci=True)
    # a marked test fails in its setup (an error), a collected module that skips fails its collection (an error)
    assert outcomes == {"test_marked": "error", "test_called": "failure", "test_unlisted_skip": "failure",
                        "test_listed_skip": "skipped", "test_runs": "passed", "test_probe_module": "error"}, out
    assert code == 1, out
    assert "CI=true and node is not on PATH (apt-get install nodejs); chromium is not on PATH" in out
    assert "CI=true and redis-server is not on PATH (apt-get install redis-server)" in out
    assert "skipped under CI=true: nobody listed this reason" in out
    # a whole module skipped while it is collected fails too
    assert "skipped under CI=true: could not import 'no_such_module_for_the_probe'" in out


def test_every_allowed_skip_says_why_and_every_tool_how_to_install_it():
    assert all(len(why) > 40 and callable(applies) for why, applies in ALLOWED_SKIPS.values())
    assert all(t.kind in ("program", "module") and t.install for t in TOOLS.values())
    assert {"chromium", "node", "npm", "ccache", "redis-server"} <= set(TOOLS)


def test_every_allowed_skip_is_one_a_test_still_makes():
    """The list stays true: a reason no test gives any more must leave ALLOWED_SKIPS."""
    sources = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py")
                        if p.name not in ("tool_policy.py", "test_tool_policy.py"))
    stale = [reason for reason in ALLOWED_SKIPS if reason not in sources]
    assert not stale, f"no test skips with these reasons any more; remove them from ALLOWED_SKIPS: {stale}"


def _fake_bin(tmp_path: Path, apt_get: str, tools: tuple = ()) -> Path:
    """A PATH holding only what .ci/install-tools runs besides the tools: mktemp, cat, rm, and a stand-in apt-get."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("mktemp", "cat", "rm"):
        (bin_dir / name).symlink_to(next(p for d in ("/usr/bin", "/bin") if (p := Path(d) / name).exists()))
    for name, script in (("apt-get", apt_get),) + tuple((t, "exit 0") for t in tools):
        (bin_dir / name).write_text(f"#!/bin/sh\n{script}\n")
        (bin_dir / name).chmod(0o755)
    return bin_dir


def _install_tools(bin_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/bash", str(ROOT / ".ci" / "install-tools")], env={"PATH": str(bin_dir)},
                          capture_output=True, text=True, timeout=60)


def test_install_tools_stops_when_apt_get_fails(tmp_path):
    bin_dir = _fake_bin(tmp_path, 'echo "E: Unable to locate package $7" >&2; exit 100')
    proc = _install_tools(bin_dir)
    assert proc.returncode != 0
    assert "E: Unable to locate package" in proc.stderr  # apt's own output is shown
    assert "ci: apt-get install chromium fonts-dejavu-core nodejs npm redis-server ccache failed" in proc.stderr


def test_install_tools_stops_when_a_tool_is_still_missing(tmp_path):
    bin_dir = _fake_bin(tmp_path, "exit 0", tools=("chromium", "node", "npm", "ccache"))  # apt "works", no redis
    proc = _install_tools(bin_dir)
    assert proc.returncode != 0
    assert "ci: apt-get install redis-server" in proc.stderr
    assert "ci: redis-server is not on PATH after installing redis-server" in proc.stderr


@pytest.mark.parametrize("missing", [(), ("npm",)])
def test_install_tools_installs_only_what_is_missing(tmp_path, missing):
    tools = tuple(t for t in ("chromium", "node", "npm", "redis-server", "ccache") if t not in missing)
    log = tmp_path / "apt.log"
    # the stand-in apt-get records its arguments and "installs" npm by putting it on PATH
    npm = tmp_path / "bin" / "npm"
    bin_dir = _fake_bin(tmp_path, f'echo "$@" >> {log}; echo "exit 0" > {npm}; /bin/chmod +x {npm}', tools=tools)
    proc = _install_tools(bin_dir)
    assert proc.returncode == 0, proc.stderr
    assert "ci: tools ready: chromium node npm redis-server ccache" in proc.stderr
    if missing:
        assert log.read_text().splitlines()[-1] == "install -y -qq --no-install-recommends npm"
    else:
        assert not log.exists()  # nothing to install: apt-get is not run
