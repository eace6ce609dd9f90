"""Build the tutorial notebooks from their cell sources and store them executed.

Run ``python notebooks/build_notebooks.py [name ...]`` after editing a tutorial; nbval then
compares each stored output with a fresh run (``pytest --nbval notebooks``).

Widget views are stored as their cell left them. nbclient saves one state per widget model, the
one it had when the notebook finished, and a view that a later cell changed (a re-run gradient
check, a moved slider, a selected graph node) would show that later state in every output that
displays it: the docs site draws widgets from this saved state. So :func:`execute` keeps a copy of
the widget state after each cell that displays a widget, and :func:`pin_widget_views` gives such an
output its own copies of the models that changed after its cell (new model ids, derived from the
model's and the cell's); models that did not change stay shared. Live kernels are not affected: a
running notebook creates its widgets anew.
"""
from __future__ import annotations

import copy
import importlib
import sys
import uuid
from pathlib import Path
from typing import Any, Dict, Tuple

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
NOTEBOOKS = ["01_quickstart", "02_custom_ops_and_bprop", "03_cpp_operators", "04_hybrid_kernels",
             "05_custom_op_magics", "06_seeing_gradients", "07_training_with_a_custom_op"]
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
_REF = "IPY_MODEL_"
_PINNED = uuid.UUID("5d1f0c52-8a3b-4d0e-9a51-3f0e6c2b7a10")  # namespace of the ids of pinned copies

#: cell index -> (model id -> state, model id -> {buffer path -> buffer}) as that cell left them
CellStates = Dict[int, Tuple[Dict[str, Any], Dict[str, Any]]]


def _views(cell: Any) -> list:
    return [o["data"][VIEW] for o in cell.get("outputs", []) if VIEW in o.get("data", {})]


def execute(nb: Any, path: Path = HERE, timeout: int = 600) -> CellStates:
    """Run ``nb`` in place with nbclient (in the directory ``path``), its widget state saved in its metadata
    and pinned per output (:func:`pin_widget_views`); returns the per-cell states it pinned from.

    Example (the slider's first output keeps value 1, the second shows 2)::

        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (
            "import ipywidgets as W; s = W.IntSlider(1); s", "s.value = 2; s")])
        execute(nb)
    """
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path)}})
    states: CellStates = {}

    def after_cell(cell: Any, cell_index: int, execute_reply: Any) -> None:
        if _views(cell):
            states[cell_index] = (copy.deepcopy(client.widget_state), copy.deepcopy(client.widget_buffers))

    client.on_cell_executed = after_cell
    client.execute()
    pin_widget_views(nb, states)
    return states


def pin_widget_views(nb: Any, states: CellStates) -> int:
    """Point each widget view output of a cell in ``states`` at the models as that cell left them: a model
    whose saved (final) state differs, or that holds such a model, is stored again under a new id for it.
    Returns how many models were stored again.

    Example (``nb`` and ``states`` as :func:`execute` makes them; it calls this)::

        copies = pin_widget_views(nb, states)
    """
    if not states:
        return 0
    saved = nb.metadata.setdefault("widgets", {}).setdefault(STATE, {"state": {}, "version_major": 2,
                                                                      "version_minor": 0})["state"]
    added = 0
    for index, (state, buffers) in sorted(states.items()):
        pinned: Dict[str, str] = {}

        def pin(model_id: str) -> str:
            nonlocal added
            raw = state.get(model_id)
            if model_id in pinned or raw is None or "_model_name" not in raw:
                return pinned.get(model_id, model_id)
            pinned[model_id] = model_id  # (a model that refers to itself keeps its id)
            entry: Dict[str, Any] = {"model_name": raw["_model_name"], "model_module": raw.get("_model_module"),
                                     "model_module_version": raw.get("_model_module_version"),
                                     "state": _refs(raw, pin)}
            if buffers.get(model_id):
                entry["buffers"] = list(buffers[model_id].values())
            if saved.get(model_id) != entry:
                pinned[model_id] = uuid.uuid5(_PINNED, f"{model_id} {index}").hex
                saved[pinned[model_id]] = entry
                added += 1
            return pinned[model_id]

        for view in _views(nb.cells[index]):
            view["model_id"] = pin(view["model_id"])
    return added


def _refs(value: Any, pin: Any) -> Any:
    """``value`` with each ``IPY_MODEL_<id>`` reference in it replaced by ``IPY_MODEL_<pin(id)>``."""
    if isinstance(value, str) and value.startswith(_REF):
        return _REF + pin(value[len(_REF):])
    if isinstance(value, dict):
        return {k: _refs(v, pin) for k, v in value.items()}
    if isinstance(value, list):
        return [_refs(v, pin) for v in value]
    return value


def build(name: str) -> Path:
    cells = importlib.import_module(f"sources.{name}").CELLS
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, text in cells:
        text = text.strip("\n")
        raises = "\n# NBVAL_RAISES_EXCEPTION\n" in f"\n{text}\n"  # a cell magic must stay line 1: use the tag
        if raises:
            text = "\n".join(ln for ln in text.splitlines() if ln != "# NBVAL_RAISES_EXCEPTION")
        cell = nbformat.v4.new_markdown_cell(text) if kind == "md" else nbformat.v4.new_code_cell(text)
        if raises:  # nbclient and nbval both honour the "raises-exception" tag
            cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)
    execute(nb, HERE)
    for i, cell in enumerate(nb.cells):  # stable ids keep diffs small
        cell["id"] = f"{name[:2]}-{i:03d}"
    out = HERE / f"{name}.ipynb"
    nbformat.write(nb, out)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    for n in sys.argv[1:] or NOTEBOOKS:
        print("built", build(n))
