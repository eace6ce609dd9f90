"""``%gradcheck --own-dtype``: the check in the inputs' dtype, with that dtype's row of the tolerance table."""
from __future__ import annotations

from mskernel.gradcheck import TOLERANCES

SETUP = """
import numpy as np
import mskernel as ms

def _cube16(x):
    return (x.astype(np.float32) ** 3).astype(x.dtype)  # computes in float32, returns its input's dtype

cube_right = ms.ops.Custom(_cube16, lambda s: s, lambda d: d, func_type="pyfunc",
                           bprop=lambda x, out, dout: (3 * x * x * dout,))
cube_wrong = ms.ops.Custom(_cube16, lambda s: s, lambda d: d, func_type="pyfunc",
                           bprop=lambda x, out, dout: (3.3 * x * x * dout,))
h = ms.Tensor(np.linspace(-1, 1, 20).astype(np.float16))
"""


def test_own_dtype_uses_the_dtype_row_and_finds_a_ten_percent_error(run):
    assert run(SETUP).success
    right = run("%gradcheck --own-dtype cube_right(h)")
    assert right.success and "gradcheck passed" in right.text(), right.text()
    assert TOLERANCES["float16"].band().split(";")[0] in right.text()  # the band it was judged by
    wrong = run("%gradcheck --own-dtype cube_wrong(h)")
    assert wrong.success and "gradcheck FAILED" in wrong.text() and "float16: eps 0.22" in wrong.text()


def test_without_own_dtype_the_check_runs_in_float64(run):
    assert run(SETUP).success
    text = run("%gradcheck cube_right(h)").text()
    assert "float64: eps 1e-06 (2-point stencil), atol 1e-05, rtol 0.001" in text
    given = run("%gradcheck --eps 1e-4 --rtol 1e-2 cube_right(h)").text()
    assert "eps 0.0001" in given and "rtol 0.01" in given
