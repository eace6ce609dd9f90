"""Run the code blocks of the site's hand-written pages (``docs/**/*.md``), in order, one fresh IPython shell
per page, the way a reader would (tests/shell_runner.py runs them).

* ``pycon`` blocks are doctests, ``python`` and ``ipython`` blocks are notebook cells (see shell_runner);
* ``bash``, ``console``, ``text``, ``cpp``, ``toml`` blocks are shown, not run; any other language is an
  error, so no block is skipped by accident.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the shared runner
from shell_runner import run_blocks  # noqa: E402

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


def run_page(page: Path, timeout: float = 900) -> Tuple[List[Tuple[str, str]], List[object], str]:
    """Run a page's blocks in a fresh process (cwd: the checkout's root, as the pages say); returns the blocks
    that run, their reports (None: passed) and the process output."""
    todo = [(lang, code) for lang, code in blocks(page) if lang in RUN]
    reports, output = run_blocks(todo, ROOT, timeout)
    return todo, reports or [], output


if __name__ == "__main__":  # python tests/docs/prose.py docs/howto/PAGE.md: show what fails
    for arg in sys.argv[1:]:
        todo, reports, output = run_page(Path(arg).resolve())
        if not reports:
            print(output)
        for (lang, code), rep in zip(todo, reports):
            if rep:
                print(f"--- {arg}: {lang} block starting {code.splitlines()[0]!r}\n{rep}")
        print(f"{arg}: {sum(r is None for r in reports)} of {len(todo)} blocks pass")
