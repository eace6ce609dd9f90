"""The engine core (mskernel/autograd/_cengine*.c): recording, declared rules, the backward pass, grad's call.

Every expectation here is written out from the definition (numpy, or the arithmetic by hand), never read
from a second copy of the engine: there is none. Gradients of whole programs are checked against float64
central differences by the oracle tests (test_aliasing.py and the random-program suites).
"""
from __future__ import annotations

import gc
import inspect
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.autograd import STATE, GradientError, engine, record
from mskernel.autograd.node import Node, _record1, record_rule
from mskernel.autograd.rule import rule
from mskernel.common.tensor import Tensor

REPO = Path(__file__).resolve().parents[2]


def tracked(values, dtype=np.float64):
    t = ms.Tensor(np.asarray(values, dtype=dtype))
    t.requires_grad = True
    return t


# ---- the core is required ------------------------------------------------------------------------------
def test_import_without_the_engine_core_says_how_to_build_it():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'mskernel.autograd._cengine':\n"
            "            raise ImportError('blocked for the test')\n"
            "sys.meta_path.insert(0, Block())\n"
            "try:\n"
            "    import mskernel\n"
            "except ImportError as e:\n"
            "    print(type(e).__name__, '|', e)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("EngineCoreMissing | mskernel's engine core (mskernel.autograd._cengine) is not "
                                 "built (blocked for the test).")
    assert "python setup.py build_ext --inplace" in out.stdout and "pip install -e ." in out.stdout


# ---- recording -----------------------------------------------------------------------------------------
def test_wrap_and_record1_set_the_node_fields():
    arr = np.arange(3.0)
    t = Tensor._wrap(arr)
    assert type(t) is Tensor and t._data is arr and t._rg is False and t._node is None and t._idx == 0
    s = Tensor._wrap(np.float32(2.0))  # ufuncs give numpy scalars for 0-d results
    assert s._data.__class__ is np.ndarray and s.shape == () and s.dtype == ms.float32
    x = tracked([1.0])
    out = Tensor._wrap(np.array([2.0]))
    _record1("Twice", (x,), out, lambda d: (d[0] * 2,))
    n = out._node
    assert isinstance(n, Node) and out._rg is True and out._idx == 0
    assert (n.op, n.kind, n.inputs, n.out_meta, n.saved_out, n.info, n.stats, n.materialize) == \
        ("Twice", "builtin", (x,), (((1,), np.dtype(np.float64)),), None, None, None, True)
    ints = Tensor._wrap(np.array([1]))
    _record1("IntOp", (x,), ints, lambda d: (None,))
    assert ints._node is None and ints._rg is False  # integer outputs are never tracked


def test_an_intermediate_input_is_kept_as_a_data_less_edge():
    x = tracked([1.0, 2.0])
    y = x * 2.0
    z = y * 3.0
    e = z._node.inputs[0]
    assert e is not y and e._node is y._node and e.shape == (2,) and e.dtype == ms.float64
    assert e._data.strides == (0,)  # a zero-stride stand-in: y's buffer is not kept by the edge
    assert z._node.inputs[1].shape == () and z._node.inputs[1]._rg is False  # the scalar operand's edge


@pytest.mark.parametrize("case", ["plain", "multi", "ints", "any_dtype", "untracked", "no_grad", "needs_outputs",
                                  "materialize", "non_tensor_inputs", "parameter_input"])
