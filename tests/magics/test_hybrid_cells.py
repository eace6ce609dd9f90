"""%%custom_op with hybrid-DSL cells, driven through a real IPython shell."""
from __future__ import annotations

import html

import numpy as np
import pytest

import mskernel as ms

SQUARE = """%%custom_op {name} {opts}
def {name}(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y
"""

# the tutorial's form: an akg bprop kernel taking (x, dout)
SQUARE_WITH_GRAD = SQUARE + """
def {name}_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 2.0 * x[i] * dout[i]
    return dx
"""


def _x():
    return ms.Tensor(np.array([1.0, 4.0, 9.0], np.float32))


def test_bprop_kernel_of_the_cell_gives_gradients_and_a_quiet_summary(run, shell):
    ran = run(SQUARE_WITH_GRAD.format(name="hsq", opts="--bprop hsq_grad"))
    assert ran.success, ran.stdout
    assert ran.stderr == "" and ran.stdout == ""
    assert "hybrid kernel, bound hsq(x) -> y" in ran.text()
    assert "<code>hsq(x) -&gt; y</code>" in ran.html()
    op = shell.user_ns["hsq"]
    assert isinstance(op, ms.ops.Custom)
    np.testing.assert_array_equal(op(_x()).asnumpy(), [1, 16, 81])
    np.testing.assert_array_equal(ms.grad(op)(_x()).asnumpy(), [2, 8, 18])
    # the cell's kernels stay callable as Python on numpy arrays
    np.testing.assert_array_equal(shell.user_ns["hsq_grad"](np.ones(2, np.float32), np.ones(2, np.float32)), [2, 2])


def test_bprop_kernel_taking_out_and_dout(run, shell):
    cell = SQUARE.format(name="hsq3", opts="--bprop g3") + """
def g3(x, out, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 2.0 * out[i] / x[i] * dout[i]
    return dx
"""
    assert run(cell).success
    np.testing.assert_allclose(ms.grad(shell.user_ns["hsq3"])(_x()).asnumpy(), [2, 8, 18])


def test_python_bprop_from_the_namespace_sees_earlier_cells(run, shell):
    assert run("FACTOR = 2.0\ndef py_bprop(x, out, dout):\n    return (FACTOR * x * dout,)").success
    assert run(SQUARE.format(name="hsq_py", opts="--bprop py_bprop")).success
    np.testing.assert_array_equal(ms.grad(shell.user_ns["hsq_py"])(_x()).asnumpy(), [2, 8, 18])


def test_cell_code_runs_in_the_user_namespace(run, shell):
    assert run("SHIFT = 10.0").success
    cell = SQUARE.format(name="hshift", opts="") + "\nSHIFTED = SHIFT + 1\n"
    assert run(cell).success
    assert shell.user_ns["SHIFTED"] == 11.0


def test_no_bprop_the_backward_is_derived_from_the_cell(run, shell):
    assert run(SQUARE.format(name="hnob", opts="")).success
    op = shell.user_ns["hnob"]
    np.testing.assert_array_equal(ms.grad(lambda x: op(x).sum())(_x()).asnumpy(), [2.0, 8.0, 18.0])
    assert op.backward_source(_x()).startswith("def hnob_grad(x, y, dy):")


def test_rerun_of_an_edited_cell_replaces_the_op(run, shell):
    assert run(SQUARE.format(name="hedit", opts="")).success
    first = shell.user_ns["hedit"]
    assert run(SQUARE.format(name="hedit", opts="").replace("x[i] * x[i]", "x[i] + x[i]")).success
    assert shell.user_ns["hedit"] is not first
    np.testing.assert_array_equal(shell.user_ns["hedit"](_x()).asnumpy(), [2, 8, 18])


def test_dsl_error_points_at_the_cell_line_and_keeps_the_previous_op(run, shell):
    assert run(SQUARE.format(name="hkeep", opts="")).success
    good = shell.user_ns["hkeep"]
    ran = run(SQUARE.format(name="hkeep", opts="").replace("x[i] * x[i]", "x[i] * z[i]"))
    assert not ran.success
    assert type(ran.error).__name__ == "CustomOpError"
    text = ran.text()
    assert "z is not defined in the kernel (cell line 5)" in text
    assert ">    5 |         y[i] = x[i] * z[i]" in text
    assert "hkeep is still the op of its last successful run" in text
    assert "background:#fdd" in ran.html()  # the offending line is marked in HTML too
    assert "Traceback" not in ran.stdout and "mskernel/" not in ran.stdout  # one line, no traceback
    assert "(%tb shows the traceback)" in ran.stdout
    assert shell.user_ns["hkeep"] is good
    tb = run("%tb")
    assert "Traceback" in tb.stdout or "CustomOpError" in tb.stdout
    assert "run_cell" in tb.stdout  # the full traceback, into mskernel.cells


