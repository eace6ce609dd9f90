"""The gradient gate of ``%%custom_op`` in a real IPython shell: a cell with ``--example`` has its op's gradients
checked as it is bound (hybrid kernels in float64, C++ ops in the example's dtype). A mismatch keeps the op bound,
names the failing input in the summary and shows a compact GradCheckView; ``--no-gradcheck`` turns it off; without
``--example`` the summary says how to check by hand. C++ cells build with the real compiler (three modules, from the
build cache on later runs)."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import last_result
from mskernel.widgets import GradCheckView

WIDGET = "application/vnd.jupyter.widget-view+json"

SQUARE = """%%custom_op {name} {opts}
def {name}(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y
"""

# the tutorial's form of a bprop kernel, (x, dout); FACTOR 2.0 is right, 1.0 the classic missing factor 2
SQUARE_WITH_GRAD = SQUARE + """
def {name}_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = {factor} * x[i] * dout[i]
    return dx
"""

EXAMPLE = "--example np.array([0.5, 1.0, 2.0], np.float32)"


def _square(name: str, opts: str = EXAMPLE, factor: str | None = None) -> str:
    if factor is None:
        return SQUARE.format(name=name, opts=opts)
    return SQUARE_WITH_GRAD.format(name=name, opts=f"--bprop {name}_grad {opts}", factor=factor)


def _widgets(ran) -> list:
    return [o for o in ran.outputs if WIDGET in o.data]


def _summary(ran) -> list[str]:
    """The lines of the cell's summary: its last output that is not the view (a C++ build shows progress first)."""
    return [o for o in ran.outputs if WIDGET not in o.data][-1].data["text/plain"].splitlines()


def _x():
    return ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))


# -- hybrid cells ---------------------------------------------------------------------------------------------------
def test_a_right_bprop_kernel_passes_the_gate(run):
    ran = run(_square("gate_ok", factor="2.0"))
    assert ran.success, ran.text()
    lines = _summary(ran)
    assert lines[0].startswith("%%custom_op gate_ok: hybrid kernel, bound gate_ok(x) -> y")
    assert lines[1].startswith("  gradients checked: ok, worst relative error ")  # right after the bound line
    assert "gradients checked: ok" in ran.html()
    result = last_result("gate_ok")
    assert result.grad_check.passed and result.grad_check.names == ["x"] and result.grad_check_note == ""
    assert _widgets(ran) == []  # nothing to look into


def test_a_wrong_bprop_kernel_fails_the_gate_names_the_input_and_keeps_the_op(run, shell):
    ran = run(_square("gate_bad", factor="1.0"))
    assert ran.success, ran.text()  # the cell ran: the op is bound, the gate's finding is shown
    text = ran.text()
    assert ("gradients checked in float64: FAILED for input 0 (x), worst at d out[0][2] / d in[2]: analytic 2 vs "
            "numerical 4" in text)
    assert "[FAIL] input 0 shape [3]" in text  # the per-input lines under it
    assert "gradcheck FAILED" in ran.html() and "#cf222e" in ran.html()  # the report's table, in red
    op = shell.user_ns["gate_bad"]
    np.testing.assert_array_equal(op(_x()).asnumpy(), [1, 4, 9])  # still bound and callable
    assert last_result("gate_bad").value is op and not last_result("gate_bad").grad_check.passed
    # the compact view of that very report, displayed after the summary; nothing ran again
    (shown,) = _widgets(ran)
    assert ran.outputs.index(shown) == len(ran.outputs) - 1
    assert shown.data["text/plain"].startswith("gradcheck FAILED")
    assert "input 0 (x) [3]" in shown.data["text/html"]
    info = run("%custom_op_info gate_bad").text()
    assert "gradients     checked in float64: FAILED for input 0 (x), worst at d out[0][2] / d in[2]" in info


