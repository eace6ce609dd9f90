"""Static counts of hybrid kernels are exact for kernels counted by hand."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.bench import CountError, count_kernel
from mskernel.bench.counts import hybrid_kernel_of
from mskernel.ops import kernel

from .kernels import (AXPY, GRID_SQ, MATMUL, RELU_BRANCH, ROWSUM_RANGE, ROWSUM_REDUCE, ROWSUM_TEMP, SQ, STRIDED,
                      TRIANGLE)


@pytest.mark.parametrize("n", [1, 7, 1000])
def test_square_is_one_load_one_store_one_flop_per_element(n):
    c = count_kernel(SQ, np.zeros(n, np.float32))
    assert (c.loads, c.stores, c.flops, c.special, c.int_ops) == (n, n, n, 0, 0)
    assert (c.load_bytes, c.store_bytes, c.compulsory_bytes) == (4 * n, 4 * n, 8 * n)
    assert c.exact and c.notes == []
    assert c.intensity == c.max_intensity == 1 / 8


def test_dtype_sets_the_bytes():
    c = count_kernel(SQ, np.zeros(10, np.float64))
    assert (c.load_bytes, c.store_bytes) == (80, 80)


def test_axpy_with_an_attribute():
    c = count_kernel(AXPY, np.zeros(5, np.float32), np.zeros(5, np.float32), 2.0)
    assert (c.loads, c.stores, c.flops) == (10, 5, 10)
    assert c.compulsory_bytes == 3 * 5 * 4


def test_grid_loop_counts_every_element():
    c = count_kernel(GRID_SQ, np.zeros((3, 4), np.float32))
    assert (c.loads, c.stores, c.flops) == (12, 12, 24)


def test_matmul():
    m, k, n = 4, 5, 6
    c = count_kernel(MATMUL, np.zeros((m, k)), np.zeros((k, n)))
    assert c.flops == 2 * m * n * k
    assert c.loads == 3 * m * n * k and c.stores == m * n * k
    assert c.compulsory_bytes == 8 * (m * k + k * n + m * n)


def test_bounds_that_depend_on_an_outer_variable_are_walked():
    n = 9
    c = count_kernel(TRIANGLE, np.zeros(n, np.float32))
    pairs = n * (n - 1) // 2
    assert (c.loads, c.stores, c.flops) == (2 * pairs, pairs, pairs)
    with pytest.raises(CountError, match="max_iterations"):
        count_kernel(TRIANGLE, np.zeros(n, np.float32), max_iterations=3)


def test_index_arithmetic_is_not_counted():
    c = count_kernel(STRIDED, np.zeros(10, np.float32))
    assert (c.loads, c.stores, c.flops, c.int_ops) == (5, 5, 0, 0)


def test_a_condition_on_data_counts_the_costlier_branch_and_says_so():
    c = count_kernel(RELU_BRANCH, np.zeros(8, np.float32))
    assert (c.loads, c.stores, c.flops) == (8, 8, 8)
    assert not c.exact
    assert "condition on data" in c.notes[0] and "upper bound" in c.describe()


def test_temporaries_are_counted_apart_and_intrinsics_are_special():
    c = count_kernel(ROWSUM_TEMP, np.zeros((3, 4), np.float32))
    assert (c.loads, c.stores) == (12, 3)
    assert c.temp_stores == 3 + 12 and c.temp_loads == 12 + 3
    assert (c.flops, c.special) == (12, 3)


def test_what_is_a_hybrid_kernel():
    @kernel
    def twice(x):
        y = output_tensor(x.shape, x.dtype)  # noqa: F821 - a DSL name
        for i in range(x.shape[0]):
            y[i] = x[i] + x[i]
        return y

    op = ops.Custom(twice, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="hybrid")
    for obj in (op, twice):
        c = count_kernel(obj, ms.Tensor(np.zeros(6, np.float32)))
        assert (c.kernel, c.loads, c.stores, c.flops) == ("twice", 6, 6, 6)
    assert hybrid_kernel_of(op) is op.hybrid_kernel is not None
    assert hybrid_kernel_of(np.add) is None
    with pytest.raises(TypeError, match="expected a hybrid kernel .* got ufunc"):
        count_kernel(np.add, np.zeros(3))


def test_a_reduce_loop_reads_its_accumulator_element_once_and_writes_it_once():
    # the compiled reduce loop keeps y[i] in a local: a row sum reads n*m elements of x and n of y, writes n
    n, m = 6, 1000
    c = count_kernel(ROWSUM_REDUCE, np.zeros((n, m), np.float32))
    assert (c.loads, c.stores, c.flops) == (n * m + n, n + n, n * m)  # (+ the y[i] = 0.0 before each loop)
    assert c.load_bytes == 4 * (n * m + n) and c.compulsory_bytes == 4 * (n * m + n)
    # in a range loop the serial code reads and writes y[i] at every iteration (it may alias x)
    s = count_kernel(ROWSUM_RANGE, np.zeros((n, m), np.float32))
    assert (s.loads, s.stores) == (2 * n * m, n * m + n) and s.compulsory_bytes == c.compulsory_bytes
    # a float16 accumulator stays serial, element by element
    h = count_kernel(ROWSUM_REDUCE, np.zeros((n, m), np.float16))
    assert (h.loads, h.stores) == (2 * n * m, n * m + n)
    # an empty reduce loop touches nothing
    e = count_kernel(ROWSUM_REDUCE, np.zeros((n, 0), np.float32))
    assert (e.loads, e.stores) == (0, n)
