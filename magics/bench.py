"""``%kernel_bench IMPL [IMPL ...] --on ARGS``: :func:`mskernel.benchmark` as a line magic.

Thin: each ``IMPL`` is an expression of the notebook's namespace (a name, or a quoted expression), named by
its own text; ``--on`` is the inputs (``x`` or ``"x, y"``). ``--sizes EXPR --inputs FUNC`` sweeps a size.
The result is displayed -- the text (table, agreement, counts, roofline, method, environment) and, in a
notebook, its figure; ``-o NAME`` also keeps it in the namespace. Errors (implementations that disagree,
a bad expression) are one-line usage errors naming what went wrong.

Example:
    >>> from IPython.core.interactiveshell import InteractiveShell
    >>> shell = InteractiveShell.instance()
    >>> shell.register_magics(BenchMagics)
    >>> "--sizes" in shell.find_line_magic("kernel_bench").__doc__
    True
"""
from __future__ import annotations

from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

__all__ = ["BenchMagics"]


def _unquote(text: str) -> str:
    """``'expr'`` or ``"expr"`` -> ``expr`` (IPython's option parser keeps the quotes of a quoted word)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


class _Text:
    """Only the text of a result (``--text``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


@magics_class
class BenchMagics(Magics):
    """``%kernel_bench``."""

    def _eval(self, expr: str, what: str) -> Any:
        expr = _unquote(expr)
        try:
            return eval(expr, self.shell.user_ns)  # noqa: S307 - the user's own notebook expression
        except Exception as exc:
            raise UsageError(f"%kernel_bench: cannot evaluate {what} {expr!r}: {type(exc).__name__}: {exc}") from None

    @magic_arguments()
    @argument("impls", nargs="+", metavar="IMPL",
              help="implementations to compare: names or quoted expressions; the first is the reference")
    @argument("--on", dest="args", metavar="ARGS", help="the inputs, e.g. x or \"x, y\"")
    @argument("--sizes", metavar="EXPR", help="sweep: the sizes, e.g. \"[2**k for k in range(10, 20)]\"")
    @argument("--inputs", metavar="FUNC", help="sweep: a function size -> inputs")
    @argument("--no-flush", action="store_true", help="skip the cache-flushed runs")
    @argument("--no-check", action="store_true", help="skip the agreement check")
    @argument("--no-grads", action="store_true", help="check values only, not gradients")
    @argument("--no-roofline", action="store_true", help="do not place hybrid kernels on the roofline")
    @argument("--warmup", type=float, metavar="S", help="warm-up budget per implementation, in seconds")
    @argument("--max-time", type=float, metavar="S", help="time cap of the rounds of each mode, in seconds")
    @argument("--max-rounds", type=int, metavar="N", help="cap on the rounds of each mode")
    @argument("--text", action="store_true", help="show the text only (no figure)")
    @argument("-o", dest="output", metavar="NAME", help="also store the result in this variable")
    @line_magic
    def kernel_bench(self, line: str) -> None:
        """Benchmark implementations of an op: agreement, warm and flushed timings, roofline (see ms.benchmark).

        ``%kernel_bench mul_op sq_op --on x`` or, sweeping a size,
        ``%kernel_bench mul_op sq_op --sizes "[1024, 65536]" --inputs make``.
        """
        from mskernel.bench import benchmark
        from mskernel.bench.agree import DisagreementError
        from mskernel.bench.counts import CountError
        from mskernel.bench.roofline import RooflineError
        from mskernel.bench.timing import Method

        opts = parse_argstring(self.kernel_bench, line)
        impls = {_unquote(expr): self._eval(expr, "the implementation") for expr in opts.impls}
        options: dict[str, Any] = {"flush": not opts.no_flush, "check": not opts.no_check,
                                   "grads": not opts.no_grads}
        if opts.no_roofline:
            options["roofline"] = False
        for key in ("warmup", "max_time", "max_rounds"):
            if getattr(opts, key) is not None:
                options[key] = getattr(opts, key)
        if opts.max_rounds is not None:
            options["min_rounds"] = min(Method().min_rounds, max(1, opts.max_rounds))
        if (opts.sizes is None) != (opts.inputs is None):
            raise UsageError("%kernel_bench: a sweep needs both --sizes and --inputs")
        if opts.sizes is not None:
            if opts.args is not None:
                raise UsageError("%kernel_bench: give either --on (fixed inputs) or --sizes/--inputs (a sweep)")
            call = dict(sizes=self._eval(opts.sizes, "--sizes"), inputs=self._eval(opts.inputs, "--inputs"))
            args: tuple = ()
        else:
            if opts.args is None:
                raise UsageError("%kernel_bench: say what to run on: --on ARGS (e.g. --on x or --on \"x, y\")")
            value = self._eval(f"({_unquote(opts.args)},)", "--on")
            args, call = tuple(value), {}
        try:
            result = benchmark(impls, *args, **call, **options)
        except (DisagreementError, CountError, RooflineError, ValueError, TypeError) as exc:
            raise UsageError(f"%kernel_bench: {exc}") from None
        if opts.output:
            self.shell.user_ns[opts.output] = result
        display(_Text(result.text()) if opts.text else result)
