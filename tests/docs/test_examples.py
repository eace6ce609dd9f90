"""Every public name of the API reference has an example, the test suite runs it, and the built page shows it.

An entry's example is its docstring's (or, for a name re-exported from another package such as numpy's
``int8`` in ``mskernel.hybrid``, the one kept in ``__test__`` beside it). The doctest runs of the suite are
the files in ``DOCTEST_FILES``; an example none of them finds is never checked, so it counts as missing.
"""
from __future__ import annotations

import doctest
import html
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

from mskernel_docs import api, errors_page

TESTS = Path(__file__).resolve().parents[1]

#: the test files that run docstring examples, and how to read the modules each one runs
DOCTEST_FILES = {
    "test_doctests.py": lambda m: m.MODULES,
    "hybrid/test_doctests.py": lambda m: ["mskernel.hybrid" if n == "__init__" else f"mskernel.hybrid.{n}"
                                          for n in m.MODULES],
    "toolchain/test_build_doctests.py": lambda m: m.MODULES,
    "cpp/test_cpp_bridge.py": lambda m: [mod.__name__ for mod in m.MODULES],
    "magics/test_magics_doctests.py": lambda m: m.MODULES,
}


def doctested_modules() -> list:
    names = []
    for rel, read in DOCTEST_FILES.items():
        spec = importlib.util.spec_from_file_location(f"_suite_{rel.replace('/', '_')[:-3]}", TESTS / rel)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        names += read(module)
    return sorted(set(names))


def examples_run() -> set:
    """The docstrings (cleaned) whose examples the suite's doctest runs find."""
    found = set()
    finder = doctest.DocTestFinder()
    for name in doctested_modules():
        for test in finder.find(importlib.import_module(name), name):
            if test.examples and test.docstring:
                found.add(inspect.cleandoc(test.docstring))
    return found


def test_every_public_name_in_the_reference_has_an_example():
    missing = api.without_example()
    assert not missing, f"{len(missing)} public names whose reference entry has no example: {missing}"


def test_the_suite_runs_every_example_of_the_reference():
    run = examples_run()
    entries = [(path, obj) for path, obj in api.full_entries() if api.needs_example(obj)]
    assert len(entries) > 800  # ops, primitives, nn, numpy, ...
    not_run = [path for path, obj in entries if inspect.cleandoc(api.example_of(path, obj)) not in run]
    assert not not_run, f"{len(not_run)} examples no doctest run of the suite finds: {not_run[:30]}"
    skipped = [path for path, obj in entries if "+SKIP" in api.example_of(path, obj)]
    assert not skipped, f"examples the run skips (so nothing checks them): {skipped}"


def test_every_error_class_has_an_example_the_suite_runs():
    # the error reference shows each class with an example message (errors not exported by a package included)
    run = examples_run()
    classes = errors_page.error_classes()
    assert len(classes) > 12
    missing = [c.__qualname__ for c in classes if inspect.cleandoc(inspect.getdoc(c) or "") not in run
               or ">>>" not in (inspect.getdoc(c) or "")]
    assert not missing, f"error classes without an example the suite runs: {missing}"


def test_the_check_sees_an_entry_without_an_example_and_one_no_run_finds():
    def documented(x):
        """A function with a docstring but no example."""
    assert api.needs_example(documented) and ">>>" not in api.example_of("mskernel.documented", documented)
    assert inspect.cleandoc(documented.__doc__) not in examples_run()
    assert not api.needs_example(3) and not api.needs_example(api)  # constants and modules need none


def _entry_text(page: str, path: str) -> str:
    """The text of one entry: from its anchor to the next anchor of another object that is not one of its
    members (an ``Attributes:`` section gives members anchors before the example), tags removed."""
    anchor = re.compile(r' id="((?:mskernel|magics)\.[^"]*)"')
    start = page.index(f'id="{path}"')
    nxt = anchor.search(page, start + len(path) + 5)
    while nxt and nxt.group(1).startswith(path + "."):
        nxt = anchor.search(page, nxt.end())
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page[start:nxt.start() if nxt else len(page)])).split())


def _last_example_line(text: str) -> str:
    """The last example's first line as the page shows it (Sphinx leaves out ``# doctest:`` flags)."""
    line = doctest.DocTestParser().get_examples(text)[-1].source.splitlines()[0]
    return " ".join((">>> " + re.sub(r"#\s*doctest:.*", "", line)).split())


def test_every_entry_of_the_built_reference_shows_its_example(site):
    assert site.returncode == 0, site.log[-3000:]
    pages = {p.stem: p.read_text() for p in (site.html / "reference" / "api").glob("*.html")}
    not_shown = []
    for path, obj in api.full_entries():
        if not api.needs_example(obj):
            continue
        page = next((text for text in pages.values() if f'id="{path}"' in text), None)
        assert page is not None, f"{path}: no entry in the built reference"
        if _last_example_line(api.example_of(path, obj)) not in _entry_text(page, path):
            not_shown.append(path)
    assert not not_shown, f"{len(not_shown)} entries of the built reference show no example: {not_shown[:30]}"
    entry = _entry_text(pages["hybrid"], "mskernel.hybrid.int32")
    assert "numpy.int32" in entry and "y[i] = int32(x[i] * 2.0)" in entry  # a re-exported name's example
