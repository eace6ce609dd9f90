"""func_type "aot": MindSpore's C ABI kernels built from .cc through the build layer, or prebuilt .so."""
import shutil
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.kernels.aot import AotError
from mskernel.ops import CustomRegOp, DataType

SRC = Path(__file__).with_name("aot_kernels.cc")


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    d = tmp_path_factory.mktemp("aot")
    p = d / "aot_kernels.cc"
    shutil.copy(SRC, p)
    return str(p)


def f32(a):
    return ms.Tensor(np.asarray(a, np.float32))


def test_add_with_cpp_infer_shape_and_python_dtype(src):
    x, y = np.random.default_rng(0).standard_normal((2, 4, 5)).astype(np.float32)
    op = ops.Custom(f"{src}:CustomAdd", None, ms.float32, "aot")
    np.testing.assert_allclose(op(f32(x), f32(y)).asnumpy(), x + y, rtol=1e-6)
    # the kernel checks nparam and dtypes like MindSpore's own test: a float64 call returns 2
    op64 = ops.Custom(f"{src}:CustomAdd", lambda a, b: a, lambda a, b: a, "aot")
    with pytest.raises(AotError, match=r"function\(CustomAdd\) is 2\. Any return value not equal to 0"):
        op64(ms.Tensor(x.astype(np.float64)), ms.Tensor(y.astype(np.float64)))


def test_attributes_call_time_and_by_value_with_workspace(src):
    x, y = np.ones((4, 5), np.float32), np.full((4, 5), 2.0, np.float32)
    info = (CustomRegOp("scale_add_cpu").input(0, "x1").input(1, "x2").output(0, "y")
            .dtype_format(DataType.F32_Default, DataType.F32_Default, DataType.F32_Default)
            .attr("scale", "required", "float").attr("paddings", "required", "listFloat", value=[2.0, 2.0])
            .target("CPU").get_op_info())
    op = ops.Custom(f"{src}:ScaleAdd", lambda a, b, _: a, lambda a, b, _: a, "aot", reg_info=info)
    out = op(f32(x), f32(y), 0.7)
    np.testing.assert_allclose(out.asnumpy(), x + y * 0.7 * 2 + 4, rtol=1e-6)
    by_value = (CustomRegOp("scale_add_cpu2").output(0, "y")
                .attr("scale", "required", "all", value=0.5).attr("paddings", "required", "all", value=[1.0, 0.0])
                .target("CPU").get_op_info())
    op2 = ops.Custom(f"{src}:ScaleAdd", lambda a, b: a, lambda a, b: a, "aot", reg_info=by_value)
    np.testing.assert_allclose(op2(f32(x), f32(y)).asnumpy(), x + y * 0.5 * 2 + 1, rtol=1e-6)


def test_workspace_arrives_zeroed(src):
    # a kernel that reads its workspace before writing it is deterministic (issue [11] item 7)
    x = np.arange(1.0, 1.0 + 4 * 1000, dtype=np.float32).reshape(4, 1000)
    op = ops.Custom(f"{src}:ReadWorkspace", lambda a: a, lambda a: a, "aot")
    for _ in range(3):  # the kernel dirties its workspace each time
        np.testing.assert_array_equal(op(f32(x)).asnumpy(), x)


@pytest.mark.parametrize("axis,keep", [(0, False), (1, False), (1, True)])
def test_cpp_infer_shape_and_type_with_attrs_and_init_workspace(src, axis, keep):
    info = (CustomRegOp(f"add_reduce_{axis}_{keep}").input(0, "x1").input(1, "x2").output(0, "y")
            .dtype_format(DataType.None_None, DataType.None_None, DataType.None_None)
            .attr("axis", "required", "all", value=axis).attr("keep_dim", "required", "all", value=keep)
            .target("CPU").get_op_info())
    op = ops.Custom(f"{src}:AddReduce", None, None, "aot", reg_info=info)
    out = op(f32(np.ones((4, 5))), f32(np.ones((4, 5))))
    expect = np.full((4, 5), 2.0, np.float32).sum(axis=axis, keepdims=keep)
    assert out.dtype == ms.float32 and out.shape == expect.shape
    np.testing.assert_allclose(out.asnumpy(), expect)
    # a new shape re-runs Init (workspace sized for it) without rebuilding
    out2 = op(f32(np.ones((3, 7))), f32(np.ones((3, 7))))
    assert out2.shape == np.ones((3, 7)).sum(axis=axis, keepdims=keep).shape


def test_two_outputs_string_and_2d_attrs_and_bprop(src):
    info = (CustomRegOp("sum_prod").input(0, "a").input(1, "b").output(0, "s").output(1, "p")
            .attr("mode", "required", "str", value="sum_prod").attr("grid", "required", "all", value=[[1], [10, 20]])
            .target("CPU").get_op_info())

    def bprop(a, b, out, dout):
        ds, dp = dout
        return ds + dp * b, ds + dp * a
    op = ops.Custom(f"{src}:SumProd", lambda a, b: (a, a), lambda a, b: (a, a), "aot", bprop=bprop, reg_info=info)
    a, b = ms.Tensor([1.0, 2.0]).astype(ms.float64), ms.Tensor([3.0, 4.0]).astype(ms.float64)
    s, p = op(a, b)
    np.testing.assert_allclose(s.asnumpy(), [14.0, 16.0])
    np.testing.assert_allclose(p.asnumpy(), [3.0, 8.0])
    assert ms.gradcheck(lambda u, v: op(u, v)[1] + op(u, v)[0], (a, b), raise_exception=False).passed


