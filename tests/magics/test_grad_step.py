"""The gradient gate without IPython: ``run_cell`` checks a cell's op on its ``--example`` as it binds it
(:mod:`mskernel.cells.grad_step`), the result's text and HTML show it, ``--no-gradcheck`` is an option that changes
nothing built. The C++ module rules are driven here with Python modules standing in for built ones (the real
builds are in test_gradient_gate.py)."""
from __future__ import annotations

import types

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import CellOptions, CellResult, ForwardBackwardOp, cell_key, run_cell
from mskernel.cells.grad_step import gate_call, run_gradcheck
from mskernel.kernelcheck import Finding, KernelCheck

CODE = """def {name}(x, w):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * w[i]
    return y
def {name}_grad(x, w, dout):
    dx = output_tensor(x.shape, x.dtype)
    dw = output_tensor(w.shape, w.dtype)
    for i in range(x.shape[0]):
        dx[i] = {factor} * x[i] * w[i] * dout[i]
        dw[i] = x[i] * x[i] * dout[i]
    return dx, dw
"""
EXAMPLE = "(np.array([1.0, 2.0], np.float32), np.array([3.0, -1.0], np.float32))"


def _run(name: str, factor: str = "2.0", **options):
    ns = {"np": np}
    result = run_cell(name, CODE.format(name=name, factor=factor), CellOptions(bprop=f"{name}_grad", **options), ns,
                      first_line=2)
    return result, ns


def test_the_option_parses_and_changes_nothing_built():
    from IPython.core.magic_arguments import parse_argstring

    from magics.custom_op import CustomOpMagics

    assert CellOptions().gradcheck is True
    opts = CellOptions.from_parsed(parse_argstring(CustomOpMagics.custom_op, "op --no-gradcheck"))
    assert opts == CellOptions(gradcheck=False)
    assert "gradcheck" not in opts.key_items() and cell_key("x", opts) == cell_key("x", CellOptions())


def test_a_right_bprop_passes_in_float64_and_the_line_follows_the_bound_line():
    result, _ = _run("gs_right", example=EXAMPLE)
    report = result.grad_check
    assert report.passed and report.names == ["x", "w"] and len(report.inputs) == 2
    lines = str(result).splitlines()
    assert lines[0].startswith("%%custom_op gs_right: hybrid kernel, bound gs_right(x, w) -> y")
    assert lines[1] == f"  {report.summary()}" and lines[2].startswith("  note: bprop")
    assert report.summary() in result._repr_html_() and "#4a4" in result._repr_html_()  # calm: no table
    assert "gradcheck passed" not in result._repr_html_()


def test_a_wrong_bprop_fails_names_the_input_and_leaves_the_op_bound():
    result, ns = _run("gs_wrong", factor="1.0", example=EXAMPLE)
    report = result.grad_check
    assert not report.passed and report.worst.index == 0 and result.grad_check_failed
    lines = str(result).splitlines()
    # x w where 2 x w is right: 3 vs 6 at x=1, w=3 (and -2 vs -4 at x=2, w=-1)
    assert lines[1] == ("  gradients checked in float64: FAILED for input 0 (x), worst at d out[0][0] / d in[0]: "
                        "analytic 3 vs numerical 6")
    assert lines[2:4] == ["  " + line for line in str(report).splitlines()[1:3]]  # the per-input lines
    page = result._repr_html_()
    assert report._repr_html_() in page and "border-left:4px solid #cf222e" in page
    assert ns["gs_wrong"] is result.value  # bound: the user debugs the op they have
    x, w = ms.Tensor(np.array([2.0], np.float32)), ms.Tensor(np.array([3.0], np.float32))
    np.testing.assert_array_equal(result.value(x, w).asnumpy(), [12.0])
    assert result.info()["gradients"].startswith("checked in float64: FAILED for input 0 (x)")


def test_the_gate_does_not_call_the_bound_op_so_an_export_still_goes_by_the_cells_example(tmp_path):
    from mskernel.mindspore_export import export_mindspore

    result, ns = _run("gs_sig", example=EXAMPLE)
    op = ns["gs_sig"]
    assert result.grad_check.passed and op.signatures_used() == []  # the float64 calls went to a twin of the op
    assert gate_call(result).fn is not op and gate_call(result).fn.hybrid_kernel is op.hybrid_kernel
    text = export_mindspore(op, tmp_path / "gs_sig.py").read_text()  # specialised to the cell's float32 example
    assert "float32" in text and "float64" not in text


def test_no_example_and_no_gradcheck():
    result, _ = _run("gs_none")
    assert result.grad_check is None and not result.grad_check_failed
    assert result.grad_check_note == ("gradients unchecked (no --example): give --example INPUTS, or run "
                                      "%gradcheck gs_none(x, w)")
    assert str(result).splitlines()[1] == "  " + result.grad_check_note
    off, _ = _run("gs_off", factor="1.0", example=EXAMPLE, gradcheck=False)
    assert off.grad_check is None and off.grad_check_note == "" and "gradients" not in str(off)
    assert off.info()["gradients"] == "not checked (--no-gradcheck)"


