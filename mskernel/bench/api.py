"""``ms.benchmark``: time implementations of one op, say how, check they agree, place hybrid kernels on a roofline.

:func:`benchmark` takes one or several callables -- a built-in op, an ``ops.Custom`` (hybrid, aot, pyfunc),
a C++ ``Function``, a plain numpy function: anything called on the same inputs -- and:

1. checks that they agree (:mod:`mskernel.bench.agree`: values, and gradients through :func:`mskernel.grad`
   where they flow), refusing with :class:`~mskernel.bench.agree.DisagreementError` otherwise;
2. times them by the stated method (:mod:`mskernel.bench.timing`), warm-cache and cache-flushed;
3. for hybrid kernels, counts loads, stores and flops from the kernel's IR (:mod:`mskernel.bench.counts`)
   and places them on the machine's roofline (:mod:`mskernel.bench.roofline`), and records what the thread
   pool of ``parallel`` loops did during the timing (:mod:`mskernel.hybrid.threads`: the team, its policy,
   the loops the workers joined);
4. returns a :class:`BenchResult` whose text states the numbers with the method and the environment,
   and which shows a figure in a notebook.

With ``sizes=`` and ``inputs=`` (a function size -> inputs) it sweeps the size and returns a :class:`Sweep`:
one :class:`BenchResult` per size, a text table with one row per size, and lines in a figure.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> x = ms.Tensor(np.ones(64, np.float32))
    >>> r = ms.benchmark({"mul": lambda a: a * a, "square": ms.ops.square}, x, flush=False, warmup=0,
    ...                  max_rounds=5, roofline=False)
    >>> r.names, sorted(r.warm), r.flushed
    (['mul', 'square'], ['mul', 'square'], None)
    >>> "warm-up 0 s per implementation (time budget)" in r.text()
    True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Union

import numpy as np

from mskernel.hybrid.threads import pool_info, pool_stats

from .agree import Agreement, check_agreement
from .counts import Counts, CountError, count_kernel, hybrid_kernel_of
from .env import describe, fingerprint
from .report import fmt_time, png, sweep_figure, table, timing_figure
from .roofline import Peaks, RooflineError, RooflinePoint, machine_peaks, place
from .timing import Method, Timing, measure

__all__ = ["benchmark", "BenchResult", "Sweep", "impl_name", "describe_parallel"]

Impls = Union[Callable[..., Any], dict[str, Callable[..., Any]], Iterable[Callable[..., Any]]]


def impl_name(fn: Any) -> str:
    """A readable name for an implementation: its ``func_name`` (ops.Custom), ``__name__``, or class name.

    Example:
        >>> impl_name(np.add), impl_name(lambda a: a)
        ('add', '<lambda>')
    """
    for attr in ("func_name", "__name__", "name"):
        value = getattr(fn, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(fn).__name__


def _named(impls: Impls) -> dict[str, Callable[..., Any]]:
    if isinstance(impls, dict):
        out = {str(k): v for k, v in impls.items()}
    elif callable(impls):
        out = {impl_name(impls): impls}
    else:
        out = {}
        for fn in impls:
            name, k = impl_name(fn), 2
            while name in out:
                name, k = f"{impl_name(fn)}#{k}", k + 1
            out[name] = fn
    for name, fn in out.items():
        if not callable(fn):
            raise TypeError(f"benchmark: implementation {name!r} is not callable (got {type(fn).__name__})")
    if not out:
        raise ValueError("benchmark: no implementations given")
    return out


def _describe_inputs(args: tuple) -> str:
    parts = []
    for a in args:
        arr = a.asnumpy() if hasattr(a, "asnumpy") else a
        if isinstance(arr, np.ndarray):
            parts.append(f"{arr.dtype}[{','.join(str(d) for d in arr.shape)}]")
        else:
            parts.append(repr(a))
    return "(" + ", ".join(parts) + ")"


@dataclass
class BenchResult:
    """One benchmark: timings per implementation (``warm``, and ``flushed`` when measured), the ``method``,
    the environment fingerprint ``env``, the ``agreement`` check, static ``counts`` and ``roofline`` points of
    hybrid kernels (``roofline_errors`` for refused points), the machine ``peaks`` used, and ``parallel``:
    the thread pool of hybrid ``parallel`` loops during the timing (``mskernel.hybrid.threads.pool_info``:
    ``policy``, ``threads``, ``set_by`` and the counts of ``loops`` run on the pool, ``joined`` by a worker,
    ``chunks`` and ``worker_chunks``).

    Example:
        >>> import mskernel as ms
        >>> r = ms.benchmark([ms.ops.square, lambda a: a * a], ms.Tensor([1.0, 2.0]), flush=False, warmup=0,
        ...                  max_rounds=5)
        >>> r.names, sorted(r.warm) == sorted(r.names)
        (['square', '<lambda>'], True)
    """

    label: str
    names: list[str]
    inputs: str
    warm: dict[str, Timing]
    method: Method
    env: dict[str, Any]
    flushed: Optional[dict[str, Timing]] = None
    agreement: Optional[Agreement] = None
    counts: dict[str, Counts] = field(default_factory=dict)
    roofline: dict[str, RooflinePoint] = field(default_factory=dict)
    roofline_errors: dict[str, str] = field(default_factory=dict)
    roofline_note: Optional[str] = None  # why hybrid kernels were not placed, when they were not
    peaks: Optional[Peaks] = None
    parallel: dict[str, Any] = field(default_factory=dict)  # hybrid parallel loops during the timing (pool_info)

    def timings(self, mode: str = "warm") -> dict[str, Timing]:
        """The timings of ``mode`` (``"warm"`` or ``"flushed"``)."""
        if mode == "warm":
            return self.warm
        if mode == "flushed" and self.flushed is not None:
            return self.flushed
        raise ValueError(f"benchmark: no {mode!r} timings (modes measured: "
                         f"{'warm, flushed' if self.flushed else 'warm'})")

    def rows(self) -> list[dict[str, Any]]:
        """One dict per implementation and mode: name, mode, median, q_lo, q_hi (seconds), samples, settled."""
        out = []
        for mode in ("warm", "flushed"):
            timings = self.warm if mode == "warm" else self.flushed
            for name in self.names if timings else []:
                t = timings[name]
                out.append({"name": name, "mode": mode, "median": t.median, "q_lo": t.q_lo, "q_hi": t.q_hi,
                            "samples": len(t.samples), "calls_per_sample": t.number, "settled": t.settled})
        return out

    def text(self) -> str:
        """The result as text: the table, the agreement, counts and roofline, the method and the environment."""
        lo, hi = (round(q * 100) for q in self.method.quantiles)
        header = ["implementation", f"warm median [q{lo}, q{hi}]"]
        if self.flushed:
            header.append(f"flushed median [q{lo}, q{hi}]")
        header.append(f"vs {self.names[0]} (warm)")
        base = self.warm[self.names[0]].median
        rows = []
        for n in self.names:
            row = [n, _band(self.warm[n])]
            if self.flushed:
                row.append(_band(self.flushed[n]))
            row.append(f"{self.warm[n].median / base:.2f}x" if base > 0 else "-")
            rows.append(row)
        lines = [f"benchmark {self.label}: {len(self.names)} implementation(s) on {self.inputs}", table(header, rows)]
        if self.agreement is not None:
            lines.append(self.agreement.describe())
        for c in self.counts.values():
            lines.append("counts " + c.describe())
        for p in self.roofline.values():
            lines.append(p.describe())
        for name, err in self.roofline_errors.items():
            lines.append(f"roofline {name}: {err}")
        if self.roofline_note:
            lines.append(f"roofline: {self.roofline_note}")
        if self.peaks is not None and (self.roofline or self.roofline_errors):
            lines.append(self.peaks.describe())
        lines.append("method: " + self.method.describe(self.flushed is not None).replace("\n", "\n        "))
        rounds = [f"{m} {'settled' if t.settled else 'did not settle'} after {t.rounds} rounds"
                  for m, ts in (("warm", self.warm), ("flushed", self.flushed)) if ts
                  for t in [next(iter(ts.values()))]]
        lines.append("stopping: " + "; ".join(rounds))
        if self.parallel:
            lines.append("parallel loops: " + describe_parallel(self.parallel))
        lines.append("environment: " + describe(self.env))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def figure(self) -> Any:
        """A matplotlib Figure: medians with bands per implementation, and the roofline when there is one."""
        return timing_figure(self)

    def _repr_png_(self) -> Optional[bytes]:
        try:
            return png(self.figure())
        except ImportError:
            return None


def describe_parallel(info: dict[str, Any]) -> str:
    """One line for what the thread pool of hybrid parallel loops did (a :func:`~mskernel.hybrid.threads.pool_info`).

    Example:
        >>> info = {"policy": "P", "threads": 2, "set_by": "OMP_NUM_THREADS", "min_work": 131072, "workers": 1,
        ...         "loops": 40, "alone": 0, "chunks": 1280, "worker_chunks": 600, "joined": 39}
        >>> for part in describe_parallel(info).split("; "):
        ...     print(part)
        2 threads (OMP_NUM_THREADS), P
        40 loops ran on the pool during the timing, a worker took part in 39 (98%) and ran 47% of the chunks
    """
    head = f"{info['threads']} thread{'s' if info['threads'] != 1 else ''} ({info['set_by']}), {info['policy']}"
    loops = info.get("loops", 0)
    if not loops:
        return (f"{head}; no loop ran on the pool during the timing (a loop with less estimated work than "
                f"{info['min_work']} operations, or with one thread, runs on the calling thread)")
    alone = f"; {info['alone']} ran alone (the pool was busy with another thread's loop)" if info.get("alone") else ""
    share = info["worker_chunks"] / info["chunks"] if info["chunks"] else 0.0
    return (f"{head}; {loops} loops ran on the pool during the timing, a worker took part in {info['joined']} "
            f"({info['joined'] / loops:.0%}) and ran {share:.0%} of the chunks{alone}")


def _band(t: Timing) -> str:
    return f"{fmt_time(t.median)} [{fmt_time(t.q_lo)}, {fmt_time(t.q_hi)}]"


@dataclass
class Sweep:
    """A benchmark over sizes: ``param`` (the size's name), ``sizes`` and one :class:`BenchResult` per size.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> s = ms.benchmark([ms.ops.square], sizes=[2, 4], inputs=lambda n: (ms.Tensor(np.ones(n, np.float32)),),
        ...                  flush=False, warmup=0, max_rounds=5)
        >>> s.param, s.sizes, len(s.results)
        ('size', [2, 4], 2)
    """

    label: str
    param: str
    sizes: list[Any]
    results: list[BenchResult]

    @property
    def names(self) -> list[str]:
        """The implementations' names."""
        return self.results[0].names if self.results else []

    def rows(self) -> list[dict[str, Any]]:
        """One dict per size: the size and, per implementation, the warm (and flushed) median in seconds."""
        out = []
        for size, r in zip(self.sizes, self.results):
            row: dict[str, Any] = {self.param: size}
            for n in self.names:
                row[n] = r.warm[n].median
                if r.flushed:
                    row[f"{n} (flushed)"] = r.flushed[n].median
            out.append(row)
        return out

    def text(self) -> str:
        """A table with one row per size (median per call, warm and flushed), then method and environment."""
        if not self.results:
            return f"sweep {self.label}: no sizes"
        first = self.results[0]
        cols = [k for k in self.rows()[0] if k != self.param]
        rows = [[str(row[self.param])] + [fmt_time(row[c]) for c in cols] for row in self.rows()]
        lines = [f"sweep {self.label} over {self.param}: median time per call", table([self.param, *cols], rows)]
        for size, r in zip(self.sizes, self.results):
            for name, p in r.roofline.items():
                lines.append(f"{self.param}={size}: {p.describe()}")
            for name, err in r.roofline_errors.items():
                lines.append(f"{self.param}={size}: roofline {name}: {err}")
        agreements = {r.agreement.describe() for r in self.results if r.agreement is not None}
        lines += sorted(agreements)
        lines.append("method: " + first.method.describe(first.flushed is not None).replace("\n", "\n        "))
        lines.append("environment: " + describe(first.env))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def figure(self, mode: Optional[str] = None) -> Any:
        """A matplotlib Figure with one line per implementation (and mode) against the size."""
        return sweep_figure(self, mode)

    def _repr_png_(self) -> Optional[bytes]:
        try:
            return png(self.figure())
        except ImportError:
            return None


