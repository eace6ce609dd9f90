"""The C paths of the hot calls against their Python references.

* Tensor operators (``+ - * / -x`` and ``x.sum()``) record in C with backward rules in C
  (``OPERATOR_RULES`` in mskernel/autograd/_cengine_operators.c); the reference is the same program written with
  the ops (``ops.add`` ... ``ops.sum``), which record the Python lambdas of mskernel/ops/math.py and
  reduce.py. Random programs must give the same nodes and bit-identical values, gradients and second
  derivatives.
* ``grad``/``value_and_grad``'s common call runs in C (``_cengine.grad_call``); the reference is
  ``api._run``. Every call that is not the common kind must fall back before anything runs.
"""
from __future__ import annotations

import gc
import os
import weakref

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mskernel as ms
from mskernel import ops
from mskernel._accel import cengine
from mskernel.autograd import api
from mskernel.autograd.node import STATE
from mskernel.common.tensor import Tensor

C = cengine()
needs_c = pytest.mark.skipif(C is None, reason="compiled core not active")

# one instruction: (name, operator form, ops form); operands are pool indices or a Python scalar
_BIN = {
    "add": (lambda a, b: a + b, ops.add), "sub": (lambda a, b: a - b, ops.sub),
    "mul": (lambda a, b: a * b, ops.mul), "div": (lambda a, b: a / b, ops.div),
}
_SCALARS = [0.5, -2.0, 3, 1e-3]


def _run_program(prog, leaves, form):
    """Run prog on leaves with the operators (form 0) or the ops (form 1); returns the pool."""
    pool = list(leaves)
    for kind, *args in prog:
        if kind == "neg":
            a = pool[args[0]]
            pool.append(-a if form == 0 else ops.neg(a))
        elif kind == "sum":
            a = pool[args[0]]
            pool.append(a.sum() if form == 0 else ops.sum(a))
        else:
            f = _BIN[kind][form]
            a, b, scalar_side = args
            if scalar_side == "right":
                pool.append(f(pool[a], b))
            elif scalar_side == "left":
                pool.append(f(b, pool[a]) if form == 1 else {"add": lambda: b + pool[a], "sub": lambda: b - pool[a],
                                                             "mul": lambda: b * pool[a],
                                                             "div": lambda: b / pool[a]}[kind]())
            else:
                pool.append(f(pool[a], pool[b]))
    return pool


def _program(data, n_leaves):
    prog = []
    size = n_leaves
    for _ in range(data.draw(st.integers(1, 8))):
        kind = data.draw(st.sampled_from(["add", "sub", "mul", "div", "neg", "sum"]))
        a = data.draw(st.integers(0, size - 1))
        if kind in ("neg", "sum"):
            prog.append((kind, a))
        else:
            side = data.draw(st.sampled_from(["tensor", "right", "left"]))
            b = data.draw(st.integers(0, size - 1)) if side == "tensor" else data.draw(st.sampled_from(_SCALARS))
            prog.append((kind, a, b, side))
        size += 1
    return prog


def _nodes(root):
    seen, stack, out = set(), [root._node], []
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(t._node for t in n.inputs if t is not None)
    return sorted(out, key=lambda n: n.id)


def _structure(root):
    return [(n.op, n.kind, n.out_meta, [(t.shape, t.dtype, t._rg, t._node is None) for t in n.inputs])
            for n in _nodes(root)]


