"""MindSpore's graph-syntax helpers and small primitives of ``mindspore.ops`` (ops/graph_syntax.py,
ops/graph_prims.py, ops/reg_ops.py): values, types, printed primitives and errors. Helpers that the wheel runs
only inside a graph (PyNative raises "has no attr:__infer__") are recorded through ``ms.jit``."""
_T = "t = Tensor(np.array([1.0, 2.0], np.float32))\n"


def _jit(expr: str) -> str:
    """``expr`` (calls of the helpers as ``ops.NAME``) run inside a jit-compiled Cell method."""
    names = sorted({w.split("(")[0] for w in expr.replace("ops.", " ops.").split() if w.startswith("ops.")})
    init = "".join(f"        self.{n[4:]} = {n}\n" for n in names)
    body = expr
    for n in names:
        body = body.replace(n + "(", f"self.{n[4:]}(")
    return (f"class N(nn.Cell):\n    def __init__(self):\n        super().__init__()\n{init}"
            f"    @ms.jit\n    def construct(self):\n        return {body}\nresult = N()()")


CASES = {
    "augassign": _T + "result = (ops.augassign_add(1, 2), ops.augassign_sub(5, 2), ops.augassign_mul(5, 2), "
                      "ops.augassign_div(5, 2), ops.augassign_floordiv(5, 2), ops.augassign_mod(5, 2), "
                      "ops.augassign_add(t, t), ops.augassign_add([1], [2]), ops.augassign_add('a', 'b'))",
    "bool_graph": _jit("ops.bool_and(True, False), ops.bool_or(True, False), ops.bool_eq(True, True)"),
    "bool_not": "result = ops.bool_not(True)",
    "string_graph": _jit("ops.string_concat('a', 'b'), ops.string_eq('a', 'b')"),
    "scalar_ne_graph": _jit("ops.scalar_ne(1, 2)"),
    "make_dict_graph": _jit("ops.make_dict(('a', 'b'), (1, 2)), ops.dict_setitem({'a': 1}, 'b', 2)"),
    "zip_graph": _jit("ops.zip_operation((1, 2), (3, 4))"),
    "tuples": "result = (ops.tuple_getitem((1, 2, 3), 1), ops.tuple_getitem((1, 2, 3), -1), "
              "ops.tuple_setitem((1, 2, 3), 1, 9), ops.tuple_len((1, 2, 3)), ops.tuple_len([1, 2]), "
              "ops.tuple_equal((1, 2), (1, 2)), ops.tuple_div((4, 6), (2, 3)), ops.tuple_reversed((1, 2, 3)))",
    "tuple_getitem_oob": "result = ops.tuple_getitem((1, 2, 3), 5)",
    "tuple_setitem_oob": "result = ops.tuple_setitem((1, 2), 5, 0)",
    "tuple_div_indivisible": "result = ops.tuple_div((5, 6), (2, 3))",
    "lists_dicts": "result = (ops.list_getitem([1, 2, 3], 1), ops.list_setitem([1, 2, 3], 1, 9), "
                   "ops.list_len([1, 2, 3]), ops.list_equal([1, 2], [1, 2]), ops.dict_getitem({'a': 1}, 'a'), "
                   "ops.in_dict('a', {'a': 1}), ops.not_in_dict('a', {'a': 1}), ops.is_(None, None), "
                   "ops.is_not(1, None))",
    "makers": "result = (ops.make_tuple(1, 2), ops.make_list(1, 2), str(ops.make_slice(1, 5, 2)), "
              "ops.make_range(1, 5, 2), ops.make_range(5))",
    "scalars_int": "result = tuple(getattr(ops, 'scalar_' + n)(7, 2) for n in ('add', 'sub', 'mul', 'div', "
                   "'floordiv', 'mod', 'pow', 'eq', 'lt', 'le', 'gt', 'ge', 'max', 'min'))",
    "scalars_float": "result = tuple(getattr(ops, 'scalar_' + n)(7.5, 2) for n in ('add', 'sub', 'mul', 'div', "
                     "'floordiv', 'mod', 'pow', 'eq', 'lt', 'le', 'gt', 'ge', 'max', 'min'))",
    "scalars_unary": "result = (ops.scalar_log(2.0), ops.scalar_log(8), ops.scalar_uadd(3), ops.scalar_usub(3))",
    "scalar_tensor": _T + "result = ops.scalar_add(t, 1)",
    "scalar_div_zero": "result = ops.scalar_div(1, 0)",
    "scalar_floordiv_zero": "result = ops.scalar_floordiv(1, 0)",
    "scalar_mod_zero": "result = ops.scalar_mod(1, 0)",
    "scalar_reprs": "result = (str(ops.scalar_add), str(ops.scalar_floordiv), str(ops.tuple_getitem), "
                    "str(ops.tuple_len), str(ops.make_tuple), type(ops.scalar_add).__name__)",
    "shapes": _T + "result = (ops.shape_(t), ops.dyn_shape(t), ops.reduced_shape((2, 3), (1,)), "
                   "ops.reduced_shape((2, 3), ()), ops.reduced_shape((2, 3), -1), ops.shape_mul((2, 3)), "
                   "ops.shape_mul(()))",
    "shape_mul_list": "result = ops.shape_mul([2, 3])",
    "shape_bad": "result = ops.shape_(1)",
    "broadcast_gradient_args": "result = (ops.broadcast_gradient_args((2, 3), (3,)), "
                               "ops.broadcast_gradient_args((2, 1, 3), (4, 1)), "
                               "ops.broadcast_gradient_args((1, 3), (1, 3)))",
    "predicates": _T + "result = (ops.is_tensor(t), ops.is_tensor(1), ops.is_nonzero(Tensor([1.0])), "
                       "ops.is_nonzero(Tensor(0)), ops.is_tensor_bool_cond(Tensor([True])), "
                       "ops.is_sequence_shape_unknown((1, 2)), ops.is_sequence_value_unknown((1, 2)), "
                       "ops.isconstant(1))",
    "is_nonzero_numel": "result = ops.is_nonzero(Tensor([1.0, 2.0]))",
    "is_nonzero_type": "result = ops.is_nonzero(1)",
    "is_tensor_bool_cond_shape": "result = ops.is_tensor_bool_cond(Tensor([1.0, 2.0]))",
    "element_unknown": "result = ops.is_dynamic_sequence_element_unknown((1, 2))",
    "deepcopy": _T + "y = ops.deepcopy(t)\ny[0] = 5.0\nresult = (t, y)",
    "hyper_add": _T + "result = (ops.hyper_add(t, t), ops.hyper_add((t, t), (t, t * 2)))",
    "hyper_add_number": _T + "result = ops.hyper_add((t, t), (t, 1))",
    "switch": "result = (ops.switch(True, 1, 2), ops.switch(False, 1, 2))",
    "switch_layer_int": "result = ops.switch_layer(1, (ops.exp, ops.sin))",
    "cond": "x = Tensor(np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]], np.float32))\n"
            "result = (ops.cond(x), ops.cond(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))))",
    "eps": "result = (ops.eps(Tensor([1.0, 2.0])), ops.eps(Tensor([1.0], ms.float16)), "
           "ops.Eps()(Tensor([1.0], ms.float64)))",
    "eps_int": "result = ops.eps(Tensor([1]))",
    "eps_not_tensor": "result = ops.eps(1)",
    "range": "result = (ops.range(0, 5, 2), ops.range(0.0, 1.0, 0.25), ops.range(5, 0, -2))",
    "range_zero_step": "result = ops.range(0, 5, 0)",
    "range_wrong_sign": "result = ops.range(5, 0, 1)",
    "range_mixed": "result = ops.range(0, 5, 0.5)",
    "stop_gradient_": _T + "result = ops.stop_gradient_(t)",
    "get_grad": "g = ms.grad(lambda x, y: x * y, (0, 1), return_ids=True)(Tensor(2.0), Tensor(3.0))\n"
                "result = (ops.get_grad(g, 0), ops.get_grad(g, 1))",
    "fori_loop": "result = (ops.ForiLoop()(0, 4, lambda i, r: i + r, 0), "
                 "ops.ForiLoop()(0, 3, lambda i, r: r * 2, Tensor([1.0])))",
    "fori_loop_float": "result = ops.ForiLoop()(0.5, 3, lambda i, r: r * 2, 1)",
    "while_loop": "result = ops.WhileLoop()(lambda x: x < 100, lambda x: x + 1, 10)",
    "scan": "result = (ops.Scan()(lambda r, e: (r + e, r), 0, [1, 2, 3]), "
            "ops.Scan()(lambda r, e: (r + e, r * 2), 0, (1, 2, 3)))",
    "identity_n": "result = ops.IdentityN()([Tensor([1, 2]), Tensor([4.0, 3.0])])",
    "identity_n_tensor": "result = ops.IdentityN()(Tensor([1]))",
    "check_numerics": "result = ops.CheckNumerics()(Tensor(np.array([[1, 3], [2, 4]], np.float32)))",
    "check_numerics_nan": "result = ops.CheckNumerics()(Tensor([np.nan]))",
    "check_numerics_inf": "result = ops.CheckNumerics()(Tensor([np.inf]))",
    "tensor_to_tuple": "result = (ops.TensorToTuple()(Tensor([1, 2])), ops.TensorToTuple()(Tensor([1.5])))",
    "prim_reprs": "result = tuple(str(p) for p in (ops.Eps(), ops.ForiLoop(), ops.IdentityN(), ops.CheckNumerics(), "
                  "ops.TensorToTuple(), ops.Scan(), ops.WhileLoop(), ops.Assert(summarize=2), ops.J))",
    "prim_attr_register": "from mindspore.ops import prim_attr_register, Primitive\n"
                          "class Add(Primitive):\n    @prim_attr_register\n    def __init__(self, attr1, attr2=5):\n"
                          "        pass\na = Add(attr1=1)\nresult = (str(a), a.attrs, a.name, a.attr1)",
    "prim_arg_register": "from mindspore.ops import prim_arg_register, PrimitiveWithCheck\n"
                         "class MM(PrimitiveWithCheck):\n    @prim_arg_register\n"
                         "    def __init__(self, transpose_a=False, transpose_b=False):\n"
                         "        self.init_prim_io_names(inputs=['x1', 'x2'], outputs=['output'])\n"
                         "m = MM(True)\nresult = (str(m), m.attrs, m.name, m.transpose_a)",
    "constexpr": "from mindspore.ops import constexpr\n@constexpr\ndef f(x):\n    return x * 2\n"
                 "@constexpr(get_instance=False)\ndef g(x):\n    return x + 1\nresult = (str(f), f(3), g()(3))",
    "morph_pynative": "def by100(x):\n    return x * 100\ndef same(s):\n    return s\nop = ops.Morph(by100, same, same)\n"
             "x = Tensor([1.0, 2.0])\nresult = (op(x), ms.grad(lambda a: (op(a) * a).sum())(x))",
    "linearize": "x = Tensor(np.array([[1, 2, 3], [3, 4, 5]], np.float32))\n"
                 "y = Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float32))\n"
                 "v = (Tensor(np.ones((2, 3), np.float32)), Tensor(np.array([[1, 1], [1, 1], [0, 0]], np.float32)))\n"
                 "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.matmul = ops.MatMul()\n"
                 "    def construct(self, a, b):\n        return self.matmul(a, b)\nout, fn = ops.linearize(Net(), (x, y))\nresult = (out, fn(v))",
    "cpu_reg_op": "from mindspore.ops import CpuRegOp, AiCPURegOp, DataType\n"
                  "a = CpuRegOp('Abs').input(0, 'x', 'required').output(0, 'y', 'required').attr('a', 'int')"
                  ".dtype_format(DataType.F32_Default, DataType.F32_Default).get_op_info()\n"
                  "b = AiCPURegOp('Stack').fusion_type('OPAQUE').attr('axis', 'int').input(0, 'x', 'dynamic')"
                  ".output(0, 'y', 'required').dtype_format(DataType.I8_Default, DataType.I8_Default).get_op_info()\n"
                  "result = (a, b)",
    "set_comm_ops_inplace": "from mindspore.ops.communication import set_comm_ops_inplace\n"
                            "result = (set_comm_ops_inplace(True), set_comm_ops_inplace(False, ['all_reduce']))",
    "set_comm_ops_inplace_bad": "result = ops.set_comm_ops_inplace(1)",
    "vm_impl_registry": "from mindspore.ops import vm_impl_registry, get_vm_impl_fn\n"
                        "@vm_impl_registry.register('MyDouble')\ndef vm_impl_double(self):\n    return lambda x: 2 * x\n"
                        "result = (get_vm_impl_fn('MyDouble')(21), get_vm_impl_fn('NoSuchThing'))",
    "tbe_reg_op": "from mindspore.ops import TBERegOp, DataType, op_info_register\n"
                  "info = TBERegOp('Abs').fusion_type('ELEMWISE').async_flag(False).binfile_name('abs.so')"
                  ".compute_cost(10).kernel_name('abs').partial_flag(True).op_pattern('formatAgnostic')"
                  ".attr('format', 'required', 'str', 'all').input(0, 'x', None, 'required', None)"
                  ".output(0, 'y', True, 'required', 'all').dtype_format(DataType.F16_None, DataType.F16_None)"
                  ".real_input_index([1, 0]).get_op_info()\n"
                  "@op_info_register(info)\ndef _abs_tbe():\n    return 7\nresult = (info, _abs_tbe())",
    "akg_reg_op": "from mindspore.ops import AkgGpuRegOp, AkgAscendRegOp, DataType\n"
                  "result = tuple(c('A').fusion_type('OPAQUE').input(0, 'x').output(0, 'y')"
                  ".attr('a', 'required', 'int').dtype_format(DataType.F32_Default, DataType.F32_Default)"
                  ".get_op_info() for c in (AkgGpuRegOp, AkgAscendRegOp))",
}
_MSG = ["tuple_getitem_oob", "tuple_setitem_oob", "tuple_div_indivisible", "scalar_div_zero", "scalar_floordiv_zero",
        "scalar_mod_zero", "shape_mul_list", "shape_bad", "is_nonzero_numel", "is_nonzero_type",
        "is_tensor_bool_cond_shape", "element_unknown", "switch_layer_int", "eps_int", "eps_not_tensor",
        "range_zero_step", "range_wrong_sign", "range_mixed", "fori_loop_float", "identity_n_tensor",
        "check_numerics_nan", "check_numerics_inf"]
