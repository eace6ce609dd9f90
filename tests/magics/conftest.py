"""A real IPython InteractiveShell with ``%load_ext mskernel``, and a helper that runs one cell.

C++ cells build through the real build layer and its default cache (so re-runs of the suite are
fast); every test uses its own op names.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output


@dataclass
class Ran:
    """What one cell did: success, the exception, stdout/stderr and the displayed outputs."""

    success: bool
    error: BaseException | None
    stdout: str
    stderr: str
    outputs: list

    def text(self) -> str:
        return "\n".join(o.data.get("text/plain", "") for o in self.outputs)

    def html(self) -> str:
        return "\n".join(o.data.get("text/html", "") or "" for o in self.outputs)


@pytest.fixture(scope="session")
def shell():
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "mskernel")
    sh.run_cell("import numpy as np\nimport mskernel as ms\nfrom mskernel import ops")
    return sh


@pytest.fixture(scope="session")
def run(shell):
    def run_cell(source: str) -> Ran:
        with capture_output() as cap:
            result = shell.run_cell(source, store_history=True)
        err = result.error_in_exec or result.error_before_exec
        return Ran(result.success, err, cap.stdout, cap.stderr, list(cap.outputs))
    return run_cell
