"""The README's Python examples run as written, in order, in one fresh IPython shell (as cells of a new
notebook with ``%load_ext mskernel`` first). A block preceded by ``<!-- excerpt ... -->`` is a fragment
of library code shown for reading, and is skipped."""
import re
from pathlib import Path

from shell_runner import run_blocks

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- excerpt[^>]*-->\s*\n)?```python\n(.*?)```", re.S)


def readme_blocks() -> list:
    text = (ROOT / "README.md").read_text()
    return [m.group(2) for m in BLOCK.finditer(text) if not m.group(1)]


def test_readme_has_runnable_examples_including_the_graph_view():
    blocks = readme_blocks()
    assert any("%%custom_op" in b for b in blocks) and any("ms.show_graph(" in b for b in blocks)


def test_readme_examples_run_in_a_fresh_shell(tmp_path):
    blocks = readme_blocks()
    reports, output = run_blocks([("python", b) for b in blocks], tmp_path, timeout=600)
    assert reports is not None, output
    failures = [(blocks[i].splitlines()[0], err) for i, err in enumerate(reports) if err]
    assert not failures, f"README blocks failed: {failures}\n{output}"


def test_the_readme_pictures_are_the_browser_tests_shots():
    # tests/widgets/test_browser.py fails when a view no longer shows what its stored picture showed; here,
    # without a browser: every picture the README shows is one that test stored, unchanged since
    import json
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "widgets"))
    import screenshots

    shown = re.findall(r"!\[[^\]]*\]\((docs/img/[^)]+)\)", (ROOT / "README.md").read_text())
    assert sorted(shown) == sorted(f"docs/img/{n}" for n in screenshots.README_SHOTS.values())
    manifest = json.loads(screenshots.MANIFEST.read_text())
    for rel in shown:
        name = rel.rsplit("/", 1)[1]
        assert screenshots.file_digest(ROOT / rel) == manifest[name]["png_sha256"], \
            f"{rel} is not the picture the browser test stored: take it again with {screenshots.REFRESH}"
