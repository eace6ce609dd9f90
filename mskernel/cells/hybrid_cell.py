"""A hybrid-DSL cell -> its kernels -> one ready ``ops.Custom`` op (plus the kernels as Python functions).

Steps, each failing with a :class:`~mskernel.cells.errors.CellError` at the cell's own line before
anything is bound: parse the cell; pick the kernel (the ``def`` named NAME, else the only ``def``
that uses ``output_tensor``/``allocate``); check it with the DSL parser; resolve ``--bprop`` (a
kernel of the cell, a Python function of the cell, or one already in the namespace); evaluate
``--out-shape``/``--out-dtype``/``--example``; compile the kernel for the example (or generate its
C++ for ``--show-source``). Only then does the cell run in the namespace (so constants and helpers
of earlier cells are visible and its own definitions stay defined), every kernel of the cell is
decorated with ``@kernel`` (callable as Python on numpy arrays), and the op is built -- on the very
kernel checked and compiled above (``--force``: built afresh, bypassing the caches). If anything in
this last step fails, the namespace is put back as it was: a failing cell binds nothing.

A bprop kernel takes ``(*inputs, out, dout)`` or, like MindSpore's tutorial, ``(*inputs, dout)``,
and returns one gradient per input.

Example:
    >>> import numpy as np, mskernel as ms
    >>> ns = {}
    >>> code = ("def twice(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...         "    for i in range(x.shape[0]):\\n        y[i] = 2.0 * x[i]\\n    return y\\n")
    >>> r = compile_hybrid("twice", code, CellOptions(lang="hybrid"), ns, filename="<cell twice>", first_line=2)
    >>> r.bound[0][1]
    'twice(x) -> y'
    >>> print(r.value(ms.Tensor(np.array([1.0, 2.0], np.float32))))
    [2. 4.]
"""
from __future__ import annotations

import ast
import linecache
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from mskernel.cells.errors import CellError
from mskernel.cells.options import CellOptions, evaluate_expression
from mskernel.hybrid import HybridError, HybridKernel, is_kernel, kernel
from mskernel.ops import Custom

if TYPE_CHECKING:
    from mskernel.cells.result import CellResult

__all__ = ["compile_hybrid", "remember_source"]

_DSL_ALLOCATORS = {"output_tensor", "allocate"}
_MISSING = object()


def remember_source(filename: str, code: str, first_line: int, header: str = "") -> None:
    """Put the cell into ``linecache`` under ``filename``, numbered as in the notebook (line
    ``first_line`` is the code's first line), so tracebacks and ``inspect.getsource`` find it.

    Example:
        >>> remember_source("<cell doc>", "x = 1\\n", 2, "%%custom_op doc")
        >>> linecache.getline("<cell doc>", 2)
        'x = 1\\n'
    """
    pad = [header + "\n"] + ["\n"] * max(first_line - 2, 0) if first_line > 1 else []
    lines = pad + [ln + "\n" for ln in code.splitlines()]
    linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)


def _uses_dsl(node: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _DSL_ALLOCATORS
               for n in ast.walk(node))


def _fail(name: str, reason: str, code: str, first_line: int, err: HybridError | None = None) -> CellError:
    loc = err.location if err is not None else None
    allowed = err.allowed if err is not None else ""
    return CellError(name, reason, code=code, first_line=first_line, location=loc, allowed=allowed)


def _pick_kernel(name: str, defs: dict, bprop: str | None, code: str, first_line: int) -> str:
    if name in defs:
        return name
    candidates = [k for k, d in defs.items() if k != bprop and _uses_dsl(d)]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise _fail(name, f"the cell defines no kernel: write a function named {name!r} (or one function using "
                    "output_tensor/allocate)" + (f"; it defines {', '.join(defs)}" if defs else ""), code, first_line)
    raise _fail(name, f"the cell defines several kernels ({', '.join(candidates)}): name one of them {name!r} or "
                "make NAME the kernel's name", code, first_line)


