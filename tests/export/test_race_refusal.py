"""The export refuses a hybrid kernel whose parallel loop races (mskernel runs it serially, MindSpore in parallel
on the device), naming the loop and the line of the write; ``allow_races=True`` exports it anyway."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import CellOptions, run_cell
from mskernel.hybrid import PortabilityWarning
from mskernel.mindspore_export import ExportError, export_mindspore

RACY = """def total(x):
    y = output_tensor((1,), x.dtype)
    y[0] = 0.0
    for i in parallel(x.shape[0]):
        y[0] = y[0] + x[i]
    return y
"""
CLEAN = """def scale(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[i] = x[i] * 2.0
    return y
"""


def cell_op(name: str, code: str, **options):
    ns: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PortabilityWarning)
        run_cell(name, code, CellOptions(**options), ns, first_line=2)
    return ns[name]


def test_a_racing_forward_is_refused_at_the_write_naming_the_loop(tmp_path):
    op = cell_op("total", RACY)
    x = np.ones(4, np.float32)
    with pytest.raises(ExportError) as err:
        export_mindspore(op, tmp_path, example=(x,))
    e = err.value
    assert e.construct == "the parallel loop over i (line 5)"  # the cell's line 5: the kernel starts at line 2
    assert (e.location.line, e.location.source_line.strip()) == (6, "y[0] = y[0] + x[i]")
    assert "one writes y[0] (line 6), another reads y[0] (line 6) (in the forward kernel)" in str(e)
    assert "mskernel runs the loop serially, but MindSpore runs it in parallel on the device" in str(e)
    assert "reduce loop" in e.change and "pass allow_races=True" in e.change
    assert not (tmp_path / "total.py").exists()


def test_allow_races_exports_it_anyway(tmp_path):
    op = cell_op("total", RACY)
    path = export_mindspore(op, tmp_path, example=(np.ones(4, np.float32),), allow_races=True)
    assert "for i in parallel(x.shape[0]):" in path.read_text()
    path = ms.export_mindspore(op, tmp_path / "top.py", example=(np.ones(4, np.float32),), allow_races=True)
    assert path.name == "top.py" and path.exists()


def test_a_racing_bprop_kernel_is_refused_too(tmp_path):
    code = CLEAN + "\ndef scale_grad(x, dout):\n    dx = output_tensor(x.shape, x.dtype)\n    dx[0] = 0.0\n" \
        "    for i in parallel(x.shape[0]):\n        dx[0] = dx[0] + dout[i]\n    return dx\n"
    op = cell_op("scale", code, bprop="scale_grad")
    with pytest.raises(ExportError, match=r"touch dx at once.*\(in the bprop kernel\)") as err:
        export_mindspore(op, tmp_path, example=(np.ones(3),))
    assert (err.value.location.line, err.value.location.source_line.strip()) == (12, "dx[0] = dx[0] + dout[i]")
    export_mindspore(op, tmp_path, example=(np.ones(3),), allow_races=True)


def test_a_clean_parallel_kernel_exports(tmp_path):
    op = cell_op("scale", CLEAN)
    assert op.hybrid_kernel.portability == []
    assert "forward = scale" in export_mindspore(op, tmp_path, example=(np.ones(3, np.float32),)).read_text()
