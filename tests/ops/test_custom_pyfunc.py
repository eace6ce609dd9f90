"""ops.Custom with func_type "pyfunc": infer, multi-output, attributes, bprop, op info, errors."""
import logging

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.ops import CustomRegOp, DataType, custom_info_register
from mskernel.kernels import UnsupportedFuncTypeError


def square(x):
    return x * x


def square_bprop(x, out, dout):
    return (2 * x * dout,)


def f32(*v):
    return ms.Tensor(np.array(v, np.float32))


def test_forward_and_grad_and_graph_node():
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=square_bprop)
    x = f32(1.0, 2.0, 3.0)
    np.testing.assert_array_equal(op(x).asnumpy(), [1, 4, 9])
    np.testing.assert_array_equal(ms.grad(op)(x).asnumpy(), [2, 4, 6])
    snap, _ = ms.autograd.trace(lambda a: op(a).sum(), x)
    node = next(n for n in snap.nodes if n["op"] == "Custom")
    assert node["kind"] == "custom"
    assert node["info"]["func_type"] == "pyfunc" and node["info"]["func_name"] == "square"


def test_fixed_out_shape_and_dtype_values():
    op = ops.Custom(lambda x: x.sum(axis=1).astype(np.float64), out_shape=[2], out_dtype=ms.float64,
                    func_type="pyfunc")
    out = op(ms.Tensor(np.ones((2, 3), np.float32)))
    assert out.shape == (2,) and out.dtype == ms.float64


def test_zero_dim_inputs_arrive_as_python_scalars():
    seen = []

    def f(x, y):
        seen.append((type(x), type(y)))
        return y * x
    op = ops.Custom(f, lambda x, y: y, lambda x, y: y, func_type="pyfunc")
    out = op(ms.Tensor(2.0, ms.float32), f32(1.0, 2.0))
    assert seen[0][0] is float and seen[0][1] is np.ndarray
    np.testing.assert_array_equal(out.asnumpy(), [2, 4])


def test_inputs_are_zero_copy_read_only_views():
    captured = []

    def f(x):
        captured.append(x)
        x[0] = 99.0
        return x
    op = ops.Custom(f, lambda x: x, lambda x: x, func_type="pyfunc")
    x = f32(1.0, 2.0)
    with pytest.raises(ValueError, match="read-only"):
        op(x)
    assert np.shares_memory(captured[0], x.asnumpy()) and x.asnumpy()[0] == 1.0


def test_multi_output_with_bprop_taking_tuples():
    seen = {}

    def fwd(a, b):
        return a + b, a * b

    def bprop(a, b, out, dout):
        seen["out"], seen["dout"] = out, dout
        d_sum, d_prod = dout
        return d_sum + d_prod * b, d_sum + d_prod * a

    op = ops.Custom(fwd, lambda a, b: (a, a), lambda a, b: (a, a), func_type="pyfunc", bprop=bprop)
    a, b = f32(1.0, 2.0), f32(3.0, 5.0)
    s, p = op(a, b)
    np.testing.assert_array_equal(p.asnumpy(), [3, 10])
    ga, gb = ms.grad(lambda x, y: (op(x, y)[0] * 2 + op(x, y)[1]).sum(), (0, 1))(a, b)
    np.testing.assert_allclose(ga.asnumpy(), 2 + b.asnumpy())
    np.testing.assert_allclose(gb.asnumpy(), 2 + a.asnumpy())
    assert isinstance(seen["out"], tuple) and isinstance(seen["dout"], tuple) and len(seen["dout"]) == 2
    # an unused output's dout is zeros
    g = ms.grad(lambda x, y: op(x, y)[1].sum())(a, b)
    np.testing.assert_allclose(g.asnumpy(), b.asnumpy())


def test_single_output_tuple_structure_returns_tuple():
    op = ops.Custom(lambda x: (x * 2,), out_shape=((2,),), out_dtype=(ms.float32,), func_type="pyfunc")
    out = op(f32(1.0, 2.0))
    assert isinstance(out, tuple) and len(out) == 1


def test_scalar_and_no_output_special_cases(caplog):
    with caplog.at_level(logging.WARNING, "mskernel.ops"):
        scalar = ops.Custom(lambda x: float(x.sum()), out_shape=(), out_dtype=ms.float32, func_type="pyfunc")
    assert "'out_shape' is an empty tuple" in caplog.text
    out = scalar(f32(1.0, 2.0))
    assert out.shape == (1,) and out.item() == 3.0
    calls = []
    none = ops.Custom(lambda x: calls.append(1), out_shape=(), out_dtype=(), func_type="pyfunc")
    placeholder = none(f32(1.0))
    assert calls == [1] and placeholder.dtype == ms.int32
    bad = ops.Custom(lambda x: x, out_shape=(), out_dtype=(), func_type="pyfunc")
    with pytest.raises(ValueError, match="This CustomPyfunc must have no outputs, but got 1"):
        bad(f32(1.0))


