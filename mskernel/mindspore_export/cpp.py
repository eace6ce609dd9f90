"""A C++ cell or ``CustomOpBuilder`` -> a directory MindSpore builds: the sources unchanged and a loader.

The loader ``NAME.py`` constructs MindSpore's builder as its documentation shows,
``builder = ops.CustomOpBuilder(name=..., sources=..., backend="CPU")``, and ``builder.load()``
compiles and imports the module (MindSpore's CPU wheel does this with g++). A cell bound with
``--forward F --backward B`` has no ``PYBIND11_MODULE``: the directory then also holds
``NAME_module.cpp``, which includes the cell's file unchanged and adds the two bindings mskernel
added, and the loader defines ``Op``, an ``nn.Cell`` whose ``bprop`` calls B (one differentiable op).

Refused: ``--debug``/``debug_mode`` builds (mskernel's), a backend MindSpore's builder does not take,
and an ``#include`` of an mskernel-only header (``mskernel/...``), at its line.

Example:
    >>> import tempfile
    >>> from mskernel.cells import CellResult, CellOptions
    >>> code = '#include "ms_extension/api.h"\\nms::Tensor same(const ms::Tensor &x) { return x; }\\n' \\
    ...        'PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("same", &same); }\\n'
    >>> r = CellResult("same", "cpp", None, [("same", "module same")], False, 0.0, "0" * 64, code=code,
    ...                options=CellOptions(lang="cpp"))
    >>> out = export_cpp(r, tempfile.mkdtemp() + "/same")
    >>> sorted(p.name for p in out.iterdir())
    ['same.cpp', 'same.py']
    >>> 'builder = ops.CustomOpBuilder(name="same", sources=os.path.join(HERE, "same.cpp"), backend="CPU")' \\
    ...     in (out / "same.py").read_text()
    True
"""
from __future__ import annotations

import hashlib
import os
import re
import shlex
from pathlib import Path
from typing import Any, Optional

from mskernel.cells.result import CellResult
from mskernel.errors import SourceLocation
from mskernel.mindspore_export.provenance import Origin, origin
from mskernel.mindspore_export.refusals import ExportError, refuse_debug

__all__ = ["export_cpp", "check_includes"]

