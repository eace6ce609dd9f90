"""Function<T> / AutogradContext: C++ ops recorded in mskernel's one autograd graph.

The ops are in src/function_ops.cpp (MindSpore 2.6 style C++), built once per session.
"""
import gc
import weakref

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.autograd import STATE, gradients, trace
from mskernel.cpp import SecondOrderError

QUAL = "mindspore::pynative::autograd::"


def leaf(values, dtype=ms.float32):
    t = ms.Tensor(np.asarray(values), dtype)
    t.requires_grad = True
    return t


def test_mul_forward_backward_with_broadcasting(fops):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    out, (dx, dy) = ms.value_and_grad(lambda a, b: fops.mul(a, b).sum(), grad_position=(0, 1))(x, y)
    assert out.item() == pytest.approx((x.asnumpy() * y.asnumpy()).sum())
    np.testing.assert_allclose(dx.asnumpy(), np.broadcast_to(y.asnumpy(), (2, 3)))
    np.testing.assert_allclose(dy.asnumpy(), x.asnumpy().sum(0))  # the engine sums the broadcast grad
    assert dy.shape == (3,)


def test_seed_network_with_parameter(fops):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(2.0, requires_grad=True)

        def construct(self, x, y):
            return fops.mul(fops.mul(x, y), self.p)

    net = Net()
    out, grads = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())(
        ms.Tensor(1.0, ms.float32) * 2, ms.Tensor(1.0, ms.float32) * 3)
    assert str(out) == "12.0"
    assert repr(grads[0]) == ("(Tensor(shape=[], dtype=Float32, value= 6), "
                              "Tensor(shape=[], dtype=Float32, value= 4))")
    assert repr(grads[1]) == "(Tensor(shape=[], dtype=Float32, value= 6),)"


def test_two_output_function(fops):
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 5.0])
    a, b = fops.mul_add(x, y)
    np.testing.assert_allclose(a.asnumpy(), [3.0, 10.0])
    np.testing.assert_allclose(b.asnumpy(), [4.0, 7.0])
    dx, dy = ms.grad(lambda u, v: (fops.mul_add(u, v)[0] * 2 + fops.mul_add(u, v)[1] * 3).sum(),
                     grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), 2 * y.asnumpy() + 3)
    np.testing.assert_allclose(dy.asnumpy(), 2 * x.asnumpy() + 3)


def test_two_outputs_share_one_node(fops, grad_on):
    x, y = leaf([1.0]), leaf([2.0])
    a, b = fops.mul_add(x, y)
    assert a.grad_fn is b.grad_fn
    assert (a.grad_fn.op, a.grad_fn.kind, a._idx, b._idx) == ("MulAdd", "cpp_function", 0, 1)
    assert a.grad_fn.info == {"cpp_class": QUAL + "MulAdd"}


def test_string_int_vector_float_int_bool_arguments(fops):
    x = ms.Tensor(np.arange(6, dtype=np.float32))
    out = fops.scale_reshape(x, "scale", [3, 2], 0.5, 4, True)
    assert out.shape == (3, 2)
    np.testing.assert_allclose(out.asnumpy(), (-2.0 * x.asnumpy()).reshape(3, 2))
    out = fops.scale_reshape(x, "sum", (2, 3), 1.0, 1, False)
    np.testing.assert_allclose(out.asnumpy(), (x.asnumpy() + 1).reshape(2, 3))
    g = ms.grad(lambda t: (fops.scale_reshape(t, "scale", [3, 2], 0.5, 4, True) * ms.Tensor([[1.0, 2.0]] * 3)).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), -2.0 * np.tile([1.0, 2.0], 3))


def test_forward_error_propagates_and_restores_grad_mode(fops, grad_on):
    with pytest.raises(ValueError, match="unknown mode 'bogus'"):
        fops.scale_reshape(leaf([1.0, 2.0]), "bogus", [2], 1.0, 1, False)
    assert STATE.enabled is True
    with pytest.raises(TypeError):  # pybind11: not a Tensor
        fops.mul(np.ones(2), ms.Tensor([1.0, 2.0]))


def test_tensor_list_argument_is_not_differentiable(fops, grad_on):
    x, y, z = leaf([1.0, 2.0]), leaf([10.0, 20.0]), ms.Tensor([100.0, 200.0])
    out = fops.add_list(x, [y, z])
    np.testing.assert_allclose(out.asnumpy(), [111.0, 222.0])
    gx, gy = gradients([out.sum()], [x, y])
    np.testing.assert_allclose(gx.asnumpy(), [1.0, 1.0])
    assert gy is None  # a tensor inside a list gets no gradient (as in MindSpore)


def test_mark_non_differentiable_output(fops):
    def net(x, y):
        return fops.mul_no_diff_out(x * y, y)

    x, y = ms.Tensor([2.0, 2.0]), ms.Tensor([3.0, 3.0])
    dx, dy = ops.GradOperation(get_all=True)(net)(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [0.0, 0.0])
    np.testing.assert_allclose(dy.asnumpy(), [0.0, 0.0])


