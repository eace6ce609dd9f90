"""GradCheckView over real gradient checks: passing, wrong bprop, NaN bprop, large inputs, controls."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import Tensor, ops
from mskernel.widgets import GradCheckView

PNG = b"\x89PNG\r\n\x1a\n"


def _square(bprop):
    return ops.Custom(lambda x: x * x, lambda s: s, lambda d: d, func_type="pyfunc", bprop=bprop)


RIGHT = _square(lambda x, out, dout: (dout * 2 * x,))
WRONG = _square(lambda x, out, dout: (dout * x,))  # the classic missing factor 2
NAN = _square(lambda x, out, dout: (dout * float("nan"),))


def test_passing_check_builds_all_parts():
    view = GradCheckView(lambda a: ops.sin(a) * a, (Tensor([0.5, 1.0, 2.0]),))
    assert view.report.passed and view.runs == 1
    assert "PASSED" in view.badge.value and "FAILED" not in view.badge.value
    assert view.children[0] is view.badge and view.image in view.children and view.worst in view.children
    assert bytes(view.image.value).startswith(PNG) and len(view.image.value) > 2000
    assert view.worst.value.count("<tr") == 1 + 8 and ">over<" not in view.worst.value
    assert "Jacobian 3×3, 0 elements over tolerance" in view.status.value
    assert view.bad_elements() == []


def test_wrong_bprop_is_located_element_by_element():
    x = Tensor([1.0, 2.0, 3.0])
    view = GradCheckView(lambda a: WRONG(a), (x,))
    assert not view.report and "FAILED" in view.badge.value
    assert view.bad_elements() == [(0, 0), (1, 1), (2, 2)]  # the diagonal, where d(x*x)/dx lives
    assert view.worst.value.count(">over<") == 3
    rows = view.worst.value.split("<tr")[2:5]
    assert "(2, 2)</td><td>3</td><td>6</td>" in rows[0]  # worst first: analytic 3 vs numerical 6
    assert "3 elements over tolerance" in view.status.value
    html = view._repr_html_()
    assert html.count("2px solid #dc2626") == 3 * 4  # the bad cells are outlined in all four heatmaps
    assert "FAIL" in html and str(view.report) == view._repr_mimebundle_()["text/plain"]


def test_eps_slider_recomputes_the_check():
    view = GradCheckView(lambda a: ops.exp(a * 3), (Tensor([0.5, 1.0]),))
    first = view.report
    old_png = view.image.value
    view.eps.value = 1e-1  # as if the slider was moved
    assert view.runs == 2 and view.report is not first and view.report.eps == pytest.approx(1e-1)
    # a larger step makes the central difference visibly worse: the check now fails, and the picture changed
    assert view.report.inputs[0].max_abs_error > 100 * first.inputs[0].max_abs_error
    assert not view.report and "FAILED" in view.badge.value and bytes(view.image.value) != bytes(old_png)
    view.atol.value = 1.0  # loosening the tolerance recomputes too
    assert view.runs == 3 and view.report.atol == 1.0 and view.report.passed


def test_bad_control_values_keep_the_previous_report():
    view = GradCheckView(lambda a: a * a, (Tensor([1.0]),))
    report = view.report
    view.atol.value = -1.0
    assert view.report is report and view.runs == 1
    assert "atol must be a finite number &gt;= 0, got -1.0" in view.status.value
    assert view.error == "ValueError: GradCheckView: atol must be a finite number >= 0, got -1.0."


def test_rerun_button_picks_up_an_edited_op():
    state = {"op": WRONG}
    view = GradCheckView(lambda a: state["op"](a), (Tensor([1.0, -2.0]),))
    assert not view.report
    state["op"] = RIGHT  # the user fixes the bprop and presses re-run
    view.rerun.click()
    assert view.runs == 2 and view.report.passed and "PASSED" in view.badge.value


def test_nan_gradient_is_flagged():
    view = GradCheckView(lambda a: NAN(a), (Tensor([1.0, 2.0]),))
    assert not view.report and np.isnan(view.report.inputs[0].max_abs_error)
    assert len(view.bad_elements()) == 4  # NaN everywhere is over tolerance
    assert "nan" in view.worst.value
    assert "#ff00ff" in view._repr_html_()  # NaN cells drawn magenta in the static heatmaps


def test_input_selector_switches_panels():
    view = GradCheckView(lambda a, b: WRONG(a) * b, (Tensor([1.0, 2.0]), Tensor([3.0, 4.0])))
    assert [o[0] for o in view.input.options] == ["input 0 [2]", "input 1 [2]"]
    assert view.input.value == 0 and view.bad_elements() == [(0, 0), (1, 1)]
    view.input.value = 1
    assert view.bad_elements() == [] and "input 1" in view.status.value and view.runs == 1


def test_large_inputs_show_gradients_in_the_input_shape():
    x = Tensor(np.linspace(-1, 1, 80 * 60).reshape(80, 60))
    view = GradCheckView(lambda a: ops.tanh(a), (x,), max_entries=1000)
    assert "gradient of sum(outputs) 80×60" in view.status.value
    assert view.report.passed


def test_constructor_errors_name_the_argument():
    with pytest.raises(ValueError, match="eps must be a finite number > 0, got 0"):
        GradCheckView(lambda a: a, (Tensor([1.0]),), eps=0)
    with pytest.raises(ValueError, match="rtol must be a finite number >= 0, got nan"):
        GradCheckView(lambda a: a, (Tensor([1.0]),), rtol=float("nan"))
    with pytest.raises(TypeError, match="fn must be callable, got int"):
        GradCheckView(3, (Tensor([1.0]),))
    with pytest.raises(TypeError, match="raise_exception is set by the view"):
        GradCheckView(lambda a: a, (Tensor([1.0]),), raise_exception=True)


def test_gradcheck_counts_nan_as_a_mismatch_in_both_modes():
    """The gradcheck extension this view relies on: NaN/Inf gradients fail instead of passing silently."""
    report = ms.gradcheck(lambda a: NAN(a), (Tensor([1.0, 2.0]),), raise_exception=False)
    assert not report and report.inputs[0].worst_input == (0,)
    with pytest.raises(ms.GradcheckError):
        ms.gradcheck(lambda a: NAN(a), (Tensor(np.ones(100)),), fast_mode=True)


def test_module_import_does_not_load_widgets():
    import subprocess
    import sys
    code = "import sys, mskernel; print('ipywidgets' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert out.stdout.split() == ["False", "False"], out.stderr
    assert ms.GradCheckView is GradCheckView


def test_an_op_that_raises_on_rerun_keeps_the_last_report_and_shows_the_error():
    state = {"op": RIGHT}
    view = GradCheckView(lambda a: state["op"](a), (Tensor([1.0, 2.0]),))
    report, png = view.report, bytes(view.image.value)

    def broken(a):
        raise RuntimeError("kernel exploded")
    state["op"] = broken
    view.rerun.click()
    assert view.report is report and bytes(view.image.value) == png and "PASSED" in view.badge.value
    assert view.error == "RuntimeError: kernel exploded" and "kernel exploded" in view.status.value
    with pytest.raises(RuntimeError, match="kernel exploded"):  # at construction the error propagates
        GradCheckView(broken, (Tensor([1.0]),))
