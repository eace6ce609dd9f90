"""Both views in a real browser: JupyterLab on 127.0.0.1 runs a notebook, Playwright drives Debian's chromium.

At a desktop size (1280x800) checks in the DOM that the graph view and the gradient-check view rendered,
that every node label is drawn whole and inside its box, that the details panel is wide and keeps a
kernel's source lines unwrapped, that a passing check's picture has no alarm-coloured pixel (and a
failing one has), that a 3x4 input's view is compact; drags the eps slider and clicks a node, and
checks that the views reacted (through the kernel). Screenshots go to the test's
tmp dir, and also to ``$MSKERNEL_SCREENSHOTS`` if set (that is how ``docs/img`` is made); without it the
README's pictures are checked for staleness against what the views show (``screenshots.py``). Skips with
the reason where chromium, playwright or jupyterlab is missing (fails under CI: tests/tool_policy.py).
Follows ../shared/BROWSER_TESTING.md.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import screenshots  # noqa: E402  (the README's pictures and what they showed)

ROOT = Path(__file__).resolve().parents[2]  # the checkout this test runs from: the kernel imports its mskernel
CHROMIUM = shutil.which("chromium") or "chromium"

NOTEBOOK_CELLS = [
    """\
import numpy as np
import mskernel as ms
from mskernel import Tensor, Parameter, ops
from mskernel.widgets import GradCheckView
print(ms.__file__)
w = Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.0]], np.float32)), name="w")
b = Parameter(Tensor(np.array([0.1, 0.0], np.float32)), name="b")

def square_missing_factor_two(x):
    return x * x  # the forward is right; the bprop below forgets the factor 2 of d(x*x)/dx = 2x, gradcheck finds it

# a Custom op whose bprop forgets the factor 2 of d(x*x)/dx
square = ops.Custom(square_missing_factor_two, lambda s: s, lambda d: d, func_type="pyfunc",
                    bprop=lambda x, out, dout: (dout * x,))

def loss(x):
    h = ops.tanh(ops.matmul(x, w) + b)
    return (square(h) + ops.log(ops.relu(h))).sum()  # relu(h) = 0 somewhere: log gives -inf, NaN gradients""",
    """\
snap, _ = ms.autograd.trace(loss, Tensor(np.ones((3, 2), np.float32)), weights=[w, b])
gv = ms.show_graph(snap)
gv""",
    """\
cv = GradCheckView(lambda a: square(a) * 2, (Tensor([0.5, 1.0, 1.5]),))
cv.add_class("mk-test-failing")
cv""",
    """\
ok = GradCheckView(lambda a: ops.sin(a) * a, (Tensor(np.linspace(0.1, 1.2, 12).reshape(3, 4)),))
ok.add_class("mk-test-passing")
ok""",
]
VIEWPORT = {"width": 1280, "height": 800}  # a desktop screen
# the alarm colours of the error / tolerance bands (mskernel.widgets.heatmap.ALARM_COLORS), as RGB
ALARM_RGB = [(0xff, 0x5c, 0x47), (0xf5, 0x33, 0x2b), (0xeb, 0x0f, 0x1f)]

# per drawn box: its full label, the lines drawn, and whether every text line lies inside the box
_BOX_TEXT_JS = """els => els.map(g => {
  const rect = g.querySelector('rect');
  const x0 = rect.x.baseVal.value, x1 = x0 + rect.width.baseVal.value;
  const texts = [...g.querySelectorAll('text')];
  return {id: g.dataset.id, label: g.dataset.label, cut: g.dataset.cut || null,
          lines: [...g.querySelectorAll('text.mk-label')].map(t => t.textContent),
          outside: texts.filter(t => { const b = t.getBBox(); return b.x < x0 || b.x + b.width > x1; })
                        .map(t => t.textContent)};
})"""
# a code block: its white-space, its source lines and the lines the browser laid out
_PRE_JS = """pre => {
  const r = document.createRange(); r.selectNodeContents(pre);
  const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
  return {whiteSpace: getComputedStyle(pre).whiteSpace, overflowX: getComputedStyle(pre).overflowX,
          lines: pre.textContent.replace(/\\n$/, '').split('\\n').length, rendered: tops.size,
          width: pre.getBoundingClientRect().width};
}"""


def _alarm_pixels(png: bytes) -> int:
    """Pixels within a few levels of an alarm colour (screenshots may round colours slightly)."""
    import io

    import numpy as np
    from PIL import Image
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 1, 3).astype(int)
    near = (np.abs(rgb - np.array(ALARM_RGB)[None]) <= 6).all(axis=2).any(axis=1)
    return int(near.sum())


NEEDS = ("chromium", "playwright", "jupyterlab")  # tests/tool_policy.py: skip without them, fail under CI
pytestmark = [pytest.mark.slow, pytest.mark.tools(*NEEDS)]


