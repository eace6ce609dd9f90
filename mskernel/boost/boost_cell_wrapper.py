"""``BoostTrainOneStepCell`` and ``BoostTrainOneStepWithLossScaleCell``: a training step with the boosts.

A step is one of: gradient freezing (the optimizer is a ``FreezeOpt``: step ``k`` calls the training cell
of group ``train_strategy[k]``), gradient accumulation (``AutoBoost``'s ``grad_accumulation`` with
``grad_accumulation_step`` > 1: the optimizer runs on the mean of that many steps' gradients),
``DimReduce`` (the optimizer has ``dim_reduce`` set, by ``AutoBoost``'s ``dim_reduce``), or a plain
``optimizer(grads)``. AdaSum needs 16 or more ranks and is never enabled in one process.

As in MindSpore 2.10 (PyNative), a step built without ``sens`` returns None (its gradient path drops the
loss); with ``sens``, and every gradient-freezing step, returns the loss. Also as there, the freezing step
that ends the strategy and the accumulation step that updates the weights raise TypeError after their
update (MindSpore resets their counter by assigning an int to a Parameter, which it refuses).

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> from mskernel.boost.boost import AutoBoost
    >>> AutoBoost._instance = None
    >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    >>> step = BoostTrainOneStepCell(nn.WithLossCell(net, nn.L1Loss()), nn.SGD(net.trainable_params(), 0.5), sens=1.0)
    >>> print(step(ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))))
    2.0
    >>> print(net.weight.asnumpy())
    [[0.5 0.5]]
"""  # noqa: E501
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.api import GradOperation
from mskernel.boost.boost import AutoBoost
from mskernel.boost.dim_reduce import DimReduce
from mskernel.boost.grad_accumulation import accumulate
from mskernel.boost.grad_freeze import FreezeOpt, freeze_cell
from mskernel.boost.pca_mat import load_local_pca_mat
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.container import SequentialCell
from mskernel.nn.wrap.cell_wrapper import TrainOneStepCell, forward_and_grads
from mskernel.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell

__all__ = ["BoostTrainOneStepCell", "BoostTrainOneStepWithLossScaleCell"]

_F32 = np.float32


def _parallel_mode() -> str:
    from mskernel.parallel_context import get_auto_parallel_context

    return get_auto_parallel_context("parallel_mode")


def _unscaled(grads: Sequence[Tensor], scales: Sequence[Any]) -> Tuple[Tensor, ...]:
    """Each gradient times ``1 / scale`` (a float32 reciprocal, cast to the gradient's dtype, as MindSpore's)."""
    return tuple(Tensor(g.asnumpy() * (_F32(1) / s).astype(g.asnumpy().dtype)) for g, s in zip(grads, scales))


def _copies(params: Any) -> Tuple[Tensor, ...]:
    return tuple(Tensor(p.asnumpy().copy()) for p in params)