OPTIONS = {name: {"message": True} for name in _MSG + ["morph_pynative", "set_comm_ops_inplace_bad"]}
OPTIONS["hyper_add_number"] = {"message_parts": ["For 'MultitypeFuncGraph', cannot find fn match given args."],
                               "why": "the wheel lists its registered functions with their addresses"}

# mint.distributed and the same names in ops, before any init_process_group: what the wheel answers in one
# process (the collectives themselves need an initialised group, which the CPU wheel cannot start alone; their
# group-of-one behaviour is checked in tests/mint/test_distributed_group_of_one.py)
CASES.update({
    "dist_queries": "from mindspore.mint import distributed as dist\n"
                    "result = (dist.is_available(), dist.is_initialized(), dist.get_rank(), ops.is_available(), "
                    "ops.is_initialized())",
    "dist_world_size": "from mindspore.mint import distributed as dist\nresult = dist.get_world_size()",
    "dist_backend": "from mindspore.mint import distributed as dist\nresult = dist.get_backend()",
})

# the top level: dtype aliases and abstract types, parallel contexts, memory statistics, graph settings
_ALIASES = ("byte", "short", "long", "ushort", "uintc", "uintp", "ubyte", "intc", "intp", "cdouble", "cfloat", "int_",
            "uint", "number", "string", "list_", "tuple_", "type_none", "tensor_type")
