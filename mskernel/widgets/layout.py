"""Layered-DAG layout of a :class:`~mskernel.autograd.graph.GraphSnapshot`, computed here (no graphviz).

Nodes are placed in layers by their longest path from the inputs (inputs on top, results at the
bottom) and ordered within a layer by a few barycenter sweeps, which keeps edges short and mostly
uncrossed. Big graphs are collapsed before layout so that at most ``max_nodes`` boxes are drawn:

1. linear chains of ops (each link the only consumer/producer of the other) become one box;
2. ops of the same name in the same layer become one box ("Mul ×12": repeated sub-graphs, such as
   the same Cell applied to many inputs, line up in layers and merge here);
3. if that is still too many, layers are merged in bands and ops of the same name within a band
   become one box.

Each drawn box is a :class:`Box`; ``Box.members`` lists the snapshot node ids it stands for.

Example:
    >>> import mskernel as ms
    >>> from mskernel.autograd.graph import trace
    >>> snap, _ = trace(lambda x: ms.ops.sin(x * x).sum(), ms.Tensor([1.0, 2.0]))
    >>> lay = layout(snap)
    >>> [(b.label, b.layer) for b in lay.boxes]
    [('input 0', 0), ('Mul', 1), ('Sin', 2), ('ReduceSum', 3)]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

__all__ = ["Box", "Layout", "layout", "MAX_NODES"]

MAX_NODES = 150  # boxes drawn at most; bigger graphs are collapsed


@dataclass
class Box:
    """One drawn box: a snapshot node, or a group of them (``len(members) > 1``)."""

    id: str
    label: str
    kind: str
    members: List[str]
    layer: int = 0
    order: int = 0
    x: float = 0.0  # centre, in box-grid units (0 .. width-1)

    @property
    def collapsed(self) -> bool:
        """Whether this box stands for more than one node."""
        return len(self.members) > 1


@dataclass
class Layout:
    """Boxes with their layer and position, and the edges between boxes (``(src_box, dst_box, [snapshot
    edges])``). ``collapsed`` says which collapsing steps ran.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.graph import trace
        >>> lay = layout(trace(lambda x: ms.ops.sin(x * x).sum(), ms.Tensor([1.0, 2.0]))[0])
        >>> lay.n_layers, [(src, dst) for src, dst, _ in lay.edges], lay.collapsed
        (4, [('n0', 'n1'), ('n1', 'n2'), ('n2', 'n3')], [])
    """

    boxes: List[Box] = field(default_factory=list)
    edges: List[Tuple[str, str, List[Dict[str, Any]]]] = field(default_factory=list)
    n_layers: int = 0
    width: int = 0
    collapsed: List[str] = field(default_factory=list)

    def box(self, box_id: str) -> Box:
        """The box with this id.

        Example:
            >>> Layout([Box("n0", "x", "leaf", ["n0"])]).box("n0").label
            'x'
        """
        for b in self.boxes:
            if b.id == box_id:
                return b
        raise KeyError(box_id)

    def box_of(self, node_id: str) -> Box:
        """The box that shows snapshot node ``node_id``."""
        for b in self.boxes:
            if node_id in b.members:
                return b
        raise KeyError(node_id)


# -- grouping ----------------------------------------------------------------------------------------
def _group(boxes: List[Box], edges: List[Tuple[str, str, list]], key: Callable[[Box], Optional[Hashable]],
           label: Callable[[List[Box]], str]) -> Tuple[List[Box], List[Tuple[str, str, list]]]:
    """Merge boxes with the same non-None ``key``; edges are re-pointed, merged and self-loops dropped."""
    groups: Dict[Hashable, List[Box]] = {}
    owner: Dict[str, str] = {}
    out: List[Box] = []
    for b in boxes:
        k = key(b)
        if k is None:
            out.append(b)
            owner[b.id] = b.id
            continue
        if k not in groups:
            groups[k] = []
            out.append(b)  # placeholder, replaced below (keeps first-appearance order)
        groups[k].append(b)
        owner[b.id] = groups[k][0].id
    merged: List[Box] = []
    for b in out:
        k = key(b)
        members = groups[k] if k is not None else [b]
        if len(members) == 1:
            merged.append(members[0])
        else:
            kinds = {m.kind for m in members}
            merged.append(Box(members[0].id, label(members), kinds.pop() if len(kinds) == 1 else "group",
                              [i for m in members for i in m.members]))
    by_pair: Dict[Tuple[str, str], list] = {}
    for s, d, es in edges:
        s, d = owner[s], owner[d]
        if s != d:
            by_pair.setdefault((s, d), []).extend(es)
    return merged, [(s, d, es) for (s, d), es in by_pair.items()]


def _chains(boxes: List[Box], edges: List[Tuple[str, str, list]], keep: set) -> Dict[str, Optional[str]]:
    """Chain id per box: boxes linked one-to-one (and not leaves or results) share one."""
    succ: Dict[str, set] = {b.id: set() for b in boxes}
    pred: Dict[str, set] = {b.id: set() for b in boxes}
    for s, d, _ in edges:
        succ[s].add(d)
        pred[d].add(s)
    chain: Dict[str, Optional[str]] = {}
    for b in boxes:  # boxes come in topological order
        if b.kind == "leaf" or b.id in keep:
            chain[b.id] = None
            continue
        p = next(iter(pred[b.id])) if len(pred[b.id]) == 1 else None
        joins = p is not None and chain.get(p) is not None and len(succ[p]) == 1
        chain[b.id] = chain[p] if joins else b.id
    return chain


def _chain_label(members: List[Box]) -> str:
    ops = [m.label for m in members]
    return " → ".join(ops) if len(ops) <= 3 else f"{ops[0]} → … → {ops[-1]} ({len(ops)} ops)"


def _count_label(members: List[Box]) -> str:
    names = sorted({m.label.split(" ×")[0] for m in members})
    n = sum(len(m.members) for m in members)
    shown = "/".join(names[:3]) + ("/…" if len(names) > 3 else "")
    return f"{shown} ×{n}"


# -- layering and ordering ------------------------------------------------------------------------------
def _layers(boxes: List[Box], edges: List[Tuple[str, str, list]]) -> bool:
    """Set each box's layer (longest path from a source); False if the box graph has a cycle."""
    pred: Dict[str, List[str]] = {b.id: [] for b in boxes}
    succ: Dict[str, List[str]] = {b.id: [] for b in boxes}
    for s, d, _ in edges:
        pred[d].append(s)
        succ[s].append(d)
    indeg = {b.id: len(pred[b.id]) for b in boxes}
    ready = [b.id for b in boxes if indeg[b.id] == 0]
    level: Dict[str, int] = {}
    while ready:
        i = ready.pop()
        level[i] = max((level[p] + 1 for p in pred[i]), default=0)
        for d in succ[i]:
            indeg[d] -= 1
            if indeg[d] == 0:
                ready.append(d)
    for b in boxes:
        b.layer = level.get(b.id, 0)
    return len(level) == len(boxes)


