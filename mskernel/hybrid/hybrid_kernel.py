"""``HybridKernel``: one DSL function, parsed once, compiled per signature, run on numpy.

A signature is the dtypes and ranks of the tensor inputs, the Python types of the trailing
scalar attributes, and the debug flag. Shapes are runtime values: a new shape with the same
signature reuses the compiled kernel (``compile_count`` does not move). A function made from
a kernel's own source (:meth:`HybridKernel.python_function`, or one given to
:meth:`HybridKernel.attach`) leads back to that kernel: ``from_function`` returns it instead of
parsing and compiling the same source again (``ops.Custom`` over such a function shares it).

Example:
    >>> import numpy as np
    >>> def scale(x, s):
    ...     y = output_tensor(x.shape, x.dtype)
    ...     for i in range(x.shape[0]):
    ...         y[i] = x[i] * s
    ...     return y
    >>> hk = HybridKernel.from_function(scale)
    >>> hk.run([np.arange(3, dtype=np.float32)], [2.0])[0]
    array([0., 2., 4.], dtype=float32)
    >>> hk.infer([(5,)], [np.float32], [2.0])
    [((5,), dtype('float32'))]
"""
from __future__ import annotations

import ast
import copy
import threading
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import config
from .check import Signature, Typed, specialize
from .codegen import generate
from .compiler import CompiledKernel, compile_typed
from .dsl import call_python, to_numpy
from .dtypes import normalize_dtype, type_of_python_scalar
from .intrinsics import RUNTIME_NAMES
from .parse import parse
from .portability import PortabilityIssue, check_portability, warn_portability
from .runner import plain_attr, run_checked
from .shapes import make_infer
from .source import KernelSource, unwrap

__all__ = ["HybridKernel"]

DTypeLike = Any
_KERNEL_OF = "_mskernel_hybrid_kernel"  # the attribute linking a function to the kernel of its source


def _dtype_name(d: DTypeLike) -> str:
    name = normalize_dtype(d)
    if name is None:
        name = normalize_dtype(str(d).lower().replace("mindspore.", ""))
    if name is None:
        raise TypeError(f"unsupported dtype for a hybrid kernel: {d!r}")
    return name


def _attr_type(value: Any) -> str:
    if isinstance(value, str) and value in ("int", "float", "bool"):
        return value
    if value in (int, float, bool):
        return value.__name__  # type: ignore[no-any-return]
    t = type_of_python_scalar(value)
    if t is None:
        raise TypeError(f"a hybrid kernel attribute must be a bool, int or float, not {type(value).__name__}")
    return t


