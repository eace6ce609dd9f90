"""The tutorials store each widget view as its cell left it, so the site, which draws widgets from the state
stored in the notebook, shows what each cell showed: notebooks/build_notebooks.py gives an output that a later
cell changed its own copy of the changed models (``pin_widget_views``)."""
from __future__ import annotations

import importlib.util
import json
import uuid
from typing import Any, Dict, List

import nbformat
import pytest
from widget_views import NOTEBOOKS, REF, STATE, VIEW, mismatches, shown_in_state, stored_views


def _builder() -> Any:
    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_stored_view_says_what_its_cell_text_says():
    """The stored tutorials, without a browser: each gradient-check and graph view's saved state agrees with the
    text/plain its cell stored (tests/test_docs_browser.py checks the same on the built site)."""
    views = [(nb, v) for nb in sorted(NOTEBOOKS.glob("*.ipynb")) for v in stored_views(nb)]
    assert len(views) >= 5, views  # 05's gate, 06's check and its three graphs, 07's check
    found = [m for nb, v in views for m in mismatches(v, shown_in_state(nb, v.model_id))]
    assert not found, "\n".join(found)


def _tree(saved: Dict[str, Any], model_id: str) -> List[str]:
    """``model_id`` and every model it refers to, depth first."""
    out = [model_id]
    for ref in json.dumps(saved[model_id]["state"]).split('"' + REF)[1:]:
        out += [m for m in _tree(saved, ref.split('"')[0]) if m not in out]
    return out


def _model(saved: Dict[str, Any], root: str, dom_class: str) -> Dict[str, Any]:
    return next(saved[m]["state"] for m in _tree(saved, root) if dom_class in saved[m]["state"].get("_dom_classes", []))


@pytest.mark.slow  # starts a kernel
def test_a_view_that_a_later_cell_changes_is_stored_as_each_cell_left_it(tmp_path):
    cells = [
        "import numpy as np\nimport mskernel as ms\nfrom mskernel import ops\n"
        "from mskernel.widgets import GradCheckView",
        # a wrong bprop (d(x*x) is 2*x*dout): the view fails
        "op = ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type='pyfunc',\n"
        "                bprop=lambda x, out, dout: (dout * x,))\n"
        "view = GradCheckView(lambda a: op(a), (ms.Tensor(np.array([1.0, 2.0])),))\nview",
        # fixed, re-run and the eps moved: the same view now passes, and is shown again
        "op = ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type='pyfunc',\n"
        "                bprop=lambda x, out, dout: (2 * dout * x,))\n"
        "view.rerun.click()\nview.eps.value = 1e-2\nview",
        "graph = ms.show_graph(lambda v: (ops.relu(v) * 2).sum(), ms.Tensor([-1.0, 2.0]))\n"
        "print(graph.nodes.label)\ngraph",
        "graph.select(graph.graph_layout.boxes[0].id)\nprint(graph.nodes.label)",
        "ms.show_graph(lambda v: ops.sin(v).sum(), ms.Tensor([1.0]))",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    _builder().execute(nb, tmp_path)
    path = tmp_path / "pinned.ipynb"
    nbformat.write(nb, path)

    views = stored_views(path)
    assert [v.text.split(" (")[0] for v in views[:2]] == ["gradcheck FAILED", "gradcheck passed"]  # the cells' text
    assert len(views) == 4 and len({v.model_id for v in views}) == 4
    found = [m for v in views for m in mismatches(v, shown_in_state(path, v.model_id))]
    assert not found, "\n".join(found)

    saved = json.loads(path.read_text())["metadata"]["widgets"][STATE]["state"]
    failed, passed, graph, last = (v.model_id for v in views)
    assert [_model(saved, m, "mk-gc-eps")["value"] for m in (failed, passed)] == [1e-6, 1e-2]
    # only what changed is copied: both outputs share the re-run button, and an output no later cell changed
    # shows the kernel's own models (uuid4 ids; the copies' ids are uuid5)
    buttons = [m for root in (failed, passed) for m in _tree(saved, root) if "mk-gc-rerun" in
               saved[m]["state"].get("_dom_classes", [])]
    assert len(buttons) == 2 and buttons[0] == buttons[1]
    assert uuid.UUID(failed).version == 5 and uuid.UUID(passed).version == 4 and uuid.UUID(last).version == 4
    # the graph output shows the node selected when its cell ran, not the one the next cell selected
    label_then = nb.cells[3].outputs[0]["text"].strip()
    label_after = nb.cells[4].outputs[0]["text"].strip()
    assert label_then != label_after
    nodes = _model(saved, graph, "mk-graph-nodes")
    assert nodes["_options_labels"][nodes["index"]] == label_then
    # every reference in the stored state resolves, and every output's model is stored
    refs = json.dumps(saved).split('"' + REF)[1:]
    assert all(r.split('"')[0] in saved for r in refs)
    assert all(o["data"][VIEW]["model_id"] in saved for c in nb.cells for o in c.outputs if VIEW in o.get("data", {}))