def test_record_sets_the_node_and_the_outputs(case):
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    x.requires_grad = case != "untracked"
    if case == "parameter_input":
        x = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    outs = [Tensor._wrap(np.array([3.0, 4.0], np.float32))]
    if case in ("multi", "ints", "any_dtype"):
        outs += [Tensor._wrap(np.array([1, 2], np.int32)), Tensor._wrap(np.array(5.0))]
    inputs = (x, 3, None, "a") if case == "non_tensor_inputs" else (x,)
    kw = {"kind": "custom", "info": {"k": 1}, "needs_outputs": case == "needs_outputs",
          "materialize_grads": case != "materialize", "any_dtype": case == "any_dtype"}
    rule_ = lambda d: (d[0],)  # noqa: E731
    if case == "no_grad":
        with ms.no_grad():
            node = record("Op", inputs, outs, rule_, **kw)
    else:
        node = record("Op", inputs, outs, rule_, **kw)
    if case in ("untracked", "no_grad"):
        assert node is None and all(o._node is None and o._rg is False for o in outs)
        return
    assert (node.op, node.kind, node.info, node.stats, node.backward) == ("Op", "custom", {"k": 1}, None, rule_)
    assert node.materialize is (case != "materialize")
    assert node.inputs[0] is x and all(e is None for e in node.inputs[1:])
    assert node.out_meta == tuple((o.shape, o._data.dtype) for o in outs)
    assert (node.saved_out is None) == (case != "needs_outputs")
    if case == "needs_outputs":
        assert node.saved_out[0] is outs[0]._data
    tracked_outs = [i for i, o in enumerate(outs) if o._rg]
    want = [0, 1, 2] if case == "any_dtype" else [0, 2] if len(outs) == 3 else [0]  # ints only with any_dtype
    assert tracked_outs == want and all(outs[i]._node is node and outs[i]._idx == i for i in want)


def test_record_rejects_what_is_not_a_graph():
    x = tracked([1.0])
    with pytest.raises(TypeError, match="output 0 of 'Op' must be a Tensor, but got object"):
        record("Op", (x,), [object()], lambda d: (d[0],))
    with pytest.raises(TypeError, match="outputs must be a sequence"):
        record("Op", (x,), 5, lambda d: (d[0],))
    with pytest.raises(TypeError, match="inputs must be a sequence"):
        record("Op", 5, [Tensor._wrap(np.ones(1))], lambda d: (d[0],))


# ---- declared rules ------------------------------------------------------------------------------------
def test_a_per_input_rule_runs_only_the_formulas_of_tracked_inputs_and_keeps_only_what_they_read():
    calls = []
    MULT = rule("Mult", ("input", "other"),
                (lambda g, other: calls.append("x") or g * other, lambda g, input: calls.append("y") or g * input))
    x, y = tracked([1.0, 2.0]), ms.Tensor([3.0, 4.0], ms.float64)
    out = Tensor._wrap(x.asnumpy() * y.asnumpy())
    record_rule(MULT, (x, y), out)
    b = out.grad_fn.backward
    assert repr(b) == "<backward of Mult>" and b.rule is MULT
    (slot,), nothing = b.saved[0][1:], b.saved[1]  # y's formula does not run, so nothing is kept for it
    assert b.saved[0][0] is None and nothing is None
    assert slot is not y and slot._data is y._data  # the engine's own Tensor sharing y's array (node.saved)
    dx, dy = b([Tensor._wrap(np.array([1.0, 10.0]))])
    assert dx.asnumpy().tolist() == [3.0, 40.0] and dy is None and calls == ["x"]


def test_a_whole_rule_with_shapes_attributes_and_outputs():
    EXPISH = rule("Expish", ("input",),
                  lambda g, out, input_shape, k: (g * out * k + Tensor._wrap(np.zeros(input_shape)),), attrs=("k",))
    assert EXPISH.needs_out == 1
    x = tracked([0.0, 1.0])
    out = Tensor._wrap(np.exp(x.asnumpy()))
    record_rule(EXPISH, (x,), out, (2.0,))
    node = out.grad_fn
    assert node.saved_out[0] is out._data and node.backward.saved == ((None, None, (2,), 2.0),)
    (g,) = engine.gradients([out.sum()], [x], retain_graph=True)
    np.testing.assert_allclose(g.asnumpy(), 2.0 * np.exp([0.0, 1.0]))
    with pytest.raises(TypeError, match="reads the outputs: call it with them"):
        node.backward([Tensor._wrap(np.ones(2))])


def test_a_multi_output_rule_gets_tuples():
    SPLIT = rule("Split2", ("input",), lambda g, out: (g[0] * 2 + g[1] * out[1],), multi=True)
    x = tracked([1.0, 2.0])
    a, b = Tensor._wrap(x.asnumpy() * 2), Tensor._wrap(x.asnumpy() * 0 + 5)
    record_rule(SPLIT, (x,), (a, b))
    assert a._idx == 0 and b._idx == 1 and a._node is b._node
    (g,) = engine.gradients([a.sum(), b.sum()], [x])
    assert g.asnumpy().tolist() == [7.0, 7.0]  # 2 * 1 + 1 * 5


