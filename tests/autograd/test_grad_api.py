"""grad / value_and_grad / GradOperation: output structures and MindSpore's argument errors."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops


class MulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = ms.Parameter(2.0, requires_grad=True)

    def construct(self, x, y):
        return x * y * self.p


def xy():
    return ms.Tensor(1.0, ms.float32) * 2, ms.Tensor(1.0, ms.float32) * 3


def test_done_when_example_prints_4():
    x = ms.Tensor(2.0, ms.float32)
    assert str(ms.grad(lambda a: a * a)(x)) == "4.0"


def test_int_position_gives_one_tensor():
    x, y = xy()
    g = ms.grad(lambda a, b: a * b, grad_position=1)(x, y)
    assert isinstance(g, ms.Tensor) and g.item() == 2.0


def test_one_position_in_a_tuple_gives_the_tensor():
    # measured on MindSpore 2.10: (1,) gives the gradient itself, not a 1-tuple (tests/golden/grad_structure)
    x, y = xy()
    g = ms.grad(lambda a, b: a * b, grad_position=(1,))(x, y)
    assert isinstance(g, ms.Tensor) and g.item() == 2.0
    g2 = ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, y)
    assert [t.item() for t in g2] == [3.0, 2.0]


def test_weights_only_gives_tuple_of_weight_grads():
    net = MulNet()
    x, y = xy()
    g = ms.grad(net, grad_position=None, weights=net.trainable_params())(x, y)
    assert isinstance(g, tuple) and len(g) == 1 and g[0].item() == 6.0


def test_positions_and_weights_seed_000_structure():
    net = MulNet()
    x, y = xy()
    out, grads = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())(x, y)
    assert f"out: {out}" == "out: 12.0"
    assert f"grads[0]: {grads[0]}" == ("grads[0]: (Tensor(shape=[], dtype=Float32, value= 6), "
                                       "Tensor(shape=[], dtype=Float32, value= 4))")
    assert f"grads[1]: {grads[1]}" == "grads[1]: (Tensor(shape=[], dtype=Float32, value= 6),)"


def test_single_parameter_as_weights():
    net = MulNet()
    x, y = xy()
    gx, gw = ms.grad(net, 0, weights=net.p)(x, y)
    assert gx.item() == 6.0 and isinstance(gw, ms.Tensor) and gw.item() == 6.0


def test_has_aux_grad_and_value_and_grad():
    def f(x):
        return x * x, x + 1, ops.exp(x)
    x = ms.Tensor(3.0)
    g, aux = ms.grad(f, has_aux=True)(x)
    assert g.item() == 6.0
    assert isinstance(aux, tuple) and [a.item() for a in aux[:1]] == [4.0]
    (v0, v1, v2), g2 = ms.value_and_grad(f, has_aux=True)(x)
    assert (v0.item(), v1.item(), g2.item()) == (9.0, 4.0, 6.0)


def test_has_aux_requires_tuple_output():
    with pytest.raises(ValueError, match="When has_aux is True, origin fn requires more than one outputs."):
        ms.grad(lambda x: x * x, has_aux=True)(ms.Tensor(1.0))


def test_return_ids_and_get_grad():
    net = MulNet()
    x, y = xy()
    g = ms.grad(net, (0, 1), weights=net.trainable_params(), return_ids=True)(x, y)
    (p0, g0), (p1, g1) = g[0]
    assert (p0, p1) == (0, 1) and (g0.item(), g1.item()) == (6.0, 4.0)
    assert g[1][0][0] == "p"
    assert ms.get_grad(g, 1).item() == 4.0
    assert ms.get_grad(g, "p").item() == 6.0
    with pytest.raises(ValueError, match="not found"):
        ms.get_grad(g, 7)


def test_non_scalar_output_uses_ones_sens_and_multiple_outputs_add():
    x = ms.Tensor([1.0, 2.0])
    np.testing.assert_allclose(ms.grad(lambda a: a * a)(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(ms.grad(lambda a: (a * a, a * 3))(x).asnumpy(), [5.0, 7.0])


def test_unused_input_gets_zeros_and_int_input_gets_its_gradient_cast():
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([5.0])
    gx, gy = ms.grad(lambda a, b: a * 2, (0, 1))(x, y)
    np.testing.assert_array_equal(gy.asnumpy(), [0.0])
    # as the 2.10 wheel: an int input at a grad position gets the gradient an op's rule gives it, cast to its
    # dtype (d(a * k)/dk = a, truncated), and zeros where nothing reaches it
    x = ms.Tensor([1.5, -2.5])
    i = ms.Tensor([1, 2], ms.int32)
    gx, gi = ms.grad(lambda a, k: a * k, (0, 1))(x, i)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 2.0])
    assert gi.dtype == ms.int32
    np.testing.assert_array_equal(gi.asnumpy(), x.asnumpy().astype(np.int32))
    gx, gi = ms.grad(lambda a, k: a * 2, (0, 1))(x, i)
    assert gi.dtype == ms.int32 and not gi.asnumpy().any()


@pytest.mark.parametrize("pos,exc,msg", [
    ((0, 0), ValueError, "There are duplicate positions in `grad_position`, please check it"),
    (-1, ValueError, "grad_position must be >= 0."),
    ((0, -1), ValueError, "The element in grad_position must be >= 0."),
    ([0], TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    (1.0, TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    ("0", TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
])
def test_grad_position_errors(pos, exc, msg):
    for api in (ms.grad, ms.value_and_grad):
        with pytest.raises(exc) as e:
            api(lambda a: a, grad_position=pos)
        assert str(e.value) == msg


def test_both_none_error():
    with pytest.raises(ValueError) as e:
        ms.grad(lambda a: a, grad_position=None, weights=None)
    assert str(e.value) == "`grad_position` and `weight` can not be None at the same time."


def test_weights_and_fn_type_errors():
    with pytest.raises(TypeError, match="'weights' must be a Parameter"):
        ms.grad(lambda a: a, weights=[ms.Tensor(1.0)])
    with pytest.raises(TypeError, match="'weights' must be a Parameter"):
        ms.grad(lambda a: a, weights=3)
    with pytest.raises(TypeError, match="'fn' must be callable"):
        ms.grad(3)


def test_call_time_errors_name_position():
    with pytest.raises(TypeError, match="grad_position 0 must be a Tensor, but got float"):
        ms.grad(lambda a: a)(1.0)
    with pytest.raises(ValueError, match="grad_position 2 is out of range"):
        ms.grad(lambda a, b: a, (0, 2))(ms.Tensor(1.0), ms.Tensor(2.0))
    with pytest.raises(TypeError, match="outputs must be Tensors"):
        ms.grad(lambda a: "3.0")(ms.Tensor(1.0))  # a number is a constant output (tests/autograd/test_nested_outputs)


def test_higher_order_nested_grad():
    f = lambda a: a * a * a  # noqa: E731
    x = ms.Tensor(2.0)
    assert ms.grad(ms.grad(f))(x).item() == 12.0
    assert ms.grad(ms.grad(ms.grad(f)))(x).item() == 6.0
    # mixed partials through two arguments
    h = lambda a, b: a * a * b  # noqa: E731
    d2 = ms.grad(lambda a, b: ms.grad(h, 0)(a, b), 1)(ms.Tensor(3.0), ms.Tensor(5.0))
    assert d2.item() == 6.0


def test_higher_order_with_weights():
    net = MulNet()
    x, y = xy()
    # d/dp of (d out/dx) = y
    g = ms.grad(lambda a, b: ms.grad(net, 0)(a, b), grad_position=None, weights=net.trainable_params())(x, y)
    assert g[0].item() == 3.0


def test_grad_op_old_api_with_sens():
    f = lambda a, b: a * b  # noqa: E731
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    gx, gy = ops.GradOperation(get_all=True, sens_param=True)(f)(x, y, ms.Tensor([1.0, 10.0]))
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 40.0])
    np.testing.assert_allclose(gy.asnumpy(), [1.0, 20.0])
    g0 = ops.GradOperation()(f)(x, y)
    np.testing.assert_allclose(g0.asnumpy(), [3.0, 4.0])
    net = MulNet()
    gi, gw = ops.GradOperation(get_all=True, get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))(
        *xy())
    assert len(gi) == 2 and gw[0].item() == 6.0


def test_returned_gradients_are_writable_and_independent():
    x = ms.Tensor([1.0, 2.0])
    gx, gy = ms.grad(lambda a, b: (a + b).sum(), (0, 1))(x, ms.Tensor([3.0, 4.0]))
    gx.asnumpy()[0] = 100.0
    assert gy.asnumpy()[0] == 1.0


def test_value_is_detached_at_top_level():
    v, g = ms.value_and_grad(lambda a: a * a)(ms.Tensor(3.0))
    assert v.grad_fn is None and not v.requires_grad
