"""Run the code blocks of the site's hand-written pages (``docs/**/*.md``), in order, one fresh IPython shell
per page, the way a reader would.

* ``pycon`` blocks are doctests: each ``>>>`` example runs and its output must be what the page shows
  (``...`` matches anything, whitespace runs compare equal, float32 values to float32 precision);
* ``python`` and ``ipython`` blocks are notebook cells (``%%custom_op`` and other magics allowed;
  ``%load_ext mskernel`` is done first): they must run without an error;
* ``bash``, ``console``, ``text``, ``cpp``, ``toml`` blocks are shown, not run; any other language is an
  error, so no block is skipped by accident.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(`{3,})([^\n`]*)\n(.*?)^\1\s*$", re.S | re.M)
RUN = ("pycon", "python", "ipython")
SHOWN = ("bash", "console", "text", "cpp", "toml")
GENERATED = ("reference/compatibility.md", "reference/errors.md", "performance.md")


def pages() -> List[Path]:
    """The hand-written pages (generated ones come from code and are tested through it)."""
    out = []
    for p in sorted(DOCS.rglob("*.md")):
        rel = p.relative_to(DOCS).as_posix()
        if rel.startswith(("_build/", "jupyter_execute/")) or rel in GENERATED or rel == "compatibility.md":
            continue
        out.append(p)
    return out


def blocks(page: Path) -> List[Tuple[str, str]]:
    """``[(language, code), ...]`` of a page's fenced blocks (MyST directives such as ``{toctree}`` left out)."""
    return [(m.group(2).strip(), m.group(3)) for m in FENCE.finditer(page.read_text())
            if not m.group(2).strip().startswith("{")]


RUNNER = r"""
import doctest, json, linecache, re, sys
from IPython.core.interactiveshell import InteractiveShell

sys.path.insert(0, "tests")  # cwd is the checkout's root
from float32_checker import Float32Checker as Checker

shell = InteractiveShell.instance()
shell.run_cell("%load_ext mskernel")
report = []
for i, (lang, code) in enumerate(json.load(sys.stdin)):
    if lang == "pycon":
        test = doctest.DocTestParser().get_doctest(code, shell.user_ns, f"block {i}", None, 0)
        out = []
        runner = doctest.DocTestRunner(checker=Checker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=out.append, clear_globs=False)
        shell.user_ns.update(test.globs)  # DocTest runs in a copy: the next block sees what this one defined
        for j, ex in enumerate(test.examples):  # keep each example's source readable by inspect afterwards
            lines = ex.source.splitlines(True)  # (hybrid kernels read their source when first compiled)
            linecache.cache[f"<doctest {test.name}[{j}]>"] = (len(ex.source), None, lines, test.name)
        report.append("".join(out) if runner.failures else None)
    else:
        res = shell.run_cell(code, store_history=True)
        err = res.error_in_exec or res.error_before_exec
        report.append(None if err is None else f"{type(err).__name__}: {err}")
print("REPORT" + json.dumps(report))
"""


def run_page(page: Path, timeout: float = 900) -> Tuple[List[Tuple[str, str]], List[object], str]:
    """Run a page's blocks in a fresh process (cwd: the checkout's root, as the pages say); returns the blocks
    that run, their reports (None: passed) and the process output."""
    todo = [(lang, code) for lang, code in blocks(page) if lang in RUN]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(todo), capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT")), None)
    reports = json.loads(line[6:]) if line else []
    return todo, reports, proc.stdout[-3000:] + proc.stderr[-3000:]


if __name__ == "__main__":  # python tests/docs/prose.py docs/howto/PAGE.md: show what fails
    for arg in sys.argv[1:]:
        todo, reports, output = run_page(Path(arg).resolve())
        if not reports:
            print(output)
        for (lang, code), rep in zip(todo, reports):
            if rep:
                print(f"--- {arg}: {lang} block starting {code.splitlines()[0]!r}\n{rep}")
        print(f"{arg}: {sum(r is None for r in reports)} of {len(todo)} blocks pass")
