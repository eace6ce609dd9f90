"""The op table: one :class:`~mskernel.ops.opdef.Op` entry per MindSpore op, grouped by family.

Each module holds ``OPS``; :mod:`mskernel.ops.registry` builds the functional ops, primitive classes and
Tensor methods from them. Adding an op is one entry (and one golden case).

Example:
    >>> from mskernel.ops import table
    >>> sum(len(m.OPS) for m in table.MODULES) > 50
    True
"""
from mskernel.ops.table import (arith, creation, extremes, index, linalg, misc, nn, nn_conv, nn_norm, nn_pool,
                                nn_resize, random, rearrange, reduce, scan, shape, slicing, state, stats, unary)

MODULES = (arith, unary, reduce, extremes, scan, stats, shape, rearrange, slicing, index, linalg, creation, random,
           state, misc, nn, nn_resize, nn_conv, nn_pool, nn_norm)

__all__ = ["MODULES"]