def test_strided_input_is_made_contiguous_for_the_c_abi(src):
    base = np.arange(40, dtype=np.float32).reshape(4, 10)
    x = ms.Tensor(base)[:, ::2]
    op = ops.Custom(f"{src}:CustomAdd", lambda a, b: a, lambda a, b: a, "aot")
    np.testing.assert_allclose(op(x, x).asnumpy(), 2 * base[:, ::2])


def test_prebuilt_shared_library_path(src):
    from mskernel.toolchain import build
    art = build("aot_prebuilt", [src], kind="plain", include_paths=[str(Path(src).parent)])
    op = ops.Custom(f"{art.path}:CustomAdd", lambda a, b: a, lambda a, b: a, "aot")
    assert op(f32([1.0]), f32([2.0])).item() == 3.0


def test_edited_source_rebuilds_in_the_same_process(tmp_path):
    p = tmp_path / "k.cc"
    body = ('#include <cstdint>\nextern "C" int K(int n, void **p, int *nd, int64_t **sh, const char **dt, void *s, '
            'void *e) {{ static_cast<float *>(p[1])[0] = {} * static_cast<float *>(p[0])[0]; return 0; }}\n')
    p.write_text(body.format(2))
    assert ops.Custom(f"{p}:K", lambda a: a, lambda a: a, "aot")(f32([3.0])).item() == 6.0
    p.write_text(body.format(5))
    assert ops.Custom(f"{p}:K", lambda a: a, lambda a: a, "aot")(f32([3.0])).item() == 15.0


@pytest.mark.parametrize("func,exc,msg", [
    ("Fails", AotError, r"function\(Fails\) is 3"),
    ("Throws", AotError, r"operator failed when executing user defined file .*aot_kernels.cc! Error message is boom"),
    ("MissingAttr", AotError, r"there is no attribute called nope"),
])
def test_runtime_errors(src, func, exc, msg):
    op = ops.Custom(f"{src}:{func}", lambda a: a, lambda a: a, "aot")
    with pytest.raises(exc, match=msg):
        op(f32([1.0]))


def test_load_errors(src, tmp_path, monkeypatch):
    with pytest.raises(AotError, match="couldn't find the AOT binary file"):
        ops.Custom(f"{tmp_path}/nothing.so:F", [1], ms.float32, "aot")
    with pytest.raises(AotError, match="error occurs when fetching function 'NoSuchFunc'"):
        ops.Custom(f"{src}:NoSuchFunc", [1], ms.float32, "aot")
    bad = tmp_path / "bad.so"
    bad.write_bytes(b"not an elf")
    with pytest.raises(AotError, match="dlopen file .* should be successful"):
        ops.Custom(f"{bad}:F", [1], ms.float32, "aot")
    with pytest.raises(AotError, match="CUDA source"):
        ops.Custom(f"{tmp_path}/k.cu:F", [1], ms.float32, "aot")
    no_infer = ops.Custom(f"{src}:Fails", None, ms.float32, "aot")
    with pytest.raises(AotError, match="Get infer shape functions failed"):
        no_infer(f32([1.0]))
    monkeypatch.setenv("MS_CUSTOM_AOT_WHITE_LIST", str(tmp_path / "allowed"))
    with pytest.raises(TypeError, match="the legal path for the file is"):
        ops.Custom(f"{src}:CustomAdd", [1], ms.float32, "aot")


def test_compile_error_points_at_the_users_line(tmp_path):
    from mskernel.toolchain import BuildError
    p = tmp_path / "broken.cc"
    p.write_text('#include <cstdint>\nextern "C" int K(int n, void **p, int *nd, int64_t **sh, const char **dt,\n'
                 '                 void *s, void *e) {\n  return undefined_name;\n}\n')
    with pytest.raises(BuildError) as e:
        ops.Custom(f"{p}:K", [1], ms.float32, "aot")
    assert e.value.location.line == 4 and e.value.location.file.endswith("broken.cc")


def test_call_time_attribute_changes_reach_the_kernel(src):
    info = (CustomRegOp("add_reduce_axis").input(0, "x1").input(1, "x2").output(0, "y")
            .attr("axis", "required", "int").attr("keep_dim", "required", "all", value=False)
            .target("CPU").get_op_info())
    op = ops.Custom(f"{src}:AddReduce", None, ms.float32, "aot", reg_info=info)
    x = f32(np.arange(6).reshape(2, 3))
    np.testing.assert_allclose(op(x, x, 0).asnumpy(), 2 * np.arange(6).reshape(2, 3).sum(0))
    np.testing.assert_allclose(op(x, x, 1).asnumpy(), 2 * np.arange(6).reshape(2, 3).sum(1))
    np.testing.assert_allclose(op(x, x, 0).asnumpy(), 2 * np.arange(6).reshape(2, 3).sum(0))


def test_infer_shape_throwing_a_non_exception_is_an_error_not_a_crash(src):
    op = ops.Custom(f"{src}:OddThrow", None, lambda a: a, "aot")
    with pytest.raises(AotError, match=r"OddThrowInferShape failed: it threw a C\+\+ value that is not a std::"):
        op(f32([1.0]))
