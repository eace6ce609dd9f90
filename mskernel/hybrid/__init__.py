"""mskernel.hybrid -- MindSpore's akg "hybrid" DSL, compiled to C++ on the CPU.

Write a kernel as a Python function over explicit loops; decorate it with :func:`kernel`
(or not: ``ops.Custom(func_type="akg")`` accepts plain functions). It runs three ways:
as Python on numpy arrays (MindSpore's emulation, the reference semantics), compiled to C++
(:class:`HybridKernel`), or inside ``ops.Custom(func_type="hybrid")``.

    >>> import numpy as np
    >>> from mskernel.hybrid import kernel, HybridKernel
    >>> @kernel
    ... def axpy(x, y, a):
    ...     out = output_tensor(x.shape, x.dtype)
    ...     for i in range(x.shape[0]):
    ...         out[i] = a * x[i] + y[i]
    ...     return out
    >>> x = np.arange(4, dtype=np.float32); y = np.ones(4, np.float32)
    >>> axpy(x, y, 2.0)                                   # Python (numpy) emulation
    array([1., 3., 5., 7.], dtype=float32)
    >>> HybridKernel.from_function(axpy).run([x, y], [2.0])[0]   # compiled C++
    array([1., 3., 5., 7.], dtype=float32)

The DSL (and how it maps to C++)
--------------------------------
* **Calling**: ``HybridKernel.run(tensors, attrs)`` compiles once per signature (dtypes, ranks,
  attribute types, debug), allocates the outputs zero-filled (as the emulation does; uninitialised
  when the kernel provably writes them in full first, see ``coverage``; or takes
  ``out=[...]``) and calls the kernel on the arrays' own buffers through a small C dispatcher
  (~1-2 us per call). Non-contiguous inputs are read through their strides (the kernel has a
  contiguous and a strided instantiation); nothing is copied except arrays the kernel cannot
  read in place (non-native byte order, unaligned) or an in-place input overlapping another.
* **Parameters**: leading tensors (numpy arrays or objects with ``.asnumpy()``), then scalar
  attributes (``bool`` -> ``bool``, ``int`` -> ``int64_t``, ``float`` -> ``double``). Tensor
  ``x`` becomes a pointer ``x`` with runtime extents ``x_n0..`` and element strides ``x_s0..``:
  **shapes are runtime values**, so a new shape never recompiles.
* **Tensors**: ``output_tensor(shape, dtype)`` (an output, allocated zero-filled by the caller,
  at the top level), ``allocate(shape, dtype)`` (a zero-filled temporary, ``mskh::Buffer``).
  ``shape`` is a tuple/list of integer expressions or ``t.shape``; ``dtype`` a string
  (``"float32"``), a dtype name (``float32``) or ``t.dtype``. Dtypes: bool, int8-64,
  uint8-64, float16 (``_Float16``, computed in float), float32, float64. ``t.shape[k]``,
  ``len(t.shape)`` and ``t.dtype`` are the only attributes. Every access indexes every
  dimension (``c[i, j]`` or ``c[i][j]``); a grid variable can be the whole index (``c[arg]``).
* **Loops**: ``for v in range|serial|parallel|vectorize|reduce(stop | start, stop[, step])``
  -> a C++ ``for`` over ``int64_t``; bounds are evaluated once. ``grid(shape)`` -> nested
  loops, ``arg`` is an index tuple (``arg[0]``) or unpacked (``for i, j in grid(...)``).
  ``parallel`` -> mskernel's thread pool (``mskh::parallel_for``: the calling thread and the
  workers that wake take chunks of iterations; :mod:`~mskernel.hybrid.threads` says how many
  threads and how to pin them) on the outermost such loop when its iterations are provably
  independent (else serial, with a comment saying why) and its estimated work reaches
  ``codegen.PARALLEL_MIN_WORK`` (else on the calling thread); ``vectorize`` ->
  ``#pragma omp simd`` on an independent innermost loop. ``reduce`` declares a reduction: an
  innermost ``reduce`` loop (constant step) accumulating a sum, product, max or min into a scalar
  declared outside it or into one fixed tensor element (``s = s + x[i, j]``, ``y[i] += x[i, j]``,
  ``m = max(m, x[i])``; the accumulator read nowhere else in the loop, the rest of the body
  independent between iterations) -> ``#pragma omp simd reduction`` over SIMD lanes, the element
  kept in a local. Integer reductions and float max/min are exact (NaN and signed zeros as in
  order: write ``max(m, e)``, the accumulator first). Float sums are *reassociated*: blocks of
  1024 iterations over SIMD lanes, block sums added pairwise -- the rounding differs from the
  serial chain's, always within ``(n - 1) * u * sum(|terms|)`` of the exact sum and usually much
  closer; an intermediate overflow can differ, and an exactly-zero sum may be +0.0 where the
  serial order gives -0.0. Float products are reassociated over lanes; float16 accumulators stay
  serial. A reduce loop of fewer than 32 iterations (16 for max/min and integers) runs in order.
  A ``range``/``serial`` loop always accumulates in order, bit for bit as the emulation;
  the emulation, debug builds and a MindSpore export keep every loop as written. The generated
  loop says what it did (``HybridKernel.source``, ``%%custom_op --show-source``;
  :mod:`mskernel.hybrid.reduction`).
  A large elementwise loop that only writes fresh outputs gets a vectorized version with
  non-temporal (streaming) stores, used for outputs of 2 MB and more. In float32 kernels, exp expm1
  log sin cos tanh atan erf atan2 power in a loop the compiler vectorizes call glibc's SIMD variants
  (libmvec: within 1-4 ulp, the class of numpy's float32 functions; float64 kernels keep the scalar
  ones): :mod:`mskernel.hybrid.vector_math`, ``MSKERNEL_VECTOR_MATH=off|float32|all``.
* **Statements**: ``t[...] = e`` and augmented forms, scalar ``v = e`` (the first assignment
  declares ``v``; it lives in the innermost enclosing ``for``, MindSpore's rule), ``if/elif/
  else``, ``with attr(...)/block_realize(...)`` (no-ops), ``pass``, docstrings, and one final
  ``return t`` / ``return (t1, t2)`` of inputs (in-place outputs) and every output_tensor.
* **Expressions**: ``+ - * / // % **``, ``& | ^ << >> ~``, comparisons (chained too),
  ``and/or/not``, ``a if c else b``; intrinsics sqrt rsqrt exp expm1 log sin cos tanh atan
  atan2 erf abs sign floor ceil trunc round isnan isinf isfinite power ceil_div max min and
  casts int8 int16 int32 int64 float16 float32 float64.
* **Types** follow numpy (NEP 50) exactly as the Python emulation computes them: literals,
  loop variables, extents and attributes are *weak* (Python scalars) and take the other
  operand's dtype (int literals alone are int, float literals float; ``int32 / int32`` is
  float64); two different tensor dtypes never mix implicitly -- the error names both and asks
  for a cast. ``//`` and ``%`` round toward -inf like Python on ints and floats; integer
  division by zero gives 0 (numpy's value); narrow ints wrap; float16 is computed in float32
  and rounded on store (numpy rounds after every operation: results can differ by an ulp).
  Compiled code uses exact IEEE arithmetic (no FMA contraction, no fast-math).
* **Not supported** (each rejected with a located :class:`HybridError`): ``while``,
  ``break``, ``continue``, slicing, whole-tensor expressions (``C = A + B``), calls other than
  intrinsics (``np.sqrt``), nested functions, ``a = b = c``, assigning a loop variable, a
  parameter or a tensor name, output_tensor inside a loop/branch, allocate inside a branch,
  statements after return. Negative indices are out of bounds in compiled code (an
  ``IndexError``) although numpy would wrap them.

Errors
------
Every rule violation raises :class:`HybridError` (a ``TypeError`` *and* a ``ValueError``, as
MindSpore raises either) saying what is not allowed and what is allowed there instead (the
statements or expressions of the DSL, the intrinsics, the nearest name to a typo), with the
kernel name, file, line, column and the line with a caret -- before any C++ exists. Dtype
errors are found per signature (at ``infer``/``compile``/``run``). Compiled kernels are safe
without debug: an out-of-range access raises ``IndexError`` naming the tensor, the indices, its
shape and the DSL line, never touching memory. Each loop nest's accesses are proved in bounds
once, before it runs, from the loop ranges, guards and shapes (:mod:`mskernel.hybrid.bounds`;
zero cost inside the loops), a nest whose proof fails runs a checked copy, and accesses no
proof covers (``x[idx[i]]``) are checked one by one. An ``allocate`` with a negative extent
raises ``ValueError``, one too large ``MemoryError``, both at its line. ``HybridKernel(...,
debug=True)`` / :func:`set_debug` / ``MSKERNEL_HYBRID_DEBUG=1`` check every access individually
instead (slower; for stepping through a kernel's failures).

What is right here but wrong on a device is warned about once, when the kernel is built:
a :class:`PortabilityWarning` (a ``UserWarning``) at the user's line, naming the loop, the tensor
and the two accesses, for a ``parallel``/``vectorize`` loop whose iterations provably may touch
one element (one writing) -- it runs serially here, it races on a device -- and for an
``output_tensor``/``allocate`` buffer provably read before any write (zero here, garbage on a
device); ``HybridKernel.portability`` lists the same issues (:mod:`mskernel.hybrid.portability`),
and ``export_mindspore`` refuses a racing kernel unless ``allow_races=True``.
"""
from __future__ import annotations

