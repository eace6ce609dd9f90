"""``experimental.optim.Optimizer``: the base of the torch-style optimizers.

An optimizer keeps ``param_groups`` (dicts: ``params`` and the options, the group's ``lr`` a scalar float32
Parameter ``learning_rate_group_<i>`` that the schedulers assign to), ``defaults``, ``state``, the flat
``parameters`` tuple and ``group_start_id`` (where each group starts in it). A step is a call with the gradients
of ``parameters``, in order: ``optimizer(grads)``. The update rules are :mod:`.rules`.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> class Ascend(Optimizer):
    ...     def __init__(self, params, lr):
    ...         super().__init__(params, dict(lr=lr))
    ...     def construct(self, gradients):
    ...         for gid, group in enumerate(self.param_groups):
    ...             start = self.group_start_id[gid]
    ...             for i, p in enumerate(group["params"]):
    ...                 ops.assign(p, p + gradients[start + i] * group["lr"])
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = Ascend([w], 0.5)
    >>> opt((ms.Tensor([2.0]),)); print(w.asnumpy())
    [2.]
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Dict, List, Sequence

import numpy as np

from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["Optimizer", "check_not_less_than", "check_not_less_than_without_equal", "check_value_type",
           "check_float_range"]


def check_not_less_than(value: Any, name: str, cls: str, bound: float = 0.0) -> None:
    if value < bound:
        raise ValueError(f"For {cls}, the {name} must be greater than or equal to {bound}, but got {value}.")


def check_not_less_than_without_equal(value: Any, name: str, cls: str, bound: float = 0.0) -> None:
    if value <= bound:
        raise ValueError(f"For {cls}, the {name} must be greater than {bound}, but got {value}.")


def check_value_type(name: str, value: Any, kinds: Sequence[type], cls: str) -> None:
    """MindSpore's type check (a bool is not an int here, as there)."""
    ok = isinstance(value, tuple(kinds)) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        names = [k.__name__ for k in kinds]
        want = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"For '{cls}', the type of '{name}' should be {want}, but got type "
                        f"'{type(value).__name__}'.")


def check_float_range(value: float, low: float, high: float, inc: str, name: str, cls: str) -> None:
    """``inc``: which ends are included, 'both', 'left' or 'neither'."""
    lo_ok = value >= low if inc in ("both", "left") else value > low
    hi_ok = value <= high if inc == "both" else value < high
    if not (lo_ok and hi_ok):
        left = "[" if inc in ("both", "left") else "("
        right = "]" if inc == "both" else ")"
        raise ValueError(f"For '{cls}', the '{name}' must be in range of {left}{float(low)}, {float(high)}{right}, "
                         f"but got {value} with type '{type(value).__name__}'.")


def _non_negative(value: float, name: str, cls: str) -> None:
    if value < 0:
        raise ValueError(f"For '{cls}', the '{name}' must be float and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")


class Optimizer(Cell):
    """``Optimizer(params, defaults)``: ``params`` Parameters or groups (dicts with ``params`` and options that
    override ``defaults``); subclasses define ``construct(gradients)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = Optimizer([w], {"lr": 0.1})
        >>> opt.add_param_group({"params": ms.Parameter(ms.Tensor([2.0]), name="b"), "lr": 0.5})
        >>> opt.group_start_id, float(opt.param_groups[1]["lr"].asnumpy())
        ([0, 1, 2], 0.5)
    """

    def __init__(self, params: Any, defaults: Dict[str, Any]) -> None:
        super().__init__(auto_prefix=False)
        groups = self._parameters_base_check(params, "params")
        self.defaults = defaults
        self.state: Dict[Any, Any] = defaultdict(dict)
        self.param_groups: List[Dict[str, Any]] = []
        self.parameters: Any = []
        self.lrs: List[Parameter] = []
        self.group_start_id = [0]
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self.parameters)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key == "params":
                    continue
                value = group[key]
                if key == "lr" and isinstance(value, Parameter):
                    value = value.value()
                text += f"    {key}: {value}\n"
        return text + ")"

    def add_param_group(self, param_group: Dict[str, Any]) -> None:
        """Add a group (a dict with ``params``; options not given take the defaults).

        Example:
            >>> import mskernel as ms
            >>> opt = Optimizer([ms.Parameter(ms.Tensor([1.0]), name="a")], {"lr": 0.1, "momentum": 0.9})
            >>> opt.add_param_group({"params": [ms.Parameter(ms.Tensor([1.0]), name="b")]})
            >>> opt.param_groups[1]["momentum"]
            0.9
        """
        gid = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        self.parameters += tuple(param_group["params"])
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        lr = self._build_single_lr(param_group.get("lr"), f"learning_rate_group_{gid}")
        weight_decay = self._preprocess_weight_decay(param_group.get("weight_decay", 0.0))
        self.lrs.append(lr)
        param_group["lr"] = lr
        param_group["weight_decay"] = weight_decay
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(param_group["params"]))

    @staticmethod
    def _parameters_base_check(parameters: Any, info: str) -> List[Any]:
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {info} must be Iterable type, but got "
                            f"{type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {info} must not be empty.")
        return parameters

    def _preprocess_param_group(self, group: Any) -> Dict[str, Any]:
        if not isinstance(group, dict):
            raise TypeError("Param group must be a dict.")
        params = group["params"]
        if isinstance(params, Parameter):
            group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            group["params"] = list(params)
        for p in group["params"]:
            if not isinstance(p, Parameter):
                raise TypeError(f"Optimizer can only optimize Parameters, but one of the params is {type(p)}")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group.")
        return group

    def _build_single_lr(self, lr: Any, name: str) -> Parameter:
        if isinstance(lr, (float, int)) and not isinstance(lr, bool):
            _non_negative(float(lr), "learning rate", self.cls_name)
            return Parameter(Tensor(np.float32(lr)), name=name)
        if isinstance(lr, Tensor):
            if lr.ndim == 0:
                return Parameter(Tensor(lr.asnumpy().astype(np.float32)), name=name)
            raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor")
        raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, but got "
                        f"{type(lr)}.")

    def _preprocess_weight_decay(self, weight_decay: Any) -> float:
        if isinstance(weight_decay, (float, int)):
            weight_decay = float(weight_decay)
            _non_negative(weight_decay, "weight_decay", self.cls_name)
            return weight_decay
        raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int or float.but got "
                        f"{type(weight_decay)}")

    def group_slice(self, gid: int) -> range:
        """The indices in ``parameters`` (and in the gradients) of group ``gid``.

        Example:
            >>> import mskernel as ms
            >>> opt = Optimizer([ms.Parameter(ms.Tensor([1.0]), name="a")], {"lr": 0.1})
            >>> list(opt.group_slice(0))
            [0]
        """
        return range(self.group_start_id[gid], self.group_start_id[gid + 1])

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError
