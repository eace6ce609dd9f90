"""Drawing a laid-out graph as SVG, and the HTML of a node's details — plain strings, no front end needed.

The SVG is what the graph widget shows and also its static fallback (nbconvert, nbval, GitHub), so
it is deterministic: the same snapshot gives the same text. Colours come from two tables: one per
node kind, one per gradient flag.

Example:
    >>> import mskernel as ms
    >>> from mskernel.autograd.graph import trace
    >>> from mskernel.widgets.layout import layout
    >>> snap, _ = trace(lambda x: ms.ops.log(x * 0).sum(), ms.Tensor([1.0]))
    >>> svg = graph_svg(snap, layout(snap))
    >>> svg.startswith("<svg") and 'data-flag="nonfinite"' in svg
    True
"""
from __future__ import annotations

import html
import math
from typing import Any, Dict, List, Optional

from mskernel.widgets.layout import Box, Layout
from mskernel.widgets.textfit import wrap

__all__ = ["KIND_COLORS", "FLAG_COLORS", "BOX_SIZE", "box_origin", "node_flag", "box_flag", "node_kind", "shape_text",
           "stats_text", "node_title", "graph_size", "box_text", "box_tooltip", "graph_svg", "details_html",
           "SOURCE_STYLE"]

# fill colour per node kind (one rule per line)
KIND_COLORS: Dict[str, str] = {
    "input": "#dbeafe",         # leaf Tensor the gradient is taken for
    "parameter": "#dcfce7",     # leaf Parameter (named)
    "builtin": "#f8fafc",       # built-in op
    "custom": "#ede9fe",        # ops.Custom (any func_type)
    "cpp_function": "#ffedd5",  # C++ Function<T> op
    "python_function": "#fce7f3",  # Python _Function subclass
    "cell_bprop": "#fef9c3",    # Cell with a user bprop
    "group": "#e5e7eb",         # collapsed boxes of mixed kinds
}
# border colour per gradient flag
FLAG_COLORS: Dict[str, str] = {
    "ok": "#475569",
    "nonfinite": "#dc2626",  # NaN or Inf in the gradient
    "zero": "#d97706",       # gradient is all zeros
    "none": "#94a3b8",       # no gradient statistics (no backward pass with capture)
}
_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _PAD = 180, 66, 16, 30, 10
BOX_SIZE = (_BOX_W, _BOX_H)  # pixels of one drawn box
# the lines of a box: (font size px, line height px, bold); the label gets up to three lines
_TITLE, _SHAPE, _STATS = (11, 13, True), (10, 12, False), (9, 11, False)
_INNER = _BOX_W - 12  # text width inside a box
# a code block in the details panel: one source line per line, scrolled sideways rather than wrapped
SOURCE_STYLE = ("white-space:pre;overflow:auto;max-height:320px;max-width:100%;margin:2px 0 6px 0;padding:4px 6px;"
                "font-size:11px;line-height:1.35;background:#f6f8fa;border:1px solid #e5e7eb;border-radius:4px")


def box_origin(box: Box) -> "tuple[float, float]":
    """Top-left pixel of a box in :func:`graph_svg`'s drawing (for overlays such as click targets).

    Example:
        >>> box_origin(Box("n0", "x", "leaf", ["n0"], layer=1, x=2.0))
        (402.0, 106.0)
    """
    return _PAD + box.x * (_BOX_W + _GAP_X), float(_PAD + box.layer * (_BOX_H + _GAP_Y))


