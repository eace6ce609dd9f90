"""mskernel.graph: op wrappers and infer functions as primitives run inside jit functions (the scope rules are
recorded from the wheel in tests/golden/cases/graph_namespace.py), and the refusal of real plugins."""
from __future__ import annotations

import shutil
import subprocess
import threading

import numpy as np
import pytest

import mskernel as ms
from mskernel import graph, nn, ops
from mskernel.common import jit_scope
from mskernel.errors import RefusedError
from mskernel.ops.primitive import Primitive, PrimitiveWithInfer


@pytest.fixture(autouse=True)
def _clean():
    graph.clear_op_wrapper()
    graph.clear_op_infer()
    yield
    graph.clear_op_wrapper()
    graph.clear_op_infer()
    jit_scope.CUSTOM_BACKENDS.clear()


def _plus_one(*args):
    def func(*xs):
        return xs[0] + 1
    return func


def test_flags_are_down_outside_jit():
    graph.register_op_wrapper("Add")(_plus_one)
    assert jit_scope.REGISTERED[0] and not jit_scope.ARMED[0]
    seen = []

    @ms.jit
    def f(a):
        seen.append(jit_scope.ARMED[0])
        return ops.Add()(a, a)
    np.testing.assert_allclose(f(ms.Tensor([2.0])).asnumpy(), [3.0])
    assert seen == [True] and not jit_scope.ARMED[0] and jit_scope.depth() == 0
    graph.clear_op_wrapper()
    assert not jit_scope.REGISTERED[0]


def test_scope_is_left_when_the_function_raises():
    graph.register_op_wrapper("Add")(_plus_one)

    @ms.jit
    def bad(a):
        raise KeyError("boom")
    with pytest.raises(KeyError):
        bad(ms.Tensor([1.0]))
    assert jit_scope.depth() == 0 and not jit_scope.ARMED[0]
    np.testing.assert_allclose(ops.Add()(ms.Tensor([1.0]), ms.Tensor([1.0])).asnumpy(), [2.0])


def test_hand_written_primitive_and_super_call_are_wrapped_once():
    class Base(PrimitiveWithInfer):
        def __init__(self):
            super().__init__("MyTwice")

        def __call__(self, x):
            return x * 2

    class Derived(Base):
        def __call__(self, x):
            return super().__call__(x) + 0

    calls = []

    @graph.register_op_wrapper("MyTwice")
    def wrap(x):
        calls.append(1)

        def func(v):
            return v * 3
        return func

    x = ms.Tensor([1.0])
    np.testing.assert_allclose(ms.jit(lambda a: Derived()(a))(x).asnumpy(), [3.0])
    np.testing.assert_allclose(Derived()(x).asnumpy(), [2.0])
    assert calls == [1]
    assert issubclass(Base, Primitive)


def test_wrapper_function_calling_its_own_op_runs_the_op():
    @graph.register_op_wrapper("Add")
    def wrap(a, b):
        def func(p, q):
            return ops.Add()(p, q) * 2
        return func
    out = ms.jit(lambda a, b: ops.Add()(a, b))(ms.Tensor([1.0]), ms.Tensor([2.0]))
    np.testing.assert_allclose(out.asnumpy(), [6.0])


def test_gradient_through_wrapper_matches_numpy():
    @graph.register_op_wrapper("Mul")
    def wrap(a, b):
        def func(p, q):
            return p * p * q
        return func

    class Net(nn.Cell):
        @ms.jit
        def construct(self, a, b):
            return ops.Mul()(a, b).sum()
    a, b = np.array([1.5, -2.0], np.float32), np.array([3.0, 0.5], np.float32)
    ga, gb = ms.grad(Net(), grad_position=(0, 1))(ms.Tensor(a), ms.Tensor(b))
    np.testing.assert_allclose(ga.asnumpy(), 2 * a * b, rtol=1e-6)
    np.testing.assert_allclose(gb.asnumpy(), a * a, rtol=1e-6)


def test_annotations_do_not_outlive_the_jit_call_nor_cross_threads():
    graph.register_op_infer("Add", "layout")(lambda a, b: "L")
    got = {}

    @graph.register_op_infer("Neg", "layout")
    def neg_infer(a):
        got.setdefault("neg", []).append(getattr(a, "layout", None))

    f = ms.jit(lambda a: ops.Neg()(ops.Add()(a, a)))
    x = ms.Tensor([1.0])
    f(x)
    z = ops.Add()(x, x)
    assert not hasattr(z, "layout")
    other = []
    thread = threading.Thread(target=lambda: other.append(ops.Neg()(ops.Add()(x, x))))
    thread.start()
    thread.join()
    assert got["neg"] == ["L"] and len(other) == 1


def _compiler():
    return shutil.which("cc") or shutil.which("gcc")


@pytest.mark.skipif(_compiler() is None, reason="needs a C compiler to build a plugin-shaped library")
def test_real_plugins_are_refused(tmp_path):
    src = tmp_path / "plugin.c"
    src.write_text("void *CreatePlugin(void) { return 0; }\n")
    lib = tmp_path / "plugin.so"
    subprocess.run([_compiler(), "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    with pytest.raises(RefusedError, match="custom-pass plugin"):
        graph.register_custom_pass("my_pass", str(lib), "cpu", graph.CustomPassType.FULL_GRAPH)
    assert graph.register_custom_backend("my_backend", str(lib)) is True

    @ms.jit(backend="my_backend")
    def f(a):
        return a + 1
    with pytest.raises(RefusedError, match="graph-compiler API"):
        f(ms.Tensor([1.0]))
    np.testing.assert_allclose(ms.jit(lambda a: a + 1, backend="ms_backend")(ms.Tensor([1.0])).asnumpy(), [2.0])