def _parse_kernel(name: str, kname: str, code: str, filename: str, first_line: int, debug: bool) -> HybridKernel:
    try:
        return HybridKernel.from_source(code, kname, filename=filename, first_line=first_line, debug=debug or None)
    except HybridError as err:
        raise _fail(name, f"kernel {kname}: {err.reason}", code, first_line, err) from err


def _check_bprop_kernel(name: str, fwd: HybridKernel, bk: HybridKernel) -> None:
    n = fwd.num_inputs
    if bk.num_inputs not in (n + 1, n + 2):
        raise CellError(name, f"the bprop kernel {bk.name}({', '.join(bk.input_names)}) must take the {n} inputs of "
                        f"{fwd.name} then (out, dout) or (dout): {n + 2} or {n + 1} parameters, but it takes "
                        f"{bk.num_inputs}")


def _kernel_bprop(fwd: HybridKernel, bk: HybridKernel, func: Callable, debug: bool) -> Callable:
    """A bprop(*inputs, out, dout) calling the bprop kernel with (*inputs, out, dout) or (*inputs, dout)."""
    op = Custom(func, func_type="hybrid", debug=debug or None)
    with_out = bk.num_inputs == fwd.num_inputs + 2

    def bprop(*args: Any) -> tuple:
        grads = op(*args) if with_out else op(*args[:-2], args[-1])
        return grads if isinstance(grads, tuple) else (grads,)

    bprop.__name__ = bk.name
    bprop.hybrid_kernel = bk  # type: ignore[attr-defined]  # what an export carries: the kernel and its form
    bprop.takes_out = with_out  # type: ignore[attr-defined]
    return bprop


def _split_example(args: Any) -> tuple[list, list]:
    args = args if isinstance(args, tuple) else (args,)
    k = 0
    while k < len(args) and hasattr(args[k], "shape"):
        k += 1
    return list(args[:k]), list(args[k:])


@contextmanager
def _bound_on_success(namespace: dict) -> Iterator[None]:
    """Run the block; if it raises, put ``namespace`` back as it was (names added removed, names rebound
    restored): the cell's definitions appear only when its op was built."""
    before = dict(namespace)
    try:
        yield
    except BaseException:
        for key in [k for k in namespace if k not in before]:
            del namespace[key]
        for key, value in before.items():
            if namespace.get(key, _MISSING) is not value:
                namespace[key] = value
        raise