def test_rules_reject_what_they_cannot_bind():
    with pytest.raises(TypeError, match="The backward rule of 'R' reads 'z'"):
        rule("R", ("input",), lambda g, z: (g,))
    with pytest.raises(TypeError, match="has 1 formulas for 2 inputs"):
        rule("R", ("input", "other"), (lambda g: g,))
    r = rule("R", ("input",), lambda g, k: (g * k,), attrs=("k",))
    x = tracked([1.0])
    with pytest.raises(TypeError, match="the rule of R reads attribute 0, which the call did not give"):
        record_rule(r, (x,), Tensor._wrap(np.ones(1)))
    with pytest.raises(TypeError, match="record_rule: a Rule is required"):
        record_rule(lambda g: g, (x,), Tensor._wrap(np.ones(1)))


def test_operator_rules_keep_only_the_operands_they_read():
    x = ms.Tensor(np.ones(4, np.float32))
    x.requires_grad = True
    y = ms.Tensor(np.ones(4, np.float32))
    for expr in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: -a, lambda a, b: a.sum() + b.sum()):
        tmp = Tensor._wrap(y.asnumpy().copy())  # an untracked operand nobody else holds
        ref = weakref.ref(tmp._data)
        out = expr(x, tmp)
        del tmp
        gc.collect()
        assert ref() is None, "an add/sub/neg/sum rule must not keep its operands"
        del out
    kept = Tensor._wrap(y.asnumpy().copy())
    ref = weakref.ref(kept._data)
    out = x * kept  # Mul keeps y's array for x's gradient
    del kept
    gc.collect()
    assert ref() is not None and out.grad_fn.backward.saved[0][1]._data is ref()
    del out
    gc.collect()
    assert ref() is None


def test_table_ops_record_their_declared_rule():
    x = tracked([0.5, 1.0])
    y = ops.exp(x)
    assert y.grad_fn.op == "Exp" and y.grad_fn.backward.rule.prim == "Exp" and y.grad_fn.saved_out is not None
    z = ops.sum(x, 0, keepdim=True)
    assert z.grad_fn.backward.saved == ((None, (2,), (0,), True),)  # the shape and attributes, not the input


# ---- the backward pass ----------------------------------------------------------------------------------
def test_an_unused_output_gets_zeros_unless_the_node_asks_for_none():
    for materialize, want in ((True, [[1.0, 1.0], [0.0, 0.0]]), (False, [[1.0, 1.0], None])):
        x = tracked([1.0, 2.0])
        a, b = Tensor._wrap(x.asnumpy() * 2), Tensor._wrap(x.asnumpy() * 3)
        seen = []

        def backward(d):
            seen.append([None if t is None else t.asnumpy().tolist() for t in d])
            return (d[0] * 2,)
        record("Two", (x,), (a, b), backward, materialize_grads=materialize)
        (g,) = engine.gradients([a.sum()], [x])
        assert seen == [want] and g.asnumpy().tolist() == [2.0, 2.0]


def test_capture_stores_gradient_statistics():
    x = tracked([1.0, -2.0])
    y = (x * x).sum()
    STATE.capture_stats = True
    try:
        engine.gradients([y], [x], retain_graph=True)
    finally:
        STATE.capture_stats = False
    mul = y._node.inputs[0]._node  # x * x: each input's gradient is ones * the other, i.e. x
    for stats in mul.stats["dins"]:
        assert stats["norm"] == pytest.approx(float(np.linalg.norm([1.0, -2.0])))
        assert (stats["min"], stats["max"], stats["finite"]) == (-2.0, 1.0, True)
    assert y._node.stats["dins"][0]["norm"] == pytest.approx(np.sqrt(2.0))  # Sum passes ones


