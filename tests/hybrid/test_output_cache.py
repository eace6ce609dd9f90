"""The output block cache: large outputs a kernel writes in full reuse the blocks freed outputs left."""
from __future__ import annotations

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid import compiler
from mskernel.hybrid.compiler import output_allocator, release_output_blocks

SQUARE = ("def square(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
          "        y[i] = x[i] * x[i]\n    return y\n")
HALF = ("def half(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0] // 2):\n"
        "        y[i] = x[i]\n    return y\n")
BIG = 1 << 23  # float32 elements: 32 MB, above the cache's 16 MB minimum


def _cached() -> tuple[int, int]:
    compiler.dispatcher()
    return compiler._module.cached()


@pytest.fixture(autouse=True)
def empty_cache():
    release_output_blocks()
    yield
    release_output_blocks()


def test_a_freed_output_block_serves_the_next_output_of_that_size():
    hk = HybridKernel.from_source(SQUARE)
    x = np.arange(BIG, dtype=np.float32) % 7
    y = hk.run([x])[0]
    assert type(y.base).__name__ == "Block" and not y.flags.owndata
    address = y.ctypes.data
    np.testing.assert_array_equal(y, x * x)
    del y
    assert _cached() == (1, BIG * 4)
    y2 = hk.run([x + 1])[0]
    assert y2.ctypes.data == address and _cached() == (0, 0)
    np.testing.assert_array_equal(y2, (x + 1) * (x + 1))


def test_a_view_keeps_the_block_in_use():
    hk = HybridKernel.from_source(SQUARE)
    x = np.full(BIG, 3.0, np.float32)
    y = hk.run([x])[0]
    tail = y[-4:]
    del y
    assert _cached() == (0, 0)
    z = hk.run([np.full(BIG, 2.0, np.float32)])[0]  # a fresh block: the first is still in use
    np.testing.assert_array_equal(tail, [9.0] * 4)
    np.testing.assert_array_equal(z[-4:], [4.0] * 4)
    del tail
    assert _cached() == (1, BIG * 4)


def test_small_outputs_are_numpy_arrays():
    hk = HybridKernel.from_source(SQUARE)
    y = hk.run([np.ones(1000, np.float32)])[0]
    assert y.flags.owndata and y.base is None


def test_zero_filled_outputs_never_come_from_the_cache():
    square, half = HybridKernel.from_source(SQUARE), HybridKernel.from_source(HALF)
    y = square.run([np.full(BIG, 5.0, np.float32)])[0]
    del y
    assert _cached() == (1, BIG * 4)  # a block full of 25s
    got = half.run([np.ones(BIG, np.float32)])[0]
    assert got.flags.owndata and _cached() == (1, BIG * 4)
    assert got[: BIG // 2].min() == 1.0 and not got[BIG // 2:].any()


def test_the_cache_keeps_at_most_four_blocks():
    empty = output_allocator()
    arrays = [empty((BIG + k * (1 << 21),), np.dtype(np.float32)) for k in range(6)]  # 6 distinct sizes
    for k in range(6):
        arrays[k] = None  # freed in order: the two oldest are unmapped when the last two arrive
    blocks, nbytes = _cached()
    assert blocks == 4 and nbytes == sum(BIG * 4 + k * (8 << 20) for k in range(2, 6))
    assert release_output_blocks() == nbytes and _cached() == (0, 0)


def test_allocator_matches_numpy_empty_for_shapes_dtypes_and_errors():
    empty = output_allocator()
    for shape, dtype in [((0,), "float32"), ((2, 3), "int8"), ((1 << 12, 1 << 10), "float64"), ((), "int64")]:
        a = empty(shape, np.dtype(dtype))
        assert a.shape == shape and a.dtype == np.dtype(dtype) and a.flags.c_contiguous and a.flags.writeable
    with pytest.raises(ValueError, match="negative dimensions"):
        empty((-1,), np.dtype(np.float32))
    with pytest.raises((ValueError, MemoryError)):
        empty((1 << 62, 1 << 4), np.dtype(np.float32))
    with pytest.raises(TypeError, match=r"empty\(shape: tuple, dtype\[, inputs\]\)"):
        empty([4], np.dtype(np.float32))


def test_an_impossible_covered_output_names_the_kernel_and_output():
    hk = HybridKernel.from_source("def fill(x, n):\n    y = output_tensor((n,), x.dtype)\n    for i in range(n):\n"
                                  "        y[i] = 1.0\n    return y\n")
    assert "allocated uninitialised" in hk.source([np.ones(1, np.float32)], None, [3])
    np.testing.assert_array_equal(hk.run([np.ones(1, np.float32)], [3])[0], [1.0, 1.0, 1.0])
    with pytest.raises(MemoryError, match="hybrid kernel 'fill': cannot allocate output_tensor y"):
        hk.run([np.ones(1, np.float32)], [1 << 62])


def test_outputs_from_4_kb_are_64_byte_aligned():
    hk = HybridKernel.from_source(SQUARE)
    for n in (1024, 5000, 1 << 20):
        x = np.arange(n, dtype=np.float32)
        y = hk.run([x])[0]
        assert y.ctypes.data % 64 == 0 and y.flags.c_contiguous and y.flags.writeable
        np.testing.assert_array_equal(y, x * x)
        view = y[1:]
        del y
        np.testing.assert_array_equal(view, (x * x)[1:])  # the view keeps the memory
    assert hk.run([np.ones(1000, np.float32)])[0].nbytes == 4000  # below 4 KB: numpy's own array


def test_outputs_from_16_kb_are_placed_away_from_the_inputs_modulo_4096():
    """No 4K aliasing: the kernel's stores and loads of the same index are 1-3 KB apart modulo 4096."""
    hk = HybridKernel.from_source(SQUARE)
    big = np.zeros((1 << 14) + 1024, np.float32)
    for shift in (0, 16, 48, 1000):  # inputs at several offsets modulo 4096
        x = big[shift: shift + (1 << 14)]
        y = hk.run([x])[0]
        assert 1024 <= (y.ctypes.data - x.ctypes.data) % 4096 <= 3072 and y.ctypes.data % 64 == 0
        np.testing.assert_array_equal(y, x * x)
