"""mskernel.kernelcheck -- run a kernel once in a checked build and say what a device would get wrong.

On a CPU mskernel runs a ``parallel`` loop serially when it cannot prove its iterations independent,
and zero-fills new memory as MindSpore's Python emulation does: right answers here, and the very
bugs that break the kernel on an Ascend or GPU device hidden. :func:`check_kernel` runs the op once
in a build that looks for them:

* a **hybrid** kernel (``ops.Custom`` hybrid/akg, a ``%%custom_op`` hybrid cell's op, a
  ``HybridKernel``) is compiled with a shadow per element -- written or not, and by which iteration
  of the enclosing parallel loops -- and new memory poisoned (:mod:`.hybrid`);
* a **C++** op (a C++ cell's op or module function, a ``CustomOpBuilder`` module's function) is
  built from the same source with AddressSanitizer and UndefinedBehaviorSanitizer and called in a
  child process, so the user's session never crashes (:mod:`.cpp`).

Both return a :class:`KernelCheck` of :class:`Finding` s.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel.hybrid import HybridKernel
    >>> hk = HybridKernel.from_source(
    ...     "def total(x):\\n    y = output_tensor((1,), x.dtype)\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n")
    >>> check = ms.check_kernel(hk, np.ones(4, np.float32))
    >>> check.ok, [(f.kind, f.tensor, f.index, f.line) for f in check.findings]
    (False, [('race', 'y', (0,), 4), ('uninitialised-read', 'y', (0,), 4)])
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

from .report import KINDS, Finding, KernelCheck

__all__ = ["check_kernel", "last_check", "KernelCheck", "Finding", "KINDS"]

_LAST: "weakref.WeakKeyDictionary[Any, KernelCheck]" = weakref.WeakKeyDictionary()
_LAST_BY_ID: dict[int, tuple[Any, KernelCheck]] = {}  # ops that take no weak reference (C++ functions)


def last_check(op: Any) -> Optional[KernelCheck]:
    """The report of the last :func:`check_kernel` of ``op`` in this session (None if it was never checked).

    Example:
        >>> last_check(object()) is None
        True
    """
    try:
        return _LAST.get(op)
    except TypeError:
        entry = _LAST_BY_ID.get(id(op))
        return entry[1] if entry is not None and entry[0] is op else None


def _remember(op: Any, check: KernelCheck) -> KernelCheck:
    try:
        _LAST[op] = check
    except TypeError:
        _LAST_BY_ID[id(op)] = (op, check)
    return check


def _hybrid_kernel_of(op: Any) -> Any:
    from mskernel.hybrid import HybridKernel

    if isinstance(op, HybridKernel):
        return op
    return getattr(op, "hybrid_kernel", None)


def _split(op: Any, inputs: tuple[Any, ...]) -> tuple[list[Any], list[Any]]:
    """(tensors, attributes) as the op itself splits its inputs."""
    import numpy as np

    from mskernel.common.tensor import Tensor

    split = getattr(op, "_split_args", None)
    if split is not None:  # ops.Custom: its registration's attributes, defaults included
        return split(tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in inputs))
    k = 0
    while k < len(inputs) and (isinstance(inputs[k], np.ndarray) or hasattr(inputs[k], "asnumpy")):
        k += 1
    return list(inputs[:k]), list(inputs[k:])


def _check_hybrid(op: Any, hk: Any, inputs: tuple[Any, ...]) -> KernelCheck:
    from .hybrid import check_hybrid

    tensors, attrs = _split(op, inputs)
    return check_hybrid(hk, tensors, attrs, name=hk.name)


def _cpp_target_of(op: Any) -> Any:
    from .cpp import cpp_target

    try:
        return cpp_target(op)
    except TypeError:
        return None


def _check_cpp(op: Any, target: Any, inputs: tuple[Any, ...]) -> KernelCheck:
    from .cpp import check_cpp

    return check_cpp(target, inputs)


#: which checked build runs which op: the first row whose ``find`` gives something (the op's hybrid kernel, its C++
#: build target) runs the op with it (one rule per line)
CHECKERS: list[tuple[str, Callable[[Any], Any], Callable[[Any, Any, tuple[Any, ...]], KernelCheck]]] = [
    ("hybrid", _hybrid_kernel_of, _check_hybrid),
    ("cpp", _cpp_target_of, _check_cpp),
]


def check_kernel(op: Any, *inputs: Any) -> KernelCheck:
    """Run ``op`` once on ``inputs`` in a checked build; a :class:`KernelCheck` of what it found.

    ``op`` is a hybrid op (``ops.Custom`` with ``func_type="hybrid"``/``"akg"``, a ``%%custom_op``
    hybrid cell's op, a :class:`~mskernel.hybrid.HybridKernel`) or a C++ op (a C++ cell's op or a
    function of its module, a function of a ``CustomOpBuilder`` module). ``inputs`` are what the op
    is called with: tensors (numpy arrays or Tensors), then scalar attributes.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> @ms.ops.kernel
        ... def scale(x):
        ...     y = output_tensor(x.shape, x.dtype)
        ...     for i in parallel(x.shape[0]):
        ...         y[i] = x[i] * 2.0
        ...     return y
        >>> op = ms.ops.Custom(scale, func_type="hybrid")
        >>> ms.check_kernel(op, np.arange(3, dtype=np.float32)).ok
        True
    """
    for _, find, run in CHECKERS:
        found = find(op)
        if found is not None:
            return _remember(op, run(op, found, inputs))
    func_type = getattr(op, "func_type", None)
    got = f"ops.Custom with func_type {func_type!r}" if isinstance(func_type, str) else type(op).__name__
    raise TypeError(f"check_kernel: op must be a hybrid op (ops.Custom with func_type 'hybrid' or 'akg', a "
                    f"%%custom_op hybrid cell's op, a HybridKernel) or a C++ op (a C++ cell's op or module "
                    f"function, a CustomOpBuilder module's function), but got {got}")
