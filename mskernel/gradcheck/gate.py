"""The gradient gate: an op checked as it is bound, on the cell's example inputs.

A hybrid kernel (``float64=True``) is compiled for float64 too and its gradients judged there with
float64's tolerances; for inputs in a lower dtype the run in that dtype is then compared with the
float64 run (:func:`~mskernel.gradcheck.against_float64.against_float64`). An op that only takes its
own dtype (C++, pyfunc) is checked in it, with that dtype's step, stencil and tolerances; so is a hybrid
kernel registered for its own dtypes only (its float64 call raises), which the report's ``note`` says.
Jacobians of up to 4096 entries are compared whole (exact); larger ones by random projections first, the
full Jacobians only to explain a failure -- a projection finds an error confined to one element of ``n``
only when it is larger than about ``rtol * sqrt(n)`` of it. Never raises on a mismatch.

Example:
    >>> import numpy as np, mskernel as ms
    >>> r = check_bound_op(lambda a: a * a, (np.array([1.0, 2.0], np.float32),), float64=True, names=["x"])
    >>> r.passed, r.summary().endswith("(in float64, and float32 against it)")
    (True, True)
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.gradcheck.against_float64 import against_float64
from mskernel.gradcheck.check import _as_tuple, gradcheck
from mskernel.gradcheck.report import GradcheckReport

__all__ = ["check_bound_op"]


def check_bound_op(op: Callable, example: Any, *, float64: bool, names: Optional[Sequence[str]] = None,
                   seed: int = 0) -> GradcheckReport:
    """Check a just-bound ``op`` on its ``example`` inputs (numpy arrays become Tensors); see the module.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> wrong = ms.ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc",
        ...                       bprop=lambda x, out, dout: (dout * x,))  # should be 2 * x * dout
        >>> print(check_bound_op(wrong, (np.array([1.0, 2.0]),), float64=False, names=["x"]).summary())
        gradients checked in float64: FAILED for input 0 (x), worst at d out[0][1] / d in[1]: analytic 2 vs numerical 4
    """
    args = tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in _as_tuple(example))
    try:
        report = gradcheck(op, args, raise_exception=False, cast_float64=float64, seed=seed)
    except Exception as exc:  # noqa: BLE001 - a kernel registered for its own dtypes only: checked in them
        if not float64:
            raise
        report = gradcheck(op, args, raise_exception=False, cast_float64=False, seed=seed)
        report.note = f"; the op does not take float64 ({type(exc).__name__})"
        float64 = False
    report.names = list(names or [])
    if float64 and report.dtype != "float64":
        diff = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a._data.dtype.kind == "f"]
        report.against_float64 = against_float64(op, args, diff, report.names, seed)
        report.passed = report.passed and report.against_float64.passed
    return report
