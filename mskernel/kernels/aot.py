"""func_type "aot": MindSpore's C ABI custom kernels, from a shared library or built from .cc/.cpp.

``ops.Custom("dir/file.so:Func", out_shape, out_dtype, "aot", reg_info=...)`` loads ``Func`` with
``int Func(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
void *extra)``. A ``.cc``/``.cpp`` path is compiled through mskernel's build layer (cached by
content; an edited source builds anew). ``FuncInit`` (workspaces, kernel data), ``FuncInferShape``
and ``FuncInferType`` are used when present. ``extra`` is an ``AotExtra`` implemented by
``mskernel/kernels/aot_runtime.cpp``: attributes come from the op information (``.attr(..., value=v)``)
and from call-time inputs after the tensors. Non-zero return codes and C++ exceptions become
Python errors naming the op, file and function.

Example (needs a C++ compiler):
    >>> import mskernel as ms, numpy as np, pathlib, tempfile
    >>> src = pathlib.Path(tempfile.mkdtemp()) / "twice.cc"
    >>> _ = src.write_text('''
    ... #include <cstdint>
    ... extern "C" int Twice(int n, void **p, int *nd, int64_t **sh, const char **dt, void *s, void *e) {
    ...   float *x = static_cast<float *>(p[0]), *y = static_cast<float *>(p[1]);
    ...   int64_t size = 1; for (int i = 0; i < nd[0]; ++i) size *= sh[0][i];
    ...   for (int64_t i = 0; i < size; ++i) y[i] = 2 * x[i];
    ...   return 0;
    ... }''')
    >>> op = ms.ops.Custom(f"{src}:Twice", lambda x: x, lambda x: x, func_type="aot")
    >>> print(op(ms.Tensor([1.0, 2.5])))
    [2. 5.]
"""
from __future__ import annotations

import ctypes
import logging
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.errors import MskernelError
from mskernel.kernels.aot_library import load_library
from mskernel.kernels.percall import percall
from mskernel.kernels.base import CustomKernel, OutSpec

__all__ = ["AotKernel", "AotError", "TYPE_IDS", "aot_kernel"]

log = logging.getLogger("mskernel.kernels.aot")

# MindSpore's TypeId values (mindapi/base/type_id.h), passed to and returned by FuncInferType.
TYPE_IDS: Dict[str, int] = {"bool": 30, "int8": 32, "int16": 33, "int32": 34, "int64": 35, "uint8": 37,
                            "uint16": 38, "uint32": 39, "uint64": 40, "float16": 42, "float32": 43, "float64": 44,
                            "complex64": 47, "complex128": 48}
_FROM_TYPE_ID = {v: k for k, v in TYPE_IDS.items()}
_FROM_TYPE_ID.update({31: "int32", 36: "uint32", 41: "float32", 45: "float64"})
_WORKSPACE_MIN = 512  # bytes; MindSpore's memory pool rounds small blocks up and kernels rely on it
_ERRLEN = 2048


class AotError(MskernelError, RuntimeError):
    """An AOT kernel could not be loaded or failed while running.

    Example:
        >>> import mskernel as ms
        >>> ms.ops.Custom("missing_kernel.so:Func", lambda s: s, lambda d: d, func_type="aot")
        Traceback (most recent call last):
        ...
        mskernel.kernels.aot.AotError: For 'Custom', 'func_type': aot, 'func': missing_kernel.so:Func, couldn't find the AOT binary file: missing_kernel.so
    """  # noqa: E501


_runtime: Optional[ctypes.CDLL] = None


def _load_runtime() -> ctypes.CDLL:
    global _runtime
    if _runtime is None:
        from mskernel.toolchain import build, load_library
        src = Path(__file__).with_name("aot_runtime.cpp")
        lib = load_library(build("mskernel_aot_runtime", [src], kind="plain"))
        P, I64, INT, C = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_char_p
        sig = {
            "mk_aot_extra_new": ([C], P), "mk_aot_extra_free": ([P], None),
            "mk_aot_destruct_kernel_data": ([P], None),
            "mk_aot_set_bool": ([P, C, INT], None), "mk_aot_set_int": ([P, C, I64], None),
            "mk_aot_set_float": ([P, C, ctypes.c_double], None), "mk_aot_set_str": ([P, C, C], None),
            "mk_aot_set_int_vec": ([P, C, P, I64], None), "mk_aot_set_float_vec": ([P, C, P, I64], None),
            "mk_aot_set_int_2d": ([P, C, P, P, I64], None), "mk_aot_set_float_2d": ([P, C, P, P, I64], None),
            "mk_aot_workspace_count": ([P], I64), "mk_aot_workspace_size": ([P, I64], ctypes.c_uint64),
            "mk_aot_call": ([P, INT, P, P, P, P, P, P, C, INT], INT),
            "mk_aot_init": ([P, P, P, P, P, P, C, INT], INT),
            "mk_aot_infer_shape": ([P, INT, P, P, P, P, I64, P, I64, P, C, INT], INT),
            "mk_aot_infer_type": ([P, INT, P, INT, P, P, INT, P, C, INT], INT),
        }
        for name, (args, res) in sig.items():
            f = getattr(lib, name)
            f.argtypes, f.restype = args, res
        _runtime = lib
    return _runtime


