"""mskernel's IPython extension (``%load_ext magics``): the ``%%custom_op`` cell magic lands here.

The magics are thin: they parse options, call the library, and render results and errors for a
notebook. Nothing is registered yet beyond the extension hook.

Example:
    >>> callable(load_ipython_extension)
    True
"""


def load_ipython_extension(ipython) -> None:  # pragma: no cover - filled in by the magics issue
    """Register mskernel's magics with an IPython shell."""
