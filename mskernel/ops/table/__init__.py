"""The op table: one :class:`~mskernel.ops.opdef.Op` entry per MindSpore op, grouped by family.

Each module holds ``OPS`` and ``EXAMPLES``; :mod:`mskernel.ops.registry` builds the functional ops, primitive
classes and Tensor methods from them, and puts each example into its op's or primitive's docstring (a primitive
called as its functional op shares that op's example). Adding an op is one entry, one example (and one golden
case).

Example:
    >>> from mskernel.ops import table
    >>> sum(len(m.OPS) for m in table.MODULES) > 50
    True
"""
from mskernel.ops.table import (arith, creation, extremes, index, linalg, misc, nn, nn_conv, nn_norm, nn_pool,
                                nn_resize, placing, random, rearrange, reduce, reorder, scan, scatter, segment, shape,
                                slicing, state, stats, unary)

MODULES = (arith, unary, reduce, extremes, scan, stats, shape, rearrange, slicing, index, scatter, segment, placing,
           reorder, linalg, creation, random, state, misc, nn, nn_resize, nn_conv, nn_pool, nn_norm)

__all__ = ["MODULES"]
