"""mskernel's IPython extension: ``%load_ext magics`` (or ``%load_ext mskernel``) registers
``%%custom_op``, ``%custom_op_info`` and ``%gradcheck`` (see :mod:`magics.custom_op`) and ``%kernel_bench``
(see :mod:`magics.bench`).

The magics are a thin adapter: options are parsed with IPython's ``magic_arguments`` and the work is
done by :mod:`mskernel.cells`, which runs without IPython.

Example:
    >>> from IPython.core.interactiveshell import InteractiveShell
    >>> shell = InteractiveShell.instance()
    >>> load_ipython_extension(shell)
    >>> sorted(m for m in shell.magics_manager.magics["cell"] if m == "custom_op")
    ['custom_op']
"""
from __future__ import annotations

from typing import Any

__all__ = ["load_ipython_extension"]


def load_ipython_extension(ipython: Any) -> None:
    """Register the ``%%custom_op`` magics with an IPython shell (what ``%load_ext magics`` calls).

    Example:
        >>> from IPython.core.interactiveshell import InteractiveShell
        >>> shell = InteractiveShell.instance()
        >>> load_ipython_extension(shell)
        >>> magics = shell.magics_manager.magics
        >>> "custom_op" in magics["cell"], "custom_op_info" in magics["line"], "gradcheck" in magics["line"]
        (True, True, True)
        >>> "kernel_bench" in magics["line"], "custom_op_export" in magics["line"]
        (True, True)
    """
    from magics.bench import BenchMagics
    from magics.custom_op import CustomOpMagics

    ipython.register_magics(CustomOpMagics)
    ipython.register_magics(BenchMagics)
