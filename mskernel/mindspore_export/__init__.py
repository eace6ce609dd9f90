"""``mskernel.mindspore_export``: carry an op to real MindSpore -- a file (or, for C++, a directory) it runs unchanged.

:func:`export_mindspore` looks at what the op is and writes, in MindSpore's own API:

* a hybrid/akg ``ops.Custom`` (or a ``%%custom_op`` hybrid cell's op): one Python file with the forward
  ``@kernel``, its backward ``@kernel`` (derived by mskernel, or the cell's bprop kernel), and
  ``op = ops.Custom(forward, ..., func_type="hybrid", bprop=...)`` registered for the dtypes used
  (:mod:`mskernel.mindspore_export.hybrid`);
* a pyfunc ``ops.Custom``: its Python functions and bprop (:mod:`mskernel.mindspore_export.pyfunc`);
* a C++ cell or an mskernel ``CustomOpBuilder``: a directory with the sources unchanged and a loader
  calling MindSpore's ``CustomOpBuilder`` (:mod:`mskernel.mindspore_export.cpp`).

What does not carry over is refused with the construct, the line and what to change
(:class:`~mskernel.mindspore_export.refusals.ExportError`).

Example:
    >>> import tempfile, numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> from mskernel.ops import kernel
    >>> @kernel
    ... def halve(x):
    ...     y = output_tensor(x.shape, x.dtype)
    ...     for i in range(x.shape[0]):
    ...         y[i] = x[i] * 0.5
    ...     return y
    >>> op = ops.Custom(halve, func_type="hybrid")
    >>> _ = op(ms.Tensor(np.ones(4, np.float32)))          # the signature exported: float32, rank 1
    >>> path = export_mindspore(op, tempfile.mkdtemp())
    >>> path.name
    'halve.py'
    >>> lines = path.read_text().splitlines()
    >>> next(line.strip() for line in lines if line.strip().startswith("# line"))  # in the derived backward
    '# line 33: y[i] = x[i] * 0.5'
    >>> lines[33 - 1].strip()                                                       # the forward's line 33
    'y[i] = x[i] * 0.5'
"""
from __future__ import annotations

import types
from pathlib import Path
from typing import Any, Sequence

from mskernel.cells.result import CellResult
from mskernel.cells.runner import result_of
from mskernel.mindspore_export.refusals import ExportError

__all__ = ["ExportError", "export_mindspore"]


def _file(path: str | Path, name: str) -> Path:
    p = Path(path)
    return p if p.suffix == ".py" else p / f"{name}.py"


def export_mindspore(op: Any, path: str | Path, *, example: Any = None,
                     targets: Sequence[str] = ("GPU", "CPU"), allow_races: bool = False) -> Path:
    """Write ``op`` as code real MindSpore runs; returns the file (or, for C++, the directory) written.

    ``op`` is an ``ops.Custom`` (hybrid, akg or pyfunc), the op or module a ``%%custom_op`` cell
    bound (or its :class:`~mskernel.cells.CellResult`), or an mskernel ``CustomOpBuilder``. ``path``
    is a ``.py`` file, or a directory to write ``NAME.py`` into (C++: the directory of the
    sources and loader). ``example`` -- call arguments, e.g. ``(x, y)`` -- picks the signature a
    hybrid op is exported for when it was called with several (or never); ``targets`` are the
    devices a hybrid op is registered for. Raises :class:`ExportError` for what does not carry over --
    among it a hybrid kernel whose parallel loop races (serial in mskernel, parallel on the device);
    ``allow_races=True`` exports such a kernel anyway.

    Example:
        >>> import tempfile, mskernel as ms
        >>> from mskernel import ops
        >>> def square(x):
        ...     return x * x
        >>> def square_bprop(x, out, dout):
        ...     return (2 * x * dout,)
        >>> op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=square_bprop)
        >>> text = export_mindspore(op, tempfile.mkdtemp() + "/square_ms.py").read_text()
        >>> print(text.splitlines()[-1])
        op = ops.Custom(square, out_shape=_lambda1, out_dtype=_lambda2, func_type="pyfunc", bprop=square_bprop)
    """
    result = op if isinstance(op, CellResult) else result_of(op)
    value = op.value if isinstance(op, CellResult) else op
    if result is not None and result.lang == "cpp":
        from mskernel.mindspore_export.cpp import export_cpp
        return export_cpp(result, path)
    if hasattr(value, "get_sources") and hasattr(value, "load"):  # an mskernel CustomOpBuilder
        from mskernel.mindspore_export.cpp import export_cpp
        return export_cpp(value, path)
    func_type = getattr(value, "func_type", None)
    name = result.name if result is not None else getattr(value, "func_name", None) or "op"
    if func_type in ("hybrid", "akg"):
        from mskernel.mindspore_export.hybrid import export_hybrid
        return export_hybrid(value, _file(path, name), example=example, targets=targets, result=result,
                             allow_races=allow_races)
    if func_type == "pyfunc":
        from mskernel.mindspore_export.pyfunc import export_pyfunc
        return export_pyfunc(value, _file(path, name), result=result)
    if func_type is not None:
        raise ExportError(name, f"func_type {func_type!r}", "the export writes hybrid/akg, pyfunc and C++ ops",
                          "an aot op's .so is already MindSpore's: pass the same file to mindspore.ops.Custom")
    if isinstance(value, types.ModuleType):
        raise ExportError(getattr(value, "__name__", "module"), "a loaded C++ module",
                          "the module does not say which sources built it",
                          "export the CustomOpBuilder that loaded it (export_mindspore(builder, path)) or the "
                          "%%custom_op cell's op")
    raise TypeError(f"export_mindspore: expected an ops.Custom, a %%custom_op cell's op or a CustomOpBuilder, but got "
                    f"{type(value).__name__}")
