"""The collectives as rank 0 of a group of one, against numpy oracles written for any number of ranks.

Each oracle takes the list of every rank's input (here one rank: ``[x]``) and computes the collective's
definition with numpy: a reduction over the ranks, a concatenation, a split. The CPU wheel has no kernel for most
of these (ReduceScatter, AlltoAll, Reduce, Barrier, CollectiveGather/Scatter, the V forms, AllGather's
gradient, all_gather_matmul, matmul_reduce_scatter, gather_into_tensor, scatter_tensor), so the golden suite
``distributed_more`` holds only what it runs. Gradients are checked against float64 central differences of the
numpy oracle.
"""
from __future__ import annotations

import datetime
import sys
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops
from mskernel.errors import RefusedError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from central_differences import gradient  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 3)).astype(np.float32)
W = RNG.standard_normal((4, 3))
_REDUCE = {"sum": lambda xs: np.sum(xs, 0), "max": lambda xs: np.max(xs, 0), "min": lambda xs: np.min(xs, 0),
           "prod": lambda xs: np.prod(xs, 0), "avg": lambda xs: np.sum(xs, 0) / len(xs)}


def _t(a: np.ndarray) -> ms.Tensor:
    return ms.Tensor(a)


def _check_grad(op, oracle, x: np.ndarray, w: np.ndarray) -> None:
    """d/dx sum(op(x) * w) against central differences of the oracle in float64."""
    got = ms.grad(lambda a: (op(a) * _t(w.astype(np.float32))).sum())(_t(x)).asnumpy()
    want = gradient(lambda p: float((oracle([p["x"]]) * w).sum()), {"x": x.astype(np.float64)})["x"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("how", sorted(_REDUCE))
def test_all_reduce_every_reduction(how: str) -> None:
    np.testing.assert_allclose(ops.AllReduce(how)(_t(X)).asnumpy(), _REDUCE[how]([X]), rtol=1e-6)
    _check_grad(ops.AllReduce(how), _REDUCE[how], X, W)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64, np.float16, np.bool_])
def test_all_reduce_keeps_dtype(dtype) -> None:
    x = (X > 0).astype(dtype) if dtype is np.bool_ else X.astype(dtype)
    out = ops.AllReduce()(_t(x))
    assert out.asnumpy().dtype == x.dtype
    np.testing.assert_array_equal(out.asnumpy(), x)


@pytest.mark.parametrize("how", sorted(_REDUCE))
def test_reduce_scatter_and_reduce(how: str) -> None:
    def scatter(xs):  # rank 0's part of the reduction split along axis 0
        return np.split(_REDUCE[how](xs), len(xs), 0)[0]
    np.testing.assert_allclose(ops.ReduceScatter(how)(_t(X)).asnumpy(), scatter([X]), rtol=1e-6)
    _check_grad(ops.ReduceScatter(how), scatter, X, W)
    np.testing.assert_allclose(ops.Reduce(0, how)(_t(X)).asnumpy(), _REDUCE[how]([X]), rtol=1e-6)
    _check_grad(ops.Reduce(0, how), _REDUCE[how], X, W)


def test_gathers() -> None:
    def concat(xs):
        return np.concatenate(xs, 0)
    for prim in (ops.AllGather(), ops.CollectiveGather(0)):
        np.testing.assert_array_equal(prim(_t(X)).asnumpy(), concat([X]))
        _check_grad(prim, concat, X, W)
    def scatter(xs):
        return np.split(xs[0], len(xs), 0)[0]
    np.testing.assert_array_equal(ops.CollectiveScatter(0)(_t(X)).asnumpy(), scatter([X]))
    _check_grad(ops.CollectiveScatter(0), scatter, X, W)


@pytest.mark.parametrize("split_dim, concat_dim", [(0, 0), (0, 1), (1, 0), (-1, -2)])
def test_all_to_all(split_dim: int, concat_dim: int) -> None:
    def a2a(xs):  # part r of every rank's split, for rank 0: part 0 of each rank, concatenated
        return np.concatenate([np.split(x, len(xs), split_dim)[0] for x in xs], concat_dim)
    prim = ops.AlltoAll(1, split_dim, concat_dim)
    np.testing.assert_array_equal(prim(_t(X)).asnumpy(), a2a([X]))
    _check_grad(prim, a2a, X, W)


