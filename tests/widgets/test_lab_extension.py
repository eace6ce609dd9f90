"""mskernel's JupyterLab extension (magics/labextension): %%custom_op C++ cells are edited as C++.

The extension is a hand-written prebuilt extension (no JavaScript build step). Its rule for "this cell
is C++" must be mskernel.cells.detect_language's; checked here against the Python patterns, by running
the JavaScript rule in node over cases, and in a real JupyterLab + chromium (the C++ cell's editor
reports language "cpp", and a cell edited into a C++ cell switches).
"""
from __future__ import annotations

import json
import os
import signal
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mskernel.cells.options import _CPP_MARKERS, detect_language

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "magics" / "labextension"
ENTRY = EXT / "static" / "remoteEntry.js"

CASES = [
    "%%custom_op mul\n#include \"ms_extension.h\"\nint f();\n",
    "%%custom_op mul --lang cpp\nint f();\n",
    "%%custom_op mul --lang=hybrid\n#include <x>\n",
    "%%custom_op m\nclass Mul : public Function<Mul> {};\n",
    "%%custom_op m\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {}\n",
    "%%custom_op sq\ndef sq(x):\n    return x  # include this\n",
    "  %%custom_op sq -c '-O3'\n  #  include <vector>\n",
    "# include this\nx = 1\n",
    "x = 1\n%%custom_op m\n#include <x>\n",
]


def python_rule(source: str) -> bool:
    """What the magic does: a %%custom_op cell is C++ by --lang, else by detect_language on its body."""
    first, _, body = source.partition("\n")
    if not re.match(r"\s*%%custom_op\b", first):
        return False
    lang = re.search(r"(?:^|\s)--lang(?:\s+|=)[\"']?(cpp|hybrid)\b", first)
    return (lang.group(1) if lang else detect_language(body)) == "cpp"


def test_the_markers_are_the_python_ones():
    js = ENTRY.read_text()
    block = js[js.index("const CPP_MARKERS = ["):]
    block = block[:block.index("];")]
    found = [(m.group(1), "m" in m.group(2)) for m in re.finditer(r"/(.+?)/([a-z]*),", block)]
    assert found == [(p.pattern, bool(p.flags & re.MULTILINE)) for p in _CPP_MARKERS]


@pytest.mark.tools("node")
def test_the_javascript_rule_agrees_with_the_magic():
    harness = (f"const self = globalThis; require({json.dumps(str(ENTRY))});\n"
               f"const cases = {json.dumps(CASES)};\n"
               "console.log(JSON.stringify(cases.map((c) => self._JUPYTERLAB.mskernel.isCppCell(c))));\n")
    run = subprocess.run(["node", "-e", harness], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [python_rule(c) for c in CASES]
    assert json.loads(run.stdout)[:5] == [True, True, False, True, True]  # the cases cover both answers


def test_the_package_installs_every_file_of_the_extension():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    installed = {str(Path(dest) / Path(src).name): src for dest, srcs in data.items() for src in srcs}
    files = sorted(str(p.relative_to(EXT)) for p in EXT.rglob("*") if p.is_file())
    assert sorted(str(Path(k).relative_to("share/jupyter/labextensions/mskernel")) for k in installed) == files
    assert json.loads((EXT / "package.json").read_text())["jupyterlab"]["_build"]["load"] == "static/remoteEntry.js"


sys.path.insert(0, str(Path(__file__).parent))
import test_browser  # noqa: E402  (the JupyterLab server helpers and what they need)


@pytest.mark.slow
@pytest.mark.tools(*test_browser.NEEDS)
def test_cpp_cells_are_highlighted_as_cpp_in_jupyterlab(tmp_path):
    from playwright.sync_api import sync_playwright

    jp = tmp_path / "jupyter_path" / "labextensions"
    jp.mkdir(parents=True)
    (jp / "mskernel").symlink_to(EXT)  # this checkout's extension, whatever is installed
    root = tmp_path / "nb"
    root.mkdir()
    cells = [CASES[0], CASES[5], CASES[7]]
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                     "source": s} for i, s in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (root / "cells.ipynb").write_text(json.dumps(nb))
    os.environ["JUPYTER_PATH"] = str(tmp_path / "jupyter_path")
    try:
        lab = test_browser._Lab(root, tmp_path)
    finally:
        del os.environ["JUPYTER_PATH"]
    errors: list = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=test_browser.CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"http://127.0.0.1:{lab.port}/lab/tree/cells.ipynb?token={lab.token}")
            languages = "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell .cm-content')]" \
                        ".map(e => e.getAttribute('data-language')).join(',')"
            # after the kernel's language arrives (which resets every cell's mode) the C++ cell is still C++
            page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60000)
            page.wait_for_function(f"({languages})() === 'cpp,python,python'", timeout=60000)
            page.screenshot(path=str(tmp_path / "cells.png"))
            # editing a cell into a %%custom_op C++ cell switches it to C++
            page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".cm-content").click()
            page.keyboard.press("Control+Home")
            page.keyboard.type("%%custom_op g\n#include <vector>\n")
            page.wait_for_function(f"({languages})() === 'cpp,python,cpp'", timeout=30000)
            page.screenshot(path=str(tmp_path / "edited.png"))
            shots = os.environ.get("MSKERNEL_SCREENSHOTS")
            if shots:
                shutil.copy(tmp_path / "cells.png", Path(shots) / "cpp_cell_highlighting.png")
            browser.close()
    finally:
        kernels = test_browser._descendants(lab.proc.pid)
        lab.stop()
        _kill(kernels)
    assert not [e for e in errors if "mskernel" in e], errors


def _kill(pids: list) -> None:
    """Kernels run in their own process group and could outlive the server."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
