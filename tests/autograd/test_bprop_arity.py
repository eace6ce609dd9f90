"""A bprop with the wrong parameters fails with a message naming the op or net, what it is
called with and what it takes -- not Python's bare "takes 2 positional arguments"."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops


def test_custom_op_bprop_missing_out() -> None:
    def square(x):
        return x * x

    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=lambda x, dout: (2 * x * dout,))
    with pytest.raises(TypeError) as info:
        ms.grad(lambda x: op(x).sum())(ms.Tensor(np.array([1.0, 2.0])))
    assert str(info.value) == ("For 'Custom', 'func_type': pyfunc, 'func': square, the bprop is called as "
                               "bprop(*inputs, out, dout) with 3 arguments (1 input, out and dout), but "
                               "lambda(x, dout) takes 2.")


def test_custom_op_bprop_with_varargs_is_accepted() -> None:
    op = ops.Custom(lambda a, b: a * b, lambda a, b: a, lambda a, b: a, func_type="pyfunc",
                    bprop=lambda *args: (args[-1] * args[1], args[-1] * args[0]))
    ga, gb = ms.grad(lambda a, b: op(a, b).sum(), grad_position=(0, 1))(ms.Tensor([2.0]), ms.Tensor([3.0]))
    assert (ga.asnumpy(), gb.asnumpy()) == ([3.0], [2.0])


class TooMany(nn.Cell):
    def construct(self, x):
        return x * 2

    def bprop(self, x, y, out, dout):
        return (dout * 2,)


def test_cell_bprop_wrong_arity_names_the_net() -> None:
    with pytest.raises(TypeError) as info:
        ms.grad(lambda x: TooMany()(x).sum())(ms.Tensor([1.0]))
    assert str(info.value) == ("For user defined method 'bprop' of net 'TooMany', the bprop is called as "
                               "bprop(*inputs, out, dout) with 3 arguments (1 input, out and dout), but "
                               "bprop(x, y, out, dout) takes 4.")
