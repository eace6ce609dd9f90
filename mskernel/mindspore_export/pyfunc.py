"""Carrying Python functions into a file MindSpore runs, and the pyfunc op export built on it.

:class:`Carrier` writes a function's own source (``inspect.getsource``) and whatever it reads from its
module: numpy and mskernel modules become ``import numpy``/``import mindspore`` lines (``mskernel.x``
is ``mindspore.x``), mskernel's and numpy's public objects become ``from ... import`` lines, other
functions are carried the same way, and literal constants are written as assignments. A lambda is
carried when its text can be found unambiguously (``out_shape=lambda x: x`` on the call's line). What
cannot be carried is an :class:`~mskernel.mindspore_export.refusals.ExportError` naming it: a closure (its
free variables live in a frame that is gone), a function without source, an object read from a
module other than numpy/mskernel (the file imports only mindspore and numpy), a tensor or other value.

:func:`export_pyfunc` writes ``op = ops.Custom(func, out_shape, out_dtype, func_type="pyfunc",
bprop=..., reg_info=...)`` with everything it needs.

Example:
    >>> import numpy as np
    >>> SCALE = 2.0
    >>> def twice(x):
    ...     return np.multiply(x, SCALE)
    >>> c = Carrier("twice")
    >>> c.carry(twice, "the function")
    'twice'
    >>> c.imports(), c.definitions()[0]
    (['import numpy as np'], 'SCALE = 2.0')
"""
from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap
import types
from pathlib import Path
from typing import Any, Optional

from mskernel.cells.result import CellResult
from mskernel.errors import SourceLocation
from mskernel.mindspore_export.provenance import origin
from mskernel.mindspore_export.refusals import ExportError, check_attr_specs

__all__ = ["Carrier", "export_pyfunc", "dtype_text"]

_PUBLIC_MODULES = ("mskernel", "mskernel.ops", "mskernel.nn", "mskernel.numpy")


def _mindspore_name(module: str) -> str:
    return "mindspore" + module[len("mskernel"):]


def dtype_text(value: Any) -> Optional[str]:
    """``ms.float32`` for an mskernel dtype (None for anything else).

    Example:
        >>> import mskernel as ms
        >>> dtype_text(ms.float64), dtype_text(3)
        ('ms.float64', None)
    """
    ms = sys.modules.get("mskernel.dtype")
    if ms is None or not isinstance(value, ms.Type):
        return None
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64", "complex64", "complex128"):
        if getattr(ms, name, None) is value:
            return f"ms.{name}"
    return None


def _loc(fn: Any) -> Optional[SourceLocation]:
    """Where a function is defined (its ``def`` or lambda line), for messages."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    line = linecache.getline(code.co_filename, code.co_firstlineno).rstrip("\n") or None
    return SourceLocation(code.co_filename, code.co_firstlineno, 1, line)


def _literal(value: Any) -> Optional[str]:
    if isinstance(value, (bool, int, float, str, type(None), tuple, list, dict, frozenset, set)):
        text = repr(value)
        try:
            if ast.literal_eval(text) == value:
                return text
        except (ValueError, SyntaxError, TypeError):
            return None
    return None


def _lambda_text(fn: types.FunctionType) -> tuple[Optional[str], str]:
    """``(text, "")`` of a lambda -- the lambda on its source lines whose code is ``fn``'s -- or ``(None, why not)``."""
    try:
        src = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as exc:
        return None, f"its source is not available ({exc})"
    for candidate in (src, f"({src.strip().rstrip(',')})"):
        try:
            tree = ast.parse(candidate)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Lambda):
                continue
            seg = ast.get_source_segment(candidate, node)
            code = compile(seg, "<lambda>", "eval").co_consts[0] if seg else None
            if isinstance(code, types.CodeType) and code.co_code == fn.__code__.co_code and \
                    code.co_names == fn.__code__.co_names and code.co_varnames == fn.__code__.co_varnames and \
                    code.co_consts == fn.__code__.co_consts:
                return seg, ""
    return None, "its text cannot be told apart from the source line around it"


