"""GradCheckView over real gradient checks: passing, wrong bprop, NaN bprop, large inputs, controls."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import Tensor, ops
from mskernel.widgets import GradCheckView
from mskernel.widgets.gradcheck_view import COMPACT_WIDTH
from mskernel.widgets.heatmap import ALARM_COLORS, CALM_COLORS, figure_pixels, panels, ratio_color, worst_elements

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
    # the worst table lists the elements that differ (here only the diagonal can), none over tolerance
    p = panels(view.report.inputs[0], view.report.atol, view.report.rtol)
    assert view.worst.value.count("<tr") == 1 + int((p.abs_diff != 0).sum()) <= 1 + 3
    assert ">over<" not in view.worst.value and "error / tolerance" in view.legend.value
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
    assert html.count("2px solid #dc2626") == 3 * 3  # the bad cells are outlined in all three heatmaps
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


# -- colours relative to the tolerance, size from the data, worst table without exact matches ---------------
def _pixels(png: bytes) -> np.ndarray:
    from PIL import Image
    import io
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def _alarm_pixels(png: bytes) -> int:
    """Pixels painted in one of the alarm colours (the error bands above the tolerance)."""
    rgb = _pixels(png).reshape(-1, 3)
    alarm = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in ALARM_COLORS])
    return int((rgb[:, None, :] == alarm[None, :, :]).all(axis=2).any(axis=1).sum())


def _ratio_cell_colors(static_html: str) -> list:
    """Background colours of the static fallback's error / tolerance table, row by row."""
    import re
    table = static_html.split("<small>error / tolerance</small>")[1].split("</table>")[0]
    return [re.findall(r"background:([^;]+);", row) for row in table.split("<tr>")[1:]]


def test_round_off_on_a_passing_check_is_painted_calm():
    x = Tensor(np.linspace(0.1, 1.2, 12).reshape(3, 4))
    view = GradCheckView(lambda a: ops.sin(a) * a, (x,))
    p = panels(view.report.inputs[0], view.report.atol, view.report.rtol)
    assert view.report.passed and 0 < p.abs_diff.max() < 1e-8  # there is round-off, and it is tiny
    assert {ratio_color(v) for v in p.ratio.flat} == {"#ffffff"}  # far below the tolerance: white
    assert _alarm_pixels(bytes(view.image.value)) == 0
    cells = [c for row in _ratio_cell_colors(view._repr_html_()) for c in row]
    assert len(cells) == 144 and set(cells) <= set(CALM_COLORS)


def test_one_wrong_element_has_the_alarm_colour_and_the_rest_stays_calm():
    scale = Tensor([1.0, 1.5, 1.0])  # the bprop is off by 50 % in element 1 only
    op = _square(lambda x, out, dout: (dout * 2 * x * scale,))
    view = GradCheckView(lambda a: op(a), (Tensor([1.0, 2.0, 3.0]),))
    p = panels(view.report.inputs[0], view.report.atol, view.report.rtol)
    assert view.bad_elements() == [(1, 1)]
    assert ratio_color(p.ratio[1, 1]) in ALARM_COLORS
    assert all(ratio_color(v) in CALM_COLORS for k, v in enumerate(p.ratio.flat) if k != 4)
    assert _alarm_pixels(bytes(view.image.value)) > 100  # the bad element's square (24 x 24 px here)
    colors = _ratio_cell_colors(view._repr_html_())
    assert colors[1][1] in ALARM_COLORS
    assert all(c in CALM_COLORS for i, row in enumerate(colors) for j, c in enumerate(row) if (i, j) != (1, 1))


def test_the_tolerance_scale_follows_the_controls():
    view = GradCheckView(lambda a: WRONG(a), (Tensor([1.0, 2.0]),))
    assert _alarm_pixels(bytes(view.image.value)) > 0
    view.atol.value = 10.0  # the same errors, now well inside the tolerance: calm
    assert view.report.passed and _alarm_pixels(bytes(view.image.value)) == 0


def test_zero_tolerance_fails_any_difference_and_passes_exact_ones():
    view = GradCheckView(lambda a: WRONG(a), (Tensor([1.0, 2.0]),), atol=0.0, rtol=0.0)
    p = panels(view.report.inputs[0], 0.0, 0.0)
    # what is left is the bound on the difference quotient's own rounding (float64: ~1e-10 here)
    assert np.all(view.report.inputs[0].allowance < 1e-8)
    assert p.bad[0, 0] and p.ratio[0, 0] > 1e6 and p.ratio[0, 1] == 0.0  # off-diagonal: both exactly 0
    assert ratio_color(p.ratio[0, 0]) == ALARM_COLORS[-1] and ratio_color(p.ratio[0, 1]) == "#ffffff"