def _order(boxes: List[Box], edges: List[Tuple[str, str, list]], sweeps: int = 4) -> int:
    """Order boxes within layers by barycenter sweeps; returns the widest layer's size."""
    rows: Dict[int, List[Box]] = {}
    for b in boxes:
        rows.setdefault(b.layer, []).append(b)
    pred: Dict[str, List[str]] = {b.id: [] for b in boxes}
    succ: Dict[str, List[str]] = {b.id: [] for b in boxes}
    for s, d, _ in edges:
        pred[d].append(s)
        succ[s].append(d)
    pos = {b.id: float(i) for row in rows.values() for i, b in enumerate(row)}
    layers = sorted(rows)
    for sweep in range(sweeps):
        down = sweep % 2 == 0
        for layer in (layers[1:] if down else layers[-2::-1]):
            row = rows[layer]
            nbrs = pred if down else succ

            def centre(b: Box, nbrs: Dict[str, List[str]] = nbrs) -> float:
                ns = nbrs[b.id]
                return sum(pos[n] for n in ns) / len(ns) if ns else pos[b.id]
            row.sort(key=centre)
            for i, b in enumerate(row):
                pos[b.id] = float(i)
    width = max((len(r) for r in rows.values()), default=0)
    for row in rows.values():
        pad = (width - len(row)) / 2.0
        for i, b in enumerate(row):
            b.order = i
            b.x = pad + i
    return width


def layout(snap: Any, max_nodes: int = MAX_NODES) -> Layout:
    """Lay out a snapshot (anything with ``nodes``, ``edges`` and ``outputs`` as in GraphSnapshot).

    Graphs with more than ``max_nodes`` nodes are collapsed (see the module doc) until at most
    ``max_nodes`` boxes remain; leaves (inputs, Parameters) and results are never merged.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.graph import trace
        >>> def chain(x):
        ...     for _ in range(50):
        ...         x = ms.ops.sin(x) + 1
        ...     return x.sum()
        >>> snap, _ = trace(chain, ms.Tensor([0.5]))
        >>> lay = layout(snap, max_nodes=20)
        >>> len(snap.nodes), len(lay.boxes), lay.collapsed
        (102, 3, ['chains'])
        >>> lay.boxes[1].label
        'Sin → … → Add (100 ops)'
    """
    if max_nodes < 1:
        raise ValueError(f"layout: max_nodes must be a positive int, got {max_nodes!r}.")
    boxes = [Box(n["id"], str(n["op"]), str(n["kind"]), [n["id"]]) for n in snap.nodes]
    edges = [(e["src"], e["dst"], [e]) for e in snap.edges]
    merged: Dict[Tuple[str, str], list] = {}
    for s, d, es in edges:
        merged.setdefault((s, d), []).extend(es)
    edges = [(s, d, es) for (s, d), es in merged.items()]
    keep = set(snap.outputs)
    done: List[str] = []
    if len(boxes) > max_nodes:
        chain = _chains(boxes, edges, keep)
        boxes, edges = _group(boxes, edges, lambda b: chain[b.id], _chain_label)
        done.append("chains")
    _layers(boxes, edges)
    if len(boxes) > max_nodes:
        boxes, edges = _group(boxes, edges, lambda b: None if b.kind == "leaf" or b.id in keep
                              else ("layer", b.layer, b.label.split(" ×")[0]), _count_label)
        done.append("same op per layer")
        _layers(boxes, edges)
    band = 2
    while len(boxes) > max_nodes:
        # merge every op of a band of layers into one box: edges then only run from band to later band, so
        # no cycle can appear (results stay apart unless that would close a cycle through them)
        n_layers = 1 + max(b.layer for b in boxes)
        for keep_results in (True, False):
            def key(b: Box, band: int = band, keep_results: bool = keep_results) -> Optional[Hashable]:
                if b.kind == "leaf" or (keep_results and b.id in keep):
                    return None
                return ("band", b.layer // band)
            new_boxes, new_edges = _group(boxes, edges, key, _count_label)
            if _layers(new_boxes, new_edges):
                break
        boxes, edges = new_boxes, new_edges
        if "layer bands" not in done:
            done.append("layer bands")
        if band > n_layers:
            break  # one box per band of all layers: nothing left to merge but leaves
        band *= 2
    width = _order(boxes, edges)
    boxes.sort(key=lambda b: (b.layer, b.order))
    return Layout(boxes, edges, 1 + max((b.layer for b in boxes), default=-1), width, done)
