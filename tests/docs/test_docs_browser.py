"""The built site in a real browser (Debian's chromium driven by Playwright, as tests/widgets/test_browser.py):
the search finds an op, a tutorial shows its widgets from their saved state, the compatibility page lists a
known op, and no page logs a console error. Screenshots of the home page, a tutorial and an API page go to
the test's tmp dir, and to ``$MSKERNEL_SCREENSHOTS`` if set. Skips where chromium or playwright is missing."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _skip_reason() -> str:
    if not os.path.exists(CHROMIUM):
        return "chromium is not installed (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    return ""


pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(_skip_reason()), reason=_skip_reason())]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def test_the_site_in_a_browser(site, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    assert site.returncode == 0, site.log[-3000:]
    expect.set_options(timeout=60_000)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site.html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    problems: list = []
    shots = {name: tmp_path / f"docs_{name}.png" for name in ("home", "tutorial", "api")}
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
                expect(view.locator(".mk-gc-badge")).to_contain_text("PASS")
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
            finally:
                ctx.close()
    finally:
        server.shutdown()
        server.server_close()
    assert not problems, problems
    assert all(s.stat().st_size > 10_000 for s in shots.values())
    out = os.environ.get("MSKERNEL_SCREENSHOTS")
    if out:
        for s in shots.values():
            shutil.copy(s, Path(out) / s.name)
