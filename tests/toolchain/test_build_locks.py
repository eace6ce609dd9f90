"""Locks: concurrent builds of one op compile once; killed builds leave a usable cache."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mskernel.toolchain import Source, build, load_library
from mskernel.toolchain.cache import FileLock, verify_entry

REPO = Path(__file__).resolve().parents[2]

SRC = 'extern "C" int f() { return 31; }\n'
SCRIPT = textwrap.dedent("""
    from mskernel.toolchain import build, Source, load_library
    art = build("locked", [Source("<c>", %r)])
    print(art.path, load_library(art).f(), flush=True)
""" % SRC)


def _spawn(env: dict, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SCRIPT], env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _wait_for(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


@pytest.mark.slow
def test_two_processes_build_the_same_op_once(cache, cxx_wrapper):
    wrapper = cxx_wrapper(sleep=1.0)  # a slow compile makes the two builds overlap
    env = {"CXX": str(wrapper.path), "MSKERNEL_CACHE_DIR": str(cache)}
    procs = [_spawn(env) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
    paths = {out.split()[0] for out, _ in outs}
    assert len(paths) == 1 and all(out.split()[1] == "31" for out, _ in outs)
    assert len(wrapper.compiles()) == 1, wrapper.invocations()


def test_lock_is_exclusive_and_dies_with_its_process(tmp_path, run_python):
    path = tmp_path / "x.lock"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from mskernel.toolchain.cache import FileLock
        FileLock({str(path)!r}).acquire()
        print("held", flush=True)
        time.sleep(60)
    """)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    assert FileLock(path).acquire(blocking=False) is False
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    lk = FileLock(path)
    assert lk.acquire(blocking=False) is True
    lk.release()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["kill-python", "kill-process-group"])
def test_build_killed_mid_compile_leaves_the_cache_usable(cache, cxx_wrapper, monkeypatch, how):
    wrapper = cxx_wrapper(sleep=2.0)
    env = {"CXX": str(wrapper.path), "MSKERNEL_CACHE_DIR": str(cache)}
    proc = _spawn(env, start_new_session=True)
    _wait_for(lambda: wrapper.compiles())  # the compiler is running now (sleeping in the wrapper)
    if how == "kill-python":
        os.kill(proc.pid, signal.SIGKILL)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not list(cache.glob("locked-*"))  # nothing half-built was published
    # The next build (same compiler) waits for any orphaned compiler, then succeeds.
    monkeypatch.setenv("CXX", str(wrapper.path))
    art = build("locked", [Source("<c>", SRC)])
    assert load_library(art).f() == 31
    assert verify_entry(art.path.parent, art.key) is not None
    assert not list((cache / ".tmp").iterdir()) if (cache / ".tmp").exists() else True
    assert build("locked", [Source("<c>", SRC)]).cached
