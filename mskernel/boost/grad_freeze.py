"""Gradient freezing: each step trains one group of parameters (the others keep their weights).

:class:`GradientFreeze` splits a network's parameters into ``param_groups`` groups and draws the sequence
of groups the steps train (``freeze_type`` 0: runs of group 0 then each other group in turn, as
``00001234``; 1: group 0 interleaved with groups drawn at random, the deeper ones likelier, from numpy's
global generator); :class:`FreezeOpt` holds one optimizer (of the original class and arguments) per
group; :func:`freeze_cell` builds one training cell per group, which ``BoostTrainOneStepCell`` calls in
the order of ``FreezeOpt.train_strategy``.

As in MindSpore, group ``i`` holds the parameter blocks from ``i * (blocks // param_groups)`` on (a block:
a weight with the biases and BatchNorm parameters after it, up to three parameters), so with fewer blocks
than groups every group holds every parameter.

Example:
    >>> gf = GradientFreeze(3, 0, 0.5, 5)
    >>> gf.generate_freeze_index_sequence(3, 0, 0.5, 5)
    [0, 0, 1, 2, 0, 0, 1, 2]
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.boost.base import ParameterProcess
from mskernel.boost.grad_accumulation import GradientAccumulation
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.basic import Identity
from mskernel.nn.optim.lars import LARS
from mskernel.nn.optim.optimizer import Optimizer
from mskernel.nn.wrap.grad_reducer import DistributedGradReducer

__all__ = ["GradientFreeze", "FreezeOpt", "freeze_cell"]

CONTINUOUS_STRATEGY = 0
INTERVAL_STRATEGY = 1


class FreezeOpt(Cell):
    """One optimizer per parameter group (``opts``), each of ``opt``'s class and arguments.

    ``train_parameter_groups``: tuples/lists of parameters or of parameter-group dicts (default: one group,
    all of ``opt``'s parameters). ``train_strategy``: the group each step trains (ints, or a 1-D int32
    Tensor); it needs ``train_parameter_groups``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(2, 1)
        >>> fo = FreezeOpt(nn.Momentum(net.trainable_params(), 0.1, 0.9))
        >>> fo.groups_num, type(fo.opts[0]).__name__, fo.train_strategy
        (1, 'Momentum', None)
        >>> FreezeOpt(net)
        Traceback (most recent call last):
        ...
        TypeError: The first arg 'opt' must be an Optimizer instance, but got <class 'mskernel.nn.layer.basic.Dense'>
    """

    def __init__(self, opt: Cell, train_parameter_groups: Optional[Union[tuple, list]] = None,
                 train_strategy: Optional[Union[tuple, list, Tensor]] = None) -> None:
        super().__init__()
        if not isinstance(opt, (Optimizer, LARS)):
            raise TypeError(f"The first arg 'opt' must be an Optimizer instance, but got {type(opt)}")
        if train_strategy is not None and train_parameter_groups is None:
            raise ValueError("When the 'train_strategy' is specified, the value of 'train_parameter_groups' "
                             "must also be specified")
        self.is_lars = isinstance(opt, LARS)
        single = opt.opt if self.is_lars else opt
        self.opt_class = type(single)
        self.opt_init_args = dict(single.init_args)
        if self.is_lars:
            self.lars_init_args = {"epsilon": opt.epsilon, "coefficient": opt.coefficient, "use_clip": opt.use_clip,
                                   "lars_filter": opt.lars_filter}
        self.single_opt = single
        self.parameters = single.parameters
        self.learning_rate = single.init_learning_rate
        self.dynamic_lr = single._lr_kind != "fixed"
        self.opts: List[Cell] = []
        if train_parameter_groups is None:
            self.groups_num = 1
            train_parameter_groups = (tuple(single.parameters),)
        else:
            if not isinstance(train_parameter_groups, (tuple, list)):
                raise TypeError("The specified 'train_parameter_groups' should be tuple or list")
            self.groups_num = len(train_parameter_groups)
        self._init_train_strategy(train_strategy)
        self._create_new_group_learning_rate()
        self.opt_index = 0
        for params in train_parameter_groups:
            if not isinstance(params, (tuple, list)):
                raise TypeError("The each element of 'train_parameter_groups' should be tuple or list "
                                "to store the Parameter")
            self.opts.append(self._generate_new_optimizer(params))
            self.opt_index += 1

    def _init_train_strategy(self, train_strategy: Any) -> None:
        if isinstance(train_strategy, (tuple, list)):
            for ele in train_strategy:
                if not isinstance(ele, int):
                    raise ValueError("The element in train_strategy should be int number")
            self.train_strategy = Tensor(train_strategy, mstype.int32)
        elif isinstance(train_strategy, Tensor):
            if train_strategy.ndim != 1 or train_strategy.dtype != mstype.int32:
                raise ValueError("When train_strategy is a Tensor, the dimension should be 1 and "
                                 "the dtype should be int32")
            self.train_strategy = train_strategy
        elif train_strategy is None:
            self.train_strategy = None
        else:
            raise TypeError("The specified 'train_strategy' should be None, tuple, list or Tensor")

    def _create_new_group_learning_rate(self) -> None:
        """A per-step learning-rate list is dealt out to the groups the steps train."""
        self.dynamic_learning_rate: List[list] = [[] for _ in range(self.groups_num)]
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
            return
        if self.dynamic_lr and isinstance(self.learning_rate, list) and isinstance(self.train_strategy, Tensor):
            strategy = self.train_strategy.asnumpy().tolist()
            if len(self.learning_rate) <= len(strategy):
                for i, lr in enumerate(self.learning_rate):
                    self.dynamic_learning_rate[strategy[i]].append(lr)

    def _generate_new_optimizer(self, params: Sequence[Any]) -> Cell:
        lr = self.dynamic_learning_rate[self.opt_index] or self.learning_rate
        opt = self.opt_class(params=params, learning_rate=lr, **self.opt_init_args)
        _prefix_local_names(opt, f"boost_{self.opt_index}")
        return LARS(opt, **self.lars_init_args) if self.is_lars else opt


def _prefix_local_names(opt: Cell, prefix: str) -> None:
    """Put ``prefix`` (no dot, as MindSpore does) before the names of the optimizer's own state (its step,
    rates, moments: every parameter it holds but does not train), so that the groups' optimizers differ."""
    trained = {id(p) for p in opt.parameters}
    for param in opt.get_parameters():
        if id(param) not in trained:
            param.name = prefix + param.name