def test_call_time_attributes_and_reg_info_values_reach_the_kernel():
    seen = []

    def scale_add(x, y, scale, offset):
        seen.append((scale, offset))
        return x + y * scale + offset
    info = (CustomRegOp("scale_add").input(0, "x").input(1, "y").output(0, "z")
            .attr("scale", "required", "float").attr("offset", "optional", "float", default_value="4.0")
            .dtype_format(DataType.F32_Default, DataType.F32_Default, DataType.F32_Default)
            .target("CPU").get_op_info())
    op = ops.Custom(scale_add, lambda x, y, *a: x, lambda x, y, *a: x, func_type="pyfunc", reg_info=info)
    out = op(f32(1.0), f32(2.0), 0.5)
    assert seen[-1] == (0.5, 4.0) and out.item() == 1 + 1 + 4
    op(f32(1.0), f32(2.0), 0.5, 1.0)
    assert seen[-1] == (0.5, 1.0)
    fixed = (CustomRegOp("scale_add2").input(0, "x").input(1, "y").output(0, "z")
             .attr("scale", "required", "all", value=2.0).attr("offset", "required", "all", value=[1, 2])
             .target("CPU").get_op_info())
    op2 = ops.Custom(lambda x, y, s, o: x + y * s + len(o), lambda x, y: x, lambda x, y: x, func_type="pyfunc",
                     reg_info=fixed)
    assert op2(f32(1.0), f32(2.0)).item() == 1 + 4 + 2
    with pytest.raises(ValueError, match="the required attribute 'scale' was not given"):
        op(f32(1.0), f32(2.0))


def test_attributes_without_reg_info_pass_through():
    op = ops.Custom(lambda x, k: x * k, lambda x, k: x, lambda x, k: x, func_type="pyfunc")
    assert op(f32(2.0), 3).item() == 6.0


def test_op_selection_accepts_and_rejects_per_reg_info():
    info = (CustomRegOp("sq").input(0, "x").output(0, "y")
            .dtype_format(DataType.F32_Default, DataType.F32_Default)
            .dtype_format(DataType.F64_Default, DataType.F64_Default).target("CPU").get_op_info())
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=info)
    assert op(f32(3.0)).item() == 9.0
    assert op(ms.Tensor([3.0], ms.float64)).item() == 9.0
    with pytest.raises(TypeError) as e:
        op(ms.Tensor([3.0], ms.float16))
    msg = str(e.value)
    assert msg.startswith("For 'Custom', 'func_type': pyfunc, 'func': square,")
    assert "input[Float32], output[Float32]; input[Float64], output[Float64]" in msg
    assert "got input[Float16] and output[Float16]" in msg
    wildcard = (CustomRegOp("sq").input(0, "x").output(0, "y").dtype_format(DataType.None_None, DataType.None_None)
                .target("CPU").get_op_info())
    assert ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=wildcard)(
        ms.Tensor([2], ms.int32)).item() == 4


def test_reg_info_argument_wins_over_decorator_without_merging():
    f64_only = (CustomRegOp("sq").input(0, "x").output(0, "y")
                .dtype_format(DataType.F64_Default, DataType.F64_Default).target("CPU").get_op_info())
    f32_only = (CustomRegOp("sq").input(0, "x").output(0, "y")
                .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())

    @custom_info_register(f64_only)
    def sq(x):
        return x * x
    decorated = ops.Custom(sq, lambda x: x, lambda x: x, func_type="pyfunc")
    with pytest.raises(TypeError, match="unsupported data types"):
        decorated(f32(2.0))
    overridden = ops.Custom(sq, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=f32_only)
    assert overridden(f32(2.0)).item() == 4.0
    with pytest.raises(TypeError, match="unsupported data types"):
        overridden(ms.Tensor([2.0], ms.float64))


def test_one_registration_per_target_and_cpu_entry_used():
    cpu = (CustomRegOp("sq").input(0, "x").output(0, "y").dtype_format(DataType.F32_Default, DataType.F32_Default)
           .target("CPU").get_op_info())
    cpu2 = (CustomRegOp("sq").input(0, "x").output(0, "y").dtype_format(DataType.F64_Default, DataType.F64_Default)
            .target("CPU").get_op_info())
    gpu = (CustomRegOp("sq").input(0, "x").output(0, "y").dtype_format(DataType.F64_Default, DataType.F64_Default)
           .target("GPU").get_op_info())
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=[gpu, cpu, cpu2])
    assert op(f32(2.0)).item() == 4.0  # the first CPU registration is the one used
    with pytest.raises(TypeError, match="unsupported data types"):
        op(ms.Tensor([2.0], ms.float64))


