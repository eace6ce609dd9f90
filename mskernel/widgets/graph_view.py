"""The graph widget: the autograd graph behind a result, with gradient statistics and node details.

``GraphView(result)`` takes result Tensor(s) (or a :class:`~mskernel.autograd.graph.GraphSnapshot`,
e.g. from :func:`mskernel.autograd.trace`, whose nodes carry gradient statistics), lays the graph
out (:mod:`mskernel.widgets.layout`), draws it as SVG (:mod:`mskernel.widgets.render`) and shows
the details of the node clicked in the picture (or picked in the node list). In a front end
without widgets it renders as the same SVG plus a text summary.

Example:
    >>> import mskernel as ms
    >>> snap, _ = ms.autograd.trace(lambda x: ms.ops.log(x * 0).sum(), ms.Tensor([1.0, 2.0]))
    >>> view = GraphView(snap)
    >>> view.flagged()
    {'n0': 'nonfinite', 'n1': 'nonfinite', 'n2': 'nonfinite'}
    >>> view.select("n2").selected
    'n2'
"""
from __future__ import annotations

import html
import uuid
from typing import Any, Callable, Dict, Optional, Sequence, Union

import ipywidgets as W

from mskernel.autograd.graph import GraphSnapshot, snapshot, trace
from mskernel.common.tensor import Tensor
from mskernel.widgets.layout import MAX_NODES, Layout, layout
from mskernel.widgets.render import (BOX_SIZE, FLAG_COLORS, KIND_COLORS, box_flag, box_origin, box_tooltip,
                                     details_html, graph_size, graph_svg, node_flag, node_title)

__all__ = ["GraphView", "show_graph", "as_snapshot"]

GraphSource = Union[Callable[..., Any], Tensor, Sequence[Tensor], GraphSnapshot]


def _trace_call(fn: Callable, inputs: Sequence[Any], api: str) -> GraphSnapshot:
    """Trace ``fn(*inputs)`` with every float Tensor input and every Parameter it reads as a gradient target."""
    __tracebackhide__ = True
    floats = tuple(i for i, a in enumerate(inputs) if isinstance(a, Tensor) and a._data.dtype.kind in "fc")
    snap, _ = trace(fn, *inputs, grad_position=floats, weights="graph")
    if not snap.nodes:
        name = getattr(fn, "__name__", type(fn).__name__)
        raise ValueError(f"{api}: nothing in {name}(...) is differentiable: no input is a float Tensor and it reads "
                         f"no Parameter.\nPass float Tensor inputs: ms.{api}({name}, x, ...).")
    return snap


def as_snapshot(source: Any, *inputs: Any, api: str = "GraphView") -> GraphSnapshot:
    """The snapshot to draw: a GraphSnapshot as is; for a function (or Cell) and its inputs, the graph of
    one call, traced with every float Tensor input and every Parameter it reads as a gradient target
    (so the nodes carry gradient statistics); for Tensor(s), the graph recorded behind them.

    Example:
        >>> import mskernel as ms
        >>> [n["op"] for n in as_snapshot(lambda x: (x * 2).sum(), ms.Tensor([1.0])).nodes]
        ['input 0', 'Mul', 'ReduceSum']
    """
    __tracebackhide__ = True
    if isinstance(source, GraphSnapshot) or isinstance(source, Tensor) or isinstance(source, (tuple, list)):
        if inputs:
            raise TypeError(f"{api}: inputs were given after a {type(source).__name__}, which is already a result."
                            f"\nPass the function instead: ms.{api}(fn, x, ...).")
    elif callable(source):
        return _trace_call(source, inputs, api)
    if isinstance(source, GraphSnapshot):
        return source
    tensors = list(source) if isinstance(source, (tuple, list)) else [source]
    bad = [t for t in tensors if not isinstance(t, Tensor)]
    if bad or not tensors:
        got = type(bad[0]).__name__ if bad else "an empty sequence"
        raise TypeError(f"{api}: expected a function with its inputs, Tensor(s) or a GraphSnapshot, but got {got}."
                        f"\nPass the function and its inputs: ms.{api}(fn, x, ...).")
    snap = snapshot(*tensors)
    if not snap.nodes:
        raise ValueError(f"{api}: this result has no recorded graph (nothing it was computed from asked for "
                         f"gradients).\nPass the function and its inputs instead: ms.{api}(fn, x, ...).")
    return snap


