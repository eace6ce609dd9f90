"""The interface every ``ops.Custom`` kernel kind implements, and the registry of kinds by func_type.

A :class:`CustomKernel` turns input buffers (+ attribute values) into output buffers; it may
also infer output shapes/dtypes (hybrid kernels do, from their DSL). ``ops.Custom`` does the
rest (validation, op selection, autograd) the same way for every kind. The kinds are registered
in :mod:`mskernel.ops.custom.kinds` (one line each); :func:`register_func_type` plugs in another.

Example:
    >>> import numpy as np
    >>> class Twice(CustomKernel):
    ...     def run(self, inputs, attrs, out_specs):
    ...         return [2 * inputs[0]]
    >>> Twice().run([np.array([1.0, 2.0])], [], [OutSpec((2,), np.dtype("float64"))])
    [array([2., 4.])]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from mskernel.errors import MskernelError

__all__ = ["OutSpec", "CustomKernel", "UnsupportedFuncTypeError", "KINDS", "make_kernel", "register_func_type"]


class UnsupportedFuncTypeError(MskernelError, ValueError):
    """A func_type that cannot run on this machine (Ascend-only kinds, julia).

    Example:
        >>> import mskernel as ms
        >>> ms.ops.Custom(lambda x: x, lambda s: s, lambda d: d, func_type="tbe")
        Traceback (most recent call last):
        ...
        mskernel.kernels.base.UnsupportedFuncTypeError: For 'Custom', 'func_type': tbe, 'func': <lambda>, func_type 'tbe' cannot run here (it needs an Ascend device); mskernel runs 'pyfunc', 'hybrid', 'akg' and 'aot' kernels on the CPU.
    """  # noqa: E501


class OutSpec(NamedTuple):
    """Shape and numpy dtype of one output.

    Example:
        >>> spec = OutSpec((2, 3), np.dtype("float32"))
        >>> spec.shape, spec.dtype
        ((2, 3), dtype('float32'))
    """

    shape: tuple
    dtype: np.dtype


class CustomKernel:
    """Interface of a Custom kernel kind.

    ``run(inputs, attrs, out_specs)`` returns one array per output spec. ``infer`` returns specs
    for kinds that can infer them (None otherwise). ``func_name`` labels graph nodes.

    Example:
        >>> class AddOne(CustomKernel):  # a kind that infers its output: same shape and dtype as the input
        ...     func_name = "add_one"
        ...     def infer(self, shapes, dtypes, attrs):
        ...         return [OutSpec(shapes[0], dtypes[0])]
        ...     def run(self, inputs, attrs, out_specs):
        ...         return [inputs[0] + 1]
        >>> k = AddOne()
        >>> specs = k.infer([(2,)], [np.dtype("float32")], [])
        >>> specs, k.run([np.zeros(2, np.float32)], [], specs)
        ([OutSpec(shape=(2,), dtype=dtype('float32'))], [array([1., 1.], dtype=float32)])
    """

    func_name: str = "?"

    def infer(self, shapes: Sequence[tuple], dtypes: Sequence[np.dtype], attrs: Sequence[Any]
              ) -> Optional[List[OutSpec]]:
        """Output specs from input shapes/dtypes, or None if this kind cannot infer them."""
        return None

    def run(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]) -> Sequence[np.ndarray]:
        """Compute the outputs (one array per spec)."""
        raise NotImplementedError

    def runner(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]
               ) -> Callable[[tuple], Optional[tuple]]:
        """The per-call function for one call signature, made after ``run(inputs, attrs, out_specs)``
        succeeded: ``runner(arrays)`` (arrays of the same shapes and dtypes as ``inputs``) returns the
        outputs as a tuple, or None to send this call through :meth:`run`. Kinds override it to do once
        what does not change between calls.

        Example:
            >>> class Twice(CustomKernel):
            ...     def run(self, inputs, attrs, out_specs):
            ...         return [inputs[0] * 2]
            >>> x = np.ones(2, np.float32)
            >>> Twice().runner([x], [], [OutSpec((2,), np.dtype("float32"))])((x,))
            (array([2., 2.], dtype=float32),)
        """
        run, attrs, specs = self.run, list(attrs), list(out_specs)
        return lambda arrays: tuple(run(list(arrays), attrs, specs))


KINDS: Dict[str, Callable[[Any], CustomKernel]] = {}  # func_type -> factory(custom_op); filled by ops.custom.kinds


def register_func_type(name: str, factory: Callable[[Any], CustomKernel]) -> None:
    """Plug a kernel kind in: ``factory(custom_op) -> CustomKernel`` builds the kernel of an op of that func_type.

    Example:
        >>> import mskernel.ops
        >>> register_func_type("pyfunc", KINDS["pyfunc"])
    """
    if not isinstance(name, str) or not callable(factory):
        raise TypeError(f"register_func_type expects a func_type name (str) and a callable factory, but got "
                        f"{type(name).__name__} and {type(factory).__name__}.")
    KINDS[name] = factory


def make_kernel(op: Any) -> CustomKernel:
    """The kernel for a constructed Custom op, by its func_type.

    Example:
        >>> import mskernel as ms
        >>> op = ms.ops.Custom(lambda x: x * 2, lambda s: s, lambda d: d, func_type="pyfunc")
        >>> k = make_kernel(op)
        >>> type(k).__name__, k.run([np.array([1.0, 2.0], np.float32)], [], [OutSpec((2,), np.dtype("float32"))])
        ('PyFuncKernel', [array([2., 4.], dtype=float32)])
    """
    factory = KINDS.get(op.func_type)
    if factory is None:
        raise UnsupportedFuncTypeError(
            f"{op.log_prefix}, func_type '{op.func_type}' cannot run here (it needs an Ascend device or a Julia "
            f"runtime); mskernel runs {', '.join(repr(t) for t in KINDS)} kernels on the CPU.")
    return factory(op)
