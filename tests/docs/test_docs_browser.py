"""The built site in a real browser (Debian's chromium driven by Playwright, as tests/widgets/test_browser.py):
the search finds an op, a tutorial shows its widgets from their saved state, every tutorial's gradient-check and
graph view says what its cell's stored text says, the compatibility page lists a known op, and no page logs a
console error. Screenshots of the home page, a tutorial and an API page go to
the test's tmp dir, and to ``$MSKERNEL_SCREENSHOTS`` if set. Skips where chromium or playwright is missing
(fails under CI: tests/tool_policy.py)."""
from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest
from widget_views import NOTEBOOKS, READ_PAGE, mismatches, shown_in_page, stored_views

CHROMIUM = shutil.which("chromium") or "chromium"
pytestmark = [pytest.mark.slow, pytest.mark.tools("chromium", "playwright")]  # tests/tool_policy.py


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def _browser(site, tmp_path: Path) -> Iterator[tuple]:
    """``(page, base URL, problems)``: the built site served on loopback, a fresh chromium page on it, and the
    console errors, page errors, failed requests and HTTP errors it logs (checked by the caller at the end)."""
    from playwright.sync_api import expect, sync_playwright

    assert site.returncode == 0, site.log[-3000:]
    expect.set_options(timeout=60_000)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site.html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    problems: list = []
    try:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
                viewport={"width": 1300, "height": 900},
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            try:
                page = ctx.new_page()
                page.on("console", lambda m: problems.append(f"console error: {m.text} ({m.location.get('url')})")
                        if m.type == "error" else None)
                page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
                # (leaving the search page aborts its fetches of result pages for snippets: not a failure)
                page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}")
                        if "ERR_ABORTED" not in (r.failure or "") else None)
                page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400
                        else None)
                yield page, f"http://127.0.0.1:{server.server_address[1]}", problems
            finally:
                ctx.close()
    finally:
        server.shutdown()
        server.server_close()


def _keep(shots) -> None:
    out = os.environ.get("MSKERNEL_SCREENSHOTS")
    if out:
        for s in shots:
            shutil.copy(s, Path(out) / s.name)


def test_the_site_in_a_browser(site, tmp_path):
    from playwright.sync_api import expect

    shots = {name: tmp_path / f"docs_{name}.png" for name in ("home", "tutorial", "api")}
    with _browser(site, tmp_path) as (page, base, problems):
        # the home page, and the search box finds an op
        page.goto(f"{base}/index.html")
        expect(page.locator("h1")).to_contain_text("mskernel")
        page.screenshot(path=str(shots["home"]))
        box = page.locator("input[name=q]").first
        box.fill("softplus")
        box.press("Enter")
        hit = page.locator('#search-results a[href$="reference/api/ops.html#mskernel.ops.softplus"]').first
        expect(hit).to_be_visible()
        hit.click()
        expect(page.locator('[id="mskernel.ops.softplus"]')).to_be_visible()

        # a tutorial: its widgets drawn from the saved state (the views' own CSS classes), and its outputs
        page.goto(f"{base}/tutorials/06_seeing_gradients.html")
        view = page.locator(".mk-gradcheck-view").first
        expect(view).to_be_visible()
        expect(view.locator(".mk-gc-badge")).to_be_visible()  # what it says: the test below
        expect(page.locator(".mk-graph svg g.mk-node").first).to_be_visible()
        assert page.locator(".mk-graph svg g.mk-node").count() >= 5
        expect(page.locator(".cell_output", has_text="elements over tolerance").first).to_be_visible()
        view.scroll_into_view_if_needed()
        page.screenshot(path=str(shots["tutorial"]))

        # the compatibility page lists a known op as running
        page.goto(f"{base}/reference/compatibility.html")
        expect(page.locator("tr", has_text="softplus").first).to_contain_text("runs")
        expect(page.locator("tr", has_text="export").first).to_contain_text("refused")

        # an API page: an entry with its signature and example
        page.goto(f"{base}/reference/api/autograd.html#mskernel.autograd.grad")
        entry = page.locator('[id="mskernel.autograd.grad"]')
        expect(entry).to_be_visible()
        expect(entry).to_contain_text("grad_position")
        page.screenshot(path=str(shots["api"]))
    assert not problems, problems
    assert all(s.stat().st_size > 10_000 for s in shots.values())
    _keep(shots.values())


