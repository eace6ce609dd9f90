"""``nn.Optimizer``: MindSpore's optimizer base — parameters and groups, learning rates, weight decay, loss scale.

A subclass implements :meth:`Optimizer.apply` for one parameter (the update rule, in numpy on the
parameter's own buffer, so references and views see it); the base does the rest as MindSpore does:
``optimizer(grads)`` adds ``weight_decay * loss_scale * param`` (for parameters whose name holds neither
``beta`` nor ``gamma``, MindSpore's default filter; in parameter groups, every parameter of a group whose
decay is not 0), centralises, then multiplies by ``1 / loss_scale``, reads the learning rate for the
current ``global_step`` (a float, a per-step list, a Tensor or a ``LearningRateSchedule``), updates
every parameter and advances ``global_step``. ``weight_decay`` is a number or a Cell called with
``global_step`` each step (a ``LearningRateSchedule`` or any Cell: MindSpore's dynamic weight decay; a plain
Python function is refused, as there). Parameter groups are dicts with ``params`` and optional
``lr``, ``weight_decay``, ``grad_centralization``; ``{"order_params": ...}`` fixes the order.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    >>> opt = nn.SGD([w], learning_rate=0.5)
    >>> _ = opt((ms.Tensor([1.0, 1.0]),))
    >>> print(w.asnumpy(), opt.global_step.asnumpy(), float(opt.get_lr().asnumpy()))
    [0.5 1.5] [1] 0.5
"""
from __future__ import annotations

import inspect
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.node import no_grad
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["Optimizer"]


def _default_decay_filter(p: Parameter) -> bool:
    return "beta" not in p.name and "gamma" not in p.name


def _lr_values(lr: Any, cls: str) -> Tuple[str, Any]:
    """('fixed', float) | ('list', np.ndarray) | ('schedule', Cell)."""
    from mskernel.nn.learning_rate_schedule import LearningRateSchedule
    if isinstance(lr, LearningRateSchedule):
        return "schedule", lr
    if isinstance(lr, bool):
        raise TypeError(f"For '{cls}', the 'learning_rate' must be float, int, list, tuple, Tensor or "
                        f"LearningRateSchedule, but got bool.")
    if isinstance(lr, (int, float)):
        if lr < 0:
            raise ValueError(f"For '{cls}', the 'learning_rate' must be greater than or equal to 0, but got {lr}.")
        return "fixed", float(lr)
    if isinstance(lr, (list, tuple)):
        return "list", np.asarray(lr, np.float32)
    if isinstance(lr, Tensor):
        arr = np.asarray(lr._data, np.float32)
        if arr.ndim == 0:
            return "fixed", float(arr)
        if arr.ndim == 1:
            return "list", arr
        raise ValueError(f"For '{cls}', the dim of Tensor type 'learning_rate' must be 0 or 1, but got {arr.ndim}.")
    raise TypeError(f"For '{cls}', the 'learning_rate' must be float, int, list, tuple, Tensor or "
                    f"LearningRateSchedule, but got {type(lr).__name__}.")


class _StepRates(Cell):
    """A list of learning rates, one per step (or one rate): the Parameter ``learning_rate`` of a cell of its own
    (MindSpore's ``_IteratorLearningRate``), so an optimizer lists it as ``learning_rate.learning_rate``."""

    def __init__(self, rates: Any, name: str) -> None:
        super().__init__(auto_prefix=False)
        self.insert_param_to_cell("learning_rate", Parameter(Tensor(np.asarray(rates, np.float32)), name=name))


