"""The README's screenshots (``docs/img``): which browser-test shots they are, and what each one showed.

``tests/widgets/test_browser.py`` takes the shots in a live JupyterLab. With ``MSKERNEL_SCREENSHOTS=docs/img``
it stores the README's two (quantised to 128 colours, ~25 KB each) and writes ``docs/img/screenshots.json``:
per picture, the sha256 of its PNG and a digest of what the view showed: its text as the browser laid it
out, its SVG drawings and mskernel's own style rules (without the ids a page load renumbers), and the size of
each raster image. So the digest holds the view's words, numbers, verdicts and drawing, but not the
rasteriser's bytes nor the markup ipywidgets and JupyterLab wrap a view in, which differ between builds and
releases of matplotlib, chromium and those. Without the variable the
test compares the digest of what the views show now with the stored one: a view that changed makes its
picture stale and the test fails, saying how to take it again. ``tests/test_readme.py`` checks without a
browser that every picture the README shows is the one the manifest describes.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"
MANIFEST = IMG / "screenshots.json"
#: the browser test's shot name -> the README's picture
README_SHOTS = {"graph_wide": "graph_view.png", "gradcheck_failing": "gradcheck_view.png"}
REFRESH = ("MSKERNEL_SCREENSHOTS=docs/img python -m pytest tests/widgets/test_browser.py "
           "-k views_render  (then commit docs/img)")

# what the browser hands back for a view: what mskernel put in it -- its text, its SVG drawings, its own
# style rules, the natural size of each raster image -- and none of the markup ipywidgets and JupyterLab wrap
# it in, which changes between their releases
VIEW_JS = """el => ({text: el.innerText,
  svg: [...el.querySelectorAll('svg')].map(s => s.outerHTML),
  style: [...el.querySelectorAll('style')].map(s => s.textContent),
  images: [...el.querySelectorAll('img')].map(i => [i.naturalWidth, i.naturalHeight])})"""
_RENUMBERED = re.compile(r'\s(?:id|data-model-id)="[^"]*"')
_SCOPE = re.compile(r"\bmk-canvas-[0-9a-f]{8}\b")  # a GraphView's per-view CSS scope (a random suffix)


def view_digest(view: dict) -> str:
    """A digest of what a view shows, from ``VIEW_JS``'s answer (see the module docstring).

    Example:
        >>> shown = {"text": "PASSED eps 1e-6", "svg": ['<svg id="a1"><rect/></svg>'],
        ...          "style": [".mk-canvas-0a1b2c3d{position:relative}"], "images": [[10, 20]]}
        >>> again = dict(shown, svg=['<svg id="b7"><rect/></svg>'], style=[".mk-canvas-99887766{position:relative}"])
        >>> view_digest(shown) == view_digest(again)
        True
        >>> view_digest(shown) == view_digest(dict(shown, text="FAILED eps 1e-6"))
        False
    """
    text = " ".join(view["text"].split())
    svg = [_RENUMBERED.sub("", s) for s in view["svg"]]
    style = [_SCOPE.sub("mk-canvas", s) for s in view["style"]]
    return hashlib.sha256(json.dumps([text, svg, style, view["images"]]).encode()).hexdigest()


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def store(shots: Dict[str, Path], digests: Dict[str, str], out: Path) -> None:
    """Write the README's pictures (quantised PNGs) and the manifest into ``out``."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for shot, name in README_SHOTS.items():
        buf = io.BytesIO()
        Image.open(shots[shot]).convert("RGB").quantize(128).save(buf, format="PNG", optimize=True)
        (out / name).write_bytes(buf.getvalue())
        manifest[name] = {"shows": digests[shot], "png_sha256": file_digest(out / name)}
    (out / MANIFEST.name).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def stale(digests: Dict[str, str], manifest: Path = MANIFEST) -> Dict[str, str]:
    """``{picture: why}`` for each README picture whose stored digest is not what its view shows now."""
    stored = json.loads(manifest.read_text()) if manifest.exists() else {}
    out = {}
    for shot, name in README_SHOTS.items():
        if name not in stored:
            out[name] = f"{manifest} has no entry for it"
        elif stored[name]["shows"] != digests[shot]:
            out[name] = "the view shows something else now"
    return out
