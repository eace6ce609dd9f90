"""mskernel's IPython extension: the ``%%custom_op`` cell magics will live here.

They are not implemented yet (they are the next step on the roadmap); loading the extension says
so instead of silently registering nothing. Until then, build C++ ops with
``mskernel.ops.CustomOpBuilder`` and hybrid kernels with ``ops.Custom(func_type="hybrid")``.

Example:
    >>> try:
    ...     load_ipython_extension(None)
    ... except NotImplementedError as e:
    ...     print(str(e).split(";")[0])
    the %%custom_op magics are not implemented yet
"""


def load_ipython_extension(ipython: object) -> None:
    """Register mskernel's magics with an IPython shell (not available yet: raises)."""
    raise NotImplementedError("the %%custom_op magics are not implemented yet; in the meantime use "
                              "mskernel.ops.CustomOpBuilder for C++ ops and ops.Custom(func_type='hybrid') "
                              "for hybrid kernels (see notebooks/03 and 04).")