def _grad_of(node: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    st = node.get("stats")
    if not st:
        return None
    douts = [d for d in st.get("douts", []) if d is not None]
    return douts[0] if douts else None


def node_flag(node: Dict[str, Any]) -> str:
    """``"nonfinite"``, ``"zero"``, ``"ok"`` or ``"none"`` for a snapshot node's output gradient(s).

    Example:
        >>> node_flag({"stats": {"douts": [{"finite": True, "absmax": 0.0}], "dins": []}})
        'zero'
    """
    st = node.get("stats")
    if not st:
        return "none"
    grads = [d for d in list(st.get("douts", [])) + list(st.get("dins", [])) if d is not None]
    if not grads:
        return "none"
    if any(not d["finite"] for d in grads):
        return "nonfinite"
    outs = [d for d in st.get("douts", []) if d is not None]
    if outs and all(d["absmax"] == 0.0 for d in outs):
        return "zero"
    return "ok"


def box_flag(snap: Any, box: Box) -> str:
    """The worst flag among the box's members (non-finite beats zero beats ok)."""
    flags = {node_flag(snap.node(m)) for m in box.members}
    for f in ("nonfinite", "zero", "ok"):
        if f in flags:
            return f
    return "none"


def node_kind(node: Dict[str, Any]) -> str:
    """The colour key of a node: its kind, with leaves split into ``input`` and ``parameter``."""
    if node["kind"] == "leaf":
        return "parameter" if node.get("info", {}).get("parameter") else "input"
    return node["kind"]


def shape_text(meta: Optional[Dict[str, Any]]) -> str:
    """``Float32[2, 3]`` for a ``{"shape", "dtype"}`` entry.

    Example:
        >>> shape_text({"shape": [2, 3], "dtype": "Float32"})
        'Float32[2, 3]'
    """
    if meta is None:
        return "-"
    return f"{meta['dtype']}[{', '.join(str(s) for s in meta['shape'])}]"


def _num(v: float) -> str:
    return f"{v:.3g}" if math.isfinite(v) else str(v)


def stats_text(st: Optional[Dict[str, Any]]) -> str:
    """One line of gradient statistics.

    Example:
        >>> stats_text({"norm": 5.0, "min": -4.0, "max": 3.0, "finite": True, "absmax": 4.0})
        '|g|=5 min=-4 max=3'
    """
    if st is None:
        return "no gradient"
    return f"|g|={_num(st['norm'])} min={_num(st['min'])} max={_num(st['max'])}"


def _label(node: Dict[str, Any]) -> str:
    info = node.get("info") or {}
    if node["kind"] == "custom" and info.get("func_name"):
        return f"Custom {info['func_name']} ({info.get('func_type', '?')})"
    return str(node["op"])


def node_title(node: Dict[str, Any]) -> str:
    """Label of a node in lists: id, op and output shapes.

    Example:
        >>> node_title({"id": "n1", "op": "Mul", "kind": "builtin", "outputs": [{"shape": [2], "dtype": "Float32"}]})
        'n1 Mul Float32[2]'
    """
    outs = ", ".join(shape_text(o) for o in node.get("outputs", []))
    return f"{node['id']} {_label(node)} {outs}".strip()


def graph_size(lay: Layout) -> "tuple[int, int]":
    """Width and height in pixels of :func:`graph_svg`'s drawing of a layout.

    Example:
        >>> graph_size(Layout(n_layers=3, width=2))
        (396, 278)
    """
    return (_PAD * 2 + max(1, lay.width) * (_BOX_W + _GAP_X) - _GAP_X,
            _PAD * 2 + max(1, lay.n_layers) * (_BOX_H + _GAP_Y) - _GAP_Y)


def box_text(snap: Any, box: Box) -> "tuple[str, str, str]":
    """The full texts of a drawn box: its label, its output shapes (or member count), its gradient line.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.graph import trace
        >>> from mskernel.widgets.layout import layout
        >>> snap, _ = trace(lambda x: (x * x).sum(), ms.Tensor([1.0, 2.0]))
        >>> box_text(snap, layout(snap).box("n1"))
        ('Mul', 'Float32[2]', '|g|=1.41 min=1 max=1')
    """
    first = snap.node(box.members[0])
    if box.collapsed:
        return box.label, f"{len(box.members)} nodes", ("NaN/Inf gradient" if box_flag(snap, box) == "nonfinite"
                                                         else "")
    grad = _grad_of(first)
    line3 = stats_text(grad) if grad is not None else ("NaN/Inf gradient" if node_flag(first) == "nonfinite" else "")
    return _label(first), ", ".join(shape_text(o) for o in first["outputs"]), line3


def box_tooltip(snap: Any, box: Box) -> str:
    """What hovering a box shows: id, the full label, kind and flag, shapes and gradient (nothing cut).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.graph import trace
        >>> from mskernel.widgets.layout import layout
        >>> snap, _ = trace(lambda x: (x * x).sum(), ms.Tensor([1.0, 2.0]))
        >>> print(box_tooltip(snap, layout(snap).box("n1")))
        n1: Mul (builtin, ok)
        Float32[2]
        |g|=1.41 min=1 max=1
    """
    first = snap.node(box.members[0])
    kind = "group" if box.kind == "group" else node_kind(first)
    title, line2, line3 = box_text(snap, box)
    return "\n".join(t for t in (f"{box.id}: {title} ({kind}, {box_flag(snap, box)})", line2, line3) if t)


def _box_lines(title: str, line2: str, line3: str) -> "tuple[list, bool]":
    """The drawn lines ``(text, font)`` of a box, and whether any text had to be shortened."""
    out, cut = [], False
    for text, font, most in ((title, _TITLE, 3), (line2, _SHAPE, 1), (line3, _STATS, 1)):
        if not text:
            continue
        lines, shortened = wrap(text, _INNER, font[0], bold=font[2], max_lines=most)
        cut = cut or shortened
        out += [(line, font) for line in lines]
    return out, cut


def graph_svg(snap: Any, lay: Layout, selected: Optional[str] = None) -> str:
    """SVG of the laid-out graph: boxes coloured by kind, bordered by gradient flag, edges with the
    gradient norm that flows along them; ``selected`` (a box id) is outlined. A label wraps onto up to
    three lines when it is wider than its box; text that still does not fit ends in "…" and is shown whole on
    hover (the box's ``<title>``) and in its ``data-label`` attribute."""
    w, h = graph_size(lay)
    where = {}
    parts: List[str] = []
    for b in lay.boxes:
        where[b.id] = box_origin(b)
    for s, d, es in lay.edges:
        (x0, y0), (x1, y1) = where[s], where[d]
        x0, y0, x1, y1 = x0 + _BOX_W / 2, y0 + _BOX_H, x1 + _BOX_W / 2, y1
        grads = []
        for e in es:
            st = snap.node(e["dst"]).get("stats")
            if st and e["dst_input"] < len(st["dins"]):
                grads.append(st["dins"][e["dst_input"]])
        bad = any(g is not None and not g["finite"] for g in grads)
        color = FLAG_COLORS["nonfinite"] if bad else "#64748b"
        tip = "; ".join(stats_text(g) for g in grads if g is not None) or "no gradient"
        parts.append(f'<path d="M{x0:.0f},{y0:.0f} C{x0:.0f},{y0 + _GAP_Y:.0f} {x1:.0f},{y1 - _GAP_Y:.0f} '
                     f'{x1:.0f},{y1:.0f}" fill="none" stroke="{color}" stroke-width="{2 if bad else 1.2}" '
                     f'marker-end="url(#mk-arrow)"><title>{html.escape(tip)}</title></path>')
    for b in lay.boxes:
        x, y = where[b.id]
        first = snap.node(b.members[0])
        kind = "group" if b.kind == "group" else node_kind(first)
        flag = box_flag(snap, b)
        fill = "#fee2e2" if flag == "nonfinite" else KIND_COLORS.get(kind, KIND_COLORS["builtin"])
        stroke = "#2563eb" if b.id == selected else FLAG_COLORS[flag]
        sw = 3 if b.id == selected else (2 if flag in ("nonfinite", "zero") else 1)
        dash = ' stroke-dasharray="5,3"' if b.collapsed else ""
        title, line2, line3 = box_text(snap, b)
        lines, cut = _box_lines(title, line2, line3)
        top = y + (_BOX_H - sum(font[1] for _, font in lines)) / 2
        texts = []
        for text, font in lines:
            top += font[1]
            role, extra = {_TITLE: ("mk-label", ' font-weight="bold"'), _SHAPE: ("mk-shape", ""),
                           _STATS: ("mk-stats", ' fill="#334155"')}[font]
            texts.append(f'<text class="{role}" x="{x + _BOX_W / 2:.0f}" y="{top - 3:.0f}" font-size="{font[0]}"'
                         f'{extra} text-anchor="middle">{html.escape(text)}</text>')
        cut_attr = ' data-cut="1"' if cut else ""
        parts.append(
            f'<g class="mk-node" data-id="{b.id}" data-kind="{kind}" data-flag="{flag}" '
            f'data-label="{html.escape(title)}"{cut_attr}>'
            f'<title>{html.escape(box_tooltip(snap, b))}</title>'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{_BOX_W}" height="{_BOX_H}" rx="6" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{sw}"{dash}/>' + "".join(texts) + "</g>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="mk-graph-svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans, sans-serif">'
            '<defs><marker id="mk-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker></defs>'
            + "".join(parts) + "</svg>")


def _rows(pairs: List[tuple]) -> str:
    return "".join(f"<tr><th style='text-align:left;padding:1px 8px 1px 0;vertical-align:top'>{html.escape(str(k))}"
                   f"</th><td style='padding:1px 0'>{v}</td></tr>" for k, v in pairs)


def details_html(snap: Any, box: Box) -> str:
    """HTML of a box's details: per member its kind, inputs/outputs, saved tensors, gradient statistics
    and op facts (Custom's func_type, function, reg info and kernel source; a C++ Function's class; a
    Parameter's name).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.graph import trace
        >>> from mskernel.widgets.layout import layout
        >>> snap, _ = trace(lambda x: (x * x).sum(), ms.Tensor([1.0, 2.0]))
        >>> "grad out" in details_html(snap, layout(snap).box("n1"))
        True
    """
    parts = []
    if box.collapsed:
        parts.append(f"<p><b>{html.escape(box.label)}</b>: {len(box.members)} nodes collapsed</p>")
    for m in box.members[:20]:
        n = snap.node(m)
        st = n.get("stats") or {}
        rows = [("kind", html.escape(node_kind(n))),
                ("inputs", html.escape(", ".join(shape_text(i) for i in n["inputs"]) or "-")),
                ("outputs", html.escape(", ".join(shape_text(o) for o in n["outputs"])))]
        if n.get("saved"):
            rows.append(("saved tensors", html.escape(", ".join(shape_text(s) for s in n["saved"]))))
        blocks = []  # code and other multi-line facts: under the table, full width, never wrapped
        for k, v in sorted((n.get("info") or {}).items()):
            if "\n" in str(v):
                blocks.append(f"<div class='mk-source-title'><b>{html.escape(str(k))}</b></div>"
                              f"<pre class='mk-source' style='{SOURCE_STYLE}'>{html.escape(str(v))}</pre>")
            else:
                rows.append((k, html.escape(str(v))))
        if not st:
            rows.append(("gradient", "no gradient statistics (none captured: use ms.autograd.trace)"))
        for i, d in enumerate(st.get("douts", [])):
            rows.append((f"grad out {i}", html.escape(stats_text(d))))
        for i, d in enumerate(st.get("dins", [])):
            rows.append((f"grad in {i}", html.escape(stats_text(d))))
        flag = node_flag(n)
        badge = {"nonfinite": " <b style='color:#dc2626'>NaN/Inf gradient</b>",
                 "zero": " <b style='color:#d97706'>all-zero gradient</b>"}.get(flag, "")
        parts.append(f"<div class='mk-node-detail' style='line-height:1.4;margin-bottom:6px'>"
                     f"<b>{html.escape(node_title(n))}</b>{badge}"
                     f"<table style='border-collapse:collapse;font-size:12px'>{_rows(rows)}</table>"
                     f"{''.join(blocks)}</div>")
    if len(box.members) > 20:
        parts.append(f"<p>… and {len(box.members) - 20} more</p>")
    return "".join(parts)
