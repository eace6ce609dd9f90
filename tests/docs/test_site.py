"""The built site: no warnings, every public name in the API reference, the generated pages complete, the
tutorials rendered with their outputs and widgets, and no broken internal link."""
from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from mskernel import compat
from mskernel_docs import api, errors_page, performance

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_with_warnings_as_errors(site):
    assert site.returncode == 0, site.log[-6000:]
    assert "-W" in site.log and "-n" in site.log  # the command that ran: warnings are errors, references checked
    assert "WARNING" not in site.log and "ERROR" not in site.log, site.log[-6000:]
    assert (site.html / "index.html").exists()


def _inventory(site) -> dict:
    from sphinx.util.inventory import InventoryFile

    with open(site.html / "objects.inv", "rb") as f:
        inv = InventoryFile.load(f, "", lambda a, b: b)
    names = {}
    for kind, entries in inv.data.items() if hasattr(inv, "data") else inv.items():
        if kind.startswith("py:"):
            for name, item in entries.items():
                names[name] = item
    return names


def test_every_public_name_has_an_api_entry(site):
    names = _inventory(site)
    public = api.public_names()
    assert len(public) > 1000  # mskernel's top level, ops (functional and primitives), nn, train, ...
    missing = [p for p in public if p not in names]
    assert not missing, f"{len(missing)} public names without an entry: {missing[:20]}"
    for name in ("mskernel.Tensor", "mskernel.ops.softplus", "mskernel.ops.Custom", "mskernel.ops.kernel",
                 "mskernel.nn.Dense", "mskernel.hybrid.HybridKernel", "mskernel.toolchain.CustomOpBuilder",
                 "mskernel.cells.run_cell", "magics.load_ipython_extension"):
        assert name in names, name


def test_api_entries_show_signatures_and_their_examples(site):
    page = (site.html / "reference" / "api" / "autograd.html").read_text()
    entry = page[page.index('id="mskernel.autograd.grad"'):]
    entry = entry[:entry.index("</dl>")]
    text = html.unescape(re.sub(r"<[^>]+>", "", entry))
    assert "grad_position" in text and "Callable" in text  # the signature, with its type hints
    assert ">>> " in text  # the docstring's example, which tests/test_doctests.py runs
    top = (site.html / "reference" / "api" / "index.html").read_text()
    assert 'href="tensors.html#mskernel.common.Tensor"' in top  # mskernel.Tensor points at its layer's entry


def test_a_class_entry_documents_the_parts_it_is_built_from(site):
    # nn.Cell is composed of bases that are not public names (its state, tree, modes and hooks): its entry lists
    # their methods, and the classes their signatures name get entries; a public base keeps its members to itself
    page = (site.html / "reference" / "api" / "nn.html").read_text()
    for method in ("insert_param_to_cell", "parameters_and_names", "set_train", "register_forward_hook", "construct"):
        assert f'id="mskernel.nn.Cell.{method}"' in page, method
    assert 'id="mskernel.nn.cell_hooks.HookHandle"' in page  # register_forward_hook's return type
    assert 'id="mskernel.nn.Dense.set_train"' not in page  # documented once, on Cell
    assert 'id="mskernel.nn.SequentialCell.set_grad"' in page  # from its private base _CellSequence


def test_the_compatibility_page_is_generated_from_the_table(site):
    text = html.unescape(re.sub(r"<[^>]+>", " ", (site.html / "reference" / "compatibility.html").read_text()))
    rows = compat.rows()
    for group, name, status, _ in rows:
        assert name in text, (group, name)
    assert re.search(r"softplus\s+runs", text) and re.search(r"export\s+refused", text)
    assert f"(of {len(rows)} names)" in text


