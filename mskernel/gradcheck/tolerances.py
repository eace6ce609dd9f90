"""How closely a gradient can be checked in each dtype: the step, the stencil and the tolerances, one row per dtype.

A central difference of step ``h`` errs by truncation (about ``h**2`` for the two-point stencil, ``h**4``
for the four-point one) and by rounding (about ``u / h``, ``u`` the dtype's unit roundoff
``finfo.eps / 2``). The step that balances them is ``u**(1/3)`` for two points and ``u**(1/5)`` for four
(the classic balance, e.g. Nocedal & Wright, *Numerical Optimization*, section 8.1), which leaves an error
of about ``u**(2/3)`` or ``u**(4/5)``. float64 keeps torch.autograd.gradcheck's defaults (two points,
eps 1e-6, atol 1e-5, rtol 1e-3), the numbers users know. The lower-precision dtypes use four points at
``u**(1/5)``, relative to ``max(1, |x|)``, and the relative tolerances of JAX's
``default_gradient_tolerance`` (``jax._src.public_test_util``: float32 2e-3, float16 1e-2, bfloat16 1e-1),
which are also what a run in the dtype may differ from the float64 run by (``vs_float64``). Their
``atol`` is two roundoffs, what a gradient near zero computed in the dtype may be off by (``1 - y*y`` for
``y`` near 1, say); the rounding of the difference quotient itself is bounded separately, from the values
the function returned (:mod:`mskernel.gradcheck.differences`), and truncation is left to the step
sweep (:data:`mskernel.gradcheck.differences.SWEEP`).

In float16 the difference quotient itself is good to about 1% of the derivative, so an own-dtype
check finds a gradient that is off by a few percent where the derivative is of order one; a hybrid
kernel is checked in float64 instead, and its float16 run compared with the float64 run.

Example:
    >>> t = tolerance_for("float16")
    >>> t.points, round(t.eps, 3), t.rtol, t.vs_float64
    (4, 0.218, 0.01, 0.01)
    >>> tolerance_for("float64").eps, tolerance_for("float64").points
    (1e-06, 2)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict

import numpy as np

__all__ = ["Tolerance", "TOLERANCES", "tolerance_for", "unit_roundoff"]


def unit_roundoff(dtype: str) -> float:
    """Half the distance from 1 to the next number of ``dtype`` (bfloat16: 2**-8).

    Example:
        >>> unit_roundoff("float32") == 2.0 ** -24, unit_roundoff("bfloat16") == 2.0 ** -8
        (True, True)
    """
    return 2.0 ** -8 if dtype == "bfloat16" else float(np.finfo(np.dtype(dtype)).eps) / 2


@dataclass(frozen=True)
class Tolerance:
    """One dtype's row: the step ``eps`` (relative to ``max(1, |x|)`` below float64), the stencil's ``points``,
    ``atol``/``rtol`` of analytic against numerical, ``vs_float64`` (relative tolerance of this dtype's
    outputs and gradients against the float64 run) and ``source`` (where the numbers come from).

    Example:
        >>> print(tolerance_for("float32").band())
        float32: eps 0.036 (4-point stencil), atol 1e-07, rtol 0.002; against float64 within 0.002
    """

    dtype: str
    eps: float
    points: int
    atol: float
    rtol: float
    vs_float64: float
    source: str

    def band(self) -> str:
        """The row as one line, for reports and views."""
        stencil = f"{self.points}-point stencil"
        text = f"{self.dtype}: eps {self.eps:.2g} ({stencil}), atol {self.atol:g}, rtol {self.rtol:g}"
        return text + (f"; against float64 within {self.vs_float64:g}" if self.vs_float64 else "")


def _low(dtype: str, rtol: float) -> Tolerance:
    u = unit_roundoff(dtype)
    return Tolerance(dtype, u ** 0.2, 4, float(f"{2 * u:.0e}"), rtol, rtol,
                     f"step u**(1/5) for a 4-point stencil (u = {u:.3g}); rtol from JAX's default_gradient_tolerance")


#: one row per dtype
TOLERANCES: Dict[str, Tolerance] = {
    "float64": Tolerance("float64", 1e-6, 2, 1e-5, 1e-3, 0.0, "torch.autograd.gradcheck's defaults"),
    "float32": _low("float32", 2e-3),
    "float16": _low("float16", 1e-2),
    "bfloat16": _low("bfloat16", 1e-1),
}


def tolerance_for(dtype: object) -> Tolerance:
    """The row of ``dtype`` (a name, numpy dtype or mskernel dtype); complex dtypes use their real part's row.

    Example:
        >>> tolerance_for(np.float32).dtype, tolerance_for("complex128").dtype
        ('float32', 'float64')
    """
    name = str(getattr(dtype, "name", None) or np.dtype(dtype).name) if not isinstance(dtype, str) else dtype
    name = {"complex64": "float32", "complex128": "float64"}.get(name.lower(), name.lower())
    if name not in TOLERANCES:
        raise ValueError(f"gradcheck: no tolerances for dtype {dtype!r}; known: {', '.join(TOLERANCES)}")
    return TOLERANCES[name]
