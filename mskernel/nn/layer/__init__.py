"""``mindspore.nn`` layers: basic layers and activations.

Example:
    >>> from mskernel.nn import layer
    >>> "Dense" in layer.__all__
    True
"""
from mskernel.nn.layer import activation, basic
from mskernel.nn.layer.activation import *  # noqa: F401,F403
from mskernel.nn.layer.basic import *  # noqa: F401,F403

__all__ = [*activation.__all__, *basic.__all__]