CASES.update({
    "dtype_aliases": f"result = tuple((repr(getattr(ms, n)), str(getattr(ms, n))) for n in {_ALIASES!r})",
    "dtype_alias_equal": "result = (ms.byte == ms.int8, ms.long == ms.int64, ms.cfloat == ms.complex64, "
                         "ms.intp == ms.int64, ms.uintp == ms.uint64)",
    "tensor_type_int": "result = (repr(ms.TensorType(ms.float32)), str(ms.TensorType(ms.float32)), repr(ms.Int(32)), "
                       "repr(ms.Int()), ms.Int(16) == ms.int16, ms.TensorType(ms.int32) == ms.TensorType(ms.int32))",
    "get_py_obj_dtype": "result = tuple(repr(ms.get_py_obj_dtype(v)) for v in (1, 1.0, Tensor([1.0]), ms.float32, "
                        "'a', [1], (1,), None))",
    "typeof_hastype": "t = Tensor([1.0])\nresult = (repr(ops.typeof(t)), repr(ops.typeof(1)), ops.hastype(t, ms.float32), "
                      "ops.hastype(t, ms.tensor_type), ops.hastype(1, ms.int64), ops.hastype(1, ms.number))",
    "syntax_levels": "result = (ms.STRICT, ms.COMPATIBLE, ms.LAX)",
    "auto_parallel_context": "keys = ('device_num', 'global_rank', 'gradients_mean', 'gradient_fp32_sync', "
                             "'loss_repeated_mean', 'parallel_mode', 'search_mode', 'parameter_broadcast', "
                             "'full_batch', 'dataset_strategy', 'enable_parallel_optimizer', 'all_reduce_fusion_config', "
                             "'pipeline_stages', 'grad_accumulation_step', 'strategy_ckpt_config', 'comm_fusion', "
                             "'optimizer_weight_shard_size', 'sharding_propagation')\n"
                             "before = [ms.get_auto_parallel_context(k) for k in keys]\n"
                             "ms.set_auto_parallel_context(device_num=8, parallel_mode=ms.ParallelMode.DATA_PARALLEL, "
                             "gradients_mean=True)\n"
                             "during = [ms.get_auto_parallel_context(k) for k in ('device_num', 'parallel_mode', "
                             "'gradients_mean')]\nms.reset_auto_parallel_context()\n"
                             "result = (before, during, ms.get_auto_parallel_context('device_num'))",
    "auto_parallel_bad_key": "result = ms.get_auto_parallel_context('bad')",
    "auto_parallel_bad_set": "result = ms.set_auto_parallel_context(bad=1)",
    "auto_parallel_bad_mode": "result = ms.set_auto_parallel_context(parallel_mode='xx')",
    "parallel_mode": "P = ms.ParallelMode\nresult = (P.STAND_ALONE, P.DATA_PARALLEL, P.AUTO_PARALLEL, "
                     "P.SEMI_AUTO_PARALLEL, P.HYBRID_PARALLEL, P.MODE_LIST)",
    "algo_parameters": "keys = ('fully_use_devices', 'elementwise_op_strategy_follow', 'enable_algo_approxi', "
                       "'algo_approxi_epsilon', 'tensor_slice_align_enable', 'tensor_slice_align_size')\n"
                       "before = [ms.get_algo_parameters(k) for k in keys]\n"
                       "ms.set_algo_parameters(elementwise_op_strategy_follow=True, tensor_slice_align_size=8)\n"
                       "during = [ms.get_algo_parameters(k) for k in keys]\nms.reset_algo_parameters()\n"
                       "result = (before, during, ms.get_algo_parameters('tensor_slice_align_size'))",
    "algo_bad_key": "result = ms.get_algo_parameters('bad')",
    "algo_bad_set": "result = ms.set_algo_parameters(bad=1)",
    "ps_context": "before = [ms.get_ps_context(k) for k in ('enable_ps', 'config_file_path', 'enable_ssl')]\n"
                  "ms.set_ps_context(enable_ssl=True, client_password='', server_password='')\n"
                  "result = (before, ms.get_ps_context('enable_ssl'))\nms.set_ps_context(enable_ssl=False)",
    "ps_bad_key": "result = ms.get_ps_context('client_password')",
    "ps_bad_set": "result = ms.set_ps_context(bad=1)",
    "memory": "result = (ms.synchronize(), ms.empty_cache(), ms.memory_allocated(), ms.max_memory_allocated(), "
              "ms.memory_reserved(), ms.max_memory_reserved(), ms.reset_peak_memory_stats(), "
              "ms.reset_max_memory_allocated(), ms.reset_max_memory_reserved(), ms.memory_stats(), "
              "ms.memory_summary(), ms.ms_memory_recycle(), ms.async_ckpt_thread_status())",
    "settings": "result = (ms.set_recursion_limit(500), ms.set_recursion_limit())",
    "set_deterministic_twice": "try:\n    ms.set_deterministic(True)\nexcept RuntimeError:\n"
                               "    pass\nresult = ms.set_deterministic(False)",
    "set_deterministic_int": "result = ms.set_deterministic(1)",
    "set_recursion_limit_negative": "result = ms.set_recursion_limit(-1)",
    "log_level": "result = (ms.get_level(), ms.get_log_config())",
    "frombuffer": "data = bytearray([1, 2, 3, 4, 5, 6])\n"
                  "result = (ms.frombuffer(data, dtype=ms.uint8), ms.frombuffer(data, ms.int16, count=2, offset=2), "
                  "ms.frombuffer(np.array([1.0, 2.0], np.float32).tobytes(), ms.float32))",
    "jit_class": "from mindspore import jit_class\n@jit_class\nclass User:\n    def __init__(self):\n"
                 "        self.value = 10\n    def func(self, x):\n        return 2 * x\n"
                 "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.net = User()\n"
                 "    def construct(self, x):\n        return self.net.value + self.net.func(x)\nresult = Net()(5)",
    "no_inline_lazy_inline": "from mindspore import no_inline, lazy_inline\n@no_inline\ndef f(x):\n    return x + 1\n"
                             "class Net(nn.Cell):\n    @lazy_inline\n    def __init__(self):\n        super().__init__()\n"
                             "    def construct(self, x):\n        return f(x) * 2\nresult = Net()(Tensor([1.0]))",
})
for _n in ("auto_parallel_bad_key", "auto_parallel_bad_set", "auto_parallel_bad_mode", "algo_bad_key", "algo_bad_set",
           "ps_bad_key", "ps_bad_set", "set_deterministic_int", "set_deterministic_twice",
           "set_recursion_limit_negative"):
    OPTIONS[_n] = {"message": True}

