"""``set_context``/``get_context``/``set_device``: MindSpore's run settings, on a CPU.

Both modes run eagerly (GRAPH_MODE code runs as PyNative). Device targets "GPU" and "Ascend"
are accepted with a one-time warning that kernels run on the CPU, so tutorials written for those
devices run unchanged.

Example:
    >>> import mskernel as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE)
    >>> ms.get_context("mode") == ms.GRAPH_MODE
    True
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "set_device", "get_current_device",
           "DeviceInfo", "device_warning", "is_set", "watch", "unwatch"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
_VALID_TARGETS = ["CPU", "GPU", "Ascend"]

# MindSpore 2.10's context keys and the values get_context gives before they are set (read from its CPU wheel;
# tests/golden/cases/context.py checks them). set_context stores any of them; only mode and device_target change
# what mskernel does.
_DEFAULTS: Dict[str, Any] = {
    "aoe_config": {}, "aoe_job_type": "2", "aoe_tune_mode": "", "ascend_config": {}, "atomic_clean_policy": "",
    "bias_add_comm_swap": False, "check_bprop": False, "compile_cache_path": "", "compute_communicate_fusion_level": 0,
    "conv_allow_hf32": "", "conv_allow_tf32": True, "conv_dgrad_algo": "normal", "conv_fprop_algo": "normal",
    "conv_wgrad_algo": "normal", "cur_step_num": 0, "dataset_broadcast_opt_level": 0, "debug_level": 0,
    "deterministic": "OFF", "device_id": 0, "device_target": "CPU", "disable_format_transform": False,
    "enable_allreduce_slice_to_reducescatter": False, "enable_begin_end_inline_opt": False,
    "enable_compile_cache": None, "enable_concat_eliminate_opt": False, "enable_debug_runtime": False,
    "enable_flash_attention_load_balance": False, "enable_fused_cast_add_opt": False, "enable_ge": False,
    "enable_grad_comm_opt": False, "enable_graph_kernel": False, "enable_interleave_parallel_branch": False,
    "enable_interleave_split_concat_branch": False, "enable_offloading_packed_experts": True,
    "enable_opt_shard_comm_opt": False, "enable_parallel_split": False, "enable_profiling": False,
    "enable_reduce_precision": True, "enable_task_opt": False, "env_config_path": "", "exec_order": "bfs",
    "ge_options": "", "gpu_config": {}, "graph_kernel_flags": "", "hccl_watchdog": True,
    "host_scheduling_max_threshold": "", "infer_boost": "off", "inter_op_parallel_num": 0,
    "interleaved_layernorm_comm": False, "interleaved_matmul_comm": False, "jit_compile": "", "jit_config": {},
    "jit_level": "", "jit_syntax_level": 2, "last_triggered_step": 0, "matmul_allow_hf32": "",
    "matmul_allow_tf32": False, "matmul_grad_comm_overlap": "", "max_call_depth": 1000, "max_device_memory": 1024.0,
    "memory_optimize_level": 0, "mempool_block_size": 1.0, "mode": PYNATIVE_MODE, "need_ckpt": False,
    "op_debug_option": "", "op_precision_mode": "", "op_timeout": 900, "pp_1f1b_overlap": "", "precision_mode": "",
    "print_file_path": "", "profiling_options": "training_trace", "pynative_synchronize": False,
    "recompute_allgather_overlap_fagrad": False, "recompute_comm_overlap": "", "reserve_class_name_in_scope": True,
    "runtime_num_threads": min(30, os.cpu_count() or 1), "save_checkpoint_steps": 0, "save_graphs": 0,
    "save_graphs_path": ".", "support_binary": False, "topo_order": "", "variable_memory_max_size": "0",
}
# set_context's type checks (MindSpore's args_type_check on set_context), applied before anything is set
_TYPES: Dict[str, Any] = {
    "mode": int, "device_target": str, "device_id": int, "save_graphs": (bool, int), "save_graphs_path": str,
    "aoe_tune_mode": str, "aoe_config": dict, "enable_reduce_precision": bool, "variable_memory_max_size": str,
    "enable_auto_mixed_precision": bool, "inter_op_parallel_num": int, "enable_graph_kernel": bool,
    "reserve_class_name_in_scope": bool, "check_bprop": bool, "max_device_memory": str, "print_file_path": str,
    "max_call_depth": int, "env_config_path": str, "graph_kernel_flags": str, "save_compile_cache": bool,
    "runtime_num_threads": int, "load_compile_cache": bool, "pynative_synchronize": bool,
    "mempool_block_size": str, "disable_format_transform": bool, "op_timeout": int, "deterministic": str,
    "ascend_config": dict, "jit_syntax_level": int, "debug_level": int, "jit_enable_inplace_ops": bool,
    "gpu_config": dict, "jit_config": dict, "enable_compile_cache": bool,
}
_IGNORED = ("enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision")  # deprecated: accepted, not kept
_REMOVED = {"exception_dump": ("2.6", "device_context.ascend.op_debug.aclinit_config()"),
            "precompile_only": ("2.10", "env MS_DEV_PRECOMPILE_ONLY"), "grad_for_scalar": ("2.10", "tensor derivative")}
_ASCEND_CONFIG = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32", "conv_allow_hf32",
                  "op_precision_mode", "host_scheduling_max_threshold", "ge_options", "op_debug_option")

_context: Dict[str, Any] = dict(_DEFAULTS)
_explicit: set = set()  # the keys set_context set (get_context gives MindSpore's default for the others)
_watchers: Dict[str, List[Callable[[], None]]] = {}  # key -> called after set_context sets it (or a reset)
_device_set: Optional[str] = None
_warned: set = set()


@dataclass(frozen=True)
class DeviceInfo:
    """The current device (``get_current_device()``).

    Example:
        >>> info = get_current_device()
        >>> info.device_target, type(info.device_id).__name__
        ('CPU', 'int')
    """

    device_target: str
    device_id: int


def device_warning(target: str, what: str = "kernels run") -> None:
    """Warn once per target that a GPU/Ascend request runs on the CPU.

    Example:
        >>> device_warning("CPU")  # nothing to say for the CPU
    """
    if target == "CPU" or target in _warned:
        return
    _warned.add(target)
    warnings.warn(f"mskernel: device_target '{target}' is accepted for compatibility; {what} on the CPU.",
                  UserWarning, stacklevel=3)


def _check_target(device_target: Any) -> str:
    if device_target not in _VALID_TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of {_VALID_TARGETS}, but got {device_target}.")
    return device_target


def set_device(device_target: str, device_id: Optional[int] = None) -> None:
    """Choose the device (``"CPU"``; ``"GPU"``/``"Ascend"`` run on the CPU with a warning).

    As in MindSpore, the device cannot be changed once set.

    Example:
        >>> set_device("CPU")
        >>> get_current_device().device_target
        'CPU'
    """
    global _device_set
    target = _check_target(device_target)
    if device_id is not None and (not isinstance(device_id, int) or device_id < 0):
        raise ValueError("The device id must bigger than or equal to 0.")
    if _device_set is not None and _device_set != target:
        raise RuntimeError("The 'mindspore.set_device' can not be modified.")
    _device_set = target
    _context["device_target"] = target
    if device_id is not None:
        _context["device_id"] = device_id
    device_warning(target)


def get_current_device() -> DeviceInfo:
    """The device chosen with :func:`set_device` (CPU by default).

    Example:
        >>> get_current_device().device_target
        'CPU'
    """
    return DeviceInfo(_context["device_target"], _context["device_id"])


def set_context(**kwargs: Any) -> None:
    """Set run options: ``mode`` (GRAPH_MODE or PYNATIVE_MODE; both run eagerly here),
    ``device_target``/``device_id`` (deprecated in MindSpore in favour of :func:`set_device`),
    and MindSpore's other context keys (stored, readable with :func:`get_context`).

    As in MindSpore 2.10, the keys are checked for type first, then set in order; a key MindSpore does not
    know raises a ValueError (the keys before it stay set).

    Example:
        >>> set_context(mode=PYNATIVE_MODE, check_bprop=True); get_context("check_bprop")
        True
        >>> set_context(check_bprop=False)  # back to the default, for whatever runs next in this process
        >>> set_context(mdoe=GRAPH_MODE)
        Traceback (most recent call last):
        ...
        ValueError: For 'context.set_context', the keyword argument mdoe is not recognized! For detailed usage of \
