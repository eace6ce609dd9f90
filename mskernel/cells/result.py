"""The outcome of one ``%%custom_op`` cell: what was bound, how, and a compact summary.

:class:`CellResult` renders as one line of plain text and as a small HTML block (language, the
names bound with their signatures, built or cached, time -- for a C++ build, the time of each stage
that took a while --, notes); ``--verbose`` adds the build log (every command once, then its output),
``--show-source`` the generated C++. After the bound line comes the gradient gate's line
(:mod:`mskernel.cells.grad_step`): the check's one-line summary, or why the gradients were not checked;
a failed check adds its per-input lines (its table in HTML).

Example:
    >>> r = CellResult("square", "hybrid", value=None, bound=[("square", "square(x) -> y")], cached=False,
    ...                seconds=0.0123, key="ab" * 32)
    >>> print(r)
    %%custom_op square: hybrid kernel, bound square(x) -> y; checked in 12.3 ms
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["COULD_NOT_CHECK", "CellResult"]

#: how the gate's note begins when the check was tried and could not run (the op raised on its example...)
COULD_NOT_CHECK = "gradients could not be checked: "


def _seconds(s: float) -> str:
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def _shell_log(log: str) -> str:
    """A build log with ninja's ``[i/n] `` before each command shown as a shell prompt ``$ ``."""
    return re.sub(r"^\[\d+/\d+\] ", "$ ", log, flags=re.MULTILINE)