def _legend() -> str:
    kinds = "".join(f"<span style='background:{c};border:1px solid #94a3b8;padding:0 4px;margin-right:4px'>{k}</span>"
                    for k, c in KIND_COLORS.items())
    flags = "".join(f"<span style='border:2px solid {FLAG_COLORS[f]};padding:0 4px;margin-right:4px'>{t}</span>"
                    for f, t in (("nonfinite", "NaN/Inf grad"), ("zero", "zero grad"), ("none", "no stats")))
    return f"<div class='mk-legend' style='font-size:11px'>{kinds} {flags}</div>"


class GraphView(W.VBox):
    """Widget showing the autograd graph behind ``result`` (Tensor(s) or a GraphSnapshot).

    ``max_nodes`` bounds the boxes drawn (bigger graphs are collapsed). ``selected`` is the id of the
    selected box; :meth:`select` changes it (as does picking a node in the list).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([2.0]), name="w")
        >>> view = GraphView(w * 3)
        >>> [b.label for b in view.graph_layout.boxes]
        ['w', 'Mul']
    """

    def __init__(self, source: GraphSource, *inputs: Any, max_nodes: int = MAX_NODES) -> None:
        __tracebackhide__ = True
        self.snapshot = as_snapshot(source, *inputs, api=type(self).__name__)
        self.graph_layout: Layout = layout(self.snapshot, max_nodes=max_nodes)
        self.selected: Optional[str] = None
        self.header = W.HTML(self._header_html())
        self.graph = W.HTML()
        self.graph.add_class("mk-graph")
        # one transparent button over each drawn box: clicking a node in the picture selects it
        self.hits: Dict[str, W.Button] = {}
        uid = uuid.uuid4().hex[:8]  # CSS class names unique to this view (positions live in a <style>)
        rules = [f".mk-canvas-{uid}{{position:relative}}",
                 f".mk-canvas-{uid} .mk-hit{{position:absolute !important;opacity:0;margin:0 !important;"
                 f"padding:0 !important;width:{BOX_SIZE[0]}px;height:{BOX_SIZE[1]}px;cursor:pointer}}"]
        for b in self.graph_layout.boxes:
            # the button lies over the box, so its tooltip is what hovering the box shows: the full text
            btn = W.Button(tooltip=box_tooltip(self.snapshot, b), layout=W.Layout(width=f"{BOX_SIZE[0]}px",
                                                                                   height=f"{BOX_SIZE[1]}px"))
            btn.add_class("mk-hit")
            btn.add_class(f"mk-hit-{b.id}")
            btn.on_click(lambda _, box_id=b.id: self.select(box_id))
            x, y = box_origin(b)
            rules.append(f".mk-canvas-{uid} .mk-hit-{b.id}{{left:{x:.0f}px;top:{y:.0f}px}}")
            self.hits[b.id] = btn
        self.canvas = W.Box([W.HTML(f"<style>{''.join(rules)}</style>"), self.graph, *self.hits.values()],
                            layout=W.Layout(overflow="auto", max_height="560px", flex=f"3 1 {self._canvas_basis()}px",
                                            min_width="0"))
        self.canvas.add_class(f"mk-canvas-{uid}")
        self.canvas.add_class("mk-graph-canvas")
        options = [(self._option(b.id), b.id) for b in self.graph_layout.boxes]
        self.nodes = W.Select(options=options, rows=min(10, max(2, len(options))), description="node",
                              layout=W.Layout(width="100%"))
        self.nodes.add_class("mk-graph-nodes")
        # wide enough for a kernel's source (its code blocks scroll sideways, never wrap)
        self.details = W.HTML(layout=W.Layout(width="100%", max_height="460px", overflow="auto"))
        self.details.add_class("mk-graph-details")
        # beside the picture when there is room for both (the picture up to 720 px, + 480 px), else under it
        side = W.VBox([self.nodes, self.details], layout=W.Layout(flex="1 1 480px", min_width="0"))
        side.add_class("mk-graph-side")
        super().__init__([self.header, _legend_widget(),
                          W.HBox([self.canvas, side], layout=W.Layout(flex_flow="row wrap"))])
        self.add_class("mk-graph-view")
        self.nodes.observe(self._on_pick, names="value")
        self.select(self._initial())

    # -- state ---------------------------------------------------------------------------------------
    def _canvas_basis(self) -> int:
        """The picture's share of the row: its own width (plus a scroll bar), between 240 and 720 px."""
        return max(240, min(720, graph_size(self.graph_layout)[0] + 16))

    def _option(self, box_id: str) -> str:
        b = self.graph_layout.box(box_id)
        flag = box_flag(self.snapshot, b)
        mark = {"nonfinite": " [NaN/Inf]", "zero": " [zero grad]"}.get(flag, "")
        text = f"{b.id} {b.label} ({len(b.members)} nodes)" if b.collapsed else node_title(self.snapshot.node(b.id))
        return text + mark

    def _initial(self) -> Optional[str]:
        flags = self.flagged()
        if flags:
            return self.graph_layout.box_of(next(iter(flags))).id
        outs = list(self.snapshot.outputs)
        if outs:
            return self.graph_layout.box_of(outs[0]).id
        return self.graph_layout.boxes[0].id if self.graph_layout.boxes else None

    def flagged(self) -> Dict[str, str]:
        """Node id -> ``"nonfinite"`` or ``"zero"`` for nodes whose gradients are NaN/Inf or all zero."""
        out = {}
        for b in self.graph_layout.boxes:
            for m in b.members:
                f = node_flag(self.snapshot.node(m))
                if f in ("nonfinite", "zero"):
                    out[m] = f
        return out

    def select(self, box_or_node_id: Optional[str]) -> "GraphView":
        """Select a box (or the box showing a snapshot node) by id; redraws and shows its details."""
        if box_or_node_id is None:
            self.selected = None
            self.graph.value = graph_svg(self.snapshot, self.graph_layout)
            self.details.value = ""
            return self
        try:
            box = self.graph_layout.box_of(box_or_node_id)
        except KeyError:
            ids = ", ".join(b.id for b in self.graph_layout.boxes[:10])
            raise KeyError(f"GraphView.select: no node {box_or_node_id!r} in this graph (boxes: {ids}"
                           f"{', ...' if len(self.graph_layout.boxes) > 10 else ''}).") from None
        self.selected = box.id
        self.graph.value = graph_svg(self.snapshot, self.graph_layout, selected=box.id)
        self.details.value = details_html(self.snapshot, box)
        if self.nodes.value != box.id:
            self.nodes.value = box.id
        return self

    def _on_pick(self, change: Dict[str, Any]) -> None:
        if change["new"] is not None and change["new"] != self.selected:
            self.select(change["new"])

    # -- static output ---------------------------------------------------------------------------------
    def _header_html(self) -> str:
        snap, lay = self.snapshot, self.graph_layout
        extra = f", collapsed to {len(lay.boxes)} boxes ({', '.join(lay.collapsed)})" if lay.collapsed else ""
        return (f"<b>autograd graph</b>: {len(snap.nodes)} nodes, {len(snap.edges)} edges{html.escape(extra)}; "
                f"outputs {', '.join(snap.outputs)}")

    def summary(self) -> str:
        """Plain-text summary: sizes, outputs and flagged nodes (the text/plain fallback).

        Example:
            >>> import mskernel as ms
            >>> snap, _ = ms.autograd.trace(lambda x: (x * 0).sum(), ms.Tensor([1.0]))
            >>> print(GraphView(snap).summary())
            GraphView: 3 nodes, 2 edges, 3 boxes; outputs: n2
              zero gradient: n0 (input 0)
        """
        snap, lay = self.snapshot, self.graph_layout
        lines = [f"GraphView: {len(snap.nodes)} nodes, {len(snap.edges)} edges, {len(lay.boxes)} boxes; "
                 f"outputs: {', '.join(snap.outputs)}"]
        names = {"nonfinite": "NaN/Inf gradient", "zero": "zero gradient"}
        for nid, f in self.flagged().items():
            lines.append(f"  {names[f]}: {nid} ({snap.node(nid)['op']})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return (f"<div class='mk-graph-static'><p>{self._header_html()}</p>{_legend()}"
                f"{graph_svg(self.snapshot, self.graph_layout, selected=self.selected)}</div>")

    def _repr_mimebundle_(self, **kwargs: Any) -> Dict[str, Any]:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self._repr_html_()
        return bundle


def _legend_widget() -> W.HTML:
    return W.HTML(_legend())


def show_graph(source: GraphSource, *inputs: Any, max_nodes: int = MAX_NODES) -> GraphView:
    """Show the autograd graph of ``source(*inputs)`` (a function or Cell and its inputs), or the graph
    behind Tensor(s) or a GraphSnapshot, as a :class:`GraphView`.

    A function is traced with every float Tensor input and every Parameter it reads as a gradient target,
    so no ``requires_grad`` is needed anywhere, and its nodes carry gradient statistics.

    Example:
        >>> import mskernel as ms
        >>> print(show_graph(lambda x: ms.ops.sin(x).sum(), ms.Tensor([1.0, 2.0])))
        GraphView: 3 nodes, 2 edges, 3 boxes; outputs: n2
    """
    __tracebackhide__ = True
    return GraphView(as_snapshot(source, *inputs, api="show_graph"), max_nodes=max_nodes)
