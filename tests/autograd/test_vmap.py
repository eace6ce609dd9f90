"""vmap: axes, nesting, broadcasting of unbatched outputs, CellList, gradients through it, errors."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops

X = ms.Tensor(np.arange(6).reshape(3, 2).astype(np.float32))
Y = ms.Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
Z = ms.Tensor(np.array([0, 3]).astype(np.float32))


def test_in_axes_and_out_axes() -> None:
    out = ops.vmap(lambda a, b, c: a + b + c, in_axes=(0, 1, None), out_axes=1)(X, Y, Z)
    assert out.asnumpy().tolist() == [[0, 3, 6], [7, 10, 13]]
    assert ops.vmap(lambda a, b, c: a + b + c, in_axes=[0, 1, None], out_axes=1)(X, Y, Z).shape == (2, 3)
    assert ops.vmap(lambda r: r.sum(), in_axes=1)(X).asnumpy().tolist() == [6.0, 9.0]
    assert ops.vmap(lambda r: r.sum(), in_axes=-1)(X).asnumpy().tolist() == [6.0, 9.0]
    assert ops.vmap(lambda r: r * 2, out_axes=-1)(X).asnumpy().tolist() == [[0, 4, 8], [2, 6, 10]]
    a, s = ops.vmap(lambda r: (r * 2, r.sum()), out_axes=(1, 0))(X)
    assert a.shape == (2, 3) and s.asnumpy().tolist() == [1.0, 5.0, 9.0]
    assert ops.vmap(lambda a, k: a * k, in_axes=(0, None))(X, 2.0).asnumpy().tolist() == [[0, 2], [4, 6], [8, 10]]


def test_nested_inputs_and_outputs() -> None:
    out = ops.vmap(lambda t: t[0] * t[1], in_axes=((0, None),))((X, Z))
    assert out.asnumpy().tolist() == [[0, 3], [0, 9], [0, 15]]
    assert ops.vmap(lambda t: t[0] * t[1])((X, X)).asnumpy().tolist() == [[0, 1], [4, 9], [16, 25]]
    out = ops.vmap(lambda a: [a, (a * 2, a * 3)])(X)
    assert isinstance(out, tuple) and isinstance(out[1], tuple) and out[1][1].shape == (3, 2)
    const = ops.vmap(lambda a: Z)(X)  # an output independent of the batch is broadcast
    assert const.asnumpy().tolist() == [[0, 3]] * 3
    assert ops.vmap(lambda a: 3.0)(X).asnumpy().tolist() == [3.0, 3.0, 3.0]


def test_cells_and_cell_lists() -> None:
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, -1.0], np.float32)), name="w")

        def construct(self, a):
            return (a * self.w).sum()

    net = Net()
    assert ops.vmap(net)(X).asnumpy().tolist() == [-1.0, -1.0, -1.0]
    gw = ms.grad(lambda a: ops.vmap(net)(a).sum(), None, net.trainable_params())(X)
    assert gw[0].asnumpy().tolist() == [6.0, 9.0]
    if hasattr(nn, "CellList"):
        nets = nn.CellList([Net(), Net()])
        two = ms.Tensor(np.arange(4).reshape(2, 2).astype(np.float32))
        assert ops.vmap(nets)(two).asnumpy().tolist() == [-1.0, -1.0]
        assert ops.vmap(nets, in_axes=None)(two).asnumpy().tolist() == [-2.0, -2.0]


def test_gradients_flow_through_vmap_and_vmap_of_grad() -> None:
    g = ms.grad(lambda a: ops.vmap(lambda r: r.sum())(a * a).sum())(X)
    assert g.asnumpy().tolist() == (2 * X.asnumpy()).tolist()
    assert ops.vmap(ms.grad(lambda a: (a * a).sum()))(X).asnumpy().tolist() == (2 * X.asnumpy()).tolist()


@pytest.mark.parametrize("call, text", [
    (lambda: ops.vmap(lambda a: a, in_axes=None)(X),
     "The 'in_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'."),
    (lambda: ops.vmap(lambda a: a, out_axes=None)(X),
     "The 'out_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'."),
    (lambda: ops.vmap(lambda a, b: a, in_axes=(None, None))(X, X),
     "The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a 'CellList', but got (None, None)."),
    (lambda: ops.vmap(lambda a, b, c: a, in_axes=(0, 0, 0))(X, Y, Z),
     "The 'axis_size' of each argument in the scope of 'vmap' should be equal, but got 3 and 2."),
    (lambda: ops.vmap(lambda a, b, c: a, in_axes=(0, 0))(X, Y, Z),
     "When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the number of arguments of 'fn': 3, "
     "but got size: 2."),
    (lambda: ops.vmap(lambda a: a, in_axes=2)(X),
     "The axis: 2 in 'in_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: ops.vmap(lambda a: a, out_axes=3)(X),
     "The axis: 3 in 'out_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: ops.vmap(lambda a: (a, a), out_axes=(0, 0, 0))(X),
     "The size of vmap's 'out_axes' should be equal to the number of results of 'fn': 2, but got size: 3."),
    (lambda: ops.vmap(lambda a: (a, (a, a)), out_axes=(0, (1, None)))(X),
     "It is invalid that source is not None and dst is None."),
    (lambda: ops.vmap(lambda a: None)(X),
     "The outputs of vmap's 'fn' should be consisting of tensors or constants, but got NoneType."),
    (lambda: ops.vmap(3)(X), "'VmapOperation' arg0 must be a 'Function' or 'Cell', but got int."),
])
def test_errors(call, text) -> None:
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == text


def test_axis_type_and_non_tensor_errors() -> None:
    with pytest.raises(RuntimeError, match="^The axis in vmap`s 'in_axes' can only be of type Int or None"):
        ops.vmap(lambda a: a, in_axes=1.0)(X)
    with pytest.raises(RuntimeError, match="^The orig_abs should be AbstractTensor when corresponding axis is 0"):
        ops.vmap(lambda a, k: a * k, in_axes=(0, 0))(X, 2.0)