# Tensor's odds and ends
CASES.update({
    "tensor_state": "x = Tensor([1.0, 2.0])\nresult = (x.data, x.value(), x.has_init, x.init, x.init_flag, "
                    "x.init_finished, x.is_init(), x.const_arg, x.is_pinned(), x.is_shared(), x.device, x.is_meta, "
                    "Tensor.delta_seed, x.flush_from_cache(), isinstance(x.data_ptr(), int))",
    "tensor_is_signed": "result = (Tensor([1.0]).is_signed(), Tensor([True]).is_signed(), "
                        "Tensor([1], ms.uint8).is_signed(), Tensor([1], ms.int64).is_signed())",
    "tensor_itemset": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))\n"
                      "result = (x.itemset((0, 1), 4), x.itemset(5, 0.5), x, Tensor([3.0]).itemset(1.5))",
    "tensor_itemset_one_arg": "result = Tensor([[1, 2], [3, 4]]).itemset(7)",
    "tensor_new_empty": "x = Tensor([[1, 2, 3], [4, 5, 6]])\nresult = (x.new_empty((2, 3)).shape, "
                        "str(x.new_empty((2, 3)).dtype), str(x.new_empty((1,), dtype=ms.float64).dtype))",
    "tensor_set_const_arg": "x = Tensor([1.0])\ny = x.set_const_arg(True)\nresult = (y is x, x.const_arg)",
    "tensor_set_const_arg_int": "result = Tensor([1.0]).set_const_arg(1)",
    "tensor_byte_short": "x = Tensor([1.7, -1.0, 300.0])\nresult = (x.byte(), x.short(), Tensor([1, 2], ms.int32).short())",
    "tensor_move_to": "result = Tensor([1, 2, 3], ms.int64).move_to('CPU')",
    "tensor_move_to_gpu": "result = Tensor([1.0]).move_to('GPU')",
    "tensor_move_to_bad": "result = Tensor([1.0]).move_to('XYZ')",
    "tensor_bytes": "x = Tensor([1, 2, 3], ms.int16)\n"
                    "result = (x.get_bytes(), Tensor([1.0], ms.float32).get_bytes(), "
                    "Tensor.convert_bytes_to_tensor(x.get_bytes(), x.shape, x.dtype).asnumpy())",
})
for _n in ("tensor_itemset_one_arg", "tensor_set_const_arg_int", "tensor_move_to_gpu", "tensor_move_to_bad"):
    OPTIONS[_n] = {"message": True}