def test_broadcast_returns_copies() -> None:
    x = _t(X)
    (out,) = ops.Broadcast(0)((x,))
    assert out is not x
    np.testing.assert_array_equal(out.asnumpy(), X)
    a, b = ops.Broadcast(0)((x, _t(np.arange(3, dtype=np.int32))))
    assert b.dtype == ms.int32


def test_barrier() -> None:
    out = ops.Barrier()()
    assert out.shape == (1,) and out.dtype == ms.float32


def test_v_forms() -> None:
    flat = X.reshape(-1)
    n = flat.size
    np.testing.assert_array_equal(ops.AllGatherV()(_t(flat), [n]).asnumpy(), np.concatenate([flat]))
    np.testing.assert_array_equal(ops.AllGatherV()(_t(flat), ms.Tensor([n])).asnumpy(), flat)
    np.testing.assert_array_equal(ops.ReduceScatterV()(_t(flat), [5]).asnumpy(), flat[:5])
    np.testing.assert_array_equal(ops.AlltoAllV()(_t(flat), [4], [4]).asnumpy(), flat[:4])
    np.testing.assert_array_equal(ops.AlltoAllV(block_size=3)(_t(flat), [2], [2]).asnumpy(), flat[:6])
    np.testing.assert_array_equal(ops.AlltoAllVC()(_t(flat), [7]).asnumpy(), flat[:7])
    empty = ops.AlltoAllV()(_t(flat), [0], [0])
    assert empty.shape == () and empty.dtype == ms.float32
    got = ms.grad(lambda a: (ops.ReduceScatterV()(a, [5]) * 2).sum())(_t(flat)).asnumpy()
    np.testing.assert_array_equal(got, np.r_[np.full(5, 2.0), np.zeros(n - 5)])
    rows = ops._AllSwap()(_t(X), ms.Tensor([3], ms.int64), ms.Tensor([3], ms.int64))
    np.testing.assert_array_equal(rows.asnumpy(), X[:3])


def test_group_of_one_errors() -> None:
    x = _t(X)
    with pytest.raises(ValueError, match="'dest_rank' must be a rank of the group"):
        ops.Reduce(1)(x)
    with pytest.raises(ValueError, match="'root_rank' must be a rank of the group"):
        ops.Broadcast(1)((x,))
    with pytest.raises(ValueError, match="'split_count' must be the group's size 1, but got 2"):
        ops.AlltoAll(2, 0, 0)(x)
    with pytest.raises(ValueError, match="one entry per rank"):
        ops.AllGatherV()(x, [6, 6])
    with pytest.raises(ValueError, match="'recv_numel_list'"):
        ops.AlltoAllV()(x, [4], [5])
    with pytest.raises(ValueError, match="'op' must be one of"):
        ops.AllReduce("mean")(x)
    with pytest.raises(ValueError, match="'x shape' must be a positive int"):
        ops.AllGather()(ms.Tensor(1.0))


