"""``%%custom_op --check``: the op of a cell run once in a checked build on the cell's ``--example`` inputs.

It runs after the op is bound, so a finding (or a check that cannot run) never unbinds the op: the
user debugs the op they have. The :class:`~mskernel.kernelcheck.KernelCheck` is kept on the cell's
result (``CellResult.kernel_check``) and shown in its summary; ``%custom_op_info`` shows the last one.

Example:
    >>> import numpy as np
    >>> from mskernel.cells import CellOptions, run_cell
    >>> code = ("def total(x):\\n    y = output_tensor((1,), x.dtype)\\n"
    ...         "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n")
    >>> ns = {"np": np}
    >>> opts = CellOptions(check_kernel=True, example="np.ones(3, np.float32)")
    >>> result = run_cell("total", code, opts, ns, first_line=2)
    >>> [(f.kind, f.line) for f in result.kernel_check.findings]
    [('race', 5), ('uninitialised-read', 5)]
"""
from __future__ import annotations

from typing import Any

from mskernel.cells.options import CellOptions
from mskernel.cells.result import CellResult
from mskernel.errors import MskernelError

__all__ = ["run_check"]


def run_check(result: CellResult, opts: CellOptions, namespace: dict) -> None:
    """Check ``result``'s op on the evaluated ``--example`` (``result.example``, else evaluated here); the
    report goes to ``result.kernel_check``, or why it could not run to ``result.check_error``."""
    from mskernel.kernelcheck import check_kernel

    example: Any = result.example
    try:
        if example is None:
            example = eval(opts.example or "()", namespace)  # noqa: S307 - the user's own expression
        args = example if isinstance(example, tuple) else (example,)
        result.kernel_check = check_kernel(result.value, *args)
    except (MskernelError, TypeError, ValueError, OSError, NameError, SyntaxError) as exc:
        result.check_error = f"{type(exc).__name__}: {exc}"
