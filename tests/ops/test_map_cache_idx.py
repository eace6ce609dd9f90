"""ops.MapCacheIdx beyond the goldens (tests/golden/cases/graph_namespace.py): the one-time deprecation notice,
and the hashmap invariant after many random lookups (every live key is found from its home slot by a probe of
tag - 1 steps, and the live cache indices stay a permutation)."""
from __future__ import annotations

import logging
import math

import numpy as np

import mskernel as ms
from mskernel import ops
from mskernel.ops.table import embedding_cache


def _home(key: int, n: int) -> int:
    scaled = 0.6180339 * key
    return int((scaled - math.floor(scaled)) * n)


def test_deprecation_is_logged_once(caplog):
    embedding_cache._warned.clear()
    with caplog.at_level(logging.WARNING, logger="mskernel.ops.table.embedding_cache"):
        ops.MapCacheIdx()
        ops.MapCacheIdx()
    notes = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    assert notes == ["'MapCacheIdx' is deprecated from version 2.8.0 and will be removed in a future version."]


def test_random_lookups_keep_the_table_consistent():
    rng = np.random.default_rng(7)
    n, cache_size, vocab = 32, 8, 100
    rows = np.zeros((n, 4), np.int64)
    for value, key in enumerate(rng.choice(vocab, cache_size, replace=False)):
        slot, dist = _home(int(key), n), 1
        while rows[slot, 3]:
            slot, dist = (slot + 1) % n, dist + 1
        rows[slot] = [key, value, -5, dist]
    table, step = ms.Tensor(rows), ms.Tensor(np.array([0], np.int64))
    for _ in range(40):
        batch = ms.Tensor(rng.choice(vocab, 3, replace=False).astype(np.int64))
        cache, old, miss, swap = ops.MapCacheIdx()(table, batch, step, vocab, 0)
        live = table.asnumpy()[table.asnumpy()[:, 3] > 0]
        assert sorted(live[:, 1].tolist()) == list(range(cache_size))
        for slot in np.flatnonzero(table.asnumpy()[:, 3]):
            key, _, _, tag = table.asnumpy()[slot]
            assert (_home(int(key), n) + tag - 1) % n == slot
        found = dict(zip(live[:, 0].tolist(), live[:, 1].tolist()))
        assert [found[k] for k in batch.asnumpy().tolist()] == cache.asnumpy().tolist()
        assert len(old) == len(miss) == len(swap)
    assert int(step.asnumpy()[0]) == 40
