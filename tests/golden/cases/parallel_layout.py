"""Names of MindSpore's front end that describe rather than compute (mskernel.parallel, mskernel.common.recompute,
mskernel.common.symbol, mskernel.runtime): Layout's tensor maps and errors, recompute's values and gradients, Symbol
dimensions, the CPU's stream and events and the launch settings, which change no result."""
_L = "from mindspore.parallel import Layout\nl = Layout((2, 2, 2), ('dp', 'sp', 'mp'))\n"
CASES = {
    "layout_map": _L + "result = l('dp', 'mp').to_dict()",
    "layout_none": _L + "result = l('dp', 'None').to_dict()",
    "layout_tuple": _L + "result = l(('dp', 'sp'), 'mp').to_dict()",
    "layout_interleaved": "from mindspore.parallel import Layout\nresult = Layout((2, 2, 2), ('dp', 'sp', 'interleaved_parallel'))(('dp', 'interleaved_parallel'), 'sp').to_dict()",
    "layout_rank_list": "from mindspore.parallel import Layout\nresult = Layout((2, 4), ('a', 'b'), rank_list=[7, 6, 5, 4, 3, 2, 1, 0])('b', 'a').to_dict()",
    "layout_top_level": "result = ms.Layout((4,), ('dp',))('dp').to_dict()",
    "layout_no_map": _L + "result = l.to_dict()",
    "layout_bad_axis": _L + "result = l('x')",
    "layout_axis_twice": _L + "result = l('dp', 'dp')",
    "layout_lengths": "from mindspore.parallel import Layout\nresult = Layout((2, 2), ('a',))",
    "layout_duplicate_names": "from mindspore.parallel import Layout\nresult = Layout((2, 2), ('a', 'a'))",
    "layout_list_matrix": "from mindspore.parallel import Layout\nresult = Layout([2, 2], ('a', 'b'))",
    "layout_none_name": "from mindspore.parallel import Layout\nresult = Layout((2, 2), ('a', 'None'))",
    "recompute_function": "x = Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))\nresult = ms.recompute(lambda a, b: ops.relu(a) * b, x, b=2.0)",
    "recompute_function_not_reentrant": "x = Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))\nresult = ms.recompute(lambda a, b: ops.relu(a) * b, x, b=2.0, use_reentrant=False)",
    "recompute_cell": "x = Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))\nresult = ms.recompute(nn.ReLU(), x)",
    "recompute_grad": "conv = nn.Conv2d(2, 2, 2, has_bias=False, weight_init='ones')\nx = Tensor(np.ones([2, 2, 2, 2], np.float32) * 2)\n"
                      "result = ops.grad(lambda a: ops.relu(ms.recompute(conv, a)).sum())(x)",
    "symbol_str": "result = (str(ms.Symbol(max=8)), str(ms.Symbol(divisor=8, remainder=1)), str(ms.Symbol()), list(eval(str(ms.Symbol(unique=True)))))",
    "symbol_placeholder": "s = ms.Symbol(max=32, unique=True)\nresult = Tensor(shape=(None, s, 3), dtype=ms.float32).shape",
    "symbol_set_inputs": "class Net(nn.Cell):\n    def construct(self, x):\n        return x * 2\n"
                         "net = Net()\ns1 = ms.Symbol(divisor=8, remainder=1)\ns2 = ms.Symbol(max=32, unique=True)\n"
                         "net.set_inputs(Tensor(shape=(None, s1, s2, s2), dtype=ms.float32))\n"
                         "result = [net(Tensor(np.ones(shp, np.float32))).shape for shp in [(1, 9, 4, 4), (2, 10, 33, 33), (1, 9, 4, 5)]]",
    "symbol_bad_divisor": "result = ms.Symbol(divisor=0)",
    "launch_settings": "result = (ms.runtime.launch_blocking(), ms.runtime.dispatch_threads_num(3), ms.runtime.set_cpu_affinity(True), "
                       "ms.runtime.set_memory(max_size='2GB'), ms.runtime.set_stream_limit(ms.runtime.Stream(), 2, 3), "
                       "ms.runtime.reset_stream_limit(ms.runtime.Stream()), ms.set_device_limit(0, 2, 3), ms.synchronize())",
    "launch_capture_then_group": "ms.runtime.set_kernel_launch_capture(True, ['matmul'])\nresult = ms.runtime.set_kernel_launch_group()",
}
OPTIONS = {k: {"message": True} for k in ("layout_no_map", "layout_bad_axis", "layout_axis_twice", "layout_lengths",
                                          "layout_duplicate_names", "layout_list_matrix", "layout_none_name",
                                          "recompute_function", "symbol_bad_divisor",
                                          "launch_capture_then_group")}
