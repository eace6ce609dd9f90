"""Compiler processes that an interrupt stops completely.

A compiler driver (g++, ninja) starts children of its own (cc1plus, as, ld). Killing only the
driver when the user presses Ctrl-C (or a Jupyter kernel is interrupted) leaves them running,
holding the build's lock, and the retry silently waits for them. So every compile runs in a
process group of its own, and an interrupt stops the whole group: SIGINT, then SIGKILL after a
grace period, then the leader is reaped before the interrupt propagates.

Example:
    >>> run_group(["sh", "-c", "echo hi"]).stdout.split()
    ['hi']
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import contextmanager
from typing import Iterator, Sequence

__all__ = ["run_group", "stop_process_group", "stopping_on_interrupt"]


def stop_process_group(proc: subprocess.Popen, grace: float = 5.0) -> None:
    """SIGINT the process group led by ``proc``, SIGKILL what is left after ``grace`` seconds, reap ``proc``.

    Example:
        >>> p = subprocess.Popen(["sleep", "30"], start_new_session=True)
        >>> stop_process_group(p); p.returncode
        -2
    """
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except (ProcessLookupError, PermissionError):
        pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:  # the leader and every member of its group gone?
        proc.poll()
        try:
            os.killpg(proc.pid, 0)
        except (ProcessLookupError, PermissionError):
            break
        time.sleep(0.02)
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    proc.wait()


@contextmanager
def stopping_on_interrupt(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    """Stop ``proc``'s process group (:func:`stop_process_group`) if the block raises, then re-raise.

    Example:
        >>> p = subprocess.Popen(["true"], start_new_session=True)
        >>> with stopping_on_interrupt(p):
        ...     p.wait()
        0
    """
    try:
        yield proc
    except BaseException:
        stop_process_group(proc)
        raise


def run_group(cmd: Sequence[str], pass_fds: Sequence[int] = (), **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, capture_output=True, text=True)`` in a process group of its own, stopped
    as a whole on KeyboardInterrupt.

    Example:
        >>> run_group(["sh", "-c", "exit 3"]).returncode
        3
    """
    proc = subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, pass_fds=tuple(pass_fds), start_new_session=True, **kwargs)
    with stopping_on_interrupt(proc):
        out, err = proc.communicate()
    return subprocess.CompletedProcess(list(cmd), proc.returncode, out, err)
