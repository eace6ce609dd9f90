"""``LessBN``: the network with its last fully connected layer replaced by a normalised one.

Fewer BatchNorm layers train as well when the head is a *full normalisation* layer: inputs and weight
rows are L2-normalised (``L2Normalize(axis=1)``), multiplied and scaled by a learnt ``multiplier``
(``CommonHeadLastFN``). ``LessBN(network, fn_flag=True)`` swaps, in every cell of ``network``, the last
of its direct ``Dense`` children for such a layer, which starts from the Dense layer's weight and has no
bias; the network is flagged ``less_bn`` (once only: wrapping it again changes nothing). As in MindSpore 2.10,
a Dense layer replaced inside a ``SequentialCell`` still runs there (the sequence keeps the cells it was
built with) while the new layer's parameters are the ones listed and trained.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc1, self.fc2 = nn.Dense(3, 4, "ones", "zeros"), nn.Dense(4, 2, "ones", "zeros")
    ...     def construct(self, x):
    ...         return self.fc2(self.fc1(x))
    >>> net = Net()
    >>> fn_net = LessBN(net, fn_flag=True)
    >>> type(net.fc2).__name__, [p.name for p in fn_net.trainable_params()]
    ('CommonHeadLastFN', ['network.fc1.weight', 'network.fc1.bias', 'fc2.weight', 'fc2.multiplier'])
    >>> print(fn_net(ms.Tensor(np.ones((1, 3), np.float32))))
    [[1. 1.]]
    >>> seq = nn.SequentialCell([nn.Dense(3, 4, "ones", "zeros"), nn.Dense(4, 2, "ones", "zeros")])
    >>> print(LessBN(seq, fn_flag=True)(ms.Tensor(np.ones((1, 3), np.float32))))  # the replaced Dense still runs
    [[12. 12.]]
"""
from __future__ import annotations

from typing import Any, Dict

import numpy as np

from mskernel import dtype as mstype
from mskernel import ops
from mskernel.common.initializer import initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.container import SequentialCell
from mskernel.nn.layer.basic import Dense

__all__ = ["CommonHeadLastFN", "LessBN"]


class CommonHeadLastFN(Cell):
    """``multiplier * (l2normalize(x) @ l2normalize(weight).T + bias)``, rows normalised (``axis=1``).

    ``weight`` has shape ``(out_channels, in_channels)``; ``multiplier`` starts at 1.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> head = CommonHeadLastFN(2, 1, weight_init=ms.Tensor(np.array([[3.0, 4.0]], np.float32)))
        >>> print(head(ms.Tensor(np.array([[4.0, 3.0]], np.float32))).asnumpy().round(4))
        [[0.96]]
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True) -> None:
        super().__init__()
        self.weight = Parameter(_initial(weight_init, [out_channels, in_channels]), requires_grad=True, name="weight")
        self.x_norm = ops.L2Normalize(axis=1)
        self.w_norm = ops.L2Normalize(axis=1)
        self.fc = ops.MatMul(transpose_a=False, transpose_b=True)
        self.multiplier = Parameter(Tensor(np.ones([1]), mstype.float32), requires_grad=True, name="multiplier")
        self.has_bias = has_bias
        if has_bias:
            self.bias_add = ops.BiasAdd()
            self.bias = Parameter(_initial(bias_init, [out_channels]), requires_grad=True, name="bias")

    def construct(self, x: Tensor) -> Tensor:
        x = self.fc(self.x_norm(x), self.w_norm(self.weight))
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        return self.multiplier * x


def _initial(init: Any, shape: list) -> Tensor:
    """``initializer(init, shape)``; a Parameter (the replaced layer's) gives a copy of its value."""
    if isinstance(init, Tensor):
        return Tensor(init.asnumpy().copy())
    return initializer(init, shape)


class LessBN(Cell):
    """``network`` flagged ``less_bn``; with ``fn_flag`` its last Dense layers become
    ``CommonHeadLastFN`` (:mod:`mskernel.boost.less_batch_normalization`).

    Calling it calls ``network``.

    Example:
        >>> from mskernel import nn
        >>> net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU()])
        >>> LessBN(net).network.get_flags()
        {'less_bn': True, 'defer_inline': True}
    """

    def __init__(self, network: Cell, fn_flag: bool = False) -> None:
        super().__init__()
        self.network = network
        if "less_bn" not in self.network.get_flags():
            self.network.add_flags(less_bn=True)
            if fn_flag:
                self._convert_to_less_bn_net(self.network, _paths(self.network))
            self.network.add_flags(defer_inline=True)

    @staticmethod
    def _convert_dense(subcell: Dense, prefix: str) -> CommonHeadLastFN:
        """The normalised layer over ``subcell``'s weight, its parameters named under ``prefix``."""
        new_subcell = CommonHeadLastFN(subcell.in_channels, subcell.out_channels, subcell.weight, subcell.bias, False)
        new_subcell.update_parameters_name(prefix + ".")
        return new_subcell

    def construct(self, *inputs: Any) -> Any:
        return self.network(*inputs)

    def _convert_to_less_bn_net(self, net: Cell, paths: Dict[int, str]) -> None:
        dense_name, dense_list = [], []
        for name, subcell in net.name_cells().items():
            if subcell is net:
                continue
            if isinstance(subcell, Dense):
                dense_name.append(name)
                dense_list.append(subcell)
            else:
                self._convert_to_less_bn_net(subcell, paths)
        if dense_list:
            new_subcell = LessBN._convert_dense(dense_list[-1], paths[id(dense_list[-1])])
            if isinstance(net, SequentialCell):
                new_subcell = _stale_in_sequence(new_subcell, dense_list[-1])
            net.insert_child_to_cell(dense_name[-1], new_subcell)


def _stale_in_sequence(head: CommonHeadLastFN, dense: Dense) -> CommonHeadLastFN:
    """``head`` as MindSpore 2.10 leaves it in a SequentialCell: listed (its parameters are the network's), but the
    sequence still runs the Dense layer it replaced (MindSpore's SequentialCell calls the list of cells it was
    built with, which inserting a child does not change); that Dense layer's parameters are no longer listed."""
    stale = _StaleHead.__new__(_StaleHead)
    stale.__dict__.update(head.__dict__)
    object.__setattr__(stale, "_replaced", dense)
    return stale


class _StaleHead(CommonHeadLastFN):
    def construct(self, x: Tensor) -> Tensor:
        return self.__dict__["_replaced"](x)


_StaleHead.__name__ = _StaleHead.__qualname__ = "CommonHeadLastFN"


def _paths(network: Cell) -> Dict[int, str]:
    """Each cell's path in ``network`` (MindSpore's ``param_prefix`` after ``update_cell_prefix``)."""
    return {id(cell): path for path, cell in network.cells_and_names()}
