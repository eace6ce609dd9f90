"""A run in the user's dtype against the float64 run of the same op: its outputs and its gradients.

A hybrid kernel is dtype-generic, so its gradients are judged in float64, tightly; what is left to
check in the user's float16 or float32 is that the kernel computes the same there: each output, and
each input's gradient for one random output gradient, within the dtype's ``vs_float64`` tolerance,
relative to the element or, for elements near zero, to the array's root mean square. The float64 run
sees the user's inputs exactly (upcast), so every difference is the kernel's own rounding, overflow or
cancellation in the lower dtype.

Example:
    >>> import numpy as np, mskernel as ms
    >>> x = ms.Tensor(np.linspace(-2, 2, 5).astype(np.float16))
    >>> print(against_float64(lambda a: ms.ops.exp(a) * a, (x,), [0], ["x"]).text())
    float16 against float64 (within 0.01): ok
      [ok  ] output 0: ... of the tolerance (worst at [...]: ... vs float64 ...)
      [ok  ] gradient of x: ... of the tolerance (worst at [...]: ... vs float64 ...)
"""
from __future__ import annotations

from typing import Any, Callable, List, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.gradcheck.differences import Tracked, evaluate
from mskernel.gradcheck.report import AgainstFloat64, Deviation
from mskernel.gradcheck.tolerances import tolerance_for

__all__ = ["against_float64"]


def _deviation(what: str, got: np.ndarray, want: np.ndarray, tol: float) -> Deviation:
    rms = float(np.sqrt(np.mean(want[np.isfinite(want)] ** 2))) if np.isfinite(want).any() else 0.0
    allowed = tol * (np.abs(want) + rms) + 1e-300
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(got == want, 0.0, np.abs(got - want))  # equal infinities agree
    ratio = np.where(np.isnan(err), np.inf, err / allowed)
    if ratio.size == 0:
        return Deviation(what, True, 0.0, (), 0.0, 0.0)
    k = int(np.argmax(ratio))
    worst = tuple(int(v) for v in np.unravel_index(k, ratio.shape)) if ratio.shape else ()
    return Deviation(what, bool(ratio.max() <= 1.0), float(ratio.reshape(-1)[k]), worst,
                     float(got.reshape(-1)[k]), float(want.reshape(-1)[k]))


def against_float64(fn: Callable, args: Sequence[Any], diff: Sequence[int], names: Sequence[str] = (),
                    seed: int = 0) -> AgainstFloat64:
    """Compare ``fn`` on ``args`` (Tensors in a dtype below float64) with ``fn`` on their float64 copies; ``diff``
    are the positions of the inputs whose gradients are compared, ``names`` their names where known.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float16))
        >>> report = against_float64(lambda a: a * a, (x,), [0], ["x"])
        >>> report.passed, [d.what for d in report.items]
        (True, ['output 0', 'gradient of x'])
    """
    dtype = max((args[i]._data.dtype for i in diff), key=lambda d: float(np.finfo(d).eps)).name
    tol = tolerance_for(dtype)
    low = [Tensor._wrap(a._data.copy()) if isinstance(a, Tensor) else a for a in args]
    wide = [Tensor._wrap(a._data.astype(np.float64)) if isinstance(a, Tensor) and a._data.dtype.kind == "f" else a
            for a in args]
    items: List[Deviation] = []
    out_low, out_wide = evaluate(fn, low), evaluate(fn, wide)
    for k, (g, w) in enumerate(zip(out_low, out_wide)):
        items.append(_deviation(f"output {k}", g, w, tol.vs_float64))
    rng = np.random.default_rng(seed)
    vs = [rng.standard_normal(o.shape) for o in out_wide]
    grads_low = Tracked(fn, low, diff).vjp(vs)
    grads_wide = Tracked(fn, wide, diff).vjp(vs)
    for i, g, w in zip(diff, grads_low, grads_wide):
        name = names[i] if i < len(names) and names[i] else f"input {i}"
        items.append(_deviation(f"gradient of {name}", g, w, tol.vs_float64))
    return AgainstFloat64(dtype, tol, items)
