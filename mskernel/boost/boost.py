"""``AutoBoost``: which boosts ``Model(boost_level=...)`` applies, and applying them to a network.

Levels: ``"O0"`` none; ``"O1"`` ``less_bn`` (the last Dense layers normalised, gradient centralisation)
and ``grad_freeze`` (one parameter group trained per step); ``"O2"`` also ``adasum`` (which needs 16 or
more ranks, so in one process it changes nothing). ``boost_config_dict`` (a dict, e.g. loaded from JSON)
refines it: ``{"boost": {"mode": "auto" | "manual" | "enable_all" | "disable_all", <boost>: bool}}``
picks the boosts (``manual`` takes the bools given), and the sections ``"common"``
(``gradient_split_groups``, ``device_number``), ``"less_bn"`` (``fn_flag``, ``gc_flag``), ``"grad_freeze"``
(``param_groups``, ``freeze_type``, ``freeze_p``, ``total_steps``), ``"grad_accumulation"``
(``grad_accumulation_step``) and ``"dim_reduce"`` (``rho``, ``gamma``, ``alpha``, ``sigma``,
``n_components``, ``pca_mat_path``, ``weight_load_dir``, ``timeout``) set the enabled boosts' options.

As in MindSpore, ``AutoBoost`` is a singleton: the first construction fixes the level and options, later
ones return that object unchanged (``AutoBoost._instance = None`` starts afresh); and ``manual`` mode writes
its choices into the level's entry of the level table (``_boost_config_level``), so later configurations of
that level start from them.

Example:
    >>> AutoBoost._instance = None
    >>> boost = AutoBoost("O1", {"boost": {"mode": "auto"}})
    >>> boost.level, boost.boost_config["less_bn"], boost.boost_config["adasum"]
    ('O1', True, False)
    >>> AutoBoost("O2").level
    'O1'
    >>> AutoBoost._instance = None
"""
from __future__ import annotations

import threading
from typing import Any, Dict, Tuple

from mskernel.boost.base import OptimizerProcess, ParameterProcess
from mskernel.boost.grad_freeze import GradientFreeze
from mskernel.boost.less_batch_normalization import LessBN
from mskernel.boost.pca_mat import get_local_pca_mat_path
from mskernel.nn.cell import Cell

__all__ = ["AutoBoost"]

_boost_config_mode = ["auto", "manual", "enable_all", "disable_all"]
_BOOSTS = ("less_bn", "grad_freeze", "adasum", "grad_accumulation", "dim_reduce", "loss_scale_group")
_boost_config_level: Dict[str, Dict[str, bool]] = {
    "O0": dict.fromkeys(_BOOSTS, False),
    "O1": dict(dict.fromkeys(_BOOSTS, False), less_bn=True, grad_freeze=True),
    "O2": dict(dict.fromkeys(_BOOSTS, False), less_bn=True, grad_freeze=True, adasum=True),
}

# option of a boost_config_dict section -> the AutoBoost attribute it sets
_OPTIONS = {"fn_flag": "_fn_flag", "gc_flag": "_gc_flag", "param_groups": "_param_groups",
            "freeze_type": "_freeze_type", "freeze_p": "_freeze_p", "total_steps": "_total_steps",
            "device_number": "device_number", "gradient_split_groups": "gradient_groups",
            "grad_accumulation_step": "grad_accumulation_step", "rho": "rho", "gamma": "gamma", "alpha": "alpha",
            "sigma": "sigma", "n_components": "n_components", "pca_mat_path": "pca_mat_path",
            "weight_load_dir": "weight_load_dir", "timeout": "timeout"}