class _GroupRates(Cell):
    """The groups' rate cells, listed as ``learning_rate.<g>.learning_rate`` (MindSpore's CellList of them)."""

    def __init__(self, cells: List[Cell]) -> None:
        super().__init__(auto_prefix=False)
        for g, c in enumerate(cells):
            self.insert_child_to_cell(str(g), c)


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule times the loss scale (MindSpore's ``_WrappedWeightDecay``, what ``weight_decay``
    holds when it was given as a Cell)."""

    def __init__(self, weight_decay: Cell, loss_scale: float = 1.0) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(np.float32(loss_scale))

    def construct(self, global_step: Any) -> Any:
        return self.weight_decay(global_step) * self.loss_scale


class Optimizer(Cell):
    """Base class of optimizers (see the module docstring).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> class Halve(Optimizer):
        ...     def apply(self, i, param, grad, lr):
        ...         param._data -= lr * grad
        >>> opt = Halve(0.5, [w]); _ = opt((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.]
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> "Optimizer":
        """Keep what the optimizer was built with, as MindSpore does, so that it can be built again over other
        parameters (``mindspore.boost`` does): ``init_params`` (``{"params": ...}``), ``init_learning_rate``
        (a list for a Tensor, None for a schedule) and ``init_args`` (every other argument of the class's
        ``__init__``, defaults filled in; ``**kwargs`` as one entry, as MindSpore keeps it)."""
        self = super().__new__(cls)
        try:
            bound = inspect.signature(cls.__init__).bind(self, *args, **kwargs)
        except TypeError:  # __init__ reports the bad call itself
            return self
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate", None if isinstance(lr, Cell) else lr)
        object.__setattr__(self, "init_args", arguments)
        return self

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        cls = type(self).__name__
        if parameters is None or isinstance(parameters, (Parameter, Tensor)):
            raise TypeError(f"For '{cls}', the argument 'parameters' must be a list of Parameters or dicts, but "
                            f"got {type(parameters).__name__}.")
        items = list(parameters)
        if not items:
            raise ValueError(f"For '{cls}', the argument 'parameters' must not be empty.")
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)) or loss_scale <= 0:
            raise ValueError(f"For '{cls}', the argument 'loss_scale' must be a positive number, but got "
                             f"{loss_scale}.")
        weight_decay = self._check_weight_decay(weight_decay, cls)
        self.loss_scale = float(loss_scale)
        self.is_group = isinstance(items[0], dict)
        self._lr_kind, self._lr = _lr_values(learning_rate, cls)
        params: List[Parameter] = []
        self._group_lr: List[Any] = []  # per parameter: None (the optimizer's own rate), later (kind, holder)
        self._group_wd: List[Any] = []  # per parameter: a float, or a Cell called with global_step
        self._decay: List[bool] = []
        self._gc: List[bool] = []
        order: Optional[Sequence[Parameter]] = None
        per_group: List[Tuple[Tuple[str, Any], bool]] = []  # ((kind, value), whether the group gave its own)
        own_lr = False
        if self.is_group:
            for group in items:
                if not isinstance(group, dict):
                    raise TypeError(f"For '{cls}', when 'parameters' is a list of dicts, every item must be a dict.")
                if "order_params" in group:
                    order = list(group["order_params"])
                    continue
                if not list(group.get("params", [])):
                    raise ValueError("For 'Optimizer', the argument group `params` must not be empty.")
                gl = _lr_values(group["lr"], cls) if "lr" in group else None  # None: the optimizer's own rate
                per_group.append((gl or (self._lr_kind, self._lr), "lr" in group))
                own_lr = own_lr or "lr" in group
                gw = self._check_weight_decay(group.get("weight_decay", weight_decay), cls)
                for p in group["params"]:
                    self._add(p, cls, params)
                    self._group_lr.append(len(per_group) - 1)
                    self._group_wd.append(gw)
                    self._decay.append(True)  # in groups MindSpore decays every parameter of a group with decay
                    self._gc.append(bool(group.get("grad_centralization", False)))
            if order is not None:
                index = {id(p): i for i, p in enumerate(params)}
                missing = [p.name for p in order if id(p) not in index]
                if missing:
                    raise ValueError(f"For '{cls}', the parameters in 'order_params' must be in the groups, but "
                                     f"{missing} are not.")
                perm = [index[id(p)] for p in order]
                params = [params[i] for i in perm]
                self._group_lr = [self._group_lr[i] for i in perm]
                self._group_wd = [self._group_wd[i] for i in perm]
                self._decay = [self._decay[i] for i in perm]
                self._gc = [self._gc[i] for i in perm]
        else:
            for p in items:
                self._add(p, cls, params)
                self._group_lr.append(None)
                self._group_wd.append(weight_decay)
                self._decay.append(_default_decay_filter(p))
                self._gc.append(False)
        # MindSpore's order, which its checkpoints keep: global_step, the learning rate Parameter(s), the
        # parameters, then (in a subclass) the optimizer's state; a list of rates is a sub-cell of its own
        # whose Parameter 'learning_rate' is listed last, as 'learning_rate.learning_rate'; a schedule is the
        # schedule Cell itself (no Parameter)
        self.global_step = Parameter(Tensor(np.array([0], np.int32)), name="global_step")
        if own_lr:
            rates = self._group_rates(per_group)
            self._group_lr = [None if g is None else rates[g] for g in self._group_lr]
        else:
            self._group_lr = [None] * len(self._group_lr)
            if self._lr_kind == "schedule":
                self.learning_rate = self._lr
            elif self._lr_kind == "list":
                self.learning_rate = _StepRates(self._lr, "learning_rate")
            else:
                self.learning_rate = Parameter(Tensor(np.float32(self._lr)), name="learning_rate")
        self._parameters = ParameterTuple(params)
        self.dynamic_weight_decay = any(isinstance(w, Cell) for w in self._group_wd)
        self.dynamic_lr = self._lr_kind != "fixed" or any(g is not None and g[0] != "fixed" for g in self._group_lr)
        self.grad_centralization = any(self._gc)
        # as MindSpore holds it: a float32 Tensor (the decay times the loss scale) or the schedule wrapped with the
        # loss scale; for groups a tuple with one per parameter
        def held(wd: Any) -> Any:
            return _WrappedWeightDecay(wd, self.loss_scale) if isinstance(wd, Cell) else \
                Tensor(np.float32(wd * self.loss_scale))
        self.weight_decay = tuple(held(w) for w in self._group_wd) if self.is_group else held(weight_decay)
        self._step = 0  # the global step of the update under way (what a weight-decay schedule is called with)

    def _group_rates(self, per_group: List[Tuple[Tuple[str, Any], bool]]) -> List[Tuple[str, Any]]:
        """One rate holder per group, as MindSpore makes them when a group sets its own ``lr``: a Parameter named
        ``learning_rate_group_<g>`` (``learning_rate`` for a group using the optimizer's rate); all fixed rates
        are a ParameterTuple listed before the parameters, else each group's rate is a sub-cell
        (``learning_rate.<g>.learning_rate``). Returns ``(kind, holder)`` per group."""
        dynamic = any(kind != "fixed" for (kind, _), _ in per_group)
        names = [f"learning_rate_group_{g}" if own else "learning_rate" for g, (_, own) in enumerate(per_group)]
        if not dynamic:
            made: dict = {}
            for name, ((_, value), _) in zip(names, per_group):
                made.setdefault(name, Parameter(Tensor(np.float32(value)), name=name))
            holders = [made[name] for name in names]
            self.learning_rate = ParameterTuple(list(made.values()))
            return [("fixed", h) for h in holders]
        cells = [value if kind == "schedule" else _StepRates(value, name)
                 for name, ((kind, value), _) in zip(names, per_group)]
        self.learning_rate = _GroupRates(cells)
        return [(kind, c if kind == "schedule" else c.learning_rate) for ((kind, _), _), c in zip(per_group, cells)]

    @staticmethod
    def _check_weight_decay(wd: Any, cls: str) -> Any:
        """A float (``int`` widened) or a Cell, as MindSpore's ``_preprocess_weight_decay`` accepts them."""
        if isinstance(wd, Cell):
            return wd
        if not isinstance(wd, (int, float)):
            raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell.but got "
                            f"{type(wd)}")
        wd = float(wd)
        if wd < 0:
            raise ValueError(f"For '{cls}', the 'weight_decay' must be float and must >= 0, but got '{wd}' with "
                             f"type 'float'.")
        return wd

    @staticmethod
    def _add(p: Any, cls: str, params: List[Parameter]) -> None:
        if not isinstance(p, Parameter):
            raise TypeError(f"For '{cls}', every element of 'parameters' must be a Parameter, but got "
                            f"{type(p).__name__}.")
        if any(q is p for q in params):
            raise RuntimeError(f"For '{cls}', the parameter {p.name} is duplicated in 'parameters'.")
        params.append(p)

    # -- MindSpore's attribute names ----------------------------------------------------------------
    @property
    def parameters(self) -> ParameterTuple:
        """The parameters this optimizer updates, in order (what ``value_and_grad(..., weights=)`` takes)."""
        return self._parameters

    def _state(self, prefix: str, init: float = 0.0) -> ParameterTuple:
        """One state Parameter per parameter, named ``prefix.<name>`` (MindSpore's ``moments.w``, ...). Like all
        of an optimizer's Parameters in MindSpore, it requires grad (``trainable_params()`` lists it)."""
        return ParameterTuple(Parameter(Tensor(np.full(p.shape, init, p._data.dtype)), name=f"{prefix}.{p.name}")
                              for p in self._parameters)

    def _own_rate(self) -> Tuple[str, Any]:
        """The optimizer's own rate, read from its Parameter (so a loaded checkpoint's value is the one used)."""
        if self._lr_kind == "fixed":
            return "fixed", float(self.learning_rate._data)
        if self._lr_kind == "list":
            return "list", self.learning_rate.learning_rate._data
        return self._lr_kind, self._lr

    def _rate(self, i: int, step: int) -> float:
        """The learning rate of parameter ``i`` at ``step``."""
        own = self._group_lr[i]
        return self._lr_at(*(own if own is not None else self._own_rate()), step)

    def _lr_at(self, kind: str, value: Any, step: int) -> float:
        if isinstance(value, Parameter):  # a group's rate holder: its value now (a checkpoint may have loaded it)
            value = value._data
        if kind == "fixed":
            return float(value)
        if kind == "list":
            if step >= len(value):  # MindSpore gathers the rate by step: past the list's end it fails
                raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, {len(value)}), "
                                   f"but got {step}: the dynamic learning rate list has {len(value)} values and "
                                   f"this is step {step}.")
            return float(value[step])
        return float(np.asarray(value(Tensor(np.array([step], np.int32)))._data).reshape(-1)[0])

    def get_lr(self) -> Tensor:
        """The learning rate of the current step (MindSpore's ``get_lr``; per parameter for groups).

        Example:
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> opt = nn.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], learning_rate=[0.1, 0.01])
            >>> float(opt.get_lr().asnumpy())
            0.10000000149011612
        """
        step = int(self.global_step._data[0])
        if self.is_group:
            return tuple(Tensor(np.float32(self._rate(i, step))) for i in range(len(self._group_lr)))
        return Tensor(np.float32(self._lr_at(*self._own_rate(), step)))

    def get_lr_parameter(self, param: Any) -> Any:
        """The learning rate for ``param`` (or a list of them).

        Example:
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
            >>> float(nn.SGD([w], 0.3).get_lr_parameter(w).asnumpy())
            0.30000001192092896
        """
        step = int(self.global_step._data[0])
        out = []
        for p in (param if isinstance(param, (list, tuple)) else [param]):
            i = next(i for i, q in enumerate(self._parameters) if q is p)
            out.append(Tensor(np.float32(self._rate(i, step))))
        return out if isinstance(param, (list, tuple)) else out[0]

    # -- one step ------------------------------------------------------------------------------------
    def _decay_at(self, i: int, step: int) -> Optional[np.float32]:
        """Parameter ``i``'s weight decay at ``step`` times the loss scale, as float32 (None: no decay), as
        MindSpore's ``decay_weight`` reads it: the number, or the schedule Cell called with ``[step]``."""
        wd = self._group_wd[i]
        if not self._decay[i]:
            return None
        if isinstance(wd, Cell):
            value = np.asarray(wd(Tensor(np.array([step], np.int32)))._data, np.float32).reshape(-1)[0]
            return np.float32(value * np.float32(self.loss_scale))
        return np.float32(wd * self.loss_scale) if wd > 0 else None

    def get_weight_decay(self) -> Any:
        """The weight decay of the current step times the loss scale (MindSpore's ``get_weight_decay``): a float32
        Tensor, or for parameter groups a tuple with one per parameter.

        Example:
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
            >>> print(nn.Momentum([w], 0.1, 0.9, weight_decay=0.25, loss_scale=2.0).get_weight_decay())
            0.5
            >>> decay = nn.ExponentialDecayLR(0.1, 0.5, 1)
            >>> print(nn.Momentum([w], 0.1, 0.9, weight_decay=decay).get_weight_decay())
            [0.1]
        """
        step = int(self.global_step._data[0])

        def one(wd: Any) -> Tensor:
            if isinstance(wd, Cell):
                return Tensor(np.asarray(wd(Tensor(np.array([step], np.int32)))._data, np.float32)
                              * np.float32(self.loss_scale))
            return Tensor(np.float32(wd * self.loss_scale))
        if self.is_group:
            return tuple(one(wd) for wd in self._group_wd)
        return one(self._group_wd[0])

    def prepare_grad(self, i: int, grad: np.ndarray, param: Parameter, decay_in_rule: bool = False) -> np.ndarray:
        """Weight-decay, centralise and loss-scale one gradient, in MindSpore's order (``decay_weight``,
        ``gradients_centralization``, ``scale_grad``): ``g + param * (wd * loss_scale)``, then
        ``* (1 / loss_scale)``."""
        g = np.asarray(grad, param._data.dtype)
        if not decay_in_rule:
            wd = self._decay_at(i, self._step)
            if wd is not None:
                g = param._data * wd.astype(g.dtype) + g
        if self._gc[i] and g.ndim > 1 and g.shape[1] % 16 == 0:  # MindSpore centralises only these
            g = g - g.mean(axis=tuple(range(1, g.ndim)), keepdims=True)
        if self.loss_scale != 1.0:
            g = g * np.asarray(1.0 / self.loss_scale, g.dtype)
        return g

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        """Update ``param`` in place from its prepared gradient (subclasses implement the rule)."""
        raise NotImplementedError(f"{type(self).__name__} must implement apply()")

    def construct(self, gradients: Any) -> Any:
        grads = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(grads) != len(self._parameters):
            raise ValueError(f"For '{type(self).__name__}', the number of gradients ({len(grads)}) must equal the "
                             f"number of parameters ({len(self._parameters)}).")
        step = int(self.global_step._data[0])
        self._step = step
        with no_grad():
            self.begin_step(step)
            for i, (p, g) in enumerate(zip(self._parameters, grads)):
                if g is None:
                    continue
                garr = g._data if isinstance(g, Tensor) else np.asarray(g)
                self.apply(i, p, garr, self._rate(i, step))
                p._version += 1
            self.global_step._data[0] = step + 1
        return True

    def begin_step(self, step: int) -> None:
        """Called before the parameters of a step are updated (Adam advances its beta powers here)."""

    @staticmethod
    def _dtype_of(p: Parameter) -> mstype.Type:
        return p.dtype

    def extend_repr(self) -> str:
        return ""