def test_without_reg_info_dtypes_follow_inputs():
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc")
    assert op(ms.Tensor([3], ms.int64)).dtype == ms.int64


def test_second_order_through_a_differentiable_bprop():
    def cube(x):
        return x * x * x

    def cube_bprop(x, out, dout):
        return (3 * x * x * dout,)  # built-in ops: differentiable
    op = ops.Custom(cube, lambda x: x, lambda x: x, func_type="pyfunc", bprop=cube_bprop)
    x = ms.Tensor(2.0, ms.float64)
    assert ms.grad(op)(x).item() == 12.0
    assert ms.grad(ms.grad(op))(x).item() == 12.0  # 6x
    assert ms.gradgradcheck(op, (ms.Tensor([0.5, 1.5]),), raise_exception=False).passed


def test_bprop_using_other_custom_ops():
    inner = ops.Custom(lambda x, d: 2 * x * d, lambda x, d: x, lambda x, d: x, func_type="pyfunc")
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=lambda x, out, dout: (inner(x, dout),))
    np.testing.assert_array_equal(ms.grad(op)(f32(1.0, 4.0, 9.0)).asnumpy(), [2, 8, 18])


def test_single_tensor_bprop_is_wrapped_like_mindspore_pynative():
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=lambda x, out, dout: 2 * x * dout)
    assert ms.grad(op)(f32(3.0)).item() == 6.0


def prefix():
    return "For 'Custom', 'func_type': pyfunc, 'func': square"


@pytest.mark.parametrize("bprop,exc,msg", [
    (lambda x, out, dout: None, TypeError, "The python function output is none"),
    (lambda x, out, dout: (dout, dout), TypeError,
     "which is: 1, but got:2"),
    (lambda x, out, dout: ("grad",), TypeError,
     "the 0th return value(gradient of the 0th argument) of bprop should be Tensor, but got str"),
    (lambda x, out, dout: (ms.Tensor(np.ones(3, np.float32)),), ValueError,
     "should have the same shape as the 0th argument, which is:[2], but got: [3]"),
    (lambda x, out, dout: (ms.Tensor(np.ones(2, np.float64)),), TypeError,
     "should have the same dtype as the 0th argument, which is:Float32, but got: Float64"),
    (lambda x, out, dout: 3, TypeError, "the bprop must return a tuple of gradients, but got int"),
])
def test_bprop_validation_errors(bprop, exc, msg):
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=bprop)
    with pytest.raises(exc) as e:
        ms.grad(op)(f32(1.0, 2.0))
    assert str(e.value).startswith(prefix()) and msg in str(e.value)


def test_grad_without_bprop_is_a_clear_error_not_zeros():
    op = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="no bprop"):
        ms.grad(op)(f32(1.0))
    # forward alone is fine, and an unused no-bprop op does not block other gradients
    assert ms.grad(lambda a: a * 2 + op(ms.Tensor([1.0])).sum())(f32(1.0)).item() == 2.0


@pytest.mark.parametrize("kwargs,exc,msg", [
    (dict(func=square, func_type="cuda"), ValueError,  # MindSpore 2.10's list (julia is gone from it)
     "'func_type' must be one of ['hybrid', 'akg', 'tbe', 'aicpu', 'aot', 'pyfunc'], but got cuda"),
    (dict(func=square, func_type="julia"), ValueError,
     "'func_type' must be one of ['hybrid', 'akg', 'tbe', 'aicpu', 'aot', 'pyfunc'], but got julia"),
    (dict(func=42, func_type="pyfunc"), TypeError, "'func' must be of type function or str, but got <class 'int'>"),
    (dict(func=square, func_type="hybrid"), TypeError, "'func' must be a function decorated by kernel"),
    (dict(func=square, func_type="pyfunc", out_shape=3), TypeError,
     "'out_shape' must be one of [tuple, list, function], but got <class 'int'>"),
    (dict(func=square, func_type="pyfunc", out_dtype="x", out_shape=[1]), TypeError,
     "'out_dtype' must be one of [mindspore.dtype, tuple, list, function], but got <class 'str'>"),
    (dict(func=square, func_type="pyfunc"), TypeError, "can be None only for func_type 'hybrid'"),
    (dict(func=square, func_type="pyfunc", out_shape=[1], out_dtype=ms.float32, bprop=3), TypeError,
     "'bprop' must be a function"),
    (dict(func=3, func_type="aot"), TypeError, "'func' must be of type str"),
    (dict(func="a.so", func_type="aot"), TypeError, "'func' should be like 'file_name:func_name', but got a.so"),
])
def test_construction_errors(kwargs, exc, msg):
    with pytest.raises(exc) as e:
        ops.Custom(**kwargs)
    assert msg in str(e.value)