# higher-order forward derivatives (the Cell form MindSpore's examples use)
_SINEXP = ("class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.sin = ops.Sin()\n"
           "        self.exp = ops.Exp()\n    def construct(self, x):\n        return self.exp(self.sin(x))\n"
           "x = Tensor(np.array([[1, 2], [3, 4]], np.float32))\n")
CASES.update({
    "jet": _SINEXP + "series = Tensor(np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]], [[0, 0], [0, 0]]], np.float32))\n"
                     "result = ops.jet(Net(), x, series)",
    "jet_second_series": _SINEXP + "series = Tensor(np.array([[[1, 0], [2, 1]], [[1, 1], [0, 3]]], np.float32))\n"
                                   "result = ops.jet(Net(), x, series)",
    "derivative": _SINEXP + "result = (ops.derivative(Net(), x, 1), ops.derivative(Net(), x, 2))",
})
OPTIONS.update({n: {"rtol": 1e-4, "atol": 1e-5} for n in ("jet", "jet_second_series", "derivative")})

CASES.update({
    "merge_sliced_parameter": "from mindspore import Parameter\nparts = [Parameter(Tensor(np.array([0.1, 0.2, -0.3])), 'emb'), "
                              "Parameter(Tensor(np.array([0.4, 0.5, -0.6])), 'emb')]\n"
                              "m = ms.merge_sliced_parameter(parts)\nresult = (str(m), m.name, m.asnumpy(), "
                              "str(ms.merge_sliced_parameter([Parameter(Tensor(np.ones((2, 2), np.float32)), 'w'), "
                              "Parameter(Tensor(np.zeros((1, 2), np.float64)), 'w')])))",
    "merge_sliced_parameter_names": "from mindspore import Parameter\nresult = ms.merge_sliced_parameter([Parameter(Tensor(np.ones((2, 2), np.float32)), "
                                    "'w'), Parameter(Tensor(np.zeros((2, 2), np.float32)), 'v')])",
    "merge_sliced_parameter_empty": "result = ms.merge_sliced_parameter([])",
    "merge_sliced_parameter_tuple": "result = ms.merge_sliced_parameter((1, 2))",
    "dlpack_round_trip": "from mindspore.utils.dlpack import to_dlpack, from_dlpack\n"
                         "x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
                         "y = from_dlpack(to_dlpack(x))\nz = ms.from_dlpack(ms.to_dlpack(Tensor([1, 2], ms.int32)))\n"
                         "result = (y, z)",
})
for _n in ("merge_sliced_parameter_names", "merge_sliced_parameter_empty", "merge_sliced_parameter_tuple"):
    OPTIONS[_n] = {"message": True}
