"""jvp / vjp / jacfwd / jacrev, the hook primitives and the composite helpers (structures as MindSpore 2.10)."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops
from mskernel.ops import composite as C


def _t(*v):
    return ms.Tensor(np.array(v, np.float32))


X, Y, V = _t(1.0, 2.0), _t(3.0, 4.0), _t(1.0, 1.0)


def test_jvp_structures_and_values() -> None:
    out, tan = ops.jvp(lambda a: a ** 3, X, V)
    assert out.asnumpy().tolist() == [1.0, 8.0] and tan.asnumpy().tolist() == [3.0, 12.0]
    out, tan = ops.jvp(lambda a, b: (a * b, a + b), [X, Y], [V, _t(0.0, 1.0)])
    assert isinstance(out, tuple) and isinstance(tan, tuple)
    assert [t.asnumpy().tolist() for t in tan] == [[3.0, 6.0], [1.0, 2.0]]
    out, tan, aux = ops.jvp(lambda a, b: (a * b, a), (X, Y), (V, V), has_aux=True)
    assert tan.asnumpy().tolist() == [4.0, 6.0] and aux.asnumpy().tolist() == [1.0, 2.0]
    _, _, aux = ops.jvp(lambda a, b: (a * b, a, b), (X, Y), (V, V), has_aux=True)
    assert isinstance(aux, tuple) and len(aux) == 2
    _, tan = ops.jvp(lambda a: Y, X, V)  # an output that does not depend on the input
    assert tan.asnumpy().tolist() == [0.0, 0.0]


def test_jvp_errors() -> None:
    with pytest.raises(ValueError, match="^v has invalid length: should be 2, but got 1$"):
        ops.jvp(lambda a, b: a * b, (X, Y), (V,))
    with pytest.raises(TypeError, match="^The inputs type must be a Tensor, tuple or list of Tensors.$"):
        ops.jvp(lambda a: a, 1.0, V)
    with pytest.raises(TypeError, match="^The 'has_aux' must be bool type.$"):
        ops.jvp(lambda a: a, X, V, has_aux=1)
    with pytest.raises(ValueError, match="requires more than one outputs"):
        ops.jvp(lambda a: a * 2, X, V, has_aux=True)


def test_vjp_structures_weights_and_repeated_calls() -> None:
    out, fn = ops.vjp(lambda a: a ** 3, X)
    g = fn(V)
    assert isinstance(g, tuple) and len(g) == 1 and g[0].asnumpy().tolist() == [3.0, 12.0]
    assert fn(V * 2)[0].asnumpy().tolist() == [6.0, 24.0]  # the graph is kept between calls
    _, fn = ops.vjp(lambda a, b: (a * b, a + b), X, Y)
    assert [t.asnumpy().tolist() for t in fn(V, V)] == [[4.0, 5.0], [2.0, 3.0]]
    assert [t.asnumpy().tolist() for t in fn((V, V))] == [[4.0, 5.0], [2.0, 3.0]]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_t(2.0, 3.0), name="w")

        def construct(self, a):
            return a * self.w

    net = Net()
    gi, gw = ops.vjp(net, X, weights=net.trainable_params())[1](V)
    assert gi[0].asnumpy().tolist() == [2.0, 3.0] and isinstance(gw, tuple) and gw[0].asnumpy().tolist() == [1, 2]
    gi, gw = ops.vjp(net, X, weights=net.w)[1](V)
    assert isinstance(gw, ms.Tensor) and gw.asnumpy().tolist() == [1.0, 2.0]
    out, fn, aux = ops.vjp(lambda a, b: (a * b, a), X, Y, has_aux=True)
    assert aux.asnumpy().tolist() == [1.0, 2.0] and fn(V)[1].asnumpy().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="^The inputs type must be Tensor.$"):
        ops.vjp(lambda a: a, 1.0)
    with pytest.raises(TypeError, match="^The inputs type must be Tensor.$"):
        ops.vjp(lambda a: a, X)[1](1.0)
    with pytest.raises(ValueError, match="^When 'has_aux' is True, origin 'fn' requires more than one outputs.$"):
        ops.vjp(lambda a: a, X, has_aux=True)


def test_jacobian_structures_agree_between_modes() -> None:
    y3 = _t(3.0, 4.0, 5.0)

    def f(a, b):
        return a * a, b.sum() * a

    for jac in (ops.jacfwd, ops.jacrev):
        j = jac(lambda a: a ** 2)(X)
        assert j.shape == (2, 2) and j.asnumpy().tolist() == [[2, 0], [0, 4]]
        assert isinstance(jac(f)(X, y3), tuple) and len(jac(f)(X, y3)) == 2
        both = jac(f, (0, 1))(X, y3)
        assert [[t.shape for t in row] for row in both] == [[(2, 2), (2, 3)], [(2, 2), (2, 3)]]
        assert both[1][1].asnumpy().tolist() == [[1, 1, 1], [2, 2, 2]]
        assert jac(lambda a: (a * a).sum())(X).asnumpy().tolist() == [2.0, 4.0]
        j, aux = jac(lambda a, b: (a * 2, b), 0, True)(X, y3)
        assert j.shape == (2, 2) and aux.shape == (3,)
        assert jac(lambda a: a ** 2)(ms.Tensor(np.ones((2, 2), np.float32))).shape == (2, 2, 2, 2)
        with pytest.raises(ValueError, match=r"^The element in grad_position must belong to \[0, args_num\).$"):
            jac(f, 2)(X, y3)
        with pytest.raises(TypeError, match="^For 'F.grad', the 'grad_position' must be int or tuple.$"):
            jac(f, 1.0)(X, y3)
        with pytest.raises(ValueError, match="^grad_position must be >= 0.$"):
            jac(f, -1)(X, y3)
        with pytest.raises(TypeError, match="^The 'has_aux' must be bool type.$"):
            jac(f, 0, 1)


def test_transforms_nest_for_higher_order() -> None:
    hess = ops.jacfwd(ops.jacrev(lambda a: (a ** 3).sum()))(X)
    assert hess.asnumpy().tolist() == [[6.0, 0.0], [0.0, 12.0]]
    assert ms.grad(lambda a: ops.jvp(lambda b: b ** 3, a, V)[1].sum())(X).asnumpy().tolist() == [6.0, 12.0]
    assert ms.grad(lambda a: ops.vjp(lambda b: b ** 3, a)[1](V)[0].sum())(X).asnumpy().tolist() == [6.0, 12.0]


def test_hook_backward() -> None:
    seen = []

    def hook_fn(grads):
        seen.append(grads)

    hook = ops.HookBackward(hook_fn)
    assert repr(hook) == "Prim[HookBackward]<cell_id=>"

    def f(x, y):
        return hook(x * y) * y

    gx, gy = ops.GradOperation(get_all=True)(f)(_t(1.0), _t(2.0))
    assert isinstance(seen[0], tuple) and seen[0][0].asnumpy().tolist() == [2.0]
    assert gx.asnumpy().tolist() == [4.0] and gy.asnumpy().tolist() == [4.0]
    times_ten = ops.HookBackward(lambda g: g[0] * 10)
    assert ms.grad(lambda x: times_ten(x * 2) * 3)(_t(1.0)).asnumpy().tolist() == [60.0]
    pair = ops.HookBackward(lambda g: (g[0] * 2, g[1] * 3))
    a, b = ms.grad(lambda x, y: ops.mul(*pair(x, y)).sum(), (0, 1))(_t(1.0), _t(2.0))
    assert a.asnumpy().tolist() == [4.0] and b.asnumpy().tolist() == [3.0]

    def five(g):
        return 5

    with pytest.raises(TypeError, match="^The output type of function: five should be a tensor but got int.$"):
        ms.grad(lambda x: ops.HookBackward(five)(x * 2))(_t(1.0))
    with pytest.raises(TypeError, match="^Expected a callable hook function, but got int.$"):
        ops.HookBackward(3)
    with pytest.raises(TypeError, match="^For 'HookBackward', the element of 'input' must be Tensor, but got Float32"):
        hook(1.0)


def test_insert_gradient_of_clips() -> None:
    a, b = _t(1.0), _t(0.2)

    def clip_gradient(dx):
        ret = dx
        if ret > a:
            ret = a
        if ret < b:
            ret = b
        return ret

    clip = ops.InsertGradientOf(clip_gradient)

    def clip_test(x, y):
        return clip(x) * clip(y)

    gx, gy = ops.GradOperation(get_all=True)(clip_test)(_t(1.1), _t(0.1))
    np.testing.assert_allclose([gx.asnumpy()[0], gy.asnumpy()[0]], [0.2, 1.0], rtol=1e-6)
    assert clip(3.0) == 3.0
    with pytest.raises(RuntimeError, match="^For 'InsertGradientOf', the number of input should be 1, but got 2$"):
        clip(a, b)
    assert repr(clip).startswith("Prim[InsertGradientOf]<f=<function ") and \
        repr(clip).endswith(", side_effect_backprop=True, side_effect_backprop_mem=True>")


def test_depend_and_partial() -> None:
    gx, gy = ms.grad(lambda x, y: ops.depend(x * 2, y * 3).sum(), (0, 1))(_t(1.0), _t(2.0))
    assert gx.asnumpy().tolist() == [2.0] and gy.asnumpy().tolist() == [0.0]
    assert ops.Depend()([1, 2], X) == [1, 2] and repr(ops.Depend()) == "Prim[Depend]<side_effect_propagate=1>"
    assert ops.partial(lambda a, b: a - b, 10)(3) == 7 and ops.Partial()(lambda a, b: a * b, 6)(7) == 42


def test_multitype_func_graph_dispatch() -> None:
    f = C.MultitypeFuncGraph("f")
    @f.register("Bool")
    def _b(x):
        return "bool"

    @f.register("Int")
    def _i(x):
        return "int"

    @f.register("Float")
    def _fl(x):
        return "float"

    @f.register("Tensor")
    def _te(x):
        return "tensor"

    @f.register("Tuple")
    def _tu(x):
        return "tuple"

    @f.register("List")
    def _li(x):
        return "list"

    @f.register("String")
    def _s(x):
        return "string"

    @f.register("None")
    def _n(x):
        return "none"

    @f.register("Function")
    def _fn(x):
        return "function"

    got = [f(v) for v in (True, 1, 1.5, np.float32(2), X, ms.Parameter(X, name="p"), (1,), [1], "s", None, len)]
    assert got == ["bool", "int", "float", "float", "tensor", "tensor", "tuple", "list", "string", "none", "function"]
    with pytest.raises(ValueError, match="^For 'MultitypeFuncGraph', cannot find fn match given args"):
        f(1, 2)
    with pytest.raises(TypeError, match="^For 'MultitypeFuncGraph', the input can not be numpy.ndarray$"):
        f(np.ones(2))
    with pytest.raises(RuntimeError, match="^Unsupported type name: Bogus!$"):
        f.register("Bogus")(len)
    with pytest.raises(TypeError, match="register only support str"):
        f.register(3)(len)
    one = C.MultitypeFuncGraph("one")
    one.register("Number")(lambda x: ("only", x))
    assert one("not a number") == ("only", "not a number")  # a single registration is called for any types
    typed = C.MultitypeFuncGraph("typed")
    typed.register("Tensor[Float32]")(lambda x: "f32")
    typed.register("Tensor")(lambda x: "other")
    typed.register("Int32")(lambda x: "i32")
    assert [typed(X), typed(ms.Tensor(np.ones(1))), typed(np.int32(1))] == ["f32", "other", "i32"]


def test_hypermap_and_map() -> None:
    square = C.MultitypeFuncGraph("square")
    square.register("Tensor")(lambda x: ops.square(x))
    nest = ((_t(1.0), _t(2.0)), (_t(3.0), _t(4.0)))
    out = C.HyperMap()(square, nest)
    assert [[t.asnumpy().tolist() for t in row] for row in out] == [[[1.0], [4.0]], [[9.0], [16.0]]]
    assert C.HyperMap(square, False)(nest)[1][1].asnumpy().tolist() == [16.0]
    assert C.HyperMap()(lambda a, b: a + b, [1, [2, 3]], [10, [20, 30]]) == (11, (22, 33))
    assert C.HyperMap()(lambda a: a * 2, 3) == 6  # a leaf
    assert C.Map()(lambda a, b: a + b, (1, 2), (3, 4)) == (4, 6)
    assert isinstance(C.Map(square)([X, Y]), tuple)
    with pytest.raises(RuntimeError, match="MultitypeFuncGraph"):
        C.HyperMap(lambda x: x)
    with pytest.raises(TypeError, match="MultitypeFuncGraph"):
        C.Map(lambda x: x)
