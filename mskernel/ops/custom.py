"""``ops.Custom``: MindSpore's custom-operator primitive, for every func_type, on the CPU.

Construction validates the function, the out_shape/out_dtype specs, the operator information
and the bprop, and builds the kernel for its func_type (:mod:`mskernel.kernels`, through the table ``KINDS`` below). A
call infers output specs, selects the dtype row of the operator information, runs the kernel,
and records one engine node (op ``Custom``, kind ``custom``) whose backward calls the bprop.

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
import logging
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mskernel import context
from mskernel._accel import cengine
from mskernel import dtype as mstype
from mskernel.autograd.bprop_args import check_bprop_args, check_bprop_output
from mskernel.autograd.node import STATE, _record as record, saved
from mskernel.kernels.aot import aot_kernel
from mskernel.kernels.base import KINDS, OutSpec, UnsupportedFuncTypeError, make_kernel
from mskernel.kernels.hybrid import HybridAdapter
from mskernel.kernels.pyfunc import PyFuncKernel
from mskernel.ops.op_info import normalize_reg_info, parse_attr_value
from mskernel.ops.primitive import PrimitiveWithInfer
from mskernel.common.tensor import Tensor

__all__ = ["Custom"]

log = logging.getLogger("mskernel.ops")

FUNC_TYPES = ["hybrid", "akg", "tbe", "aot", "pyfunc", "julia", "aicpu"]
_TARGETS = ["Ascend", "GPU", "CPU"]

# The kernel kind of each func_type that runs on the CPU, one rule per line (kernels.register_func_type adds more).
KINDS.update({
    "pyfunc": PyFuncKernel.from_op,
    "hybrid": HybridAdapter.from_op,
    "akg": HybridAdapter.from_op,
    "aot": aot_kernel,
})


def _is_shape(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                                                for d in v)


def _spec_dtype(d: Any, prefix: str, i: int) -> np.dtype:
    if isinstance(d, mstype.Type):
        return d.np
    if isinstance(d, str):
        return mstype.to_dtype(d).np
    if isinstance(d, (np.dtype, type)):
        return np.dtype(d)
    raise TypeError(f"{prefix}, output {i}'s dtype must be a mindspore dtype, but got {d!r}.")


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
        self._check_func()
        self._check_specs()
        if bprop is not None and not callable(bprop):
            raise TypeError(f"{self.log_prefix}, 'bprop' must be a function, but got {type(bprop).__name__}.")
        self.fake_output = func_type == "pyfunc" and not out_dtype and out_dtype is not None
        self.single_scalar_output = func_type == "pyfunc" and bool(out_dtype) and out_shape == ()
        self.uniq_name = self._uniq_name()
        self.add_prim_attr("func_type", func_type)
        self.add_prim_attr("uniq_name", self.uniq_name)
        self._register_info(reg_info if reg_info is not None else getattr(func, "reg_info", None))
        self._kernel = make_kernel(self)
        self._plans: Dict[tuple, tuple] = {}  # call signature -> (attrs, output specs, multi)
        self._fast: Dict[tuple, tuple] = {}  # all-Tensor call signature -> (kernel runner, multi, recorder)
        self._last: Optional[tuple] = None  # (signature, plan) of the previous planned call (the engine core's)
        self._recorders = (self._recorder(False), self._recorder(True))
        self._bprop_arity_ok: set = set()  # input counts the bprop was checked to accept
        self._info = self._describe()

    # -- construction checks -------------------------------------------------------------------
    def _check_func(self) -> None:
        ft, func = self.func_type, self.func
        if ft not in FUNC_TYPES:
            raise ValueError(f"{self.log_prefix}, 'func_type' must be one of {FUNC_TYPES}, but got {ft}")
        if ft in ("tbe", "aicpu", "julia"):
            raise UnsupportedFuncTypeError(
                f"{self.log_prefix}, func_type '{ft}' cannot run here (it needs "
                f"{'a Julia runtime' if ft == 'julia' else 'an Ascend device'}); mskernel runs 'pyfunc', 'hybrid', "
                f"'akg' and 'aot' kernels on the CPU.")
        if ft == "aot":
            if not isinstance(func, str):
                raise TypeError(f"{self.log_prefix}, 'func' must be of type str, but got {type(func)}")
            if ":" not in func and func.startswith("aclnn"):
                return  # an Ascend operator registered by its aclnn name: constructs (kernels/aclnn_op.py)
            if func.count(":") != 1:
                raise TypeError(f"{self.log_prefix}, 'func' should be like 'file_name:func_name', but got {func}")
            return
        if not callable(func):
            raise TypeError(f"For 'Custom', 'func' must be of type function or str, but got {type(func)}")
        if ft == "hybrid" and not getattr(func, "ms_kernel_flag", False):
            raise TypeError(f"{self.log_prefix}, 'func' must be a function decorated by kernel (add @kernel from "
                            f"mskernel.ops, or use func_type='akg', which also accepts undecorated functions)")
        if ft == "akg" and getattr(func, "ms_kernel_flag", False):
            log.warning("%s, 'func' is decorated by @kernel: consider func_type 'hybrid'.", self.log_prefix)
        if ft == "pyfunc" and getattr(func, "ms_kernel_flag", False):
            log.warning("%s, Now you are using the function with decorator @kernel in the mode pyfunc. The kernel "
                        "will be executed as a native python function, which might lead to low efficiency. To "
                        "accelerate the kernel, set the 'func_type' to be \"hybrid\"", self.log_prefix)

    def _check_specs(self) -> None:
        s, d = self.out_shape, self.out_dtype
        if s is not None and not callable(s) and not isinstance(s, (list, tuple)):
            raise TypeError(f"{self.log_prefix}, 'out_shape' must be one of [tuple, list, function], but got "
                            f"{type(s)}")
        if d is not None and not callable(d) and not isinstance(d, (mstype.Type, list, tuple)):
            raise TypeError(f"{self.log_prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], "
                            f"but got {type(d)}")
        if (s is None or d is None) and self.func_type not in ("hybrid", "akg", "aot"):
            raise TypeError(f"{self.log_prefix}, 'out_shape' and 'out_dtype' can be None only for func_type "
                            f"'hybrid'/'akg' (inferred from the kernel) or 'aot' (C++ InferShape/InferType); give "
                            f"infer functions or values.")
        if self.func_type == "pyfunc" and s == () and d != ():
            log.warning("%s, 'out_shape' is an empty tuple. Add a placeholder instead. Not recommend to use it as it "
                        "could be any uninitialized data.", self.log_prefix)
        if self.func_type == "pyfunc" and d == () and s != ():
            log.warning("%s, 'out_dtype' is an empty tuple. Add a placeholder instead. Not recommend to use it as it "
                        "could be any uninitialized data.", self.log_prefix)

    def _uniq_name(self) -> str:
        self._source: Optional[str] = None
        if callable(self.func):
            try:
                src = self._source = inspect.getsource(getattr(self.func, "__wrapped__", self.func))
            except (OSError, TypeError):
                src = repr(self.func)
            return f"Custom_{self.func_name}_{hashlib.sha256(src.encode()).hexdigest()[:16]}"
        return f"Custom_{self.func}"

    def _describe(self) -> Dict[str, Any]:
        """The op facts every graph node of this op carries (what the graph view's details show)."""
        info: Dict[str, Any] = {"func_type": self.func_type, "func_name": self.func_name, "uniq_name": self.uniq_name}
        if self.reg is not None:
            target = next(t for t, r in self.reg_infos.items() if r is self.reg)
            rows = "; ".join(f"({', '.join(i)}) -> ({', '.join(o)})" for i, o in self._rows) or "any"
            info["reg_info"] = (f"target {target}; inputs {self.input_names}; "
                                f"attrs {[a.get('name') for a in self.attr_specs]}; dtypes {rows}")
        if self._source is not None:
            info["source"] = textwrap.dedent(self._source)
        elif isinstance(self.func, str):
            info["source"] = f"compiled kernel {self.func}"
        return info

    def _n_params(self) -> Optional[int]:
        if not callable(self.func):
            return None
        try:
            params = inspect.signature(getattr(self.func, "__wrapped__", self.func)).parameters.values()
        except (TypeError, ValueError):
            return None
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            return None
        return len(params)

    def _register_info(self, reg_info: Any) -> None:
        infos = normalize_reg_info(reg_info, self.log_prefix)
        by_target: Dict[str, Dict[str, Any]] = {}
        for info in infos:
            target = info.get("target")
            if target in (None, "UnKnown") and self.func_type == "pyfunc":
                target = "CPU"
            if target not in _TARGETS:
                raise ValueError(f"{self.log_prefix}, target set in registration information must be one of "
                                 f"{_TARGETS}, but got {target}")
            by_target.setdefault(target, info)  # registered once per target: the first one wins
        self.reg_infos = by_target
        device = context.get_current_device().device_target
        self.reg = by_target.get(device) or by_target.get("CPU") or next(iter(by_target.values()), None)
        self.attr_specs: List[Dict[str, Any]] = []
        self.input_names: List[str] = []
        self._rows: List[Tuple[Tuple[str, ...], Tuple[str, ...]]] = []
        if self.reg is None:
            return
        info = self.reg
        inputs, outputs = info.get("inputs", []), info.get("outputs", [])
        self.attr_specs = list(info.get("attr", []) or [])
        self.input_names = [i.get("name", f"input{k}") for k, i in enumerate(inputs)]
        names = [a.get("name") for a in self.attr_specs]
        for target, other in by_target.items():
            if [a.get("name") for a in other.get("attr", []) or []] != names:
                raise ValueError(f"{self.log_prefix}, attr names set in registration information must be the same "
                                 f"for every target, but {target} declares different ones.")
        n_params = self._n_params()
        if n_params is not None and inputs and len(inputs) + len(self.attr_specs) != n_params:
            raise ValueError(f"{self.log_prefix}, the registration information declares {len(inputs)} inputs and "
                             f"{len(self.attr_specs)} attributes, but the function takes {n_params} parameters; the "
                             f"numbers and order of inputs must match the function's.")
        n_out = self._static_output_count()
        if n_out is not None and outputs and not self.fake_output and len(outputs) != n_out:
            raise ValueError(f"{self.log_prefix}, the registration information declares {len(outputs)} outputs, but "
                             f"out_shape/out_dtype describe {n_out}.")
        for row in info.get("dtype_format", []):
            dts = tuple(item[0] for item in row)
            self._rows.append((dts[:len(inputs)], dts[len(inputs):]))

    def _static_output_count(self) -> Optional[int]:
        d = self.out_dtype
        if isinstance(d, mstype.Type):
            return 1
        if isinstance(d, (list, tuple)) and d:
            return len(d)
        return None

    # -- call ------------------------------------------------------------------------------------
    def _split_args(self, args: tuple) -> Tuple[List[Tensor], List[Any]]:
        """Tensor inputs, and attribute values in registration order (call-time, value=, default)."""
        tensors = [a for a in args if isinstance(a, Tensor)]
        extra = [a for a in args if not isinstance(a, Tensor)]
        if not self.attr_specs:
            return tensors, extra
        calltime = iter(extra)
        attrs = []
        for spec in self.attr_specs:
            name = spec.get("name")
            if "value" in spec and spec["value"] is not None:
                attrs.append(spec["value"])
                continue
            v = next(calltime, _MISSING)
            if v is _MISSING:
                if "defaultValue" in spec:
                    v = parse_attr_value(spec.get("type"), spec["defaultValue"], self.log_prefix, name)
                elif spec.get("paramType") == "optional":
                    v = None
                else:
                    raise ValueError(f"{self.log_prefix}, the required attribute '{name}' was not given: pass it as "
                                     f"an input after the tensors, or set value=/default_value= in CustomRegOp.attr.")
            attrs.append(v)
        left = list(calltime)
        if left:
            raise TypeError(f"{self.log_prefix}, got {len(left)} more non-tensor inputs than the attributes declared "
                            f"in the registration information ({[s.get('name') for s in self.attr_specs]}).")
        return tensors, attrs

    def _infer(self, args: tuple, tensors: List[Tensor], attrs: List[Any]) -> Tuple[List[OutSpec], bool]:
        s, d = self.out_shape, self.out_dtype
        if callable(s):
            s = s(*[list(a.shape) if isinstance(a, Tensor) else [] for a in args])
        if callable(d):
            d = d(*[a.dtype if isinstance(a, Tensor) else mstype.to_dtype(type(a)) if isinstance(a, (bool, int, float))
                    else None for a in args])
        if s is None or d is None:  # the kernel infers what was not given (hybrid DSL, AOT InferShape)
            specs = self._kernel.infer([t.shape for t in tensors], [t._data.dtype for t in tensors], attrs)
            if specs is None:
                raise TypeError(f"{self.log_prefix}, 'out_shape'/'out_dtype' are None and this kernel cannot infer "
                                f"them; give infer functions or values.")
            many = len(specs) != 1
            if s is None:
                s = tuple(sp.shape for sp in specs) if many else specs[0].shape
            if d is None:
                d = tuple(mstype.Type.of(sp.dtype) for sp in specs) if many else mstype.Type.of(specs[0].dtype)
        if self.func_type == "pyfunc" and s == () and d == ():  # no output: a placeholder
            return [OutSpec((1,), np.dtype(np.int32))], False
        if s == ():
            s = (1,) if self.func_type == "pyfunc" else ()
        if d == ():
            d = mstype.int32
        multi = isinstance(d, (list, tuple))
        if multi:
            if not (isinstance(s, (list, tuple)) and all(_is_shape(x) for x in s)) or len(s) != len(d):
                raise ValueError(f"{self.log_prefix}, out_dtype describes {len(d)} outputs, so out_shape must be a "
                                 f"tuple of {len(d)} shapes, but got {s!r}.")
            specs = [OutSpec(tuple(int(v) for v in x), _spec_dtype(dt, self.log_prefix, i))
                     for i, (x, dt) in enumerate(zip(s, d))]
        else:
            if not _is_shape(s):
                raise ValueError(f"{self.log_prefix}, out_shape must be a shape (list or tuple of ints) for a single "
                                 f"output, but got {s!r}.")
            specs = [OutSpec(tuple(int(v) for v in s), _spec_dtype(d, self.log_prefix, 0))]
        if self.func_type in ("hybrid", "akg") and self.out_shape is not None and self.out_dtype is not None:
            self._check_against_kernel(tensors, attrs, specs)
        return specs, multi

    def _check_against_kernel(self, tensors: List[Tensor], attrs: List[Any], specs: List[OutSpec]) -> None:
        """A DSL kernel knows its outputs: given specs must agree (checked once per call signature)."""
        real = self._kernel.infer([t.shape for t in tensors], [t._data.dtype for t in tensors], attrs)
        if real is None:
            return
        given = [(tuple(sp.shape), np.dtype(sp.dtype)) for sp in specs]
        actual = [(tuple(sp.shape), np.dtype(sp.dtype)) for sp in real]
        if given != actual:
            show = lambda lst: ", ".join(f"{list(sh)} {dt}" for sh, dt in lst)  # noqa: E731
            raise ValueError(f"{self.log_prefix}, out_shape/out_dtype describe outputs [{show(given)}], but the "
                             f"kernel produces [{show(actual)}]; fix the infer functions or pass None to infer them "
                             f"from the kernel.")

    def _select(self, tensors: List[Tensor], specs: List[OutSpec]) -> None:
        if not self._rows:
            return
        ins = tuple(t._data.dtype.name for t in tensors)
        outs = tuple(s.dtype.name for s in specs)

        def match(want: Tuple[str, ...], got: Tuple[str, ...]) -> bool:
            return len(want) == len(got) and all(w in ("", g) for w, g in zip(want, got))
        if any(match(ri, ins) and (not ro or match(ro, outs) or self.fake_output) for ri, ro in self._rows):
            return
        supported = "; ".join(f"input[{' '.join(str(mstype.to_dtype(d)) if d else 'Any' for d in ri)}], "
                              f"output[{' '.join(str(mstype.to_dtype(d)) if d else 'Any' for d in ro)}]"
                              for ri, ro in self._rows)
        got_in = " ".join(str(t.dtype) for t in tensors)
        got_out = " ".join(str(mstype.Type.of(s.dtype)) for s in specs)
        raise TypeError(f"{self.log_prefix}, unsupported data types: the supported data types are {supported}; but "
                        f"got input[{got_in}] and output[{got_out}].")

    def _call(self, *args: Any) -> Any:
        """A call that plans: inference and op selection depend only on input shapes/dtypes and attribute
        values, so they run once per call signature (as MindSpore infers once per graph); later calls with
        only Tensor arguments go through ``_fast`` (see ``__call__``)."""
        all_tensors = True
        try:
            key = []
            for a in args:
                if isinstance(a, Tensor):
                    d = a._data
                    key.append(d.shape)
                    key.append(d.dtype)
                else:
                    all_tensors = False
                    key.append(a.__class__)
                    key.append(a)
            key = tuple(key)
            plan = self._plans.get(key)
        except TypeError:  # an unhashable attribute value (e.g. a list): no caching
            key, plan = None, None
        if plan is None:
            tensors, attrs = self._split_args(args)
            specs, multi = self._infer(args, tensors, attrs)
            self._select(tensors, specs)
            if key is not None and len(self._plans) < 512:
                self._plans[key] = (attrs, specs, multi)
        else:
            attrs, specs, multi = plan
            tensors = args if all_tensors else [a for a in args if isinstance(a, Tensor)]
        inputs = [t._data for t in tensors]
        arrays = self._kernel.run(inputs, attrs, specs)
        if plan is None and key is not None and all_tensors and args and key in self._plans:  # it ran: a fast plan
            self._fast[key] = (self._kernel.runner(inputs, attrs, specs), multi, self._recorders[multi])
        outs = tuple(Tensor._wrap(a) for a in arrays)
        if STATE.enabled and any(t._rg for t in tensors):
            self._recorders[multi](args, outs)
        return outs if multi else outs[0]

    def _recorder(self, multi: bool) -> Callable[[tuple, tuple], None]:
        """``record(args, outs)``: puts one call on the graph (when an input is tracked)."""
        def record_call(args: tuple, outs: tuple) -> None:
            record("Custom", args, outs, self._backward(args, multi), kind="custom", needs_outputs=True,
                   info=self._info)
        return record_call

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
        out: List[Tuple[Tuple[str, ...], Tuple[int, ...], Tuple[Any, ...]]] = []
        for key, (attrs, _, _) in self._plans.items():
            tensors = [(s, d) for s, d in zip(key[::2], key[1::2]) if isinstance(s, tuple) and isinstance(d, np.dtype)]
            sig = (tuple(d.name for _, d in tensors), tuple(len(s) for s, _ in tensors), tuple(attrs))
            if sig not in out:
                out.append(sig)
        return out

    # -- backward ----------------------------------------------------------------------------------
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
        if not isinstance(self._kernel, HybridAdapter):
            raise TypeError(f"{self.log_prefix}, backward_source() is for func_type 'hybrid'/'akg' kernels, whose "
                            f"backward is derived from the DSL; this op's func_type is '{self.func_type}'.")
        tensors, attrs = self._split_args(tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in args))
        _, src = self._kernel.backward_for([t._data for t in tensors], attrs)
        return src.source

    def _backward(self, args: tuple, multi: bool) -> Callable:
        bprop = self.bprop
        prefix = self.log_prefix
        args = tuple(saved(a) for a in args)  # what the bprop reads (an in-place write later leaves them as they are)

        def backward(douts: List[Tensor], outs: List[Tensor]) -> Sequence[Optional[Tensor]]:
            if bprop is None and isinstance(self._kernel, HybridAdapter):  # derived from the DSL
                tensors, attrs = self._split_args(args)
                grads = iter(self._kernel.auto_backward(tensors, attrs, douts, outs))
                return [next(grads) if isinstance(a, Tensor) else None for a in args]
            if bprop is None:
                raise RuntimeError(
                    f"{prefix}: gradients cannot flow through this Custom op because it has no bprop. Pass "
                    f"bprop=fn with fn(*inputs, out, dout) returning one gradient per input.")
            out = tuple(outs) if multi else outs[0]
            dout = tuple(douts) if multi else douts[0]
            if len(args) not in self._bprop_arity_ok:
                check_bprop_args(bprop, len(args) + 2, prefix)
                self._bprop_arity_ok.add(len(args))
            grads = bprop(*args, out, dout)
            return check_bprop_output(grads, args, prefix, " of bprop")
        return backward


_MISSING = object()
# A call: the engine core runs a planned call (all Tensor arguments, a signature seen before: op._fast holds its
# kernel runner) -- runs the kernel, wraps its outputs, records when an input is tracked -- and sends every other
# call to Custom._call, which plans it (mskernel/autograd/_cengine_calls.c).
Custom.__call__ = cengine().CustomCall(Custom._call)  # type: ignore[attr-defined]
