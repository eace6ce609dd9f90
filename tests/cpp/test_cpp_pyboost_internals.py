"""Custom C++ ops in MindSpore's PyBoost style (Primitive, kernel::pyboost::OpRunner, PyBoostUtils staging,
runtime::OpRunner::GetDeviceContext, device::DeviceContext, LAUNCH_ACLNN) compile unchanged and run on the CPU."""
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

SRC = Path(__file__).parent / "src"  # (not imported from conftest: another directory's conftest may be "conftest")


@pytest.fixture(scope="module")
def internals(build_ops):
    return build_ops("pyboost_internals", SRC / "pyboost_internals.cpp")


def test_launch_aclnn_with_a_scalar_attribute(internals):
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([10.0, 20.0])
    assert internals.scaled_add(x, y, 0.5).asnumpy().tolist() == [6.0, 12.0]


def test_op_runner_outputs_and_device_context(internals):
    out = internals.runner_mul(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0, 4.0]]))
    assert out.shape == (1, 2) and out.asnumpy().tolist() == [[3.0, 8.0]]


def test_inplace_launch_writes_its_first_argument(internals):
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    assert internals.zero_in_place(x) is None
    assert x.asnumpy().tolist() == [0.0, 0.0, 0.0, 0.0]


def test_an_aclnn_op_without_a_cpu_version_names_itself(internals):
    with pytest.raises(RuntimeError, match="aclnnFlashAttentionScore"):
        internals.unsupported(ms.Tensor([1.0]))


def test_primitive_keeps_its_name_and_attributes(internals):
    assert internals.prim_info() == "MyOp:2:no"


def test_function_built_from_staged_launches_differentiates(internals):
    x, y = ms.Tensor([2.0, 3.0]), ms.Tensor([5.0, 7.0])
    gx, gy = ms.grad(lambda a, b: internals.staged_mul(a, b).sum(), (0, 1))(x, y)
    assert gx.asnumpy().tolist() == [5.0, 7.0] and gy.asnumpy().tolist() == [2.0, 3.0]
