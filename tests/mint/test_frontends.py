"""mint's functions are front ends of the op table: mint's own signatures (as the 2.10 wheel gives them), the
table entry's rule behind them."""
import inspect
import re

import numpy as np
import pytest

import mskernel as ms
from mskernel import compat_surface, mint, ops
from mskernel.mint import frontends
from mskernel.ops.opdef import Front
from mskernel.ops.registry import front_ends

TABLES = [("mindspore.mint", mint, frontends.MINT), ("mindspore.mint.nn.functional", mint.nn.functional,
                                                      frontends.NN_FUNCTIONAL),
          ("mindspore.mint.special", mint.special, frontends.SPECIAL), ("mindspore.mint.linalg", mint.linalg,
                                                                        frontends.LINALG)]
ENTRIES = [(ns, mod, e) for ns, mod, entries in TABLES for e in entries]


def _params(text):
    return [p.split("=")[0].strip(" *") for p in text.strip("()").split(", ") if p.strip(" *")]


@pytest.mark.parametrize("namespace, module, entry", ENTRIES, ids=[f"{ns}.{e.name}" for ns, _, e in ENTRIES])
def test_signature_is_the_wheels(namespace, module, entry):
    kind, recorded = compat_surface.surface()[namespace][entry.name]
    ours = str(inspect.signature(getattr(module, entry.name)))
    if recorded.endswith(", ...)"):  # the wheel names only the required parameters
        assert _params(ours)[:len(_params(recorded)) - 1] == _params(recorded)[:-1], (ours, recorded)
    elif recorded.startswith("("):
        assert ours == recorded
    else:  # an overloaded function: the wheel lists its calling forms, each of whose names we take
        forms = [re.sub(r"=<[^>]*>", "", f.split("(", 1)[1].rstrip(")")) for f in recorded.split(" | ")]
        names = {n for form in forms for n in _params(form)}
        assert set(_params(ours)) == names, (ours, recorded)


def test_each_function_carries_its_example_and_the_call_it_makes():
    for _, module, entry in ENTRIES:
        doc = getattr(module, entry.name).__doc__
        assert f"``{entry.call}``" in doc and ">>> print(" in doc, entry.name


def test_the_rule_is_the_table_entrys():
    # gradient and error both come from the one entry: mint.std is ops.std with correction for ddof
    x = ms.Tensor(np.array([[1.0, -2.0, 4.0], [3.0, 0.5, 2.0]], np.float32))
    g_mint = ms.grad(lambda a: mint.std(a, 1, correction=0).sum())(x)
    g_ops = ms.grad(lambda a: ops.std(a, 1, ddof=0).sum())(x)
    np.testing.assert_array_equal(g_mint.asnumpy(), g_ops.asnumpy())
    xs = x.asnumpy().astype(np.float64)
    expect = (xs - xs.mean(1, keepdims=True)) / (xs.std(1, keepdims=True) * xs.shape[1])
    np.testing.assert_allclose(g_mint.asnumpy(), expect, rtol=1e-5)
    i = ms.Tensor(np.array([1, 2], np.int32))
    with pytest.raises(TypeError) as a:
        mint.exp(i)
    with pytest.raises(TypeError) as b:
        ops.exp(i)
    assert str(a.value) == str(b.value)


def test_a_call_naming_no_op_is_an_error_and_names_shadowing_ops_resolve_to_the_op():
    with pytest.raises(RuntimeError, match=r"'f' calls \['nothing_here'\]"):
        front_ends([Front("f", "input", "nothing_here(input)")], "mskernel.mint", {}, {}, ())
    with pytest.raises(RuntimeError, match="declared twice"):
        front_ends([Front("f", "input", "abs(input)")] * 2, "mskernel.mint", {}, {}, ())
    fs = front_ends([Front("abs", "input")], "mskernel.test", {}, {}, ())  # its own name is the op's, not itself
    assert fs["abs"].__module__ == "mskernel.test"
    print_ = fs["abs"](ms.Tensor([-1.5]))
    assert print_.asnumpy().tolist() == [1.5]


def test_overloads_dispatch_as_the_wheel_documents():
    x = ms.Tensor(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32))
    y = ms.Tensor(np.array([[2.0, 2.0], [2.0, 2.0]], np.float32))
    assert mint.max(x).asnumpy() == 5.0
    values, indices = mint.max(x, 1)
    assert values.asnumpy().tolist() == [5.0, 3.0] and indices.dtype == ms.int64
    assert mint.max(x, y).asnumpy().tolist() == [[2.0, 5.0], [3.0, 2.0]]
    assert mint.min(x, other=y).asnumpy().tolist() == [[1.0, 2.0], [2.0, 2.0]]
    assert [t.asnumpy().tolist() for t in mint.where(x > 2)] == [[0, 1], [1, 0]]
    assert mint.where(x > 2, x, y).asnumpy().tolist() == [[2.0, 5.0], [3.0, 2.0]]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'dim'"):
        mint.squeeze(x)


def test_inplace_writes_into_the_input():
    x = ms.Tensor(np.array([-1.0, 2.0], np.float32))
    out = mint.nn.functional.relu(x, inplace=True)
    assert x.asnumpy().tolist() == [0.0, 2.0] and out.asnumpy().tolist() == [0.0, 2.0]
