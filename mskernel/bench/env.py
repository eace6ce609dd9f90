"""The environment a benchmark ran in: CPU model, cores, cache sizes, library versions, threads.

A number without its machine is not a result. :func:`fingerprint` gathers what decides a timing
and can be read without running anything: the CPU model (``/proc/cpuinfo``), the cores this process
may run on (its affinity mask, which is what "threads pinned" means here), the last-level cache size
(``/sys/devices/system/cpu``), the numpy, mskernel and Python versions, and the thread settings
(``OMP_NUM_THREADS`` and the BLAS variables, and mskernel's own thread count if it sets one) with the
team that hybrid ``parallel`` loops run on: its size, what set it, and the pool's policy
(:mod:`mskernel.hybrid.threads`).

Example:
    >>> fp = fingerprint()
    >>> sorted(fp)[:4]
    ['cores_allowed', 'cores_online', 'cpu', 'llc_bytes']
    >>> fp["llc_bytes"] > 0
    True
"""
from __future__ import annotations

import os
import platform
import re
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["fingerprint", "cpu_model", "llc_bytes", "THREAD_VARS", "describe"]

#: Environment variables that set how many threads numerical libraries use.
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
               "OMP_PROC_BIND", "OMP_PLACES", "MSKERNEL_NUM_THREADS")
_DEFAULT_LLC = 8 << 20  # when the OS does not say: a common size, so a flush buffer is still large


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; else ``platform.processor()``; else the machine type).

    Example:
        >>> isinstance(cpu_model(), str) and cpu_model() != ""
        True
    """
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        text = ""
    m = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
    if m:
        return m.group(1).strip()
    return platform.processor() or platform.machine() or "unknown CPU"


def _parse_size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.I)
    if not m:
        return 0
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2).upper()]


def llc_bytes() -> int:
    """The size of the largest (last-level) cache of cpu0, in bytes (8 MiB when the OS does not say).

    Example:
        >>> llc_bytes() >= 1 << 16
        True
    """
    best = 0
    root = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(root.glob("index*")) if root.is_dir() else []:
        try:
            best = max(best, _parse_size((index / "size").read_text()))
        except OSError:
            continue
    return best or _DEFAULT_LLC


def fingerprint() -> dict[str, Any]:
    """What decides a timing on this machine, as plain JSON-able values.

    Keys: ``cpu``, ``cores_online``, ``cores_allowed`` (the affinity mask: the cores this process
    runs on), ``llc_bytes``, ``python``, ``numpy``, ``mskernel``, ``threads`` (the thread variables
    that are set), ``parallel`` (hybrid parallel loops: ``threads``, ``set_by``, ``policy``),
    ``vector_math`` (which kernels call glibc's SIMD math functions: :mod:`mskernel.hybrid.vector_math`) and
    ``platform``.

    Example:
        >>> fingerprint()["numpy"] == np.__version__
        True
    """
    from mskernel._version import __version__
    from mskernel.hybrid.threads import POLICY, thread_setting
    from mskernel.hybrid.vector_math import vector_math_setting

    team = thread_setting()
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = list(range(os.cpu_count() or 1))
    return {
        "cpu": cpu_model(),
        "cores_online": os.cpu_count() or 1,
        "cores_allowed": allowed,
        "llc_bytes": llc_bytes(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "mskernel": __version__,
        "threads": {k: os.environ[k] for k in THREAD_VARS if k in os.environ},
        "parallel": {"threads": team.threads, "set_by": team.source, "policy": POLICY},
        "vector_math": vector_math_setting().describe(),
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
    }


def describe(fp: dict[str, Any]) -> str:
    """One line for a fingerprint.

    Example:
        >>> fp = {"cpu": "X", "cores_online": 2, "cores_allowed": [0, 1], "llc_bytes": 1 << 25,
        ...       "python": "3.11", "numpy": "2.0", "mskernel": "0.1", "threads": {}, "platform": "L"}
        >>> describe(fp)
        'X, 2 cores (runs on 0,1), LLC 32 MiB; numpy 2.0, mskernel 0.1, Python 3.11; threads: library defaults'
        >>> describe(dict(fp, parallel={"threads": 2, "set_by": "MSKERNEL_NUM_THREADS", "policy": "P"})).split("; ")[-1]
        'parallel loops: 2 threads (MSKERNEL_NUM_THREADS)'
        >>> describe(dict(fp, vector_math="vector math off (MSKERNEL_VECTOR_MATH)")).split("; ")[-1]
        'vector math off (MSKERNEL_VECTOR_MATH)'
    """
    threads = ", ".join(f"{k}={v}" for k, v in fp["threads"].items()) or "library defaults"
    cores = ",".join(str(c) for c in fp["cores_allowed"])
    team = fp.get("parallel")
    parallel = f"; parallel loops: {team['threads']} threads ({team['set_by']})" if team else ""
    if fp.get("vector_math"):
        parallel += f"; {fp['vector_math']}"
    return (f"{fp['cpu']}, {fp['cores_online']} cores (runs on {cores}), LLC {fp['llc_bytes'] >> 20} MiB; "
            f"numpy {fp['numpy']}, mskernel {fp['mskernel']}, Python {fp['python']}; threads: {threads}{parallel}")
