"""The agreement check refuses implementations that differ, naming which one and where."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.bench import DisagreementError, check_agreement


def x32():
    return ms.Tensor(np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32))


def test_matching_values_and_gradients():
    rep = check_agreement({"mul": lambda a: a * a, "square": ops.square, "pow": lambda a: a ** 2}, (x32(),))
    assert rep.values_compared == ["mul", "square", "pow"]
    assert rep.grads_compared == ["mul", "square", "pow"]
    assert rep.values_only == {}
    assert "square, pow match mul on values and gradients" in rep.describe()


def test_a_wrong_value_is_named_with_its_index():
    def wrong(a):
        out = (a * a).asnumpy().copy()
        out[1, 2] += 0.5
        return ms.Tensor(out)

    with pytest.raises(DisagreementError) as info:
        check_agreement({"mul": lambda a: a * a, "wrong": wrong}, (x32(),), grads=False)
    err = info.value
    assert (err.impl, err.reference, err.what, err.index) == ("wrong", "mul", "output 0", (1, 2))
    assert "got 1.5, expected 1" in str(err) and "1 of 6 elements differ" in str(err)


def test_a_wrong_gradient_is_refused_with_a_hint():
    half = lambda a: a * ops.stop_gradient(a)  # noqa: E731 - same values, half the gradient
    with pytest.raises(DisagreementError, match="'half' differs from 'mul' in gradient of input 0 .*grads=False"):
        check_agreement({"mul": lambda a: a * a, "half": half}, (x32(),))
    rep = check_agreement({"mul": lambda a: a * a, "half": half}, (x32(),), grads=False)
    assert rep.grads_compared == []


def test_no_bprop_and_numpy_are_compared_on_values_only():
    pyfunc = ops.Custom(lambda a: a * a, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pyfunc")
    rep = check_agreement({"mul": lambda a: a * a, "pyfunc": pyfunc,
                           "numpy": lambda a: a.asnumpy() ** 2}, (x32(),))
    assert rep.grads_compared == ["mul"]
    assert rep.values_only["numpy"] == "returns numpy arrays"
    assert "no bprop" in rep.values_only["pyfunc"]
    assert "pyfunc: values only" in rep.describe()


def test_shape_and_output_count_mismatches():
    msg = r"'flat' differs from 'mul' in output 0: shape \(6,\), expected \(2, 3\)"
    with pytest.raises(DisagreementError, match=msg):
        check_agreement({"mul": lambda a: a * a, "flat": lambda a: (a * a).reshape(6)}, (x32(),))
    with pytest.raises(DisagreementError, match="'two' returns 2 outputs, 'mul' returns 1"):
        check_agreement({"mul": lambda a: a * a, "two": lambda a: (a * a, a)}, (x32(),))


def test_a_failing_implementation_is_named():
    def broken(a):
        raise ValueError("boom")

    with pytest.raises(ValueError, match="implementation 'broken' failed on the inputs: boom"):
        check_agreement({"mul": lambda a: a * a, "broken": broken}, (x32(),))


def test_tolerance_follows_the_dtype_and_can_be_set():
    a = np.ones(4, np.float32)
    near = lambda v: v * np.float32(1 + 1e-6)  # noqa: E731
    check_agreement({"id": lambda v: v, "near": near}, (a,))  # within float32's default tolerance
    with pytest.raises(DisagreementError):
        check_agreement({"id": lambda v: v, "near": near}, (a,), rtol=0.0, atol=0.0)
    with pytest.raises(DisagreementError):  # integers compare exactly
        check_agreement({"id": lambda v: v, "plus": lambda v: v + 1}, (np.arange(3),))
