"""What a ``%%custom_op`` cell asks for: its language and its options, checked before anything runs.

:func:`detect_language` reads the cell (C++ when it has ``#include``, ``PYBIND11_MODULE`` or
``Function<``; the hybrid DSL otherwise). :class:`CellOptions` holds every option of the magic with
plain Python types; :meth:`CellOptions.check` rejects a bad combination with a message naming the
option, what was expected and what was got. :meth:`CellOptions.key_items` is the part of the options
that changes what is built (it goes into the cell's cache key, :func:`cell_key`).

Example:
    >>> detect_language('#include "ms_extension.h"\\nint f();')
    'cpp'
    >>> detect_language("def square(x):\\n    return x")
    'hybrid'
    >>> CellOptions(cflags=["-O3"]).check("cpp").cflags
    ['-O3']
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import asdict, dataclass, field, replace

from mskernel._version import __version__

__all__ = ["BACKENDS", "LANGUAGES", "CellOptions", "cell_key", "detect_language"]

LANGUAGES = ("cpp", "hybrid")
BACKENDS = ("CPU", "GPU", "Ascend")

# One rule per line: a pattern that marks a cell as C++.
_CPP_MARKERS = (
    re.compile(r"^\s*#\s*include\b", re.MULTILINE),
    re.compile(r"\bPYBIND11_MODULE\s*\("),
    re.compile(r"\bFunction\s*<"),
)


def detect_language(code: str) -> str:
    """``'cpp'`` when the cell has ``#include``, ``PYBIND11_MODULE`` or ``Function<``, else ``'hybrid'``.

    Example:
        >>> detect_language("PYBIND11_MODULE(MS_EXTENSION_NAME, m) {}")
        'cpp'
    """
    return "cpp" if any(p.search(code) for p in _CPP_MARKERS) else "hybrid"


@dataclass(frozen=True)
class CellOptions:
    """The options of one ``%%custom_op`` cell (see ``%%custom_op?`` for their meaning).

    Example:
        >>> CellOptions(backend="GPU").check("hybrid").notes()
        ["backend 'GPU' is not available here: the op runs on the CPU"]
    """

    lang: str | None = None
    backend: str = "CPU"
    cflags: list = field(default_factory=list)
    ldflags: list = field(default_factory=list)
    include_dirs: list = field(default_factory=list)
    out_shape: str | None = None
    out_dtype: str | None = None
    bprop: str | None = None
    forward: str | None = None
    backward: str | None = None
    example: str | None = None
    debug: bool = False
    force: bool = False
    verbose: bool = False
    show_source: bool = False
    quiet: bool = False

    def check(self, lang: str) -> CellOptions:
        """Validate the options for a cell of language ``lang``; returns them with ``lang`` set.

        Example:
            >>> try:
            ...     CellOptions(bprop="g").check("cpp")
            ... except ValueError as e:
            ...     print(str(e)[:48])
            %%custom_op: --bprop applies to hybrid cells (a
        """
        if lang not in LANGUAGES:
            raise ValueError(f"%%custom_op: --lang must be one of {', '.join(LANGUAGES)}, but got {lang!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"%%custom_op: --backend must be one of {', '.join(BACKENDS)}, but got {self.backend!r}")
        for opt in ("bprop", "forward", "backward"):
            value = getattr(self, opt)
            if value is not None and not value.isidentifier():
                raise ValueError(f"%%custom_op: --{opt} must name a function (a Python identifier), but got {value!r}")
        if lang == "cpp":
            for opt, why in (("bprop", "a C++ cell gives its backward with --backward or Function<T>"),
                             ("out_shape", "a C++ op allocates its own outputs"),
                             ("out_dtype", "a C++ op allocates its own outputs"),
                             ("example", "a C++ cell is compiled as a whole"),
                             ("show_source", "the cell is the source")):
                if getattr(self, opt):
                    raise ValueError(f"%%custom_op: --{opt.replace('_', '-')} applies to hybrid cells ({why}), "
                                     f"but this cell is C++")
            if (self.forward is None) != (self.backward is None):
                given, missing = ("forward", "backward") if self.backward is None else ("backward", "forward")
                raise ValueError(f"%%custom_op: --{given} needs --{missing} too (two plain functions of the module "
                                 f"bound into one differentiable op), but only --{given} was given")
        else:
            for opt in ("forward", "backward", "cflags", "ldflags", "include_dirs"):
                if getattr(self, opt):
                    flag = {"include_dirs": "-I", "cflags": "--cflags", "ldflags": "--ldflags"}.get(opt, f"--{opt}")
                    raise ValueError(f"%%custom_op: {flag} applies to C++ cells, but this cell is hybrid (add "
                                     f"--lang cpp if it is C++)")
        return replace(self, lang=lang)

    def notes(self) -> list[str]:
        """Remarks for the summary (e.g. a GPU/Ascend backend running on the CPU).

        Example:
            >>> CellOptions().notes()
            []
        """
        if self.backend != "CPU":
            return [f"backend {self.backend!r} is not available here: the op runs on the CPU"]
        return []

    def key_items(self) -> dict:
        """The options that change what a cell builds (not --force/--verbose/--quiet/--show-source).

        Example:
            >>> sorted(CellOptions().key_items())[:3]
            ['backward', 'bprop', 'cflags']
        """
        items = asdict(self)
        for k in ("force", "verbose", "quiet", "show_source", "backend"):
            items.pop(k)
        return items


def cell_key(code: str, options: CellOptions) -> str:
    """sha256 of the cell's code, the options that change the result, and the versions involved.

    Example:
        >>> a = cell_key("int f();", CellOptions(lang="cpp"))
        >>> a == cell_key("int f();", CellOptions(lang="cpp", quiet=True)), a == cell_key("int g();", CellOptions())
        (True, False)
    """
    payload = {"code": code, "options": options.key_items(), "mskernel": __version__,
               "python": sys.implementation.cache_tag}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
