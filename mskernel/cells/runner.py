"""``run_cell``: one ``%%custom_op`` cell, from text to NAME bound in a namespace -- or nothing changed.

The language comes from ``--lang`` or the cell (:func:`~mskernel.cells.options.detect_language`);
the options are checked for it; the hybrid or C++ path builds the op; only when everything worked
is NAME (re)bound, so an edited cell replaces the op at once and a failing one leaves the previous
op bound -- the :class:`~mskernel.cells.errors.CellError` says so in ``.kept``. An interrupt
(KeyboardInterrupt) leaves NAME as it was too and propagates. Once NAME is bound, ``--check``
(:mod:`~mskernel.cells.check_step`) and the gradient gate (:mod:`~mskernel.cells.grad_step`) run on the
``--example`` inputs: what they find goes into the result and never unbinds the op. :func:`last_result`
gives the result of the last successful run of a NAME (``%custom_op_info``).

Example:
    >>> import numpy as np, mskernel as ms
    >>> ns = {}
    >>> code = ("def neg(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        y[i] = -x[i]\\n    return y\\n")
    >>> print(run_cell("neg", code, CellOptions(), ns).bound[0][1])
    neg(x) -> y
    >>> print(ns["neg"](ms.Tensor(np.array([1.0, -2.0], np.float32))))
    [-1.  2.]
    >>> try:
    ...     run_cell("neg", code.replace("-x[i]", "-z[i]"), CellOptions(), ns)
    ... except CellError as e:
    ...     print(e.kept)
    neg is still the op of its last successful run (neg(x) -> y)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mskernel.cells.errors import CellError
from mskernel.cells.options import CellOptions, detect_language
from mskernel.cells.progress import Ticker
from mskernel.cells.result import CellResult

__all__ = ["cell_filename", "last_result", "result_of", "run_cell"]

_MISSING = object()
_RESULTS: dict[str, CellResult] = {}


def cell_filename(name: str) -> str:
    """The name diagnostics show for the cell of op NAME (stable across runs, so the cache key is too).

    Example:
        >>> cell_filename("mul")
        '<cell mul>'
    """
    return f"<cell {name}>"


def last_result(name: str) -> CellResult | None:
    """The :class:`CellResult` of the last successful run of ``%%custom_op name`` (None if none).

    Example:
        >>> last_result("never_defined") is None
        True
    """
    return _RESULTS.get(name)


def result_of(value: Any) -> CellResult | None:
    """The :class:`CellResult` of the last successful cell whose op (or module) is ``value`` (None if none).

    Example:
        >>> result_of(object()) is None
        True
    """
    return next((r for r in _RESULTS.values() if r.value is value), None)


def _kept(name: str, prev: Any) -> str:
    last = _RESULTS.get(name)
    if prev is _MISSING:
        return f"{name} was not defined and still is not"
    if last is not None and last.value is prev:
        return f"{name} is still the op of its last successful run ({last.bound[0][1]})"
    return f"{name} is unchanged"


def run_cell(name: str, code: str, options: CellOptions, namespace: dict, *, first_line: int = 1,
             header: str = "", progress: Callable[[str, float], None] | None = None) -> CellResult:
    """Build the op of one cell and bind it to ``namespace[name]``; see the module docstring.

    ``first_line`` is the notebook line number of the code's first line (2 under a ``%%`` line),
    ``header`` that magic line; ``progress(stage, elapsed)`` is called from a thread during a
    C++ build that takes more than a moment.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> ns = {}
        >>> code = ("def twice(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...         "    for i in range(x.shape[0]):\\n        y[i] = 2.0 * x[i]\\n    return y\\n")
        >>> result = run_cell("twice", code, CellOptions(), ns, first_line=2)
        >>> result.lang, result.bound
        ('hybrid', [('twice', 'twice(x) -> y')])
        >>> print(ns["twice"](ms.Tensor(np.array([1.0, 3.0], np.float32))))
        [2. 6.]
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise CellError(str(name), f"NAME must be a Python identifier (it is bound to the op), but got {name!r}")
    try:
        opts = options.check(options.lang or detect_language(code))
    except ValueError as err:
        raise CellError(name, str(err).replace("%%custom_op: ", "", 1)) from None
    prev = namespace.get(name, _MISSING)
    try:
        if opts.lang == "hybrid":
            from mskernel.cells.hybrid_cell import compile_hybrid
            result = compile_hybrid(name, code, opts, namespace, filename=cell_filename(name),
                                    first_line=first_line, header=header)
        else:
            from mskernel.cells.cpp_cell import compile_cpp
            with Ticker(progress) as ticker:
                result = compile_cpp(name, code, opts, filename=cell_filename(name), first_line=first_line,
                                     ticker=ticker, namespace=namespace)
    except BaseException as err:
        if prev is _MISSING:
            namespace.pop(name, None)
        else:
            namespace[name] = prev
        if isinstance(err, CellError):
            err.kept = _kept(name, prev)
        raise
    namespace[name] = result.value
    _RESULTS[name] = result
    if opts.check_kernel:  # after binding: a finding never unbinds the op
        from mskernel.cells.check_step import run_check
        run_check(result, opts, namespace)
    from mskernel.cells.grad_step import run_gradcheck
    run_gradcheck(result, opts, namespace)  # after binding too: wrong gradients never unbind the op
    return result