'set_context', please refer to the Mindspore official website.
    """
    for k, v in kwargs.items():
        if k in _TYPES and not isinstance(v, _TYPES[k]):
            raise TypeError(f"The parameter '{k}' must be {_TYPES[k]}, but got {type(v)}")
    if "device_target" in kwargs:
        target = _check_target(kwargs["device_target"])
        _context["device_target"] = target
        device_warning(target)
    for k, v in kwargs.items():
        if k in _REMOVED:
            version, instead = _REMOVED[k]
            raise ValueError(f"For 'context.set_context', the parameter '{k}' has been removed since MindSpore "
                             f"{version} version. Please use the {instead} instead.")
        if k in _IGNORED or k == "device_target":
            continue
        if k in _ASCEND_CONFIG:
            raise ValueError(f"Please set '{k}' through parameter ascend_config")
        if k not in _DEFAULTS:
            raise ValueError(f"For 'context.set_context', the keyword argument {k} is not recognized! For detailed "
                             f"usage of 'set_context', please refer to the Mindspore official website.")
        if k == "mode" and (v not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(v, bool)):
            raise ValueError(f"For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) or "
                             f"context.PYNATIVE_MODE (1), but got {v}.")
        if k == "save_graphs":
            v = {True: 2, False: 0}.get(v, v) if isinstance(v, bool) else v
            if v > 3:
                raise ValueError(f"value for save_graphs should be 0-3 but got '{v}'")
        if k == "runtime_num_threads" and v < 0:
            raise ValueError(f"For 'context.set_context', the argument 'runtime_num_threads' must be bigger than or "
                             f"equal to 0 (0: the default), but got {v}.")
        _context[k] = v
        _explicit.add(k)
        for notify in _watchers.get(k, ()):
            notify()


def get_context(attr_key: str) -> Any:
    """A context value (``"mode"``, ``"device_target"``, ...): what was set, else MindSpore's default.

    Example:
        >>> get_context("device_target") in ("CPU", "GPU", "Ascend")
        True
        >>> get_context("mdoe")
        Traceback (most recent call last):
        ...
        ValueError: For 'context.get_context', the argument mdoe is not recognized! For detailed usage of \
