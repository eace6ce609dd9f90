"""Run code blocks the way a reader runs them: in order, in one fresh IPython shell in a new process, with
``%load_ext mskernel`` first (the README's examples in tests/test_readme.py, the documentation pages' in
tests/docs/prose.py).

* ``pycon`` blocks are doctests: each ``>>>`` example runs and its output must be what the text shows
  (``...`` matches anything, whitespace runs compare equal, float32 values to float32 precision);
* ``python`` and ``ipython`` blocks are notebook cells (magics allowed): they must run without an error.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]

RUNNER = r"""
import doctest, json, linecache, sys
from IPython.core.interactiveshell import InteractiveShell

job = json.load(sys.stdin)
sys.path.insert(0, job["tests"])
from float32_checker import Float32Checker as Checker

shell = InteractiveShell.instance()
shell.run_cell("%load_ext mskernel")
report = []
for i, (lang, code) in enumerate(job["blocks"]):
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


def run_blocks(blocks: Sequence[Tuple[str, str]], cwd: Path, timeout: float = 900
               ) -> Tuple[Optional[List[Optional[str]]], str]:
    """Run ``[(language, code), ...]`` in a fresh process with ``cwd`` as its directory and this checkout first
    on the path. Returns one report per block (None: it passed; else what failed), or None when the process
    ended before reporting, and the end of the process's output."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               MPLBACKEND="Agg")
    job = {"tests": str(ROOT / "tests"), "blocks": [list(b) for b in blocks]}
    proc = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(job), capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT")), None)
    return (json.loads(line[6:]) if line else None), proc.stdout[-3000:] + proc.stderr[-3000:]