def _float_dtype(args: tuple) -> str:
    for a in args:
        arr = a.asnumpy() if hasattr(a, "asnumpy") else a
        if isinstance(arr, np.ndarray) and arr.dtype.kind == "f":
            return str(arr.dtype)
    return "float64"


def _one(impls: dict[str, Callable[..., Any]], args: tuple, label: str, method: Method, flush: bool,
         check: bool, grads: bool, rtol: Optional[float], atol: Optional[float], roofline: Optional[bool],
         env: dict[str, Any]) -> BenchResult:
    agreement = check_agreement(impls, args, rtol, atol, grads) if check else None
    thunks = {n: (lambda f=f: f(*args)) for n, f in impls.items()}
    before = pool_stats()
    warm = measure(thunks, method)
    flushed = measure(thunks, method, flushed=True) if flush else None
    result = BenchResult(label, list(impls), _describe_inputs(args), warm, method, env, flushed, agreement)
    if before is not None or pool_stats() is not None:  # a hybrid kernel ran: the pool exists
        result.parallel = pool_info(since=before)
    kernels = {n: hybrid_kernel_of(f) for n, f in impls.items()}
    kernels = {n: k for n, k in kernels.items() if k is not None}
    if roofline is False or not kernels or flushed is None:
        if roofline and not kernels:
            raise ValueError(f"benchmark {label}: roofline=True needs a hybrid kernel among the implementations "
                             f"({', '.join(impls)} are not)")
        if roofline and flushed is None:  # warm data in cache is not bounded by memory bandwidth
            raise ValueError(f"benchmark {label}: roofline=True needs the cache-flushed runs (flush=True): with "
                             f"warm-cache timings, data that fits in the cache moves faster than the memory "
                             f"bandwidth the roofline is drawn against")
        if kernels and roofline is None and flushed is None:
            result.roofline_note = ("not placed: warm-cache runs only (flush=False); the roofline needs the "
                                    "cache-flushed runs")
        return result
    result.peaks = machine_peaks()
    timings = flushed
    for name, hk in kernels.items():
        try:
            counts = count_kernel(hk, *args)
        except CountError as exc:
            result.roofline_errors[name] = str(exc)
            continue
        result.counts[name] = counts
        try:
            result.roofline[name] = place(counts, timings[name].median, result.peaks, _float_dtype(args))
        except RooflineError as exc:
            result.roofline_errors[name] = str(exc)
    return result


