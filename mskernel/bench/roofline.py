"""The machine's roofs -- memory bandwidth and peak arithmetic -- measured once, and a kernel placed under them.

:func:`machine_peaks` measures, with every core this process may use:

* **bandwidth**: the best of several copies of a buffer 4x the last-level cache (at least 64 MiB),
  counting the bytes read and written (2x the buffer), by ``numpy.copyto`` (one thread, ordinary stores)
  and by a hybrid ``parallel`` copy kernel (every core, on mskernel's thread pool, streaming stores):
  the faster. ``numpy.copyto`` alone was a one-thread roof that also pays a read for every line it
  writes (read-for-ownership): measured on a 2-core EPYC VM, 20.7 GB/s against the kernel's 47 GB/s, and
  hybrid kernels with streaming stores on two threads were placed at 116-124% of it;
* **peak flops** per float dtype: the best of several square ``numpy.matmul`` (BLAS), counting
  ``2 n^3`` flops.

The result is cached on disk, in ``<mskernel cache dir>/bench/peaks-<fingerprint>.json`` keyed by
the CPU model, the cores, the last-level cache and the numpy version, so a machine is measured once.

:func:`place` puts a kernel's static counts (:mod:`mskernel.bench.counts`) and a measured time on
the roofline. The point is placed at the kernel's highest possible arithmetic intensity (compulsory
bytes) -- the most generous roof. A point above that roof (times ``slack``, for measurement noise)
is not a fast kernel: it means the counts are wrong, or the time, or the roofs; :class:`RooflineError`
says which bound was crossed and by how much, and nothing is drawn.

Example:
    >>> from mskernel.bench.counts import Counts
    >>> peaks = Peaks(bandwidth=10e9, flops={"float32": 100e9, "float64": 50e9}, source="given")
    >>> c = Counts("sq", loads=1000, stores=1000, load_bytes=4000, store_bytes=4000, flops=1000,
    ...            compulsory_bytes=8000)
    >>> p = place(c, seconds=1e-6, peaks=peaks, dtype="float32")
    >>> round(p.gflops, 3), round(p.roof_gflops, 3), p.bound
    (1.0, 1.25, 'memory')
    >>> place(c, seconds=1e-7, peaks=peaks, dtype="float32")
    Traceback (most recent call last):
    ...
    mskernel.bench.roofline.RooflineError: roofline: sq above the roof -- a counting error, not drawn: it moves 80...
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from mskernel.errors import MskernelError

from .counts import Counts
from .env import fingerprint, llc_bytes

__all__ = ["Peaks", "RooflinePoint", "RooflineError", "machine_peaks", "measure_peaks", "place", "DEFAULT_SLACK"]

#: the version of how the roofs are measured, part of the disk cache's key: a new method measures again
ROOFS_VERSION = 2

#: A point may exceed a roof by this factor before it is called a counting error (timing noise,
#: a BLAS matmul that is a little under the true peak).
DEFAULT_SLACK = 1.25


class RooflineError(MskernelError):
    """A kernel placed above the machine's roof: its counts (or its time, or the roofs) are wrong.

    Example:
        >>> from mskernel.bench.counts import Counts
        >>> c = Counts("copy", loads=10, stores=10, load_bytes=40, store_bytes=40, compulsory_bytes=80)
        >>> try:
        ...     place(c, 1e-12, Peaks(1e9, {"float32": 1e9, "float64": 1e9}, "given"))
        ... except RooflineError as e:
        ...     print(str(e)[:43])
        roofline: copy above the roof -- a counting
    """


@dataclass
class Peaks:
    """The machine's roofs: ``bandwidth`` in bytes/s, ``flops[dtype]`` in flop/s, and where they came from
    (``"measured"``, ``"cached"`` or ``"given"``).

    Example:
        >>> Peaks(bandwidth=10e9, flops={"float32": 100e9, "float64": 50e9}, source="given").peak("float64")
        50000000000.0
    """

    bandwidth: float
    flops: dict[str, float]
    source: str = "measured"
    method: str = ""
    key: dict = field(default_factory=dict)

    def peak(self, dtype: str) -> float:
        """Peak flop/s for ``dtype`` (float16 computes in float32; other dtypes: the float64 peak).

        Example:
            >>> Peaks(1e9, {"float32": 2e9, "float64": 1e9}).peak("float16")
            2000000000.0
        """
        if dtype in self.flops:
            return self.flops[dtype]
        return self.flops["float32" if dtype == "float16" else "float64"]

    def describe(self) -> str:
        """One line: the roofs and how they were obtained.

        Example:
            >>> Peaks(12.5e9, {"float32": 80e9, "float64": 40e9}, "cached").describe()
            'roofs (cached): bandwidth 12.5 GB/s; peak 80 GFLOP/s float32, 40 GFLOP/s float64'
        """
        flops = ", ".join(f"{v / 1e9:.3g} GFLOP/s {k}" for k, v in sorted(self.flops.items()))
        return f"roofs ({self.source}): bandwidth {self.bandwidth / 1e9:.3g} GB/s; peak {flops}"


#: the copy kernel of the bandwidth roof: a ``parallel`` loop (every core) whose large output is streamed
COPY_KERNEL = ("def roof_copy(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
               "        y[i] = x[i]\n    return y\n")


def _best(fn: Callable[[], object], repeats: int) -> float:
    fn()  # first touch, and a build's first call
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _kernel_copy(src: np.ndarray, dst: np.ndarray) -> tuple[Optional[Callable[[], object]], str]:
    """The hybrid copy kernel's call into ``dst``, or None and why it cannot run here."""
    try:
        from mskernel.hybrid import HybridKernel  # (only to measure: placing a point needs no compiler)

        k = HybridKernel.from_source(COPY_KERNEL)
        k.run([src], out=[dst])
    except Exception as exc:  # no compiler, no toolchain: the numpy copy alone, and the method says so
        return None, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return (lambda: k.run([src], out=[dst])), ""


