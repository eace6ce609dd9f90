"""mint.distributed as rank 0 of a group of one: each collective against what it means for one process
(numpy is the oracle: the output slot holds the one input, a reduction leaves its tensor as it is)."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.mint import distributed as dist


def setup_function():
    dist.init_process_group()


def teardown_function():
    dist.destroy_process_group()


def test_queries():
    assert (dist.get_rank(), dist.get_world_size(), dist.is_initialized(), dist.get_backend()) == (0, 1, True, "hccl")
    name = dist.new_group([0])
    assert dist.get_process_group_ranks(name) == [0] and dist.get_global_rank(name, 0) == 0
    assert dist.get_group_rank(name, 0) == 0


@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reductions_keep_the_tensor(op):
    x = np.array([1.5, -2.0], np.float32)
    t = ms.Tensor(x)
    assert dist.all_reduce(t, op) is None and dist.reduce(t, 0, op) is None
    np.testing.assert_array_equal(t.asnumpy(), x)


def test_gathers_and_scatters_move_the_one_input():
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    for call in (lambda o: dist.all_gather([o], ms.Tensor(x)), lambda o: dist.all_gather_into_tensor(o, ms.Tensor(x)),
                 lambda o: dist.reduce_scatter(o, [ms.Tensor(x)]),
                 lambda o: dist.reduce_scatter_tensor(o, ms.Tensor(x)),
                 lambda o: dist.all_to_all([o], [ms.Tensor(x)]), lambda o: dist.all_to_all_single(o, ms.Tensor(x)),
                 lambda o: dist.gather(ms.Tensor(x), [o]), lambda o: dist.scatter(o, [ms.Tensor(x)])):
        out = ms.Tensor(np.zeros_like(x))
        call(out)
        np.testing.assert_array_equal(out.asnumpy(), x)


def test_objects_and_async_handle():
    out = [None]
    dist.all_gather_object(out, {"k": 1})
    assert out == [{"k": 1}]
    assert dist.barrier(async_op=True).wait() is None


def test_errors_name_the_function_and_argument():
    with pytest.raises(ValueError, match="For 'broadcast', the 'src'"):
        dist.broadcast(ms.Tensor([1.0]), 1)
    with pytest.raises(TypeError, match="For 'all_reduce', the 'op'"):
        dist.all_reduce(ms.Tensor([1.0]), "mean")


def test_ops_has_the_same_functions():
    assert ops.all_reduce is dist.all_reduce and ops.get_world_size() == 1
