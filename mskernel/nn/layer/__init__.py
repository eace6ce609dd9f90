"""``mindspore.nn`` layers: basic layers, activations, convolutions, pooling, normalization, embedding,
recurrent and transformer layers, and the ``*Ext`` layers ``mindspore.mint.nn`` shares.

Example:
    >>> from mskernel.nn import layer
    >>> "Dense" in layer.__all__
    True
"""
from mskernel.nn.layer import (activation, basic, combined, conv, conv_nd, embedding, ext, image, math, matrix,
                               normalization, padding, pooling, pooling_nd, regularizer, rnns, shuffle, sparse,
                               transformer, op_cells, pooling_fractional, embedding_fields, sync_batch_norm)
from mskernel.nn.layer import thor_layer

#: the layer modules; the package re-exports each one's public names
MODULES = (activation, basic, combined, conv, conv_nd, embedding, ext, image, math, matrix, normalization, padding,
           pooling, pooling_nd, regularizer, rnns, shuffle, sparse, transformer, op_cells,
           pooling_fractional, embedding_fields, sync_batch_norm, thor_layer)
for _mod in MODULES:
    globals().update({_name: getattr(_mod, _name) for _name in _mod.__all__})

__all__ = [_name for _mod in MODULES for _name in _mod.__all__]
