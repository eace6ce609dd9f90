"""The refusal rules one by one: each names the construct, where it is and what to change."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from mskernel import ops
from mskernel.mindspore_export import ExportError, export_mindspore
from mskernel.mindspore_export.pyfunc import Carrier
from mskernel.mindspore_export.refusals import MS_INTRINSICS, check_attr_specs, check_dsl

KERNEL = "def f(x):\n    y = output_tensor(x.shape, x.dtype)\n    y[0] = {call}\n    return y\n"


def check(call: str, available=MS_INTRINSICS, targets=("GPU", "CPU")) -> None:
    check_dsl(KERNEL.format(call=call), op="f", role="the forward kernel", filename="<f>", first_line=10,
              targets=targets, available=available)


def test_a_call_mindspore_does_not_know_is_refused_with_the_known_ones():
    with pytest.raises(ExportError) as err:
        check("sqrt(x[0])", available=MS_INTRINSICS - {"sqrt"})
    assert err.value.construct == "sqrt(...)" and err.value.location.line == 12
    assert "it is not an intrinsic of MindSpore's hybrid DSL" in str(err.value) and "Use one of abs, " in str(err.value)


def test_keywords_and_arity_follow_mindspores_checker():
    with pytest.raises(ExportError, match=r"wants power with two arguments, given by position.*Write power\(a, b\)"):
        check("power(x[0], y=2.0)")
    with pytest.raises(ExportError, match=r"wants sqrt with one argument.*Write sqrt\(x\)"):
        check("sqrt(x[0], x[1])")
    check("max(x[0], x[1], 0.0)")  # max/min take any number of arguments, as in MindSpore
    check("atan2(x[0], x[1])", targets=("GPU",))  # on the GPU MindSpore has atan2
    with pytest.raises(ExportError, match=r"atan2\(\.\.\.\) does not carry over.*Compute the angle with atan"):
        check("atan2(x[0], x[1])")


def test_attribute_kinds_mindspore_does_not_document_are_refused():
    check_attr_specs("f", [{"name": "k", "paramType": "optional", "type": "listFloat"}])
    with pytest.raises(ExportError, match="the attribute k \\(param_type 'dynamic'\\).*'required' or 'optional'"):
        check_attr_specs("f", [{"name": "k", "paramType": "dynamic", "type": "int"}])


def shifted(x):
    return x + 1.0


def calls_shifted(x):
    return shifted(x)


def op(x):
    return x


def calls_op(x):
    return op(x)


def test_carried_names_must_not_clash():
    c = Carrier("t")
    c.carry(calls_shifted, "the function")
    with pytest.raises(ExportError, match="the name shifted does not carry over.*both called shifted"):
        c.carry(lambda x: x, "another", name="shifted")
    with pytest.raises(ExportError, match="the name op does not carry over.*the exported file needs that name"):
        export_mindspore(ops.Custom(calls_op, lambda x: x, lambda x: x, func_type="pyfunc"), "/nonexistent/a.py")


def test_only_functions_and_mindspore_dtypes_are_carried(tmp_path):
    with pytest.raises(ExportError, match="the bprop \\(partial partial\\) does not carry over.*only Python functions"):
        Carrier("t").carry(functools.partial(shifted), "the bprop")
    op_np_dtype = ops.Custom(shifted, lambda x: x, np.float32, func_type="pyfunc")
    with pytest.raises(ExportError, match="out_dtype <class 'numpy.float32'>.*ms.float32 rather than numpy's"):
        export_mindspore(op_np_dtype, tmp_path / "a.py")


def test_the_package_does_not_shadow_mindspores_export():
    import types

    import mskernel as ms
    import mskernel.mindspore_export  # noqa: F401

    assert not isinstance(ms.export, types.ModuleType)  # mindspore.export (a model exporter) keeps its name