class _TrainFreezeCell(Cell):
    """One step that trains one group: the loss, gradients for ``optimizer.parameters``, the update."""

    def __init__(self, net: Cell, sens: float, grad: Any, grad_reducer: Cell, use_grad_accumulation: bool,
                 optimizer: Cell, max_accumulation_step: int = 1) -> None:
        super().__init__(auto_prefix=False)
        self.net = net
        self.grad = grad
        self.grad_reducer = grad_reducer
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.sens = sens
        self.use_grad_accumulation = use_grad_accumulation
        self.max_accumulation_step = max_accumulation_step
        if use_grad_accumulation:  # MindSpore reads ``self.optimizer`` here, which this cell does not have
            self.grad_accumulation = GradientAccumulation(self.max_accumulation_step, self.optimizer)

    def construct(self, *inputs: Any) -> Any:
        loss = self.net(*inputs)
        sens = Tensor(np.full(loss.shape, self.sens, loss.asnumpy().dtype))
        grads = self.grad(self.net, self.parameters)(*inputs, sens)
        grads = self.grad_reducer(grads)
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        self.opt(grads)
        return loss


class GradientFreeze:
    """Split parameters into groups and draw which group each step trains (see the module docstring).

    ``param_groups`` (int): the number of groups; ``freeze_type``: 0 or 1; ``freeze_p``: the share of
    steps that freeze (train a group other than 0); ``total_steps``: the steps to plan for (the sequence
    is 1% longer).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.WithLossCell(nn.Dense(3, 2), nn.MSELoss())
        >>> network, opt = GradientFreeze(2, 1, 0.5, 4).freeze_generate(net, nn.SGD(net.trainable_params()))
        >>> type(opt).__name__, opt.train_strategy.shape
        ('FreezeOpt', (4,))
    """

    def __init__(self, param_groups: int, freeze_type: int, freeze_p: float, total_steps: int) -> None:
        self._param_groups = param_groups
        self._freeze_type = freeze_type
        self._freeze_p = freeze_p
        self._total_steps = total_steps
        self.grad_reducer = Identity()

    def split_parameters_groups(self, net: Cell, freeze_para_groups_number: int) -> List[list]:
        """``freeze_para_groups_number`` parameter lists: group ``i`` is every block from ``i * stride`` on.

        Example:
            >>> from mskernel import nn
            >>> net = nn.SequentialCell([nn.Dense(2, 2) for _ in range(4)])
            >>> [[p.name for p in g] for g in GradientFreeze(2, 0, 0.5, 1).split_parameters_groups(net, 2)]
            [['0.weight', '0.bias', '1.weight', '1.bias', '2.weight', '2.bias', '3.weight', '3.bias'], ['2.weight', '2.bias', '3.weight', '3.bias']]
        """  # noqa: E501
        grouped: List[list] = []
        block: list = []
        for para in net.trainable_params():
            if "bn" in para.name or "bias" in para.name:
                block.append(para)
            elif len(block) >= 3:
                grouped.append(block)
                block = [para]
            else:
                block.append(para)
        if block:
            grouped.append(block)
        stride = len(grouped) // freeze_para_groups_number
        return [sum(grouped[i * stride:], []) for i in range(freeze_para_groups_number)]

    def generate_freeze_index_sequence(self, parameter_groups_number: int, freeze_strategy: int, freeze_p: float,
                                       total_steps: int) -> List[int]:
        """The group each step trains, for ``int(total_steps * 1.01)`` steps or a few more.

        Example:
            >>> GradientFreeze(2, 0, 0.5, 4).generate_freeze_index_sequence(2, 2, 0.5, 4)
            Traceback (most recent call last):
            ...
            ValueError: Unsupported freezing training strategy '2'
        """
        total_step = int(total_steps * 1.01)
        if parameter_groups_number <= 1:
            return [0] * total_step
        if freeze_strategy == CONTINUOUS_STRATEGY:
            zero_cnt = int(freeze_p * (parameter_groups_number - 1) // (1 - freeze_p) + 0.5)
            period = [0] * zero_cnt + list(range(1, parameter_groups_number))
            sequence: List[int] = []
            while len(sequence) < total_step:
                sequence += period
            return sequence
        if freeze_strategy == INTERVAL_STRATEGY:
            index_all = list(range(1, parameter_groups_number))
            prob = [x / sum(index_all) for x in index_all]
            sequence = [0]
            zero_cnt, freeze_cnt = 1, 0
            while len(sequence) < total_step:
                if 1.0 * freeze_cnt / (zero_cnt + freeze_cnt) < 1 - freeze_p:
                    sequence.append(int(np.random.choice(index_all[::-1], p=prob)))
                    freeze_cnt += 1
                else:
                    sequence.append(0)
                    zero_cnt += 1
            return sequence
        raise ValueError(f"Unsupported freezing training strategy '{freeze_strategy}'")

    def freeze_generate(self, network: Cell, optimizer: Cell) -> Tuple[Cell, FreezeOpt]:
        """``(network, FreezeOpt)``: the groups (keeping ``optimizer``'s parameter-group settings) and the
        step sequence.

        Example:
            >>> from mskernel import nn
            >>> net = nn.Dense(3, 2)
            >>> _, opt = GradientFreeze(1, 0, 0.5, 2).freeze_generate(net, nn.SGD(net.trainable_params()))
            >>> opt.train_strategy.asnumpy().tolist()
            [0, 0]
        """
        single = optimizer.opt if isinstance(optimizer, LARS) else optimizer
        groups = self.split_parameters_groups(network, self._param_groups)
        for i in range(self._param_groups):
            groups[i] = ParameterProcess.generate_group_params(groups[i], single.init_params["params"])
        strategy = self.generate_freeze_index_sequence(self._param_groups, self._freeze_type, self._freeze_p,
                                                       self._total_steps)
        return network, FreezeOpt(optimizer, groups, strategy)


def freeze_cell(reducer_flag: bool, network: Cell, optimizer: FreezeOpt, sens: float, grad: Any,
                use_grad_accumulation: bool, mean: Optional[bool] = None, degree: Optional[int] = None,
                max_accumulation_step: int = 1) -> Tuple[Cell, ...]:
    """One training cell per optimizer of ``optimizer`` (a :class:`FreezeOpt`), each calling
    ``grad(network, its parameters)(*inputs, sens)`` and that optimizer; with ``reducer_flag`` the gradients
    are all-reduced first.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn, ops
        >>> net = nn.WithLossCell(nn.Dense(2, 1, "ones", "zeros"), nn.L1Loss())
        >>> opt = FreezeOpt(nn.SGD(net.trainable_params(), 0.5))
        >>> steps = freeze_cell(False, net, opt, 1.0, ops.GradOperation(get_by_list=True, sens_param=True), False)
        >>> x, y = ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))
        >>> print(steps[0](x, y), net.trainable_params()[0].asnumpy())
        2.0 [[0.5 0.5]]
    """
    if reducer_flag:
        processor = ParameterProcess()
        reducers = [DistributedGradReducer(processor.assign_parameter_group(opt.parameters), mean, degree)
                    for opt in optimizer.opts]
    else:
        reducers = [Identity() for _ in optimizer.opts]
    return tuple(_TrainFreezeCell(network, sens, grad, reducer, use_grad_accumulation, opt, max_accumulation_step)
                 for reducer, opt in zip(reducers, optimizer.opts))