def _copy_bandwidths(nbytes: int, repeats: int) -> tuple[float, float, str]:
    """Bytes/s (read + write) of numpy's copy and of the hybrid copy kernel (0.0 and why, if it cannot run)."""
    src = np.ones(nbytes // 8, np.float64)
    dst = np.empty_like(src)
    numpy_bw = 2 * src.nbytes / _best(lambda: np.copyto(dst, src), repeats)
    kernel, why = _kernel_copy(src, dst)
    return numpy_bw, (2 * src.nbytes / _best(kernel, repeats) if kernel is not None else 0.0), why


def measure_peaks(copy_bytes: Optional[int] = None, matmul_n: int = 768, repeats: int = 5) -> Peaks:
    """Measure bandwidth (the faster of numpy's copy and a hybrid parallel copy kernel) and peak flops (numpy
    matmul) now, without the disk cache.

    Example:
        >>> p = measure_peaks(copy_bytes=1 << 20, matmul_n=64, repeats=2)
        >>> p.bandwidth > 0 and p.flops["float32"] > 0, p.source
        (True, 'measured')
    """
    nbytes = copy_bytes if copy_bytes is not None else max(4 * llc_bytes(), 64 << 20)
    numpy_bw, kernel_bw, why = _copy_bandwidths(nbytes, repeats)
    bandwidth = max(numpy_bw, kernel_bw)
    flops = {}
    rng = np.random.default_rng(0)
    for dt in ("float32", "float64"):
        a = rng.standard_normal((matmul_n, matmul_n)).astype(dt)
        b = rng.standard_normal((matmul_n, matmul_n)).astype(dt)
        a @ b
        best = math.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            a @ b
            best = min(best, time.perf_counter() - t0)
        flops[dt] = 2 * matmul_n ** 3 / best
    kernel_said = (f"{kernel_bw / 1e9:.3g} GB/s by a hybrid parallel copy kernel on every core" if not why
                   else f"no hybrid copy kernel ({why})")
    method = (f"bandwidth: the faster of {numpy_bw / 1e9:.3g} GB/s by numpy.copyto (one thread) and {kernel_said}, "
              f"best of {repeats} copies of {nbytes >> 20} MiB (read + write counted); "
              f"peak: best of {repeats} numpy matmul {matmul_n}x{matmul_n} (2n^3 flops)")
    return Peaks(bandwidth, flops, "measured", method)


def _cache_file() -> Path:
    from mskernel.toolchain.cache import cache_dir

    fp = fingerprint()
    key = {k: fp[k] for k in ("cpu", "cores_allowed", "llc_bytes", "numpy", "threads")}
    key["roofs"] = ROOFS_VERSION
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return cache_dir() / "bench" / f"peaks-{digest}.json"


def machine_peaks(remeasure: bool = False) -> Peaks:
    """The machine's roofs, measured on first use and then read from the disk cache.

    ``remeasure=True`` measures again and replaces the cached values.

    Example:
        >>> import os, tempfile
        >>> os.environ["MSKERNEL_CACHE_DIR"] = tempfile.mkdtemp()
        >>> machine_peaks().source, machine_peaks().source
        ('measured', 'cached')
    """
    path = _cache_file()
    if not remeasure and path.is_file():
        try:
            data = json.loads(path.read_text())
            return Peaks(float(data["bandwidth"]), {k: float(v) for k, v in data["flops"].items()}, "cached",
                         data.get("method", ""), data.get("key", {}))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable: measure again and replace it
    peaks = measure_peaks()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**asdict(peaks), "source": "measured"}, indent=1))
    os.replace(tmp, path)
    return peaks


