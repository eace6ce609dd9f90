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
import shlex
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable

from mskernel._version import __version__
from mskernel.cells.errors import CellError

__all__ = ["BACKENDS", "LANGUAGES", "CellOptions", "cell_key", "detect_language", "evaluate_expression",
           "option_specs", "split_flags", "unquote", "EXPRESSION_OPTIONS", "take_expressions"]

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


def unquote(value: str | None) -> str | None:
    """An option's text without one matching pair of surrounding quotes (magic_arguments keeps them).

    Example:
        >>> unquote('"(3, 4)"'), unquote("x")
        ('(3, 4)', 'x')
    """
    if value is not None and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def split_flags(values: list) -> list:
    """Compiler or linker flags given one or more times, each split like a shell.

    Example:
        >>> split_flags(['"-O3 -DN=4"', "-g"])
        ['-O3', '-DN=4', '-g']
    """
    return [flag for value in values for flag in shlex.split(unquote(value) or "")]


def _unquote_each(values: list) -> list:
    return [unquote(v) for v in values]


def _same(value: object) -> object:
    return value


def _opt(*flags: str, convert: Callable = _same, **argparse: object) -> dict:
    """The command-line form of one option: its flags, argparse settings and how its text becomes the value."""
    return {"flags": flags, "convert": convert, "argparse": argparse}


_STR = dict(default=None)
_LIST = dict(action="append", default=[])
_SWITCH = dict(action="store_true")


@dataclass(frozen=True)
class CellOptions:
    """The options of one ``%%custom_op`` cell (see ``%%custom_op?`` for their meaning).

    Each field is declared once, here: its metadata is the option's command-line form (flags, help),
    which the magic turns into its ``magic_arguments`` (``option_specs()`` in this module, :meth:`from_parsed`).

    Example:
        >>> CellOptions(backend="GPU").check("hybrid").notes()
        ["backend 'GPU' is not available here: the op runs on the CPU"]
    """

    lang: str | None = field(default=None, metadata=_opt(
        "--lang", choices=list(LANGUAGES), **_STR,
        help="the cell's language; by default C++ when it has #include, PYBIND11_MODULE or Function<, "
             "else the hybrid DSL"))
    backend: str = field(default="CPU", metadata=_opt(
        "--backend", default="CPU", help="CPU, GPU or Ascend (GPU and Ascend ops run on the CPU)"))
    cflags: list = field(default_factory=list, metadata=_opt(
        "-c", "--cflags", convert=split_flags, **_LIST,
        help='extra compiler flags (C++), split like a shell: -c "-O3 -DN=4"; may repeat'))
    ldflags: list = field(default_factory=list, metadata=_opt(
        "--ldflags", convert=split_flags, **_LIST, help="extra linker flags (C++); may repeat"))
    include_dirs: list = field(default_factory=list, metadata=_opt(
        "-I", convert=_unquote_each, metavar="DIR", **_LIST, help="an include directory (C++); may repeat"))
    out_shape: str | None = field(default=None, metadata=_opt(
        "--out-shape", convert=unquote, **_STR,
        help="a Python expression (no quotes needed): the out_shape of ops.Custom (hybrid)"))
    out_dtype: str | None = field(default=None, metadata=_opt(
        "--out-dtype", convert=unquote, **_STR,
        help="a Python expression (no quotes needed): the out_dtype of ops.Custom (hybrid)"))
    bprop: str | None = field(default=None, metadata=_opt(
        "--bprop", **_STR,
        help="a function FUNC(*inputs, out, dout) -> gradients, or a kernel of the cell taking "
             "(*inputs, out, dout) or (*inputs, dout) (hybrid)"))
    forward: str | None = field(default=None, metadata=_opt(
        "--forward", **_STR, help="a plain C++ function of the cell: the op's forward (with --backward)"))
    backward: str | None = field(default=None, metadata=_opt(
        "--backward", **_STR,
        help="a plain C++ function B(*inputs, out, dout) returning one gradient per input (with --forward)"))
    example: str | None = field(default=None, metadata=_opt(
        "--example", convert=unquote, **_STR,
        help="a Python expression giving example inputs, as written (no quotes needed: it runs to the next "
             "option), e.g. (ms.Tensor(np.ones(3)),) or names of the notebook: x, y; the hybrid kernel is compiled "
             "for them at once, and the op's gradients are checked on them as it is bound (see --no-gradcheck)"))
    check_kernel: bool = field(default=False, metadata=_opt(
        "--check", **_SWITCH,
        help="after binding, run the op once on the --example inputs in a checked build (races, reads of memory "
             "nothing wrote, C++ memory errors) and show what it found"))
    gradcheck: bool = field(default=True, metadata=_opt(
        "--no-gradcheck", action="store_false",
        help="do not check the op's gradients on the --example inputs (by default they are checked as the op "
             "is bound: its gradients against central differences, a mismatch shown with the failing input)"))
    debug: bool = field(default=False, metadata=_opt(
        "--debug", **_SWITCH, help="bounds-checked code (hybrid), -g -O0 (C++)"))
    force: bool = field(default=False, metadata=_opt(
        "--force", **_SWITCH, help="rebuild even when the cache has the cell"))
    verbose: bool = field(default=False, metadata=_opt(
        "--verbose", **_SWITCH, help="show the build commands and the full log"))
    show_source: bool = field(default=False, metadata=_opt(
        "--show-source", **_SWITCH, help="show the generated C++ of a hybrid kernel"))
    quiet: bool = field(default=False, metadata=_opt(
        "--quiet", **_SWITCH, help="show nothing when all is well (no progress, no summary)"))

    @classmethod
    def from_parsed(cls, parsed: object) -> CellOptions:
        """The options from an argparse namespace built with ``option_specs()`` (texts converted).

        Example:
            >>> import argparse
            >>> p = argparse.ArgumentParser()
            >>> for flags, kw in option_specs():
            ...     _ = p.add_argument(*flags, **kw)
            >>> CellOptions.from_parsed(p.parse_args(["-c", "-O3 -g", "--out-shape", "'(2,)'"])).cflags
            ['-O3', '-g']
        """
        return cls(**{f.name: f.metadata["convert"](getattr(parsed, f.name)) for f in fields(cls)})

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
                             ("show_source", "the cell is the source")):
                if getattr(self, opt):
                    raise ValueError(f"%%custom_op: --{opt.replace('_', '-')} applies to hybrid cells ({why}), "
                                     f"but this cell is C++")
            if self.check_kernel and self.forward is None:
                raise ValueError("%%custom_op: --check on a C++ cell needs --forward/--backward (the op the check "
                                 "calls), but neither was given")
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
        if self.check_kernel and self.example is None:
            raise ValueError("%%custom_op: --check needs --example (the inputs the op is run on in the checked build), "
                             "but no --example was given")
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
        """The options that change what a cell builds (not --force/--verbose/--quiet/--show-source, nor the
        checks run after binding: --check, --no-gradcheck).

        Example:
            >>> sorted(CellOptions().key_items())[:3]
            ['backward', 'bprop', 'cflags']
        """
        items = asdict(self)
        for k in ("force", "verbose", "quiet", "show_source", "backend", "check_kernel", "gradcheck"):
            items.pop(k)
        return items


