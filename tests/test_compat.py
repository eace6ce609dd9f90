"""The compatibility table is generated from mskernel itself and kept current in docs/compatibility.md."""
from pathlib import Path

import pytest

import mskernel as ms
from mskernel import compat

ROOT = Path(__file__).resolve().parents[1]


def test_docs_page_is_current():
    page = (ROOT / "docs" / "compatibility.md").read_text()
    assert page == compat.markdown(), "docs/compatibility.md is stale: run python -m mskernel compat --write"


def test_every_status_is_looked_up():
    seen = {st for _, _, st, _ in compat.rows()}
    assert seen <= {"runs", "runs on the CPU", "refused", "not in MindSpore 2.10", "missing"}
    assert compat.status("ops", "atan2") == ("runs", "")
    assert compat.status("ops", "no_such_op_anywhere") == ("missing", "")


@pytest.mark.parametrize("group, name", [("top", "export"), ("top", "load")])
def test_refused_names_exist_and_refuse(group, name):
    # a refused name is provided so that using it says why (issue [12]: load/export refused clearly)
    fn = getattr(ms, name)
    with pytest.raises(Exception, match="graph"):
        fn("model.mindir")


def test_every_op_table_entry_is_listed():
    from mskernel.ops.registry import OPS
    page = compat.markdown()
    for op in OPS:
        if op.name.startswith("_"):  # an entry that only backs a primitive class is listed by that class
            prims = op.prim_spec if isinstance(op.prim_spec, tuple) else (op.prim_spec,) if op.prim_spec else ()
            assert all(f"| (primitive only) | {spec.split('(')[0]}" in page for spec in prims), op.name
        else:
            assert f"| {op.name}" in page


def test_names_the_wheel_lacks_are_marked_and_parameter_names_found_on_parameter():
    assert compat.status("tensor", "detach")[0] == "not in MindSpore 2.10"
    state, note = compat.status("tensor", "set_data")
    assert state == "runs" and "Parameter" in note
    assert hasattr(ms.Parameter(ms.Tensor([1.0]), name="w"), "set_data")