@pytest.mark.parametrize("case, error, text", [
    ("count", GradientError, "For 'Rule', the backward rule returned 2 gradients for 1 inputs."),
    ("type", GradientError, "For 'Rule', the backward rule returned a list as the gradient of input 0; expected a "
                            "Tensor or None."),
    ("shape", GradientError, "For 'Rule', the backward rule returned a gradient of shape [3] for input 0, which has "
                             "shape [2]"),
    ("released", GradientError, "For 'Rule', its graph was already released by an earlier backward pass"),
    ("raises", ZeroDivisionError, "division by zero"),
    ("target", TypeError, "gradients: target 1 must be a Tensor, but got str"),
    ("none", GradientError, "For 'Rule', the backward rule returned None; expected a tuple or list with one gradient"),
    ("generator", GradientError, "For 'Rule', the backward rule returned generator; expected a tuple or list"),
    ("integer", GradientError, "For 'Rule', the backward rule returned a Int64 gradient for input 0 (Float64); "
                               "gradients must be floating point."),
])
def test_backward_errors_name_the_op(case, error, text):
    x = tracked([1.0, 2.0])
    y = Tensor._wrap(x.asnumpy() + 1)
    rule_ = {"count": lambda d: (d[0], d[0]), "type": lambda d: ([1.0, 2.0],),
             "shape": lambda d: (Tensor._wrap(np.ones(3)),), "released": lambda d: (d[0],),
             "raises": lambda d: 1 / 0, "target": lambda d: (d[0],), "none": lambda d: None,
             "generator": lambda d: (g for g in d), "integer": lambda d: (Tensor._wrap(np.array([1, 2])),)}[case]
    record("Rule", (x,), (y,), rule_)
    if case == "released":
        engine.gradients([y.sum()], [x])
    targets = [x, "not a tensor"] if case == "target" else [x]
    with pytest.raises(error) as info:
        engine.gradients([y.sum()], targets)
    assert text in str(info.value)
    assert STATE.enabled is True  # grad mode is restored whatever happened


def test_a_corrupted_output_index_is_an_error_not_a_crash():
    x = tracked([1.0, 2.0])
    y = x * 2.0
    y._idx = 7
    with pytest.raises(GradientError, match="a tensor claims to be output 7 of it, which has 1 outputs"):
        engine.gradients([(y * 3.0).sum()], [x])
    y._idx = "zero"
    with pytest.raises(GradientError, match="claims to be output 'zero'"):
        engine.gradients([y], [x])


def test_the_default_seed_is_never_a_users_buffer():
    x = ms.Tensor(2.0, ms.float32)
    g = ms.grad(lambda a: a)(x)
    a = g.asnumpy()
    assert a.flags.writeable
    a[...] = 7.0  # the user's own buffer: later gradients do not see it
    assert ms.grad(lambda t: t * 3)(x).item() == 3.0
    assert ms.grad(lambda t: t)(x).item() == 1.0
    x.requires_grad = True
    raw = engine.gradients([x], [x])[0].asnumpy()  # the engine's own result: the shared seed, which stays read-only
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):
        raw.flags.writeable = True


# ---- the Tensor operators' C path -------------------------------------------------------------------------
@pytest.mark.parametrize("a, b, dtype", [
    (np.array([1.5, -2.0], np.float32), np.array([0.5, 4.0], np.float32), np.float32),
    (np.array([1.5, -2.0], np.float16), 3, np.float16),            # a Python number keeps a float tensor's dtype
    (np.array([1.5, -2.0], np.float64), 2.5, np.float64),
    (np.array([1, 2], np.int32), 2.5, np.float32),                  # an int tensor with a float: Float32
    (np.array([1, 2], np.int32), np.array([1.0, 2.0], np.float32), np.float32),
    (np.array([[1.0], [2.0]]), np.array([1.0, 2.0, 3.0]), np.float64),
])
def test_operators_compute_what_numpy_computes(a, b, dtype):
    x = ms.Tensor(a)
    y = ms.Tensor(b) if isinstance(b, np.ndarray) else b
    a64, b64 = a.astype(np.float64), np.asarray(b, np.float64)
    for got, want in ((x + y, a64 + b64), (x - y, a64 - b64), (x * y, a64 * b64), (x / y, a64 / b64),
                      (y - x, b64 - a64), (y / x, b64 / a64), (-x, -a64) if a.dtype.kind == "f" else (x + y, a64 + b64),
                      (ops.add(x, y), a64 + b64), (ops.mul(y, x), b64 * a64)):
        assert got.asnumpy().dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.asnumpy().astype(np.float64), want, rtol=1e-3 if dtype == np.float16 else 1e-6)


