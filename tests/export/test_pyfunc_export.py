"""The pyfunc export: functions, lambdas, helpers, constants and modules carried by their source, the op
run with ``mindspore`` replaced by ``mskernel``, and what cannot be carried refused by name."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.mindspore_export import ExportError, export_mindspore
from mskernel.ops import CustomRegOp, DataType

from .test_hybrid_export import as_mskernel

OFFSET = 0.5
WEIGHTS = (1.0, 2.0)
TABLE = ms.Tensor([1.0])


def shifted(x):
    return np.add(x, OFFSET)


def soft(x):
    return np.tanh(shifted(x)) * WEIGHTS[1]


def uses_tensor(x):
    return x * TABLE


def soft_bprop(x, out, dout):
    return (ops.mul(dout, 2.0 - out * out / 2.0),)


def test_helpers_constants_lambdas_and_modules_are_carried(tmp_path):
    op = ops.Custom(soft, lambda x: x, lambda x: x, func_type="pyfunc", bprop=soft_bprop)
    text = export_mindspore(op, tmp_path / "soft.py").read_text()
    assert [ln for ln in text.splitlines() if ln.startswith(("import", "from"))] == \
        ["import numpy as np", "from mindspore import ops"]
    for line in ("OFFSET = 0.5", "WEIGHTS = (1.0, 2.0)", "def shifted(x):", "_lambda1 = lambda x: x",
                 "op = ops.Custom(soft, out_shape=_lambda1, out_dtype=_lambda2, func_type=\"pyfunc\", "
                 "bprop=soft_bprop)"):
        assert line in text
    mod = as_mskernel(text)
    x = ms.Tensor(np.linspace(-1, 1, 5).astype(np.float32))
    np.testing.assert_allclose(mod.op(x).asnumpy(), op(x).asnumpy())
    np.testing.assert_allclose(ms.grad(mod.op)(x).asnumpy(), ms.grad(op)(x).asnumpy())


def test_fixed_specs_and_registration_are_written(tmp_path):
    info = CustomRegOp().input(0, "x").output(0, "y").dtype_format(DataType.F32_Default, DataType.F32_Default) \
        .target("CPU").get_op_info()
    op = ops.Custom(soft, (3,), ms.float32, func_type="pyfunc", reg_info=info)
    text = export_mindspore(op, tmp_path / "fixed.py").read_text()
    assert "import mindspore as ms" in text and "out_shape=(3,), out_dtype=ms.float32" in text
    assert "reg_info=[{" in text and "'target': 'CPU'" in text
    mod = as_mskernel(text)
    np.testing.assert_allclose(mod.op(ms.Tensor(np.zeros(3, np.float32))).asnumpy(), np.tanh(0.5) * 2, rtol=1e-6)


def test_what_cannot_be_carried_is_refused_by_name(tmp_path):
    def make(scale):
        def scaled(x):
            return x * scale
        return scaled
    with pytest.raises(ExportError, match="the function scaled, a closure does not carry over.*it reads scale") as err:
        export_mindspore(ops.Custom(make(2), lambda x: x, lambda x: x, func_type="pyfunc"), tmp_path / "a.py")
    assert err.value.location.source_line.strip() == "def scaled(x):"

    def uses_math(x):
        return x * math.pi
    with pytest.raises(ExportError, match="the module math.*imports only mindspore and numpy") as err:
        export_mindspore(ops.Custom(uses_math, lambda x: x, lambda x: x, func_type="pyfunc"), tmp_path / "b.py")
    assert err.value.location.source_line.strip() == "def uses_math(x):"

    with pytest.raises(ExportError, match="the global TABLE \\(a Tensor, read by the function uses_tensor\\)"):
        export_mindspore(ops.Custom(uses_tensor, lambda x: x, lambda x: x, func_type="pyfunc"), tmp_path / "c.py")
    shape = eval("lambda x: x")  # no source to carry
    with pytest.raises(ExportError, match="out_shape, a lambda does not carry over.*its source is not available"):
        export_mindspore(ops.Custom(soft, shape, lambda x: x, func_type="pyfunc"), tmp_path / "d.py")


def test_attributes_mindspore_does_not_accept_are_refused(tmp_path):
    info = CustomRegOp().input(0, "x").output(0, "y").attr("k", "required", "all") \
        .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()
    op = ops.Custom(lambda x, k: x, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=info)
    with pytest.raises(ExportError, match="the attribute k \\(value type 'all'\\) does not carry over"):
        export_mindspore(op, tmp_path / "e.py")


def test_other_kinds_are_refused_clearly(tmp_path):
    with pytest.raises(ExportError, match="func_type 'aot' does not carry over"):
        export_mindspore(ops.Custom("aclnnAdd", lambda x, y: x, lambda x, y: x, func_type="aot"), tmp_path)
    with pytest.raises(TypeError, match="expected an ops.Custom.*but got int"):
        export_mindspore(3, tmp_path)