def test_every_tutorial_view_shows_what_its_cell_showed(site, tmp_path):
    """Each gradient-check and graph view drawn on a tutorial page says what its cell's stored text/plain says
    (tests/docs/widget_views.py compares them): the verdict, tolerances and worst element of a gradient check,
    the size, outputs and flagged nodes of a graph. A view that a later cell changed (re-run, eps moved, a node
    selected) is drawn as its own cell left it, not in its last state."""
    stored = {nb.stem: stored_views(nb) for nb in sorted(NOTEBOOKS.glob("*.ipynb"))}
    stored = {name: views for name, views in stored.items() if views}
    assert sum(len(v) for v in stored.values()) >= 5, stored  # 05's gate, 06's check and graphs, 07's check
    found, shot = [], tmp_path / "docs_first_gradcheck_view.png"
    with _browser(site, tmp_path) as (page, base, problems):
        for name, views in stored.items():
            page.goto(f"{base}/tutorials/{name}.html")
            page.wait_for_function(  # every view drawn by the widget manager (before its script tag)
                """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
                   .every(s => s.previousElementSibling && s.previousElementSibling.matches('.widget-subarea')
                               && s.previousElementSibling.querySelector('.jupyter-widgets'))""")
            shown = shown_in_page(page.evaluate(READ_PAGE))
            for view in views:
                found += mismatches(view, shown.get(view.model_id))
            if name == "06_seeing_gradients":
                first = page.locator(".mk-gradcheck-view").first
                first.scroll_into_view_if_needed()
                first.screenshot(path=str(shot))
    assert not problems, problems
    assert not found, "\n".join(found)
    _keep([shot])


def _pixels_near(png: Path, rgb: tuple) -> int:
    """How many pixels of the screenshot ``png`` are within 40 per channel of ``rgb``."""
    from PIL import Image

    with Image.open(png) as im:
        data = im.convert("RGB").getdata()
        return sum(1 for p in data if all(abs(a - b) <= 40 for a, b in zip(p, rgb)))


def test_the_benchmark_plots_of_the_hybrid_kernels_tutorial_in_a_browser(site, tmp_path):
    """Tutorial 04's benchmark section as the site shows it: its two figures (the timing bars with the
    roofline, and the size sweep's lines) load and are drawn at a sane size, with the marks of each
    implementation in matplotlib's colours; the stored agreement and counts are on the page; no console error."""
    from playwright.sync_api import expect

    shots = [tmp_path / "docs_benchmark_timings.png", tmp_path / "docs_benchmark_sweep.png"]
    with _browser(site, tmp_path) as (page, base, problems):
        page.goto(f"{base}/tutorials/04_hybrid_kernels.html")
        section = page.locator("section#how-fast-is-it-and-how-far-from-the-hardware")
        expect(section.locator(".cell_output", has_text="agreement: hybrid, numpy match ops.square on values; "
                                                         "gradients of hybrid match too").first).to_be_visible()
        expect(section.locator(".cell_output", has_text="loads, stores, flops per element: 1.0 1.0 1.0").first
               ).to_be_visible()
        figures = section.locator(".cell_output img")
        expect(figures).to_have_count(2)
        for k, shot in enumerate(shots):
            img = figures.nth(k)
            img.scroll_into_view_if_needed()
            expect(img).to_be_visible()
            page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle())
            natural_w, natural_h, shown_w, shown_h = img.evaluate(
                "i => [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width,"
                " i.getBoundingClientRect().height]")
            assert 400 <= natural_w <= 3000 and 200 <= natural_h <= 1500, (k, natural_w, natural_h)
            assert shown_w >= 300 and shown_h >= 150 and 1.0 <= shown_w / shown_h <= 5.0, (k, shown_w, shown_h)
            img.screenshot(path=str(shot))
    assert not problems, problems
    # drawn, not blank: the bars/lines of the first implementations (matplotlib's tab:blue, tab:orange) and
    # the third one's line in the sweep (tab:green)
    blue, orange, green = (31, 119, 180), (255, 127, 14), (44, 160, 44)
    counts = [{c: _pixels_near(s, c) for c in (blue, orange, green)} for s in shots]
    assert counts[0][blue] >= 200 and counts[0][orange] >= 200, counts[0]
    assert all(counts[1][c] >= 30 for c in (blue, orange, green)), counts[1]
    _keep(shots)
