"""MindSpore's header surface: ms_extension/all.h, a global ShapeVector, MS_LOG through Python
logging, MS_EXCEPTION_IF_NULL, and more aclnn ops on the CPU."""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

SRC = Path(__file__).parent / "src" / "ms_log.cpp"


@pytest.fixture(scope="module")
def mod(build_ops):
    return build_ops("mk_test_ms_log", SRC)


def test_all_h_and_the_global_shape_vector(mod) -> None:
    assert mod.row_shape(ms.Tensor(np.zeros((2, 3, 4), np.float32))) == [3, 4]


def test_ms_log_goes_to_python_logging(mod, caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="mskernel.cpp"):
        assert mod.logged(ms.Tensor(np.zeros(5, np.float32))) == 5
    records = [(r.levelname, r.getMessage().split(" (")[0]) for r in caplog.records if r.name == "mskernel.cpp"]
    assert records == [("DEBUG", "debug 5"), ("INFO", "info 5"), ("WARNING", "warning: 5 elements"),
                       ("ERROR", "error 3.5")]
    assert all("ms_log.cpp:" in r.getMessage() for r in caplog.records if r.name == "mskernel.cpp")


def test_ms_log_exception_and_null_checks_raise(mod) -> None:
    assert mod.must_be_float32(ms.Tensor(np.zeros(1, np.float32))) == 0
    with pytest.raises(RuntimeError, match="^must_be_float32 got another dtype$"):
        mod.must_be_float32(ms.Tensor(np.zeros(1, np.int32)))
    assert mod.null_check(False) == 1
    with pytest.raises(RuntimeError, match=r"^The pointer \[p\] is null\.$"):
        mod.null_check(True)


def test_index_select_on_the_cpu(mod) -> None:
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = mod.select_rows(ms.Tensor(x), ms.Tensor(np.array([3, 0], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), x[[3, 0]])


@pytest.mark.parametrize("name, inputs, shape, dtype, expect", [
    ("aclnnGather", [np.arange(6.0).reshape(2, 3), 1, np.array([[2, 0], [1, 1]])], (2, 2), np.float64,
     [[2.0, 0.0], [4.0, 4.0]]),
    ("aclnnIndex", [np.arange(6.0).reshape(2, 3), [np.array([1, 0]), np.array([2, 2])]], (2,), np.float64, [5.0, 2.0]),
    ("aclnnArgMax", [np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]]), 1, False], (2,), np.int64, [1, 0]),
    ("aclnnAmax", [np.array([[1.0, 5.0], [7.0, 0.0]]), [0], False], (2,), np.float64, [7.0, 5.0]),
    ("aclnnLeakyRelu", [np.array([-2.0, 3.0]), 0.1], (2,), np.float64, [-0.2, 3.0]),
    ("aclnnClamp", [np.array([-2.0, 0.5, 3.0]), -1.0, 1.0], (3,), np.float64, [-1.0, 0.5, 1.0]),
    ("aclnnLogSoftmax", [np.array([[0.0, 0.0]]), 1], (1, 2), np.float64, [[np.log(0.5), np.log(0.5)]]),
    ("aclnnGelu", [np.array([0.0, 1.0])], (2,), np.float64, [0.0, 0.8413447460685429]),
])
def test_more_aclnn_ops_on_the_cpu(name, inputs, shape, dtype, expect) -> None:
    from mskernel.cpp.aclnn import launch_aclnn
    out = np.empty(shape, dtype)
    launch_aclnn(name, inputs, [out])
    np.testing.assert_allclose(out, expect, rtol=1e-12)
