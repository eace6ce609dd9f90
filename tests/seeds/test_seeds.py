"""The MindSpore tutorials this product grew from, run with `mindspore` replaced by `mskernel`:
each script runs in a fresh interpreter and must print exactly what MindSpore prints."""
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

EXPECTED = {
    "seed_000_function_ops.py": "out: 12.0\ngrads[0]: (Tensor(shape=[], dtype=Float32, value= 6), Tensor(shape=[], dtype=Float32, value= 4))\ngrads[1]: (Tensor(shape=[], dtype=Float32, value= 6),)\n",  # noqa: E501 (test data)
    "seed_001_pyfunc_bprop.py": "[ 2.  8. 18.]\n",
    "seed_003_akg_bprop.py": "[ 2.  8. 18.]\n",
}


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_seed_prints_what_mindspore_prints(script, tmp_path):
    proc = subprocess.run([sys.executable, str(HERE / script)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == EXPECTED[script]
