"""``mindspore.nn.utils``: helpers for building networks (``no_init_parameters``).

Example:
    >>> from mskernel.nn import utils
    >>> utils.__all__
    ['no_init_parameters']
"""
from mskernel.nn.utils.init import no_init_parameters

__all__ = ["no_init_parameters"]