def test_the_error_reference_lists_every_error_class_with_an_example(site):
    page = (site.html / "reference" / "errors.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    classes = errors_page.error_classes()
    names = {c.__name__ for c in classes}
    assert {"MskernelError", "UserCodeError", "HybridError", "BuildError", "CellError", "GradcheckError",
            "UnsupportedFuncTypeError"} <= names
    for cls in classes:
        assert f'id="{cls.__name__.lower()}"' in page, cls
        assert f"{cls.__module__}.{cls.__qualname__}" in text
    # an example message, from the class's docstring example
    assert "kernel.py:3:5" in text or "x is undefined" in text


def test_the_tutorials_are_rendered_with_their_stored_outputs_and_widgets(site):
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for nb in notebooks:
        assert (site.html / "tutorials" / f"{nb.stem}.html").exists(), nb
    page = (site.html / "tutorials" / "06_seeing_gradients.html").read_text()
    assert 'type="application/vnd.jupyter.widget-state+json"' in page  # the saved state
    assert page.count('type="application/vnd.jupyter.widget-view+json"') >= 4  # the views
    assert "jupyter-widgets/embed.js" in page and (site.html / "_static" / "jupyter-widgets" / "embed.js").exists()
    quick = html.unescape((site.html / "tutorials" / "01_quickstart.html").read_text())
    assert "4.0" in quick and "Tensor(shape=" in quick  # stored outputs, not re-executed


def test_the_performance_page_shows_ratio_tables_and_folds_each_raw_printout(site):
    page = (site.html / "performance.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for script in (ROOT / "benchmarks").glob("*.py"):
        if script.name not in performance.TOOLS:
            assert script.stem in text, script
    folded = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).split())
              for f in re.findall(r"<details>(.*?)</details>", page, flags=re.S)]
    results = sorted((ROOT / "benchmarks" / "results").glob("*.txt"))
    assert len(folded) == len(results)  # one raw printout per result, each in a collapsed block
    for result in results:
        first_row = next(ln for ln in result.read_text().splitlines() if ln.strip() and not ln.startswith("#"))
        assert any(" ".join(first_row.split()) in f for f in folded), result
        if result.stem not in performance.ABSOLUTE:
            assert (site.html / "_images" / f"{result.stem}.svg").exists(), result
    assert page.count("<table") > len(results)  # the machine table, and a table (at least) per result
    assert "python benchmarks/record.py" in " ".join(text.split())


def test_the_benchmark_recorder_knows_every_benchmark():
    import importlib.util

    spec = importlib.util.spec_from_file_location("record", ROOT / "benchmarks" / "record.py")
    record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record)
    scripts = {p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.name not in performance.TOOLS}
    assert set(record.ARGS) == scripts


def _links(page: Path):
    for m in re.finditer(r'(?:href|src)="([^"]+)"', page.read_text()):
        url = html.unescape(m.group(1))
        parts = urlsplit(url)
        if parts.scheme or url.startswith(("//", "mailto:", "data:")):
            continue
        yield url, parts


def test_no_broken_internal_link(site):
    ids: dict = {}
    broken = []
    for page in site.html.rglob("*.html"):
        for url, parts in _links(page):
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append((page.relative_to(site.html).as_posix(), url))
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(re.findall(r'id="([^"]+)"', target.read_text()))
                if unquote(parts.fragment) not in ids[target]:
                    broken.append((page.relative_to(site.html).as_posix(), url))
    assert not broken, f"{len(broken)} broken links, e.g. {broken[:15]}"


def test_the_link_checker_sees_a_broken_link(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#x">b</a><a href="missing.html">m</a><a href="https://e.x/">e</a>')
    (tmp_path / "b.html").write_text('<p id="y"></p>')
    found = [url for url, _ in _links(tmp_path / "a.html")]
    assert found == ["b.html#x", "missing.html"]


@pytest.mark.parametrize("path", ["compatibility.md"])
def test_the_repository_copy_of_the_table_is_not_a_site_page(path, site):
    # docs/compatibility.md (python -m mskernel compat --write) stays for readers of the repository; the site
    # generates its own page, so the two never disagree
    assert not (site.html / path.replace(".md", ".html")).exists()
