"""The hybrid export: the file's shape, its line comments, the op it defines (run here with ``mindspore``
replaced by ``mskernel``, the compatibility contract), the signature it is made for, and every refusal.

(That real MindSpore runs these files is tests/golden/export.)
"""
from __future__ import annotations

import importlib.util
import re
import tempfile
import types
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.cells import CellOptions, run_cell
from mskernel.mindspore_export import ExportError, export_mindspore
from mskernel.hybrid import HybridKernel
from tests.hybrid.autodiff.test_random_kernels import random_kernel
from tests.hybrid.corpus import CASES

SOFTCLIP = """def softclip(x, a):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = a * tanh(x[i] / a)
    return y
"""


def as_mskernel(text: str) -> types.ModuleType:
    """The exported file run with ``mindspore`` replaced by ``mskernel`` (MindSpore code runs so here)."""
    path = Path(tempfile.mkdtemp()) / "exported.py"
    path.write_text(re.sub(r"\bmindspore\b", "mskernel", text))
    spec = importlib.util.spec_from_file_location("exported", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def grads_of(op, inputs, attrs=()):
    floats = tuple(range(len(inputs)))
    g = ms.grad(lambda *ts: op(*ts, *attrs).sum(), grad_position=floats)(*[ms.Tensor(a) for a in inputs])
    return [t.asnumpy() for t in (g if isinstance(g, tuple) else (g,))]


def test_line_comments_quote_the_forward_line_they_name(tmp_path):
    for source, name in [(random_kernel(1004), "rk"), (random_kernel(1008), "rk")]:
        hk = HybridKernel.from_source(source, name, filename="<random>")
        op = ops.Custom(hk.python_function(), func_type="akg")
        lines = export_mindspore(op, tmp_path / "rk.py", example=(np.ones(5), np.ones(5))).read_text().splitlines()
        quoted = [re.match(r"\s*# line (\d+): (.*)", ln) for ln in lines]
        quoted = [(int(m.group(1)), m.group(2)) for m in quoted if m]
        assert len(quoted) >= 2
        for n, text in quoted:
            assert lines[n - 1].strip() == text  # line n of this very file is the forward line quoted


def test_the_file_imports_only_mindspore_and_its_op_matches_mskernel(tmp_path):
    ns: dict = {}
    run_cell("softclip", SOFTCLIP, CellOptions(), ns, first_line=2)
    x = np.linspace(-3, 3, 7).astype(np.float32)
    ns["softclip"](ms.Tensor(x), 2.0)
    text = export_mindspore(ns["softclip"], tmp_path).read_text()
    imports = [ln for ln in text.splitlines() if ln.startswith(("import ", "from "))]
    assert imports == ["import mindspore as ms", "from mindspore import ops",
                       "from mindspore.ops import CustomRegOp, DataType, kernel"]
    assert "Exported from: the %%custom_op softclip cell (hybrid)" in text
    assert '.attr("a", "required", "float", default_value="2.0")' in text
    assert "def softclip(x, a):\n    y = output_tensor(x.shape, x.dtype)" in text  # the user's code, unchanged
    mod = as_mskernel(text)
    np.testing.assert_allclose(mod.op(ms.Tensor(x)).asnumpy(), ns["softclip"](ms.Tensor(x), 2.0).asnumpy())
    mine = grads_of(ns["softclip"], [x], (2.0,))
    theirs = grads_of(mod.op, [x])  # the attribute comes from the registration's default
    np.testing.assert_allclose(theirs[0], mine[0], rtol=1e-6)
    y = mod.forward(x, 2.0)  # the kernels run as Python on numpy, as MindSpore's @kernel does
    np.testing.assert_allclose(mod.backward(x, y, np.ones_like(y), 2.0), mine[0], rtol=1e-5)


def test_multi_output_and_integer_inputs_are_wired(tmp_path):
    op = ops.Custom(CASES["multi_output"].func, func_type="akg")
    a, b = np.arange(6.0).reshape(2, 3), np.ones((2, 3))
    mod = as_mskernel(export_mindspore(op, tmp_path / "m.py", example=(a, b)).read_text())
    loss = lambda o: lambda *ts: sum(t.sum() * (k + 1) for k, t in enumerate(o(*ts)))  # noqa: E731
    want = ms.grad(loss(op), grad_position=(0, 1))(ms.Tensor(a), ms.Tensor(b))
    got = ms.grad(loss(mod.op), grad_position=(0, 1))(ms.Tensor(a), ms.Tensor(b))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy())
    int_op = ops.Custom(CASES["scale_int"].func, func_type="akg")
    text = export_mindspore(int_op, tmp_path / "i.py", example=(np.ones((2, 3), np.int32), 3)).read_text()
    assert "backward = None" in text and "return (ops.zeros_like(x),)" in text


def test_a_bprop_kernel_and_a_python_bprop_are_carried(tmp_path):
    ns: dict = {}
    code = SOFTCLIP.replace("a * tanh(x[i] / a)", "x[i] * x[i]").replace("softclip(x, a)", "sq(x)") + \
        "\ndef sq_grad(x, dout):\n    dx = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n" \
        "        dx[i] = 2.0 * x[i] * dout[i]\n    return dx\n"
    run_cell("sq", code, CellOptions(bprop="sq_grad"), ns, first_line=2)
    x = np.array([1.0, -2.0, 3.0])
    text = export_mindspore(ns["sq"], tmp_path, example=(x,)).read_text()
    assert "Backward: the cell's bprop kernel sq_grad" in text and "backward = sq_grad" in text
    assert "    dx = _backward_op(x, dout)" in text
    np.testing.assert_allclose(grads_of(as_mskernel(text).op, [x])[0], 2 * x)

    def sq_bprop(x, out, dout):
        return (ops.mul(2.0, x) * dout,)
    py = ops.Custom(ns["sq"].func, func_type="hybrid", bprop=sq_bprop)
    text = export_mindspore(py, tmp_path / "py.py", example=(x,)).read_text()
    assert "def sq_bprop(x, out, dout):" in text and "backward = None" in text and "bprop=sq_bprop" in text
    np.testing.assert_allclose(grads_of(as_mskernel(text).op, [x])[0], 2 * x)