class Carrier:
    """Collects the imports and definitions a file needs to hold some functions (see the module docstring).

    ``reserved`` are names the file defines itself: a carried name that clashes is refused; ``known``
    maps names the file already imports to their mskernel objects (a function reading them is fine).
    """

    def __init__(self, op: str, reserved: frozenset[str] | set[str] = frozenset(),
                 known: Optional[dict[str, Any]] = None) -> None:
        self.op = op
        self.reserved = set(reserved)
        self._imports: list[str] = []
        self._defs: dict[str, str] = {}
        self._values: dict[str, Any] = dict(known or {})
        self._lambdas = 0

    def imports(self) -> list[str]:
        """The import lines, numpy before mindspore."""
        return sorted(self._imports, key=lambda line: ("mindspore" in line, line))

    def definitions(self) -> list[str]:
        """The lines of the definitions: constants, then the functions, two blank lines apart (a
        function reads its globals when it runs, so their order does not matter)."""
        consts = [t for t in self._defs.values() if not t.startswith(("def ", "@"))]
        funcs = [t for t in self._defs.values() if t.startswith(("def ", "@"))]
        out = consts + ([""] * 2 if consts and funcs else [])
        for k, text in enumerate(funcs):
            out += (["", ""] if k else []) + text.rstrip("\n").split("\n")
        return out

    def _claim(self, name: str, value: Any, what: str) -> bool:
        """Reserve ``name`` for ``value``; False when it already is (carried once)."""
        if name in self._values:
            if self._values[name] is value:
                return False
            raise ExportError(self.op, f"the name {name}", f"{what} and another object are both called {name}",
                              "rename one of them")
        if name in self.reserved:
            raise ExportError(self.op, f"the name {name}", "the exported file needs that name for itself",
                              f"rename {name}")
        self._values[name] = value
        return True

    def value(self, name: str, value: Any, reader: str, loc: Optional[SourceLocation] = None) -> None:
        """Make the global ``name`` = ``value`` (read by ``reader``, defined at ``loc``) available in the file."""
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            if mod == "numpy" or mod.startswith("numpy."):
                line = f"import {mod}" + ("" if name == mod else f" as {name}")
            elif mod == "mskernel" or mod.startswith("mskernel."):
                line = f"import {_mindspore_name(mod)}" + ("" if name == mod else f" as {name}")
                if "." in mod and name == mod.rpartition(".")[2]:
                    line = f"from {_mindspore_name(mod.rpartition('.')[0])} import {name}"
            else:
                raise ExportError(self.op, f"the module {mod} (read by {reader} as {name})",
                                  "the exported file imports only mindspore and numpy",
                                  f"use numpy or mskernel instead of {mod} in {reader}", loc)
            if self._claim(name, value, f"the module {mod}"):
                self._imports.append(line)
            return
        if isinstance(value, types.FunctionType) and not getattr(value, "__module__", "").startswith("mskernel"):
            self.carry(value, f"a function {reader} calls", name)
            return
        found = self._public(name, value)
        if found is not None:
            if self._claim(name, value, "an imported name"):
                self._imports.append(found)
            return
        text = dtype_text(value) or _literal(value)
        if text is None:
            raise ExportError(self.op, f"the global {name} (a {type(value).__name__}, read by {reader})",
                              "only functions, numpy/mskernel names and literal constants can be written into the "
                              "exported file", f"pass {name} in as an argument, or make it a literal constant", loc)
        if text.startswith("ms."):
            self.value("ms", sys.modules["mskernel"], reader)
        if self._claim(name, value, "a constant"):
            self._defs[name] = f"{name} = {text}"

    @staticmethod
    def _public(name: str, value: Any) -> Optional[str]:
        for mod in _PUBLIC_MODULES + ("numpy",):
            module = sys.modules.get(mod)
            for attr in ([name] if module is not None else []) + [getattr(value, "__name__", None)]:
                if module is not None and isinstance(attr, str) and getattr(module, attr, None) is value:
                    target = mod if mod == "numpy" else _mindspore_name(mod)
                    return f"from {target} import {attr}" + ("" if attr == name else f" as {name}")
        return None

    def carry(self, fn: Any, role: str, name: Optional[str] = None) -> str:
        """Write ``fn`` (a function or lambda) and what it reads; returns the name it has in the file."""
        raw = inspect.unwrap(fn)
        label = getattr(raw, "__name__", type(raw).__name__)
        if not isinstance(raw, types.FunctionType):
            found = self._public(name or label, raw)
            if found is not None:
                if self._claim(name or label, raw, "an imported name"):
                    self._imports.append(found)
                return name or label
            raise ExportError(self.op, f"{role} ({type(raw).__name__} {label})", "only Python functions (def or "
                              "lambda) carry their source", "write it as a def in a file or notebook cell")
        if raw.__code__.co_freevars:
            raise ExportError(self.op, f"{role} {label}, a closure", "it reads " + ", ".join(raw.__code__.co_freevars)
                              + " from the function that made it, which the exported file cannot hold",
                              "define it at the top level of a file or cell, taking those values as arguments "
                              "or constants", _loc(raw))
        if label == "<lambda>":
            text, why = _lambda_text(raw)
            if text is None:
                raise ExportError(self.op, f"{role}, a lambda", why, "write it as a def in a file or notebook cell",
                                  _loc(raw))
            self._lambdas += 1
            target = name or f"_lambda{self._lambdas}"
            if not self._claim(target, raw, role):
                return target
            body = f"{target} = {text}"
        else:
            target = name or label
            if not self._claim(target, raw, role):
                return target
            try:
                src = textwrap.dedent(inspect.getsource(raw))
            except (OSError, TypeError) as exc:
                raise ExportError(self.op, f"{role} {label}", f"its source is not available ({exc})",
                                  "define it in a file or notebook cell") from None
            tree = ast.parse(src).body[0]
            body = "\n".join(src.split("\n")[tree.lineno - 1:])  # from the def: decorators dropped
            if target != label:
                body = body.replace(f"def {label}(", f"def {target}(", 1)
        for gname, gvalue in inspect.getclosurevars(raw).globals.items():
            self.value(gname, gvalue, f"{role} {label}", _loc(raw))
        self._defs[target] = body
        return target


