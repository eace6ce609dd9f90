"""``%custom_op_export NAME PATH`` in a real IPython shell: it writes the file and shows it; errors are one
UsageError line naming the construct and the cell line."""
from __future__ import annotations

from IPython.core.error import UsageError

CELL = """%%custom_op exp_halve --quiet
def exp_halve(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = exp(x[i] * 0.5)
    return y
"""


def test_export_writes_the_file_and_shows_it(run, shell, tmp_path):
    assert run(CELL).success
    assert run("_ = exp_halve(ms.Tensor(np.ones(3, np.float32)))").success
    ran = run(f"%custom_op_export exp_halve {tmp_path}")
    assert ran.success, ran.text()
    path = tmp_path / "exp_halve.py"
    assert ran.text() == f"%custom_op_export exp_halve: wrote {path}"
    assert "<details><summary><code>" in ran.html() and "def exp_halve_grad(x, y, dy):" in ran.html()
    assert "backward = exp_halve_grad" in path.read_text()
    ran = run(f"%custom_op_export exp_halve {tmp_path / 'f64.py'} --example (np.ones((2,)),)")
    assert ran.success and "DataType.F64_Default" in (tmp_path / "f64.py").read_text()


def test_errors_are_usage_errors_naming_the_construct_and_line(run, tmp_path):
    ran = run(f"%custom_op_export no_such_op {tmp_path}")
    assert isinstance(ran.error, UsageError) and "no 'no_such_op' in the namespace" in str(ran.error)
    assert run(CELL.replace("--quiet", "--quiet --debug").replace("exp_halve", "exp_dbg")).success
    ran = run(f"%custom_op_export exp_dbg {tmp_path} --example (np.ones(2),)")
    assert isinstance(ran.error, UsageError)
    assert "%custom_op_export exp_dbg: exp_dbg: --debug does not carry over to MindSpore" in str(ran.error)
    assert 'File "<cell exp_dbg>", line 1' in str(ran.error)