class HybridKernel:
    """A hybrid-DSL kernel: parse+check now, compile per signature, run on numpy arrays.

    Build one with :meth:`from_function` (decorated by ``@kernel`` or not -- the function is
    never executed to be parsed) or :meth:`from_source`. ``num_inputs`` counts tensor and
    attribute parameters, ``output_count`` the returned tensors, ``inplace_map`` maps an
    output index to the input it is (``return x`` for an input ``x``). ``portability`` lists what
    would race or read uninitialised memory on a device (:mod:`~mskernel.hybrid.portability`);
    building the kernel warns about each once, at its line (``warn=False``: not, for kernels
    mskernel writes itself).

    Example:
        >>> src = "def neg(x):\\n    y = output_tensor(x.shape, x.dtype)\\n" \\
        ...       "    for i in range(x.shape[0]):\\n        y[i] = -x[i]\\n    return y\\n"
        >>> hk = HybridKernel.from_source(src, "neg", filename="<cell 1>")
        >>> hk.name, hk.num_inputs, hk.output_count, hk.inplace_map
        ('neg', 1, 1, {})
    """

    def __init__(self, source: KernelSource, func: Optional[Callable[..., Any]] = None,
                 debug: Optional[bool] = None, namespace: Optional[dict[str, Any]] = None, akg: bool = False,
                 warn: bool = True):
        self._src = source
        if namespace is not None and not source.outer_names:
            source.outer_names = namespace  # for the message about names the DSL cannot read
        self.ir = parse(source, akg=akg)
        #: what would race or read uninitialised memory on a device (:mod:`mskernel.hybrid.portability`),
        #: found once here; each is also emitted as a PortabilityWarning at its line unless ``warn=False``
        #: (kernels mskernel generates itself)
        self.portability: list[PortabilityIssue] = check_portability(self.ir)
        if warn:
            warn_portability(self.portability, module_globals=namespace)
        self.func = func
        self._namespace = namespace
        self._debug = debug
        self._akg = akg
        #: True: each signature this kernel compiles is built afresh, bypassing the in-process and
        #: disk caches (``%%custom_op --force``); later calls reuse what it built
        self.rebuild = False
        self._typed: dict[Signature, Typed] = {}
        self._compiled: dict[Signature, CompiledKernel] = {}
        self._lock = threading.Lock()
        self._fast: Optional[tuple[Any, ...]] = None
        #: how many times this kernel was compiled (or loaded) for a new signature
        self.compile_count = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_function(cls, func: Callable[..., Any], debug: Optional[bool] = None, akg: bool = False
                      ) -> "HybridKernel":
        """Parse and check ``func`` (raises HybridError at the offending line).

        ``akg=True``: an undecorated ``func_type="akg"`` function, parsed with akg's extras
        (see ``mskernel.hybrid.parse.parse``). A function attached to a kernel
        (:meth:`attach`) gives that kernel back when ``debug`` matches (its stricter parse holds
        for ``akg`` too).

        Example:
            >>> def ident(x):
            ...     return x
            >>> HybridKernel.from_function(ident).inplace_map
            {0: 0}
        """
        known = getattr(unwrap(func), _KERNEL_OF, None)
        if isinstance(known, HybridKernel) and known._debug == debug and (akg or not known._akg):
            return known
        return cls(KernelSource.from_function(func), func=func, debug=debug, akg=akg)

    def attach(self, func: Callable[..., Any]) -> None:
        """Make ``func`` -- a Python function of this kernel's own source -- this kernel's function.

        :meth:`run_python` then calls it, and ``from_function(func)`` (so ``ops.Custom(func)``)
        returns this kernel: what it parsed and compiled is not done again.

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
            >>> def f(x):
            ...     return x
            >>> hk.attach(f)
            >>> HybridKernel.from_function(f) is hk
            True
        """
        raw = unwrap(func)
        if getattr(raw, "__name__", None) != self.name:
            raise ValueError(f"attach: the function {getattr(raw, '__name__', raw)!r} is not the kernel "
                             f"{self.name!r} (a kernel takes the function of its own source)")
        self.func = func
        setattr(raw, _KERNEL_OF, self)

    @classmethod
    def from_source(cls, text: str, name: Optional[str] = None, filename: str = "<string>",
                    first_line: int = 1, debug: Optional[bool] = None,
                    globals: Optional[dict[str, Any]] = None, warn: bool = True) -> "HybridKernel":
        """Parse ``def name`` in ``text``; errors point at ``filename`` lines from ``first_line``.

        ``globals`` is the namespace the function runs in for :meth:`run_python`. ``warn=False``:
        no :class:`~mskernel.hybrid.PortabilityWarning` (for kernels mskernel writes
        itself; :attr:`portability` still lists the issues).

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n", filename="<cell 3>", first_line=7)
            >>> hk.name
            'f'
        """
        return cls(KernelSource.from_text(text, name, filename, first_line), debug=debug,
                   namespace=globals, warn=warn)

    # ------------------------------------------------------------------ description
    @property
    def name(self) -> str:
        """The kernel's function name."""
        return self.ir.name

    @property
    def dsl_text(self) -> str:
        """The kernel's ``def`` as its user wrote it (decorators dropped, dedented).

        Example:
            >>> print(HybridKernel.from_source("def f(x):\\n    return x  # as is\\n").dsl_text, end="")
            def f(x):
                return x  # as is
        """
        return self._src.def_text()

    @property
    def input_names(self) -> list[str]:
        """Parameter names (tensors first, then attributes)."""
        return list(self.ir.params)

    @property
    def output_names(self) -> list[str]:
        """Returned tensor names, in return order."""
        return list(self.ir.returns)

    @property
    def num_inputs(self) -> int:
        """Number of parameters (tensors and attributes)."""
        return len(self.ir.params)

    @property
    def output_count(self) -> int:
        """Number of returned tensors."""
        return len(self.ir.returns)

    @property
    def inplace_map(self) -> dict[int, int]:
        """``{output index: input index}`` for outputs that are inputs returned in place."""
        return {i: self.ir.params.index(r) for i, r in enumerate(self.ir.returns) if r in self.ir.params}

    @property
    def debug(self) -> bool:
        """Whether this kernel compiles bounds-checked code (own flag, else the global one)."""
        return config.get_debug() if self._debug is None else self._debug

    def __repr__(self) -> str:
        return f"HybridKernel({self.name}, inputs={self.input_names}, outputs={self.output_names})"

    # ------------------------------------------------------------------ signatures
    def signature(self, input_dtypes: Sequence[DTypeLike], input_ranks: Sequence[int],
                  attr_types: Sequence[Any] = (), debug: Optional[bool] = None) -> Signature:
        """The :class:`~mskernel.hybrid.check.Signature` for these dtypes, ranks and attribute types.

        Example:
            >>> hk = HybridKernel.from_source("def f(x, n):\\n    return x\\n")
            >>> hk.signature([np.float32], [2], [int])
            Signature(dtypes=('float32',), ranks=(2,), attr_types=('int',), debug=False)
        """
        dbg = self.debug if debug is None else debug
        return Signature(tuple(_dtype_name(d) for d in input_dtypes), tuple(int(r) for r in input_ranks),
                         tuple(_attr_type(a) for a in attr_types), bool(dbg))

    def specialize(self, sig: Signature) -> Typed:
        """The kernel type-checked for ``sig`` (cached; raises HybridError on dtype errors)."""
        typed = self._typed.get(sig)
        if typed is None:
            typed = specialize(self.ir, Signature(sig.dtypes, sig.ranks, sig.attr_types))
            self._typed[sig] = typed
        return typed

    def _sig_from(self, input_dtypes: Any, input_ranks: Any, attr_types: Sequence[Any],
                  debug: Optional[bool]) -> Signature:
        if isinstance(input_dtypes, Signature):
            return input_dtypes
        if input_ranks is None:  # example inputs
            arrays = [to_numpy(a) for a in input_dtypes]
            return self.signature([a.dtype for a in arrays], [np.ndim(a) for a in arrays],
                                  [plain_attr(a) for a in attr_types], debug)
        return self.signature(input_dtypes, input_ranks, attr_types, debug)

    # ------------------------------------------------------------------ public operations
    def infer(self, input_shapes: Sequence[Sequence[int]], input_dtypes: Sequence[DTypeLike],
              attrs: Sequence[Any] = ()) -> list[tuple[tuple[int, ...], np.dtype]]:
        """Output shapes and dtypes for these inputs, evaluated from the IR (no compile).

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((x.shape[0] * 2,), 'int32')\\n"
            ...                               "    return y\\n")
            >>> hk.infer([(3, 4)], ["float32"])
            [((6,), dtype('int32'))]
        """
        attrs = [plain_attr(a) for a in attrs]
        sig = self.signature(input_dtypes, [len(s) for s in input_shapes], attrs, debug=False)
        typed = self.specialize(sig)
        result = make_infer(typed)([tuple(int(d) for d in s) for s in input_shapes], attrs)
        return [(tuple(int(d) for d in shape), np.dtype(dtype)) for shape, dtype in result]

    def compile(self, input_dtypes: Any, input_ranks: Optional[Sequence[int]] = None,
                attr_types: Sequence[Any] = (), debug: Optional[bool] = None) -> CompiledKernel:
        """The compiled kernel for a signature (dtypes + ranks, or example inputs + attrs).

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
            >>> hk.compile(["float64"], [1]).typed.signature.dtypes
            ('float64',)
        """
        sig = self._sig_from(input_dtypes, input_ranks, attr_types, debug)
        ck = self._compiled.get(sig)
        if ck is None:
            with self._lock:
                ck = self._compiled.get(sig)
                if ck is None:
                    ck = compile_typed(self.specialize(sig), sig.debug, force=self.rebuild)
                    self._compiled[sig] = ck
                    self.compile_count += 1
        return ck

    def source(self, input_dtypes: Any, input_ranks: Optional[Sequence[int]] = None,
               attr_types: Sequence[Any] = (), debug: Optional[bool] = None) -> str:
        """The generated C++ for a signature (dtypes + ranks, or example inputs + attrs).

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
            >>> "mskh_kernel_contig" in hk.source([np.zeros(2, np.float32)])
            True
        """
        sig = self._sig_from(input_dtypes, input_ranks, attr_types, debug)
        if sig in self._compiled:
            return self._compiled[sig].source
        return generate(self.specialize(sig), sig.debug).source

    def run(self, inputs: Sequence[Any], attrs: Sequence[Any] = (),
            out: Optional[Sequence[np.ndarray]] = None) -> tuple[np.ndarray, ...]:
        """Run the compiled kernel; returns every output (in-place ones are the inputs).

        Outputs are allocated zero-filled (as in the Python emulation) and written in place
        by the kernel -- except outputs the kernel provably writes in full before reading them,
        which are allocated uninitialised (same result, no zero-fill pass; see
        :mod:`mskernel.hybrid.coverage`); inputs are used without copies. ``out`` gives preallocated arrays
        for the outputs that are not inputs (return order, exact shape and dtype); they are
        not cleared first.

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
            ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] // 2\\n    return y\\n")
            >>> hk.run([np.array([-3, 3], np.int32)])[0]
            array([-2,  1], dtype=int32)
        """
        fast = self._fast
        if fast is not None and fast[0] == config.generation:
            try:  # the last signature's compiled call (allocate or take out, dispatch): one Python call
                plain = attrs if attrs.__class__ is tuple else tuple(attrs)
                outs = fast[1](inputs, plain) if out is None else fast[2](inputs, plain, out)
            except Exception:  # another rank or dtype, a shape numpy refuses: the checked path says what
                outs = None
            if outs is not None:
                return outs  # type: ignore[no-any-return]
        return self._run_slow(inputs, attrs, out)

    def _run_slow(self, inputs: Sequence[Any], attrs: Sequence[Any],
                  out: Optional[Sequence[np.ndarray]] = None) -> tuple[np.ndarray, ...]:
        return run_checked(self, inputs, attrs, out)

    def _remember(self, ck: CompiledKernel) -> None:
        self._fast = (config.generation, ck.call, ck.call_into)

    def run_python(self, inputs: Sequence[Any], attrs: Sequence[Any] = ()) -> tuple[np.ndarray, ...]:
        """Run the kernel as Python with numpy stand-ins (MindSpore's emulation); a tuple.

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
            ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] % 3\\n    return y\\n")
            >>> hk.run_python([np.array([-4, 4])])[0]
            array([2, 1])
        """
        result = call_python(self.python_function(), *inputs, *attrs)
        return result if isinstance(result, tuple) else (result,)

    def python_function(self) -> Callable[..., Any]:
        """The kernel as a plain Python function (from_source kernels are compiled from text, and
        the function is attached to the kernel: see :meth:`attach`).

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
            >>> HybridKernel.from_function(hk.python_function()) is hk
            True
        """
        if self.func is None:
            tree = ast.Module(body=[copy.deepcopy(self._src.tree)], type_ignores=[])
            ast.increment_lineno(tree, self._src.line_offset)
            namespace: dict[str, Any] = dict(self._namespace) if self._namespace is not None else {}
            for name, value in RUNTIME_NAMES.items():
                namespace.setdefault(name, value)
            exec(compile(tree, self._src.filename, "exec"), namespace)  # noqa: S102 - the user's kernel
            self.attach(namespace[self.name])
        return self.func

    def __call__(self, *args: Any) -> Union[np.ndarray, tuple[np.ndarray, ...]]:
        """Run compiled on ``(*tensors, *attrs)``: leading array-likes are tensors.

        Example:
            >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
            >>> hk(np.zeros(2))
            array([0., 0.])
        """
        k = 0
        while k < len(args) and (isinstance(args[k], np.ndarray) or hasattr(args[k], "asnumpy")):
            k += 1
        out = self.run(args[:k], args[k:])
        return out[0] if len(out) == 1 else out