class BoostTrainOneStepCell(TrainOneStepCell):
    """One training step of ``network`` (single output) with ``optimizer`` and the boosts (see the module
    docstring). ``sens`` (a number, default None: 1.0) fills the gradient of the loss.

    Outputs: the loss (None for a non-freezing step built without ``sens``, as in MindSpore).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.boost.boost import AutoBoost
        >>> AutoBoost._instance = None
        >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> step = BoostTrainOneStepCell(nn.WithLossCell(net, nn.L1Loss()), nn.SGD(net.trainable_params(), 0.5))
        >>> print(step(ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))))
        None
        >>> print(net.weight.asnumpy())
        [[0.5 0.5]]
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: Optional[float] = None) -> None:
        super().__init__(network, optimizer, sens)
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.freeze = isinstance(optimizer, FreezeOpt)
        self.weights = self.optimizer.parameters  # a ParameterTuple: its parameters are listed first, as there
        self.train_strategy = getattr(self.optimizer, "train_strategy", None)
        self.parallel_mode = _parallel_mode()
        self.reducer_flag = self.parallel_mode in ("data_parallel", "hybrid_parallel")
        self.auto_boost = AutoBoost()
        self.use_grad_accumulation = (self.parallel_mode in ("data_parallel", "stand_alone")
                                      and bool(self.auto_boost.boost_config.get("grad_accumulation", False)))
        self.max_accumulation_step = 1
        if self.use_grad_accumulation:
            self.max_accumulation_step = self.auto_boost.grad_accumulation_step
            if self.max_accumulation_step <= 1:
                self.max_accumulation_step = 1
                self.use_grad_accumulation = False
        self.accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")
        if self.use_grad_accumulation:
            self.grad_accumulation = ParameterTuple(self.weights).clone(prefix="grad_accumulation", init="zeros")
        self.enable_dim_reduce = self.check_dim_reduce_enable()
        if self.enable_dim_reduce:
            self._init_dim_reduce()
        self.freeze_nets = None
        self.step = Parameter(Tensor(0, dtype=mstype.int32), name="step")
        if self.freeze:
            self.mean = None
            self.degree = None
            if self.reducer_flag:
                from mskernel.parallel_context import get_auto_parallel_context

                self.mean = get_auto_parallel_context("gradients_mean")
                self.degree = 1
            self.freeze_nets = freeze_cell(self.reducer_flag, self.network, self.optimizer, self.sens, self.grad,
                                           self.use_grad_accumulation, self.mean, self.degree,
                                           self.max_accumulation_step)
        self.enable_adasum = self.check_adasum_enable()
        self.sync_tensor = Parameter(Tensor(0, dtype=mstype.int32), name="sync_tensor")

    def _init_dim_reduce(self) -> None:
        from mskernel.communication import get_rank

        boost = self.auto_boost
        pca_mat = load_local_pca_mat(boost.local_pca_mat_path, boost.timeout)
        self.weights_clone = ParameterTuple(self.weights).clone(prefix="weights_clone", init="same")
        rank_size = 1 if self.parallel_mode == "stand_alone" else _group_size()
        self.dim_reduce = DimReduce(self.network, self.optimizer, self.weights, pca_mat, boost.n_components,
                                    boost.rho, boost.gamma, boost.alpha, boost.sigma, get_rank(), rank_size)

    def construct(self, *inputs: Any) -> Any:
        if self.freeze:
            return self.gradient_freeze_process(*inputs)
        if not self.sense_flag:
            self._no_sens_impl(*inputs)
            return None
        loss, grads = forward_and_grads(self.network, inputs, self.weights, self.sens)
        return self._update(loss, grads, inputs)

    def _no_sens_impl(self, *inputs: Any) -> None:
        """The step without ``sens``; MindSpore's returns nothing."""
        loss, grads = forward_and_grads(self.network, inputs, self.weights)
        self._update(loss, grads, inputs)

    def _update(self, loss: Tensor, grads: Tuple[Tensor, ...], inputs: tuple) -> Tensor:
        sens = Tensor(np.full(loss.shape, self.sens, loss.asnumpy().dtype))
        if self.use_grad_accumulation:
            return self.gradient_accumulation_process(loss, grads, sens, *inputs)
        self._apply(loss, grads, sens, inputs)
        return loss

    def _apply(self, loss: Tensor, grads: Tuple[Tensor, ...], sens: Tensor, inputs: tuple) -> None:
        if self.enable_dim_reduce:
            self.dim_reduce(loss, grads, sens, self.weights, self.weights_clone, *inputs)
        elif self.enable_adasum:
            self.adasum_process(loss, grads)
        else:
            self.optimizer(grads)

    def gradient_freeze_process(self, *inputs: Any) -> Tensor:
        """Run the training cell of this step's group; returns the loss. As in MindSpore 2.10's PyNative mode,
        the step that ends the strategy (or, without one, the cycle of groups) trains and then raises TypeError.

        Example:
            >>> import numpy as np
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> from mskernel.boost.boost import AutoBoost
            >>> AutoBoost._instance = None
            >>> net = nn.WithLossCell(nn.Dense(2, 1, weight_init="ones", bias_init="zeros"), nn.L1Loss())
            >>> opt = FreezeOpt(nn.SGD(net.trainable_params(), 0.5), [net.trainable_params()] * 2, [1, 0, 1])
            >>> step = BoostTrainOneStepCell(net, opt)
            >>> x, y = ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))
            >>> print(step.gradient_freeze_process(x, y), step.gradient_freeze_process(x, y), step.step.asnumpy())
            2.0 0.5 2
            >>> step.gradient_freeze_process(x, y)
            Traceback (most recent call last):
            ...
            TypeError: Parameter 'step' already exists in network, can not assign this type: '<class 'int'>' as a parameter.
        """  # noqa: E501
        step = int(self.step.asnumpy())
        if self.train_strategy is None:
            index, count = step, len(self.freeze_nets)
        else:
            strategy = self.train_strategy.asnumpy()
            index, count = int(strategy[step]), len(strategy)
        loss = self.freeze_nets[index](*inputs)
        if step + 1 >= count:  # MindSpore's PyNative step assigns the int 0 to the Parameter, which it refuses
            raise TypeError("Parameter 'step' already exists in network, can not assign this type: '<class 'int'>' "
                            "as a parameter.")
        self.step.set_data(Tensor(np.int32(step + 1)))
        return loss

    def gradient_accumulation_process(self, loss: Tensor, grads: Tuple[Tensor, ...], sens: Tensor,
                                      *inputs: Any) -> Tensor:
        """Add ``grads / grad_accumulation_step`` to the sums; the step that completes that many updates the
        weights from them and then, as in MindSpore 2.10's PyNative mode, raises TypeError (its counter is reset by
        assigning an int to a Parameter, which MindSpore refuses).

        Example:
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> from mskernel.boost.boost import AutoBoost
            >>> AutoBoost._instance = None
            >>> config = {"boost": {"mode": "enable_all"}, "grad_accumulation": {"grad_accumulation_step": 2}}
            >>> _ = AutoBoost("O0", config)
            >>> net = nn.Dense(1, 1, weight_init="ones", has_bias=False)
            >>> step = BoostTrainOneStepCell(nn.WithLossCell(net, nn.L1Loss()), nn.SGD(net.trainable_params()))
            >>> step.max_accumulation_step
            2
            >>> AutoBoost._instance = None
        """
        accumulate(self.grad_accumulation, grads, self.max_accumulation_step)
        count = int(self.accumulation_step.asnumpy()) + 1
        self.accumulation_step.set_data(Tensor(np.int32(count)))
        if count >= self.max_accumulation_step:
            self._apply(loss, _copies(self.grad_accumulation), sens, inputs)
            # MindSpore's PyNative step then assigns the int 0 to the Parameter, which it refuses
            raise TypeError("Parameter 'accumulation_step' already exists in network, can not assign this type: "
                            "'<class 'int'>' as a parameter.")
        return loss

    def adasum_process(self, loss: Tensor, grads: Tuple[Tensor, ...]) -> Tensor:
        """The AdaSum step (enabled only with 16 or more ranks, see :class:`~mskernel.boost.AdaSum`).

        Example:
            >>> BoostTrainOneStepCell.adasum_process(None, None, ())
            Traceback (most recent call last):
            ...
            RuntimeError: Distributed Communication has not been inited.You can't invoke this interface yet. Please call `init()` method first.
        """  # noqa: E501
        raise RuntimeError("Distributed Communication has not been inited.You can't invoke this interface yet. "
                           "Please call `init()` method first.")

    def check_adasum_enable(self) -> bool:
        """Whether AdaSum runs: the optimizer asks for it, gradients are reduced, and the ranks form 2, 4, 8...
        groups of 8 (never in one process).

        Example:
            >>> from mskernel import nn
            >>> from mskernel.boost.boost import AutoBoost
            >>> AutoBoost._instance = None
            >>> net = nn.Dense(1, 1)
            >>> BoostTrainOneStepCell(net, nn.SGD(net.trainable_params())).check_adasum_enable()
            False
        """
        if not getattr(self.optimizer, "adasum", None) or not self.reducer_flag:
            return False
        groups = _group_size() // 8
        return bool(groups > 1 and groups & (groups - 1) == 0)

    def check_dim_reduce_enable(self) -> bool:
        """Whether the optimizer was made for ``DimReduce`` (its ``dim_reduce`` attribute).

        Example:
            >>> from mskernel import nn
            >>> from mskernel.boost.boost import AutoBoost
            >>> AutoBoost._instance = None
            >>> net = nn.Dense(1, 1)
            >>> BoostTrainOneStepCell(net, nn.SGD(net.trainable_params())).check_dim_reduce_enable()
            False
        """
        return bool(getattr(self.optimizer, "dim_reduce", None))


