"""``%%custom_op NAME [options]``, ``%custom_op_info NAME`` and ``%gradcheck EXPR``.

Thin: ``magic_arguments`` parses the options (so ``%%custom_op?`` documents them),
:func:`mskernel.cells.run_cell` does the work, and results go out through IPython's display
machinery -- a summary with an HTML and a plain-text form; nothing is printed. A C++ build that takes
more than a moment shows its stage and elapsed time, replaced by the summary when it ends. A failed
cell shows the error at the cell's own lines (the full compiler log in a collapsed ``<details>``)
and then fails with one short line instead of a traceback into mskernel; ``%tb`` right after shows
the full traceback.

Example:
    >>> from IPython.core.interactiveshell import InteractiveShell
    >>> shell = InteractiveShell.instance()
    >>> shell.register_magics(CustomOpMagics)
    >>> "--bprop" in shell.find_cell_magic("custom_op").__doc__
    True
"""
from __future__ import annotations

import ast
import shlex
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

__all__ = ["CustomOpError", "CustomOpMagics"]


class CustomOpError(Exception):
    """A ``%%custom_op`` cell failed. Its error was already displayed, so the first rendering of the
    traceback is one line that does not repeat it; later ones (``%tb``) are the full traceback. The
    message (``str``) is the error's headline, for tools that read it (nbclient, papermill).

    Example:
        >>> CustomOpError("%%custom_op f: bad", None)._render_traceback_()
        ['CustomOpError: the cell failed; its error is shown above (%tb shows the traceback)']
    """

    def __init__(self, message: str, shell: Any) -> None:
        super().__init__(message)
        self._shell = shell
        self._rendered = False

    def _render_traceback_(self) -> list[str]:
        if not self._rendered or self._shell is None:
            self._rendered = True
            return [f"{type(self).__name__}: the cell failed; its error is shown above (%tb shows the traceback)"]
        return self._shell.InteractiveTB.structured_traceback(type(self), self, self.__traceback__)


class _Progress:
    """What a running C++ build shows: its stage and the elapsed time."""

    def __init__(self, name: str, stage: str, seconds: float) -> None:
        self.text = f"%%custom_op {name}: {stage}... {seconds:.1f} s"

    def _repr_html_(self) -> str:
        return f'<div class="mskernel-progress"><i>{self.text}</i></div>'

    def __repr__(self) -> str:
        return self.text


def _raw(text: str, html: str | None = None) -> dict:
    return {"text/plain": text, "text/html": html} if html is not None else {"text/plain": text}


def _flags(values: list) -> list:
    return [flag for value in values for flag in shlex.split(_unquote(value) or "")]


def _unquote(value: str | None) -> str | None:
    """magic_arguments keeps the quotes around a quoted value: drop one matching pair."""
    if value is not None and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