def test_operator_fast_path_records_when_it_must():
    x = tracked([1.0, 2.0])
    assert (x * 2.0).grad_fn is not None and (3.0 - x).grad_fn is not None
    with ms.no_grad():
        assert (x * 2.0).grad_fn is None
    assert ms.grad(lambda a: (a / 2.0 * a).sum())(ms.Tensor([1.0, 4.0])).asnumpy().tolist() == [1.0, 4.0]


def test_operator_errors_and_method_forms():
    x = ms.Tensor([1.0, 2.0])
    with pytest.raises(ValueError, match=r"For 'Mul', input1.shape and input2.shape need to broadcast"):
        x * ms.Tensor([1.0, 2.0, 3.0])
    assert Tensor.__mul__(x, 2).asnumpy().tolist() == [2.0, 4.0]
    assert x.__rsub__(1).asnumpy().tolist() == [0.0, -1.0]
    with pytest.raises(TypeError, match="For 'Mul'"):
        x * "a"
    with pytest.raises(TypeError, match="mul.apply takes 2 coerced operands"):
        ops.mul.apply(x)
    with pytest.raises(TypeError, match="mul.apply: operand 1 must be a Tensor, not int"):
        ops.mul.apply(x, 2)


def test_sum_with_arguments_and_non_float_tensors():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    x.requires_grad = True
    assert x.sum(0).asnumpy().tolist() == [3.0, 5.0, 7.0]
    assert x.sum(axis=1, keepdims=True).shape == (2, 1)
    assert x.sum(dtype=ms.float64).dtype == ms.float64
    ints = ms.Tensor(np.arange(4, dtype=np.int32))
    assert ints.sum().dtype == ops.sum(ints).dtype and ints.sum().item() == 6
    assert ms.Tensor(np.array([True, True, False])).sum().item() == 2
    assert ms.grad(lambda a: a.sum(1).sum())(x).asnumpy().tolist() == [[1.0] * 3] * 2
    g = ms.grad(lambda a: a.sum())(x)
    assert g.asnumpy().tolist() == [[1.0] * 3] * 2 and g.asnumpy().flags.writeable  # the user's own buffer


def test_operators_with_a_c_path_show_the_python_help():
    from mskernel.ops.methods import METHODS
    assert Tensor.sum.__doc__ == METHODS["sum"].__doc__ and "initial" in Tensor.sum.__doc__
    assert inspect.signature(Tensor.sum) == inspect.signature(METHODS["sum"])
    assert Tensor.sum.__wrapped__ is METHODS["sum"] and Tensor.sum.__name__ == METHODS["sum"].__name__
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    assert inspect.signature(x.sum) == inspect.signature(METHODS["sum"].__get__(x))  # bound: self dropped
    assert ops.mul.__name__ == "mul" and "input * other" in ops.mul.__doc__
    assert list(inspect.signature(ops.mul).parameters) == ["input", "other"]
    assert Tensor.__mul__ is ops.mul


# ---- grad()'s call --------------------------------------------------------------------------------------------
X, Y = np.array([1.0, -2.0, 3.0], np.float32), np.array([0.5, 4.0, -1.0], np.float32)
_CALLS = [  # (name, fn, grad_position, kwargs, (output, gradients) written out with numpy)
    ("scalar output", lambda a, b: (a * b + a).sum(), (0, 1), {}, ((X * Y + X).sum(), (Y + 1, X))),
    ("one position", lambda a, b: (a * b).sum(), 0, {}, ((X * Y).sum(), Y)),
    ("tensor output", lambda a, b: a * b - b, (0, 1), {}, (X * Y - Y, (Y, X - 1))),
    ("unused input", lambda a, b: (b * b).sum(), (0, 1), {}, ((Y * Y).sum(), (0 * X, 2 * Y))),
    ("tuple output", lambda a, b: (a * b, a + b, 3), (0, 1), {}, ((X * Y, X + Y, 3), (Y + 1, X + 1))),
    ("identity", lambda a, b: a, 0, {}, (X, np.ones(3))),
    ("same array twice", lambda a, b: a + a, 0, {}, (2 * X, 2 * np.ones(3))),
    ("keyword", lambda a, b, scale=1.0: (a * scale * b).sum(), (0, 1), {"scale": 2.0},
     ((2 * X * Y).sum(), (2 * Y, 2 * X))),
    ("hook registered inside", lambda a, b: (a.register_hook(lambda g: g * 0.5), (a * b).sum())[1], (0, 1), {},
     ((X * Y).sum(), (0.5 * Y, X))),
    ("hook dropping the gradient", lambda a, b: (a.register_hook(lambda g: None), (a * b).sum())[1], (0, 1), {},
     ((X * Y).sum(), (Y, X))),
]