@needs_c
@settings(max_examples=int(os.environ.get("MSKERNEL_HYPOTHESIS_EXAMPLES", "60")), deadline=None)
@given(data=st.data())
def test_operator_programs_match_the_ops(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    dtype = data.draw(st.sampled_from([np.float32, np.float64]))
    shapes = [(3,), (2, 3), (1, 3)]
    arrays = [(rng.standard_normal(s) + 2.0).astype(dtype) for s in shapes]  # away from 0: division stays finite
    tracked = data.draw(st.lists(st.booleans(), min_size=3, max_size=3))
    params = data.draw(st.lists(st.booleans(), min_size=3, max_size=3))  # Parameters take the same paths
    prog = _program(data, len(arrays))

    def run(form):
        leaves = []
        for i, (a, t) in enumerate(zip(arrays, tracked)):
            if params[i]:
                x = ms.Parameter(ms.Tensor(a.copy()), name=f"p{i}")
                x._rg = t  # as grad(..., weights=) tracks a weight
            else:
                x = ms.Tensor(a.copy())
                x.requires_grad = t
            leaves.append(x)
        try:
            with np.errstate(all="ignore"):
                pool = _run_program(prog, leaves, form)
        except ValueError:  # shapes that do not broadcast: both forms must refuse
            return None
        return leaves, pool

    got, want = run(0), run(1)
    assert (got is None) == (want is None)
    if got is None:
        return
    (lc, pc), (lp, pp) = got, want
    for a, b in zip(pc, pp):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    rc, rp = pc[-1].sum(), pp[-1].sum()
    if not rc.requires_grad:
        return
    assert _structure(rc) == _structure(rp)
    targets_c = [t for t in lc if t.requires_grad]
    targets_p = [t for t in lp if t.requires_grad]
    with np.errstate(all="ignore"):
        STATE.depth += 1  # as inside grad: the backward is recorded, for second derivatives
        try:
            gc_ = ms.autograd.gradients([rc], targets_c, create_graph=True)
            gp = ms.autograd.gradients([rp], targets_p, create_graph=True)
        finally:
            STATE.depth -= 1
        for a, b in zip(gc_, gp):
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
        firsts = [(a, b) for a, b in zip(gc_, gp) if a is not None and a.requires_grad]
        if firsts:
            g2c = ms.autograd.gradients([sum(a.sum() for a, _ in firsts)], targets_c)
            g2p = ms.autograd.gradients([sum(b.sum() for _, b in firsts)], targets_p)
            for a, b in zip(g2c, g2p):
                assert (a is None) == (b is None)
                if a is not None:
                    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


@needs_c
def test_operator_nodes_carry_c_rules_that_are_called_like_the_lambdas():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    x.requires_grad = True
    y = x * 3.0
    node = y.grad_fn
    assert (node.op, node.kind) == ("Mul", "builtin") and "C rule" in repr(node.backward)
    d = Tensor._wrap(np.array([1.0, 1.0], np.float32))
    dx, dy = node.backward([d])  # the engine's calling convention: a list of output gradients
    assert dx.asnumpy().tolist() == [3.0, 3.0] and dy is None
    with pytest.raises(TypeError, match="the backward of Mul takes one argument"):
        node.backward()
    with pytest.raises(IndexError):
        node.backward([])
    s = x.sum()
    (g,) = s.grad_fn.backward([Tensor._wrap(np.array(2.0, np.float32))])
    assert s.grad_fn.op == "ReduceSum" and g.shape == (2,) and g.asnumpy().tolist() == [2.0, 2.0]


@needs_c
def test_rules_keep_only_the_operands_they_read():
    x = ms.Tensor(np.ones(4, np.float32))
    x.requires_grad = True
    y = ms.Tensor(np.ones(4, np.float32))
    refs = []
    for expr in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: -a):
        tmp = Tensor._wrap(y.asnumpy().copy())  # an untracked operand nobody else holds
        refs.append(weakref.ref(tmp))
        out = expr(x, tmp)
        del tmp
        gc.collect()
        assert refs[-1]() is None, "an add/sub/neg rule must not keep its operands"
        del out
    kept = Tensor._wrap(y.asnumpy().copy())
    ref = weakref.ref(kept)
    out = x * kept  # Mul keeps y for x's gradient
    del kept
    gc.collect()
    assert ref() is not None and any(r is ref() for r in gc.get_referents(out.grad_fn.backward))
    del out
    gc.collect()
    assert ref() is None


@needs_c
def test_sum_with_arguments_and_non_float_tensors_take_the_python_op():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    x.requires_grad = True
    assert x.sum(0).asnumpy().tolist() == [3.0, 5.0, 7.0]
    assert x.sum(axis=1, keepdims=True).shape == (2, 1)
    assert x.sum(dtype=ms.float64).dtype == ms.float64
    ints = ms.Tensor(np.arange(4, dtype=np.int32))
    assert ints.sum().dtype == ops.sum(ints).dtype and ints.sum().item() == 6
    flags = ms.Tensor(np.array([True, True, False]))
    assert flags.sum().item() == 2
    assert ms.grad(lambda a: a.sum(1).sum())(x).asnumpy().tolist() == [[1.0] * 3] * 2


