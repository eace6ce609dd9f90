"""The MindSpore tutorials mskernel grew from, run with `mindspore` replaced by `mskernel` in their imports:
each program runs in a fresh interpreter and must print exactly what MindSpore prints.

The tutorials are MindSpore's text, so this repository keeps no copy: they are read from
``../shared/seeds/restored/`` beside the checkout (its README says what each one is), which every developer
and CI has. Where that directory is absent these tests skip and say so.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TUTORIALS = REPO.parent / "shared" / "seeds" / "restored"

pytestmark = pytest.mark.skipif(
    not TUTORIALS.is_dir(), reason=f"MindSpore's tutorials are read from {TUTORIALS} (../shared/seeds/restored "
                                   f"beside the checkout), which is not on this machine")

# What MindSpore prints for each program (the C++ one needs ../shared/seeds/restored/function_ops.cpp beside it).
EXPECTED = {
    "seed_000_function_ops.py": "out: 12.0\ngrads[0]: (Tensor(shape=[], dtype=Float32, value= 6), Tensor(shape=[], dtype=Float32, value= 4))\ngrads[1]: (Tensor(shape=[], dtype=Float32, value= 6),)\n",  # noqa: E501 (test data)
    "seed_001_pyfunc_bprop.py": "[ 2.  8. 18.]\n",
    "seed_003_akg_bprop.py": "[ 2.  8. 18.]\n",
}

# `import mindspore...` and `from mindspore... import ...` at the start of a line: the only text the swap touches.
_IMPORT_OF_MINDSPORE = re.compile(r"^(\s*(?:import|from)\s+)mindspore\b", re.MULTILINE)


def with_mskernel_imports(source: str) -> str:
    """``source`` with its imports of ``mindspore`` (and of its submodules) naming ``mskernel`` instead."""
    return _IMPORT_OF_MINDSPORE.sub(r"\1mskernel", source)


def test_every_tutorial_program_is_checked():
    assert sorted(p.name for p in TUTORIALS.glob("seed_*.py")) == sorted(EXPECTED)


def test_the_swap_changes_only_import_lines():
    assert with_mskernel_imports("import mindspore as ms\nfrom mindspore.ops import Custom\nname = 'mindspore'\n") \
        == "import mskernel as ms\nfrom mskernel.ops import Custom\nname = 'mindspore'\n"
    for name in EXPECTED:
        before = (TUTORIALS / name).read_text().splitlines()
        after = with_mskernel_imports((TUTORIALS / name).read_text()).splitlines()
        changed = [(a, b) for a, b in zip(before, after) if a != b]
        assert changed and all(re.match(r"\s*(import|from) mindspore\b", a) for a, _ in changed), changed
        assert not any(re.match(r"\s*(import|from) mindspore\b", b) for b in after)


@pytest.mark.parametrize("program", sorted(EXPECTED))
def test_tutorial_prints_what_mindspore_prints(program, tmp_path):
    for other in TUTORIALS.iterdir():  # the program and what it reads beside itself (the C++ source)
        if other.suffix != ".py":
            shutil.copy(other, tmp_path / other.name)
    script = tmp_path / program
    script.write_text(with_mskernel_imports((TUTORIALS / program).read_text()))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED[program]
