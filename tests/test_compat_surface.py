"""MindSpore 2.10's whole surface (mskernel/compat_surface.json): every name has a state, the counts add up, a
name mskernel has is never listed missing, and a refused name raises naming itself and the reason."""
import importlib
import inspect
import json
from pathlib import Path

import pytest

import mskernel
from mskernel import compat_surface as cs
from mskernel.errors import RefusedError
from mskernel.refusals import REFUSED

ROOT = Path(__file__).resolve().parents[1]


def test_the_recorded_surface_has_every_namespace_and_only_known_kinds():
    data = json.loads((ROOT / "mskernel" / "compat_surface.json").read_text())
    assert data["mindspore"] == "2.10.0"
    assert set(data["namespaces"]) >= {"mindspore", "mindspore.ops", "mindspore.nn", "mindspore.Tensor",
                                       "mindspore.mint", "mindspore.mint.nn", "mindspore.mint.nn.functional",
                                       "mindspore.mint.optim", "mindspore.mint.linalg", "mindspore.mint.special",
                                       "mindspore.dataset"}
    kinds = {k for names in data["namespaces"].values() for k, _ in names.values()}
    assert kinds <= {"function", "class", "primitive", "module", "constant", "method", "property"}
    # facts checked against the wheel when recorded: a few names and signatures anyone can look up
    surface = cs.surface()
    assert surface["mindspore.mint"]["sum"] == ("function", "(input, dim=None, keepdim=False, *, dtype=None)")
    assert surface["mindspore.ops"]["Add"][0] == "primitive"
    assert surface["mindspore.mint.nn"]["Linear"][0] == "class"
    assert surface["mindspore.Tensor"]["shape"][0] == "property"


def test_counts_add_up_per_section_and_on_the_page():
    counts = cs.counts()
    names = {key: names for key, _, names in cs.groups()}
    for key, c in counts.items():
        assert set(c) == set(cs.STATES)
        assert sum(c.values()) == len(names[key]) > 0, key
    assert len(names["mindspore.ops"]) + len(names["mindspore.ops.primitives"]) == len(cs.surface()["mindspore.ops"])
    total = sum(len(v) for v in cs.surface().values())
    assert sum(sum(c.values()) for c in counts.values()) == total
    page = "\n".join(cs.markdown_lines())
    runs, refused, missing = (sum(c[st] for c in counts.values()) for st in cs.STATES)
    assert f"| all | {total} | {runs} | {refused} | {missing} |" in page
    for key, title, _ in cs.groups():
        c = counts[key]
        assert f"| {title} | {sum(c.values())} | {c['runs']} | {c['refused']} | {c['missing']} |" in page


def _module(namespace):
    if namespace == "mindspore.Tensor":  # methods: looked up on the class
        return mskernel.Tensor
    return importlib.import_module("mskernel" + namespace[len("mindspore"):])


def test_a_name_mskernel_has_is_never_listed_missing():
    # from mskernel's side: every public name of the mirrored modules that the wheel also has
    checked = 0
    for ns, names in cs.surface().items():
        if ns == "mindspore.Tensor":
            ours = {n for n in dir(mskernel.Tensor) if not n.startswith("_")}
        else:
            try:
                mod = _module(ns)
            except ImportError:
                continue
            ours = set(getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")])
        for name in ours & set(names):
            state, note = cs.status(ns, name)
            if state == "missing":  # only where mskernel's object of that name is no function
                assert "is not callable" in note and not callable(cs.lookup(ns, name)), (ns, name)
            checked += 1
    assert checked > 900


def test_every_missing_name_is_absent_from_mskernel():
    for key, _, _ in cs.groups():
        ns = "mindspore.ops" if key == "mindspore.ops.primitives" else key
        for name, kind, state, note in cs.rows(key):
            if state != "missing" or note:
                continue
            if ns == "mindspore.Tensor":
                assert not hasattr(mskernel.Tensor, name), name
                continue
            try:
                mod = _module(ns)
            except ImportError:
                continue
            assert not hasattr(mod, name), (ns, name)
            if kind == "module":
                with pytest.raises(ImportError):
                    importlib.import_module(f"{mod.__name__}.{name}")


def test_mint_runs_and_its_point_to_point_functions_are_refused():
    from mskernel.mint import frontends

    for ns, entries in (("mindspore.mint", frontends.MINT), ("mindspore.mint.nn.functional", frontends.NN_FUNCTIONAL),
                        ("mindspore.mint.special", frontends.SPECIAL), ("mindspore.mint.linalg", frontends.LINALG)):
        for entry in entries:  # every front end is a name of the wheel's mint, and runs
            assert cs.status(ns, entry.name) == ("runs", ""), (ns, entry.name)
    counts = cs.counts()
    assert counts["mindspore.mint"]["runs"] == len(frontends.MINT) + 5  # and its five submodules
    assert counts["mindspore.mint.distributed"]["refused"] == 7  # the point-to-point functions; P2POp describes
    assert cs.status("mindspore.mint.distributed", "P2POp") == ("runs", "")
    assert cs.status("mindspore.mint", "sum") == ("runs", "")
    assert cs.status("mindspore", "mint") == ("runs", "")
    assert cs.status("mindspore.mint", "conv_tbc") == ("runs", "")
    assert cs.status("mindspore.mint", "npu_gelu")[0] == "refused"


REFUSALS = [(ns, name) for ns, names in REFUSED.items() for name in names]


@pytest.mark.parametrize("namespace, name", REFUSALS, ids=[f"{ns}.{n}" for ns, n in REFUSALS])
def test_a_refused_name_is_an_object_that_raises_naming_it_and_the_reason(namespace, name):
    assert name in cs.surface()[namespace], "a refusal of a name the wheel does not have"
    assert cs.status(namespace, name) == ("refused", REFUSED[namespace][name])
    obj = getattr(_module(namespace), name)
    assert callable(obj) and inspect.getdoc(obj).startswith("Refused")
    with pytest.raises(RefusedError) as info:
        obj("model.mindir") if name[0].islower() else obj()
    assert f"mindspore{namespace[len('mindspore'):]}.{name} cannot run in mskernel" in str(info.value)
    assert REFUSED[namespace][name] in str(info.value)
    assert isinstance(info.value, NotImplementedError)


def test_a_refusal_object_the_table_does_not_list_is_an_error(monkeypatch):
    monkeypatch.delitem(REFUSED["mindspore.ops"], "Send")
    with pytest.raises(RuntimeError, match="mskernel.refusals does not list it"):
        cs.status("mindspore.ops", "Send")
