"""``mindspore.nn`` layers: basic layers, activations, convolutions, pooling, normalization, embedding,
recurrent and transformer layers, and the ``*Ext`` layers ``mindspore.mint.nn`` shares.

Example:
    >>> from mskernel.nn import layer
    >>> "Dense" in layer.__all__
    True
"""
from mskernel.nn.layer import (activation, basic, combined, conv, conv_nd, embedding, ext, normalization, padding,
                               pooling, pooling_nd, rnns, shuffle, transformer)
from mskernel.nn.layer.activation import *  # noqa: F401,F403
from mskernel.nn.layer.basic import *  # noqa: F401,F403
from mskernel.nn.layer.combined import *  # noqa: F401,F403
from mskernel.nn.layer.conv import *  # noqa: F401,F403
from mskernel.nn.layer.conv_nd import *  # noqa: F401,F403
from mskernel.nn.layer.embedding import *  # noqa: F401,F403
from mskernel.nn.layer.ext import *  # noqa: F401,F403
from mskernel.nn.layer.normalization import *  # noqa: F401,F403
from mskernel.nn.layer.padding import *  # noqa: F401,F403
from mskernel.nn.layer.pooling import *  # noqa: F401,F403
from mskernel.nn.layer.pooling_nd import *  # noqa: F401,F403
from mskernel.nn.layer.rnns import *  # noqa: F401,F403
from mskernel.nn.layer.shuffle import *  # noqa: F401,F403
from mskernel.nn.layer.transformer import *  # noqa: F401,F403

__all__ = [*activation.__all__, *basic.__all__, *combined.__all__, *conv.__all__, *conv_nd.__all__, *embedding.__all__,
           *ext.__all__,
           *normalization.__all__, *padding.__all__, *pooling.__all__, *pooling_nd.__all__, *rnns.__all__,
           *shuffle.__all__, *transformer.__all__]
