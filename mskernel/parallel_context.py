"""MindSpore's parallel settings as one process keeps them: the auto-parallel context, the sharding-algorithm
parameters and the parameter-server context.

mskernel runs one process (rank 0 of a group of 1, :mod:`mskernel.communication`), so these settings change
nothing it computes; they are kept, read back and reset as MindSpore does, with MindSpore's defaults and its
errors for unknown keys, so that training scripts written for several devices run here unchanged. Each context
is one table of keys and defaults.

Example:
    >>> import mskernel as ms
    >>> ms.set_auto_parallel_context(device_num=8); ms.get_auto_parallel_context("device_num")
    8
    >>> ms.reset_auto_parallel_context(); ms.get_auto_parallel_context("parallel_mode")
    'stand_alone'
"""
from __future__ import annotations

import copy
from typing import Any, Dict

__all__ = ["ParallelMode", "get_auto_parallel_context", "set_auto_parallel_context", "reset_auto_parallel_context",
           "get_algo_parameters", "set_algo_parameters", "reset_algo_parameters", "get_ps_context", "set_ps_context"]


class ParallelMode:
    """The parallel modes' names.

    Example:
        >>> ParallelMode.STAND_ALONE, ParallelMode.MODE_LIST[1]
        ('stand_alone', 'data_parallel')
    """

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_COMM_FUSION = {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                "allgather": {"mode": "auto", "config": None}, "reducescatter": {"mode": "auto", "config": None}}

#: the auto-parallel context's keys and MindSpore 2.10's defaults
AUTO_PARALLEL_DEFAULTS: Dict[str, Any] = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "loss_repeated_mean": True, "parallel_mode": "stand_alone", "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming", "parameter_broadcast": False,
    "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "", "full_batch": False,
    "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False, "enable_alltoall": False,
    "all_reduce_fusion_config": [], "pipeline_stages": 1, "pipeline_result_broadcast": False,
    "grad_accumulation_step": 1, "auto_pipeline": False, "dump_local_norm": False, "dump_local_norm_path": "",
    "dump_device_local_norm": False, "comm_fusion": _COMM_FUSION, "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False, "sharding_propagation": False,
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
}
#: keys MindSpore's setter takes that its getter does not give back
_SET_ONLY = {"parallel_optimizer_config", "pipeline_config", "group_ckpt_save_file"}

#: the sharding-algorithm parameters and their defaults
ALGO_DEFAULTS: Dict[str, Any] = {"fully_use_devices": False, "elementwise_op_strategy_follow": False,
                                 "enable_algo_approxi": False, "algo_approxi_epsilon": 0.10000000149011612,
                                 "tensor_slice_align_enable": False, "tensor_slice_align_size": 16}

#: the parameter-server context's readable keys and defaults
PS_DEFAULTS: Dict[str, Any] = {"enable_ps": False, "config_file_path": "", "enable_ssl": False}
_PS_SET_ONLY = {"client_password", "server_password"}

_AUTO = copy.deepcopy(AUTO_PARALLEL_DEFAULTS)
_ALGO = dict(ALGO_DEFAULTS)
_PS = dict(PS_DEFAULTS)


def get_auto_parallel_context(attr_key: str) -> Any:
    """One setting of the auto-parallel context.

    Example:
        >>> get_auto_parallel_context("dataset_strategy")
        'data_parallel'
    """
    if attr_key not in _AUTO:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return copy.deepcopy(_AUTO[attr_key])


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set auto-parallel settings (kept; one process computes the same with any of them).

    Example:
        >>> set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True)
        >>> get_auto_parallel_context("gradients_mean"); reset_auto_parallel_context()
        True
    """
    for key, value in kwargs.items():
        if key not in _AUTO and key not in _SET_ONLY:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError(f"The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                             f"'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', but got "
                             f"the value : {value}.")
    for key, value in kwargs.items():
        if key in _AUTO:
            _AUTO[key] = value


def reset_auto_parallel_context() -> None:
    """Every auto-parallel setting back to its default.

    Example:
        >>> reset_auto_parallel_context(); get_auto_parallel_context("device_num")
        1
    """
    _AUTO.clear()
    _AUTO.update(copy.deepcopy(AUTO_PARALLEL_DEFAULTS))


def get_algo_parameters(attr_key: str) -> Any:
    """One sharding-algorithm parameter.

    Example:
        >>> get_algo_parameters("fully_use_devices")
        False
    """
    if attr_key not in _ALGO:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _ALGO[attr_key]


def set_algo_parameters(**kwargs: Any) -> None:
    """Set sharding-algorithm parameters.

    Example:
        >>> set_algo_parameters(elementwise_op_strategy_follow=True)
        >>> get_algo_parameters("elementwise_op_strategy_follow"); reset_algo_parameters()
        True
    """
    for key in kwargs:
        if key not in _ALGO:
            raise ValueError(f"Set context keyword {key} is not recognized!")
    _ALGO.update(kwargs)


def reset_algo_parameters() -> None:
    """Every sharding-algorithm parameter back to its default.

    Example:
        >>> reset_algo_parameters(); get_algo_parameters("tensor_slice_align_size")
        16
    """
    _ALGO.clear()
    _ALGO.update(ALGO_DEFAULTS)


def get_ps_context(attr_key: str) -> Any:
    """One parameter-server setting.

    Example:
        >>> get_ps_context("enable_ps")
        False
    """
    if attr_key not in _PS:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _PS[attr_key]


def set_ps_context(**kwargs: Any) -> None:
    """Set parameter-server settings (kept; mskernel trains in one process).

    Example:
        >>> set_ps_context(enable_ssl=True); get_ps_context("enable_ssl")
        True
        >>> set_ps_context(enable_ssl=False)
    """
    for key in kwargs:
        if key not in _PS and key not in _PS_SET_ONLY:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
    _PS.update({k: v for k, v in kwargs.items() if k in _PS})
