"""func_type "pyfunc": a Python function on numpy arrays.

Example:
    >>> import numpy as np
    >>> from mskernel.kernels.base import OutSpec
    >>> k = PyFuncKernel(lambda x: x * 2, "double", "For 'Custom'")
    >>> k.run([np.array([1.0, 2.0])], [], [OutSpec((2,), np.dtype("float64"))])
    [array([2., 4.])]
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from mskernel.kernels.base import CustomKernel, OutSpec
from mskernel.kernels.percall import percall

__all__ = ["PyFuncKernel"]


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
        return self._outputs(self.func(*args, *attrs), out_specs)

    def runner(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]
               ) -> Callable[[tuple], Optional[tuple]]:
        """The function called with read-only views (0-d inputs as scalars, known for this signature); a
        result that is exactly the arrays the specs describe is returned as is, anything else goes through
        the full conversion and checks."""
        if self.no_output:
            return super().runner(inputs, attrs, out_specs)
        specs = list(out_specs)
        scalars = bytes(a.ndim == 0 for a in inputs)
        want = (out_specs[0].shape, out_specs[0].dtype) if len(out_specs) == 1 else None

        def convert(result: Any) -> tuple:
            return tuple(self._outputs(result, specs))
        # the call is percall's pyfunc_call (C): read-only views in, and the one expected array out as it is
        return percall().PyfuncRunner((self.func, scalars, tuple(attrs), want, convert))

    def _outputs(self, result: Any, out_specs: List[OutSpec]) -> List[np.ndarray]:
        """The function's result as one checked array per output spec."""
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

    @classmethod
    def from_op(cls, op: Any) -> "PyFuncKernel":
        """The kernel of an ``ops.Custom(func, ..., func_type="pyfunc")`` op."""
        return cls(op.func, op.func_name, op.log_prefix, no_output=op.fake_output,
                   scalar_output=op.single_scalar_output)
