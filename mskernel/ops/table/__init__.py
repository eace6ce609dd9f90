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
from mskernel.ops.table import (arith, comm, complexnum, conv_variants, creation, decomp, detection, distorted_box,
                                extremes, fft, grid_sample3d, image_crop, image_resize_kernels, index, linalg, matrix,
                                misc, nms, nn, nn_conv, nn_conv_nd, nn_ctc, nn_fold, nn_fused, nn_grid, nn_loss_margin,
                                nn_norm, nn_pool, nn_pool3d, nn_pool_fractional, nn_recurrent, nn_resize,
                                nn_resize_prims, nn_transducer, nn_unpool, norms, numeric, optim_apply,
                                optim_apply_sparse, optim_fused, ordering, patches, placing, primitives_only, random,
                                random_sampling, rearrange, reduce, reorder, rotated_boxes, scan, scatter, segment,
                                shape, slicing, space_batch, sparse, sparse_sequences, special, state, stats,
                                stats_more, thin, unary)
from mskernel.ops.table import embedding_cache

MODULES = (arith, unary, reduce, extremes, scan, stats, shape, rearrange, slicing, index, ordering, linalg, creation,
           random, random_sampling, state, misc, nn, nn_resize, nn_conv, nn_pool, nn_norm, special, numeric, complexnum,
           detection, primitives_only, scatter, segment, placing, nn_loss_margin, optim_apply, optim_apply_sparse,
           norms, stats_more, decomp, matrix, fft, sparse, nn_ctc, nn_resize_prims, nn_conv_nd, nn_fold, nn_pool3d,
           nn_unpool, nn_fused, nn_grid, reorder, comm, thin, image_crop, image_resize_kernels, patches, space_batch,
           conv_variants, grid_sample3d, nms, distorted_box, rotated_boxes, nn_recurrent, nn_pool_fractional,
           sparse_sequences, nn_transducer, optim_fused, embedding_cache)

__all__ = ["MODULES"]