def _marked(text: str) -> tuple[str, str]:
    """The offending cell line (marked ``>``) and the caret line under it."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(">"))
    return lines[at], lines[at + 1]


@pytest.mark.parametrize("body, token, reason, allowed", [
    ("y[i] = sqrtt(x[i])", "sqrtt", "sqrtt is not an intrinsic of the DSL (did you mean sqrt?) (cell line 5)",
     "a kernel can call: math sqrt, rsqrt"),
    ("y[i] = power(x[i])", "power", "power takes 2 arguments, but got 1: write power(x, y) (cell line 5)", None),
    ("assert x[i] > 0", "assert", "an assert statement is not a statement of the DSL (cell line 5)",
     "a kernel's body may hold: v = e, t[i, j] = e"),
])
def test_dsl_error_is_shown_once_with_its_line_caret_and_alternatives(run, shell, body, token, reason, allowed):
    ran = run(SQUARE.format(name="honce", opts="").replace("y[i] = x[i] * x[i]", body))
    assert not ran.success and "honce" not in shell.user_ns
    everything = "\n".join([ran.text(), ran.stdout, ran.stderr])
    assert everything.count(reason) == 1, everything  # the error box only; the traceback line does not repeat it
    assert ran.html().count(reason.rsplit(" (cell line", 1)[0]) == 1
    line, caret = _marked(ran.text())
    assert line == f">    5 |         {body}"
    assert caret.index("^") == line.index(token) and caret.strip() == "^"
    if allowed is not None:
        assert everything.count(allowed) == 1 and html.escape(allowed) in ran.html()
    assert "mindspore.cn" not in everything and "Hybrid DSL!" not in everything
    assert "CustomOpError: the cell failed; its error is shown above (%tb shows the traceback)" in ran.stdout


def _public(ns: dict) -> dict:
    return {k: v for k, v in ns.items() if not k.startswith("_")}  # IPython's own _i, _ii, ... move on


@pytest.mark.parametrize("extra, opts", [
    ("HATOM_A = 1\ndef hatom_helper():\n    return 0\n", '--out-shape "5"'),  # ops.Custom rejects out_shape
    ("HATOM_B = 1\nHATOM_OLD = 2\n1 / 0\n", ""),  # the cell's own statements fail half-way
    ("HATOM_C = 1\n", '--example "(np.ones(3, np.float32), np.ones(3, np.int32))"'),  # a dtype error
])
def test_a_failing_cell_binds_nothing_and_the_old_op_still_works(run, shell, extra, opts):
    new_name = extra.split(" = ")[0]
    cell = SQUARE.format(name="hatom", opts="").replace("def hatom(x):", "def hatom(x, w):").replace(
        "x[i] * x[i]", "x[i] * w[i]")
    assert run(cell).success
    shell.user_ns["HATOM_OLD"] = 1
    before = _public(shell.user_ns)
    assert new_name not in before and "hatom_helper" not in before
    ran = run(cell.replace("%%custom_op hatom ", f"%%custom_op hatom {opts}") + extra)
    assert not ran.success
    after = _public(shell.user_ns)
    assert after.keys() == before.keys() and all(after[k] is v for k, v in before.items())
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_array_equal(shell.user_ns["hatom"](x, x).asnumpy(), [1, 4, 9])


def test_the_op_runs_the_kernel_compiled_for_the_example_and_force_builds_it_again(run, shell):
    from mskernel.cells import last_result
    from mskernel.hybrid.compiler import clear_memory_cache

    shell.user_ns["xex"] = np.arange(3, dtype=np.float32)
    # (--no-gradcheck: the gradient gate would compile the float64 signature too; this test counts compiles)
    example = '--example "(xex,)" --no-gradcheck'
    assert run(SQUARE.format(name="hexm", opts=example)).success
    hk = last_result("hexm").kernels["hexm"]
    assert hk.compile_count == 1
    op = shell.user_ns["hexm"]
    np.testing.assert_array_equal(op(ms.Tensor(np.arange(3, dtype=np.float32))).asnumpy(), [0, 1, 4])
    assert hk.compile_count == 1  # the op ran the kernel compiled for the example
    op(ms.Tensor(np.arange(3.0)))
    assert hk.compile_count == 2  # a new signature, compiled by that same kernel
    clear_memory_cache()
    assert "loaded from the cache" in run(SQUARE.format(name="hexm", opts=example)).text()
    forced = run(SQUARE.format(name="hexm", opts=example + " --force"))
    assert forced.success and "built" in forced.text() and "loaded from the cache" not in forced.text()
    # without --example, the first call builds afresh
    assert run(SQUARE.format(name="hexm", opts="--force")).success
    hk = last_result("hexm").kernels["hexm"]
    shell.user_ns["hexm"](ms.Tensor(np.arange(3, dtype=np.float32)))
    assert hk.compile_count == 1 and not hk.compile([shell.user_ns["xex"]]).cached


def test_a_new_name_failing_stays_undefined(run, shell):
    ran = run(SQUARE.format(name="hnever", opts="").replace("return y", "return q"))
    assert not ran.success
    assert "hnever" not in shell.user_ns
    assert "hnever was not defined and still is not" in ran.text()


def test_syntax_error_points_at_the_cell_line(run):
    ran = run("%%custom_op hsyn\ndef hsyn(x):\n    y = output_tensor(x.shape, x.dtype)\n    y[0] = = 1\n    return y\n")
    assert not ran.success
    assert "invalid Python syntax" in ran.text() and "(cell line 4)" in ran.text()


def test_out_shape_out_dtype_and_example_with_show_source(run, shell):
    shell.user_ns["xe"] = np.arange(3, dtype=np.float32)
    opts = '--out-shape "lambda x: x" --out-dtype "lambda x: x" --example "(xe,)" --show-source'
    ran = run(SQUARE.format(name="hopts", opts=opts))
    assert ran.success, ran.text()
    assert "generated C++" in ran.html() and "mskh_kernel_contig" in ran.text()
    np.testing.assert_array_equal(shell.user_ns["hopts"](ms.Tensor(np.arange(3, dtype=np.float32))).asnumpy(),
                                  [0, 1, 4])
    wrong = run(SQUARE.format(name="hopts2", opts='--out-shape "lambda x: [7]" --out-dtype "lambda x: x"'))
    assert wrong.success  # the specs are checked against the kernel at the first call
    with pytest.raises(ValueError, match=r"out_shape/out_dtype describe outputs \[\[7\] float32\]"):
        shell.user_ns["hopts2"](ms.Tensor(np.arange(3, dtype=np.float32)))
    bad = run(SQUARE.format(name="hopts3", opts='--out-shape "lambda x: nope"').replace("lambda x: nope", "1/0"))
    assert not bad.success and "--out-shape '1/0' could not be evaluated: ZeroDivisionError" in bad.text()


def test_debug_checks_bounds(run, shell):
    cell = SQUARE.format(name="hdbg", opts="--debug").replace("y[i] = x[i] * x[i]", "y[i] = x[i + 1]")
    assert run(cell).success
    with pytest.raises(IndexError, match="x"):
        shell.user_ns["hdbg"](_x())


def test_quiet_force_backend_and_lang(run, shell):
    ran = run(SQUARE.format(name="hq", opts="--quiet --force"))
    assert ran.success and ran.outputs == [] and ran.stdout == "" and ran.stderr == ""
    gpu = run(SQUARE.format(name="hgpu", opts="--backend GPU --verbose"))
    assert gpu.success and "backend 'GPU' is not available here: the op runs on the CPU" in gpu.text()
    # a comment mentioning Function<T> would make the cell look like C++: --lang settles it
    shown = run(SQUARE.format(name="hsrc", opts="--show-source"))
    assert "for float32 inputs of rank 1 (give --example" in shown.text() and "hsrc" in shown.text()
    cell = SQUARE.format(name="hlang", opts="--lang hybrid") + "# not a C++ Function<T>\n"
    assert run(cell).success and "hybrid kernel" in run(cell).text()


@pytest.mark.parametrize("opts, message", [
    ("--backend TPU", "--backend must be one of CPU, GPU, Ascend, but got 'TPU'"),
    ("--forward f --backward g", "--forward applies to C++ cells"),
    ("-c=-O3", "--cflags applies to C++ cells"),
    ("--bprop missing_fn", "--bprop missing_fn: no function 'missing_fn' in the cell or the namespace"),
    ("--bprop 1x", "--bprop must name a function"),
])
def test_bad_options_are_named(run, shell, opts, message):
    ran = run(SQUARE.format(name="hbad", opts=opts))
    assert not ran.success
    assert message in ran.text()
    assert "hbad" not in shell.user_ns


def test_bad_bprop_kernel_arity(run):
    cell = SQUARE.format(name="har", opts="--bprop gbad") + """
