"""mskernel gives what MindSpore 2.10 gave for every recorded golden case (values, structure, error type).

The answers were recorded from the real wheel by ``record.py``; see ``harness.py`` for what a case is.
A case's source runs with ``mindspore`` replaced by ``mskernel`` in it, as a user would swap imports.
Per-suite options (``OPTIONS = {case: {...}}`` in the case file):

* ``rtol``/``atol``: the tolerance for values.
* ``message=True``: an error's text must equal the wheel's (without the C++ call stack it appends).
* ``message_parts=[...]`` with ``why="..."``: for an error whose wheel text carries what a user cannot rely on
  (pybind11 or C++ internals, addresses, file paths, internal ids, a set's random order), each part must
  appear in the wheel's text and in mskernel's; ``why`` says what was left out.
* ``stdout=True``: what was printed must be the same (``"approx"``: numbers within ``rtol``).
* ``VIA = {case: source}`` in the case file (not an option): the CPU wheel cannot run the case's program (no
  CPU kernel); its answer was recorded from this equivalent program, which the wheel runs, and the wheel's own
  error is kept beside it. The case needs ``why``; the test fails when the wheel's own run did not raise (the
  equivalent is then not needed) or when the equivalent was edited after recording.
* ``differs="reason"`` with ``oracle="numpy source"``: a known disagreement. mskernel must give what it
  documents, which the oracle computes with numpy alone (``harness.run_oracle``), and the wheel must not
  (fixing the difference means removing the entry). For generated programs whose oracle is a test of its
  own, ``held_by="tests/..."`` names it instead (the random DAGs: float64 central differences on numpy); the
  case then checks that mskernel runs it and still differs from the wheel.

Every error case checks its text one of the two ways; a case that checks only the exception class fails.
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from harness import Mismatch, compare, run, run_oracle  # noqa: E402

import mskernel  # noqa: E402


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"golden_cases_{name}", HERE / "cases" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


AGGREGATE = {"random_programs", "random_table", "random_table_more", "random_table_wave3"}  # checked as a whole
# by test_random_programs.py, test_random_table.py, test_random_table_more.py, test_random_table_wave3.py


def _params():
    out = []
    for js in sorted(HERE.glob("*.json")):
        if js.stem in AGGREGATE:
            continue
        recorded = json.loads(js.read_text())["cases"]  # every json here is a suite's answers
        src_file = HERE / "cases" / f"{js.stem}.py"
        mod = _load(js.stem) if src_file.exists() else None
        options = getattr(mod, "OPTIONS", {}) if mod else {}
        current = getattr(mod, "CASES", {}) if mod else {}
        via = getattr(mod, "VIA", {}) if mod else {}
        for case, rec in recorded.items():
            opts = dict(options.get(case, {}))
            if case in via:
                opts["_via"] = via[case]
            out.append(pytest.param(js.stem, case, rec, opts, current.get(case), id=f"{js.stem}::{case}"))
    return out


def swap_imports(src: str) -> str:
    """The user's edit: ``mindspore`` becomes ``mskernel``."""
    return re.sub(r"\bmindspore\b", "mskernel", src)


def _user_text(message: str) -> str:
    """An error's text without the C++ call stack MindSpore appends (after a line of dashes)."""
    return message.split("\n\n----")[0].strip()


def _check_error_text(want: dict, got: dict, opts: dict) -> None:
    ours, theirs = _user_text(got["message"]), _user_text(want["message"])
    if opts.get("message"):
        if ours != theirs:
            raise Mismatch(f"error text differs:\n  MindSpore: {want['message']}\n  mskernel:  {got['message']}")
        return
    parts = opts.get("message_parts")
    if not parts or not opts.get("why"):
        raise Mismatch("an error case must check its text: give message=True, or message_parts=[...] with why="
                       "'what in the wheel's text a user cannot rely on'")
    stale = [p for p in parts if p not in want["message"]]
    if stale:
        raise Mismatch(f"message_parts not in the wheel's recorded text: {stale}\n  MindSpore: {want['message']}")
    missing = [p for p in parts if p not in got["message"]]
    if missing:
        raise Mismatch(f"error text lacks {missing}:\n  MindSpore: {want['message']}\n  mskernel:  {got['message']}")


