"""Cells that wrap a network for training: loss, evaluation, one optimizer step, forward + gradients.

``TrainOneStepCell(network, optimizer, sens=None)`` runs the network (which returns the loss) once,
differentiates it with respect to ``optimizer.parameters`` in the same pass, hands the gradients to
``optimizer(grads)`` and returns the loss. ``sens`` scales the gradients (the loss's sensitivity).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.Dense(1, 1, weight_init=ms.Tensor([[2.0]]), has_bias=False)
    >>> train = TrainOneStepCell(WithLossCell(net, nn.L1Loss()), nn.SGD(net.trainable_params(), 0.1))
    >>> print(train(ms.Tensor([[1.0]]), ms.Tensor([[0.0]])), net.weight.asnumpy())
    2.0 [[1.9]]
"""
from __future__ import annotations

from types import FunctionType, MethodType
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from mskernel.autograd.api import GradOperation, _run, grad_operation_call, recording
from mskernel.autograd.engine import gradients
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "TrainOneStepCell", "ForwardValueAndGrad"]


def _copy_amp_level(wrapper: Cell, network: Any) -> None:
    level = getattr(network, "_amp_level", None) if isinstance(network, Cell) else None
    if level is not None:
        object.__setattr__(wrapper, "_amp_level", level)


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``.

    Example:
        >>> import mskernel as ms
        >>> print(WithLossCell(ms.nn.Identity(), ms.nn.L1Loss())(ms.Tensor([1.0, 3.0]), ms.Tensor([0.0, 0.0])))
        2.0
    """

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        _copy_amp_level(self, backbone)

    def construct(self, data: Any, label: Any) -> Any:
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        """The wrapped network.

        Example:
            >>> c = Cell(); WithLossCell(c, Cell()).backbone_network is c
            True
        """
        return self._backbone


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` for evaluation; ``add_cast_fp32`` computes the loss in float32.

    Example:
        >>> import mskernel as ms
        >>> evaluate = WithEvalCell(ms.nn.Identity(), ms.nn.L1Loss(), add_cast_fp32=True)
        >>> loss, out, label = evaluate(ms.Tensor([1.0, 3.0], ms.float16), ms.Tensor([0.0, 0.0], ms.float16))
        >>> print(loss, out, out.dtype)
        2.0 [1. 3.] Float32
    """

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', the type of 'add_cast_fp32' must be bool, but got "
                            f"'{type(add_cast_fp32).__name__}'.")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32
        _copy_amp_level(self, network)

    def construct(self, data: Any, label: Any) -> Tuple[Any, Any, Any]:
        outputs = self._network(data)
        if self.add_cast_fp32:
            from mskernel import dtype as mstype

            label = _to_float32(label, mstype)
            outputs = _to_float32(outputs, mstype)
        return self._loss_fn(outputs, label), outputs, label


def _to_float32(x: Any, mstype: Any) -> Any:
    if isinstance(x, Tensor) and mstype.is_float(x.dtype) and x.dtype != mstype.float32:
        return x.astype(mstype.float32)
    return x


