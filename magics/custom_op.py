"""``%%custom_op NAME [options]``, ``%custom_op_info NAME``, ``%custom_op_export NAME PATH`` and ``%gradcheck EXPR``.

Thin: ``magic_arguments`` parses the options (so ``%%custom_op?`` documents them),
:func:`mskernel.cells.run_cell` does the work, and results go out through IPython's display
machinery -- a summary with an HTML and a plain-text form; nothing is printed. A C++ build that takes
more than a moment shows each stage as it happens (preparing headers, once; compiling; linking;
loading) with the time spent in it, replaced when it ends by the summary, which gives the time of
each stage. A failed cell shows the error at the cell's own lines (the full compiler log in a
collapsed ``<details>``) and then fails with one short line instead of a traceback into mskernel;
``%tb`` right after shows the full traceback. A cell whose op failed its gradient check (the gate of
:mod:`mskernel.cells.grad_step`) still binds it, and shows under its summary a compact
:class:`~mskernel.widgets.GradCheckView` of that check.

Example:
    >>> from IPython.core.interactiveshell import InteractiveShell
    >>> shell = InteractiveShell.instance()
    >>> shell.register_magics(CustomOpMagics)
    >>> "--bprop" in shell.find_cell_magic("custom_op").__doc__
    True
"""
from __future__ import annotations

import ast
import html
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
    """What a running C++ build shows: its stage and the seconds spent in it so far."""

    def __init__(self, name: str, stage: str, seconds: float) -> None:
        self.text = f"%%custom_op {name}: {stage}... {seconds:.1f} s"

    def _repr_html_(self) -> str:
        return f'<div class="mskernel-progress"><i>{self.text}</i></div>'

    def __repr__(self) -> str:
        return self.text


def _raw(text: str, html: str | None = None) -> dict:
    return {"text/plain": text, "text/html": html} if html is not None else {"text/plain": text}


def _with_cell_options(magic: Any) -> Any:
    """Declare the options of ``%%custom_op`` from :class:`mskernel.cells.CellOptions`, where each is defined
    once (its flags and help), after the positional NAME."""
    from mskernel.cells.options import option_specs

    for flags, kw in reversed(option_specs()):
        magic = argument(*flags, **kw)(magic)
    magic = argument("name", help="the name bound to the op (or module): the kernel named NAME, or the only "
                                  "kernel")(magic)
    return magic_arguments()(magic)


def _gate_view(result: Any) -> Any:
    """The compact :class:`~mskernel.widgets.GradCheckView` of a cell whose gradient gate found a wrong gradient
    (a run in the user's dtype that strays from float64 has no Jacobian to show: its lines say it): the gate's
    report as is (nothing runs again until eps is moved or "re-run" pressed), on the same call."""
    from mskernel.cells.grad_step import gate_call
    from mskernel.widgets.gradcheck_view import GradCheckView

    call = gate_call(result)  # the gate ran, so this is the call it checked
    return GradCheckView(call.fn, call.args, report=result.grad_check, compact=True, cast_float64=call.float64)