def check(rec: dict, opts: dict) -> None:
    want = rec["expect"]
    got = run(swap_imports(rec["src"]), mskernel)
    if "error" in want:
        if "error" not in got:
            raise Mismatch(f"MindSpore raised {want['error']}: {want['message'][:300]}\nmskernel returned "
                           f"{str(got.get('result'))[:300]}")
        if got["error"] != want["error"]:
            raise Mismatch(f"MindSpore raised {want['error']} ({want['message'][:200]}), mskernel raised "
                           f"{got['error']}: {got['message'][:300]}")
        _check_error_text(want, got, opts)
        return
    if "error" in got:
        raise Mismatch(f"mskernel raised {got['error']}: {got['message'][:600]}")
    compare(want["result"], got["result"], rtol=opts.get("rtol", 1e-5), atol=opts.get("atol", 1e-6))
    if opts.get("stdout") and not _same_text(want["stdout"], got["stdout"], opts):
        raise Mismatch(f"printed text differs:\n--- MindSpore\n{want['stdout']}--- mskernel\n{got['stdout']}")


def check_documented(rec: dict, opts: dict) -> None:
    """A known difference: mskernel gives the value its oracle computes with numpy, and the wheel does not."""
    if opts.get("held_by"):  # the oracle is a test of its own: here, mskernel runs it and still differs
        assert (ROOT / opts["held_by"]).is_file(), f"held_by names {opts['held_by']}, which does not exist"
        try:
            check(rec, opts)
        except Mismatch as e:
            if str(e).startswith("mskernel raised"):
                raise
        else:
            raise AssertionError("mskernel now agrees with the wheel here: this is not a difference, remove 'differs'")
        return
    assert opts.get("oracle"), "a differs entry needs an oracle: numpy source computing mskernel's documented value"
    documented = run_oracle(opts["oracle"])
    wheel = rec["expect"]
    if "error" not in wheel:
        try:
            compare(wheel["result"], documented, rtol=opts.get("rtol", 1e-5), atol=opts.get("atol", 1e-6))
        except Mismatch:
            pass
        else:
            raise AssertionError("the oracle gives the wheel's own answer: this is not a difference, remove 'differs'")
    got = run(swap_imports(rec["src"]), mskernel)
    if "error" in got:
        raise Mismatch(f"mskernel raised {got['error']}: {got['message'][:600]}")
    compare(documented, got["result"], rtol=opts.get("rtol", 1e-5), atol=opts.get("atol", 1e-6))


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _same_text(want: str, got: str, opts: dict) -> bool:
    """Exact, or with ``stdout="approx"`` the same text around numbers that agree to ``rtol`` (float32 sums
    printed to 17 digits differ in the last places)."""
    if opts.get("stdout") != "approx":
        return want == got
    if _NUMBER.sub("#", want) != _NUMBER.sub("#", got):
        return False
    a = [float(v) for v in _NUMBER.findall(want)]
    b = [float(v) for v in _NUMBER.findall(got)]
    rtol = opts.get("rtol", 1e-5)
    return all(abs(x - y) <= rtol * max(abs(x), abs(y)) + 1e-7 for x, y in zip(a, b))


@pytest.mark.parametrize("suite, case, rec, opts, current", _params())
def test_golden(suite, case, rec, opts, current):
    assert current == rec["src"], (f"case {suite}::{case} was edited (or removed) after it was recorded: run "
                                   f"python tests/golden/record.py {suite}")
    assert opts.get("_via") == rec.get("via"), (f"the equivalent program of {suite}::{case} was edited, added or "
                                                f"removed after recording: run python tests/golden/record.py {suite}")
    if "via" in rec:
        assert opts.get("why"), f"{suite}::{case} is answered by an equivalent program: say why in its options"
        assert "error" in rec["wheel_own"], (f"the wheel ran {suite}::{case} itself (it gave "
                                             f"{str(rec['wheel_own'])[:200]}): drop its VIA entry and record again")
    if "differs" in opts:
        check_documented(rec, opts)
        return
    check(rec, opts)