def option_specs() -> list[tuple[tuple[str, ...], dict]]:
    """``(flags, argparse keywords)`` of every option, in declaration order (each ``dest`` is its field).

    Example:
        >>> flags, kw = option_specs()[2]
        >>> flags, kw["dest"], kw["action"]
        (('-c', '--cflags'), 'cflags', 'append')
    """
    return [(f.metadata["flags"], {**f.metadata["argparse"], "dest": f.name}) for f in fields(CellOptions)]


#: options whose value is a Python expression: written as is, quotes optional, up to the next option
EXPRESSION_OPTIONS = ("--example", "--out-shape", "--out-dtype")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _option_at(line: str, k: int, flags: set[str]) -> str | None:
    """The option flag starting at ``line[k]`` (a whole word, or followed by ``=``), if any."""
    for flag in flags:
        end = k + len(flag)
        if line.startswith(flag, k) and (end == len(line) or line[end].isspace() or line[end] == "="):
            return flag
    return None


def take_expressions(line: str) -> tuple[str, dict]:
    """Split the ``%%custom_op`` line into the rest and the values of its :data:`EXPRESSION_OPTIONS`.

    An expression runs from its option to the next option of the magic outside brackets and quotes (or
    to the end of the line), so it needs no quotes even with spaces in it:
    ``--example (ms.Tensor(np.linspace(-3, 3, 7)),)``. Returned by field name (``example``), with
    surrounding quotes kept (:func:`unquote` removes one pair).

    Example:
        >>> take_expressions("op --example (np.ones(3), 2.0) --check")
        ('op --check', {'example': '(np.ones(3), 2.0)'})
        >>> take_expressions('op --out-shape "(2, 3)" --example x, y')
        ('op', {'out_shape': '"(2, 3)"', 'example': 'x, y'})
    """
    flags = {f for spec_flags, _ in option_specs() for f in spec_flags if f.startswith("-")}
    found: dict = {}
    rest: list[str] = []
    k, n = 0, len(line)
    while k < n:
        flag = _option_at(line, k, set(EXPRESSION_OPTIONS)) if k == 0 or line[k - 1].isspace() else None
        if flag is None:
            rest.append(line[k])
            k += 1
            continue
        k += len(flag) + 1  # the flag and the space or "=" after it
        start, stack, quote = k, [], None
        while k < n:
            c = line[k]
            if quote:
                quote = None if c == quote else quote
            elif c in "'\"":
                quote = c
            elif c in _PAIRS:
                stack.append(_PAIRS[c])
            elif stack and c == stack[-1]:
                stack.pop()
            elif not stack and c.isspace() and _option_at(line, k + 1, flags):
                break
            k += 1
        found[flag[2:].replace("-", "_")] = line[start:k].strip()
    return " ".join("".join(rest).split()), found


def evaluate_expression(name: str, option: str, expr: str | None, namespace: dict) -> Any:
    """The value of an expression option (``--example``, ``--out-shape``...) of cell NAME in the notebook's
    ``namespace`` (None when not given); a :class:`~mskernel.cells.errors.CellError` naming the option and
    the expression when it fails.

    Example:
        >>> evaluate_expression("op", "--example", "(n, 2 * n)", {"n": 3})
        (3, 6)
        >>> try:
        ...     evaluate_expression("op", "--example", "missing", {})
        ... except CellError as e:
        ...     print(e)
        %%custom_op op: --example 'missing' could not be evaluated: NameError: name 'missing' is not defined
    """
    if expr is None:
        return None
    try:
        return eval(expr, namespace)  # noqa: S307 - the user's own expression, in the user's namespace
    except Exception as exc:
        raise CellError(name, f"{option} {expr!r} could not be evaluated: {type(exc).__name__}: {exc}") from exc


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
