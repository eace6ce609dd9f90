"""grad / value_and_grad / GradOperation over nested tuple outputs and Python-number outputs,
as MindSpore PyNative does: every Tensor in the structure is differentiated, numbers are constants."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms

X = ms.Tensor(np.array([1.0, 2.0]))


def test_nested_tuples_sum_every_tensor_leaf() -> None:
    np.testing.assert_array_equal(ms.grad(lambda x: ((x * 2, x * 3), x.sum()))(X).asnumpy(), [6.0, 6.0])
    np.testing.assert_array_equal(ms.grad(lambda x: ((x * 2, 1), [x]))(X).asnumpy(), [3.0, 3.0])
    value, g = ms.value_and_grad(lambda x: ((x * 2, x * 3), x.sum()))(X)
    assert isinstance(value, tuple) and isinstance(value[0], tuple) and value[1].asnumpy() == 3.0
    np.testing.assert_array_equal(g.asnumpy(), [6.0, 6.0])


def test_python_number_outputs_are_constants() -> None:
    np.testing.assert_array_equal(ms.grad(lambda x: (x.sum(), 3.0))(X).asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(ms.grad(lambda x: 5.0)(X).asnumpy(), [0.0, 0.0])


def test_sens_shaped_like_the_nested_outputs() -> None:
    sens = ((ms.Tensor([1.0, 1.0]), 1.0), ms.Tensor([2.0, 2.0]))
    g = ms.ops.GradOperation(sens_param=True)(lambda x: ((x * 2, 7.0), x * 3))(X, sens)
    np.testing.assert_array_equal(g.asnumpy(), [8.0, 8.0])


def test_other_output_types_are_refused() -> None:
    with pytest.raises(TypeError, match="outputs must be Tensors, Python numbers or \\(nested\\) tuples of them, but "
                                        "output 1 is str"):
        ms.grad(lambda x: (x.sum(), "loss"))(X)