def _spec_text(c: Carrier, spec: Any, what: str) -> str:
    if callable(spec) and not isinstance(spec, type):
        return c.carry(spec, what)
    if isinstance(spec, (list, tuple)):
        parts = [_spec_text(c, s, what) for s in spec]
        return "(" + "".join(p + ", " for p in parts).rstrip(" ") + ")" if isinstance(spec, tuple) else \
            "[" + ", ".join(parts) + "]"
    text = dtype_text(spec) or _literal(spec)
    if text is None:
        raise ExportError(c.op, f"{what} {spec!r}", "MindSpore takes an infer function, a shape or a mindspore dtype",
                          f"give {what} as one of them (e.g. ms.float32 rather than numpy's float32)")
    if text.startswith("ms."):
        c.value("ms", sys.modules["mskernel"], what)
    return text


def export_pyfunc(op: Any, path: str | Path, *, result: Optional[CellResult] = None) -> Path:
    """Write the MindSpore file of a ``func_type="pyfunc"`` op; returns its path."""
    name = op.func_name or "op"
    check_attr_specs(name, op.attr_specs)
    c = Carrier(name, reserved={"op"})
    c.value("ops", sys.modules["mskernel.ops"], "the op")
    func = c.carry(op.func, "the function")
    shape = _spec_text(c, op.out_shape, "out_shape")
    dtype = _spec_text(c, op.out_dtype, "out_dtype")
    bprop = c.carry(op.bprop, "the bprop") if op.bprop is not None else None
    args = [func, f"out_shape={shape}", f"out_dtype={dtype}", 'func_type="pyfunc"']
    if bprop is not None:
        args.append(f"bprop={bprop}")
    if op.reg_infos:
        args.append(f"reg_info={list(op.reg_infos.values())!r}")
    where = origin(result, op.func, inspect.getsource(inspect.unwrap(op.func)))
    module = Path(path).stem
    doc = [f'"""{name}: a custom operator for MindSpore (func_type "pyfunc"), exported by mskernel.', "",
           *where.lines(), f"Backward: {'the bprop ' + bprop if bprop else 'none (the op has no bprop)'}", "",
           "Use it in MindSpore (pyfunc ops run on the CPU):", "", "    import mindspore as ms",
           f"    from {module} import op", "    out = op(*inputs)", '"""']
    lines = doc + c.imports() + ["", ""] + c.definitions() + ["", ""]
    lines.append("op = ops.Custom(" + ", ".join(args) + ")")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    return out