from .config import get_debug, set_debug
from .dsl import is_kernel, kernel, ms_kernel
from .errors import HybridError, HybridInternalError
from .intrinsics import (allocate, attr, block_realize, ceil_div, erf, grid, output_tensor,
                         parallel, reduce, rsqrt, serial, vectorize)
from .hybrid_kernel import HybridKernel
from .portability import PortabilityIssue, PortabilityWarning

__all__ = [
    "kernel", "ms_kernel", "is_kernel", "HybridKernel", "HybridError", "HybridInternalError",
    "PortabilityWarning", "PortabilityIssue", "set_debug", "get_debug",
    # intrinsics, for `from mskernel.hybrid import *` (the rest are numpy functions)
    "output_tensor", "allocate", "serial", "parallel", "vectorize", "reduce", "grid", "attr",
    "block_realize", "rsqrt", "erf", "ceil_div", "sqrt", "exp", "expm1", "log", "sin", "cos",
    "tanh", "atan", "atan2", "sign", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite",
    "power", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
]


def __getattr__(name: str):  # numpy-backed intrinsics, resolved lazily to keep the namespace lean
    from .intrinsics import INTRINSICS

    intr = INTRINSICS.get(name)
    if intr is not None and name in __all__:
        return intr.fn
    raise AttributeError(f"module 'mskernel.hybrid' has no attribute {name!r}")
