"""Central differences of a function of Tensors, along any direction, with a bound on their own rounding.

:func:`difference` evaluates ``fn`` at ``x + k h d`` for the stencil's offsets ``k`` (two points
``±1``, or four ``±1, ±2``), each point rounded to the input's dtype as the function will see it. It
returns ``Σ w_k f(x_k)`` (``≈ J δ``), the effective step ``δ = Σ w_k (x_k - x)`` (exact, so a rounded
point costs nothing) and ``sqrt(Σ (w_k f(x_k))**2)``, the scale of the quotient's rounding (the values'
rounding errors are independent), which :func:`rounding_bound` turns into a bound.
:func:`evaluate` runs ``fn`` without recording; :class:`Tracked` runs it once
recording, for repeated vector-Jacobian products. :func:`sweep_verdict` reads how a disagreement
changes with the step: an error that falls with the step is truncation, one that grows as the step
shrinks is rounding, one that grows like ``1/eps`` even at the largest step is a jump (the function is
not differentiable there), and one that stays is a wrong gradient.

Example:
    >>> import numpy as np
    >>> from mskernel.common.tensor import Tensor
    >>> x = Tensor._wrap(np.array([1.0, 2.0]))
    >>> quotient, delta, _ = difference(lambda a: a * a, [x], 0, np.array([1.0, 0.0]), 1e-3, 2)
    >>> np.round(quotient[0] / delta[0], 6)
    array([2., 0.])
"""
from __future__ import annotations

from typing import Any, Callable, List, Sequence, Tuple

import numpy as np

from mskernel.autograd.api import recording, track_inputs
from mskernel.autograd.engine import gradients
from mskernel.autograd.node import STATE
from mskernel.common.tensor import Tensor

__all__ = ["STENCILS", "SWEEP", "ROUNDING_FACTOR", "forward", "evaluate", "outputs", "Tracked", "difference",
           "rounding_bound", "sweep_verdict"]

#: offsets and weights of the first derivative: the error is O(h**2) for two points, O(h**4) for four
STENCILS = {2: ((-1, -0.5), (1, 0.5)),
            4: ((-2, 1.0 / 12), (-1, -8.0 / 12), (1, 8.0 / 12), (2, -1.0 / 12))}
#: the steps tried, as multiples of the dtype's step, before a disagreement is called a wrong gradient
SWEEP = (0.25, 0.5, 2.0, 4.0)
#: the bound on a difference quotient's rounding, in units of ``u * sqrt(sum((w_k f_k)**2))``: each value
#: rounded once errs by a uniform ``±u |f_k|`` (standard deviation ``u |f_k| / sqrt(3)``), so 2 is three and
#: a half standard deviations of one rounding (correct float16 and float32 ops of several smooth functions
#: raise no false alarm with it, in the tests; what exceeds it at the dtype's step is truncation, which the
#: sweep's smaller steps settle)
ROUNDING_FACTOR = 2.0


def outputs(out: Any) -> List[Tensor]:
    """The floating-point Tensors among ``fn``'s outputs (a Tensor or a tuple of them)."""
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            raise TypeError(f"gradcheck: the function's outputs must be Tensors, but output {i} is {type(o).__name__}.")
    return [o for o in outs if o._data.dtype.kind in "fc"]


def forward(fn: Callable, args: Sequence[Any]) -> List[Tensor]:
    """``fn(*args)``'s floating outputs, nothing recorded."""
    prev = STATE.enabled
    STATE.enabled = False
    try:
        return outputs(fn(*args))
    finally:
        STATE.enabled = prev


def evaluate(fn: Callable, args: Sequence[Any]) -> List[np.ndarray]:
    """``fn(*args)``'s floating outputs as float64 arrays, nothing recorded."""
    return [np.array(o._data, dtype=np.float64) for o in forward(fn, args)]