def test_the_view_a_failing_cell_shows_is_the_gates_report(run):
    from magics.custom_op import _gate_view

    assert run(_square("gate_view", factor="1.0")).success
    result = last_result("gate_view")
    view = _gate_view(result)
    assert isinstance(view, GradCheckView) and view.compact and view.runs == 0 and view.report is result.grad_check
    assert "FAILED" in view.badge.value and view.bad_elements() == [(0, 0), (1, 1), (2, 2)]
    assert view.kwargs == {"cast_float64": True}  # a re-run checks in float64, as the gate did
    view.rerun.click()
    assert view.runs == 1 and not view.report and view.report.inputs[0].shape == (3,)


def test_a_derived_backward_is_checked_too(run):
    ran = run(_square("gate_derived"))
    assert ran.success, ran.text()
    assert "gradients checked: ok" in ran.text() and last_result("gate_derived").grad_check.passed


def test_no_gradcheck_runs_no_check_and_says_nothing(run):
    ran = run(_square("gate_off", f"{EXAMPLE} --no-gradcheck", factor="1.0"))
    assert ran.success and "gradients" not in ran.text() and _widgets(ran) == []
    result = last_result("gate_off")
    assert result.grad_check is None and result.grad_check_note == ""
    assert "gradients     not checked (--no-gradcheck)" in run("%custom_op_info gate_off").text()


def test_without_example_the_summary_says_how_to_check(run):
    ran = run(_square("gate_none", ""))
    assert ran.success
    assert _summary(ran)[1] == ("  gradients unchecked (no --example): give --example INPUTS, or run "
                                          "%gradcheck gate_none(x)")
    assert last_result("gate_none").grad_check is None


def test_an_example_the_op_raises_on_could_not_be_checked_and_the_op_stays(run, shell):
    # --debug checks every access: x[i + 1] runs past the end on the last element
    cell = _square("gate_raises", f"{EXAMPLE} --debug --quiet").replace("y[i] = x[i] * x[i]", "y[i] = x[i + 1]")
    ran = run(cell)
    assert ran.success, ran.text()  # --quiet, yet shown: inputs were given and nothing could be checked
    line = _summary(ran)[1]
    assert line.startswith("  gradients could not be checked: IndexError: ") and "x" in line
    assert "gate_raises" in shell.user_ns and last_result("gate_raises").grad_check is None
    assert _widgets(ran) == []
    with pytest.raises(IndexError):
        shell.user_ns["gate_raises"](_x())


def test_quiet_shows_a_failed_gate_and_nothing_when_it_passed(run):
    failed = run(_square("gate_quiet_bad", f"{EXAMPLE} --quiet", factor="1.0"))
    assert failed.success and "gradients checked in float64: FAILED for input 0 (x)" in failed.text()
    assert len(_widgets(failed)) == 1
    passed = run(_square("gate_quiet_ok", f"{EXAMPLE} --quiet", factor="2.0"))
    assert passed.success and passed.outputs == []


def test_help_documents_no_gradcheck(shell):
    doc = " ".join(shell.find_cell_magic("custom_op").__doc__.split())
    assert "--no-gradcheck" in doc and "do not check the op's gradients on the --example inputs" in doc


