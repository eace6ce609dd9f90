"""mskernel.bench -- how fast is a kernel, and how far from the machine? (``ms.benchmark``, ``%kernel_bench``)

One idea per module: :mod:`~mskernel.bench.timing` (the timing method), :mod:`~mskernel.bench.agree`
(implementations agree before they are timed), :mod:`~mskernel.bench.counts` (static loads, stores and
flops of a hybrid kernel), :mod:`~mskernel.bench.roofline` (the machine's roofs, measured once and cached,
and placement under them), :mod:`~mskernel.bench.env` (the environment fingerprint),
:mod:`~mskernel.bench.report` (text and figures) and :mod:`~mskernel.bench.api` (:func:`benchmark`).

Example:
    >>> import numpy as np
    >>> r = benchmark([np.negative, np.positive], np.ones(4), check=False, flush=False, warmup=0, max_rounds=5)
    >>> r.names
    ['negative', 'positive']
"""
from .agree import Agreement, DisagreementError, check_agreement
from .api import BenchResult, Sweep, benchmark
from .counts import CountError, Counts, count_kernel
from .env import fingerprint
from .roofline import Peaks, RooflineError, RooflinePoint, machine_peaks, place
from .timing import Method, Timing, measure

__all__ = ["benchmark", "BenchResult", "Sweep", "Method", "Timing", "measure", "check_agreement", "Agreement",
           "DisagreementError", "count_kernel", "Counts", "CountError", "machine_peaks", "Peaks", "place",
           "RooflinePoint", "RooflineError", "fingerprint"]
