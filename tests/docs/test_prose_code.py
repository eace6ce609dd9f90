"""Every code block of the site's hand-written pages runs (see prose.py for what each block kind means)."""
from __future__ import annotations

import pytest

from prose import DOCS, RUN, SHOWN, blocks, pages, run_page


def test_there_are_pages_with_code():
    ran = [p for p in pages() if any(lang in RUN for lang, _ in blocks(p))]
    assert {p.stem for p in ran} >= {"port_custom_op", "backward", "wrong_gradient", "custom_op_magic", "ascend"}


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_code_runs(page):
    langs = [lang for lang, _ in blocks(page)]
    unknown = [lang for lang in langs if lang not in RUN + SHOWN]
    assert not unknown, f"{page}: code blocks in {unknown}: mark them pycon/python/ipython (run) or text/bash/cpp"
    todo, reports, output = run_page(page)
    assert len(reports) == len(todo), output
    failures = [(code.splitlines()[0], rep) for (_, code), rep in zip(todo, reports) if rep]
    assert not failures, "\n".join(f"--- {first}\n{rep}" for first, rep in failures)


def test_a_wrong_output_or_a_failing_cell_is_reported(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("```pycon\n>>> x = 2\n>>> print(x * 2)\n5\n```\n\n```python\nprint(x)\n```\n\n"
                    "```ipython\nundefined_name\n```\n")
    todo, reports, _ = run_page(page)
    assert [lang for lang, _ in todo] == ["pycon", "python", "ipython"]
    assert "Expected:\n    5\nGot:\n    4" in reports[0]
    assert reports[1] is None  # the doctest's names are seen by the next cells
    assert reports[2].startswith("NameError")