@magics_class
class CustomOpMagics(Magics):
    """The ``%%custom_op`` family of magics (registered by ``%load_ext mskernel``).

    Example:
        >>> sorted(CustomOpMagics.magics["line"])
        ['custom_op_info', 'gradcheck']
    """

    @magic_arguments()
    @argument("name", help="the name bound to the op (or module): the kernel named NAME, or the only kernel")
    @argument("--lang", choices=["cpp", "hybrid"], default=None,
              help="the cell's language; by default C++ when it has #include, PYBIND11_MODULE or Function<, "
                   "else the hybrid DSL")
    @argument("--backend", default="CPU", help="CPU, GPU or Ascend (GPU and Ascend ops run on the CPU)")
    @argument("-c", "--cflags", action="append", default=[],
              help='extra compiler flags (C++), split like a shell: -c "-O3 -DN=4"; may repeat')
    @argument("--ldflags", action="append", default=[], help="extra linker flags (C++); may repeat")
    @argument("-I", dest="include", action="append", default=[], help="an include directory (C++); may repeat")
    @argument("--out-shape", default=None, help="a Python expression: the out_shape of ops.Custom (hybrid)")
    @argument("--out-dtype", default=None, help="a Python expression: the out_dtype of ops.Custom (hybrid)")
    @argument("--bprop", default=None,
              help="a function FUNC(*inputs, out, dout) -> gradients, or a kernel of the cell taking "
                   "(*inputs, out, dout) or (*inputs, dout) (hybrid)")
    @argument("--forward", default=None, help="a plain C++ function of the cell: the op's forward (with --backward)")
    @argument("--backward", default=None,
              help="a plain C++ function B(*inputs, out, dout) returning one gradient per input (with --forward)")
    @argument("--example", default=None,
              help="a Python expression giving example inputs: the hybrid kernel is compiled for them at once")
    @argument("--debug", action="store_true", help="bounds-checked code (hybrid), -g -O0 (C++)")
    @argument("--force", action="store_true", help="rebuild a C++ cell even when the cache has it")
    @argument("--verbose", action="store_true", help="show the build commands and the full log")
    @argument("--show-source", action="store_true", help="show the generated C++ of a hybrid kernel")
    @argument("--quiet", action="store_true", help="show nothing when all is well (no progress, no summary)")
    @cell_magic
    def custom_op(self, line: str, cell: str) -> None:
        """Write a kernel in a cell, get a differentiable op NAME in place.

        A hybrid-DSL cell (plain Python functions using output_tensor/allocate, no decorator needed)
        binds NAME to an ops.Custom op; a C++ cell is built as module NAME (PYBIND11_MODULE(
        MS_EXTENSION_NAME, m) works) and NAME is bound to the module, or with --forward/--backward to
        one differentiable op. Re-running an edited cell replaces NAME; an unchanged cell loads from the
        cache; a failing cell leaves the previous NAME bound. Line numbers in errors are the cell's
        (this line is line 1).
        """
        from mskernel.cells import CellError, CellOptions, run_cell

        args = parse_argstring(self.custom_op, line)
        opts = CellOptions(lang=args.lang, backend=args.backend, cflags=_flags(args.cflags),
                           ldflags=_flags(args.ldflags), include_dirs=[_unquote(d) for d in args.include],
                           out_shape=_unquote(args.out_shape), out_dtype=_unquote(args.out_dtype), bprop=args.bprop,
                           forward=args.forward, backward=args.backward, example=_unquote(args.example),
                           debug=args.debug, force=args.force, verbose=args.verbose, show_source=args.show_source,
                           quiet=args.quiet)
        handle: Any = None

        def progress(stage: str, seconds: float) -> None:
            nonlocal handle
            view = _Progress(args.name, stage, seconds)
            if handle is None:
                handle = display(view, display_id=True)
            else:
                handle.update(view)

        def show(obj: Any, raw: bool = False) -> None:
            if handle is not None:
                handle.update(obj, raw=raw)
            else:
                display(obj, raw=raw)

        try:
            result = run_cell(args.name, cell, opts, self.shell.user_ns, first_line=2,
                              header=f"%%custom_op {line}", progress=None if opts.quiet else progress)
        except CellError as err:
            show(_raw(err.render_text().rstrip("\n"), err.render_html()), raw=True)
            raise CustomOpError(str(err).splitlines()[0] + (f"; {err.kept}" if err.kept else ""),
                                self.shell) from err
        except KeyboardInterrupt:
            if handle is not None:
                handle.update(_raw(f"%%custom_op {args.name}: interrupted; the build was stopped and "
                                   f"{args.name} is unchanged"), raw=True)
            raise
        if not opts.quiet:
            show(_raw(str(result), result._repr_html_()), raw=True)

    @line_magic
    def custom_op_info(self, line: str) -> None:
        """``%custom_op_info NAME``: kind, signature, reg info, dtype rows, cached artifact and key, source."""
        from mskernel.cells import last_result
        from mskernel.cells.info import render_info

        name = line.strip()
        result = last_result(name)
        if result is None:
            raise UsageError(f"%custom_op_info: no %%custom_op {name or 'NAME'} has run successfully in this "
                             f"session (usage: %custom_op_info NAME)")
        text, html = render_info(result)
        display(_raw(text, html), raw=True)

    @magic_arguments()
    @argument("expr", nargs="+", help="a call such as op(x, y); its arguments are taken from the namespace")
    @argument("--eps", type=float, default=1e-6, help="finite-difference step")
    @argument("--atol", type=float, default=1e-5, help="absolute tolerance")
    @argument("--rtol", type=float, default=1e-3, help="relative tolerance")
    @line_magic
    def gradcheck(self, line: str) -> None:
        """``%gradcheck op(x, y)``: compare the gradients of the call with finite differences; shows the report."""
        import mskernel as ms

        args = parse_argstring(self.gradcheck, line)
        expr = " ".join(args.expr)
        try:
            call = ast.parse(expr, mode="eval").body
        except SyntaxError as exc:
            raise UsageError(f"%gradcheck: {expr!r} is not a Python expression ({exc.msg})") from None
        if not isinstance(call, ast.Call) or call.keywords:
            raise UsageError(f"%gradcheck: expected a call with positional arguments such as op(x, y), "
                             f"but got {expr!r}")
        ns = self.shell.user_ns

        def evaluate(node: ast.expr) -> Any:
            return eval(compile(ast.Expression(node), "<gradcheck>", "eval"), ns)  # noqa: S307 - the user's code

        fn = evaluate(call.func)
        inputs = tuple(ms.Tensor(a) if hasattr(a, "__array__") and not isinstance(a, ms.Tensor) else a
                       for a in (evaluate(a) for a in call.args))
        report = ms.gradcheck(fn, inputs, eps=args.eps, atol=args.atol, rtol=args.rtol, raise_exception=False)
        display(_raw(str(report), report._repr_html_()), raw=True)
