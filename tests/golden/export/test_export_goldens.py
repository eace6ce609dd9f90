"""Ops exported by ``mskernel.export_mindspore`` agree with real MindSpore 2.10 running the exported files.

``record_export.py`` exported every case of ``export_cases.py`` and ran the files in the wheel: the
hybrid ``forward``/``backward`` through MindSpore's own ``@kernel`` emulator, and the whole ``op`` (its
bprop included) through MindSpore's autograd; pyfunc and C++ ops likewise (the C++ one compiled by
MindSpore's CustomOpBuilder). Here each case is exported again -- the text must be the one recorded,
importing only mindspore and numpy -- and mskernel's forward values and gradients must equal what
MindSpore computed. The wheel is never needed.
"""
from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(HERE)]

import mskernel as ms  # noqa: E402
from export_cases import CASES  # noqa: E402
from mskernel.mindspore_export import export_mindspore  # noqa: E402
from mskernel.mindspore_export.refusals import CPU_UNAVAILABLE, MS_INTRINSICS  # noqa: E402
from record_export import decode  # noqa: E402

RECORDED = json.loads((HERE / "export.json").read_text())


def _imports(text: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add((node.module or "").split(".")[0])
    return out


def _behaviour(text: str) -> str:
    """The text without the provenance lines that change with mskernel's version (not with what runs)."""
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith(("mskernel version:", "Source hash:")))


def _close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype, f"{what}: {got.shape} {got.dtype} vs {want.shape} " \
                                                               f"{want.dtype}"
    tol = {"rtol": 1e-4, "atol": 1e-5} if want.dtype in (np.float32, np.float16) else {"rtol": 1e-6, "atol": 1e-6}
    np.testing.assert_allclose(got, want, err_msg=what, **tol)


def _mskernel_values(case) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """mskernel's outputs and the gradients of sum(out * dout) with respect to the float inputs."""
    fresh = lambda: [ms.Tensor(a.copy()) for a in case.inputs]  # noqa: E731  (in-place kernels write their inputs)
    outs = case.op(*fresh(), *case.attrs)
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    floats = tuple(k for k, a in enumerate(case.inputs) if a.dtype.kind == "f")
    if not floats:
        return [o.asnumpy() for o in outs], []

    def loss(*ts):
        out = case.op(*ts, *case.attrs)
        out = out if isinstance(out, tuple) else (out,)
        total = None
        for o, d in zip(out, case.douts):
            term = (o * ms.Tensor(d)).sum()
            total = term if total is None else total + term
        return total

    grads = ms.grad(loss, grad_position=floats)(*fresh())
    grads = grads if isinstance(grads, tuple) else (grads,)
    return [o.asnumpy() for o in outs], [g.asnumpy() for g in grads]


def test_the_recording_covers_every_kind_and_random_kernels():
    kinds = {c["kind"] for c in RECORDED["cases"].values()}
    assert kinds == {"hybrid", "pyfunc", "cpp"}
    assert sum(name.startswith("random_") for name in RECORDED["cases"]) >= 10
    assert set(RECORDED["cases"]) == set(CASES), "export_cases.py changed: run record_export.py again"


def test_the_refusal_tables_are_the_wheels():
    assert sorted(MS_INTRINSICS) == RECORDED["intrinsics"]
    assert sorted(CPU_UNAVAILABLE) == RECORDED["cpu_unavailable"]


@pytest.mark.parametrize("name", sorted(RECORDED["cases"]))
def test_exported_op_agrees_with_mindspore(name, tmp_path):
    rec = RECORDED["cases"][name]
    assert rec["import"] == "ok", f"the exported file did not import under MindSpore:\n{rec['import']}"
    for key in ("emulator_error", "op_error"):
        assert key not in rec, f"MindSpore failed running the export:\n{rec[key]}"
    case = CASES[name]()
    path = export_mindspore(case.op, tmp_path / ("op" if case.kind == "cpp" else f"{name}.py"),
                            example=(*case.inputs, *case.attrs))
    text = path.read_text() if path.is_file() else next(path.glob("*.py")).read_text()
    assert _behaviour(text) == _behaviour(rec["text"]), "the export changed since it was recorded: run " \
                                                        "record_export.py again"
    assert _imports(text) <= ({"os", "mindspore"} if case.kind == "cpp" else {"mindspore", "numpy"})
    for got, want in zip(case.inputs, rec["inputs"]):
        np.testing.assert_array_equal(got, decode(want))
    outs, grads = _mskernel_values(case)
    checks = [("op_forward", outs)] + ([("op_grads", grads)] if grads else [])
    if case.kind == "hybrid":
        has_backward = "\nbackward = None\n" not in text  # a Python bprop or an integer kernel has no backward kernel
        checks += [("emulator_forward", outs)] + ([("emulator_backward", grads)] if has_backward else [])
    for key, mine in checks:
        theirs = [decode(x) for x in rec[key]]
        assert len(mine) == len(theirs), f"{key}: {len(mine)} arrays vs MindSpore's {len(theirs)}"
        for k, (got, want) in enumerate(zip(mine, theirs)):
            _close(got, want, f"{name} {key}[{k}]")
