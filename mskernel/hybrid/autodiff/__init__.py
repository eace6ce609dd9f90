"""Automatic backward for hybrid kernels: reverse mode on the kernel IR, emitted as DSL.

:func:`backward_kernel` derives, from a forward kernel specialised to a signature, a backward
kernel ``(inputs..., outputs..., douts..., attrs...) -> one gradient per float input`` as
hybrid-DSL text, which compiles through the same compiler (and runs as Python too). Loops
whose trip counts vary (triangular, ragged, bounds read from a tensor) are handled with
stacks. What it cannot differentiate correctly -- a value the backward needs that the kernel
overwrote in an input, a loop whose step is not a constant or whose bounds come from a tensor
the kernel overwrites afterwards or from a variable assigned more than once, an intrinsic
without a derivative rule -- raises a :class:`~mskernel.hybrid.errors.HybridError` at the
forward line, suggesting a bprop.

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

import hashlib
import linecache
from dataclasses import replace
from typing import Optional

from ..check import Signature
from ..hybrid_kernel import HybridKernel
from .assemble import annotate, build
from .builder import BackwardSource

__all__ = ["BackwardSource", "build", "backward_kernel"]


def backward_kernel(kernel: HybridKernel, sig: Signature, comments: bool = False
                    ) -> tuple[Optional[HybridKernel], BackwardSource]:
    """The backward of ``kernel`` for ``sig``: ``(HybridKernel or None, BackwardSource)``.

    ``comments=True`` puts ``# line N: <forward line>`` above the adjoint of each forward
    statement (N is the forward's line in its file or cell), for a reader of the text.

    None when no input is a float tensor (nothing to differentiate). Derived anew on each call:
    ``ops.Custom`` keeps the one it uses, per signature. The text is parsed once -- a second
    time only when a ``parallel`` loop cannot stay parallel and is turned to run backwards
    (:func:`~mskernel.hybrid.autodiff.assemble.annotate`). The backward kernel takes the debug
    and rebuild settings of ``kernel``; its text is in ``linecache`` under its file name, so
    tracebacks and ``inspect.getsource`` of its Python function show it.

    Example:
        >>> hk = HybridKernel.from_source("def f(n):\\n    y = output_tensor((3,), 'int32')\\n    return y\\n")
        >>> backward_kernel(hk, hk.signature(["int32"], [1]))[0] is None  # no float input
        True
        >>> twice = HybridKernel.from_source("def twice(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = 2.0 * x[i]\\n    return y\\n")
        >>> text = backward_kernel(twice, twice.signature(["float32"], [1]), comments=True)[1].source
        >>> [line.strip() for line in text.splitlines() if line.strip().startswith("# line")]
        ['# line 4: y[i] = 2.0 * x[i]']
    """
    src = build(kernel.specialize(sig), comments)
    if not src.source:
        return None, src
    filename = f"<backward of {kernel.name} {hashlib.sha256(src.source.encode()).hexdigest()[:12]}>"
    bk = HybridKernel.from_source(src.source, src.name, filename=filename, debug=kernel._debug, warn=False)
    text, turned = annotate(bk.ir, src)
    if turned:  # a loop now runs backwards: the kernel must be the one of the final text
        bk = HybridKernel.from_source(text, src.name, filename=filename, debug=kernel._debug, warn=False)
    else:  # only comments changed: the lines the kernel shows in messages take them
        bk.ir.lines.update(enumerate(text.split("\n"), bk.ir.def_line))
    bk.rebuild = kernel.rebuild
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    return bk, replace(src, source=text)