class WithGradCell(Cell):
    """The gradients of ``loss_fn(network(data), label)`` (or of ``network`` itself) for its trainable params.

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.Dense(1, 1, weight_init=ms.Tensor([[3.0]]), has_bias=False)
        >>> print(WithGradCell(net, ms.nn.L1Loss())(ms.Tensor([[2.0]]), ms.Tensor([[0.0]]))[0])
        [[2.]]
    """

    def __init__(self, network: Cell, loss_fn: Optional[Cell] = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()
        _copy_amp_level(self, network)

    def construct(self, *inputs: Any) -> Tuple[Tensor, ...]:
        grad_fn = self.grad(self.network_with_loss, self.weights)
        return grad_fn(*inputs) if self.sens is None else grad_fn(*inputs, self.sens)


class TrainOneStepCell(Cell):
    """One training step: loss, gradients for ``optimizer.parameters``, ``optimizer(grads)``; returns the loss.

    ``sens`` (default None, i.e. 1.0) multiplies the gradients; 0 is refused. ``return_grad=True`` returns
    ``(loss, {parameter name: gradient})``.

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.Dense(1, 1, weight_init=ms.Tensor([[1.0]]), has_bias=False)
        >>> step = TrainOneStepCell(WithLossCell(net, ms.nn.L1Loss()), ms.nn.SGD(net.trainable_params()), sens=2.0,
        ...                         return_grad=True)
        >>> loss, grads = step(ms.Tensor([[3.0]]), ms.Tensor([[0.0]]))
        >>> print(loss, grads["weight"])
        3.0 [[6.]]
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: Optional[float] = None, return_grad: bool = False
                 ) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For '{type(self).__name__}', the 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if not hasattr(optimizer, "parameters"):
            raise TypeError(f"For '{type(self).__name__}', the 'optimizer' must have 'parameters' (an nn.Optimizer), "
                            f"but got {type(optimizer).__name__}.")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = tuple(optimizer.parameters)
        if sens is not None and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [p.name for p in self.weights]
        _copy_amp_level(self, network)

    def construct(self, *inputs: Any) -> Any:
        loss, grads = forward_and_grads(self.network, inputs, self.weights, self.sens if self.sense_flag else None)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {name: g for name, g in zip(self.weights_name, grads)}
        return loss


def forward_and_grads(network: Any, inputs: tuple, weights: Sequence[Parameter], sens: Any = None
                      ) -> Tuple[Any, Tuple[Tensor, ...]]:
    """Run ``network(*inputs)`` once and differentiate its (Tensor) outputs with respect to ``weights``.

    ``sens`` (a number or Tensor) fills the sensitivity of every output in its shape and dtype; None means
    ones. Returns the detached outputs and one gradient per weight (zeros where a weight is unused).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([2.0]), name="w")
        >>> out, (g,) = forward_and_grads(lambda x: (w * x).sum(), (ms.Tensor([3.0]),), [w], sens=0.5)
        >>> print(out, g)
        6.0 [1.5]
    """
    weights = tuple(weights)
    if sens is None:
        out, _, _, grads = _run(network, inputs, {}, None, weights, False, None)
        return out, tuple(grads)
    restore = []
    try:
        with recording():
            for w in weights:
                if not w._rg and w._data.dtype.kind in "fc":
                    w._rg = True
                    restore.append(w)
            out = network(*inputs)
            roots = [r for r in _flat(out) if isinstance(r, Tensor)]
            value = sens.asnumpy() if isinstance(sens, Tensor) else sens
            fills = [Tensor._wrap(np.full(r._data.shape, value, r._data.dtype)) for r in roots]
            raw = gradients(roots, list(weights), fills)
    finally:
        for w in restore:
            w._rg = False
    grads = tuple(Tensor._wrap(np.zeros(w._data.shape, w._data.dtype)) if g is None else Tensor._wrap(g._data.copy())
                  for w, g in zip(weights, raw))
    return _detach(out), grads


def _flat(out: Any) -> list:
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in _flat(item)]
    return [out]


def _detach(out: Any) -> Any:
    if isinstance(out, Tensor):
        return Tensor._wrap(out._data)
    if isinstance(out, (tuple, list)):
        return type(out)(_detach(o) for o in out)
    return out


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)`` as ``GradOperation(get_all, get_by_list, sens_param)`` gives them.

    Example:
        >>> import mskernel as ms
        >>> f = ForwardValueAndGrad(lambda x: x * x, get_all=True)
        >>> loss, (g,) = f(ms.Tensor(3.0))
        >>> print(loss, g)
        9.0 6.0
    """

    def __init__(self, network: Any, weights: Any = None, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        if not isinstance(get_all, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_all' must be bool, but got "
                            f"'{type(get_all)}'")
        if not isinstance(get_by_list, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_by_list' must be bool, but got "
                            f"'{type(get_by_list)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' "
                            f"must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        _copy_amp_level(self, network)

    def construct(self, *inputs: Any) -> Tuple[Any, Any]:
        weights = tuple(self.weights) if self.get_by_list else None
        return grad_operation_call(self.network, inputs, weights, self.get_all, self.get_by_list, self.sens_param,
                                   "ForwardValueAndGrad")
