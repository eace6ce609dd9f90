"""``%custom_op_info``: the facts of a bound op as a text block and an HTML table.

Example:
    >>> from mskernel.cells.result import CellResult
    >>> text, html = render_info(CellResult("m", "cpp", None, [("m", "module m")], True, 0.0, "0" * 64))
    >>> print(text.splitlines()[0])
    %custom_op_info m
"""
from __future__ import annotations

import html as _html

from mskernel.cells.result import CellResult
from mskernel.errors import MskernelError

__all__ = ["render_info"]


def _generated(result: CellResult) -> str:
    if result.source:
        return result.source
    for hk in result.kernels.values():  # hybrid: the C++ for a default signature
        try:
            return "// for float32 inputs of rank 1\n" + hk.source(["float32"] * hk.num_inputs, [1] * hk.num_inputs)
        except MskernelError as exc:  # the kernel does not fit the default signature: say why there is no source
            return f"// no generated C++ without example inputs: {exc}"
    return ""


def render_info(result: CellResult) -> tuple[str, str]:
    """``(text, html)`` describing ``result``: every fact of :meth:`CellResult.info` and the source.

    Example:
        >>> from mskernel.cells import CellOptions, run_cell
        >>> code = ("def twice(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...         "    for i in range(x.shape[0]):\\n        y[i] = 2.0 * x[i]\\n    return y\\n")
        >>> text, html = render_info(run_cell("twice", code, CellOptions(), {}))
        >>> print("\\n".join(text.splitlines()[:3]))
        %custom_op_info twice
          kind        ops.Custom (func_type 'hybrid')
          signature   twice(x) -> y
        >>> html.startswith("<div><b>%custom_op_info twice</b><table>"), "<details><summary>source" in html
        (True, True)
    """
    facts = result.info()
    source = _generated(result)
    width = max(len(k) for k in facts)
    text = "\n".join([f"%custom_op_info {result.name}"] + [f"  {k:<{width}}  {v}" for k, v in facts.items()])
    check = result.last_check()
    if check is not None:
        text += "\n" + "\n".join("  " + ln for ln in str(check).splitlines())
    if source:
        text += "\n  source:\n" + "\n".join("    " + ln for ln in source.splitlines())
    rows = "".join(f"<tr><th style='text-align:left'>{_html.escape(k)}</th><td><code>{_html.escape(str(v))}</code>"
                   f"</td></tr>" for k, v in facts.items())
    page = f"<div><b>%custom_op_info {_html.escape(result.name)}</b><table>{rows}</table>"
    if check is not None:
        page += check._repr_html_()
    if source:
        page += f"<details><summary>source</summary><pre>{_html.escape(source)}</pre></details>"
    return text, page + "</div>"