def test_an_op_raising_on_its_example_is_one_line_and_never_propagates():
    def explode(x, out, dout):
        raise RuntimeError("bprop exploded\nsecond line of the message")

    code = "def gs_boom(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n" \
           "        y[i] = x[i]\n    return y\n"
    ns = {"np": np, "explode": explode}
    result = run_cell("gs_boom", code, CellOptions(bprop="explode", example="np.ones(2)"), ns)
    assert result.grad_check is None and result.grad_check_failed
    assert result.grad_check_note == "gradients could not be checked: RuntimeError: bprop exploded"
    assert ns["gs_boom"] is result.value
    assert "gradients could not be checked: RuntimeError: bprop exploded" in result._repr_html_()


def test_a_cell_result_built_elsewhere_shows_no_gradient_line():
    r = CellResult("m", "cpp", None, [("m", "module m")], cached=True, seconds=0.0, key="0" * 64)
    assert r.grad_check_line == "" and str(r).count("\n") == 0 and "gradients" not in r.info()


# -- C++ cells: the rules, with Python stand-ins for built modules and ops --------------------------------------------
def _cpp(value, example=None) -> CellResult:
    return CellResult("mod", "cpp", value, [("mod", "module mod")], cached=True, seconds=0.0, key="0" * 64,
                      example=example)


def _module(**functions) -> types.ModuleType:
    module = types.ModuleType("mod")
    for name, fn in functions.items():
        setattr(module, name, fn)
    module.Klass = type("Klass", (), {})  # a bound class is not an op
    return module


def _gate(result: CellResult, example: str | None = "x") -> CellResult:
    run_gradcheck(result, CellOptions(lang="cpp", example=example), {"x": np.array([1.0, 2.0])})
    return result


def test_a_module_with_one_differentiable_function_is_checked_in_its_own_dtype():
    def cube(x):
        return x * x * x

    result = _gate(_cpp(_module(cube=cube), np.array([1.0, 2.0], np.float32)))
    assert result.grad_check is not None and result.grad_check.names == ["x"]
    call = gate_call(result)
    assert call.float64 is False and call.label == "mod.cube" and call.args[0].dtype == ms.float32


def test_a_module_function_that_records_no_gradient_is_noted():
    def plain(x):
        return ms.Tensor(x.asnumpy() * 2)  # a new Tensor from numpy: nothing recorded

    result = _gate(_cpp(_module(plain=plain), np.array([1.0, 2.0])))
    assert result.grad_check is None and not result.grad_check_failed
    assert result.grad_check_note == ("gradients unchecked: mod.plain records no gradient (its output does not "
                                      "require grad: not differentiable); %gradcheck mod.plain(x) checks one that is")


def test_modules_of_several_functions_or_none_and_no_example_are_noted():
    two = _gate(_cpp(_module(b=lambda x: x, a=lambda x: x), np.ones(2)))
    assert two.grad_check_note == ("gradients unchecked: module mod binds 2 functions (a, b); check one with "
                                   "%gradcheck mod.a(x)")
    assert _gate(_cpp(_module(), np.ones(2))).grad_check_note == "gradients unchecked: module mod binds no function"
    one = _gate(_cpp(_module(f=lambda y, z: y * z)), example=None)
    assert one.grad_check_note == ("gradients unchecked (no --example): give --example INPUTS, or run "
                                   "%gradcheck mod.f(y, z)")


def test_forward_backward_op_is_checked_in_its_dtype_with_the_forwards_names():
    op = ForwardBackwardOp("fb", lambda u, v: u * v, lambda u, v, out, d: (d * v, d * u * 2.0))  # d/dv is wrong
    result = _gate(_cpp(op, (np.array([1.0, 2.0]), np.array([3.0, 4.0]))))
    report = result.grad_check
    assert report.names == ["u", "v"] and not report.passed and report.worst.index == 1
    assert gate_call(result).float64 is False


def test_memory_errors_found_by_check_skip_the_gate():
    finding = Finding("address", None, None, 5, "heap-buffer-overflow", file="<cell mod>")
    result = _cpp(ForwardBackwardOp("fb", lambda u: u, lambda u, out, d: d), np.ones(2))
    result.kernel_check = KernelCheck("fb", "cpp", [finding])
    _gate(result)
    assert result.grad_check is None and result.grad_check_note.startswith(
        "gradients unchecked: --check found memory errors in the op")


@pytest.mark.parametrize("doc, names", [
    ("f(x: Tensor, weight: Tensor) -> Tensor\n", ["x", "weight"]),
    ("f(arg0: Tensor, arg1: Tensor) -> Tensor\n", []),  # pybind11's own names say nothing
    ("f(*args, **kwargs)\nOverloaded function.\n", []),
])
def test_input_names_from_a_pybind11_docstring(doc, names):
    from mskernel.cells.grad_step import _parameter_names

    class Builtin:  # like a pybind11 function: no Python signature, the signature in the docstring
        __doc__ = doc
        __signature__ = property(lambda self: (_ for _ in ()).throw(ValueError("no signature")))

        def __call__(self, *args):
            return args

    assert _parameter_names(Builtin()) == names
