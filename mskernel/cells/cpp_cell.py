"""A C++ cell -> a pybind11 module NAME built by the build layer -> the module, or one differentiable op.

The cell is compiled as ``Source("<cell NAME>", ...)`` with blank lines in front so that compiler
diagnostics carry the notebook's line numbers; ``PYBIND11_MODULE(MS_EXTENSION_NAME, m)`` gets NAME.
An unchanged cell (same code and options) is loaded from the build cache without running the
compiler; ``--force`` compiles it again (``build(force=True)``). With ``--forward F --backward B``
and no ``PYBIND11_MODULE`` in the cell, the two functions are bound automatically. The ticker hears
every stage as it happens: ``"checking the build cache"``, then the build layer's own (``"preparing
headers (once; usually ~N s)"``, ``"compiling"``, ``"linking"``... see ``mskernel.toolchain.api``) when
the cell is compiled, then ``"loading"``; the result's ``stages`` lists them with their durations.

Example:
    >>> code = ('#include "ms_extension.h"\\n'
    ...         'ms::Tensor twice(const ms::Tensor &x) { return x; }\\n'
    ...         'ms::Tensor twice_bw(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &d) '
    ...         '{ return d; }\\n')
    >>> opts = CellOptions(lang="cpp", forward="twice", backward="twice_bw")
    >>> "m.def(\\"twice\\", &twice)" in module_source("op", code, opts, first_line=2)
    True
"""
from __future__ import annotations

import re
import time
from typing import Any

from mskernel.cells.binding import ForwardBackwardOp
from mskernel.cells.errors import CellError
from mskernel.cells.options import CellOptions, cell_key, evaluate_expression
from mskernel.cells.progress import Ticker
from mskernel.cells.result import CellResult
from mskernel.toolchain import BuildError, Source, build, load_python_module

__all__ = ["compile_cpp", "module_source"]

_MODULE = re.compile(r"\bPYBIND11_MODULE\s*\(")


def module_source(name: str, code: str, opts: CellOptions, first_line: int = 1) -> str:
    """The text compiled for a C++ cell: padded to cell line numbers, plus automatic bindings of
    ``--forward``/``--backward`` when the cell has no ``PYBIND11_MODULE``."""
    text = "\n" * (first_line - 1) + code
    if _MODULE.search(code):
        return text
    if opts.forward is None:
        raise CellError(name, "a C++ cell must define PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(...); } or name "
                        "two plain functions with --forward F --backward B (they are then bound for you)")
    return (text.rstrip("\n") + "\n\n// bindings added by %%custom_op --forward/--backward\n"
            "#include <pybind11/pybind11.h>\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {\n"
            f'  m.def("{opts.forward}", &{opts.forward});\n  m.def("{opts.backward}", &{opts.backward});\n}}\n')


def _build_error(name: str, code: str, first_line: int, err: BuildError, filename: str) -> CellError:
    if err.disk_full:  # not the cell's fault: the message says which directory is full and how to move it
        return CellError(name, "build failed: " + str(err).split(": ", 1)[1], log=err.log)
    errors = [d for d in err.diagnostics if d.severity == "error"]
    reason = errors[0].message if errors else str(err).splitlines()[0]
    loc = err.location if err.location is not None and err.location.file == filename else None
    if loc is None and err.location is not None:
        reason += f" (at {err.location})"
    if loc is not None and loc.line > first_line - 1 + len(code.splitlines()):
        reason += " (in the bindings added for --forward/--backward: check the function names)"
        loc = None
    more = len(errors) - 1
    if more > 0:
        reason += f"; {more} more error{'s' if more > 1 else ''} in the log"
    return CellError(name, f"compile error: {reason}", code=code, first_line=first_line, location=loc,
                     log=err.log)


def _signature(owner: str, attr: str, obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    first = doc[0] if doc else ""
    if first.startswith(attr + "("):
        return f"{owner}.{first}"
    return f"{owner}.{attr}(...)"


def compile_cpp(name: str, code: str, opts: CellOptions, *, filename: str, first_line: int = 1,
                ticker: Ticker | None = None, namespace: dict | None = None) -> CellResult:
    """Build (or load from the cache) a C++ cell; ``value`` is the module or a ForwardBackwardOp.

    ``--example`` is evaluated in ``namespace`` before anything is built (the result's ``example``).
    Raises :class:`CellError` for an ``--example`` that does not evaluate, a compile error (located at
    the cell's line, the full log in ``.log``), a module that does not load, or missing
    --forward/--backward functions.
    """
    ticker = ticker or Ticker(None)
    t0 = time.perf_counter()
    example = evaluate_expression(name, "--example", opts.example, namespace if namespace is not None else {})
    text = module_source(name, code, opts, first_line)
    kw = {"kind": "pybind11", "cflags": opts.cflags, "ldflags": opts.ldflags, "include_paths": opts.include_dirs,
          "debug": opts.debug}
    ticker.stage("checking the build cache")
    try:
        art = build(name, [Source(filename, text)], force=opts.force, on_stage=ticker.stage, **kw)
    except BuildError as err:
        raise _build_error(name, code, first_line, err, filename) from err
    except (TypeError, ValueError) as err:
        raise CellError(name, str(err)) from err
    ticker.stage("loading")
    try:
        module = load_python_module(art, name)
    except ImportError as err:
        raise CellError(name, f"the module built but does not load: {err}", log=art.log) from err
    public = [a for a in dir(module) if not a.startswith("_")]
    value: Any = module
    if opts.forward is not None:
        missing = [f for f in (opts.forward, opts.backward) if not callable(getattr(module, f, None))]
        if missing:
            raise CellError(name, f"the module has no function {' or '.join(map(repr, missing))} (it defines "
                            f"{', '.join(public) or 'nothing'}): m.def() them in PYBIND11_MODULE")
        value = ForwardBackwardOp(name, getattr(module, opts.forward), getattr(module, opts.backward), module=module)
        sig = _signature(name, opts.forward, value.forward).split(".", 1)[1][len(opts.forward):]
        bound = [(name, f"{name}{sig} (forward {opts.forward}, backward {opts.backward})")]
    else:
        bound = [(name, f"module {name}")] + [(f"{name}.{a}", _signature(name, a, getattr(module, a)))
                                              for a in public]
    return CellResult(name, "cpp", value, bound, cached=art.cached, seconds=time.perf_counter() - t0,
                      key=cell_key(code, opts), artifact=art, notes=opts.notes(), source=text.lstrip("\n"),
                      log=art.log, commands=list(art.manifest.get("commands", [])), verbose=opts.verbose,
                      stages=ticker.stages(), code=code, options=opts, example=example)
