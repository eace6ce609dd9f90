"""mindspore.graph (op wrappers and infer functions inside jit, custom pass/backend registration) and the
deprecated ops.MapCacheIdx primitive (embedding-cache lookup with an in-place hashmap update)."""
# a hashmap of (key, value, step, tag) rows, built by inserting keys as the cache does (linear probing from
# the golden-ratio hash); the case then looks indices up in it
_BUILD = '''import math
def build(n, keys, steps, dt=np.int32):
    rows = np.zeros((n, 4), np.int64)
    for v, (k, s) in enumerate(zip(keys, steps)):
        slot, dist = int((0.6180339 * k - math.floor(0.6180339 * k)) * n), 1
        while rows[slot, 3] != 0:
            slot, dist = (slot + 1) % n, dist + 1
        rows[slot] = [k, v, s, dist]
    return Tensor(rows.astype(dt))
def lookup(table, idx, step, emb_max_num=40, offset=0, dt=np.int32):
    st = Tensor(np.array([step], dt))
    out = ops.MapCacheIdx()(table, Tensor(np.array(idx, dt)), st, emb_max_num, offset)
    return (out, table, st)
'''
_MAP = {
    "map_cache_idx_hits_and_misses": "t = build(16, [3, 11, 19, 27, 35, 4, 12], [0, -5, -5, 1, -5, -5, -5])\nresult = lookup(t, [3, 11, 8, 9, 27, 50, -1], 2)",
    "map_cache_idx_int64": "t = build(12, [1, 2, 3, 5, 8, 13, 21], [-5] * 7, np.int64)\nresult = lookup(t, [13, 4, 6, 21, 30], 0, 25, 0, np.int64)",
    "map_cache_idx_offset": "t = build(10, [0, 4, 9, 14, 22], [-5, -5, 0, -5, -5])\nresult = lookup(t, [102, 109, 105, 130, 99], 1, 30, 100)",
    "map_cache_idx_int16": "t = build(8, [1, 6, 7, 30], [-5] * 4, np.int16)\nresult = lookup(t, [6, 2], 0, 40, 0, np.int16)",
    "map_cache_idx_2d_indices": "t = build(16, list(range(0, 40, 3)), [-5] * 14)\nresult = lookup(t, [[0, 1, 2], [3, 4, 6]], 0)",
    "map_cache_idx_duplicate_misses": "t = build(12, [10, 20, 30, 31, 32, 33], [-5] * 6)\nresult = lookup(t, [7, 7, 10, 8], 3)",
    "map_cache_idx_all_out_of_range": "t = build(6, [1, 2], [-5, -5])\nresult = lookup(t, [40, 41, -3], 0)",
    "map_cache_idx_chain_compress": "t = build(8, [1, 9, 4, 17, 12], [-5, -5, -5, -5, 5])\nresult = lookup(t, [5, 13], 5)",
    "map_cache_idx_twice": "t = build(12, list(range(9)), [-5] * 9)\na = lookup(t, [20, 21], 0)\nresult = (a, lookup(t, [20, 22, 0], 1))",
    "map_cache_idx_step_tensor_scalars": "t = build(8, [1, 2, 3], [-5] * 3)\nst = Tensor(np.array([4], np.int32))\nout = ops.MapCacheIdx()(t, Tensor(np.array([5, 1], np.int32)), st, Tensor(np.array(10, np.int32)), Tensor(np.array(0, np.int32)))\nresult = (out, t, st)",
    "map_cache_idx_parameter": "t = ms.Parameter(build(8, [1, 2, 3], [-5] * 3), name='hashmap')\nout = ops.MapCacheIdx()(t, Tensor(np.array([6], np.int32)), Tensor(np.array([0], np.int32)), 10, 0)\nresult = (out, t.value())",
    "map_cache_idx_int64_table_int32_step": "t = build(8, [1, 2, 3], [-5] * 3, np.int64)\nst = Tensor(np.array([0], np.int32))\nout = ops.MapCacheIdx()(t, Tensor(np.array([6, 1], np.int64)), st, 10, 0)\nresult = (out, t, st)",
    "map_cache_idx_delete_fails": "t = build(4, [1, 2], [0, 0])\nresult = lookup(t, [9], 1)",
    "map_cache_idx_delete_fails_in_place": "t = build(4, [1, 2, 3], [-5, -5, -5])\ntry:\n    lookup(t, [5, 6, 7], 1)\nexcept RuntimeError:\n    pass\nresult = t",
    "map_cache_idx_search_fails": "t = build(4, [5, 2, 7, 3], [9] * 4)\nresult = lookup(t, [0, 1], 0, 10)",
    "map_cache_idx_four_inputs": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10)",
    "map_cache_idx_six_inputs": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10, 0, 1)",
    "map_cache_idx_rank": "result = ops.MapCacheIdx()(Tensor(np.zeros((3, 4, 4), np.int32)), Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10, 0)",
    "map_cache_idx_dtype_mismatch": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int64)), Tensor(np.array([0], np.int32)), 10, 0)",
    "map_cache_idx_step_dtype_mismatch": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int64)), 10, 0)",
    "map_cache_idx_uint8": "t = build(4, [1], [0], np.uint8)\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.uint8)), Tensor(np.array([0], np.uint8)), 10, 0)",
    "map_cache_idx_float": "t = build(4, [1], [0], np.float32)\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.float32)), Tensor(np.array([0], np.float32)), 10, 0)",
}
CASES = {name: _BUILD + src for name, src in _MAP.items()}
OPTIONS = {name: {"message": True} for name in (
    "map_cache_idx_delete_fails", "map_cache_idx_search_fails", "map_cache_idx_four_inputs",
    "map_cache_idx_six_inputs", "map_cache_idx_rank", "map_cache_idx_dtype_mismatch",
    "map_cache_idx_step_dtype_mismatch", "map_cache_idx_uint8", "map_cache_idx_float")}