def gbad(x):
    dx = output_tensor(x.shape, x.dtype)
    return dx
"""
    ran = run(cell)
    assert not ran.success and "must take the 1 inputs of har then (out, dout) or (dout)" in ran.text()


def test_usage_errors(run):
    assert "UsageError" in run("%%custom_op\ndef f(x):\n    return x\n").stderr
    ran = run("%%custom_op 2bad\ndef f(x):\n    return x\n")
    assert "NAME must be a Python identifier" in ran.text()
    assert "no kernel" in run("%%custom_op nok\nA = 1\n").text()
    two = "%%custom_op both\ndef a(x):\n    y = output_tensor(x.shape, x.dtype)\n    return y\n" \
          "def b(x):\n    y = output_tensor(x.shape, x.dtype)\n    return y\n"
    assert "several kernels (a, b)" in run(two).text()


def test_help_documents_the_options(shell):
    doc = shell.find_cell_magic("custom_op").__doc__
    for opt in ("--lang", "--backend", "--cflags", "--ldflags", "-I", "--out-shape", "--out-dtype", "--debug",
                "--force", "--verbose", "--show-source", "--quiet", "--bprop", "--forward", "--backward"):
        assert opt in doc


def test_info_and_gradcheck_magics(run, shell):
    assert run(SQUARE_WITH_GRAD.format(name="hinfo", opts="--bprop hinfo_grad")).success
    info = run("%custom_op_info hinfo")
    assert info.success
    assert "ops.Custom (func_type 'hybrid')" in info.text() and "hinfo(x) -> y" in info.text()
    assert "bprop" in info.text() and "mskh_kernel" in info.text()
    assert "UsageError" in run("%custom_op_info not_an_op").stderr
    shell.user_ns["xg"] = np.array([1.0, 2.0, 3.0])
    ran = run("%gradcheck hinfo(xg)")
    assert ran.success and "gradcheck passed" in ran.text() and "<" in ran.html()
    bad = run(SQUARE.format(name="hwrong", opts="--bprop wrong_bp"))  # noqa: F841 - needs wrong_bp first
    assert run("def wrong_bp(x, out, dout):\n    return (3.0 * x * dout,)").success
    assert run(SQUARE.format(name="hwrong", opts="--bprop wrong_bp")).success
    failed = run("%gradcheck hwrong(xg)")
    assert "gradcheck FAILED" in failed.text()
    assert "UsageError" in run("%gradcheck hwrong").stderr


def test_load_ext_magics_registers_too():
    from IPython.core.interactiveshell import InteractiveShell

    import magics

    sh = InteractiveShell.instance()
    magics.load_ipython_extension(sh)
    assert sh.find_line_magic("gradcheck") is not None and sh.find_line_magic("custom_op_info") is not None


def test_reg_info_of_a_decorated_kernel_is_used_and_shown(run, shell):
    cell = '''%%custom_op hreg
from mskernel.ops import CustomRegOp, DataType, kernel
hreg_info = CustomRegOp().input(0, "x").output(0, "y").dtype_format(DataType.F32_Default, DataType.F32_Default) \\
    .target("CPU").get_op_info()

@kernel(reg_info=hreg_info)
def hreg(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] + 1.0
    return y
'''
    assert run(cell).success
    op = shell.user_ns["hreg"]
    np.testing.assert_array_equal(op(_x()).asnumpy(), [2, 5, 10])
    with pytest.raises(TypeError, match="unsupported data types"):
        op(ms.Tensor(np.array([1.0])))  # float64 is not registered
    info = run("%custom_op_info hreg").text()
    assert "['float32'] -> ['float32']" in info and "'target': 'CPU'" in info
    assert run(SQUARE.format(name="hnoreg", opts="")).success
    plain = run("%custom_op_info hnoreg").text()
    assert "none (dtypes follow the inputs)" in plain and "dtype rows" in plain