# -- C++ cells ------------------------------------------------------------------------------------------------------
# x^3 for float32 and float64 inputs, its right backward (3 x^2 dout) and a wrong one (a factor x missing); the
# module binds all three with named parameters, so --forward/--backward pick the pair and the gate names the input
CUBE_CPP = """#include "ms_extension.h"
using mskernel::cpu::DispatchFloating;
using mskernel::cpu::Map;

ms::Tensor cube(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  DispatchFloating(x.data_type(), [&](auto zero) {
    using T = decltype(zero);
    Map<T>([](T a) { return a * a * a; }, out, x);
  });
  return out;
}

ms::Tensor cube_grad(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  ms::Tensor dx(x.data_type(), x.shape());
  DispatchFloating(x.data_type(), [&](auto zero) {
    using T = decltype(zero);
    Map<T>([](T a, T d) { return T(3) * a * a * d; }, dx, x, dout);
  });
  return dx;
}

ms::Tensor cube_grad_wrong(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  ms::Tensor dx(x.data_type(), x.shape());
  DispatchFloating(x.data_type(), [&](auto zero) {
    using T = decltype(zero);
    Map<T>([](T a, T d) { return T(3) * a * d; }, dx, x, dout);
  });
  return dx;
}

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  using pybind11::arg;
  m.def("cube", &cube, arg("x"));
  m.def("cube_grad", &cube_grad, arg("x"), arg("out"), arg("dout"));
  m.def("cube_grad_wrong", &cube_grad_wrong, arg("x"), arg("out"), arg("dout"));
}
"""


def _cube_cell(opts: str) -> str:
    return f"%%custom_op gate_cube {opts}\n{CUBE_CPP}"  # one name: every run after the first loads from the cache


F64 = "--example np.array([0.5, -1.5, 2.0])"
F32 = "--example np.array([0.5, -1.5, 2.0], np.float32)"


def test_cpp_forward_backward_right_backward_passes_in_float64(run, shell):
    ran = run(_cube_cell(f"--forward cube --backward cube_grad {F64}"))
    assert ran.success, ran.text()
    assert "gradients checked: ok" in ran.text()
    report = last_result("gate_cube").grad_check
    assert report.passed and report.names == ["x"]
    assert report.inputs[0].shape == (3,)


# a C++ kernel is checked in its own dtype: float32's step, stencil and tolerances (a float64 eps and rtol would
# fail this right backward by central differences ~5% off)
def test_cpp_forward_backward_right_backward_passes_in_float32(run):
    ran = run(_cube_cell(f"--forward cube --backward cube_grad {F32}"))
    assert ran.success, ran.text()
    assert "gradients checked: ok" in ran.text(), ran.text()


def test_cpp_forward_backward_wrong_backward_fails_and_stays_bound(run, shell):
    ran = run(_cube_cell(f"--forward cube --backward cube_grad_wrong {F64}"))
    assert ran.success, ran.text()
    text = ran.text()
    # x = -1.5: 3 x dout = -4.5 where 3 x^2 = 6.75, the largest of the three errors
    assert _summary(ran)[1] == ("  gradients checked in float64: FAILED for input 0 (x), worst at d out[0][1] / "
                                "d in[1]: analytic -4.5 vs numerical 6.75"), text
    assert len(_widgets(ran)) == 1
    op = shell.user_ns["gate_cube"]
    np.testing.assert_array_equal(op(ms.Tensor(np.array([2.0]))).asnumpy(), [8.0])
    from magics.custom_op import _gate_view

    shown = _gate_view(last_result("gate_cube"))  # it recomputes in the op's own dtype, as the gate checked it
    assert shown.runs == 0 and shown.kwargs == {"cast_float64": False}


def test_cpp_module_of_several_functions_says_which_to_check(run):
    ran = run(_cube_cell(F64))
    assert ran.success, ran.text()
    assert _summary(ran)[1] == ("  gradients unchecked: module gate_cube binds 3 functions (cube, cube_grad, "
                                          "cube_grad_wrong); check one with %gradcheck gate_cube.cube(x)")
    assert last_result("gate_cube").grad_check is None and _widgets(ran) == []


