"""GraphView over real graphs: built-in, Custom, C++ Function and Cell/Parameter nodes; flags; selection."""
from __future__ import annotations

import html
import os
import re

import numpy as np
import pytest

import mskernel as ms
from mskernel import Parameter, Tensor, nn, ops
from mskernel.autograd.graph import trace
from mskernel.widgets import GraphView
from mskernel.widgets.render import BOX_SIZE, SOURCE_STYLE, graph_size
from mskernel.widgets.textfit import text_width

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RATIO_CPP = os.path.join(REPO, "docs", "howto", "examples", "ratio_ops.cpp")  # a C++ Function<T> op: x / y
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _svg_nodes(view):
    return dict(re.findall(r'<g class="mk-node" data-id="(\w+)" data-kind="\w+" data-flag="(\w+)"', view.graph.value))


class _Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([0.1, 0.2], np.float32)), name="b")

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.w) + self.b)


def test_children_and_svg_of_a_cell_with_parameters():
    net = _Affine()
    snap, _ = trace(lambda x: net(x).sum(), Tensor(np.ones((3, 2), np.float32)), weights=[net.w, net.b])
    view = GraphView(snap)
    assert [type(c).__name__ for c in view.children] == ["HTML", "HTML", "HBox"]
    assert view.canvas in view.children[2].children and view.graph in view.canvas.children
    assert set(view.hits) == {b.id for b in view.graph_layout.boxes}  # one click target per drawn box
    nodes = _svg_nodes(view)
    assert set(nodes) == {n["id"] for n in snap.nodes}
    kinds = dict(re.findall(r'data-id="(\w+)" data-kind="(\w+)"', view.graph.value))
    names = {n["op"]: n["id"] for n in snap.nodes}
    assert kinds[names["w"]] == kinds[names["b"]] == "parameter" and kinds[names["input 0"]] == "input"
    assert all(flag == "ok" for flag in nodes.values())
    assert "Float32[2, 2]" in view.graph.value  # shapes and dtypes drawn
    assert "|g|=" in view.graph.value  # gradient statistics drawn
    # the node list has one option per box, and picking the Parameter shows its details
    assert len(view.nodes.options) == len(view.graph_layout.boxes)
    view.nodes.value = names["w"]
    assert view.selected == names["w"]
    assert "parameter" in view.details.value and "grad out 0" in view.details.value
    assert f'data-id="{names["w"]}" data-kind="parameter" data-flag="ok" data-label="w"><title>' in view.graph.value
    assert 'stroke="#2563eb" stroke-width="3"' in view.graph.value  # the selection outline
    # clicking the box in the picture selects it too (and the list follows)
    view.hits[names["Tanh"]].click()
    assert view.selected == names["Tanh"] and view.nodes.value == names["Tanh"]
    assert "Tanh" in view.details.value


def test_nan_and_zero_gradients_are_flagged():
    def f(x, y):
        return (ops.log(x * 0) + y * 0).sum()
    snap, _ = trace(f, Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), grad_position=(0, 1))
    view = GraphView(snap)
    flags = view.flagged()
    by_op = {n["op"]: n["id"] for n in snap.nodes}
    assert flags[by_op["input 0"]] == "nonfinite" and flags[by_op["Log"]] == "nonfinite"
    assert flags[by_op["input 1"]] == "zero"
    nodes = _svg_nodes(view)
    assert nodes[by_op["Log"]] == "nonfinite" and nodes[by_op["input 1"]] == "zero"
    assert 'stroke="#dc2626" stroke-width="2"' in view.graph.value  # a red edge carries the NaN gradient
    # the view opens on a flagged node, and the text fallback names them
    assert view.selected in flags and "NaN/Inf gradient" in view.details.value
    assert f"NaN/Inf gradient: {by_op['Log']} (Log)" in view.summary()
    assert f"zero gradient: {by_op['input 1']} (input 1)" in view.summary()


def test_custom_op_node_shows_func_type_and_name():
    def double(x):
        return x * 2
    op = ops.Custom(double, lambda s: s, lambda d: d, func_type="pyfunc", bprop=lambda x, out, d: (d * 2,))
    x = Tensor([1.0, 2.0])
    x.requires_grad = True
    view = ms.show_graph(op(x).sum())
    custom = [n for n in view.snapshot.nodes if n["kind"] == "custom"][0]
    assert f'data-id="{custom["id"]}" data-kind="custom"' in view.graph.value
    assert "Custom double (pyfunc)" in view.graph.value
    view.select(custom["id"])
    assert "func_type" in view.details.value and "pyfunc" in view.details.value
    assert "no gradient statistics" in view.details.value  # no backward with capture ran
    # before a backward pass the op still keeps its forward output for the bprop (snapshot's "saved")
    assert custom["saved"] == [{"shape": [2], "dtype": "Float32"}]
    assert "saved tensors</th><td style='padding:1px 0'>Float32[2]" in view.details.value
    # the kernel's source, under the table in a block that keeps its lines (scrolls sideways, never wraps)
    assert f"<pre class='mk-source' style='{SOURCE_STYLE}'>def double(x):\n    return x * 2\n</pre>" \
        in view.details.value.split("</table>")[1]
    assert "white-space:pre;" in SOURCE_STYLE and "overflow:auto" in SOURCE_STYLE


