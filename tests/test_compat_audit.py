"""MindSpore's own examples under mskernel (mskernel/compat_audit.json, written by tests/golden/audit_examples.py
--surface): the stored outcome names only real surface names in known states, every reason given for a
difference still applies, and the page lists every example that differs."""
import json
from pathlib import Path

from mskernel import compat_audit as ca
from mskernel import compat_surface as cs

ROOT = Path(__file__).resolve().parents[1]


def _surface_apis():
    out = set()
    for ns, names in cs.surface().items():
        prefix = ns[len("mindspore"):].lstrip(".")
        out |= {f"{prefix}.{n}" if prefix else n for n in names}
    return out


def test_every_audited_api_is_a_surface_name_in_a_known_state():
    data = json.loads((ROOT / "mskernel" / "compat_audit.json").read_text())
    assert set(data) <= _surface_apis()
    assert len(data) > 3000  # the whole surface was audited
    assert {st for st, _ in data.values()} <= set(ca.STATES)


def test_each_api_is_counted_under_its_own_namespace():
    counts = ca.by_namespace()
    assert sum(sum(c.values()) for c in counts.values()) == len(ca.load())
    assert ca.namespace_of("mint.nn.functional.relu") == "mindspore.mint.nn.functional"
    assert ca.namespace_of("Tensor.abs") == "mindspore.Tensor"
    assert ca.namespace_of("dataset.vision.Resize") == "mindspore.dataset.vision"


def test_every_reason_given_still_applies_to_an_example_that_differs():
    stale = [api for api in ca.REASONS if ca.state(api)[0] != "differ"]
    assert not stale, f"these examples no longer differ; drop their reasons from compat_audit.REASONS: {stale}"


def test_the_page_lists_every_differing_example_with_a_reason():
    lines = ca.markdown_lines()
    differing = [api for api, (st, _) in ca.load().items() if st == "differ"]
    listed = [ln for ln in lines if ln.startswith("| `") and not ln.startswith("| `mindspore")]
    assert len(listed) == len(differing)
    assert all(ln.rstrip(" |").split("| ")[-1].strip() for ln in listed)  # no empty reason
    agree, runnable = ca.totals()
    assert f"**{agree} of {runnable} runnable examples agree" in "\n".join(lines)


def test_a_missing_name_is_given_as_the_reason():
    missing = next((f"ops.{n}" for n in cs.surface()["mindspore.ops"]
                    if cs.status("mindspore.ops", n)[0] == "missing"), None)
    if missing is None:  # every ops name runs or is refused: nothing to check
        return
    assert ca.reason(missing) == "missing in mskernel" or missing in ca.REASONS