@pytest.mark.parametrize("ft", ["tbe", "aicpu"])
def test_unsupported_func_types_list_what_runs(ft):
    with pytest.raises(UnsupportedFuncTypeError) as e:
        ops.Custom(square, [1], ms.float32, func_type=ft)
    assert f"func_type '{ft}' cannot run here" in str(e.value)
    assert "'pyfunc', 'hybrid', 'akg' and 'aot'" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_reg_info_validation_errors():
    no_target = CustomRegOp("sq").input(0, "x").output(0, "y").get_op_info()
    ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=no_target)  # pyfunc -> CPU
    bad_target = CustomRegOp("sq").input(0, "x").output(0, "y").target("TPU").get_op_info()
    with pytest.raises(ValueError, match=r"target set in registration information must be one of \['Ascend', 'GPU', "
                                         r"'CPU'\], but got TPU"):
        ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=bad_target)
    two_inputs = CustomRegOp("sq").input(0, "x").input(1, "y").output(0, "z").target("CPU").get_op_info()
    with pytest.raises(ValueError, match="declares 2 inputs and 0 attributes, but the function takes 1 parameters"):
        ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", reg_info=two_inputs)
    two_outputs = CustomRegOp("sq").input(0, "x").output(0, "y").output(1, "z").target("CPU").get_op_info()
    with pytest.raises(ValueError, match="declares 2 outputs, but out_shape/out_dtype describe 1"):
        ops.Custom(square, [1], ms.float32, func_type="pyfunc", reg_info=two_outputs)
    with pytest.raises(TypeError, match="must be of type dict"):
        ops.Custom(square, [1], ms.float32, func_type="pyfunc", reg_info="[1, 2]")


def test_custom_reg_op_builder_errors():
    with pytest.raises(ValueError, match="op name value must be string"):
        CustomRegOp(3)
    with pytest.raises(TypeError, match="input index value must be int"):
        CustomRegOp().input("0", "x")
    with pytest.raises(ValueError, match="dtype and format value must be tuple of two or three elements"):
        CustomRegOp().input(0, "x").dtype_format(("float32",))
    info = CustomRegOp("n").input(0, "x", "dynamic").output(0, "y").fusion_type("OPAQUE").get_op_info()
    assert info["inputs"] == [{"index": 0, "name": "x", "paramType": "dynamic"}]
    assert info["fusion_type"] == "OPAQUE" and info["target"] == "UnKnown"
    assert len([n for n in dir(DataType) if not n.startswith("_")]) >= 184


@pytest.mark.parametrize("ret,exc,msg", [
    (lambda x: x.astype(np.float64), TypeError, "output 0 has dtype float64, but out_dtype says float32"),
    (lambda x: x[:1], ValueError, "output 0 has shape [1], but out_shape says [2]"),
    (lambda x: (x, x), ValueError, "The output num is: 2, with 1 expect."),
    (lambda x: "nope", TypeError, "output 0 of the function must be a numpy array, but got str"),
])
def test_returned_arrays_are_checked(ret, exc, msg):
    op = ops.Custom(ret, lambda x: x, lambda x: x, func_type="pyfunc")
    with pytest.raises(exc) as e:
        op(f32(1.0, 2.0))
    assert msg in str(e.value)


def test_out_shape_structure_errors():
    op = ops.Custom(lambda x: (x, x), lambda x: x, lambda x: (x, x), func_type="pyfunc")
    with pytest.raises(ValueError, match="out_dtype describes 2 outputs, so out_shape must be a tuple of 2 shapes"):
        op(f32(1.0))


def test_hybrid_specs_must_agree_with_the_kernel(tmp_path):
    import importlib.util
    src = tmp_path / "kmod.py"
    src.write_text("def double(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n"
                   "        y[i] = x[i] * 2.0\n    return y\n")
    spec = importlib.util.spec_from_file_location("kmod", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    good = ops.Custom(mod.double, lambda x: x, lambda x: x, func_type="akg")
    assert good(f32(1.0, 2.0)).asnumpy().tolist() == [2.0, 4.0]
    bad = ops.Custom(mod.double, lambda x: x, lambda x: ms.float64, func_type="akg")
    with pytest.raises(ValueError, match=r"describe outputs \[\[2\] float64\], but the kernel produces \[\[2\] float32\]"):  # noqa: E501 (test data)
        bad(f32(1.0, 2.0))