def test_a_custom_nodes_details_show_its_registration_info():
    from mskernel.ops import CustomRegOp, DataType

    info = (CustomRegOp("triple").input(0, "x").output(0, "y").dtype_format(DataType.F32_Default, DataType.F32_Default)
            .target("CPU").get_op_info())
    op = ops.Custom(lambda x: x * 3, lambda s: s, lambda d: d, func_type="pyfunc", reg_info=info)
    x = Tensor([1.0, 2.0])
    x.requires_grad = True
    view = ms.show_graph(op(x))
    custom = [n for n in view.snapshot.nodes if n["kind"] == "custom"][0]
    view.select(custom["id"])
    assert "reg_info" in view.details.value
    assert "target CPU; inputs [&#x27;x&#x27;]; attrs []; dtypes (float32) -&gt; (float32)" in view.details.value


@pytest.mark.slow
def test_cpp_function_network():
    from mskernel.ops import CustomOpBuilder
    ratio_ops = CustomOpBuilder("ratio_ops", [RATIO_CPP]).load()
    w = Parameter(0.5, requires_grad=True, name="w")
    snap, grads = trace(lambda x, y: ratio_ops.ratio(ratio_ops.ratio(x, y), w), Tensor(3.0), Tensor(2.0),
                        grad_position=(0, 1), weights=[w])
    view = GraphView(snap)
    cpp = [n for n in snap.nodes if n["kind"] == "cpp_function"]
    assert len(cpp) == 2 and all(n["op"] == "Ratio" for n in cpp)
    assert view.graph.value.count('data-kind="cpp_function"') == 2
    assert view.graph.value.count('data-kind="parameter"') == 1
    view.select(cpp[0]["id"])
    assert "cpp_class" in view.details.value and "Ratio" in view.details.value
    assert float(grads[2].asnumpy()) == -6.0  # d((x/y)/w)/dw = -x/(y w^2)


def test_a_1000_node_graph_stays_readable():
    def f(x):
        for i in range(300):
            x = ops.sin(x) * 0.9 + x if i % 3 else ops.cos(x) + 0.1
        return x.sum()
    snap, _ = trace(f, Tensor([0.1, 0.2]))
    assert len(snap.nodes) > 700
    view = GraphView(snap)
    assert len(view.graph_layout.boxes) <= 150 and view.graph_layout.collapsed
    assert "collapsed to" in view.header.value
    group = next(b for b in view.graph_layout.boxes if b.collapsed)
    view.select(group.members[-1])  # selecting a member node selects its box
    assert view.selected == group.id and "nodes collapsed" in view.details.value


def test_static_fallbacks_and_mimebundle():
    x = Tensor([1.0, 2.0])
    x.requires_grad = True
    view = GraphView(ops.exp(x).sum())
    bundle = view._repr_mimebundle_()
    assert WIDGET_VIEW in bundle
    assert bundle["text/plain"] == "GraphView: 3 nodes, 2 edges, 3 boxes; outputs: n2"
    assert bundle["text/html"].count('class="mk-node"') == 3 and "<svg" in bundle["text/html"]
    assert GraphView(ops.exp(x).sum())._repr_html_() == view._repr_html_()  # deterministic


def test_bad_input_is_rejected_with_a_clear_message():
    with pytest.raises(TypeError, match="expected a function with its inputs, Tensor.s. or a GraphSnapshot, "
                                        "but got int"):
        GraphView(3)
    with pytest.raises(TypeError, match="but got str"):
        GraphView((Tensor([1.0]), "y"))
    with pytest.raises(ValueError, match="no recorded graph"):
        GraphView(Tensor([1.0]) * 2)
    x = Tensor([1.0])
    x.requires_grad = True
    view = GraphView(x * 2)
    before = (view.selected, view.graph.value)
    with pytest.raises(KeyError, match="no node 'n99' in this graph"):
        view.select("n99")
    assert (view.selected, view.graph.value) == before  # nothing half-applied


def test_several_results_share_one_graph():
    x = Tensor([1.0, 2.0])
    x.requires_grad = True
    h = ops.exp(x)
    view = GraphView((h.sum(), (h * 2).mean()))
    assert len(view.snapshot.outputs) == 2
    assert [b.label for b in view.graph_layout.boxes if b.layer == 0] == ["input 0"]
    lay = view.graph_layout
    assert {lay.box_of(o).layer for o in view.snapshot.outputs} == {2, 3}
    assert view.summary() == "GraphView: 5 nodes, 4 edges, 5 boxes; outputs: n2, n4"