def compile_hybrid(name: str, code: str, opts: CellOptions, namespace: dict, *, filename: str,
                   first_line: int = 1, header: str = "") -> CellResult:
    """Turn a hybrid cell into a :class:`~mskernel.cells.result.CellResult` whose ``value`` is the op.

    ``namespace`` is where the cell runs (the notebook's user namespace): it is changed only when the
    op was built; NAME itself is not bound here (:func:`mskernel.cells.run_cell` does that).
    """
    from mskernel.cells.options import cell_key
    from mskernel.cells.result import CellResult

    t0 = time.perf_counter()
    try:
        tree = ast.parse(code, filename=filename)
    except SyntaxError as exc:
        from mskernel.errors import SourceLocation
        line = (exc.lineno or 1) + first_line - 1
        loc = SourceLocation(filename, line, exc.offset or 0)
        raise CellError(name, f"invalid Python syntax: {exc.msg}", code=code, first_line=first_line,
                        location=loc) from None
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    kname = _pick_kernel(name, defs, opts.bprop, code, first_line)
    hk = _parse_kernel(name, kname, code, filename, first_line, opts.debug)
    hk.rebuild = opts.force
    bprop_kernel = None
    if opts.bprop is not None:
        if opts.bprop in defs:
            if _uses_dsl(defs[opts.bprop]):
                bprop_kernel = _parse_kernel(name, opts.bprop, code, filename, first_line, opts.debug)
                bprop_kernel.rebuild = opts.force
                _check_bprop_kernel(name, hk, bprop_kernel)
        elif not callable(namespace.get(opts.bprop)):
            raise CellError(name, f"--bprop {opts.bprop}: no function {opts.bprop!r} in the cell or the namespace"
                            + (f" (the namespace has a {type(namespace[opts.bprop]).__name__})"
                               if opts.bprop in namespace else ""))
    kernel_names = [k for k, d in defs.items() if k == kname or _uses_dsl(d)]
    out_shape = evaluate_expression(name, "--out-shape", opts.out_shape, namespace)
    out_dtype = evaluate_expression(name, "--out-dtype", opts.out_dtype, namespace)
    example = evaluate_expression(name, "--example", opts.example, namespace)

    artifact, source = None, ""
    if example is not None:  # compiled before anything is bound; the op runs this very kernel
        tensors, attrs = _split_example(example)
        try:
            ck = hk.compile(tensors, attr_types=attrs)
        except HybridError as err:
            raise _fail(name, f"kernel {kname}: {err.reason}", code, first_line, err) from err
        artifact, source = ck.artifact, ck.source
    elif opts.show_source:
        try:
            source = hk.source(["float32"] * hk.num_inputs, [1] * hk.num_inputs)
            source = f"// for float32 inputs of rank 1 (give --example to see it for your inputs)\n{source}"
        except HybridError as err:
            source = f"// no C++ without example inputs ({err.reason}): give --example"

    remember_source(filename, code, first_line, header)
    with _bound_on_success(namespace):
        exec(compile(ast.increment_lineno(tree, first_line - 1), filename, "exec"), namespace)  # noqa: S102
        hk.attach(namespace[kname])  # ops.Custom over the function takes hk: no second parse or compile
        if bprop_kernel is not None:
            bprop_kernel.attach(namespace[opts.bprop])
        for k in kernel_names:
            if not is_kernel(namespace[k]):
                namespace[k] = kernel(namespace[k])
        func = namespace[kname]
        bprop = None
        if opts.bprop is not None:
            if bprop_kernel is not None:
                bprop = _kernel_bprop(hk, bprop_kernel, namespace[opts.bprop], opts.debug)
            else:
                bprop = namespace[opts.bprop]
        try:
            op = Custom(func, out_shape, out_dtype, func_type="hybrid", bprop=bprop, debug=opts.debug or None)
        except HybridError as err:
            raise _fail(name, f"kernel {kname}: {err.reason}", code, first_line, err) from err
        except (TypeError, ValueError) as err:
            raise CellError(name, str(err)) from err
    seconds = time.perf_counter() - t0
    sig = f"{kname}({', '.join(hk.input_names)}) -> {', '.join(hk.output_names)}"
    bound = [(name, sig if kname == name else f"{name} = {sig}")]
    for k in kernel_names:
        if k in (kname, name):
            continue
        if bprop_kernel is not None and k == bprop_kernel.name:
            bk = bprop_kernel
            sig = f"{k}({', '.join(bk.input_names)}) -> {', '.join(bk.output_names)}"
            bound.append((k, f"{sig} (the bprop; Python on numpy)"))
        else:
            bound.append((k, f"{k} (a kernel; Python on numpy)"))
    notes = opts.notes()
    if bprop is not None:
        notes.append(f"bprop: {getattr(bprop, '__name__', opts.bprop)}"
                     + (" (a kernel of the cell)" if bprop_kernel is not None else ""))
    return CellResult(name, "hybrid", op, bound, cached=bool(getattr(artifact, "cached", False)), seconds=seconds,
                      key=cell_key(code, opts), artifact=artifact, kernels={kname: hk}, notes=notes, source=source,
                      log=getattr(artifact, "log", "") or "", verbose=opts.verbose, show_source=opts.show_source,
                      code=code, options=opts, example=example)
