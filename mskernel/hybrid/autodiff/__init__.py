"""Automatic backward for hybrid kernels: reverse mode on the kernel IR, emitted as DSL.

:func:`backward_source` derives, from a forward kernel specialised to a signature, a backward
kernel ``(inputs..., outputs..., douts..., attrs...) -> one gradient per float input`` as
hybrid-DSL text, which compiles through the same compiler (and runs as Python too). What it
cannot differentiate correctly -- a value the backward needs that the kernel overwrote in
an input, loops whose bounds come from tensor data -- raises a
:class:`~mskernel.hybrid.errors.HybridError` at the forward line, suggesting a bprop.

Example:
    >>> import numpy as np
    >>> from mskernel.hybrid import HybridKernel
    >>> from mskernel.hybrid.autodiff import backward_kernel
    >>> hk = HybridKernel.from_source(
    ...     "def outer(a, b):\\n    c = output_tensor((a.shape[0], b.shape[0]), a.dtype)\\n"
    ...     "    for i in range(a.shape[0]):\\n        for j in range(b.shape[0]):\\n"
    ...     "            c[i, j] = a[i] * b[j]\\n    return c\\n")
    >>> a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])
    >>> bw, src = backward_kernel(hk, hk.signature([a.dtype, b.dtype], [1, 1]))
    >>> c = hk(a, b)
    >>> da, db = bw.run([a, b, c, np.ones_like(c)])
    >>> da, db
    (array([12., 12.]), array([3., 3., 3.]))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .builder import BackwardSource, build

if TYPE_CHECKING:
    from ..check import Signature
    from ..hybrid_kernel import HybridKernel

__all__ = ["BackwardSource", "build", "backward_kernel"]


def backward_kernel(kernel: "HybridKernel", sig: "Signature") -> tuple[Any, BackwardSource]:
    """The backward of ``kernel`` for ``sig``: ``(HybridKernel or None, BackwardSource)``, cached.

    None when no input is a float tensor (nothing to differentiate).
    """
    from ..hybrid_kernel import HybridKernel

    cache = kernel.__dict__.setdefault("_backwards", {})
    key = (sig.dtypes, sig.ranks, sig.attr_types)
    if key not in cache:
        src = build(kernel.specialize(sig))
        bk = None
        if src.source:
            bk = HybridKernel.from_source(src.source, src.name, filename=f"<backward of {kernel.name}>",
                                          debug=kernel._debug)
        cache[key] = (bk, src)
    return cache[key]  # type: ignore[no-any-return]
