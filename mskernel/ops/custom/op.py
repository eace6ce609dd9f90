"""``ops.Custom``, the class: one op composed of the parts of :mod:`mskernel.ops.custom`.

Construction checks ``func`` against its func_type (:mod:`~mskernel.ops.custom.kinds`) and the output specs
(:mod:`~mskernel.ops.custom.inference`), registers the operator information
(:mod:`~mskernel.ops.custom.registration`) and builds the kernel of the func_type. A call is planned once per
signature (:mod:`~mskernel.ops.custom.plans`): its arguments are split into Tensors and attribute values
(:mod:`~mskernel.ops.custom.arguments`), its outputs inferred, its dtypes matched against the registered rows
(:mod:`~mskernel.ops.custom.selection`); then the kernel runs and, when an input is tracked, one engine node
is recorded (:mod:`~mskernel.ops.custom.backward`). This module holds the composition: the attributes
MindSpore's ``Custom`` has (``func``, ``func_type``, ``out_shape``, ``out_dtype``, ``bprop``, ``reg_info``'s
``reg``/``attr_specs``/``input_names``, ``uniq_name``, ...), the planning call, and the public methods.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> def square(x): return x * x
    >>> def bprop(x, out, dout): return (2 * x * dout,)
    >>> op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=bprop)
    >>> print(ms.grad(op)(ms.Tensor(np.array([1.0, 4.0, 9.0], np.float32))))
    [ 2.  8. 18.]
"""
from __future__ import annotations

import hashlib
import inspect
import textwrap
from typing import Any, Callable, Dict, List, Optional, Tuple

from mskernel._accel import cengine
from mskernel.autograd.node import STATE
from mskernel.common.tensor import Tensor
from mskernel.kernels import make_kernel
from mskernel.kernels.hybrid import HybridAdapter
from mskernel.ops.custom.arguments import split_args
from mskernel.ops.custom.backward import CustomBackward
from mskernel.ops.custom.inference import OutputInference, check_specs, static_output_count
from mskernel.ops.custom.kinds import check_func
from mskernel.ops.custom.plans import PlanCache
from mskernel.ops.custom.registration import Registration, parameter_count
from mskernel.ops.custom.selection import select
from mskernel.ops.primitive import PrimitiveWithInfer

__all__ = ["Custom"]