def test_all_gather_matmul_and_matmul_reduce_scatter() -> None:
    a = RNG.standard_normal((4, 3)).astype(np.float32)
    b = RNG.standard_normal((3, 5)).astype(np.float32)
    bias = RNG.standard_normal(5).astype(np.float32)
    out, gathered = ops.all_gather_matmul(_t(a), _t(b), "hccl_world_group", 1, bias=_t(bias))
    np.testing.assert_allclose(out.asnumpy(), np.concatenate([a], 0) @ b + bias, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(gathered.asnumpy(), a)
    out, none = ops.all_gather_matmul(_t(a.T), _t(b), "hccl_world_group", 1, trans_input=True, gather_output=False)
    assert none is None
    np.testing.assert_allclose(out.asnumpy(), a @ b, rtol=1e-5, atol=1e-6)
    rs = ops.matmul_reduce_scatter(_t(a), _t(b.T), "hccl_world_group", 1, trans_x2=True)
    np.testing.assert_allclose(rs.asnumpy(), np.split(np.sum([a @ b], 0), 1, 0)[0], rtol=1e-5, atol=1e-6)
    w = RNG.standard_normal((4, 5))
    got = ms.grad(lambda p: (ops.matmul_reduce_scatter(p, _t(b), "hccl_world_group", 1) * _t(w.astype(np.float32)))
                  .sum())(_t(a)).asnumpy()
    want = gradient(lambda p: float(((p["a"] @ b.astype(np.float64)) * w).sum()), {"a": a.astype(np.float64)})["a"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="'world_size' must be the size of the group"):
        ops.all_gather_matmul(_t(a), _t(b), "hccl_world_group", 2)


def test_tensor_collectives_into_outputs() -> None:
    out = ops.zeros((4, 3), ms.float32)
    assert ops.gather_into_tensor(out, _t(X)) is None
    np.testing.assert_array_equal(out.asnumpy(), np.concatenate([X], 0))
    out = ops.zeros((4, 3), ms.float32)
    ops.scatter_tensor(out, _t(X))
    np.testing.assert_array_equal(out.asnumpy(), np.split(X, 1, 0)[0])
    out = ops.zeros((5,), ms.float32)
    handle = ops.all_to_all_v_c(out, _t(X), [5], async_op=True)
    handle.wait()
    np.testing.assert_array_equal(out.asnumpy(), X.reshape(-1)[:5])
    with pytest.raises(ValueError):
        ops.gather_into_tensor(ops.zeros((2, 3)), _t(X))


def test_tcp_store_is_shared_by_address() -> None:
    master = ops.TCPStore("127.0.0.1", 29777, 1, True, timeout=datetime.timedelta(seconds=1))
    client = ops.TCPStore("127.0.0.1", 29777)
    master.set("key", "v")
    assert client.get("key") == b"v"
    assert client.add("count", 2) == 2 and master.add("count", -5) == -3
    with pytest.raises(RuntimeError, match="TCP get operation failed"):
        ops.TCPStore("127.0.0.1", 29778).get("key")


def test_data_sink_runs_with_a_device_target() -> None:
    from mskernel import dataset as ds
    data = ds.NumpySlicesDataset({"x": np.array([[1.0], [2.0], [3.0]], np.float32)}, shuffle=False)
    ms.set_context(device_target="GPU")
    try:
        seen = []
        step = ms.data_sink(lambda a: seen.append(float(a.asnumpy()[0])) or a * 2, data, sink_size=2,
                            jit_config=ms.JitConfig())
        out = step()
        assert seen == [1.0, 2.0] and float(out.asnumpy()[0]) == 4.0
        step()
        assert seen == [1.0, 2.0, 3.0, 1.0]
    finally:
        ms.set_context(device_target="CPU")


def test_micro_batch_cell_gradient_matches_full_batch() -> None:
    net = nn.Dense(3, 2)
    b = _t(X)
    full = ms.grad(lambda a: net(a).sum(), None, net.trainable_params())(b)
    piped = ms.grad(lambda a: nn.PipelineCell(net, 4)(a).sum(), None, net.trainable_params())(b)
    for f, p in zip(full, piped):
        np.testing.assert_allclose(p.asnumpy(), f.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: ops.NeighborExchange([0], [0], ([2],), ([2],), ms.float32),
    lambda: ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0] * 4, "NCHW"),
    lambda: ops.Push(), lambda: ops.Pull(), lambda: ops.moe_distribute_dispatch(None, None, 1, 0, 1),
    lambda: ops.moe_distribute_combine(), lambda: ops.distribute(),
    lambda: nn.GetNextSingleOp([ms.float32], [(2,)], "q"), lambda: nn.OptTFTWrapper(None),
    lambda: nn.AdaSumByGradWrapCell(None), lambda: nn.AdaSumByDeltaWeightWrapCell(None)])
def test_refused(make) -> None:
    with pytest.raises(RefusedError):
        make()