def test_the_worst_table_never_lists_exact_matches():
    # x * 3 with a step of 0.5 on small integers: the central differences are exactly 3
    view = GradCheckView(lambda a: a * 3, (Tensor([1.0, 2.0, 3.0]),), eps=0.5)
    p = panels(view.report.inputs[0], view.report.atol, view.report.rtol)
    assert view.report.passed and p.abs_diff.max() == 0
    assert worst_elements(p) == [] and "<tr" not in view.worst.value
    assert "equal in every element" in view.worst.value
    # with round-off on the diagonal, the exact zeros off it are still left out
    view = GradCheckView(lambda a: ops.sin(a) * a, (Tensor([0.5, 1.0, 2.0]),))
    p = panels(view.report.inputs[0], view.report.atol, view.report.rtol)
    rows = worst_elements(p)
    assert rows and all(d > 0 for _, _, _, d, _, _ in rows) and all(r == c for (r, c), *_ in rows)
    assert len(rows) == int((p.abs_diff != 0).sum())


def test_the_picture_is_sized_from_the_data():
    small = GradCheckView(lambda a: ops.sin(a) * a, (Tensor(np.linspace(0.1, 1.2, 12).reshape(3, 4)),))
    p = panels(small.report.inputs[0], small.report.atol, small.report.rtol)
    height, width = _pixels(bytes(small.image.value)).shape[:2]
    assert (width, height) == figure_pixels(p)
    assert height <= 200 and width <= 600  # a 12 x 12 Jacobian: 12 px per element
    tiny = GradCheckView(lambda a: (a * a).sum(), (Tensor([1.0, 2.0, 3.0]),))  # a 1 x 3 Jacobian
    t_height, t_width = _pixels(bytes(tiny.image.value)).shape[:2]
    assert t_height < 100 and t_width < width
    big = GradCheckView(lambda a: ops.tanh(a), (Tensor(np.linspace(-1, 1, 64)),))  # 64 x 64
    b_height = _pixels(bytes(big.image.value)).shape[0]
    assert height < b_height <= 192 + 60  # grows with the data, up to 192 px per panel


# -- a report passed in (the %%custom_op gradient gate's) and the compact form ---------------------------------
def _gate_report(fn, inputs, names):
    """The gradient gate's report: ``check_bound_op`` (fast mode; a failure keeps both Jacobians)."""
    from mskernel.gradcheck import check_bound_op

    return check_bound_op(fn, inputs, float64=True, names=names)


def test_a_given_report_is_shown_without_running_the_check():
    calls = []

    def fn(a, b):
        calls.append(1)
        return a * 2 + WRONG(b)

    inputs = (Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))
    report = _gate_report(fn, inputs, ["a", "b"])
    assert not report.passed
    ran = len(calls)
    view = GradCheckView(fn, inputs, report=report)
    assert len(calls) == ran and view.runs == 0 and view.report is report  # nothing ran again
    assert "FAILED" in view.badge.value and "not run again" in view.status.value
    assert [o[0] for o in view.input.options] == ["input 0 (a) [2]", "input 1 (b) [2]"]
    assert view.input.value == 1 and view.bad_elements() == [(0, 0), (1, 1)]  # the failing input first
    assert (view.eps.value, view.atol.value, view.rtol.value) == (report.eps, report.atol, report.rtol)
    view.eps.value = 1e-4  # moving a control runs the check
    assert view.runs == 1 and len(calls) > ran and view.report is not report and view.report.eps == 1e-4
    assert not view.report and "check run 1 time" in view.status.value


def test_the_compact_view_is_smaller_and_still_recomputes():
    x = Tensor(np.linspace(0.5, 2.0, 8))
    report = _gate_report(lambda a: WRONG(a), (x,), ["x"])
    full = GradCheckView(lambda a: WRONG(a), (x,), report=report)
    compact = GradCheckView(lambda a: WRONG(a), (x,), report=report, compact=True)
    assert compact.runs == 0 and "FAILED" in compact.badge.value
    assert compact.legend not in compact.children and full.legend in full.children
    assert compact.eps in compact.children[1].children and compact.rerun in compact.children[2].children
    assert int(compact.image.layout.width[:-2]) <= COMPACT_WIDTH < int(full.image.layout.width[:-2])
    assert compact.worst.value.count(">over<") == 4 < full.worst.value.count(">over<") == 8  # the few worst
    assert "mk-gradcheck-compact" in compact._dom_classes
    assert "input 0 (x) [8]" in compact._repr_html_()
    compact.rerun.click()
    assert compact.runs == 1 and not compact.report


def test_a_passing_fast_mode_report_has_no_jacobians_to_draw_until_rerun():
    report = ms.gradcheck(lambda a: RIGHT(a), (Tensor([1.0, 2.0]),), fast_mode=True)
    assert report.passed and report.inputs[0].analytic is None  # fast mode keeps no Jacobians when it passes
    view = GradCheckView(lambda a: RIGHT(a), (Tensor([1.0, 2.0]),), report=report, compact=True)
    assert view.runs == 0 and "PASSED" in view.badge.value and "no Jacobians" in view.status.value
    assert view.bad_elements() == [] and "no Jacobians" in view._repr_html_()
    view.rerun.click()
    assert view.runs == 1 and view.report.passed and bytes(view.image.value).startswith(PNG)


def test_a_report_that_is_not_one_is_refused():
    with pytest.raises(TypeError, match="report must be a GradcheckReport \\(or None to run the check\\), got str"):
        GradCheckView(lambda a: a, (Tensor([1.0]),), report="FAILED")
