"""``OptimizerProcess`` and ``ParameterProcess``: rebuild an optimizer over a boosted network's parameters.

A boost rewrites the network (``LessBN`` swaps its last Dense for a normalised one) or splits its
parameters (``GradientFreeze``), so the optimizer is built again, of the same class and with the same
arguments (``Optimizer.init_args``), over new parameter groups. ``OptimizerProcess`` adds gradient
centralisation to the groups (every weight but biases, BatchNorm's ``beta``/``gamma``, grouped convolutions'
and the normalised head's); ``ParameterProcess`` maps parameter groups onto new parameters and numbers the
gradient fusion groups (``Parameter.comm_fusion``).

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    >>> opt = nn.Momentum([{"params": net.trainable_params()}], learning_rate=0.1, momentum=0.9)
    >>> process = OptimizerProcess(opt)
    >>> process.add_grad_centralization(net)
    >>> [(sorted(g), [p.name for p in g["params"]]) for g in process.origin_params]
    [(['grad_centralization', 'params'], ['weight']), (['params'], ['bias'])]
    >>> type(process.generate_new_optimizer()).__name__
    'Momentum'
"""
from __future__ import annotations

import copy
import logging
from typing import Any, Dict, List, Optional, Sequence

from mskernel.common.parameter import Parameter
from mskernel.nn.cell import Cell
from mskernel.nn.optim.lars import LARS

__all__ = ["OptimizerProcess", "ParameterProcess"]

logger = logging.getLogger(__name__)


def _group_list(params: Any) -> List[Any]:
    """``params`` as a list, checked as MindSpore checks an optimizer's parameters."""
    items = params if params is None or isinstance(params, list) else list(params)
    if not items:
        raise ValueError("Optimizer got an empty parameter list.")
    if not isinstance(items[0], (dict, Parameter)):
        raise TypeError("Only a list of Parameter or dict can be supported.")
    return items


def _no_gc_cell(cell: Cell) -> bool:
    """Cells whose weights are not centralised: grouped convolutions and the normalised head of ``LessBN``."""
    from mskernel.boost.less_batch_normalization import CommonHeadLastFN
    from mskernel.nn.layer.conv import Conv2d

    return (isinstance(cell, Conv2d) and cell.group > 1) or isinstance(cell, CommonHeadLastFN)


class OptimizerProcess:
    """Rebuild ``opt`` (an optimizer, or ``LARS`` over one) with new parameter groups.

    ``origin_params`` starts as the parameters the optimizer was built with; :meth:`add_grad_centralization`
    splits each group into a centralised and a plain one, :meth:`generate_new_optimizer` builds the optimizer.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(3, 2)
        >>> process = OptimizerProcess(nn.SGD(net.trainable_params(), learning_rate=0.5))
        >>> opt = process.generate_new_optimizer()
        >>> type(opt).__name__, float(opt.get_lr().asnumpy())
        ('SGD', 0.5)
    """

    def __init__(self, opt: Cell) -> None:
        self.is_lars = isinstance(opt, LARS)
        self.single_opt = opt.opt if self.is_lars else opt
        self.opt_class = type(self.single_opt)
        self.opt_init_args = dict(self.single_opt.init_args)
        self.lars_init_args = _lars_args(opt) if self.is_lars else {}
        self.learning_rate = self.single_opt.init_learning_rate
        self.origin_params = self.single_opt.init_params["params"]

    @staticmethod
    def build_params_dict(network: Cell) -> Dict[int, Cell]:
        """``{id(parameter): the cell that holds it}`` for every cell of ``network``.

        Example:
            >>> from mskernel import nn
            >>> net = nn.SequentialCell([nn.Dense(1, 1)])
            >>> sorted(type(c).__name__ for c in OptimizerProcess.build_params_dict(net).values())
            ['Dense', 'Dense']
        """
        out: Dict[int, Cell] = {}
        for _, cell in network.cells_and_names():
            for par in cell.get_parameters(expand=False):
                out[id(par)] = cell
        return out

    @staticmethod
    def build_gc_params_group(params_dict: Dict[int, Cell], parameters: List[dict]) -> List[dict]:
        """Each group split into its centralised parameters (``grad_centralization: True``) and the rest.

        Example:
            >>> from mskernel import nn
            >>> net = nn.Dense(2, 2)
            >>> groups = OptimizerProcess.build_gc_params_group(OptimizerProcess.build_params_dict(net),
            ...                                                 [{"params": net.trainable_params(), "lr": 0.1}])
            >>> [(g.get("grad_centralization"), g["lr"]) for g in groups]
            [(True, 0.1), (None, 0.1)]
        """
        groups: List[dict] = []
        for group in parameters:
            if "order_params" in group:
                groups.append(group)
                continue
            centred, plain = [], []
            for param in group["params"]:
                if any(word in param.name for word in ("beta", "gamma", "bias")):
                    plain.append(param)
                elif _no_gc_cell(params_dict[id(param)]):
                    plain.append(param)
                else:
                    centred.append(param)
            if centred:
                groups.append(dict(_copy_group(group), params=centred, grad_centralization=True))
            if plain:
                groups.append(dict(_copy_group(group), params=plain))
        return groups

    def add_grad_centralization(self, network: Cell) -> None:
        """Centralise the gradients of ``network``'s weights (only when the optimizer has parameter groups;
        a flat parameter list is left as it is, with a warning, as in MindSpore).

        Example:
            >>> from mskernel import nn
            >>> net = nn.Dense(2, 2)
            >>> process = OptimizerProcess(nn.SGD([{"params": net.trainable_params()}]))
            >>> process.add_grad_centralization(net); len(process.origin_params)
            2
        """
        params_dict = OptimizerProcess.build_params_dict(network)
        parameters = _group_list(self.origin_params)
        if isinstance(parameters[0], Parameter):
            logger.warning("Only group parameters support gradient centralization.")
            return
        self.origin_params = OptimizerProcess.build_gc_params_group(params_dict, parameters)

    def generate_new_optimizer(self) -> Cell:
        """The optimizer, of the original class and arguments, over ``origin_params``. (As in MindSpore, an
        optimizer whose ``__init__`` takes ``**kwargs``, such as Adam, gets them back as one ``kwargs`` entry and
        refuses it.)

        Example:
            >>> from mskernel import nn
            >>> net = nn.Dense(2, 2)
            >>> type(OptimizerProcess(nn.Momentum(net.trainable_params(), 0.1, 0.9)).generate_new_optimizer()).__name__
            'Momentum'
        """
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
        opt = self.opt_class(params=self.origin_params, learning_rate=self.learning_rate, **self.opt_init_args)
        return LARS(opt, **self.lars_init_args) if self.is_lars else opt