@dataclass
class CellResult:
    """What a cell produced. ``value`` is the object bound to ``name`` (an ``ops.Custom``, a module, a
    :class:`~mskernel.cells.binding.ForwardBackwardOp`); ``bound`` lists ``(name, signature)`` of
    everything the cell bound; ``artifact`` is the build layer's ``Artifact`` for C++ cells, ``stages``
    the ``(stage, seconds)`` a C++ cell went through (:meth:`mskernel.cells.Ticker.stages`); ``code``,
    ``options`` and ``example`` (the evaluated ``--example``) are what the cell was run with;
    ``kernel_check``/``check_error`` are ``--check``'s report or why it could not run, ``grad_check`` the
    gradient gate's :class:`~mskernel.gradcheck.GradcheckReport` (None when it did not run) and
    ``grad_check_note`` the line saying why it did not run or could not (empty: nothing to say).

    Example:
        >>> CellResult("m", "cpp", None, [("m", "module m")], cached=True, seconds=0.002, key="0" * 64).status
        'loaded from the cache'
    """

    name: str
    lang: str
    value: Any
    bound: list
    cached: bool
    seconds: float
    key: str
    artifact: Any = None
    kernels: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    source: str = ""
    log: str = ""
    commands: list = field(default_factory=list)
    verbose: bool = False
    show_source: bool = False
    stages: list = field(default_factory=list)
    code: str = ""
    options: Any = None
    example: Any = None
    kernel_check: Any = None
    check_error: str = ""
    grad_check: Any = None
    grad_check_note: str = ""

    @property
    def status(self) -> str:
        """``'built'``, ``'loaded from the cache'`` (C++) or ``'checked'`` (hybrid: compiled at first call)."""
        if self.lang == "hybrid" and self.artifact is None:
            return "checked"
        return "loaded from the cache" if self.cached else "built"

    @property
    def grad_check_line(self) -> str:
        """The gradient gate's line of the summary: the check's summary, or the note ("" when neither).

        Example:
            >>> r = CellResult("m", "cpp", None, [("m", "module m")], cached=True, seconds=0.0, key="0" * 64,
            ...                grad_check_note="gradients unchecked (no --example): give --example INPUTS")
            >>> r.grad_check_line
            'gradients unchecked (no --example): give --example INPUTS'
        """
        return self.grad_check.summary() if self.grad_check is not None else self.grad_check_note

    @property
    def grad_check_failed(self) -> bool:
        """The gate found wrong gradients, or was given inputs and could not check them (what ``--quiet`` shows).

        Example:
            >>> CellResult("m", "cpp", None, [], cached=True, seconds=0.0, key="0",
            ...            grad_check_note=COULD_NOT_CHECK + "RuntimeError: boom").grad_check_failed
            True
        """
        if self.grad_check is not None:
            return not self.grad_check.passed
        return self.grad_check_note.startswith(COULD_NOT_CHECK)

    def _grad_details(self) -> list[str]:
        """The failed check's per-input lines (its text without the head line)."""
        if self.grad_check is None or self.grad_check.passed:
            return []
        return str(self.grad_check).splitlines()[1:]

    def _what(self) -> str:
        return "hybrid kernel" if self.lang == "hybrid" else "C++ module"

    def _took(self) -> str:
        """``"built in 5.20 s (compiling 4.6 s, linking 0.5 s)"``: the stages that show as 0.1 s or more.

        Example:
            >>> r = CellResult("m", "cpp", None, [("m", "module m")], cached=False, seconds=3.0, key="0" * 64,
            ...                stages=[("checking the build cache", 0.01),
            ...                        ("preparing headers (once; usually ~2 s)", 1.2), ("compiling", 1.5),
            ...                        ("linking", 0.3)])
            >>> r._took()
            'built in 3.00 s (preparing headers 1.2 s, compiling 1.5 s, linking 0.3 s)'
        """
        slow = [f"{re.sub(r' [(]once; usually [^)]*[)]', '', stage)} {seconds:.1f} s" for stage, seconds in self.stages
                if seconds >= 0.05]  # (how long a one-time stage usually takes was for the live display)
        return f"{self.status} in {_seconds(self.seconds)}" + (f" ({', '.join(slow)})" if slow else "")

    def __str__(self) -> str:
        bound = ", ".join(sig for _, sig in self.bound)
        text = f"%%custom_op {self.name}: {self._what()}, bound {bound}; {self._took()}"
        if self.grad_check_line:
            text += f"\n  {self.grad_check_line}" + "".join(f"\n  {line}" for line in self._grad_details())
        for note in self.notes:
            text += f"\n  note: {note}"
        if self.kernel_check is not None:
            text += "\n" + "\n".join("  " + line for line in str(self.kernel_check).splitlines())
        if self.check_error:
            text += f"\n  check_kernel could not run: {self.check_error}"
        if self.verbose and self.log.strip():
            text += "\n" + _shell_log(self.log).rstrip()
        if self.show_source and self.source:
            text += "\n" + self.source.rstrip()
        return text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    def _repr_html_(self) -> str:
        rows = "".join(f"<li><code>{html.escape(sig)}</code></li>" for _, sig in self.bound)
        head = (f"<b>%%custom_op {html.escape(self.name)}</b> &middot; {self._what()} &middot; "
                f"{html.escape(self._took())}")
        border = "#cf222e" if self.grad_check_failed else "#4a4"  # red: wrong gradients, or inputs given and no check
        parts = [f'<div class="mskernel-cell-result" style="border-left:4px solid {border};padding-left:8px">', head,
                 f'<ul style="margin:2px 0">{rows}</ul>']
        if self.grad_check_line:
            style = ' style="color:#cf222e;font-weight:bold"' if self.grad_check_failed else ""
            parts.append(f'<div class="mskernel-grad-gate"{style}>{html.escape(self.grad_check_line)}</div>')
            if self.grad_check is not None and not self.grad_check.passed:
                parts.append(self.grad_check._repr_html_())
        parts += [f"<div><i>note: {html.escape(n)}</i></div>" for n in self.notes]
        if self.kernel_check is not None:
            parts.append(self.kernel_check._repr_html_())
        if self.check_error:
            parts.append(f"<div><i>check_kernel could not run: {html.escape(self.check_error)}</i></div>")
        if self.verbose and self.log.strip():
            parts.append(f"<details open><summary>build commands and log</summary><pre>"
                         f"{html.escape(_shell_log(self.log))}</pre></details>")
        if self.show_source and self.source:
            parts.append(f"<details open><summary>generated C++</summary><pre>{html.escape(self.source)}</pre>"
                         "</details>")
        parts.append("</div>")
        return "\n".join(parts)

    def info(self) -> dict[str, str | None]:
        """Facts for ``%custom_op_info``: kind, signatures, key, cached artifact, reg info and dtype rows.

        Example:
            >>> r = CellResult("m", "cpp", None, [("m", "module m")], cached=True, seconds=0.0, key="0" * 64)
            >>> r.info()["kind"], r.info()["cell key"][:4]
            ('C++ module', '0000')
        """
        value = self.value
        facts: dict[str, str | None] = {"kind": self._what() if value is None else _kind_of(value),
                                           "signature": "; ".join(sig for _, sig in self.bound),
                                           "cell key": self.key}
        if self.artifact is not None:
            facts["artifact"] = str(self.artifact.path)
            facts["artifact key"] = self.artifact.key
        if self.lang == "hybrid":
            reg = getattr(value, "reg", None)
            facts["reg info"] = repr(reg) if reg else "none (dtypes follow the inputs)"
            rows = getattr(value, "dtype_rows", None)
            facts["dtype rows"] = "; ".join(f"{list(i)} -> {list(o)}" for i, o in rows) if rows else "any"
        if self.bound and self.lang == "hybrid":
            facts["bprop"] = getattr(getattr(value, "bprop", None), "__name__", None) or "none"
        if self.notes:
            facts["notes"] = "; ".join(self.notes)
        gradients = self._gradients_fact()
        if gradients:
            facts["gradients"] = gradients
        check = self.last_check()
        if check is not None:
            n = len(check.findings)
            facts["last check"] = "ok, no findings" if check.ok else f"{n} finding{'s' if n != 1 else ''}"
        return facts

    def _gradients_fact(self) -> str:
        """The gate's outcome for ``%custom_op_info``: "ok, worst relative error ...", "FAILED for ...", the note."""
        if self.options is not None and not getattr(self.options, "gradcheck", True):
            return "not checked (--no-gradcheck)"
        line = self.grad_check_line
        for prefix in ("gradients checked: ", "gradients "):
            if line.startswith(prefix):
                return line[len(prefix):]
        return line

    def last_check(self) -> Any:
        """The last :func:`mskernel.check_kernel` report of this cell's op (``--check`` or a later call), or None.

        Example:
            >>> CellResult("m", "cpp", None, [("m", "module m")], cached=True, seconds=0.0, key="0").last_check()
        """
        from mskernel.kernelcheck import last_check

        found = last_check(self.value) if self.value is not None else None
        return found if found is not None else self.kernel_check


def _kind_of(value: Any) -> str:
    cls = type(value).__name__
    if cls == "Custom":
        return f"ops.Custom (func_type {getattr(value, 'func_type', '?')!r})"
    if cls == "module":
        return "C++ module (pybind11)"
    return cls
