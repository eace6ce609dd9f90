"""The README's Python examples run as written, in order, in one fresh IPython shell (as cells of a new
notebook with ``%load_ext mskernel`` first). A block preceded by ``<!-- excerpt ... -->`` is a fragment
of library code shown for reading, and is skipped."""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- excerpt[^>]*-->\s*\n)?```python\n(.*?)```", re.S)

RUNNER = r"""
import json, sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_cell("%load_ext mskernel")
report = []
for i, code in enumerate(json.load(sys.stdin)):
    res = shell.run_cell(code, store_history=True)
    err = res.error_in_exec or res.error_before_exec
    report.append(None if err is None else f"{type(err).__name__}: {err}")
print("REPORT" + json.dumps(report))
"""


def readme_blocks() -> list:
    text = (ROOT / "README.md").read_text()
    return [m.group(2) for m in BLOCK.finditer(text) if not m.group(1)]


def test_readme_has_runnable_examples_including_the_graph_view():
    blocks = readme_blocks()
    assert any("%%custom_op" in b for b in blocks) and any("ms.show_graph(" in b for b in blocks)


def test_readme_examples_run_in_a_fresh_shell(tmp_path):
    blocks = readme_blocks()
    proc = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(blocks), capture_output=True, text=True,
                          cwd=tmp_path, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT")), None)
    assert line is not None, proc.stdout[-2000:] + proc.stderr[-2000:]
    failures = [(blocks[i].splitlines()[0], err) for i, err in enumerate(json.loads(line[6:])) if err]
    assert not failures, f"README blocks failed: {failures}\n{proc.stdout[-3000:]}"