# ---- grad()'s common call --------------------------------------------------------------------------
def _t(values, dtype=np.float32):
    return ms.Tensor(np.asarray(values, dtype))


def _same(a, b):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for p, q in zip(a, b):
            _same(p, q)
    elif isinstance(a, Tensor):
        assert isinstance(b, Tensor) and a.dtype == b.dtype and a.shape == b.shape
        assert not a.requires_grad and not b.requires_grad and a.grad_fn is None and b.grad_fn is None
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    else:
        assert a == b


_CALLS = [
    ("scalar output", lambda a, b: (a * b + a).sum(), (0, 1), {}),
    ("one position", lambda a, b: (a * b).sum(), 0, {}),
    ("tensor output", lambda a, b: a * b - b, (0, 1), {}),
    ("unused input", lambda a, b: (b * b).sum(), (0, 1), {}),
    ("tuple output", lambda a, b: (a * b, a + b, 3), (0, 1), {}),
    ("identity", lambda a, b: a, 0, {}),
    ("same array twice", lambda a, b: a + a, 0, {}),
    ("keyword", lambda a, b, scale=1.0: (a * scale * b).sum(), (0, 1), {"scale": 2.0}),
    ("hook registered inside", lambda a, b: (a.register_hook(lambda g: g * 0.5), (a * b).sum())[1], (0, 1), {}),
    ("hook dropping the gradient", lambda a, b: (a.register_hook(lambda g: None), (a * b).sum())[1], (0, 1), {}),
]


@needs_c
@pytest.mark.parametrize("api_name", ["grad", "value_and_grad"])
@pytest.mark.parametrize("name, fn, pos, kwargs", _CALLS, ids=[c[0] for c in _CALLS])
def test_grad_call_matches_the_reference(api_name, name, fn, pos, kwargs):
    x, y = _t([1.0, -2.0, 3.0]), _t([0.5, 4.0, -1.0])
    args = (x, y)
    assert C.grad_call(fn, args, kwargs or None, pos if isinstance(pos, tuple) else (pos,)) is not None
    got = getattr(ms, api_name)(fn, pos)(*args, **kwargs)
    positions = pos if isinstance(pos, tuple) else (pos,)
    out, _, gi, _ = api._run(fn, args, kwargs, positions, None, False)
    g = gi[0] if len(gi) == 1 else tuple(gi)
    _same(got, (out, g) if api_name == "value_and_grad" else g)
    assert STATE.depth == 0 and STATE.enabled is True
    assert not x.requires_grad and not y.requires_grad  # the caller's tensors are not touched
    if name == "same array twice":  # the returned gradient owns its buffer
        grads = got[1] if api_name == "value_and_grad" else got
        assert grads.asnumpy().flags.writeable


@needs_c
def test_grad_call_declines_before_running_anything():
    x, ints = _t([1.0, 2.0]), ms.Tensor(np.array([1, 2], np.int32))
    calls = []

    def f(a, *rest):
        calls.append(1)
        return (a * a).sum()
    tracked = _t([1.0, 2.0])
    tracked.requires_grad = True
    for args, pos in (((ints,), (0,)), ((tracked,), (0,)), ((x,), (1,)), ((x,), (-1,)), (([1.0],), (0,))):
        assert C.grad_call(f, args, None, pos) is None
    handle = x.register_hook(lambda g: g * 2)
    assert C.grad_call(f, (x,), None, (0,)) is None
    handle.remove()
    STATE.depth += 1
    try:
        assert C.grad_call(f, (x,), None, (0,)) is None
    finally:
        STATE.depth -= 1
    assert calls == []
    # and those calls still give the reference's answers and errors through grad()
    with pytest.raises(ValueError, match="grad_position 1 is out of range"):
        ms.grad(f, 1)(x)
    assert ms.grad(f)(ints).asnumpy().tolist() == [0, 0]
    # d/da of (2a).sum() * a.sum() = 2 (sum a)**2 is 4 sum(a) = 12: the nested grad records its backward
    assert ms.grad(lambda a: ms.grad(f)(a).sum() * a.sum())(x).asnumpy().tolist() == [12.0, 12.0]


