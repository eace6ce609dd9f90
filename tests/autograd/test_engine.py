"""The backward engine: accumulation, pruning, broadcasting, release, no_grad, memory."""
import gc
import tracemalloc

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.autograd import GradientError, gradients, record


def tracked(values, dtype=ms.float64):
    t = ms.Tensor(np.asarray(values, dtype=dtype.np))
    t.requires_grad = True
    return t


def test_shared_subexpression_accumulates():
    x = tracked([1.0, 2.0])
    y = x * x
    z = y + y * y  # y used twice
    (g,) = gradients([z.sum()], [x])
    np.testing.assert_allclose(g.asnumpy(), 2 * x.asnumpy() + 4 * x.asnumpy() ** 3)


def test_broadcast_gradients_are_reduced_to_input_shape():
    x = tracked([[1.0], [2.0]])  # (2, 1)
    b = tracked([10.0, 20.0, 30.0])  # (3,)
    out = (x * b).sum()
    gx, gb = gradients([out], [x, b])
    assert gx.shape == (2, 1) and gb.shape == (3,)
    np.testing.assert_allclose(gx.asnumpy(), [[60.0], [60.0]])
    np.testing.assert_allclose(gb.asnumpy(), [3.0, 3.0, 3.0])


def test_engine_reduces_broadcast_grads_from_custom_rules():
    x = tracked([1.0, 2.0])
    y = ms.Tensor._wrap(x.asnumpy() * 3)
    record("Triple", (x,), (y,), lambda d: (ms.Tensor(np.full((4, 2), 3.0)),))  # broadcast-shaped grad
    (g,) = gradients([y], [x])
    np.testing.assert_allclose(g.asnumpy(), [12.0, 12.0])


def test_bad_gradient_shape_raises_clear_error():
    x = tracked([1.0, 2.0])
    y = ms.Tensor._wrap(x.asnumpy() * 3)
    record("Bad", (x,), (y,), lambda d: (ms.Tensor(np.ones(3)),))
    with pytest.raises(GradientError, match=r"For 'Bad', .*shape \[3\] for input 0, which has shape \[2\]"):
        gradients([y], [x])


def test_wrong_number_of_grads_raises():
    x = tracked([1.0])
    y = ms.Tensor._wrap(x.asnumpy())
    record("Two", (x,), (y,), lambda d: (d[0], d[0]))
    with pytest.raises(GradientError, match="returned 2 gradients for 1 inputs"):
        gradients([y], [x])


def test_gradients_wrt_intermediate_tensor():
    x = tracked([2.0])
    y = x * 3
    z = y * y
    gy, gx = gradients([z], [y, x])
    assert gy.item() == 12.0 and gx.item() == 36.0


def test_pruning_skips_branches_that_do_not_reach_targets():
    calls = []
    x, w = tracked([1.0]), tracked([2.0])
    y = ms.Tensor._wrap(w.asnumpy() * 2)
    record("Spy", (w,), (y,), lambda d: calls.append(1) or (d[0] * 2,))
    (g,) = gradients([(x * y).sum()], [x])
    assert g.item() == 4.0 and calls == []


def test_graph_is_released_after_backward_unless_retained():
    x = tracked([3.0])
    y = ops.exp(x)
    node = y.grad_fn
    assert node.saved_out is not None
    gradients([y], [x])
    assert node.backward is None and node.saved_out is None
    with pytest.raises(GradientError, match="already released"):
        gradients([y], [x])
    z = ops.exp(x)
    gradients([z], [x], retain_graph=True)
    assert gradients([z], [x])[0].item() == pytest.approx(np.exp(3.0))


def test_no_grad_and_stop_gradient():
    x = ms.Parameter(ms.Tensor([1.0]), name="x")
    with ms.no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    g = ms.grad(lambda a: a * ops.stop_gradient(a * a))(ms.Tensor(3.0))
    assert g.item() == 9.0

    @ms.no_grad()
    def f(a):
        return a * 2
    assert f(x).grad_fn is None


def test_integer_and_bool_tensors_are_never_tracked():
    i = ms.Tensor([1, 2])
    with pytest.raises(TypeError, match="only floating-point"):
        i.requires_grad = True
    x = tracked([1.0, 2.0])
    mask = x > 1.5
    assert not mask.requires_grad and mask.dtype == ms.bool_


def test_multi_output_node_with_unused_output_gets_zero_dout():
    x = tracked([1.0, 2.0])
    a = ms.Tensor._wrap(x.asnumpy() * 2)
    b = ms.Tensor._wrap(x.asnumpy() * 3)
    seen = []

    def backward(d):
        seen.append([t.asnumpy().copy() for t in d])
        return (d[0] * 2 + d[1] * 3,)
    record("Split", (x,), (a, b), backward)
    (g,) = gradients([a.sum()], [x])
    np.testing.assert_allclose(seen[0][1], [0.0, 0.0])
    np.testing.assert_allclose(g.asnumpy(), [2.0, 2.0])


