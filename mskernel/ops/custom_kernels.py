"""Kernel implementations behind ``ops.Custom``, one per func_type, behind one small interface.

A :class:`CustomKernel` turns input buffers (+ attribute values) into output buffers; it may
also infer output shapes/dtypes (hybrid kernels do, from their DSL). ``ops.Custom`` does the
rest (validation, op selection, autograd) the same way for every kind.

Example:
    >>> import numpy as np
    >>> from mskernel.ops.custom_kernels import PyFuncKernel, OutSpec
    >>> k = PyFuncKernel(lambda x: x * 2, "double", "For 'Custom'")
    >>> k.run([np.array([1.0, 2.0])], [], [OutSpec((2,), np.dtype("float64"))])
    [array([2., 4.])]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from mskernel.errors import MskernelError

__all__ = ["OutSpec", "CustomKernel", "PyFuncKernel", "HybridAdapter", "UnsupportedFuncTypeError", "make_kernel",
           "register_func_type", "RUNNABLE_FUNC_TYPES"]

RUNNABLE_FUNC_TYPES = ("pyfunc", "hybrid", "akg", "aot")


class UnsupportedFuncTypeError(MskernelError, ValueError):
    """A func_type that cannot run on this machine (Ascend-only kinds, julia)."""


class OutSpec(NamedTuple):
    """Shape and numpy dtype of one output."""

    shape: tuple
    dtype: np.dtype


class CustomKernel:
    """Interface of a Custom kernel kind.

    ``run(inputs, attrs, out_specs)`` returns one array per output spec. ``infer`` returns specs
    for kinds that can infer them (None otherwise). ``func_name`` labels graph nodes.
    """

    func_name: str = "?"

    def infer(self, shapes: Sequence[tuple], dtypes: Sequence[np.dtype], attrs: Sequence[Any]
              ) -> Optional[List[OutSpec]]:
        """Output specs from input shapes/dtypes, or None if this kind cannot infer them."""
        return None

    def run(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]) -> Sequence[np.ndarray]:
        """Compute the outputs (one array per spec)."""
        raise NotImplementedError


class PyFuncKernel(CustomKernel):
    """func_type "pyfunc": a Python function on numpy arrays (0-d inputs as Python scalars).

    Inputs are read-only zero-copy views; the returned arrays are checked against the inferred
    shapes and dtypes. A non-tuple result is output 0; a tuple must hold one item per output.
    """

    def __init__(self, func: Callable, func_name: str, prefix: str, no_output: bool = False,
                 scalar_output: bool = False) -> None:
        self.func = func
        self.func_name = func_name
        self.prefix = prefix
        self.no_output = no_output
        self.scalar_output = scalar_output

    def run(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]) -> List[np.ndarray]:
        args = []
        for a in inputs:
            if a.ndim == 0:
                args.append(a.item())
            else:
                v = a.view()
                v.flags.writeable = False
                args.append(v)
        result = self.func(*args, *attrs)
        if self.no_output:
            if result is not None:
                n = len(result) if isinstance(result, tuple) else 1
                raise ValueError(f"{self.prefix}, This CustomPyfunc must have no outputs, but got {n}")
            return [np.zeros(s.shape, s.dtype) for s in out_specs]
        items = list(result) if isinstance(result, tuple) else [result]
        if len(items) != len(out_specs):
            raise ValueError(f"{self.prefix}, The output num is: {len(items)}, with {len(out_specs)} expect.")
        outs = []
        for i, (item, spec) in enumerate(zip(items, out_specs)):
            if isinstance(item, np.ndarray):
                arr = item
            elif isinstance(item, (int, float, bool, complex, np.generic)) or item is None:
                if item is None:
                    raise TypeError(f"{self.prefix}, output {i} of the function is None; expected a numpy array "
                                    f"of shape {list(spec.shape)} and dtype {spec.dtype}.")
                arr = np.array(item, dtype=spec.dtype)
                if self.scalar_output or arr.shape != spec.shape:
                    arr = arr.reshape(spec.shape) if arr.size == int(np.prod(spec.shape)) else arr
            elif hasattr(item, "asnumpy"):
                arr = item.asnumpy()
            else:
                raise TypeError(f"{self.prefix}, output {i} of the function must be a numpy array, but got "
                                f"{type(item).__name__}.")
            if arr.shape != spec.shape:
                raise ValueError(f"{self.prefix}, output {i} has shape {list(arr.shape)}, but out_shape says "
                                 f"{list(spec.shape)}.")
            if arr.dtype != spec.dtype:
                raise TypeError(f"{self.prefix}, output {i} has dtype {arr.dtype}, but out_dtype says {spec.dtype}; "
                                f"cast it in the function (e.g. .astype(np.{spec.dtype})).")
            outs.append(arr)
        return outs


class HybridAdapter(CustomKernel):
    """func_type "hybrid"/"akg": the DSL compiled to native code by :mod:`mskernel.hybrid`."""

    def __init__(self, func: Callable, func_name: str, debug: Optional[bool]) -> None:
        from mskernel.hybrid import HybridKernel  # the compiler is only imported when a hybrid op is built
        self.kernel = HybridKernel.from_function(func, debug=debug)
        self.func_name = func_name

    def infer(self, shapes, dtypes, attrs):
        return [OutSpec(tuple(s), np.dtype(d)) for s, d in self.kernel.infer(shapes, dtypes, attrs)]

    def run(self, inputs, attrs, out_specs):
        return self.kernel.run(inputs, attrs)  # a tuple of fresh (or in-place input) arrays


_FACTORIES: Dict[str, Callable[..., CustomKernel]] = {}


def register_func_type(name: str, factory: Callable[..., CustomKernel]) -> None:
    """Plug a kernel kind in: ``factory(custom_op) -> CustomKernel``.

    Example:
        >>> register_func_type("pyfunc", _FACTORIES["pyfunc"])
    """
    _FACTORIES[name] = factory


def make_kernel(op: Any) -> CustomKernel:
    """The kernel for a constructed Custom op, by its func_type."""
    factory = _FACTORIES.get(op.func_type)
    if factory is None:
        raise UnsupportedFuncTypeError(
            f"{op.log_prefix}, func_type '{op.func_type}' cannot run here (it needs an Ascend device or a Julia "
            f"runtime); mskernel runs {', '.join(repr(t) for t in RUNNABLE_FUNC_TYPES)} kernels on the CPU.")
    return factory(op)


def _pyfunc_factory(op: Any) -> CustomKernel:
    return PyFuncKernel(op.func, op.func_name, op.log_prefix, no_output=op.fake_output,
                        scalar_output=op.single_scalar_output)


def _hybrid_factory(op: Any) -> CustomKernel:
    return HybridAdapter(op.func, op.func_name, op.debug)


def _aot_factory(op: Any) -> CustomKernel:
    from mskernel.aot import AotKernel  # built on the build layer
    return AotKernel(op)


register_func_type("pyfunc", _pyfunc_factory)
register_func_type("hybrid", _hybrid_factory)
register_func_type("akg", _hybrid_factory)
register_func_type("aot", _aot_factory)