_MSKERNEL_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](mskernel/[^>"]*)[>"]', re.MULTILINE)
_BACKENDS = ("CPU", "Ascend")


def check_includes(op: str, filename: str, text: str, first_line: int = 1) -> None:
    """Refuse an ``#include`` of an mskernel-only header (MindSpore's are ``ms_extension/api.h``, ``ms_extension.h``).

    Example:
        >>> try:
        ...     check_includes("k", "<cell k>", '#include "mskernel/extension.h"\\n', first_line=2)
        ... except ExportError as e:
        ...     print(e.construct, e.location.line)
        #include "mskernel/extension.h" 2
    """
    m = _MSKERNEL_INCLUDE.search(text)
    if m is None:
        return
    k = text.count("\n", 0, m.start())
    line = text.split("\n")[k]
    raise ExportError(op, f'#include "{m.group(1)}"', "it is mskernel's own header; MindSpore's builder has only "
                      "its own", 'include "ms_extension/api.h" (MindSpore 2.7+) or "ms_extension.h" instead',
                      SourceLocation(filename, first_line + k, 1, line))


def _params(code: str, func: str, fallback: int) -> list[str]:
    """The parameter names of C++ function ``func`` in ``code`` (x0, x1, ... when they cannot be read)."""
    m = re.search(rf"\b{re.escape(func)}\s*\(([^()]*)\)\s*\{{", code)
    names = []
    if m is not None:
        for part in [p for p in m.group(1).split(",") if p.strip()]:
            word = re.findall(r"[A-Za-z_]\w*", part)
            names.append(word[-1] if word else "")
    if m is None or not all(names) or len(set(names)) != len(names) or {"out", "dout", "self"} & set(names):
        return [f"x{k}" for k in range(fallback)]
    return names


def _arity(fn: Any) -> int:
    first = ((getattr(fn, "__doc__", None) or "").splitlines() or [""])[0]
    return len(re.findall(r"\barg\d+\b", first))


def _cell_sources(result: CellResult) -> tuple[list[tuple[str, str]], str, dict]:
    opts = result.options
    name = result.name
    files = [(f"{name}.cpp", result.code)]
    main = f"{name}.cpp"
    if opts.forward is not None:
        main = f"{name}_module.cpp"
        files.append((main, f'// The bindings %%custom_op {name} --forward {opts.forward} --backward {opts.backward} '
                      f'added: the cell is {name}.cpp, unchanged.\n#include "{name}.cpp"\n\n'
                      "#include <pybind11/pybind11.h>\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {\n"
                      f'  m.def("{opts.forward}", &{opts.forward});\n  m.def("{opts.backward}", &{opts.backward});\n'
                      "}\n"))
    flags = {"backend": opts.backend, "cflags": " ".join(map(shlex.quote, opts.cflags)) or None,
             "ldflags": " ".join(map(shlex.quote, opts.ldflags)) or None,
             "include_paths": list(opts.include_dirs) or None}
    return files, main, flags


def _builder_sources(builder: Any) -> tuple[list[tuple[str, str]], list[str], dict]:
    files, mains = [], []
    for k, src in enumerate(builder.source or []):
        if os.path.isfile(src):
            files.append((os.path.basename(src), Path(src).read_text()))
        else:  # an inline source (mskernel's extension): written as a file
            files.append((f"{builder.name}_inline_{k}.cpp", src))
        mains.append(files[-1][0])
    flags = {"backend": builder.backend, "cflags": builder.cflags, "ldflags": builder.ldflags,
             "include_paths": builder.include_paths}
    return files, mains, flags


def _loader(name: str, mains: list[str], flags: dict, where: Origin, fb: Optional[tuple[str, str, list[str]]]) -> str:
    sources = f'os.path.join(HERE, "{mains[0]}")' if len(mains) == 1 else \
        "[" + ", ".join(f'os.path.join(HERE, "{m}")' for m in mains) + "]"
    args = [f'name="{name}"', f"sources={sources}", f'backend="{flags["backend"] or "CPU"}"']
    args += [f"{k}={flags[k]!r}" for k in ("include_paths", "cflags", "ldflags") if flags.get(k)]
    doc = [f'"""{name}: a C++ custom-op module for MindSpore, exported by mskernel.', "", *where.lines(), "",
           f"MindSpore's CustomOpBuilder compiles {', '.join(mains)} on the first load():", "",
           f"    from {name} import builder", "    my_ops = builder.load()"]
    if fb is not None:
        fwd, bwd, params = fb
        doc += ["", f"The op %%custom_op bound ({fwd} with {bwd} as its gradient), as a Cell:", "",
                "    import mindspore as ms", f"    from {name} import Op", "    op = Op()",
                f"    out = op({', '.join(params)})",
                f"    grads = ms.grad(op, grad_position={tuple(range(len(params)))})({', '.join(params)})"]
    lines = doc + ['"""', "import os", "", "from mindspore import " + ("nn, ops" if fb else "ops"), "",
                   "HERE = os.path.dirname(os.path.abspath(__file__))", "",
                   f"builder = ops.CustomOpBuilder({', '.join(args)})"]
    if fb is not None:
        fwd, bwd, params = fb
        p = ", ".join(params)
        lines += ["", "", "class Op(nn.Cell):",
                  f'    """{fwd} with {bwd}(inputs..., out, dout) as its bprop: one differentiable op."""', "",
                  "    def __init__(self):", "        super().__init__()", "        self.module = builder.load()", "",
                  f"    def construct(self, {p}):", f"        return self.module.{fwd}({p})", "",
                  f"    def bprop(self, {p}, out, dout):", f"        grads = self.module.{bwd}({p}, out, dout)",
                  "        return grads if isinstance(grads, tuple) else (grads,)"]
    return "\n".join(lines) + "\n"


def export_cpp(value: Any, path: str | Path) -> Path:
    """Write the directory of a C++ cell (its :class:`CellResult`) or an mskernel ``CustomOpBuilder``."""
    fb = None
    if isinstance(value, CellResult):
        name = value.name
        if getattr(value.options, "debug", False):
            raise refuse_debug(name, SourceLocation(f"<cell {name}>", 1), cell=True)
        files, main, flags = _cell_sources(value)
        mains = [main]
        check_includes(name, f"<cell {name}>", value.code, first_line=2)
        where = origin(value)
        opts = value.options
        if opts.forward is not None:
            fb = (opts.forward, opts.backward,
                  _params(value.code, opts.forward, _arity(getattr(value.value, "forward", None))))
    else:
        name = value.name
        if value.debug_mode:
            raise ExportError(name, "debug_mode=True", "mskernel builds it with -g -O0; MindSpore 2.10 documents "
                              "no such option", "construct the CustomOpBuilder without debug_mode, then export it")
        files, mains, flags = _builder_sources(value)
        for fname, text in files:
            check_includes(name, fname, text)
        where = Origin(f"CustomOpBuilder({name!r}, {len(files)} source file{'s' * (len(files) != 1)})",
                       "sha256 " + hashlib.sha256("".join(t for _, t in files).encode()).hexdigest()[:16])
    if flags["backend"] not in (None,) + _BACKENDS:
        raise ExportError(name, f"backend {flags['backend']!r}", "MindSpore's CustomOpBuilder builds for "
                          + " or ".join(_BACKENDS), 'use backend "CPU" (or "Ascend")')
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    for fname, text in files:
        (out / fname).write_text(text)
    (out / f"{name}.py").write_text(_loader(name, mains, flags, where, fb))
    return out
