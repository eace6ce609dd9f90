"""Build the tutorial notebooks from their cell sources and store them executed.

Run ``python notebooks/build_notebooks.py [name ...]`` after editing a tutorial; nbval then
compares each stored output with a fresh run (``pytest --nbval notebooks``).
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
NOTEBOOKS = ["01_quickstart", "02_custom_ops_and_bprop", "03_cpp_operators", "04_hybrid_kernels",
             "05_custom_op_magics", "06_seeing_gradients", "07_training_with_a_custom_op"]


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
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    for i, cell in enumerate(nb.cells):  # stable ids keep diffs small
        cell["id"] = f"{name[:2]}-{i:03d}"
    out = HERE / f"{name}.ipynb"
    nbformat.write(nb, out)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    for n in sys.argv[1:] or NOTEBOOKS:
        print("built", build(n))
