"""``%%custom_op --check`` in a real IPython shell: the op is bound, then run once in a checked build on the
``--example`` inputs; the findings show in the cell's output and in ``%custom_op_info``; errors name the option."""
from __future__ import annotations

RACY = '''%%custom_op racy_sum --check --example "np.arange(4, dtype=np.float32)"
def racy_sum(x):
    y = output_tensor((1,), x.dtype)
    for i in parallel(x.shape[0]):
        y[0] = y[0] + x[i]
    return y
'''


def test_check_shows_the_findings_at_the_cells_lines_and_keeps_the_op_bound(shell, run):
    ran = run(RACY)
    assert ran.success, ran.error
    text = ran.text()
    assert "check_kernel(racy_sum): 2 findings" in text
    assert "race at <cell racy_sum>:5: y[0] is written by iteration i=0 (line 5) and read by iteration i=1" in text
    assert "uninitialised-read at <cell racy_sum>:5" in text
    assert "check_kernel(racy_sum): 2 findings" in ran.html() and "<table" in ran.html()
    assert shell.user_ns["racy_sum"](shell.user_ns["ms"].Tensor([1.0, 2.0])).asnumpy().tolist() == [3.0]
    info = run("%custom_op_info racy_sum")
    assert "last check    2 findings" in info.text()
    assert "race at <cell racy_sum>:5" in info.text()


def test_a_later_check_kernel_call_is_what_custom_op_info_shows(shell, run):
    fixed = RACY.replace("--check --example \"np.arange(4, dtype=np.float32)\"", "").replace(
        "racy_sum", "fixed_sum").replace("parallel", "reduce")
    assert run(fixed).success
    assert "last check" not in run("%custom_op_info fixed_sum").text()
    check = run("ms.check_kernel(fixed_sum, np.ones(3, np.float32))")
    assert check.success and "uninitialised-read" in check.stdout and "race" not in check.stdout
    assert "uninitialised-read at <cell fixed_sum>:5" in run("%custom_op_info fixed_sum").text()


def test_check_without_example_is_refused_naming_the_option(run):
    ran = run(RACY.replace(' --example "np.arange(4, dtype=np.float32)"', "").replace("racy_sum", "no_example"))
    assert not ran.success
    assert "--check needs --example" in str(ran.error)


def test_check_options_on_a_cpp_cell_name_what_is_missing():
    import pytest

    from mskernel.cells import CellOptions

    assert CellOptions(example="(x,)").check("cpp").example == "(x,)"  # alone: the inputs of the gradient gate
    with pytest.raises(ValueError, match="--check on a C\\+\\+ cell needs --forward/--backward"):
        CellOptions(example="(x,)", check_kernel=True).check("cpp")
    opts = CellOptions(example="(x,)", check_kernel=True, forward="f", backward="b").check("cpp")
    assert opts.check_kernel and "check_kernel" not in opts.key_items()


CPP = ('''%%custom_op kc_magic_cpp --forward twice --backward twice_bw --check '''
       '''--example "ms.Tensor(np.ones(600, np.float32))"
#include "ms_extension.h"
ms::Tensor twice(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  for (size_t i = 0; i <= x.numel(); ++i) y.data_ptr<float>()[i] = 2.0f * x.data_ptr<float>()[i];
  return y;
}
ms::Tensor twice_bw(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) { return dout; }
''')


def test_check_on_a_cpp_cell_reports_the_memory_error_at_the_cells_line(shell, run):
    ran = run(CPP)
    assert ran.success, ran.error
    text = ran.text()
    assert "check_kernel(kc_magic_cpp" in text and "address at <cell kc_magic_cpp>:5: heap-buffer-overflow" in text
    assert "kc_magic_cpp" in shell.user_ns  # bound: the user debugs the op they have
    # the gradient gate does not run an op with memory errors unchecked (it could corrupt the process)
    assert "gradients unchecked: --check found memory errors in the op" in text
    assert "address at <cell kc_magic_cpp>:5" in run("%custom_op_info kc_magic_cpp").text()


def test_quiet_still_shows_what_the_check_found(run):
    quiet = RACY.replace("racy_sum", "quiet_sum").replace("--check", "--check --quiet")
    assert "race at <cell quiet_sum>:5" in run(quiet).text()
    clean = quiet.replace("quiet_sum", "quiet_clean").replace("y[0] = y[0] + x[i]", "y[0] = x[0]").replace(
        "parallel(x.shape[0])", "range(1)")
    ran = run(clean)
    assert ran.success and ran.text() == ""  # all is well: nothing shown
