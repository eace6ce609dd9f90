"""``mskernel.cells``: a notebook cell of kernel code -> a bound, differentiable op (no IPython needed).

This is the library under the ``%%custom_op`` magic (``magics/``), usable from any Python:
:func:`run_cell` takes a cell's text, its :class:`CellOptions` and a namespace, builds a hybrid
kernel op or a C++ module/op, binds NAME, and returns a :class:`CellResult` (a summary as text and
HTML). Failures are :class:`CellError`\\ s located at the cell's own lines, rendered as text or HTML
with the full compiler log in a collapsed ``<details>``; the previous NAME stays bound.

Example:
    >>> import numpy as np, mskernel as ms
    >>> ns = {}
    >>> code = ("def square(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        y[i] = x[i] * x[i]\\n    return y\\n"
    ...         "def square_grad(x, dout):\\n    dx = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        dx[i] = 2.0 * x[i] * dout[i]\\n    return dx\\n")
    >>> r = run_cell("square", code, CellOptions(bprop="square_grad"), ns, first_line=2)
    >>> print(ms.grad(ns["square"])(ms.Tensor(np.array([1.0, 4.0, 9.0], np.float32))))
    [ 2.  8. 18.]
"""
from mskernel.cells.binding import ForwardBackwardOp
from mskernel.cells.errors import CellError
from mskernel.cells.info import render_info
from mskernel.cells.options import BACKENDS, LANGUAGES, CellOptions, cell_key, detect_language
from mskernel.cells.progress import Ticker
from mskernel.cells.result import CellResult
from mskernel.cells.runner import cell_filename, last_result, result_of, run_cell

__all__ = ["BACKENDS", "LANGUAGES", "CellError", "CellOptions", "CellResult", "ForwardBackwardOp", "Ticker",
           "cell_filename", "cell_key", "detect_language", "last_result", "render_info", "result_of",
           "run_cell"]
