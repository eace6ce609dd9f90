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


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen:
    """A process that takes the lock at ``path``, says so, and holds it for ``seconds``."""
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from mskernel.toolchain.cache import FileLock
        FileLock({str(path)!r}).acquire()
        print("held", flush=True)
        time.sleep({seconds})
    """)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_lock_is_exclusive_and_dies_with_its_process(tmp_path, run_python):
    path = tmp_path / "x.lock"
    holder = _hold_lock(path, 60)
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


def test_a_wait_on_another_build_says_who_holds_the_lock(tmp_path, caplog):
    path = tmp_path / "w.lock"
    holder = _hold_lock(path, 1.8)
    try:
        with caplog.at_level("WARNING", logger="mskernel.toolchain"):
            with FileLock(path):
                pass
    finally:
        holder.kill()
        holder.wait()
    [note] = [r.getMessage() for r in caplog.records if "waiting" in r.getMessage()]
    assert f"pid {holder.pid} since " in note and str(path) in note


@pytest.mark.slow
def test_an_interrupted_build_stops_its_compilers_and_the_next_build_works(cache, cxx_wrapper, monkeypatch):
    """KeyboardInterrupt (Ctrl-C, or a Jupyter kernel interrupt) while the compiler runs: the whole
    process group of the build stops, nothing is published, and the retry does not wait for an orphan."""
    wrapper = cxx_wrapper(sleep=30.0)
    monkeypatch.setenv("CXX", str(wrapper.path))
    import threading

    def interrupt_when_compiling() -> None:  # what Ctrl-C does: SIGINT to the (main thread of the) process
        _wait_for(lambda: wrapper.compiles(), timeout=60)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    threading.Thread(target=interrupt_when_compiling, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        build("interrupted", [Source("<c>", SRC)])
    assert not wrapper.slept()  # the build did not wait out the wrapper's 30 s sleep: it stopped it
    pids = [int(line.split()[0]) for line in wrapper.compiles()]

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    assert pids and not [p for p in pids if alive(p)]  # the compiler (the wrapper shell) is gone
    assert not list(cache.glob("interrupted-*"))
    monkeypatch.setenv("CXX", "g++")
    art = build("interrupted", [Source("<c>", SRC)])
    assert load_library(art).f() == 31 and not art.cached
    assert not wrapper.slept()  # nothing of the stopped build finished meanwhile