def _check_white_list(path: str, prefix: str) -> None:
    white = os.environ.get("MS_CUSTOM_AOT_WHITE_LIST")
    if white and os.path.realpath(white) not in os.path.realpath(path):
        raise TypeError(f"{prefix}, the legal path for the file is {white}, but the file is {path}")


class _Signature:
    """ctypes arrays describing inputs+outputs (ndims, shapes, dtype names) for one shape set."""

    def __init__(self, arrays: Sequence[Tuple[tuple, np.dtype]]) -> None:
        n = len(arrays)
        self.ndims = (ctypes.c_int * max(n, 1))(*[len(s) for s, _ in arrays])
        self.rows = [(ctypes.c_int64 * max(len(s), 1))(*s) for s, _ in arrays]
        self.shapes = (ctypes.POINTER(ctypes.c_int64) * max(n, 1))(
            *[ctypes.cast(r, ctypes.POINTER(ctypes.c_int64)) for r in self.rows])
        self.names = [np.dtype(d).name.encode() for _, d in arrays]
        self.dtypes = (ctypes.c_char_p * max(n, 1))(*self.names)
        self.workspaces: List[int] = []


class AotKernel(CustomKernel):
    """The kernel of an ``ops.Custom(..., func_type="aot")`` op."""

    def __init__(self, op: Any) -> None:
        self.prefix = op.log_prefix
        self.op = op
        path, func = op.func.split(":")
        self.func_name = func
        if not path or not func:
            raise TypeError(f"{self.prefix}, user defined function path '{op.func}' is illegal. Proper function path "
                            f"should follow the format of 'dir_path/file_name:func_name'")
        _check_white_list(path, self.prefix)
        self.file = path
        if path.endswith(".cu"):
            raise AotError(f"{self.prefix}, '{path}' is a CUDA source; mskernel builds AOT kernels for the CPU from "
                           f".cc/.cpp sources or loads a prebuilt .so.")
        if path.endswith((".cc", ".cpp")):
            path = self._compile(path)
        elif not os.path.isfile(path):
            raise AotError(f"{self.prefix}, couldn't find the AOT binary file: {path}")
        try:
            self.lib, self.mapped = load_library(os.path.abspath(path), self.prefix)  # GPU builds refused, never stale
        except OSError as e:
            raise AotError(f"{self.prefix}, dlopen file '{path}' should be successful, but error occurs! Error message "
                           f"is: {e}") from None
        try:
            self.fn = ctypes.cast(getattr(self.lib, func), ctypes.c_void_p).value
        except AttributeError as e:
            if self._symbol(func + "InferShape") is None:
                raise AotError(f"{self.prefix}, error occurs when fetching function '{func}'. "
                               f"Error info: {e}") from None
            self.fn = None  # an InferShape-only source (the kernel lives in the device's op library): constructs
        self.init = self._symbol(func + "Init")
        self.infer_shape_fn = self._symbol(func + "InferShape")
        self.infer_type_fn = self._symbol(func + "InferType")
        self.rt = _load_runtime()
        self.extra = self.rt.mk_aot_extra_new(op.name.encode())
        self._sigs: Dict[tuple, _Signature] = {}
        self._last_attrs: Optional[List[Any]] = None
        self._err = ctypes.create_string_buffer(_ERRLEN)
        self.multi_output = len((op.reg or {}).get("outputs", [])) > 1
        for spec in op.attr_specs:  # values fixed in the op information are attributes from the start
            if spec.get("value") is not None:
                self._set_attr(spec["name"], spec["value"])

    def __del__(self) -> None:
        extra, rt = getattr(self, "extra", None), getattr(self, "rt", None)
        if extra and rt is not None:
            rt.mk_aot_extra_free(extra)
            self.extra = None

    def _compile(self, path: str) -> str:
        if not os.path.isfile(path):
            raise AotError(f"{self.prefix}, couldn't find the AOT source file: {path}")
        from mskernel.toolchain import build
        name = "aot_" + "".join(c if c.isalnum() else "_" for c in Path(path).stem)
        return str(build(name, [path], kind="plain", include_paths=[os.path.dirname(os.path.abspath(path))]).path)

    def _symbol(self, name: str) -> Optional[int]:
        try:
            return ctypes.cast(getattr(self.lib, name), ctypes.c_void_p).value
        except AttributeError:
            return None

    # -- attributes --------------------------------------------------------------------------
    def _set_attr(self, name: str, value: Any) -> None:
        rt, h, n = self.rt, self.extra, name.encode()
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, bool):
            rt.mk_aot_set_bool(h, n, int(value))
        elif isinstance(value, int):
            rt.mk_aot_set_int(h, n, value)
        elif isinstance(value, float):
            rt.mk_aot_set_float(h, n, value)
        elif isinstance(value, str):
            rt.mk_aot_set_str(h, n, value.encode())
        elif isinstance(value, (list, tuple)):
            if value and isinstance(value[0], (list, tuple)):
                flat = [v for row in value for v in row]
                lens = np.array([len(r) for r in value], np.int64)
                ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in flat)
                data = np.array(flat, np.int64 if ints else np.float64)
                setter = rt.mk_aot_set_int_2d if ints else rt.mk_aot_set_float_2d
                setter(h, n, data.ctypes.data, lens.ctypes.data, len(value))
            else:
                ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
                data = np.array(value, np.int64 if ints else np.float64)
                (rt.mk_aot_set_int_vec if ints else rt.mk_aot_set_float_vec)(h, n, data.ctypes.data, len(value))
        else:
            raise TypeError(f"{self.prefix}, attribute '{name}' has a {type(value).__name__} value; AOT attributes "
                            f"are bool, int, float, str, or (nested) lists of int/float.")

    def _apply_attrs(self, attrs: Sequence[Any]) -> None:
        try:
            if list(attrs) == self._last_attrs:  # unchanged since the previous call: nothing to send
                return
        except ValueError:  # array-valued attributes compare elementwise: just send them
            pass
        self._last_attrs = list(attrs)
        for spec, v in zip(self.op.attr_specs, attrs):
            if spec.get("value") is None and v is not None:
                self._set_attr(spec["name"], v)

    # -- inference ---------------------------------------------------------------------------
    def infer(self, shapes, dtypes, attrs):
        self._apply_attrs(attrs)
        out_shapes = out_types = None
        sig = _Signature(list(zip(shapes, dtypes)))
        if self.op.out_shape is None:
            if self.infer_shape_fn is None:
                raise AotError(f"{self.prefix}, Get infer shape functions failed. The custom operator does not support "
                               f"dynamic shape yet, func name:{self.func_name}. Add the cpp version of the infer shape "
                               f"function to support dynamic shape.")
            cap, max_out = 4096, 64
            buf, ranks = (ctypes.c_int64 * cap)(), (ctypes.c_int64 * max_out)()
            n_out = ctypes.c_int64()
            if self.rt.mk_aot_infer_shape(self.infer_shape_fn, int(self.multi_output), sig.ndims, sig.shapes,
                                          self.extra, buf, cap, ranks, max_out, ctypes.byref(n_out), self._err,
                                          _ERRLEN):
                raise AotError(f"{self.prefix}, {self.func_name}InferShape failed: {self._err.value.decode()}")
            out_shapes, k = [], 0
            for r in range(n_out.value):
                out_shapes.append(tuple(buf[k:k + ranks[r]]))
                k += ranks[r]
        if self.op.out_dtype is None:
            if self.infer_type_fn is None:
                raise AotError(f"{self.prefix}, Get infer type functions failed.  func name:{self.func_name}, Please "
                               f"add infer type function.")
            types = (ctypes.c_int * max(len(dtypes), 1))(*[TYPE_IDS[np.dtype(d).name] for d in dtypes])
            out, n = (ctypes.c_int * 64)(), ctypes.c_int()
            if self.rt.mk_aot_infer_type(self.infer_type_fn, int(self.multi_output), types, len(dtypes),
                                         self.extra, out, 64, ctypes.byref(n), self._err, _ERRLEN):
                raise AotError(f"{self.prefix}, {self.func_name}InferType failed: {self._err.value.decode()}")
            try:
                out_types = [np.dtype(_FROM_TYPE_ID[out[i]]) for i in range(n.value)]
            except KeyError as e:
                raise AotError(f"{self.prefix}, {self.func_name}InferType returned TypeId {e.args[0]}, which is not a "
                               f"tensor dtype.") from None
        n_out = len(out_shapes) if out_shapes is not None else len(out_types)
        if out_shapes is None:
            out_shapes = [None] * n_out
        if out_types is None:
            out_types = [None] * n_out
        return [OutSpec(s, d) for s, d in zip(out_shapes, out_types)]

    # -- execution ---------------------------------------------------------------------------
    def run(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]) -> List[np.ndarray]:
        if self.fn is None:
            raise AotError(f"{self.prefix}, '{self.file}' defines only {self.func_name}InferShape, no kernel function "
                           f"'{self.func_name}': on Ascend the kernel comes from the device's operator library; on the "
                           f"CPU there is nothing to run. Add 'extern \"C\" int {self.func_name}(...)' to the source.")
        self._apply_attrs(attrs)
        ins = [a if a.flags.c_contiguous else np.ascontiguousarray(a) for a in inputs]
        outs = [np.empty(s.shape, s.dtype) for s in out_specs]
        key = tuple((a.shape, a.dtype.str) for a in ins) + tuple((o.shape, o.dtype.str) for o in outs)
        sig = self._sigs.get(key)
        if sig is None:
            sig = _Signature([(a.shape, a.dtype) for a in ins + outs])
            if self.init is not None:
                self.rt.mk_aot_destruct_kernel_data(self.extra)
                ret = ctypes.c_int()
                if self.rt.mk_aot_init(self.init, sig.ndims, sig.shapes, sig.dtypes, self.extra, ctypes.byref(ret),
                                       self._err, _ERRLEN):
                    raise AotError(f"For '{self.op.name}' on CPU, operator failed when executing user defined file "
                                   f"{self.file}! Error message is {self._err.value.decode()}")
                if ret.value != 0:
                    raise AotError(self._bad_return(self.func_name + "Init", ret.value))
                sig.workspaces = [int(self.rt.mk_aot_workspace_size(self.extra, i))
                                  for i in range(self.rt.mk_aot_workspace_count(self.extra))]
            self._sigs[key] = sig
        workspaces = [np.zeros(max(size, _WORKSPACE_MIN), np.uint8) for size in sig.workspaces]  # deterministic
        buffers = ins + outs + workspaces
        params = (ctypes.c_void_p * max(len(buffers), 1))(*[b.ctypes.data for b in buffers])
        ret = ctypes.c_int()
        if self.rt.mk_aot_call(self.fn, len(buffers), params, sig.ndims, sig.shapes, sig.dtypes, self.extra,
                               ctypes.byref(ret), self._err, _ERRLEN):
            raise AotError(f"For '{self.op.name}' on CPU, operator failed when executing user defined file "
                           f"{self.file}! Error message is {self._err.value.decode()}")
        if ret.value != 0:
            raise AotError(self._bad_return(self.func_name, ret.value))
        return outs

    def runner(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]
               ) -> Callable[[tuple], Optional[tuple]]:
        """The kernel for this signature called through ``aot_dispatch.c``: its Init already ran (in
        :meth:`run`), its shape arrays are built; each call allocates the outputs and workspaces and calls
        the kernel. A non-contiguous input goes through :meth:`run` (which copies it)."""
        key = (tuple((a.shape, a.dtype.str) for a in inputs) +
               tuple((tuple(s.shape), np.dtype(s.dtype).str) for s in out_specs))  # run()'s key, no arrays made
        sig = self._sigs.get(key)
        if sig is None or self.fn is None:
            return super().runner(inputs, attrs, out_specs)
        addr = lambda obj: ctypes.cast(obj, ctypes.c_void_p).value  # noqa: E731
        plan = (addr(self.rt.mk_aot_call), self.fn, self.extra, addr(sig.ndims), addr(sig.shapes), addr(sig.dtypes),
                tuple((tuple(s.shape), np.dtype(s.dtype)) for s in out_specs),
                tuple(max(size, _WORKSPACE_MIN) for size in sig.workspaces))
        call, apply_attrs, attrs = percall().aot_call, self._apply_attrs, list(attrs)

        def run(arrays: tuple) -> Optional[tuple]:
            if attrs:
                apply_attrs(attrs)
            res = call(plan, arrays)
            if res.__class__ is list:  # the kernel failed: say it as run() does
                raise AotError(self._bad_return(self.func_name, res[1]) if res[0] == 2 else
                               f"For '{self.op.name}' on CPU, operator failed when executing user defined file "
                               f"{self.file}! Error message is {res[1]}")
            return res  # (the plan's addresses point into sig, which self._sigs keeps)
        return run

    def _bad_return(self, func: str, code: int) -> str:
        return (f"Return value from CPU AOT kernel({self.file})'s function({func}) is {code}. Any return value not "
                f"equal to 0 will be treated as user defined error code and we will terminate execution. If "
                f"termination is not your purpose, please set return value to 0.")


def aot_kernel(op: Any) -> CustomKernel:
    """The kernel of a func_type "aot" op: a C ABI function (``file:func``), or an aclnn API named alone."""
    if isinstance(op.func, str) and ":" not in op.func:
        from mskernel.kernels.aclnn_op import AclnnOpKernel
        return AclnnOpKernel(op)
    return AotKernel(op)