@needs_c
def test_grad_call_restores_grad_mode_when_fn_raises_and_reports_bad_outputs():
    x = _t([1.0, 2.0])
    with pytest.raises(ZeroDivisionError):
        ms.grad(lambda a: 1 / 0)(x)
    assert STATE.depth == 0 and STATE.enabled is True
    with ms.no_grad():
        assert ms.grad(lambda a: (a * a).sum())(x).asnumpy().tolist() == [2.0, 4.0]
        assert STATE.enabled is False
    with pytest.raises(TypeError, match="output 0 is str"):
        ms.grad(lambda a: "text")(x)
    assert STATE.depth == 0 and STATE.enabled is True


# ---- record(): the general node recording ------------------------------------------------------------
def _node_fields(node):
    if node is None:
        return None
    edges = [None if t is None else (t.shape, t.dtype, t._rg, t._node is None) for t in node.inputs]
    return (node.op, node.kind, edges,
            node.out_meta, None if node.saved_out is None else [a.tolist() for a in node.saved_out], node.info,
            node.stats, node.materialize)


@needs_c
@pytest.mark.parametrize("case", ["plain", "multi", "ints", "any_dtype", "untracked", "no_grad", "needs_outputs",
                                  "materialize", "non_tensor_inputs", "parameter_input"])
def test_record_in_c_sets_what_the_reference_sets(case):
    from mskernel.autograd import node as node_mod

    def make():
        x = ms.Tensor(np.array([1.0, 2.0], np.float32))
        x.requires_grad = case != "untracked"
        if case == "parameter_input":
            x = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        outs = [Tensor._wrap(np.array([3.0, 4.0], np.float32))]
        if case in ("multi", "ints", "any_dtype"):
            outs += [Tensor._wrap(np.array([1, 2], np.int32)), Tensor._wrap(np.array(5.0))]
        inputs = (x, 3, None, "a") if case == "non_tensor_inputs" else (x,)
        kw = {"kind": "custom", "info": {"k": 1}}
        kw.update({"needs_outputs": case == "needs_outputs", "materialize_grads": case != "materialize",
                   "any_dtype": case == "any_dtype"})
        return inputs, outs, kw

    rule = lambda d: (d[0],)  # noqa: E731
    results = []
    for rec in (C.record, node_mod.record):
        inputs, outs, kw = make()
        if case == "no_grad":
            with ms.no_grad():
                node = rec("Op", inputs, outs, rule, **kw)
        else:
            node = rec("Op", inputs, outs, rule, **kw)
        results.append((_node_fields(node), [(o._rg, o._node is node if node else o._node is None, o._idx)
                                             for o in outs]))
        if node is not None:
            assert node.backward is rule and all(o._node is node for o in outs if o._rg)
    assert results[0] == results[1]


@needs_c
def test_record_in_c_rejects_what_the_reference_rejects():
    from mskernel.autograd import node as node_mod
    x = ms.Tensor(np.array([1.0], np.float32))
    x.requires_grad = True
    for bad in ([object()], 5):
        errors = []
        for rec in (C.record, node_mod.record):
            with pytest.raises((AttributeError, TypeError)) as info:
                rec("Op", (x,), bad, lambda d: (d[0],))
            errors.append(type(info.value))
        assert errors[0] is errors[1]
    with pytest.raises(TypeError):
        C.record("Op", (x,), [], lambda d: (d[0],), "positional kind")


@needs_c
def test_operators_with_a_c_path_show_the_python_methods_help():
    import inspect
    from mskernel.ops.methods import METHODS
    assert Tensor.sum.__doc__ == METHODS["sum"].__doc__ and "initial" in Tensor.sum.__doc__
    assert inspect.signature(Tensor.sum) == inspect.signature(METHODS["sum"])
    assert Tensor.sum.__wrapped__ is METHODS["sum"] and Tensor.sum.__name__ == METHODS["sum"].__name__
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    assert inspect.signature(x.sum) == inspect.signature(METHODS["sum"].__get__(x))  # bound: self dropped