def _params(optimizer: Cell) -> Any:
    """MindSpore's ``optimizer.params``, which only these of its optimizers have."""
    name = type(optimizer).__name__
    if name not in ("Momentum", "Lamb", "AdamOffload", "THOR"):
        raise AttributeError(f"The '{name}' object has no attribute 'params'.")
    return optimizer.parameters


def _group_size() -> int:
    from mskernel.communication import get_group_size

    return get_group_size()


class _OutputToFloat16(Cell):
    """The wrapped cell's output cast to float16."""

    def __init__(self, op: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._op = op

    def construct(self, *inputs: Any) -> Any:
        return self._op(*inputs).astype(mstype.float16)


class BoostTrainOneStepWithLossScaleCell(BoostTrainOneStepCell):
    """:class:`BoostTrainOneStepCell` with loss scaling: returns ``(loss, overflow, loss scale)``.

    ``scale_sense``: an update cell (e.g. ``nn.DynamicLossScaleUpdateCell``) or a Tensor of shape ``()`` or
    ``(1,)``; gradients are computed at that scale and divided by it, a step whose gradients overflow
    changes no weight. With ``AutoBoost``'s ``loss_scale_group``, ``scale_sense`` must be a
    :class:`~mskernel.boost.GroupLossScaleManager`: each of its groups' scales grows by ``2 ** (1/1000)`` per
    step and divides its parameters' gradients. (That mode reads overflow from the Ascend NPU's status
    register, which on a CPU stays clear, so as in the CPU wheel it reports no overflow; the plain mode
    checks the gradients, as MindSpore does on a GPU; the CPU wheel has no kernel for the NPU status it reads.)

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.boost.boost import AutoBoost
        >>> AutoBoost._instance = None
        >>> net = nn.Dense(1, 1, weight_init="ones", has_bias=False)
        >>> step = BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.L1Loss()),
        ...                                           nn.SGD(net.trainable_params(), 1.0), ms.Tensor(1024.0))
        >>> loss, overflow, scale = step(ms.Tensor([[2.0]]), ms.Tensor([[0.0]]))
        >>> print(loss, overflow, scale.asnumpy(), net.weight.asnumpy())
        2.0 False 1024.0 [[-1.]]
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Union[Cell, Tensor]) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        self.is_distributed = self.parallel_mode != "stand_alone"
        if self.auto_boost.boost_config.get("loss_scale_group", False):
            self.enable_enhanced_amp = True
            if not isinstance(scale_sense, Cell) or not hasattr(scale_sense, "set_loss_scale_status"):
                raise TypeError(f"The scale_sense must be enhanced amp Cell, bug got {type(scale_sense)}")
            self.loss_scaling_manager = scale_sense
            self.loss_scale_groups = scale_sense.loss_scale_groups
            self._init_enhanced_amp()
            self._do_keep_mix_fp32(self.network)
            return
        self.enable_enhanced_amp = False
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise ValueError("The shape of scale_sense must be (1,) or (), " + " " * 37
                                 + f"but got {scale_sense.shape}")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(f"The scale_sense must be Cell or Tensor, but got {type(scale_sense)}")

    def construct(self, *inputs: Any) -> Tuple[Any, Tensor, Any]:
        if self.enable_enhanced_amp:
            loss, grads = forward_and_grads(self.network, inputs, self.weights, 1.0)
            cond, scaling_sens = self._enhanced_amp_process_overflow_status(grads)
            return loss, cond, scaling_sens
        scaling_sens = self.scale_sense
        scale = scaling_sens.asnumpy().reshape(-1)[0]
        loss, grads = forward_and_grads(self.network, inputs, self.weights, Tensor(scale))
        grads = _unscaled(grads, [_F32(scale)] * len(grads))
        cond = TrainOneStepWithLossScaleCell.get_overflow_status(self, None, grads)
        overflow = self._process_loss_scale(cond)
        if not bool(np.asarray(overflow.asnumpy() if isinstance(overflow, Tensor) else overflow).all()):
            sens = Tensor(np.full(loss.shape, scale, loss.asnumpy().dtype))
            if self.use_grad_accumulation:
                loss = self.gradient_accumulation_process(loss, grads, sens, *inputs)
            else:
                self._apply(loss, grads, sens, inputs)
        return loss, cond, scaling_sens

    def _process_loss_scale(self, overflow: Tensor) -> Any:
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow

    def _set_sense_scale(self, sens: Tensor) -> None:
        if self.scale_sense and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError(f"The input type must be Tensor, but got {type(sens)}")

    # the loss_scale_group mode
    def _init_enhanced_amp(self) -> None:
        self.params_len = len(_params(self.optimizer))
        self.parent: List[int] = list(range(self.params_len))
        self.layer_rank = [0] * self.params_len
        index = 0
        for group in self.loss_scale_groups:
            for i, _ in enumerate(group):
                if i:
                    self._union(index - 1, index)
                index += 1
        self.optimizer_loss_scale = [self.parent.count(x) for x in sorted(set(self.parent))]
        self.reduce_ratio = Tensor(1.0 / (2 ** 0.5), mstype.float32)
        self.growth_ratio = Tensor(2 ** (1.0 / 1000.0), mstype.float32)
        count = len(self.loss_scale_groups)
        self.overflow_status_list = ParameterTuple(
            Parameter(Tensor(np.zeros([8], np.int32)), name=f"mix_layer_status_{x}", requires_grad=False)
            for x in range(count))
        self.loss_scaling_manager.set_loss_scale_status(count, self.loss_scaling_manager.get_loss_scale())

    def _get_root(self, i: int) -> int:
        if self.parent[i] != self.parent[self.parent[i]]:
            self.parent[i] = self._get_root(self.parent[i])
        return self.parent[i]

    def _union(self, i: int, j: int) -> None:
        i_root, j_root = self._get_root(i), self._get_root(j)
        if self.layer_rank[i_root] == self.layer_rank[j_root]:
            self.parent[j_root] = i_root
            self.layer_rank[i_root] += 1
        elif self.layer_rank[i_root] > self.layer_rank[j_root]:
            self.parent[j_root] = i_root
        else:
            self.parent[i_root] = j_root

    def _get_dynamic_overflow_status(self, param: Parameter) -> Tuple[bool, Tensor]:
        overflow = not bool((param.asnumpy() == 0).all())
        return overflow, self.reduce_ratio if overflow else self.growth_ratio

    def _enhanced_amp_process_overflow_status(self, grads: Tuple[Tensor, ...]) -> Tuple[Tensor, Tensor]:
        overflows = 0
        scales: tuple = ()
        for layer, param in enumerate(self.overflow_status_list):
            overflow, ratio = self._get_dynamic_overflow_status(param)
            overflows += int(overflow)
            new_scale = self.loss_scaling_manager.update_loss_scale_status(layer, ratio)
            scales += (new_scale,) * self.optimizer_loss_scale[layer]
        if overflows < 1:
            self.optimizer(_unscaled(grads, [s.asnumpy() for s in scales]))
        return Tensor(np.int32(overflows)), scales[0]

    def _do_keep_mix_fp32(self, network: Cell) -> None:
        """Each GroupLossScaleManager inside ``network`` runs in float32 and hands float16 on."""
        cells = network.name_cells()
        change = False
        for name, subcell in cells.items():
            if subcell is network:
                continue
            if "GroupLossScaleManager" in type(subcell).__name__:
                network.insert_child_to_cell(name, _OutputToFloat16(subcell.to_float(mstype.float32)))
                change = True
            else:
                self._do_keep_mix_fp32(subcell)
        if isinstance(network, SequentialCell) and change:
            network.cell_list = list(network.cells())