def test_materialize_grads_false_passes_none_only_for_unused_outputs():
    x = tracked([1.0, 2.0])
    a = ms.Tensor._wrap(x.asnumpy() * 2)
    b = ms.Tensor._wrap(x.asnumpy() * 3)
    seen = []

    def backward(d):
        seen.append([None if t is None else t.asnumpy().copy() for t in d])
        return (sum(t for t in d if t is not None),)
    record("Split", (x,), (a, b), backward, materialize_grads=False)
    gradients([a.sum()], [x], retain_graph=True)
    assert seen[-1][1] is None
    gradients([(a * 0).sum() + b.sum()], [x], retain_graph=True)  # a used, with an all-zero gradient
    assert seen[-1][0] is not None and not seen[-1][0].any()


def test_long_loop_of_grad_calls_does_not_grow_memory():
    net_w = ms.Parameter(ms.Tensor(np.ones((64, 64))), name="w")
    x = ms.Tensor(np.ones((64, 64)))

    def f(a):
        h = ops.tanh(ops.matmul(a, net_w))
        return (ops.exp(h) * h).mean()
    step = ms.value_and_grad(f, 0, weights=[net_w])
    for _ in range(20):
        step(x)
    gc.collect()
    tracemalloc.start()
    try:
        step(x)
        base, _ = tracemalloc.get_traced_memory()
        for _ in range(300):
            step(x)
        gc.collect()
        now, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # one step allocates ~30 KB arrays; a leak of one step's graph per call would be megabytes
    assert now - base < 200_000, f"memory grew by {now - base} bytes over 300 grad calls"


def test_graph_is_freed_by_reference_counting_without_gc():
    import weakref
    x = ms.Tensor(np.ones(1000))
    gc.disable()
    try:
        g = ms.grad(lambda a: (ops.exp(a) * a).sum())
        refs = []
        orig = ops.exp

        def spy(t):
            out = orig(t)
            refs.append(weakref.ref(out.grad_fn))
            return out
        ms.ops.exp = spy
        try:
            g(x)
        finally:
            ms.ops.exp = orig
        assert refs and refs[0]() is None, "the graph survived the grad call: a reference cycle?"
    finally:
        gc.enable()


def test_graph_snapshot_after_trace():
    w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")
    snap, grads = ms.autograd.trace(lambda x: (x * w).sum(), ms.Tensor([1.0, 1.0]), weights=[w])
    ops_seen = [n["op"] for n in snap.nodes]
    assert ops_seen[-2:] == ["Mul", "ReduceSum"] and {"input 0", "w"} <= set(ops_seen)
    mul = next(n for n in snap.nodes if n["op"] == "Mul")
    assert mul["kind"] == "builtin"
    assert mul["inputs"] == [{"shape": [2], "dtype": "Float32"}, {"shape": [2], "dtype": "Float32"}]
    assert mul["outputs"] == [{"shape": [2], "dtype": "Float32"}]
    assert mul["stats"]["douts"][0]["norm"] == pytest.approx(np.sqrt(2))
    wnode = next(n for n in snap.nodes if n["op"] == "w")
    assert wnode["kind"] == "leaf" and wnode["stats"]["douts"][0]["norm"] == pytest.approx(np.sqrt(2))
    srcs = {(e["src"], e["dst"]) for e in snap.edges}
    assert (wnode["id"], mul["id"]) in srcs
    assert snap.outputs == [next(n["id"] for n in snap.nodes if n["op"] == "ReduceSum")]
    assert grads[1].asnumpy().tolist() == [1.0, 1.0]
    assert "Mul (builtin)" in str(snap)


def test_snapshot_of_live_graph_without_backward_has_no_stats():
    x = tracked([1.0])
    snap = ms.autograd.snapshot(ops.sin(x) * 2)
    assert [n["op"] for n in snap.nodes] == ["input 0", "Sin", "Mul"]
    assert all(n["stats"] is None for n in snap.nodes)


def test_trace_records_a_nested_grad_like_grad_does():
    # trace, gradcheck and grad share one tracking mechanism: a grad inside the traced fn is recorded
    snap, (g,) = ms.autograd.trace(lambda x: ms.grad(lambda a: a * a * a)(x).sum(), ms.Tensor([2.0]))
    assert g.item() == 12.0
    assert ms.grad(lambda x: ms.grad(lambda a: a * a * a)(x).sum())(ms.Tensor([2.0])).item() == 12.0


def test_intermediates_no_rule_needs_are_freed_after_the_forward():
    import weakref
    x = tracked([1.0, 2.0])
    a = x * 2.0                     # Add and Mul-by-constant rules do not read their tensor input
    buf = weakref.ref(a._data.base if a._data.base is not None else a._data)
    wa = weakref.ref(a)
    b = (a + 1.0) * 3.0
    s = ops.reshape(b, (2, 1)).sum()  # Reshape and ReduceSum keep only shapes
    del a, b
    assert wa() is None and buf() is None
    (g,) = gradients([s], [x])
    np.testing.assert_allclose(g.asnumpy(), [6.0, 6.0])


def test_graph_snapshot_still_sees_freed_inputs_shapes():
    x = tracked([1.0, 2.0, 3.0])
    snap, _ = ms.autograd.trace(lambda t: ((t * 2.0) + 1.0).sum(), x)
    add = [n for n in snap.nodes if n["op"] == "Add"][0]
    assert add["inputs"] == [{"shape": [3], "dtype": "Float64"}, {"shape": [], "dtype": "Float64"}]
    assert {"src": [n["id"] for n in snap.nodes if n["op"] == "Mul"][0], "src_output": 0,
            "dst": add["id"], "dst_input": 0} in snap.edges
