"""%gradcheck through a real IPython shell: the report's "worst element" column says where and what."""
from __future__ import annotations

import re

import numpy as np

SETUP = """
from mskernel import ops
def _square_np(x):
    return x * x
gm_right = ops.Custom(_square_np, lambda s: s, lambda d: d, func_type="pyfunc",
                      bprop=lambda x, out, dout: (2 * x * dout,))
gm_wrong = ops.Custom(_square_np, lambda s: s, lambda d: d, func_type="pyfunc",
                      bprop=lambda x, out, dout: (x * dout,))  # misses the factor 2
def gm_linear(x):
    return x * 3
"""


def _worst_cells(html: str) -> list:
    """The last cell of each data row of the report's table (the worst-element column)."""
    head = re.findall(r"<th>(.*?)</th>", html)
    assert head[-1] == "worst element", head
    return [re.findall(r"<td[^>]*>(.*?)</td>", row)[-1] for row in re.findall(r"<tr><td>.*?</tr>", html)]


def test_worst_element_column_is_filled(run, shell):
    assert run(SETUP).success
    shell.user_ns["gx"] = np.array([1.0, 2.0, 3.0])

    passed = run("%gradcheck gm_right(gx)")
    assert passed.success and "gradcheck passed" in passed.text()
    (cell,) = _worst_cells(passed.html())
    # a passing check still says which element is furthest off (round-off here), and by how much
    m = re.fullmatch(r"out\[0\]\[(\d)\] / in\[(\d)\]: analytic ([\d.]+) vs numerical ([\d.]+) \(\|diff\| (.+)\)", cell)
    assert m, cell
    assert m.group(1) == m.group(2)  # d(x*x)/dx is diagonal: the worst element is on the diagonal
    k = int(m.group(1))
    assert float(m.group(3)) == float(m.group(4)) == 2 * [1.0, 2.0, 3.0][k]
    assert 0 < float(m.group(5)) < 1e-5

    failed = run("%gradcheck gm_wrong(gx)")
    assert failed.success and "gradcheck FAILED" in failed.text()
    (cell,) = _worst_cells(failed.html())
    assert cell == "out[0][2] / in[2]: analytic 3 vs numerical 6 (|diff| 3)", cell

    # x * 3 with a step of 0.5 on small integers: the central differences are exactly 3, no element differs
    exact = run("%gradcheck --eps 0.5 gm_linear(gx)")
    assert exact.success and "max abs error 0.000e+00" in exact.text(), exact.text()
    assert _worst_cells(exact.html()) == ["none: analytic and numerical are equal in every element"]


def test_a_fast_mode_pass_says_why_there_is_no_worst_element(run, shell):
    assert run(SETUP).success
    shell.user_ns["gbig"] = np.linspace(0.1, 1.0, 80)  # 80 x 80 = 6400 Jacobian entries: fast mode
    ran = run("%gradcheck gm_right(gbig)")
    assert ran.success and "fast mode" in ran.text()
    assert _worst_cells(ran.html()) == ["not computed (fast mode: the random projections agreed)"]
