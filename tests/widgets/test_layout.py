"""The layered-DAG layout: layers respect edges, no two boxes share a slot, big graphs collapse."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.autograd.graph import trace
from mskernel.widgets.layout import layout


def _check_consistent(snap, lay, max_nodes=None):
    members = [m for b in lay.boxes for m in b.members]
    assert sorted(members) == sorted(n["id"] for n in snap.nodes)  # every node drawn exactly once
    slots = [(b.layer, b.order) for b in lay.boxes]
    assert len(set(slots)) == len(slots)
    layer = {b.id: b.layer for b in lay.boxes}
    for s, d, _ in lay.edges:
        assert layer[s] < layer[d], (s, d)
    if max_nodes is not None:
        assert len(lay.boxes) <= max_nodes


def test_small_graph_layers_follow_longest_paths():
    snap, _ = trace(lambda x, y: (ops.sin(x) * y + x).sum(), ms.Tensor([1.0]), ms.Tensor([2.0]),
                    grad_position=(0, 1))
    lay = layout(snap)
    _check_consistent(snap, lay)
    by_op = {b.label: b.layer for b in lay.boxes}
    assert by_op["input 0"] == by_op["input 1"] == 0
    assert by_op["Sin"] == 1 and by_op["Mul"] == 2 and by_op["Add"] == 3 and by_op["ReduceSum"] == 4
    assert lay.collapsed == [] and lay.width == 2


def test_barycenter_ordering_keeps_parallel_branches_apart():
    def f(a, b):
        return (ops.sin(a) * 2).sum() + (ops.cos(b) * 3).sum()
    snap, _ = trace(f, ms.Tensor([1.0]), ms.Tensor([2.0]), grad_position=(0, 1))
    lay = layout(snap)
    _check_consistent(snap, lay)
    x = {b.label: b.x for b in lay.boxes if b.label in ("Sin", "Cos", "input 0", "input 1")}
    # each op sits in the same column as its own input: no crossing
    assert (x["Sin"] - x["Cos"]) * (x["input 0"] - x["input 1"]) > 0


def _wide(n_branches):
    def f(x):
        outs = [ops.exp(x * float(i + 1)).sum() for i in range(n_branches)]
        total = outs[0]
        for o in outs[1:]:
            total = total + o
        return total
    return trace(f, ms.Tensor([0.1, 0.2]))[0]


def _deep(n):
    def f(x):
        y = x
        for i in range(n):
            y = ops.sin(y) + y if i % 2 else ops.cos(y) * 0.5
        return y.sum()
    return trace(f, ms.Tensor([0.3]))[0]


@pytest.mark.parametrize("make", [lambda: _wide(250), lambda: _deep(400)], ids=["wide", "deep-residual"])
def test_big_graphs_collapse_under_the_box_limit(make):
    snap = make()
    assert len(snap.nodes) > 700
    lay = layout(snap, max_nodes=150)
    _check_consistent(snap, lay, max_nodes=150)
    assert lay.collapsed
    assert any(b.collapsed for b in lay.boxes)
    # leaves and the result are never merged into groups
    for nid in [n["id"] for n in snap.nodes if n["kind"] == "leaf"] + snap.outputs:
        assert not lay.box_of(nid).collapsed


def test_repeated_subgraphs_merge_into_counted_boxes():
    snap = _wide(100)
    lay = layout(snap, max_nodes=40)
    labels = [b.label for b in lay.boxes]
    assert any(lab.startswith("Exp") and "×" in lab for lab in labels) or any("→" in lab for lab in labels)
    _check_consistent(snap, lay, max_nodes=40)


def test_layout_rejects_a_bad_box_limit():
    snap, _ = trace(lambda x: x.sum(), ms.Tensor(np.ones(2)))
    with pytest.raises(ValueError, match="max_nodes must be a positive int, got 0"):
        layout(snap, max_nodes=0)
