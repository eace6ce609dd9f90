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

__all__ = ["KIND_COLORS", "FLAG_COLORS", "BOX_SIZE", "box_origin", "node_flag", "box_flag", "node_kind", "shape_text",
           "stats_text", "node_title", "graph_svg", "details_html"]

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
_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _PAD = 150, 46, 16, 30, 10
BOX_SIZE = (_BOX_W, _BOX_H)  # pixels of one drawn box


def box_origin(box: Box) -> "tuple[float, float]":
    """Top-left pixel of a box in :func:`graph_svg`'s drawing (for overlays such as click targets).

    Example:
        >>> box_origin(Box("n0", "x", "leaf", ["n0"], layer=1, x=2.0))
        (342.0, 86.0)
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


def _fit(text: str, width: int) -> str:
    n = max(4, width // 7)
    return text if len(text) <= n else text[:n - 1] + "…"


def graph_svg(snap: Any, lay: Layout, selected: Optional[str] = None) -> str:
    """SVG of the laid-out graph: boxes coloured by kind, bordered by gradient flag, edges with the
    gradient norm that flows along them; ``selected`` (a box id) is outlined."""
    cols = max(1, lay.width)
    w = _PAD * 2 + cols * (_BOX_W + _GAP_X) - _GAP_X
    h = _PAD * 2 + max(1, lay.n_layers) * (_BOX_H + _GAP_Y) - _GAP_Y
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
        title = _label(first) if not b.collapsed else b.label
        line2 = (", ".join(shape_text(o) for o in first["outputs"]) if not b.collapsed
                 else f"{len(b.members)} nodes")
        grad = _grad_of(first) if not b.collapsed else None
        line3 = stats_text(grad) if grad is not None else ("NaN/Inf gradient" if flag == "nonfinite" else "")
        tip = f"{b.id}: {title} ({kind}, {flag})"
        parts.append(
            f'<g class="mk-node" data-id="{b.id}" data-kind="{kind}" data-flag="{flag}">'
            f'<title>{html.escape(tip)}</title>'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{_BOX_W}" height="{_BOX_H}" rx="6" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{sw}"{dash}/>'
            f'<text x="{x + _BOX_W / 2:.0f}" y="{y + 14:.0f}" font-size="11" font-weight="bold" '
            f'text-anchor="middle">{html.escape(_fit(title, _BOX_W))}</text>'
            f'<text x="{x + _BOX_W / 2:.0f}" y="{y + 27:.0f}" font-size="10" text-anchor="middle">'
            f'{html.escape(_fit(line2, _BOX_W))}</text>'
            f'<text x="{x + _BOX_W / 2:.0f}" y="{y + 40:.0f}" font-size="9" fill="#334155" text-anchor="middle">'
            f'{html.escape(_fit(line3, _BOX_W))}</text></g>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="mk-graph-svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans, sans-serif">'
            '<defs><marker id="mk-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker></defs>'
            + "".join(parts) + "</svg>")


def _rows(pairs: List[tuple]) -> str:
    return "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td>{v}</td></tr>" for k, v in pairs)


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
        for k, v in sorted((n.get("info") or {}).items()):
            text = html.escape(str(v))
            rows.append((k, f"<pre class='mk-source'>{text}</pre>" if "\n" in str(v) else text))
        if not st:
            rows.append(("gradient", "no gradient statistics (none captured: use ms.autograd.trace)"))
        for i, d in enumerate(st.get("douts", [])):
            rows.append((f"grad out {i}", html.escape(stats_text(d))))
        for i, d in enumerate(st.get("dins", [])):
            rows.append((f"grad in {i}", html.escape(stats_text(d))))
        flag = node_flag(n)
        badge = {"nonfinite": " <b style='color:#dc2626'>NaN/Inf gradient</b>",
                 "zero": " <b style='color:#d97706'>all-zero gradient</b>"}.get(flag, "")
        parts.append(f"<div class='mk-node-detail'><b>{html.escape(node_title(n))}</b>{badge}"
                     f"<table>{_rows(rows)}</table></div>")
    if len(box.members) > 20:
        parts.append(f"<p>… and {len(box.members) - 20} more</p>")
    return "".join(parts)
