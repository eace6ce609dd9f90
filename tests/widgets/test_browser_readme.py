"""The README's examples run as written in a fresh notebook in JupyterLab (real chromium): every cell runs
without an error and the graph view of the README's show_graph example renders as a widget.

(tests/test_readme.py runs the same blocks in an IPython shell, fast and without a browser.)
"""
from __future__ import annotations

import json
import os
import signal
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_browser  # noqa: E402  (the JupyterLab server and process helpers)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_readme import readme_blocks  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.tools(*test_browser.NEEDS)]


def test_readme_examples_run_in_a_fresh_notebook(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=120_000)
    sources = ["%load_ext mskernel"] + readme_blocks()
    work = tmp_path / "nb"
    work.mkdir()
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": s} for i, s in enumerate(sources)],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (work / "readme.ipynb").write_text(json.dumps(nb))
    lab = test_browser._Lab(work, tmp_path)
    shot = tmp_path / "readme_notebook.png"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=test_browser.CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{lab.port}/lab/tree/readme.ipynb?reset&token={lab.token}")
            expect(page.get_by_text("| Idle").first).to_be_visible()
            page.locator(".jp-Notebook").first.click()
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            prompts = page.locator(".jp-Notebook .jp-Cell .jp-InputArea-prompt")
            for i in range(len(sources)):  # each cell ran: its prompt shows an execution count
                expect(prompts.nth(i)).to_have_text(f"[{i + 1}]:")
            errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
            texts = [errors.nth(i).inner_text() for i in range(errors.count())]
            assert not [t for t in texts if "Error" in t or "Traceback" in t], texts
            graph = page.locator(".mk-graph-view")
            expect(graph).to_be_visible()
            # the README's graph: its input, the %%custom_op kernel, the sum
            assert page.locator(".mk-graph svg g.mk-node").count() >= 3
            expect(page.locator('.mk-graph svg g.mk-node[data-kind="custom"]')).to_have_count(1)
            graph.screenshot(path=str(shot))
            browser.close()
    finally:
        kernels = test_browser._descendants(lab.proc.pid)
        lab.stop()
        _kill(kernels)
    out = os.environ.get("MSKERNEL_SCREENSHOTS")
    if out:
        shutil.copy(shot, Path(out) / shot.name)


def _kill(pids: list) -> None:
    """Kernels run in their own process group and could outlive the server."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
