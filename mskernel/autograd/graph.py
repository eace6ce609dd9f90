"""Plain-data snapshots of the recorded graph, for views such as the gradient-graph widget.

:func:`snapshot` describes the graph behind result tensors: one entry per node (op name, kind,
input/output shapes and dtypes, gradient statistics if a backward pass ran with capture on) and
per edge. :func:`trace` runs ``fn`` forward and backward with statistics captured and returns the
snapshot together with the gradients.

Example:
    >>> import mskernel as ms
    >>> snap, grads = trace(lambda x: (x * x).sum(), ms.Tensor([1.0, 2.0]))
    >>> [n["op"] for n in snap.nodes]
    ['input 0', 'Mul', 'ReduceSum']
    >>> snap.nodes[1]["stats"]["douts"][0]["norm"] > 0
    True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from mskernel.autograd.api import recording, track_inputs
from mskernel.autograd.engine import gradients, grad_stats
from mskernel.autograd.node import STATE, Node
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor

__all__ = ["GraphSnapshot", "snapshot", "trace"]


def _meta(shape: Any, dtype: Any) -> Dict[str, Any]:
    from mskernel.dtype import Type
    return {"shape": list(shape), "dtype": str(Type.of(dtype))}


@dataclass
class GraphSnapshot:
    """Nodes and edges of a graph as plain Python data (JSON-serialisable via :meth:`to_dict`).

    ``nodes``: dicts with ``id``, ``op``, ``kind`` (``"leaf"`` for inputs and parameters),
    ``info`` (op facts; ``{"parameter": name}`` for a Parameter leaf), ``inputs``/``outputs``
    (``{"shape", "dtype"}``), ``saved`` (the forward outputs the backward rule keeps, until a backward
    pass releases them) and ``stats``. ``edges``: dicts with
    ``src``, ``src_output``, ``dst``, ``dst_input``. ``outputs``: ids of the result nodes.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> x.requires_grad = True
        >>> snap = snapshot((x * x).sum())
        >>> [(n["id"], n["op"], n["kind"]) for n in snap.nodes], snap.outputs
        ([('n0', 'input 0', 'leaf'), ('n1', 'Mul', 'builtin'), ('n2', 'ReduceSum', 'builtin')], ['n2'])
        >>> [(e["src"], e["dst"], e["dst_input"]) for e in snap.edges]
        [('n0', 'n1', 0), ('n0', 'n1', 1), ('n1', 'n2', 0)]
    """

    nodes: List[Dict[str, Any]] = field(default_factory=list)
    edges: List[Dict[str, Any]] = field(default_factory=list)
    outputs: List[str] = field(default_factory=list)
    # id -> node, built on the first lookup; rebuilt if ``nodes`` was replaced or grew since
    _index: Dict[str, Dict[str, Any]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _indexed: "tuple[int, int]" = field(default=(0, -1), init=False, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """The snapshot as a dict of lists (for JSON or a widget model).

        Example:
            >>> sorted(GraphSnapshot().to_dict())
            ['edges', 'nodes', 'outputs']
        """
        return {"nodes": self.nodes, "edges": self.edges, "outputs": self.outputs}

    def node(self, node_id: str) -> Dict[str, Any]:
        """The node with this id (a dict lookup: the index is built once, on the first call).

        Example:
            >>> import mskernel as ms
            >>> snap, _ = trace(lambda x: (x * x).sum(), ms.Tensor([1.0]))
            >>> snap.node("n1")["op"]
            'Mul'
            >>> snap.node("n7")
            Traceback (most recent call last):
            ...
            KeyError: "GraphSnapshot.node: no node 'n7' in this snapshot of 3 nodes (ids n0 ... n2)"
        """
        state = (id(self.nodes), len(self.nodes))
        if self._indexed != state:
            self._index = {n["id"]: n for n in self.nodes}
            self._indexed = state
        try:
            return self._index[node_id]
        except (KeyError, TypeError):
            ids = f" (ids {self.nodes[0]['id']} ... {self.nodes[-1]['id']})" if self.nodes else ""
            raise KeyError(f"GraphSnapshot.node: no node {node_id!r} in this snapshot of {len(self.nodes)} "
                           f"nodes{ids}") from None

    def __str__(self) -> str:
        lines = []
        sources: Dict[str, List[str]] = {}
        for e in self.edges:
            sources.setdefault(e["dst"], []).append(e["src"])
        for n in self.nodes:
            ins = ", ".join(sources.get(n["id"], []))
            outs = ", ".join(f"{o['dtype']}{o['shape']}" for o in n["outputs"])
            lines.append(f"{n['id']}: {n['op']} ({n['kind']}) <- [{ins}] -> {outs}")
        return "\n".join(lines)


def snapshot(*tensors: Tensor, names: Optional[Dict[int, str]] = None) -> GraphSnapshot:
    """Describe the graph that produced ``tensors``; nodes are listed inputs-first.

    ``names`` optionally maps ``id(leaf_tensor)`` to a display name.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([2.0]), name="w")
        >>> snap = snapshot(w * 3)
        >>> [(n["op"], n["kind"]) for n in snap.nodes]
        [('w', 'leaf'), ('Mul', 'builtin')]
        >>> snap.nodes[0]["info"]
        {'parameter': 'w'}
    """
    names = names or {}
    snap = GraphSnapshot()
    order: List[Node] = []
    seen = set()
    stack = [t._node for t in tensors if isinstance(t, Tensor) and t._node is not None]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        order.append(n)
        for t in n.inputs:
            if t is not None and t._rg and t._node is not None:
                stack.append(t._node)
    order.sort(key=lambda n: n.id)
    leaves: Dict[int, Tensor] = {}  # in order of first use, so inputs read top to bottom
    for n in order:
        for t in n.inputs:
            if t is not None and t._rg and t._node is None:
                leaves.setdefault(id(t), t)
    for t in tensors:
        if isinstance(t, Tensor) and t._rg and t._node is None:
            leaves.setdefault(id(t), t)
    # ids local to this snapshot (n0, n1, ... inputs first): deterministic across runs
    ids: Dict[int, str] = {}
    for lid in leaves:
        ids[lid] = f"n{len(ids)}"
    for n in order:
        ids[id(n)] = f"n{len(ids)}"
    for i, (lid, leaf) in enumerate(leaves.items()):
        name = names.get(lid) or (leaf.name if isinstance(leaf, Parameter) else f"input {i}")
        info = {"parameter": leaf.name} if isinstance(leaf, Parameter) else {}
        snap.nodes.append({"id": ids[lid], "op": name, "kind": "leaf", "info": info,
                           "inputs": [], "outputs": [_meta(leaf.shape, leaf._data.dtype)], "saved": [],
                           "stats": None})
    for n in order:
        snap.nodes.append({
            "id": ids[id(n)], "op": n.op, "kind": n.kind, "info": dict(n.info or {}),
            "inputs": [None if t is None else _meta(t.shape, t._data.dtype) for t in n.inputs],
            "outputs": [_meta(s, d) for s, d in n.out_meta],
            "saved": [] if n.saved_out is None else [_meta(a.shape, a.dtype) for a in n.saved_out],
            "stats": n.stats,
        })
        for pos, t in enumerate(n.inputs):
            if t is None or not t._rg:
                continue
            src = ids[id(t)] if t._node is None else ids[id(t._node)]
            snap.edges.append({"src": src, "src_output": 0 if t._node is None else t._idx,
                               "dst": ids[id(n)], "dst_input": pos})
    snap.outputs = [ids[id(t._node)] if t._node is not None else ids[id(t)] for t in tensors
                    if isinstance(t, Tensor) and t._rg]
    leaf_ids = {ids[lid] for lid in leaves}
    # leaf gradient stats: from the consumers' input-gradient stats
    for e in snap.edges:
        if e["src"] in leaf_ids:
            dst = snap.node(e["dst"])
            st = dst["stats"]
            if st and st["dins"][e["dst_input"]] is not None:
                leaf = snap.node(e["src"])
                leaf["stats"] = leaf["stats"] or {"douts": [None], "dins": []}
                leaf["stats"]["douts"][0] = st["dins"][e["dst_input"]]
    return snap


def _parameters_behind(roots: Sequence[Any]) -> List[Parameter]:
    """The Parameters (leaves that require gradients) the recorded graph behind ``roots`` reads, in order
    of first use.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([2.0]), name="w")
        >>> [p.name for p in _parameters_behind([w * 3 + 1])]
        ['w']
    """
    found: Dict[int, Parameter] = {}
    seen = set()
    stack = [t._node for t in roots if isinstance(t, Tensor) and t._node is not None]
    nodes: List[Node] = []
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        nodes.append(n)
        stack.extend(t._node for t in n.inputs if t is not None and t._rg and t._node is not None)
    for n in sorted(nodes, key=lambda n: n.id):
        for t in n.inputs:
            if isinstance(t, Parameter) and t._rg and t._node is None:
                found.setdefault(id(t), t)
    return list(found.values())


def trace(fn: Callable, *args: Any, grad_position: Sequence[int] = (0,),
          weights: Union[Sequence[Parameter], str] = ()) -> "tuple[GraphSnapshot, List[Tensor]]":
    """Run ``fn`` forward and backward with gradient statistics captured.

    Returns ``(snapshot, grads)``: grads for the inputs at ``grad_position`` then ``weights``; the
    snapshot's leaf nodes carry the accumulated gradient statistics of each input. ``weights="graph"``
    takes every Parameter the call reads (in order of first use).

    Example:
        >>> import mskernel as ms
        >>> snap, (g,) = trace(lambda x: ms.ops.exp(x).sum(), ms.Tensor([0.0]))
        >>> print(g)
        [1.]
        >>> w = ms.Parameter(ms.Tensor([3.0]), name="w")
        >>> snap, (gx, gw) = trace(lambda x: (x * w).sum(), ms.Tensor([2.0]), weights="graph")
        >>> print(gx, gw)
        [3.] [2.]
    """
    if isinstance(weights, str) and weights != "graph":
        raise ValueError(f"For 'trace', weights must be a sequence of Parameters or \"graph\", but got {weights!r}.")
    if isinstance(grad_position, int):
        grad_position = (grad_position,)
    prev = STATE.capture_stats
    STATE.capture_stats = True
    try:
        with recording():
            call, targets = track_inputs(args, grad_position, "trace")
            names: Dict[int, str] = {id(t): f"input {p}" for t, p in zip(targets, grad_position)}
            targets += [] if weights == "graph" else list(weights)
            out = fn(*call)
            roots = list(out) if isinstance(out, (tuple, list)) else [out]
            if weights == "graph":
                targets += _parameters_behind(roots)
            grads = gradients(roots, targets, create_graph=STATE.depth > 1)
    finally:
        STATE.capture_stats = prev
    snap = snapshot(*roots, names=names)
    full = [g if g is not None else Tensor._wrap(np.zeros(t.shape, t._data.dtype)) for t, g in zip(targets, grads)]
    by_name = {n["op"]: n for n in snap.nodes if n["kind"] == "leaf"}
    for t, g in zip(targets, full):
        node = by_name.get(names.get(id(t)) or getattr(t, "name", ""))
        if node is not None:
            node["stats"] = {"douts": [grad_stats(g._data)], "dins": []}
    return snap, full
