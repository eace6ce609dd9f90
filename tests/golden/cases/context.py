"""set_context/get_context: known keys, their defaults, unknown and removed keys, type and value checks.

Every case leaves the context as it found it (the suite's cases share one process, in the wheel and in the tests).
"""
# the keys whose defaults do not depend on the machine or on the device chosen before the case runs
_KEYS = ["aoe_config", "aoe_job_type", "aoe_tune_mode", "ascend_config", "atomic_clean_policy", "bias_add_comm_swap",
         "check_bprop", "compile_cache_path", "compute_communicate_fusion_level", "conv_allow_hf32", "conv_allow_tf32",
         "conv_dgrad_algo", "conv_fprop_algo", "conv_wgrad_algo", "cur_step_num", "dataset_broadcast_opt_level",
         "debug_level", "deterministic", "disable_format_transform", "enable_allreduce_slice_to_reducescatter",
         "enable_begin_end_inline_opt", "enable_compile_cache", "enable_concat_eliminate_opt", "enable_debug_runtime",
         "enable_flash_attention_load_balance", "enable_fused_cast_add_opt", "enable_ge", "enable_grad_comm_opt",
         "enable_graph_kernel", "enable_interleave_parallel_branch", "enable_interleave_split_concat_branch",
         "enable_offloading_packed_experts", "enable_opt_shard_comm_opt", "enable_parallel_split", "enable_profiling",
         "enable_reduce_precision", "enable_task_opt", "env_config_path", "exec_order", "ge_options", "gpu_config",
         "graph_kernel_flags", "hccl_watchdog", "host_scheduling_max_threshold", "infer_boost",
         "inter_op_parallel_num", "interleaved_layernorm_comm", "interleaved_matmul_comm", "jit_compile", "jit_config",
         "jit_level", "jit_syntax_level", "last_triggered_step", "matmul_allow_hf32", "matmul_allow_tf32",
         "matmul_grad_comm_overlap", "max_call_depth", "max_device_memory", "memory_optimize_level",
         "mempool_block_size", "mode", "need_ckpt", "op_debug_option", "op_precision_mode", "op_timeout",
         "pp_1f1b_overlap", "precision_mode", "print_file_path", "profiling_options", "pynative_synchronize",
         "recompute_allgather_overlap_fagrad", "recompute_comm_overlap", "reserve_class_name_in_scope",
         "save_checkpoint_steps", "save_graphs", "save_graphs_path", "support_binary", "topo_order",
         "variable_memory_max_size"]
_TRY = "def attempt(**kw):\n    try:\n        ms.set_context(**kw)\n    except (TypeError, ValueError) as e:\n        return type(e).__name__ + ': ' + str(e)\n"

CASES = {
    "defaults": f"result = {{k: ms.get_context(k) for k in {_KEYS!r}}}",
    "set_unknown_key": "result = ms.set_context(mdoe=1)",
    "get_unknown_key": "result = ms.get_context('mdoe')",
    "unknown_key_after_a_known_one": _TRY + "err = attempt(max_call_depth=2000, mdoe=1)\nresult = (err, ms.get_context('max_call_depth'))\nms.set_context(max_call_depth=1000)",
    "unknown_key_before_a_known_one": _TRY + "err = attempt(mdoe=1, max_call_depth=3000)\nresult = (err, ms.get_context('max_call_depth'))\nms.set_context(max_call_depth=1000)",
    "type_checked_before_setting": _TRY + "err = attempt(max_call_depth=2000, check_bprop=1)\nresult = (err, ms.get_context('max_call_depth'))",
    "set_and_get": "ms.set_context(max_call_depth=2000, jit_level='O1')\nresult = (ms.get_context('max_call_depth'), ms.get_context('jit_level'))\nms.set_context(max_call_depth=1000, jit_level='')",
    "mode_graph_and_back": "ms.set_context(mode=ms.GRAPH_MODE)\nm = ms.get_context('mode')\nms.set_context(mode=ms.PYNATIVE_MODE)\nresult = (m, ms.get_context('mode'))",
    "bad_mode": "result = ms.set_context(mode=5)",
    "mode_type": "result = ms.set_context(mode='1')",
    "check_bprop_type": "result = ms.set_context(check_bprop=1)",
    "save_graphs_range": "result = ms.set_context(save_graphs=5)",
    "removed_key": "result = ms.set_context(precompile_only=True)",
    "ascend_config_key": "result = ms.set_context(precision_mode='force_fp16')",
    "deprecated_key_is_ignored": "ms.set_context(enable_sparse=True)\nresult = ms.get_context('enable_sparse')",
}
OPTIONS = {k: {"message": True} for k in ("set_unknown_key", "get_unknown_key", "bad_mode", "mode_type",
                                          "check_bprop_type", "save_graphs_range", "removed_key", "ascend_config_key",
                                          "deprecated_key_is_ignored")}