'get_context', please refer to the Mindspore official website.
    """
    if attr_key not in _context:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                         f"usage of 'get_context', please refer to the Mindspore official website.")
    return _context[attr_key]


def is_set(attr_key: str) -> bool:
    """Whether ``set_context`` set ``attr_key`` (else :func:`get_context` gives MindSpore's default for it).

    Example:
        >>> is_set("max_call_depth") in (True, False)
        True
    """
    return attr_key in _explicit


def watch(attr_key: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` after every ``set_context`` that sets ``attr_key`` (and after a reset to the defaults):
    how a layer above the context follows a setting it implements, e.g. ``runtime_num_threads`` (the thread
    pool of hybrid kernels, :mod:`mskernel.hybrid.threads`).

    Example:
        >>> seen = []
        >>> follow = lambda: seen.append(get_context("op_timeout"))
        >>> watch("op_timeout", follow)
        >>> set_context(op_timeout=60); seen
        [60]
        >>> unwatch("op_timeout", follow); set_context(op_timeout=900)  # back to the default
    """
    _watchers.setdefault(attr_key, []).append(callback)


def unwatch(attr_key: str, callback: Callable[[], None]) -> None:
    """Stop calling a ``callback`` given to :func:`watch` (nothing happens if it is not watching).

    Example:
        >>> seen = []
        >>> follow = lambda: seen.append(1)
        >>> watch("op_timeout", follow); unwatch("op_timeout", follow)
        >>> set_context(op_timeout=30); seen
        []
        >>> set_context(op_timeout=900)  # back to the default
    """
    callbacks = _watchers.get(attr_key, [])
    if callback in callbacks:
        callbacks.remove(callback)


def _reset_for_tests() -> None:
    """Back to defaults (tests and notebooks that switch devices in one process)."""
    global _device_set
    _device_set = None
    _context.clear()
    _context.update(_DEFAULTS)
    _explicit.clear()
    for callbacks in _watchers.values():
        for notify in callbacks:
            notify()