def test_mark_non_differentiable_input_returned_as_output(fops, grad_on):
    x = leaf([2.0, 3.0])
    x_no_diff, sq = fops.no_diff_input(x)
    assert x_no_diff is not x and not x_no_diff.requires_grad and x_no_diff.grad_fn is None
    assert np.shares_memory(x_no_diff.asnumpy(), x.asnumpy())
    assert sq.grad_fn.op == "NoDiffInput"
    g = ms.grad(lambda t: (t * fops.no_diff_input(t)[0]).sum())(ms.Tensor([2.0, 3.0]))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 3.0])  # only through the builtin Mul's first input
    g = ms.grad(lambda t: fops.no_diff_input(t)[1].sum())(ms.Tensor([2.0, 3.0]))
    np.testing.assert_allclose(g.asnumpy(), [4.0, 6.0])


def test_mark_dirty_leaf_that_needs_grad_is_an_error(fops):
    def net(x, y):
        return fops.inplace_mul(x, y)

    with pytest.raises(RuntimeError, match="A leaf tensor that need grad is being used in an inplace operator"):
        ops.GradOperation(get_all=True)(net)(ms.Tensor([2.0, 2.0]), ms.Tensor([3.0, 3.0]))


def test_mark_dirty_moves_history_to_the_inplace_node(fops, grad_on):
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    t = x * 1.0
    mul_node = t.grad_fn
    version = t._version
    r = fops.inplace_mul(t, y)
    assert r is t and t._version == version + 1
    np.testing.assert_allclose(t.asnumpy(), [3.0, 8.0])
    node = r.grad_fn
    assert node.op == "InplaceMul" and node.kind == "cpp_function"
    assert node.inputs[0] is not r and node.inputs[0].grad_fn is mul_node  # the old version keeps the history
    gx, gy = gradients([(r * ms.Tensor([1.0, 10.0])).sum()], [x, y])
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 40.0])
    np.testing.assert_allclose(gy.asnumpy(), [1.0, 20.0])  # from the old x, saved before the write
    assert fops.probe() == [True]  # the saved output (x after the write) reached Backward


def test_mark_dirty_in_no_grad_mode_is_just_an_inplace_write(fops):
    x = leaf([1.0, 2.0])
    with ms.no_grad():
        r = fops.inplace_mul(x, ms.Tensor([5.0, 5.0]))
    assert r is x and r.grad_fn is None
    np.testing.assert_allclose(x.asnumpy(), [5.0, 10.0])


def test_cpp_op_between_python_ops_in_one_graph_and_snapshot(fops):
    def f(x, w):
        return ops.exp(fops.mul(x * 2.0, w) * 0.5).sum()

    xv, wv = np.array([0.1, 0.2, 0.3], np.float32), np.array([1.0, -1.0, 2.0], np.float32)
    snap, (gx, gw) = trace(f, ms.Tensor(xv), ms.Tensor(wv), grad_position=(0, 1))
    e = np.exp(xv * wv)
    np.testing.assert_allclose(gx.asnumpy(), e * wv, rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), e * xv, rtol=1e-6)
    by_op = {n["op"]: n for n in snap.nodes}
    cpp = by_op["CustomMul"]
    assert cpp["kind"] == "cpp_function" and cpp["info"]["cpp_class"] == QUAL + "CustomMul"
    assert cpp["stats"] is not None  # gradient statistics were captured on the C++ node too
    into = {snap.node(e["src"])["op"] for e in snap.edges if e["dst"] == cpp["id"]}
    assert into == {"Mul", "input 1"}
    out_of = {snap.node(e["dst"])["op"] for e in snap.edges if e["src"] == cpp["id"]}
    assert out_of == {"Mul"}


@pytest.mark.parametrize("case", ["mul", "mul_add", "scale_reshape", "inplace_mul", "square_twice", "need_probe"])
def test_gradcheck_on_cpp_ops(fops, case):
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.uniform(0.5, 1.5, (2, 3)), ms.float64)
    y = ms.Tensor(rng.uniform(0.5, 1.5, (2, 3)), ms.float64)
    fn = {
        "mul": lambda a, b: fops.mul(a, b),
        "mul_add": lambda a, b: fops.mul_add(a, b),
        "scale_reshape": lambda a, b: fops.scale_reshape(a * b, "sum", [3, 2], 0.25, 3, True),
        "inplace_mul": lambda a, b: fops.inplace_mul(a * 1.0, b),
        "square_twice": lambda a, b: fops.square_twice(a) + b,
        "need_probe": lambda a, b: fops.need_probe(a, -1.5, b),
    }[case]
    report = ms.gradcheck(fn, (x, y), raise_exception=False)
    assert report.passed, str(report)


def test_wrong_number_of_gradients(fops):
    x, y = ms.Tensor(1.0, ms.float32) * 2, ms.Tensor(1.0, ms.float32) * 3
    msg = (r"Function\[mindspore::pynative::autograd::BadGradCount\] returned an incorrect number of gradients "
           r"\(expected 2, got 1\)")
    with pytest.raises(RuntimeError, match=msg):
        ms.value_and_grad(lambda a, b: fops.bad_grad_count(a, b), grad_position=(0, 1))(x, y)