def test_snapshot_node_lookup_over_a_large_graph():
    def f(x):
        for i in range(400):
            x = ops.sin(x) * 0.9 + x if i % 3 else ops.cos(x) + 0.1
        return x.sum()
    snap, _ = trace(f, Tensor([0.1, 0.2]))
    assert len(snap.nodes) > 1000
    for n in snap.nodes:
        assert snap.node(n["id"]) is n
    with pytest.raises(KeyError, match=r"GraphSnapshot.node: no node 'n99999' in this snapshot of \d+ nodes "
                                       r"\(ids n0 \.\.\. n\d+\)"):
        snap.node("n99999")
    with pytest.raises(KeyError, match="no node None"):
        snap.node(None)
    # a node added after the first lookup is found too (the index follows the list)
    snap.nodes.append({"id": "extra", "op": "Neg", "kind": "builtin"})
    assert snap.node("extra")["op"] == "Neg"
    with pytest.raises(KeyError, match="in this snapshot of 0 nodes\"$"):
        ms.autograd.graph.GraphSnapshot().node("n0")


def _drawn_lines(svg: str, node_id: str, role: str) -> list:
    g = svg.split(f'<g class="mk-node" data-id="{node_id}"')[1].split("</g>")[0]
    return [html.unescape(t) for t in re.findall(rf'<text class="{role}"[^>]*>([^<]*)</text>', g)]


def test_long_labels_wrap_inside_their_box_and_are_never_cut_silently():
    def square_with_a_rather_long_kernel_name(x):
        return x * x
    op = ops.Custom(square_with_a_rather_long_kernel_name, lambda s: s, lambda d: d, func_type="pyfunc",
                    bprop=lambda x, out, d: (2 * x * d,))
    snap, _ = trace(lambda x: op(x).sum(), Tensor([1.0, 2.0]))
    view = GraphView(snap)
    node = next(n["id"] for n in snap.nodes if n["kind"] == "custom")
    label = "Custom square_with_a_rather_long_kernel_name (pyfunc)"
    lines = _drawn_lines(view.graph.value, node, "mk-label")
    assert len(lines) > 1 and "".join(lines).replace(" ", "") == label.replace(" ", "")  # all of it, wrapped
    assert all(text_width(t, 11, bold=True) <= BOX_SIZE[0] - 12 for t in lines)  # each line fits the box
    assert f'data-label="{label}">' in view.graph.value  # not cut: no data-cut mark
    assert view.hits[node].tooltip.startswith(f"{node}: {label} (custom, ok)")  # hovering the box shows it all

    # a name too long even for three lines is shortened with "…", marked, and shown whole on hover
    def k(x):
        return x
    k.__name__ = "kernel_" + "very_" * 20 + "long"
    long_op = ops.Custom(k, lambda s: s, lambda d: d, func_type="pyfunc", bprop=lambda x, out, d: (d,))
    snap, _ = trace(lambda x: long_op(x).sum(), Tensor([1.0]))
    view = GraphView(snap)
    node = next(n["id"] for n in snap.nodes if n["kind"] == "custom")
    lines = _drawn_lines(view.graph.value, node, "mk-label")
    assert len(lines) == 3 and lines[2].endswith("…")
    full = f"Custom {k.__name__} (pyfunc)"
    assert f'data-label="{full}" data-cut="1"><title>{node}: {full} (custom, ok)' in view.graph.value
    assert full in view.hits[node].tooltip


def test_details_panel_is_wide_and_keeps_code_lines():
    src = "def kernel(x):\n    return x * 2.0  # " + "a long comment " * 8 + "\n"
    view = GraphView(Parameter(Tensor([1.0]), name="p") * 2)
    row = view.children[2]
    side = row.children[1]
    # side by side when both fit (the picture's own width, 480 px details), else the details wrap under it
    assert row.layout.flex_flow == "row wrap" and side.layout.flex == "1 1 480px"
    assert graph_size(view.graph_layout)[0] == 200  # one column of boxes
    assert view.canvas.layout.flex == "3 1 240px" and view.details.layout.width == "100%"
    wide = GraphView(sum((Parameter(Tensor([1.0]), name=f"p{i}") for i in range(6)), Tensor([0.0])))
    assert graph_size(wide.graph_layout)[0] > 720 and wide.canvas.layout.flex == "3 1 720px"
    snap = view.snapshot
    snap.node("n1")["info"]["source"] = src
    view.select("n1")
    block = view.details.value.split("</table>")[1]
    assert block.startswith("<div class='mk-source-title'><b>source</b></div>")
    assert html.escape(src) in block and "<br" not in block