def _lars_args(lars: LARS) -> Dict[str, Any]:
    return {"epsilon": lars.epsilon, "coefficient": lars.coefficient, "use_clip": lars.use_clip,
            "lars_filter": lars.lars_filter}


def _copy_group(group: dict) -> dict:
    """A group's settings copied, its parameters (and the tensors in it) shared."""
    return {key: (value if key in ("params", "order_params") or not _copyable(value) else copy.deepcopy(value))
            for key, value in group.items()}


def _copyable(value: Any) -> bool:
    return isinstance(value, (int, float, str, bool, list, tuple, dict)) and not isinstance(value, Parameter)


class ParameterProcess:
    """Map parameter groups onto new parameters, and number gradient fusion groups.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 1)])
        >>> groups = ParameterProcess.generate_group_params(net.trainable_params()[:1], net.trainable_params())
        >>> [[p.name for p in g["params"]] for g in groups]
        [['0.weight']]
        >>> [p.comm_fusion for p in ParameterProcess().assign_parameter_group(net.trainable_params())]
        [1, 1, 2, 2]
    """

    def __init__(self) -> None:
        self._parameter_indices = 1

    @staticmethod
    def generate_group_params(parameters: Sequence[Parameter], origin_params: Any) -> List[dict]:
        """Groups of ``parameters`` shaped like ``origin_params`` (an optimizer's parameters or groups): a
        parameter joins the group that held the parameter of its name; new names join (a copy of) the group
        with the most settings; ``order_params`` becomes ``parameters``.

        Example:
            >>> import mskernel as ms
            >>> a, b = ms.Parameter(ms.Tensor(1.0), name="a"), ms.Parameter(ms.Tensor(2.0), name="b")
            >>> groups = ParameterProcess.generate_group_params([a, b], [{"params": [a], "lr": 0.5}])
            >>> [([p.name for p in g["params"]], g["lr"]) for g in groups]
            [(['a'], 0.5), (['b'], 0.5)]
        """
        origin = _group_list(origin_params)
        if isinstance(origin[0], Parameter):
            return [{"params": parameters}]
        return ParameterProcess._generate_new_group_params(parameters, origin)

    @staticmethod
    def _generate_new_group_params(parameters: Sequence[Parameter], origin: List[dict]) -> List[dict]:
        names = [p.name for p in parameters]
        unplaced = list(names)
        groups: List[dict] = []
        widest: dict = {}
        for group in origin:
            if "order_params" in group:
                groups.append(dict(_copy_group(group), order_params=parameters))
                continue
            held = []
            for param in group["params"]:
                if param.name in names:
                    held.append(parameters[names.index(param.name)])
                    unplaced.remove(param.name)
            groups.append(dict(_copy_group(group), params=held))
            if len(group) > len(widest):
                widest = _copy_group(group)
        if unplaced:
            rest = [parameters[names.index(name)] for name in unplaced]
            groups.append(dict(widest, params=rest) if widest else {"params": rest})
        return groups

    def assign_parameter_group(self, parameters: Any, split_point: Optional[List[int]] = None) -> Any:
        """Set ``comm_fusion`` of each parameter: a new fusion group starts at each index of ``split_point``
        (default: half way). Returns ``parameters``.

        Example:
            >>> import mskernel as ms
            >>> ps = [ms.Parameter(ms.Tensor(float(i)), name=f"p{i}") for i in range(4)]
            >>> [p.comm_fusion for p in ParameterProcess().assign_parameter_group(ps, [1, 3])]
            [1, 2, 2, 3]
        """
        if not isinstance(parameters, (list, tuple)) or not parameters:
            return parameters
        points = split_point if split_point else [len(parameters) // 2]
        for i, param in enumerate(parameters):
            if i in points:
                self._parameter_indices += 1
            param.comm_fusion = self._parameter_indices
        return parameters