def test_gradient_for_a_non_tensor_position(fops):
    with pytest.raises(RuntimeError, match="position 2, .* the corresponding forward input was not a Tensor"):
        ms.value_and_grad(lambda a, n: fops.bad_grad_position(a, n), grad_position=0)(ms.Tensor(2.0), 3)


def test_need_grad_and_needs_input_grad(fops):
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    fops.need_probe(x, 0.5, y)
    assert fops.probe() == [False, False]  # nothing tracked: NeedGrad is false, no node, no Backward
    g = ms.grad(lambda a, b: fops.need_probe(a, 0.5, b).sum(), grad_position=0)(x, y)
    np.testing.assert_allclose(g.asnumpy(), [1.0, 1.0])
    assert fops.probe() == [True, False, True, False]  # NeedGrad(x), NeedGrad(y), NeedsInputGrad(0), (1)
    gx, gy = ms.grad(lambda a, b: fops.need_probe(a, 0.5, b).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gy.asnumpy(), [0.5, 0.5])
    assert fops.probe() == [True, True, True, True]
    g = ms.grad(lambda b: fops.need_probe(x, 0.5, b).sum())(y)
    assert fops.probe() == [False, True, False, True]  # NeedsInputGrad counts tensor arguments only


def test_needs_input_grad_out_of_range(fops):
    with pytest.raises(IndexError, match="NeedsInputGrad: tensor index 1 is out of range"):
        ms.grad(lambda a: fops.need_probe_out_of_range(a).sum())(ms.Tensor([1.0]))


def test_materialize_grads_false_passes_nullptr_for_unused_outputs(fops):
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    dx = ms.grad(lambda a, b: fops.mul_add_no_materialize(a, b)[0].sum())(x, y)
    assert fops.probe() == [False, True]
    np.testing.assert_allclose(dx.asnumpy(), y.asnumpy())
    dx = ms.grad(lambda a, b: fops.mul_add_no_materialize(a, b)[1].sum())(x, y)
    assert fops.probe() == [True, False]
    np.testing.assert_allclose(dx.asnumpy(), [1.0, 1.0])
    dx = ms.grad(lambda a, b: sum(o.sum() for o in fops.mul_add_no_materialize(a, b)))(x, y)
    assert fops.probe() == [False, False]
    # a used output whose gradient happens to be all zeros is still passed (not nullptr)
    def both_used_first_zero(a, b):
        o = fops.mul_add_no_materialize(a, b)
        return (o[0] * 0).sum() + o[1].sum()
    ms.grad(both_used_first_zero)(x, y)
    assert fops.probe() == [False, False]
    dx = ms.grad(lambda a, b: fops.mul_add(a, b)[0].sum())(x, y)  # default: zeros for the unused output
    np.testing.assert_allclose(dx.asnumpy(), y.asnumpy())


def test_no_grad_mode_records_nothing(fops):
    x = leaf([1.0, 2.0])
    with ms.no_grad():
        out = fops.mul(x, x)
    assert out.grad_fn is None and not out.requires_grad
    with ms.no_grad():
        a, b = fops.mul_add(x, x)
    assert a.grad_fn is None and b.grad_fn is None


def test_second_order_through_a_backward_made_of_recorded_ops(fops):
    x = ms.Tensor([1.0, -2.0, 3.0], ms.float64)
    g2 = ms.grad(ms.grad(lambda t: fops.square_twice(t).sum()))(x)
    np.testing.assert_allclose(g2.asnumpy(), [2.0, 2.0, 2.0])
    assert ms.gradgradcheck(lambda t: fops.square_twice(t), (x,), raise_exception=False).passed


def test_second_order_through_raw_kernels_is_a_clear_error(fops):
    x = ms.Tensor([1.0, 2.0], ms.float64)
    with pytest.raises(SecondOrderError, match="Second-order gradients through the C\\+\\+ Backward of 'CustomMul'"):
        ms.grad(ms.grad(lambda t: fops.mul(t, t).sum()))(x)
    g = ms.grad(lambda t: fops.mul(t, t).sum())(x)  # first order is unaffected
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])


def test_saved_outputs_do_not_keep_the_graph_alive(fops, grad_on):
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    t = x * 1.0
    r = fops.inplace_mul(t, y)  # saves its own output
    node = weakref.ref(r.grad_fn)
    del r, t
    gc.collect()
    assert node() is None


def test_cpp_and_python_functions_in_one_graph(fops):
    """A C++ Function<T> and a Python _Function chained: one graph, both backwards run."""
    import numpy as np
    import mskernel as ms

    class Triple(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, d):
            return d * 3

    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([4.0, 5.0], np.float32))
    gx, gy = ms.grad(lambda a, b: Triple.apply(fops.mul(a, b)).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), 3 * y.asnumpy())
    np.testing.assert_allclose(gy.asnumpy(), 3 * x.asnumpy())
    ops_in_graph = {n["kind"] for n in ms.autograd.trace(lambda a: Triple.apply(fops.mul(a, y)), x)[0].nodes}
    assert {"cpp_function", "python_function"} <= ops_in_graph
