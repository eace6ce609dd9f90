"""Dynamic loss scaling (mskernel/amp.py) against the rule written out independently in numpy.

The rule, as MindSpore documents it: an overflowing step divides the scale by ``scale_factor`` (never below
1); a step without one multiplies it by ``scale_factor`` when it completes a window of ``scale_window``
clean steps in a row. The oracles below compute each step's run of clean steps with array operations
(no step-by-step state like the implementation's), then apply the rule.
"""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import amp


def clean_run_lengths(overflow: np.ndarray) -> np.ndarray:
    """For each step, how many steps in a row ending with it had no overflow (0 at an overflow)."""
    steps = np.arange(len(overflow))
    last_overflow = np.maximum.accumulate(np.where(overflow, steps, -1))
    return np.where(overflow, 0, steps - last_overflow)


def manager_scales(init: float, factor: int, window: int, overflow: np.ndarray) -> np.ndarray:
    """DynamicLossScaleManager's scale after each step, in float64."""
    runs = clean_run_lengths(overflow)
    scales, scale = [], float(init)
    for over, run in zip(overflow, runs):
        if over:
            scale = max(scale / factor, 1.0)
        elif run % window == 0:
            scale = scale * factor
        scales.append(scale)
    return np.array(scales)


def scaler_scales(init: float, factor: int, window: int, finite: np.ndarray) -> np.ndarray:
    """DynamicLossScaler's scale after each ``adjust``, in float32 (a growth that would overflow float32 is
    skipped)."""
    runs = clean_run_lengths(~finite)
    scales, scale = [], np.float32(init)
    with np.errstate(over="ignore"):  # a growth to inf is what the rule checks for
        for ok, run in zip(finite, runs):
            if not ok:
                scale = max(np.float32(1.0), np.float32(scale / np.float32(factor)))
            elif run % window == 0 and np.isfinite(np.float32(scale * np.float32(factor))):
                scale = np.float32(scale * np.float32(factor))
            scales.append(scale)
    return np.array(scales, np.float32)


def test_the_oracle_counts_runs():
    flags = np.array([False, False, True, False, True, True, False, False, False])
    assert clean_run_lengths(flags).tolist() == [1, 2, 0, 1, 0, 0, 1, 2, 3]


@pytest.mark.parametrize("factor,window", [(2, 1), (2, 3), (3, 2), (4, 5)])
def test_manager_follows_the_rule(factor, window):
    rng = np.random.default_rng(factor * 10 + window)
    overflow = rng.random(400) < 0.25
    manager = amp.DynamicLossScaleManager(init_loss_scale=2 ** 10, scale_factor=factor, scale_window=window)
    seen = []
    for over in overflow:
        manager.update_loss_scale(bool(over))
        seen.append(manager.get_loss_scale())
    np.testing.assert_allclose(seen, manager_scales(2 ** 10, factor, window, overflow), rtol=1e-12)
    assert min(seen) >= 1


def test_manager_keeps_integer_scales_integer_until_it_shrinks():
    manager = amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    seen = []
    for over in [False, False, True, False, False]:
        manager.update_loss_scale(over)
        seen.append(manager.get_loss_scale())
    assert seen == [16, 32, 16.0, 16.0, 32.0]  # MindSpore's recorded sequence (tests/golden/train.json)
    assert [type(s) for s in seen] == [int, int, float, float, float]


def test_manager_gives_up_after_more_than_1000_overflows_in_a_row():
    manager = amp.DynamicLossScaleManager(init_loss_scale=2.0, scale_factor=2, scale_window=10)
    for _ in range(1000):
        manager.update_loss_scale(True)
    assert manager.get_loss_scale() == 1
    manager.update_loss_scale(False)  # a clean step ends the run
    for _ in range(1000):
        manager.update_loss_scale(True)
    with pytest.raises(RuntimeError, match="Continuous overflow 1001 times"):
        manager.update_loss_scale(True)


@pytest.mark.parametrize("factor,window", [(2, 1), (2, 3), (3, 2)])
def test_scaler_follows_the_rule(factor, window):
    rng = np.random.default_rng(100 + factor * 10 + window)
    finite = rng.random(300) > 0.2
    scaler = amp.DynamicLossScaler(2 ** 12, factor, window)
    seen = []
    for ok in finite:
        assert scaler.adjust(ms.Tensor(bool(ok))) is True
        seen.append(scaler.scale_value.asnumpy().item())
    np.testing.assert_array_equal(np.array(seen, np.float32), scaler_scales(2 ** 12, factor, window, finite))


def test_scaler_does_not_grow_past_float32():
    scaler = amp.DynamicLossScaler(2.0 ** 127, 2, 1)
    scaler.adjust(ms.Tensor(True))
    assert scaler.scale_value.asnumpy().item() == 2.0 ** 127
    assert scaler_scales(2.0 ** 127, 2, 1, np.array([True]))[0] == np.float32(2.0 ** 127)