def _write_notebook(path: Path) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
              "source": src} for i, src in enumerate(NOTEBOOK_CELLS)]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                      "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Lab:
    """A JupyterLab server in its own process group, with fresh config dirs; stop() is bounded and complete."""

    def __init__(self, root: Path, tmp: Path) -> None:
        self.token = uuid.uuid4().hex
        self.log = open(tmp / "lab.log", "w")
        env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}".rstrip(os.pathsep),
                   JUPYTER_CONFIG_DIR=str(tmp / "cfg"), JUPYTER_RUNTIME_DIR=str(tmp / "rt"),
                   JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "ws"),
                   MPLBACKEND="Agg")
        self.proc = None
        # no "get notified about Jupyter news?" toast over the views
        note = tmp / "settings" / "@jupyterlab" / "apputils-extension"
        note.mkdir(parents=True)
        (note / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        for _ in range(5):
            self.port = _free_port()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
                 "--port-retries=0", "--allow-root", f"--IdentityProvider.token={self.token}",
                 f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
                 "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                 "--LabApp.extension_manager=readonly"],
                env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True, cwd=str(root))
            if self._wait_ready(60):
                return
            self.stop()
        raise RuntimeError(f"JupyterLab did not start; see {tmp / 'lab.log'}")

    def _api(self, path: str, method: str = "GET", timeout: float = 5) -> bytes:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.read()

    def _wait_ready(self, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                return False
            try:
                self._api("/api/status")
                return True
            except OSError:
                time.sleep(0.5)
        return False

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self._api("/api/shutdown", method="POST")
            except OSError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(5)
                break
            except subprocess.TimeoutExpired:
                continue
        self.log.close()


def _descendants(pid: int) -> list:
    out = subprocess.run(["ps", "-o", "pid=,ppid=", "-A"], capture_output=True, text=True).stdout.split("\n")
    children: dict = {}
    for line in out:
        parts = line.split()
        if len(parts) == 2:
            children.setdefault(int(parts[1]), []).append(int(parts[0]))
    found, stack = [], [pid]
    while stack:
        for c in children.get(stack.pop(), []):
            found.append(c)
            stack.append(c)
    return found


def test_views_render_and_react_in_jupyterlab(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=90_000)
    work = tmp_path / "nb"
    work.mkdir()
    _write_notebook(work / "views.ipynb")
    lab = _Lab(work, tmp_path)
    shots = {name: tmp_path / f"{name}.png" for name in ("notebook", "graph_view", "graph_details", "graph_wide",
                                                         "gradcheck_failing", "gradcheck_passing")}
    where = f"(screenshots: {tmp_path}/*.png, server log: {tmp_path / 'lab.log'})"
    try:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, viewport=VIEWPORT,
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            try:
                page = ctx.new_page()
                page.goto(f"http://127.0.0.1:{lab.port}/lab/tree/views.ipynb?reset&token={lab.token}")
                expect(page.locator(".jp-Notebook")).to_be_visible()
                expect(page.get_by_text("| Idle").first).to_be_visible()
                page.locator(".jp-Notebook").first.click()
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

                # both views rendered (as widgets, not their text fallback)
                graph = page.locator(".mk-graph-view")
                expect(graph).to_be_visible()
                expect(page.locator(".mk-graph svg g.mk-node").first).to_be_visible()
                assert page.locator(".mk-graph svg g.mk-node").count() >= 8
                expect(page.locator('.mk-graph svg g.mk-node[data-flag="nonfinite"]').first).to_be_attached()
                expect(page.locator('.mk-graph svg g.mk-node[data-kind="parameter"]')).to_have_count(2)
                view = page.locator(".mk-test-failing")
                expect(view).to_be_visible()
                expect(view.locator(".mk-gc-badge")).to_contain_text("FAILED")
                expect(view.locator("img.mk-gc-image")).to_be_visible()
                expect(view.locator(".mk-gc-status")).to_contain_text("check run 1 time")
                expect(view.locator(".mk-gc-worst")).to_contain_text("over")
                passing = page.locator(".mk-test-passing")
                expect(passing.locator(".mk-gc-badge")).to_contain_text("PASSED")
                expect(passing.locator("img.mk-gc-image")).to_be_visible()
                page.screenshot(path=str(shots["notebook"]), full_page=True)

                # every node's label is drawn whole (wrapped if need be) and inside its box
                graph.scroll_into_view_if_needed()
                graph.screenshot(path=str(shots["graph_view"]))
                boxes = page.locator(".mk-graph svg g.mk-node").evaluate_all(_BOX_TEXT_JS)
                for bx in boxes:
                    drawn = "".join(bx["lines"]).replace(" ", "")
                    assert bx["cut"] is None and drawn == bx["label"].replace(" ", ""), (bx, where)
                    assert bx["outside"] == [], (bx, where)
                custom = next(bx for bx in boxes if "square_missing_factor_two" in bx["label"])
                assert len(custom["lines"]) > 1, (custom, where)  # the long name wrapped rather than cut

                # clicking a node in the picture selects it: details, outline and list follow (through the kernel)
                details = page.locator(".mk-graph-details")
                custom_id = custom["id"]
                page.locator(f".mk-graph-canvas .mk-hit-{custom_id}").click()
                expect(details).to_contain_text("func_type")
                expect(details).to_contain_text("pyfunc")
                expect(page.locator(f'.mk-graph svg g.mk-node[data-id="{custom_id}"] rect')).to_have_attribute(
                    "stroke", "#2563eb")
                # the details panel is wide, and the kernel's source keeps one line per line (scrolls sideways)
                pre = details.locator("pre.mk-source").first
                expect(pre).to_contain_text("def square_missing_factor_two(x):")
                details.scroll_into_view_if_needed()
                details.screenshot(path=str(shots["graph_details"]))
                code = pre.evaluate(_PRE_JS)
                assert code["whiteSpace"] == "pre" and code["overflowX"] == "auto", (code, where)
                assert code["lines"] == 2 and code["rendered"] == code["lines"], (code, where)
                assert details.bounding_box()["width"] >= 440 and code["width"] >= 400, (code, where)
                assert graph.bounding_box()["x"] + graph.bounding_box()["width"] <= VIEWPORT["width"], where
                # with the file browser closed the notebook is wide enough: the details sit beside the picture
                page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()  # collapses it
                page.wait_for_function("""() => {
                  const c = document.querySelector('.mk-graph-canvas').getBoundingClientRect();
                  const s = document.querySelector('.mk-graph-side').getBoundingClientRect();
                  return s.left >= c.right - 1 && Math.abs(s.top - c.top) < 2; }""")
                graph.scroll_into_view_if_needed()
                graph.screenshot(path=str(shots["graph_wide"]))
                shows = {"graph_wide": screenshots.view_digest(graph.evaluate(screenshots.VIEW_JS))}
                assert details.bounding_box()["width"] >= 440, where
                # and picking one in the node list does the same
                page.locator(".mk-graph-nodes option", has_text="Tanh").first.click()
                expect(details).to_contain_text("Tanh")
                expect(details).not_to_contain_text("func_type")

                # the gradient-check views: the failing element is red, the passing check has no red at all
                view.scroll_into_view_if_needed()
                view.screenshot(path=str(shots["gradcheck_failing"]))
                shows["gradcheck_failing"] = screenshots.view_digest(view.evaluate(screenshots.VIEW_JS))
                failing_png = view.locator("img.mk-gc-image").screenshot()
                assert _alarm_pixels(failing_png) > 100, where
                passing.scroll_into_view_if_needed()
                passing.screenshot(path=str(shots["gradcheck_passing"]))
                assert _alarm_pixels(passing.locator("img.mk-gc-image").screenshot()) == 0, where
                # compact: a 3x4 input's view (badge, controls, picture, legend, table) fits well within the screen
                img = passing.locator("img.mk-gc-image").evaluate(
                    "i => ({natural: i.naturalHeight, shown: i.getBoundingClientRect().height})")
                assert img["natural"] <= 200 and abs(img["shown"] - img["natural"]) <= 1, (img, where)
                height = passing.bounding_box()["height"]
                assert height <= 560, (height, where)

                # dragging the eps slider to the right recomputes the check in the kernel
                handle = view.locator(".mk-gc-eps .noUi-handle")
                handle.scroll_into_view_if_needed()
                box = handle.bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.down()
                page.mouse.move(box["x"] + 120, box["y"] + box["height"] / 2, steps=8)
                page.mouse.up()
                expect(view.locator(".mk-gc-status")).to_contain_text("check run 2 times")
                readout = view.locator(".mk-gc-eps .widget-readout").inner_text()
                assert readout != "1e-6", readout
            finally:
                ctx.close()
    finally:
        kernels = _descendants(lab.proc.pid)
        lab.stop()
        for pid in kernels:  # kernels run in their own process group and can be orphaned otherwise
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert all(s.stat().st_size > 5000 for s in shots.values()), where
    out = os.environ.get("MSKERNEL_SCREENSHOTS")
    if out:
        if Path(out).resolve() != screenshots.IMG:  # docs/img keeps only the README's pictures
            for s in shots.values():
                shutil.copy(s, Path(out) / s.name)
        screenshots.store(shots, shows, Path(out))
    else:
        old = screenshots.stale(shows)
        assert not old, (f"the README's pictures are stale: {old}; take them again with {screenshots.REFRESH} "
                         f"{where}")