@magics_class
class CustomOpMagics(Magics):
    """The ``%%custom_op`` family of magics (registered by ``%load_ext mskernel``).

    Example:
        >>> sorted(CustomOpMagics.magics["line"])
        ['custom_op_export', 'custom_op_info', 'gradcheck']
    """

    @_with_cell_options
    @cell_magic
    def custom_op(self, line: str, cell: str) -> None:
        """Write a kernel in a cell, get a differentiable op NAME in place.

        A hybrid-DSL cell (plain Python functions using output_tensor/allocate, no decorator needed)
        binds NAME to an ops.Custom op; a C++ cell is built as module NAME (PYBIND11_MODULE(
        MS_EXTENSION_NAME, m) works) and NAME is bound to the module, or with --forward/--backward to
        one differentiable op. Re-running an edited cell replaces NAME; an unchanged cell loads from the
        cache; a failing cell leaves the previous NAME bound. Line numbers in errors are the cell's
        (this line is line 1). With --example, the op's gradients are checked as it is bound (the
        gradient gate; --no-gradcheck turns it off): a mismatch keeps the op bound and shows the failing
        input, with a compact gradient-check view to move eps and re-run.
        """
        from mskernel.cells import CellError, CellOptions, run_cell
        from mskernel.cells.options import take_expressions

        rest, expressions = take_expressions(line)  # (Python expressions need no quotes)
        args = parse_argstring(self.custom_op, rest)
        for field_name, expr in expressions.items():
            setattr(args, field_name, expr)
        opts = CellOptions.from_parsed(args)
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
        except KeyboardInterrupt:  # said even when it came before any progress was shown
            show(_raw(f"%%custom_op {args.name}: interrupted; the build was stopped and {args.name} is unchanged"),
                 raw=True)
            raise
        check = result.kernel_check
        alarm = result.check_error or (check is not None and not check.ok) or result.grad_check_failed
        if not opts.quiet or alarm:  # --quiet: nothing when all is well
            show(_raw(str(result), result._repr_html_()), raw=True)
        if result.grad_check is not None and result.grad_check.worst is not None:  # a Jacobian to look into
            display(_gate_view(result))

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
    @argument("name", help="the op to export: what a %%%%custom_op cell bound, or any ops.Custom in the namespace")
    @argument("path", help="the .py file to write (a directory: NAME.py in it); for C++, the directory")
    @argument("--example", default=None, help="a Python expression: call arguments choosing the signature exported")
    @argument("--target", action="append", choices=["GPU", "CPU"], help="a device to register for (may repeat); "
                                                                      "default GPU and CPU")
    @argument("--allow-races", action="store_true", help="export a kernel whose parallel loop races on a device "
                                                          "(refused otherwise)")
    @line_magic
    def custom_op_export(self, line: str) -> None:
        """``%custom_op_export NAME PATH``: write op NAME as code real MindSpore runs (mskernel.export_mindspore)."""
        from mskernel.errors import UserCodeError
        from mskernel.mindspore_export import export_mindspore

        args = parse_argstring(self.custom_op_export, line)
        ns = self.shell.user_ns
        if args.name not in ns:
            raise UsageError(f"%custom_op_export: no {args.name!r} in the namespace (usage: %custom_op_export NAME "
                             f"PATH)")
        example = None
        if args.example is not None:
            example = eval(args.example.strip("'\""), ns)  # noqa: S307 - the user's expression
        try:
            path = export_mindspore(ns[args.name], args.path.strip("'\""), example=example,
                                    targets=tuple(args.target or ("GPU", "CPU")), allow_races=args.allow_races)
        except (UserCodeError, TypeError) as err:
            raise UsageError(f"%custom_op_export {args.name}: {err}") from None
        files = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.is_file())
        text = f"%custom_op_export {args.name}: wrote " + ", ".join(str(f) for f in files)
        body = "".join(f"<details><summary><code>{html.escape(str(f))}</code></summary><pre>"
                       f"{html.escape(f.read_text())}</pre></details>" for f in files)
        display(_raw(text, f"<div><b>%custom_op_export {html.escape(args.name)}</b>{body}</div>"), raw=True)

    @magic_arguments()
    @argument("expr", nargs="+", help="a call such as op(x, y); its arguments are taken from the namespace")
    @argument("--eps", type=float, default=None, help="finite-difference step (default: the dtype's row of "
                                                         "mskernel.gradcheck.TOLERANCES; float64: 1e-6)")
    @argument("--atol", type=float, default=None, help="absolute tolerance (default: the dtype's row; float64: 1e-5)")
    @argument("--rtol", type=float, default=None, help="relative tolerance (default: the dtype's row; float64: 1e-3)")
    @argument("--own-dtype", action="store_true",
              help="check in the inputs' own dtype (an op that takes only its own, such as a C++ kernel for float) "
                   "instead of float64 copies")
    @line_magic
    def gradcheck(self, line: str) -> None:
        """``%gradcheck op(x, y)``: compare the gradients of the call with finite differences; shows the report.

        The step and tolerances are the row of the dtype the check runs in (float64 copies of the inputs, or
        their own dtype with ``--own-dtype``), shown in the report's first line, unless given.
        """
        from mskernel.common.tensor import Tensor
        from mskernel.gradcheck import gradcheck

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
        inputs = tuple(Tensor(a) if hasattr(a, "__array__") and not isinstance(a, Tensor) else a
                       for a in (evaluate(a) for a in call.args))
        report = gradcheck(fn, inputs, eps=args.eps, atol=args.atol, rtol=args.rtol, raise_exception=False,
                           cast_float64=not args.own_dtype)
        display(_raw(str(report), report._repr_html_()), raw=True)
