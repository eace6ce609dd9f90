"""The timing method: rounds, interleaving, the stopping rule and the statistics (never the times themselves)."""
from __future__ import annotations

import pytest

from mskernel.bench import Method, measure


def test_implementations_are_interleaved_with_the_order_rotated():
    log = []
    m = Method(warmup=0.0, min_sample=0.0, min_rounds=4, max_rounds=4)
    thunks = {n: (lambda n=n: log.append(n)) for n in "abc"}
    out = measure(thunks, m)
    timed = log[-12:]  # warm-up calls come first (two per implementation, one after another)
    assert log[:6] == ["a", "a", "b", "b", "c", "c"]
    assert [timed[i:i + 3] for i in range(0, 12, 3)] == [list("abc"), list("bca"), list("cab"), list("abc")]
    assert all(t.number == 1 and len(t.samples) == 4 and t.rounds == 4 for t in out.values())


def test_the_rounds_stop_when_the_spread_settles_or_at_the_cap():
    settles = Method(warmup=0.0, min_rounds=3, window=3, max_rounds=40, settle_tol=1e9)
    t = measure({"f": lambda: None}, settles)["f"]
    assert t.settled and t.rounds == 3 and len(t.spreads) == 3
    never = Method(warmup=0.0, min_rounds=3, window=3, max_rounds=7, settle_tol=-1.0, max_time=60)
    t = measure({"f": lambda: None}, never)["f"]
    assert not t.settled and t.rounds == 7 and len(t.samples) == 7


def test_flushed_samples_are_single_calls_and_warm_ones_batch_calls():
    m = Method(warmup=0.0, min_sample=1e-3, min_rounds=2, max_rounds=2, flush_bytes=1 << 16)
    warm = measure({"f": lambda: None}, m)["f"]
    flushed = measure({"f": lambda: None}, m, flushed=True)["f"]
    assert warm.mode == "warm" and warm.number > 1
    assert flushed.mode == "flushed" and flushed.number == 1


def test_statistics_are_the_median_and_the_quantile_band():
    t = measure({"f": lambda: None}, Method(warmup=0.0, min_rounds=9, max_rounds=9, quantiles=(0.25, 0.75)))["f"]
    assert t.q_lo <= t.median <= t.q_hi
    assert t.rel_spread == pytest.approx((t.q_hi - t.q_lo) / t.median)


@pytest.mark.parametrize("kwargs, message", [
    ({"quantiles": (0.6, 0.9)}, "quantiles must be"),
    ({"min_rounds": 5, "max_rounds": 2}, "min_rounds <= max_rounds"),
    ({"warmup": -1.0}, "warmup must be >= 0"),
])
def test_method_settings_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Method(**kwargs)


def test_nothing_to_time():
    with pytest.raises(ValueError, match="nothing to time"):
        measure({}, Method())


def test_the_description_states_the_method():
    text = Method(warmup=0.2, max_rounds=30, flush_bytes=64 << 20).describe()
    for part in ("warm-up 0.2 s per implementation (time budget)", "interleaved", "writing 64 MiB",
                 "max 30 rounds", "median per call and the q10-q90 band"):
        assert part in text
