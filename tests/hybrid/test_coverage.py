"""Outputs written in full are allocated uninitialised; every other output stays zero-filled.

Each kernel runs right after numpy's small-block cache was filled with a block of 7s of the
output's size (numpy hands that block to the next allocation of the same size), so an output
that was wrongly left uninitialised shows 7s where the DSL promises zeros.
"""
from __future__ import annotations

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid.coverage import fully_written


def _kernel(body: str, args: str = "x") -> HybridKernel:
    return HybridKernel.from_source(f"def k({args}):\n" + "".join(f"    {ln}\n" for ln in body.strip().splitlines()))


def _covered(hk: HybridKernel, inputs: list[np.ndarray], attrs: tuple = ()) -> dict[str, int]:
    return fully_written(hk.specialize(hk.signature([a.dtype for a in inputs], [a.ndim for a in inputs], attrs)))


def _run_dirty(hk: HybridKernel, inputs: list[np.ndarray], nbytes: int) -> np.ndarray:
    for _ in range(8):
        junk = np.full(nbytes // 4, 7.0, np.float32)  # recycled by numpy's cache for the output
        del junk
    return hk.run(inputs)[0]


X1 = np.arange(1, 17, dtype=np.float32)
X2 = np.arange(1, 17, dtype=np.float32).reshape(4, 4)

COVERED = {
    "elementwise": ("y = output_tensor(x.shape, x.dtype)\nfor i in parallel(x.shape[0]):\n    y[i] = x[i] * x[i]\n"
                    "return y", [X1]),
    "own shape, static extent": ("n = x.shape[0]\ny = output_tensor((n,), x.dtype)\nfor i in range(n):\n"
                                 "    y[i] = x[i]\nreturn y", [X1]),
    "y.shape loop": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(y.shape[0]):\n    y[i] = x[i]\nreturn y",
                     [X1]),
    "2-d nest": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    for j in range(x.shape[1]):\n"
                 "        y[i, j] = x[i, j] + 1.0\nreturn y", [X2]),
    "transposed loop order": ("y = output_tensor(x.shape, x.dtype)\nfor j in range(x.shape[1]):\n"
                              "    for i in range(x.shape[0]):\n        y[i, j] = x[i, j]\nreturn y", [X2]),
    "grid": ("y = output_tensor(x.shape, x.dtype)\nfor i in grid(x.shape):\n    y[i] = x[i] * 2.0\nreturn y", [X2]),
    "unpacked grid": ("y = output_tensor(x.shape, x.dtype)\nfor i, j in grid(x.shape):\n    y[i, j] = x[i, j]\n"
                      "return y", [X2]),
    "row softmax (reads the row after writing it)": (
        "y = output_tensor(x.shape, x.dtype)\nfor i in parallel(x.shape[0]):\n    s = 0.0\n"
        "    for j in range(x.shape[1]):\n        y[i, j] = exp(x[i, j])\n        s = s + exp(x[i, j])\n"
        "    for j in range(x.shape[1]):\n        y[i, j] = y[i, j] / s\nreturn y", [X2 / 16]),
    "read in a later loop": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    y[i] = x[i]\n"
                             "for i in range(1, x.shape[0]):\n    y[i] = y[i] + y[i - 1]\nreturn y", [X1]),
}

ZERO_FILLED = {
    "accumulates (reads before writing)": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n"
                                           "    y[i] = y[i] + x[i]\nreturn y", [X1]),
    "half the range": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0] // 2):\n    y[i] = x[i]\n"
                       "return y", [X1]),
    "starts at 1": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(1, x.shape[0]):\n    y[i] = x[i]\nreturn y",
                    [X1]),
    "step 2": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(0, x.shape[0], 2):\n    y[i] = x[i]\nreturn y",
               [X1]),
    "under if": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    if x[i] > 8.0:\n"
                 "        y[i] = x[i]\nreturn y", [X1]),
    "one row only": ("y = output_tensor(x.shape, x.dtype)\nfor j in range(x.shape[1]):\n    y[0, j] = x[0, j]\n"
                     "return y", [X2]),
    "diagonal": ("y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    y[i, i] = x[i, i]\nreturn y",
                 [X2]),
    "loop over another extent": ("y = output_tensor((x.shape[0],), x.dtype)\nfor i in range(x.shape[1]):\n"
                                 "    y[i] = x[i, 0]\nreturn y", [np.ones((16, 2), np.float32)]),
    "an extra outer loop (may run 0 times)": ("y = output_tensor(x.shape, x.dtype)\nfor t in range(n):\n"
                                              "    for i in range(x.shape[0]):\n        y[i] = x[i]\nreturn y", [X1]),
    "read in the same iteration before the write": (
        "y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    x[i] = y[i]\n    y[i] = 1.0\n"
        "return y, x", [X1.copy()]),
    "read of another row after the inner loop": (
        "y = output_tensor(x.shape, x.dtype)\nfor i in range(x.shape[0]):\n    for j in range(x.shape[1]):\n"
        "        y[i, j] = x[i, j]\n    x[i, 0] = y[3 - i, 0]\nreturn y, x", [X2.copy()]),
    "read before the loop": ("y = output_tensor(x.shape, x.dtype)\nx[0] = y[1]\nfor i in range(x.shape[0]):\n"
                             "    y[i] = x[i]\nreturn y, x", [X1.copy()]),
}


@pytest.mark.parametrize("name", sorted(COVERED))
def test_fully_written_outputs_are_found_and_computed_right(name):
    body, inputs = COVERED[name]
    hk = _kernel(body)
    assert "y" in _covered(hk, inputs)
    assert "allocated uninitialised by the caller" in hk.source(inputs)
    expected = hk.run_python([a.copy() for a in inputs])[0]
    np.testing.assert_allclose(_run_dirty(hk, [a.copy() for a in inputs], inputs[0].nbytes), expected, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(ZERO_FILLED))
def test_other_outputs_stay_zero_filled(name):
    body, inputs = ZERO_FILLED[name]
    hk = _kernel(body, "x, n" if "for t in range(n)" in body else "x")
    attrs = (0,) if "for t in range(n)" in body else ()
    assert _covered(hk, inputs, attrs) == {}
    assert "allocated zero-filled by the caller" in hk.source(inputs, None, attrs)
    expected = hk.run_python([a.copy() for a in inputs], attrs)[0]
    nbytes = int(np.prod(expected.shape)) * 4
    for _ in range(8):
        junk = np.full(nbytes // 4, 7.0, np.float32)
        del junk
    got = hk.run([a.copy() for a in inputs], attrs)[0]
    np.testing.assert_array_equal(got, expected)
    assert not (got == 7.0).any() or (expected == 7.0).any()


def test_the_dirty_allocation_would_show_a_missing_zero_fill():
    """The check above can fail: numpy really hands the block of 7s to the next allocation."""
    for _ in range(8):
        junk = np.full(16, 7.0, np.float32)
        del junk
    assert (np.empty(16, np.float32) == 7.0).all()


def test_rank_0_output_stays_zero_filled():
    hk = _kernel("y = output_tensor((), x.dtype)\nreturn y")
    assert _covered(hk, [X1]) == {}
    assert hk.run([X1])[0].shape == ()


def test_large_output_written_in_full_matches_numpy():
    hk = _kernel(COVERED["elementwise"][0])
    x = np.random.default_rng(0).random(1 << 21, dtype=np.float32)
    for _ in range(3):  # later calls reuse the memory the earlier outputs freed
        np.testing.assert_array_equal(hk.run([x])[0], x * x)
