"""``gradcheck`` and ``gradgradcheck``: the engine's Jacobians against central differences, in the dtype's tolerance.

``gradcheck(fn, inputs)`` compares the Jacobian the engine computes (backward passes with one-hot
output gradients) with central differences of ``fn``, by default on float64 copies of the inputs
(``cast_float64``), else in the inputs' own dtype, with the step, stencil and tolerances of that dtype's
row (:mod:`mskernel.gradcheck.tolerances`) unless given. An element passes when
``|analytic - numerical| <= atol + rtol * |numerical| + allowance``, the allowance bounding the rounding
of the difference quotient itself. An element that fails at the dtype's step is tried at the steps of
:data:`~mskernel.gradcheck.differences.SWEEP` before it is called wrong: it passes if it agrees at one
of them (the first step's error was truncation or rounding), and is left out, reported, if the
disagreement grows like ``1/eps`` (a jump within the stencil). ``fast_mode`` first compares random
projections ``v^T J d`` (one backward pass, a stencil of forward passes per input) and builds the full
Jacobians only when a projection disagrees at every step, so a failure is explained element by element.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.linspace(0.1, 1.0, 6).reshape(2, 3))
    >>> report = ms.gradcheck(lambda a: ops.sin(a * a + a), (x,))
    >>> report.passed, report.mode
    (True, 'full')
    >>> x16 = ms.Tensor(np.linspace(0.1, 1.0, 6).astype(np.float16))
    >>> ms.gradcheck(lambda a: ops.sin(a * a + a), (x16,), cast_float64=False).band()
    'float16: eps 0.22 (4-point stencil), atol 0.001, rtol 0.01'
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.gradcheck.differences import (SWEEP, Tracked, difference, evaluate, forward, outputs, rounding_bound,
                                            sweep_verdict)
from mskernel.gradcheck.report import GradcheckError, GradcheckReport, InputReport
from mskernel.gradcheck.tolerances import Tolerance, tolerance_for, unit_roundoff

__all__ = ["gradcheck", "gradgradcheck"]

_FAST_THRESHOLD = 4096  # Jacobian entries above which the default is fast mode


def _as_tuple(inputs: Any) -> tuple:
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _prepare(inputs: Any, cast_float64: bool, grad_position: Optional[Sequence[int]]) -> Tuple[List[Any], List[int]]:
    args = []
    for a in _as_tuple(inputs):
        if isinstance(a, Tensor):
            data = a._data.astype(np.float64) if cast_float64 and a._data.dtype.kind == "f" else a._data.copy()
            args.append(Tensor._wrap(np.ascontiguousarray(data)))
        else:
            args.append(a)
    if grad_position is None:
        diff = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a._data.dtype.kind == "f"]
    else:
        diff = list(grad_position)
        for i in diff:
            if not isinstance(args[i], Tensor) or args[i]._data.dtype.kind != "f":
                raise TypeError(f"gradcheck: input {i} must be a floating-point Tensor to be checked.")
    if not diff:
        raise ValueError("gradcheck: no floating-point Tensor inputs to check.")
    return args, diff


def _lowest(dtypes: Sequence[np.dtype]) -> str:
    """The least precise of floating dtypes (its row governs the check)."""
    return max((np.dtype(d) for d in dtypes), key=lambda d: float(np.finfo(d).eps)).name


def _scale(x: np.ndarray, tol: Tolerance) -> np.ndarray:
    """Per-element step unit: 1 in float64 (torch's absolute eps), ``max(1, |x|)`` below (a relative step)."""
    return np.ones(x.shape) if tol.dtype == "float64" else np.maximum(1.0, np.abs(x.astype(np.float64)))


# -- full Jacobians, element by element ------------------------------------------------------------
def _numerical_column(fn: Callable, args: List[Any], i: int, j: int, h: float, tol: Tolerance, u: float
                      ) -> Tuple[np.ndarray, np.ndarray]:
    """Column ``j`` of input ``i``'s numerical Jacobian at step ``h`` and its rounding allowance."""
    x = args[i]._data
    direction = np.zeros(x.shape)
    direction.reshape(-1)[j] = _scale(x, tol).reshape(-1)[j]
    quotient, delta, magnitude = difference(fn, args, i, direction, h, tol.points)
    step = delta.reshape(-1)[j]
    if step == 0.0:  # the point could not move in this dtype: nothing to judge by (never a pass)
        n = sum(q.size for q in quotient)
        return np.full(n, np.nan), np.zeros(n)
    column = np.concatenate([q.reshape(-1) for q in quotient]) / step
    allowance = rounding_bound(np.concatenate([m.reshape(-1) for m in magnitude]), u) / abs(step)
    return column, allowance


def _analytic(tracked: Tracked, n_inputs: int, sizes: List[int]) -> List[np.ndarray]:
    analytic = [np.zeros((sum(o._data.size for o in tracked.outs), n)) for n in sizes[:n_inputs]]
    row = 0
    for k, o in enumerate(tracked.outs):
        for e in range(o._data.size):
            sens = [np.zeros(t.shape) for t in tracked.outs]
            sens[k].reshape(-1)[e] = 1.0
            for a, g in zip(analytic, tracked.vjp(sens)):
                a[row] = g.reshape(-1)
            row += 1
    return analytic


def _locate(flat_row: int, out_shapes: List[tuple]) -> Tuple[int, Tuple[int, ...]]:
    for k, shp in enumerate(out_shapes):
        n = int(np.prod(shp)) if shp else 1
        if flat_row < n:
            return k, tuple(int(v) for v in np.unravel_index(flat_row, shp)) if shp else ()
        flat_row -= n
    return len(out_shapes) - 1, ()


def _errors(a: np.ndarray, n: np.ndarray, allowance: np.ndarray, atol: float, rtol: float
            ) -> Tuple[np.ndarray, np.ndarray]:
    """``|a - n|`` (NaN as infinite) and what each element may differ by."""
    with np.errstate(invalid="ignore"):
        err = np.abs(a - n)
    return np.where(np.isnan(err), np.inf, err), atol + rtol * np.abs(n) + allowance


def _check_input(fn: Callable, args: List[Any], i: int, analytic: np.ndarray, eps: float, atol: float, rtol: float,
                 tol: Tolerance, u: float, out_shapes: List[tuple], steps: Sequence[float]) -> InputReport:
    """Input ``i``'s numerical Jacobian at ``eps`` (failing columns swept over other steps) against ``analytic``."""
    shape = tuple(args[i].shape)
    n_cols = analytic.shape[1]
    numerical = np.zeros(analytic.shape)
    allowance = np.zeros(analytic.shape)
    for j in range(n_cols):
        numerical[:, j], allowance[:, j] = _numerical_column(fn, args, i, j, eps, tol, u)

    err, allowed = _errors(analytic, numerical, allowance, atol, rtol)
    bad = ~(err <= allowed)
    smooth = np.ones(analytic.shape, bool)
    sweep: dict = {}
    for j in np.unique(np.nonzero(bad)[1]) if steps else ():  # the failing columns: other steps before a verdict
        tries = [(eps, numerical[:, j].copy(), allowance[:, j].copy())]
        for f in steps:  # a smaller step may not buy a larger rounding allowance than the dtype's step has
            column, allowed_col = _numerical_column(fn, args, i, int(j), eps * f, tol, u)
            tries.append((eps * f, column, np.minimum(allowed_col, allowance[:, j])))
        errs = [_errors(analytic[:, j], n, al, atol, rtol) for _, n, al in tries]
        for r in np.nonzero(bad[:, j])[0]:
            tried = [t[0] for t in tries]
            e_r, a_r = [e[0][r] for e in errs], [e[1][r] for e in errs]
            verdict = sweep_verdict(tried, e_r, a_r)
            if verdict == "ok":  # shown at the step where it agrees; a wrong one keeps the dtype's step
                best = int(np.argmin([e / a if a > 0 else np.inf for e, a in zip(e_r, a_r)]))
                numerical[r, j], allowance[r, j] = tries[best][1][r], tries[best][2][r]
            elif verdict == "not smooth":  # left out: nothing it differs by counts
                smooth[r, j] = False
                allowance[r, j] = np.inf
            sweep[(int(r), int(j))] = (verdict, [(float(h), float(e)) for h, e in zip(tried, e_r)])
    err, allowed = _errors(analytic, numerical, allowance, atol, rtol)
    bad = ~(err <= allowed) & smooth
    diff = np.abs(analytic - numerical)
    rel = diff / np.maximum(np.abs(numerical), max(atol / max(rtol, 1e-300), 1e-300))  # near zero: as atol/rtol
    rep = InputReport(i, shape, not bad.any(), float(diff.max(initial=0.0)),  # NaN shows as NaN
                      float(rel[diff != 0].max(initial=0.0)), analytic=analytic, numerical=numerical,
                      allowance=allowance, not_smooth=int((~smooth).sum()),
                      relative_error=_relative(analytic[smooth], numerical[smooth], atol, rtol))
    if diff.size:
        pick = np.where(bad, err, -1.0) if bad.any() else np.where(smooth, diff, -1.0)  # largest |diff| failing
        r, c = np.unravel_index(int(np.argmax(np.nan_to_num(pick, nan=np.inf))), pick.shape)
        rep.worst_output = _locate(int(r), out_shapes)
        rep.worst_input = tuple(int(v) for v in np.unravel_index(int(c), shape)) if shape else ()
        rep.analytic_value, rep.numerical_value = float(analytic[r, c]), float(numerical[r, c])
        rep.verdict, rep.sweep = sweep.get((int(r), int(c)), ("ok" if rep.passed else "mismatch", []))
    return rep


def _relative(a: np.ndarray, n: np.ndarray, atol: float, rtol: float) -> float:
    """The worst relative error of a Jacobian; an element smaller than ``atol / rtol`` counts as that size."""
    floor = max(atol / max(rtol, 1e-300), 1e-300)
    with np.errstate(invalid="ignore"):
        return float(np.nanmax(np.abs(a - n) / np.maximum(np.abs(n), floor), initial=0.0))


# -- random projections ------------------------------------------------------------------------------
def _projections_agree(fn: Callable, args: List[Any], diff: List[int], eps: float, atol: float, rtol: float,
                       tol: Tolerance, u: float, seed: int, steps: Sequence[float], probes: int = 2
                       ) -> Tuple[bool, List[float]]:
    """``v^T J d`` per input, analytic (one backward) against the stencil along ``d``, each disagreement swept
    over other steps; returns whether all agree and each input's worst relative error. ``d`` is scaled like the step,
    with random signs in the first probe (no structure assumed) and the signs of ``g = v^T J`` in the next
    (so the terms of ``g . d`` add up instead of cancelling, and a gradient off by a few percent shows as
    that much of the sum)."""
    rng = np.random.default_rng(seed)
    base = evaluate(fn, args)
    tracked = Tracked(fn, args, diff)
    worst = [0.0] * len(diff)
    for probe in range(probes):
        vs = [rng.standard_normal(o.shape) for o in base]
        for k, (i, g) in enumerate(zip(diff, tracked.vjp(vs))):
            x = args[i]._data
            signs = rng.choice((-1.0, 1.0), size=x.shape)
            if probe % 2:  # aligned with the gradient (random where it is zero: a missing gradient still shows)
                signs = np.where(g > 0, 1.0, np.where(g < 0, -1.0, signs))
            direction = signs * _scale(x, tol)
            results: list = []
            for h in [eps] + [eps * f for f in steps]:
                quotient, delta, magnitude = difference(fn, args, i, direction, h, tol.points)
                numeric = sum(float(np.sum(q * v)) for q, v in zip(quotient, vs))
                analytic = float(np.sum(g * delta))
                size = max(abs(numeric), float(np.sqrt(np.sum((g * delta) ** 2))))
                absolute = (atol * float(np.sqrt(sum(np.sum(v * v) for v in vs)) * np.linalg.norm(delta))
                            / np.sqrt(max(x.size, 1)))
                rounding = float(np.sqrt(sum(np.sum((rounding_bound(m, u) * v) ** 2) for m, v in zip(magnitude, vs))))
                allowed = absolute + rtol * size + rounding
                size = max(size, absolute / max(rtol, 1e-300))  # relative error: not of a derivative near zero
                if results:  # as for elements: no larger rounding allowance than at the dtype's step
                    allowed = min(allowed, results[0][1])
                error = abs(analytic - numeric)
                results.append((error, allowed, error / size if size > 0 else (0.0 if error == 0 else np.inf)))
                if error <= allowed:  # NaN never passes
                    break
            if not results[-1][0] <= results[-1][1]:
                return False, [np.inf] * len(diff)
            worst[k] = max(worst[k], results[-1][2])
    return True, worst


# -- the checks ----------------------------------------------------------------------------------------
def gradcheck(fn: Callable, inputs: Any, eps: Optional[float] = None, atol: Optional[float] = None,
              rtol: Optional[float] = None, raise_exception: bool = True, *, fast_mode: Optional[bool] = None,
              grad_position: Optional[Sequence[int]] = None, cast_float64: bool = True,
              seed: int = 0, sweep: bool = True) -> GradcheckReport:
    """Check ``fn``'s gradients against central differences; returns a :class:`GradcheckReport`.

    Args:
        fn: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of inputs; floating Tensors are checked (or those at
            ``grad_position``).
        eps, atol, rtol: finite-difference step and tolerances; None takes them from the row of the dtype
            the check runs in (:data:`mskernel.gradcheck.TOLERANCES`; float64: 1e-6, 1e-5, 1e-3), or of the
            outputs' dtype where it is less precise.
        raise_exception: raise :class:`GradcheckError` (with the report) on a mismatch.
        fast_mode: compare random projections first; None picks it for Jacobians with more than
            4096 entries. It is probabilistic: an error confined to one element of ``n`` shows in a
            projection only when it exceeds about ``rtol * sqrt(n)`` of it (in float64, one element of 400
            wrong by 2% slips through 4 draws in 5, by 25% 1 in 20); full mode is exact.
        cast_float64: run the check on float64 copies of the inputs (default); False checks in the
            inputs' own dtype, with its step and tolerances.
        sweep: before an element (or a projection) is called wrong, try the steps ``eps * SWEEP`` too;
            False judges at ``eps`` alone (what a view's eps slider shows).

    Example:
        >>> import mskernel as ms
        >>> ms.gradcheck(lambda a, b: a * b, (ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))).passed
        True
    """
    own = _lowest([a._data.dtype for a in _as_tuple(inputs) if isinstance(a, Tensor) and a._data.dtype.kind == "f"]
                  or [np.float64])
    args, diff = _prepare(inputs, cast_float64, grad_position)
    checked_in = _lowest([args[i]._data.dtype for i in diff])
    first = forward(fn, args)  # one call: the outputs' dtypes and the base values
    out_dtypes = [o._data.dtype for o in first if o._data.dtype.kind == "f"]
    if not out_dtypes:
        raise ValueError("gradcheck: the function has no floating-point output, so nothing to differentiate "
                         "(integer and boolean outputs have no gradient)")
    # differences are only as fine as the values differenced: outputs less precise than the inputs (a kernel
    # that writes float32 whatever it reads) take their own dtype's row, else float64's step leaves percent noise
    tol = tolerance_for(_lowest([np.dtype(checked_in)] + out_dtypes))
    eps = tol.eps if eps is None else eps
    atol = tol.atol if atol is None else atol
    rtol = tol.rtol if rtol is None else rtol
    for i in diff:
        x = args[i]._data
        frozen = ((x + (eps * _scale(x, tol)).astype(x.dtype)) == x) & np.isfinite(x)  # inf moves nowhere anyway
        if frozen.any():
            k = tuple(int(v) for v in np.argwhere(frozen)[0])
            raise ValueError(f"gradcheck: eps {eps:g} does not move input {i} in {checked_in} (element {list(k)}, "
                             f"{float(x[k]):g}, stays where it is): use a larger eps, or leave eps to the dtype's "
                             f"row ({tol.eps:.2g})")
    base = [np.array(o._data, dtype=np.float64) for o in first]
    u = unit_roundoff(_lowest([np.dtype(checked_in)] + out_dtypes))
    n_out = sum(o.size for o in base)
    n_in = sum(args[i]._data.size for i in diff)
    fast = fast_mode if fast_mode is not None else n_out * n_in > _FAST_THRESHOLD
    steps = SWEEP if sweep else ()
    common = dict(checked_in=checked_in, dtype=own, tolerance=tol, swept=sweep)
    if fast:
        ok, worst = _projections_agree(fn, args, diff, eps, atol, rtol, tol, u, seed, steps)
        if ok:
            reps = [InputReport(i, tuple(args[i].shape), True, relative_error=w) for i, w in zip(diff, worst)]
            return GradcheckReport(True, "fast", eps, atol, rtol, reps, worst_rel_error=max(worst), **common)
    tracked = Tracked(fn, args, diff)
    analytic = _analytic(tracked, len(diff), [args[i]._data.size for i in diff])
    out_shapes = [o.shape for o in base]
    reps = [_check_input(fn, args, i, a, eps, atol, rtol, tol, u, out_shapes, steps) for i, a in zip(diff, analytic)]
    worst = max((r.relative_error for r in reps), default=0.0)
    report = GradcheckReport(all(r.passed for r in reps), "fast" if fast else "full", eps, atol, rtol, reps,
                             worst_rel_error=worst, **common)
    if not report.passed and raise_exception:
        raise GradcheckError(report)
    return report


def gradgradcheck(fn: Callable, inputs: Any, grad_outputs: Any = None, eps: Optional[float] = None,
                  atol: Optional[float] = None, rtol: Optional[float] = None, raise_exception: bool = True, *,
                  fast_mode: Optional[bool] = None, cast_float64: bool = True, seed: int = 0,
                  sweep: bool = True) -> GradcheckReport:
    """Check second derivatives: gradcheck of ``x -> grad_x <fn(x), v>`` (v random or ``grad_outputs``).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> ms.gradgradcheck(lambda a: ops.exp(a) * a, (ms.Tensor([0.5, 1.0]),)).passed
        True
    """
    from mskernel.autograd.api import grad

    args, diff = _prepare(inputs, cast_float64, None)
    rng = np.random.default_rng(seed + 1)
    outs = evaluate(fn, args)
    if grad_outputs is None:
        vs = [Tensor._wrap(rng.standard_normal(o.shape).astype(args[diff[0]]._data.dtype)) for o in outs]
    else:
        vs = [Tensor._wrap(np.asarray(v._data if isinstance(v, Tensor) else v, np.float64))
              for v in _as_tuple(grad_outputs)]

    def first_order(*xs: Any) -> tuple:
        def inner(*ys: Any) -> Tensor:
            total = None
            for o, v in zip(outputs(fn(*ys)), vs):
                term = (o * v).sum()
                total = term if total is None else total + term
            return total
        return grad(inner, grad_position=tuple(diff))(*xs)

    report = gradcheck(first_order, tuple(args), eps, atol, rtol, raise_exception=False, fast_mode=fast_mode,
                       grad_position=diff, cast_float64=False, seed=seed, sweep=sweep)
    report.order = 2
    if not report.passed and raise_exception:
        raise GradcheckError(report)
    return report