class Tracked:
    """One forward pass with the inputs at ``diff`` tracked, for repeated backward passes (:meth:`vjp`)."""

    def __init__(self, fn: Callable, args: Sequence[Any], diff: Sequence[int]) -> None:
        with recording():  # a grad call inside fn records its backward (gradgradcheck)
            call, self.targets = track_inputs(args, diff, "gradcheck")
            self.outs = outputs(fn(*call))

    def vjp(self, sens: List[np.ndarray]) -> List[np.ndarray]:
        """``v^T J`` for each tracked input (float64), ``sens`` the ``v`` of each output."""
        grads = gradients(self.outs, self.targets, [Tensor._wrap(s.astype(o._data.dtype, copy=False))
                                                     for s, o in zip(sens, self.outs)], retain_graph=True)
        return [np.zeros(t.shape) if g is None else np.asarray(g._data, np.float64)
                for g, t in zip(grads, self.targets)]


def difference(fn: Callable, args: List[Any], i: int, direction: np.ndarray, h: float, points: int
               ) -> Tuple[List[np.ndarray], np.ndarray, List[np.ndarray]]:
    """``(Σ w_k f(x_k), δ, sqrt(Σ (w_k f(x_k))**2))`` for ``x_k = x + k h direction`` rounded to input ``i``'s dtype;
    the input is restored afterwards."""
    x = args[i]._data
    x0 = x.astype(np.float64)
    quotient: List[np.ndarray] = []
    magnitude: List[np.ndarray] = []
    delta = np.zeros(x.shape)
    try:
        for k, w in STENCILS[points]:
            point = (x0 + (k * h) * direction).astype(x.dtype)
            x[...] = point
            delta += (w / h) * (point.astype(np.float64) - x0)
            fk = evaluate(fn, args)
            if not quotient:
                quotient = [np.zeros(f.shape) for f in fk]
                magnitude = [np.zeros(f.shape) for f in fk]
            for q, m, f in zip(quotient, magnitude, fk):
                q += (w / h) * f
                m += ((w / h) * f) ** 2
    finally:
        x[...] = x0.astype(x.dtype)
    return quotient, delta, [np.sqrt(m) for m in magnitude]


def rounding_bound(magnitude: np.ndarray, u: float) -> np.ndarray:
    """How far the rounding of the values a difference quotient was formed from can move it."""
    return ROUNDING_FACTOR * u * magnitude


def sweep_verdict(steps: Sequence[float], errors: Sequence[float], allowed: Sequence[float]) -> str:
    """What the errors of one comparison at several steps say: ``"ok"`` (within tolerance at some step),
    ``"not smooth"`` (the error grows like 1/eps down to the smallest step: a jump or kink within the
    stencil), or ``"mismatch"`` (a wrong gradient).

    A jump of size ``J`` within every stencil adds ``J * c / h`` to the quotient, so its error grows at each
    smaller step, not only between the ends: an error that is flat across the steps and happens to be small
    at the largest one (truncation cancelling part of a wrong gradient) is a mismatch.

    Example:
        >>> sweep_verdict([1e-3, 1e-2], [0.5, 0.5], [1e-4, 1e-4]), sweep_verdict([1e-3, 1e-2], [5.0, 0.5], [1e-4, 1e-4])
        ('mismatch', 'not smooth')
        >>> sweep_verdict([1, 2, 4, 8, 16], [1.3, 1.3, 1.2, 1.1, 0.15], [0.1] * 5)  # flat, then small at the end
        'mismatch'
    """
    if any(e <= a for e, a in zip(errors, allowed)):  # NaN errors never pass
        return "ok"
    order = np.argsort(steps)
    h = [float(steps[k]) for k in order]
    e = [float(errors[k]) for k in order]
    if not all(np.isfinite(v) and v > 0 for v in e):
        return "mismatch"
    grows = all(e[k] / e[k + 1] >= (h[k + 1] / h[k]) ** 0.5 for k in range(len(h) - 1))  # at every smaller step
    if grows and e[0] / e[-1] >= (h[-1] / h[0]) ** 0.7:
        return "not smooth"
    return "mismatch"