class AutoBoost:
    """The boost configuration (a singleton; see the module docstring).

    Example:
        >>> AutoBoost._instance = None
        >>> AutoBoost("O0", {"boost": {"mode": "fast"}})
        Traceback (most recent call last):
        ...
        ValueError: The boost mode must be in ['auto', 'manual', 'enable_all', 'disable_all'], but got fast
        >>> AutoBoost._instance = None
    """

    _instance_lock = threading.Lock()
    _instance = None

    def __new__(cls, *args: Any, **kwargs: Any) -> "AutoBoost":
        if AutoBoost._instance is None:
            with AutoBoost._instance_lock:
                if AutoBoost._instance is None:
                    made = object.__new__(cls)
                    made.level = None
                    made.boost_config_dict = None
                    AutoBoost._instance = made
        return AutoBoost._instance

    def __init__(self, level: str = "O0", boost_config_dict: Any = "") -> None:
        if level not in _boost_config_level:
            level = "O0"
        if self._instance.level is not None:
            return
        self.level = level
        self.boost_config_dict = boost_config_dict
        self._fn_flag = True
        self._gc_flag = True
        self._param_groups = 10
        self._freeze_type = 1
        self._freeze_p = 0.7
        self._total_steps = 65536
        self.gradient_groups = None
        self.device_number = 8
        self.grad_accumulation_step = 1
        self.rho = 0.55
        self.gamma = 0.9
        self.alpha = 0.001
        self.sigma = 0.4
        self.n_components = 32
        self.pca_mat_path = None
        self.weight_load_dir = None
        self.local_pca_mat_path = None
        self.timeout = 1800
        try:
            self.boost_config = self._get_configuration(level, self.boost_config_dict)
        except Exception:
            self.level = None  # a refused configuration leaves the singleton unconfigured
            raise
        self._param_processer = ParameterProcess()

    def network_auto_process_train(self, network: Cell, optimizer: Cell) -> Tuple[Cell, Cell]:
        """``(network, optimizer)`` with the enabled boosts applied, for training.

        Example:
            >>> from mskernel import nn
            >>> AutoBoost._instance = None
            >>> net = nn.WithLossCell(nn.SequentialCell([nn.Dense(3, 2)]), nn.MSELoss())
            >>> net, opt = AutoBoost("O1").network_auto_process_train(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
            >>> type(net).__name__, type(opt).__name__, len(opt.opts)
            ('LessBN', 'FreezeOpt', 10)
            >>> AutoBoost._instance = None
        """  # noqa: E501
        config = self.boost_config
        if config.get("dim_reduce"):
            from mskernel.nn.optim.sgd import SGD

            self.local_pca_mat_path = get_local_pca_mat_path(self.weight_load_dir, self.pca_mat_path,
                                                             self.n_components, self.device_number, network)
            optimizer = SGD(network.trainable_params(), learning_rate=1)
            optimizer.dim_reduce = True
            return network, optimizer
        if config.get("less_bn"):
            network = LessBN(network, fn_flag=self._fn_flag)
            process = OptimizerProcess(optimizer)
            groups = self._param_processer.assign_parameter_group(network.trainable_params(), self.gradient_groups)
            process.origin_params = ParameterProcess.generate_group_params(groups, process.origin_params)
            if self._gc_flag:
                process.add_grad_centralization(network)
            optimizer = process.generate_new_optimizer()
        if config.get("grad_freeze"):
            freezer = GradientFreeze(self._param_groups, self._freeze_type, self._freeze_p, self._total_steps)
            network, optimizer = freezer.freeze_generate(network, optimizer)
        if config.get("adasum"):
            optimizer.adasum = True
        return network, optimizer

    def network_auto_process_eval(self, network: Cell) -> Cell:
        """``network`` for evaluation: flagged by ``LessBN`` when ``less_bn`` is on.

        Example:
            >>> from mskernel import nn
            >>> AutoBoost._instance = None
            >>> type(AutoBoost("O1").network_auto_process_eval(nn.Dense(2, 2))).__name__
            'LessBN'
            >>> AutoBoost._instance = None
        """
        if self.boost_config.get("dim_reduce"):
            return network
        if self.boost_config.get("less_bn"):
            network = LessBN(network)
        return network

    def _set_gradient_split_groups(self, gradient_groups: Any) -> None:
        if not isinstance(gradient_groups, (list, int)):
            raise ValueError(f"gradient_groups `{gradient_groups}` is not in (list, int)")
        self.gradient_groups = list(gradient_groups)

    def _get_configuration(self, level: str, boost_config_dict: Any) -> Dict[str, bool]:
        level_config = _boost_config_level[level]  # manual mode edits the level's table, as MindSpore's does
        if not boost_config_dict:
            return level_config
        mode = boost_config_dict.get("boost", {}).get("mode", "auto")
        if mode not in _boost_config_mode:
            raise ValueError(f"The boost mode must be in {_boost_config_mode}, but got {mode}")
        if mode == "manual":
            for key, value in boost_config_dict["boost"].items():
                if key in level_config:
                    level_config[key] = value
        elif mode == "enable_all":
            level_config = dict.fromkeys(level_config, True)
        elif mode == "disable_all":
            level_config = dict.fromkeys(level_config, False)
        self._do_new_config_func(boost_config_dict, level_config)
        return level_config

    def _do_new_config_func(self, boost_config_dict: Dict[str, Any], level_config: Dict[str, bool]) -> None:
        """Take the options of the enabled boosts' sections (and of ``common``)."""
        for key, section in boost_config_dict.items():
            if not ((key in level_config and level_config[key]) or key == "common"):
                continue
            for option, value in section.items():
                if option == "gradient_split_groups":
                    self._set_gradient_split_groups(value)
                elif option in _OPTIONS:
                    setattr(self, _OPTIONS[option], value)
