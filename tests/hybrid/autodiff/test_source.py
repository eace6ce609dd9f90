"""The generated backward source: readable DSL that says what it records and how each
``parallel`` loop is scheduled."""
from __future__ import annotations

import numpy as np

import mskernel as ms
from mskernel import ops

from ..corpus import CASES


def scale_rows(x, w):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        for j in range(x.shape[1]):
            y[i, j] = x[i, j] * w[j]
    return y


def test_parallel_loop_kept_where_gradients_are_disjoint_and_serial_where_they_scatter() -> None:
    src = ops.Custom(scale_rows, func_type="akg").backward_source(np.ones((2, 3)), np.ones(3))
    lines = src.splitlines()
    sweep = lines.index("    # reverse sweep")
    loop = next(k for k, line in enumerate(lines) if k > sweep and line.strip().startswith("for i in "))
    assert " in range(" in lines[loop]  # written serial: on a device a parallel loop would race on dw
    # dx[i, j] is disjoint per i, but dw[j] is summed over i: the loop must not run in parallel
    dw_line = 1 + next(k for k, line in enumerate(lines) if line.strip().startswith("dw[j] = dw[j] +"))
    assert lines[loop - 1].strip() == ("# parallel -> serial: the write to dw at line "
                                       f"{dw_line} is not indexed by the loop variable in one fixed dimension")
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    w = ms.Tensor(np.array([1.0, 2.0, 3.0]))
    gx, gw = ms.grad(lambda x, w: ops.Custom(scale_rows, func_type="akg")(x, w).sum(), grad_position=(0, 1))(x, w)
    np.testing.assert_array_equal(gw.asnumpy(), x.asnumpy().sum(axis=0))


def test_disjoint_parallel_loop_stays_parallel() -> None:
    src = ops.Custom(CASES["conv2d"].func, func_type="akg").backward_source(np.ones((5, 5)), np.ones((3, 3)))
    assert "# parallel -> serial: the write to dx" in src  # dx[i + p, ...] scatters across i
    elementwise = ops.Custom(CASES["add"].func, func_type="akg")
    assert "# parallel" not in elementwise.backward_source(np.ones((2, 2)), np.ones((2, 2)))


def test_overwritten_values_are_recorded_in_a_replay() -> None:
    src = ops.Custom(CASES["softmax"].func, func_type="akg").backward_source(np.ones((2, 3)))
    assert "# replay: recompute and record the values the derivatives need" in src
    assert "m = max(m, x[i, j])" in src          # the running maximum is replayed ...
    assert "= m\n" in src                        # ... and recorded before it is overwritten
    assert "y[" not in src.split("# reverse sweep")[0].split("# replay")[1]  # the output is not recomputed


def test_elementwise_backward_reads_dout_directly_and_has_no_replay() -> None:
    src = ops.Custom(CASES["fused"].func, func_type="akg").backward_source(np.ones((2, 2)), np.ones((2, 2)))
    assert "replay" not in src and "allocate" not in src
    assert src.startswith("def fused_grad(x, y, out, dout):")