def test_the_signature_comes_from_the_calls_or_example(tmp_path):
    op = ops.Custom(CASES["add"].func, func_type="hybrid")
    with pytest.raises(ExportError, match="an op never called.*Call the op once, or pass example"):
        export_mindspore(op, tmp_path)
    op(ms.Tensor(np.ones((2, 2), np.float32)), ms.Tensor(np.ones((2, 2), np.float32)))
    assert "DataType.F32_Default" in export_mindspore(op, tmp_path).read_text()
    op(ms.Tensor(np.ones((2, 2))), ms.Tensor(np.ones((2, 2))))
    with pytest.raises(ExportError, match=r"called with \(float32 rank 2, float32 rank 2\); \(float64 rank 2"):
        export_mindspore(op, tmp_path)
    text = export_mindspore(op, tmp_path, example=(np.ones((2, 2)), np.ones((2, 2)))).read_text()
    assert "DataType.F64_Default" in text and "F32" not in text
    with pytest.raises(ExportError, match=r"the kernel add\(a, b\) takes 2 inputs"):
        export_mindspore(op, tmp_path, example=(np.ones((2, 2)),))


def test_debug_is_refused_at_the_cell_line(tmp_path):
    ns: dict = {}
    run_cell("dbg", SOFTCLIP, CellOptions(debug=True), ns, first_line=2, header="%%custom_op dbg --debug")
    ns["dbg"](ms.Tensor(np.ones(2)), 1.0)
    with pytest.raises(ExportError) as err:
        export_mindspore(ns["dbg"], tmp_path)
    assert err.value.construct == "--debug" and "Run the cell without --debug" in str(err.value)
    assert (err.value.location.line, err.value.location.source_line) == (1, "%%custom_op dbg --debug")
    op = ops.Custom(CASES["add"].func, func_type="hybrid", debug=True)
    with pytest.raises(ExportError, match="debug=True does not carry over") as err:
        export_mindspore(op, tmp_path, example=(np.ones((1, 1)), np.ones((1, 1))))
    assert err.value.location.source_line == "def add(a, b):"  # the kernel's def


def test_constructs_mindspore_rejects_are_refused_at_their_line(tmp_path):
    ns: dict = {}
    grid_cell = ("def gsum(a):\n    c = output_tensor(a.shape, a.dtype)\n    for i, j in grid(a.shape):\n"
                 "        c[i, j] = a[i, j]\n    return c\n")
    run_cell("gsum", grid_cell, CellOptions(), ns, first_line=2)
    with pytest.raises(ExportError) as err:
        export_mindspore(ns["gsum"], tmp_path, example=(np.ones((2, 2)),))
    assert err.value.construct == "a loop over several names"
    assert (err.value.location.file, err.value.location.line) == ("<cell gsum>", 4)
    assert "for i, j in grid(a.shape):" in str(err.value) and "for idx in grid(shape)" in str(err.value)
    em1 = "def em1(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n" \
          "        y[i] = expm1(x[i])\n    return y\n"
    run_cell("em1", em1, CellOptions(), ns, first_line=2)
    with pytest.raises(ExportError, match=r"expm1\(\.\.\.\) does not carry over.*exp\(x\) - 1\.0") as err:
        export_mindspore(ns["em1"], tmp_path, example=(np.ones(2),))
    assert err.value.location.line == 5
    assert export_mindspore(ns["em1"], tmp_path, example=(np.ones(2),), targets=("GPU",)).exists()
    with pytest.raises(ExportError, match="MindSpore 2.10 runs hybrid kernels on GPU and CPU"):
        export_mindspore(ns["em1"], tmp_path, example=(np.ones(2),), targets=("Ascend",))


def test_akg_only_scope_argument_and_name_clashes_are_refused(tmp_path):
    def scoped(x):
        t = allocate(x.shape, x.dtype, "local")  # noqa: F821
        y = output_tensor(x.shape, x.dtype)  # noqa: F821
        for i in range(x.shape[0]):
            t[i] = x[i]
            y[i] = t[i]
        return y
    with pytest.raises(ExportError, match=r"allocate\(\.\.\.\) does not carry over.*Write allocate\(a, b\)") as err:
        export_mindspore(ops.Custom(scoped, func_type="akg"), tmp_path, example=(np.ones(2),))
    assert err.value.location.source_line.strip() == 't = allocate(x.shape, x.dtype, "local")  # noqa: F821'

    def op(x):
        y = output_tensor(x.shape, x.dtype)  # noqa: F821
        return y
    with pytest.raises(ExportError, match="the kernel name op does not carry over.*Rename the kernel"):
        export_mindspore(ops.Custom(op, func_type="akg"), tmp_path / "o.py", example=(np.ones(2),))


def test_a_bprop_kernel_on_a_kernel_with_attributes_is_refused(tmp_path):
    ns: dict = {}
    code = SOFTCLIP + "\ndef softclip_bp(x, a, dout):\n    dx = output_tensor(x.shape, x.dtype)\n    return dx\n"
    run_cell("clipbp", code, CellOptions(bprop="softclip_bp"), ns, first_line=2)
    with pytest.raises(ExportError, match="the bprop kernel softclip_bp does not carry over"):
        export_mindspore(ns["clipbp"], tmp_path, example=(np.ones(2, np.float32), 1.0))