class Custom(PrimitiveWithInfer):
    """``Custom(func, out_shape=None, out_dtype=None, func_type="hybrid", bprop=None, reg_info=None)``.

    func_type "pyfunc" runs a Python function on numpy arrays; "hybrid"/"akg" compile the akg
    hybrid DSL to native code; "aot" loads a C ABI function from a shared library (or builds a
    .cc/.cpp). "tbe", "aicpu" and "julia" cannot run here and raise a clear error.

    ``out_shape``/``out_dtype`` are infer functions (one argument per call input) or fixed
    values; a tuple of shapes means several outputs. ``bprop(*inputs, out, dout)`` returns one
    gradient per input (a single Tensor is wrapped in a tuple, as MindSpore's PyNative does).
    Extra keyword: ``debug`` (hybrid kernels: bounds-checked code).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> add_mul = ops.Custom(lambda a, b: (a + b, a * b), out_shape=lambda a, b: (a, a),
        ...                      out_dtype=lambda a, b: (a, a), func_type="pyfunc")
        >>> s, p = add_mul(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
        >>> print(s, p)
        [4. 6.] [3. 8.]
    """

    def __init__(self, func: Any, out_shape: Any = None, out_dtype: Any = None, func_type: str = "hybrid",
                 bprop: Optional[Callable] = None, reg_info: Any = None, *, debug: Optional[bool] = None) -> None:
        super().__init__("Custom")
        self.func = func
        self.func_type = func_type
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.bprop = bprop
        self.debug = debug
        self.func_name = getattr(func, "__name__", None) if callable(func) else str(func)
        self.log_prefix = "For '{}', 'func_type': {}, 'func': {}".format(self.name, func_type, self.func_name)
        check_func(func_type, func, self.log_prefix)
        check_specs(out_shape, out_dtype, func_type, self.log_prefix)
        if bprop is not None and not callable(bprop):
            raise TypeError(f"{self.log_prefix}, 'bprop' must be a function, but got {type(bprop).__name__}.")
        self.fake_output = func_type == "pyfunc" and not out_dtype and out_dtype is not None
        self.single_scalar_output = func_type == "pyfunc" and bool(out_dtype) and out_shape == ()
        self._source = _source_of(func)
        self.uniq_name = self._uniq_name()
        self.add_prim_attr("func_type", func_type)
        self.add_prim_attr("uniq_name", self.uniq_name)
        self._registration = Registration(reg_info if reg_info is not None else getattr(func, "reg_info", None),
                                          func_type, self.log_prefix, n_params=parameter_count(func),
                                          n_outputs=static_output_count(out_dtype), fake_output=self.fake_output)
        self.reg_infos = self._registration.by_target
        self.reg = self._registration.chosen
        self.attr_specs = self._registration.attr_specs
        self.input_names = self._registration.input_names
        self._kernel = make_kernel(self)
        self._infer = OutputInference(out_shape, out_dtype, func_type, self._kernel, self.log_prefix)
        self._plan_cache = PlanCache()
        self._fast = self._plan_cache.fast  # the engine core runs these (see mskernel.ops.custom.plans)
        self._last: Optional[tuple] = None  # (signature, plan) of the previous planned call (the engine core's)
        self._backward = CustomBackward(bprop, self._kernel, self._split_args, self.log_prefix, self._describe())

    def _uniq_name(self) -> str:
        if callable(self.func):
            src = self._source if self._source is not None else repr(self.func)
            return f"Custom_{self.func_name}_{hashlib.sha256(src.encode()).hexdigest()[:16]}"
        return f"Custom_{self.func}"

    @property
    def dtype_rows(self) -> List[Tuple[Tuple[str, ...], Tuple[str, ...]]]:
        """The registered dtype rows, ``[((input dtypes), (output dtypes)), ...]``; empty: dtypes follow the
        inputs.

        Example:
            >>> from mskernel import ops
            >>> from mskernel.ops import CustomRegOp, DataType
            >>> info = (CustomRegOp().input(0, "x").output(0, "y")
            ...         .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())
            >>> ops.Custom(lambda x: x, lambda s: s, lambda d: d, func_type="pyfunc", reg_info=info).dtype_rows
            [(('float32',), ('float32',))]
        """
        return list(self._registration.rows)

    def _describe(self) -> Dict[str, Any]:
        """The op facts every graph node of this op carries (what the graph view's details show)."""
        info: Dict[str, Any] = {"func_type": self.func_type, "func_name": self.func_name, "uniq_name": self.uniq_name}
        registered = self._registration.describe()
        if registered is not None:
            info["reg_info"] = registered
        if self._source is not None:
            info["source"] = textwrap.dedent(self._source)
        elif isinstance(self.func, str):
            info["source"] = f"compiled kernel {self.func}"
        return info

    def _split_args(self, args: tuple) -> Tuple[List[Tensor], List[Any]]:
        """Tensor inputs, and attribute values in registration order (call-time, value=, default)."""
        return split_args(args, self.attr_specs, self.log_prefix)

    # -- call ------------------------------------------------------------------------------------
    def _call(self, *args: Any) -> Any:
        """A call that plans: inference and op selection depend only on input shapes/dtypes and attribute
        values, so they run once per call signature (as MindSpore infers once per graph); later calls with
        only Tensor arguments go through ``_fast`` (see ``__call__``)."""
        cache = self._plan_cache
        key, plan, all_tensors = cache.lookup(args)
        if plan is None:
            tensors, attrs = split_args(args, self.attr_specs, self.log_prefix)
            specs, multi = self._infer(args, tensors, attrs)
            select(self._registration.rows, tensors, specs, self.fake_output, self.log_prefix)
            kept = cache.remember(key, attrs, specs, multi)
        else:
            attrs, specs, multi = plan
            tensors = args if all_tensors else [a for a in args if isinstance(a, Tensor)]
        inputs = [t._data for t in tensors]
        arrays = self._kernel.run(inputs, attrs, specs)
        if plan is None and kept and all_tensors and args:  # it ran: a fast plan
            cache.add_fast(key, self._kernel.runner(inputs, attrs, specs), multi, self._backward.recorders[multi])
        outs = tuple(Tensor._wrap(a) for a in arrays)
        if STATE.enabled and any(t._rg for t in tensors):
            self._backward.recorders[multi](args, outs)
        return outs if multi else outs[0]

    @property
    def hybrid_kernel(self) -> Any:
        """The :class:`~mskernel.hybrid.HybridKernel` of a hybrid/akg op (None for other func_types).

        Example:
            >>> from mskernel import ops
            >>> ops.Custom(lambda x: x, lambda x: x, lambda x: x, func_type="pyfunc").hybrid_kernel is None
            True
        """
        return self._kernel.kernel if isinstance(self._kernel, HybridAdapter) else None

    def signatures_used(self) -> List[Tuple[Tuple[str, ...], Tuple[int, ...], Tuple[Any, ...]]]:
        """The distinct ``(tensor dtypes, tensor ranks, attribute values)`` this op was called with, in the
        order first seen (what an export to MindSpore specialises and registers).

        Example:
            >>> import mskernel as ms
            >>> from mskernel import ops
            >>> op = ops.Custom(lambda x, k: x * k, lambda x, k: x, lambda x, k: x, func_type="pyfunc")
            >>> _ = op(ms.Tensor([1.0, 2.0]), 3.0)
            >>> op.signatures_used()
            [(('float32',), (1,), (3.0,))]
        """
        return self._plan_cache.signatures_used()

    def backward_source(self, *args: Any) -> str:
        """The DSL source of the backward kernel derived for a hybrid/akg op without bprop.

        ``args`` are example inputs as for a call (Tensors or arrays, then attributes): the
        backward depends on their dtypes and ranks, not on their values.

        Example:
            >>> import numpy as np, mskernel as ms
            >>> from mskernel import ops
            >>> def double(x):
            ...     y = output_tensor(x.shape, x.dtype)
            ...     for i in range(x.shape[0]):
            ...         y[i] = x[i] * 2
            ...     return y
            >>> op = ops.Custom(double, func_type="akg")
            >>> print(op.backward_source(ms.Tensor(np.ones(3, np.float32))))
            def double_grad(x, y, dy):
                dx = output_tensor(x.shape, x.dtype)
                # gradients start at zero (a device does not zero new memory)
                for _z0 in parallel(dx.shape[0]):
                    dx[_z0] = 0.0
                # reverse sweep
                for i in range(x.shape[0] - 1, -1, -1):
                    _g1 = dy[i]
                    dx[i] = dx[i] + (_g1 * 2)
                return dx
            <BLANKLINE>
        """
        return self._backward.derived_source(args, self.func_type)


def _source_of(func: Any) -> Optional[str]:
    """The source text of ``func`` (of what it wraps), None where there is none (a builtin, a string)."""
    if not callable(func):
        return None
    try:
        return inspect.getsource(getattr(func, "__wrapped__", func))
    except (OSError, TypeError):
        return None


# A call: the engine core runs a planned call (all Tensor arguments, a signature seen before: op._fast holds its
# kernel runner) -- runs the kernel, wraps its outputs, records when an input is tracked -- and sends every other
# call to Custom._call, which plans it (mskernel/autograd/_cengine_calls.c).
Custom.__call__ = cengine().CustomCall(Custom._call)  # type: ignore[attr-defined]
