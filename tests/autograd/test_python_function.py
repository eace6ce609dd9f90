"""``mskernel._Function``: MindSpore's Python custom autograd function, in the one graph."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import _Function, ops


class MulAdd(_Function):
    """(x * y, x + y), with a non-Tensor scale input."""

    @staticmethod
    def forward(ctx, x, y, scale):
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * y * scale, x + y

    @staticmethod
    def backward(ctx, d_prod, d_sum):
        x, y = ctx.saved_tensors
        gx = d_prod * y * ctx.scale + d_sum if ctx.needs_input_grad[0] else None
        gy = d_prod * x * ctx.scale + d_sum if ctx.needs_input_grad[1] else None
        return gx, gy, None


def _t(*v):
    return ms.Tensor(np.array(v, np.float64))


def test_two_inputs_two_outputs_and_a_scalar_input() -> None:
    x, y = _t(1.0, 2.0), _t(3.0, 4.0)
    gx, gy = ms.grad(lambda x, y: sum(o.sum() for o in MulAdd.apply(x, y, 2.0)), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), 2 * y.asnumpy() + 1)
    np.testing.assert_allclose(gy.asnumpy(), 2 * x.asnumpy() + 1)
    assert ms.gradcheck(lambda x, y: MulAdd.apply(x, y, 2.0), (x, y)).passed


def test_needs_input_grad_and_the_node_in_the_graph() -> None:
    seen = []

    class Probe(_Function):
        @staticmethod
        def forward(ctx, a, b):
            seen.append(ctx.needs_input_grad)
            return a * b

        @staticmethod
        def backward(ctx, d):
            return d, None

    ms.grad(lambda a: Probe.apply(a, _t(5.0)).sum())(_t(1.0))
    assert seen == [(True, False)]
    out = ms.autograd.trace(lambda a: Probe.apply(a, _t(2.0)), _t(1.0))[0]
    assert any(n["op"] == "Probe" and n["kind"] == "python_function" for n in out.nodes)


def test_higher_order_through_a_backward_written_with_ops() -> None:
    class Cube(_Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, d):
            x, = ctx.saved_tensors
            return 3 * x * x * d

    x = _t(1.0, -2.0)
    second = ms.grad(ms.grad(lambda x: Cube.apply(x).sum()))(x)
    np.testing.assert_allclose(second.asnumpy(), 6 * x.asnumpy())


def test_mixes_with_a_custom_op_in_one_graph() -> None:
    square = ops.Custom(lambda x: x * x, lambda x: x, lambda x: x, func_type="pyfunc",
                        bprop=lambda x, out, dout: (2 * x * dout,))

    class Double(_Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, d):
            return d * 2

    x = _t(3.0)
    np.testing.assert_allclose(ms.grad(lambda x: Double.apply(square(x)).sum())(x).asnumpy(), [12.0])


def test_non_differentiable_output_and_none_gradient() -> None:
    class ArgMaxAndValue(_Function):
        @staticmethod
        def forward(ctx, x):
            idx = ms.Tensor(np.array([float(np.argmax(x.asnumpy()))]))
            ctx.mark_non_differentiable(idx)
            ctx.idx = int(idx.asnumpy()[0])
            return x.max(), idx

        @staticmethod
        def backward(ctx, d_value, d_idx):
            g = np.zeros(3)
            g[ctx.idx] = d_value.asnumpy()
            return ms.Tensor(g)

    x = _t(1.0, 5.0, 2.0)
    value, idx = ArgMaxAndValue.apply(x)
    assert not idx.requires_grad
    np.testing.assert_array_equal(ms.grad(lambda x: ArgMaxAndValue.apply(x)[0])(x).asnumpy(), [0.0, 1.0, 0.0])


def test_wrong_number_and_type_of_gradients() -> None:
    class Bad(_Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, d):
            return d

    with pytest.raises(RuntimeError, match=r"^For 'Bad', Function backward return a wrong number of gradients, "
                                           r"expect: 2, but: 1$"):
        ms.grad(lambda x: Bad.apply(x, x).sum())(_t(1.0))

    class Worse(Bad):
        @staticmethod
        def backward(ctx, d):
            return d, 1.0

    with pytest.raises(RuntimeError, match="^For 'Worse', gradient should be none or tensor, position: 1 type: "
                                           "float$"):
        ms.grad(lambda x: Worse.apply(x, x).sum())(_t(1.0))

    class ForScalar(_Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, d):
            return d * 2, d

    with pytest.raises(RuntimeError, match="^For 'ForScalar', input is not tensor, but gradient is not none, "
                                           "position: 1 type: Tensor$"):
        ms.grad(lambda x: ForScalar.apply(x, 2.0).sum())(_t(1.0))

    class ExtraNone(ForScalar):
        @staticmethod
        def backward(ctx, d):
            return d * 2, None, None  # extra entries may be None

    np.testing.assert_array_equal(ms.grad(lambda x: ExtraNone.apply(x, 2.0).sum())(_t(1.0)).asnumpy(), [2.0])


def test_forward_and_backward_must_be_overridden() -> None:
    class Empty(_Function):
        pass

    with pytest.raises(NotImplementedError, match="forward function should be customized."):
        Empty.apply(_t(1.0))


def test_star_args_forward() -> None:
    class SumAll(_Function):
        @staticmethod
        def forward(ctx, *xs):
            ctx.n = len(xs)
            out = xs[0]
            for x in xs[1:]:
                out = out + x
            return out

        @staticmethod
        def backward(ctx, d):
            return (d,) * ctx.n

    a, b, c = _t(1.0), _t(2.0), _t(3.0)
    grads = ms.grad(lambda a, b, c: SumAll.apply(a, b, c).sum(), grad_position=(0, 1, 2))(a, b, c)
    assert [g.asnumpy().tolist() for g in grads] == [[1.0], [1.0], [1.0]]