def benchmark(impls: Impls, *args: Any, sizes: Optional[Iterable[Any]] = None,
              inputs: Optional[Callable[[Any], Any]] = None, label: Optional[str] = None, param: str = "size",
              flush: bool = True, check: bool = True, grads: bool = True, rtol: Optional[float] = None,
              atol: Optional[float] = None, roofline: Optional[bool] = None, method: Optional[Method] = None,
              **method_options: Any) -> Union[BenchResult, Sweep]:
    """Benchmark one or several implementations of an op on the same inputs; the method is stated with the numbers.

    ``impls``: a callable, a list of callables, or ``{name: callable}``; the first is the reference for the
    agreement check and the ratios. ``args``: the inputs, passed to every implementation. Or ``sizes=`` and
    ``inputs=`` (size -> a tuple of inputs, or one input) for a :class:`Sweep` (``param`` names the size).
    ``flush=False`` skips the cache-flushed runs; ``check=False`` the agreement check (``grads=False``: values
    only; ``rtol``/``atol`` override the dtype's tolerance). ``roofline``: None places hybrid kernels when
    there are any and the cache-flushed runs were made (the roofline is drawn against memory bandwidth;
    warm data in cache is faster than that), False never, True requires both. ``method`` or keyword options
    (``warmup``, ``min_rounds``,
    ``max_rounds``, ``max_time``, ``settle_tol``, ``window``, ``quantiles``, ``min_sample``, ``flush_bytes``)
    set the timing method (:class:`~mskernel.bench.timing.Method`).

    Example:
        >>> import numpy as np
        >>> s = benchmark(np.sqrt, sizes=[8, 16], inputs=lambda n: np.ones(n), flush=False, warmup=0, max_rounds=5)
        >>> [row["size"] for row in s.rows()]
        [8, 16]
    """
    named = _named(impls)
    if method is None:
        method = Method(**method_options)
    elif method_options:
        raise TypeError(f"benchmark: give either method= or method options, not both ({', '.join(method_options)})")
    label = label or "/".join(named)
    env = fingerprint()
    if sizes is None:
        if inputs is not None:
            raise TypeError("benchmark: inputs= makes the inputs of a sweep: give sizes= too")
        return _one(named, args, label, method, flush, check, grads, rtol, atol, roofline, env)
    if inputs is None or args:
        raise TypeError("benchmark: a sweep takes sizes= and inputs= (a function size -> inputs), "
                        "not positional inputs")
    sizes = list(sizes)
    if not sizes:
        raise ValueError("benchmark: sizes= is empty")
    results = []
    for size in sizes:
        made = inputs(size)
        made = made if isinstance(made, tuple) else (made,)
        results.append(_one(named, made, f"{label} [{param}={size}]", method, flush, check, grads, rtol, atol,
                            roofline, env))
    return Sweep(label, param, sizes, results)
