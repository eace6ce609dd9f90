"""``python -m mskernel doctor`` and the command line."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mskernel.doctor import run_doctor

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_doctor_cli_exits_zero_and_prints_every_check(cache, pch_ready):
    env = {**os.environ, "MSKERNEL_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "mskernel", "doctor"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    optional = ("JupyterLab extension", "compile cache: ccache")  # [ok] or [note]: not a problem either way
    checks = [ln for ln in lines if ln.startswith(("[ok]", "[FAIL]")) and not any(o in ln for o in optional)]
    assert all(len([ln for ln in lines if o in ln]) == 1 for o in optional)
    assert len(checks) == 14 and all(ln.startswith("[ok]") for ln in checks), proc.stdout
    for word in ("Python", "numpy", "autograd engine: the engine core", "C++ compiler", "ninja", "pybind11",
                 "Python headers", "OpenMP", "cache dir",
                 'extern "C" kernel', "precompiled header(s) ready", "compiled and ran a pybind11 module",
                 "split builds' pybind11 support object", "custom op with ms_extension.h (split pybind11"):
        assert any(word in ln for ln in checks), word
    assert lines[-1] == "mskernel doctor: all checks passed"
    assert not [p for p in cache.iterdir() if p.name.startswith("mskernel_doctor")]  # the cache stays clean


@pytest.mark.slow
def test_doctor_announces_its_one_time_builds_before_they_start(cache, tmp_path, monkeypatch):
    """Also a regression test: split builds with a cache path longer than pybind11's install path
    (g++ then canonicalizes symlinked system headers; the derived headers must be real files)."""
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(tmp_path / "fresh-pch"))  # nothing built yet
    out = io.StringIO()
    assert run_doctor(out) == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    from mskernel.toolchain.support import SUPPORT_SECONDS

    once = f"one-time, ~{SUPPORT_SECONDS}-{2 * SUPPORT_SECONDS} s"
    support_note = lines.index(f"[..] building pybind11's runtime for split builds ({once})...")
    assert "support object built now" in lines[support_note + 1]
    pch_note = lines.index("[..] precompiling 2 header(s) (one-time, ~10-20 s each)...")
    assert "precompiled header(s) built now" in lines[pch_note + 1]
    again = io.StringIO()
    assert run_doctor(again) == 0 and "[..]" not in again.getvalue()  # ready now: nothing to announce


def test_doctor_reports_a_broken_compiler_with_a_fix(cache, monkeypatch):
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    out = io.StringIO()
    problems = run_doctor(out)
    text = out.getvalue()
    assert problems >= 3  # compiler, and the two builds
    assert "[FAIL] $CXX is set to '/nonexistent/c++' but that program was not found" in text
    assert "-> fix or unset CXX, or apt-get install g++" in text
    assert "[ok] Python" in text and text.splitlines()[-1].endswith("problems found")


def test_cli_help_and_cache_command(cache):
    env = {**os.environ, "MSKERNEL_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    helped = subprocess.run([sys.executable, "-m", "mskernel", "--help"], env=env, capture_output=True, text=True)
    assert helped.returncode == 0 and "doctor" in helped.stdout
    where = subprocess.run([sys.executable, "-m", "mskernel", "cache"], env=env, capture_output=True, text=True)
    assert where.returncode == 0 and where.stdout.strip() == str(cache)


def test_doctor_names_an_untrusted_cache_dir_once_and_skips_the_builds(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(shared))
    out = io.StringIO()
    assert run_doctor(out) == 1
    lines = out.getvalue().splitlines()
    [fail] = [ln for ln in lines if ln.startswith("[FAIL]")]
    assert "is writable by group and others (mode 0777)" in fail and f"-> run 'chmod go-w {shared}'" in fail
    assert fail.count(" -> ") == 1  # one fix, not two stacked
    skipped = [ln for ln in lines if ln.startswith("[skip]")]
    assert len(skipped) == 5 and all("needs a usable cache dir" in ln for ln in skipped)
    assert "unexpected" not in out.getvalue()


def test_doctor_says_whether_the_jupyterlab_extension_is_installed(tmp_path):
    # A fresh virtual environment (its own sys.prefix) whose Jupyter paths all point at empty folders: where
    # Jupyter would look, nothing is installed -- no patched internals; jupyter_core reads these variables itself.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True,
                   timeout=120)
    empty = tmp_path / "empty"
    empty.mkdir()
    code = ("from mskernel.doctor import _check_lab_extension, _Note\n"
            "try:\n    print('OK', _check_lab_extension())\nexcept _Note as n:\n    print('NOTE', n)\n")

    def check(jupyter_path: Path) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "XDG_"))}
        env.update(PYTHONPATH=str(REPO), JUPYTER_PATH=str(jupyter_path), JUPYTER_DATA_DIR=str(tmp_path / "data"),
                   JUPYTER_PLATFORM_DIRS="1", XDG_DATA_DIRS=str(empty))  # the system folders: empty too
        proc = subprocess.run([str(venv / "bin" / "python"), "-c", code], env=env, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    out = check(empty)
    assert out.startswith("NOTE JupyterLab extension not installed") and "ln -s" in out
    assert f"{REPO / 'magics' / 'labextension'} {venv}" in out  # the link to make, into this environment
    linked = tmp_path / "linked" / "labextensions"
    linked.mkdir(parents=True)
    (linked / "mskernel").symlink_to(REPO / "magics" / "labextension")
    assert "C++ cells highlighted as C++" in check(tmp_path / "linked")


def _ccache_line(monkeypatch, **env) -> str:
    from mskernel import doctor

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out = io.StringIO()
    monkeypatch.setattr(doctor, "_CHECKS", [c for c in doctor._CHECKS if c[0] == "ccache"])
    run_doctor(out)
    return out.getvalue().splitlines()[0]


def test_doctor_notes_that_ccache_is_not_installed(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without ccache
    line = _ccache_line(monkeypatch, MSKERNEL_CCACHE="auto")
    assert line.startswith("[note] compile cache: ccache is not installed")


@pytest.mark.tools("ccache")
def test_doctor_says_whether_ccache_is_used_its_version_and_remote_storage(cache, monkeypatch):
    from mskernel.toolchain.ccache import find_ccache

    monkeypatch.setenv("MSKERNEL_CCACHE", "auto")
    version = find_ccache().version
    line = _ccache_line(monkeypatch, MSKERNEL_CCACHE="auto", CCACHE_REMOTE_STORAGE="")
    assert line == f"[ok] compile cache: ccache {version} ({find_ccache().path}), compiler checked by content; " \
                   "remote storage: none"
    if find_ccache().serves("redis"):
        line = _ccache_line(monkeypatch, MSKERNEL_CCACHE_REMOTE="redis://cache.invalid:6379|read-only")
        assert line.endswith("remote storage: redis://cache.invalid:6379|read-only (built in)")
    line = _ccache_line(monkeypatch, MSKERNEL_CCACHE="off")
    assert line == "[note] compile cache: ccache not used (MSKERNEL_CCACHE=off)"


def test_doctor_fails_a_bad_ccache_setting_naming_it(cache, monkeypatch):
    line = _ccache_line(monkeypatch, MSKERNEL_CCACHE="yes please")
    assert line == ("[FAIL] compile cache: MSKERNEL_CCACHE must be one of 'auto', 'off', 'on', but got 'yes please' "
                    "-> unset it (auto: use ccache when installed) or set it to off")
