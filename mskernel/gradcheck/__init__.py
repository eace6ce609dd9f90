"""Gradient checking: the engine's Jacobians against central differences, in each dtype's tolerance.

- :func:`gradcheck` / :func:`gradgradcheck` (:mod:`~mskernel.gradcheck.check`): first and second derivatives;
- :data:`TOLERANCES` (:mod:`~mskernel.gradcheck.tolerances`): one row per dtype -- step, stencil, tolerances,
  and where each number comes from;
- :func:`check_bound_op` (:mod:`~mskernel.gradcheck.gate`): the gradient gate of ``%%custom_op`` cells,
  with :func:`against_float64` for a hybrid kernel's run in a lower dtype;
- :class:`GradcheckReport` (:mod:`~mskernel.gradcheck.report`): what was found, as text and HTML.

Example:
    >>> import mskernel as ms
    >>> ms.gradcheck(lambda a: a * a, (ms.Tensor([1.0, 2.0]),)).passed
    True
"""
from mskernel.gradcheck.against_float64 import against_float64
from mskernel.gradcheck.check import gradcheck, gradgradcheck
from mskernel.gradcheck.gate import check_bound_op
from mskernel.gradcheck.report import AgainstFloat64, Deviation, GradcheckError, GradcheckReport, InputReport
from mskernel.gradcheck.tolerances import TOLERANCES, Tolerance, tolerance_for

for _cls in (AgainstFloat64, Deviation, GradcheckError, GradcheckReport, InputReport, Tolerance):
    _cls.__module__ = __name__  # documented and shown where users import them from

__all__ = ["gradcheck", "gradgradcheck", "check_bound_op", "against_float64", "GradcheckReport", "InputReport",
           "GradcheckError", "AgainstFloat64", "Deviation", "TOLERANCES", "Tolerance", "tolerance_for"]