def _close(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
    elif isinstance(want, int):
        assert got == want
    else:
        assert isinstance(got, Tensor) and not got.requires_grad and got.grad_fn is None
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("api_name", ["grad", "value_and_grad"])
@pytest.mark.parametrize("name, fn, pos, kwargs, want", _CALLS, ids=[c[0] for c in _CALLS])
def test_grad_calls_give_the_gradients_written_out_by_hand(api_name, name, fn, pos, kwargs, want):
    x, y = ms.Tensor(X), ms.Tensor(Y)
    got = getattr(ms, api_name)(fn, pos)(x, y, **kwargs)
    out, grads = want
    _close(got, (out, grads) if api_name == "value_and_grad" else grads)
    assert STATE.depth == 0 and STATE.enabled is True
    assert not x.requires_grad and not y.requires_grad  # the caller's tensors are not touched
    gs = (got[1] if api_name == "value_and_grad" else got)
    for g in gs if isinstance(gs, tuple) else (gs,):
        assert g.asnumpy().flags.writeable  # every returned gradient is the user's own buffer


def test_grad_calls_of_every_other_kind():
    x, ints = ms.Tensor([1.0, 2.0]), ms.Tensor(np.array([1, 2], np.int32))
    f = lambda a, *rest: (a * a).sum()  # noqa: E731
    with pytest.raises(ValueError, match="grad_position 1 is out of range"):
        ms.grad(f, 1)(x)
    with pytest.raises(TypeError, match="the input at grad_position 0 must be a Tensor, but got list"):
        ms.grad(f)([1.0])
    assert ms.grad(f)(ints).asnumpy().tolist() == [0, 0]
    w = ms.Parameter(ms.Tensor([3.0, 4.0]), name="w", requires_grad=False)  # tracked for the call only
    gi, gw = ms.grad(lambda a: (a * w).sum(), 0, w)(x)
    assert gi.asnumpy().tolist() == [3.0, 4.0] and gw.asnumpy().tolist() == [1.0, 2.0] and w._rg is False
    (g, aux) = ms.grad(lambda a: ((a * a).sum(), a * 3), has_aux=True)(x)
    assert g.asnumpy().tolist() == [2.0, 4.0] and aux[0].asnumpy().tolist() == [3.0, 6.0]
    assert ms.grad(lambda a: a * a, sens_param=True)(x, ms.Tensor([1.0, 10.0])).asnumpy().tolist() == [2.0, 40.0]
    h = x.register_hook(lambda g: g * 2)
    assert ms.grad(f)(x).asnumpy().tolist() == [4.0, 8.0]
    h.remove()
    # d/da of grad(f)(a).sum() * a.sum() = 2 (sum a)**2 is 4 sum(a) = 12: the nested grad records its backward
    assert ms.grad(lambda a: ms.grad(f)(a).sum() * a.sum())(x).asnumpy().tolist() == [12.0, 12.0]
    assert STATE.depth == 0 and STATE.enabled is True


def test_grad_call_restores_grad_mode_when_fn_raises_and_reports_bad_outputs():
    x = ms.Tensor([1.0, 2.0])
    w = ms.Parameter(ms.Tensor([3.0]), name="w", requires_grad=False)
    with pytest.raises(ZeroDivisionError):
        ms.grad(lambda a: 1 / 0, 0, w)(x)
    assert STATE.depth == 0 and STATE.enabled is True and w._rg is False
    with ms.no_grad():
        assert ms.grad(lambda a: (a * a).sum())(x).asnumpy().tolist() == [2.0, 4.0]
        assert STATE.enabled is False
    with pytest.raises(TypeError, match="output 0 is str"):
        ms.grad(lambda a: "text")(x)
    assert STATE.depth == 0 and STATE.enabled is True