RATIO_CPP = """#include "ms_extension.h"
namespace mindspore::pynative::autograd {
// out = x / y as a Function<T>: it records itself, so the module's one function is differentiable
class GateRatio : public Function<GateRatio> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
    custom::CustomLaunchAclnn("aclnnDiv", {x, y}, {out});
    ctx->SaveForBackward({y, out});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grads) {
    BaseTensorPtrList saved = ctx->GetSavedTensors();
    auto dx = std::make_shared<BaseTensor>(grads[0]->data_type(), grads[0]->shape());
    custom::CustomLaunchAclnn("aclnnDiv", {grads[0], saved[0]}, {dx});
    auto minus_out = std::make_shared<BaseTensor>(saved[1]->data_type(), saved[1]->shape());
    custom::CustomLaunchAclnn("aclnnMuls", {saved[1], MakeValue<double>(-1.0)}, {minus_out});
    auto dy = std::make_shared<BaseTensor>(saved[1]->data_type(), saved[1]->shape());
    custom::CustomLaunchAclnn("aclnnMul", {dx, minus_out}, {dy});
    return {dx, dy};
  }
};
BaseTensorPtr ratio(const BaseTensorPtr &x, const BaseTensorPtr &y) { return GateRatio::Apply(x, y); }
}  // namespace mindspore::pynative::autograd

PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("ratio", &mindspore::pynative::autograd::ratio); }
"""


def test_cpp_module_with_one_function_op_is_checked(run):
    ran = run("%%custom_op gate_ratio --example np.array([3.0, -1.0]), np.array([2.0, 4.0])\n" + RATIO_CPP)
    assert ran.success, ran.text()
    assert "gradients checked: ok" in ran.text(), ran.text()
    report = last_result("gate_ratio").grad_check
    assert report.passed and len(report.inputs) == 2 and report.names == []  # pybind11's arg0, arg1: no names


PLAIN_CPP = """#include "ms_extension.h"
// a plain function: its output is a constant to the engine (nothing records it)
ms::Tensor halve(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  mskernel::cpu::Map<double>([](double a) { return 0.5 * a; }, out, x);
  return out;
}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("halve", &halve); }
"""


def test_cpp_module_whose_function_records_no_gradient_says_so(run, shell):
    ran = run("%%custom_op gate_plain --example np.array([1.0, 2.0])\n" + PLAIN_CPP)
    assert ran.success, ran.text()
    assert _summary(ran)[1] == (
        "  gradients unchecked: gate_plain.halve records no gradient (its output does not require grad: not "
        "differentiable); %gradcheck gate_plain.halve(x) checks one that is")
    assert last_result("gate_plain").grad_check is None
    np.testing.assert_array_equal(shell.user_ns["gate_plain"].halve(ms.Tensor(np.array([4.0]))).asnumpy(), [2.0])


RMS = """%%custom_op {name} --example ms.Tensor(np.linspace(10, 30, 300).astype(np.float16))
def {name}(x):
    y = output_tensor((1,), x.dtype)
    s = 0.0
    for i in range(x.shape[0]):
        s = s + {term}
    y[0] = sqrt(s{scale})
    return y
"""


def test_a_float16_overflow_fails_against_float64_without_a_view(run, shell):
    # right gradients (in float64), but in float16 the sum of squares of 300 values near 20 exceeds 65504
    ran = run(RMS.format(name="gate_rms16", term="x[i] * x[i]", scale=" / x.shape[0]"))
    assert ran.success, ran.text()
    lines = _summary(ran)
    assert lines[1] == "  gradients checked: FAILED in float16 against float64: output 0: inf at [0] where float64 " \
                       "gives " + f"{np.sqrt(np.mean(np.linspace(10, 30, 300) ** 2)):.6g}", lines
    assert "[ok  ] input 0 shape [300]: max abs error" in ran.text()  # the Jacobians agree (300 entries: whole)
    assert _widgets(ran) == []  # nothing wrong in a Jacobian: no view to open
    assert shell.user_ns["gate_rms16"] is last_result("gate_rms16").value
    # each square divided by the count as it is added: every partial sum in range, both dtypes agree
    fixed = run(RMS.format(name="gate_rms16", term="x[i] * x[i] / x.shape[0]", scale=""))
    assert fixed.success and _summary(fixed)[1].endswith("(in float64, and float16 against it)"), fixed.text()