@dataclass
class RooflinePoint:
    """A kernel on the roofline: its intensity (flop/B, compulsory bytes), attained and roof GFLOP/s,
    attained GB/s, and which roof bounds it (``"memory"`` or ``"compute"``).

    Example:
        >>> from mskernel.bench.counts import Counts
        >>> c = Counts("copy", loads=10, stores=10, load_bytes=40, store_bytes=40, compulsory_bytes=80)
        >>> p = place(c, 1e-6, Peaks(1e9, {"float32": 1e9, "float64": 1e9}, "given"))
        >>> p.kernel, p.bound
        ('copy', 'memory')
    """

    kernel: str
    intensity: float
    gflops: float
    gbps: float
    roof_gflops: float
    bound: str
    dtype: str
    bandwidth_gbps: float = 0.0

    @property
    def fraction(self) -> float:
        """Attained / roof (for a memory-bound kernel: attained / machine bandwidth, defined without flops)."""
        if self.bound == "memory" and self.bandwidth_gbps:
            return self.gbps / self.bandwidth_gbps
        return self.gflops / self.roof_gflops if self.roof_gflops else 0.0

    def describe(self) -> str:
        """One line.

        Example:
            >>> RooflinePoint("sq", 0.125, 1.0, 8.0, 1.25, "memory", "float32", 10.0).describe()
            'roofline sq: 0.125 flop/B, 1 GFLOP/s, 8 GB/s = 80% of the memory roof (1.25 GFLOP/s)'
        """
        return (f"roofline {self.kernel}: {self.intensity:.3g} flop/B, {self.gflops:.3g} GFLOP/s, "
                f"{self.gbps:.3g} GB/s = {self.fraction:.0%} of the {self.bound} roof ({self.roof_gflops:.3g} GFLOP/s)")


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.3g} us"


def place(counts: Counts, seconds: float, peaks: Peaks, dtype: str = "float32",
          slack: float = DEFAULT_SLACK) -> RooflinePoint:
    """Place a kernel that ran in ``seconds`` on the roofline; :class:`RooflineError` above the roof.

    Example:
        >>> c = Counts("copy", loads=10, stores=10, load_bytes=40, store_bytes=40, compulsory_bytes=80)
        >>> place(c, 1e-6, Peaks(1e9, {"float32": 1e9, "float64": 1e9}, "given")).bound
        'memory'
    """
    if seconds <= 0:
        raise ValueError(f"roofline: {counts.kernel}: the time must be > 0 seconds, got {seconds}")
    nbytes = counts.compulsory_bytes
    gbps = nbytes / seconds / 1e9
    gflops = counts.flops / seconds / 1e9
    peak = peaks.peak(dtype)
    bw = peaks.bandwidth
    if nbytes and gbps > slack * bw / 1e9:
        raise RooflineError(
            f"roofline: {counts.kernel} above the roof -- a counting error, not drawn: it moves {gbps:.3g} GB/s, "
            f"{gbps * 1e9 / bw:.2g}x the machine's {bw / 1e9:.3g} GB/s bandwidth ({nbytes} compulsory bytes in "
            f"{_us(seconds)})")
    if gflops > slack * peak / 1e9:
        raise RooflineError(
            f"roofline: {counts.kernel} above the roof -- a counting error, not drawn: {gflops:.3g} GFLOP/s, "
            f"{gflops * 1e9 / peak:.2g}x the machine's {peak / 1e9:.3g} GFLOP/s {dtype} peak ({counts.flops} flops in "
            f"{_us(seconds)})")
    intensity = counts.max_intensity
    memory_roof = bw * intensity if math.isfinite(intensity) else math.inf
    bound = "memory" if memory_roof < peak else "compute"
    roof = min(memory_roof, peak) / 1e9
    return RooflinePoint(counts.kernel, intensity, gflops, gbps, roof, bound, dtype, bw / 1e9)
