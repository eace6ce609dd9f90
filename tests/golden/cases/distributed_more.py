"""Collective communication as rank 0 of a group of one (ops/table/comm.py, nn/wrap/micro_batch.py,
nn/wrap/grad_reducer.py, parallel/shard.py, ops/reshard.py, communication/tcp_store.py, train/data_sink.py).

The cases that call ``init()`` need a cluster of one worker: the CPU wheel's ``init()`` raises without ``msrun``,
so these goldens were recorded with a scheduler process beside the recorder (``python
tests/golden/record_one_worker.py distributed_more``). Those cases never raise (an error case is re-run in a
process of its own, which could not join the cluster again); the errors are checked by cases without ``init()``.
The collectives the CPU wheel has no kernel for (ReduceScatter, AlltoAll, Reduce, Barrier, the V forms, the
gradient of AllGather, ...) are checked against numpy in tests/ops/test_comm.py.
"""
# init() in a one-worker cluster; each case puts the flag back as it found it (``_DONE``), so that later suites
# see communication as they expect (uninitialised unless they call init() themselves)
_INIT = ("from mindspore.communication import init\nfrom mindspore.communication.management import GlobalComm\n"
         "_was = GlobalComm.INITED\ninit()\n")
_DONE = "\nGlobalComm.INITED = _was"
_X = "x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\n"
_NET = "net = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')\n"
_B = "b = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))\n"
CASES = {
    # values and gradients the wheel computes in a one-worker cluster
    "all_reduce": _INIT + _X + "result = (ops.AllReduce()(x), ops.AllReduce(ops.ReduceOp.SUM)(x * 2))",
    "all_reduce_grad": _INIT + _X + "result = ms.grad(lambda a: (ops.AllReduce()(a) * a).sum())(x)",
    "all_reduce_print": _INIT + _X + "print(ops.AllReduce()(x))\nresult = None",
    "all_gather": _INIT + _X + "result = (ops.AllGather()(x), ops.AllGather()(x.astype(ms.int32)))",
    "broadcast": _INIT + _X + "result = ops.Broadcast(0)((x,))",
    "broadcast_grad": _INIT + _X + "result = ms.grad(lambda a: (ops.Broadcast(0)((a,))[0] * 3).sum())(x)",
    "grad_reducer": _INIT + _X + "w = ms.Parameter(x, 'w')\nresult = nn.DistributedGradReducer([w])((x * 2,))",
    "grad_reducer_mean": _INIT + _X + "ps = [ms.Parameter(x, 'w'), ms.Parameter(x, 'v')]\n"
                         "result = nn.DistributedGradReducer(ps, mean=True, degree=2)((x.astype(ms.float16), x * 3))",
    "grad_reducer_layerwise": _INIT + _X + "ps = [ms.Parameter(x, 'w', layerwise_parallel=True)]\n"
                              "result = nn.DistributedGradReducer(ps, mean=True, degree=4)((x,))",
    "shard_one_device": _INIT + "f = lambda a: a * 2\nresult = ms.shard(f, ((1,),)) is f",
    "reshard_one_device": _INIT + _X + "from mindspore.parallel import Layout\n"
                          "result = ops.reshard(x, Layout((1,), ('dp',))('dp', 'None')) is x",
    # no communication: the micro-batch cells, ReduceOp, Reshard, TCPStore
    "reduce_op": "result = (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD, ops.ReduceOp.AVG)",
    "pipeline_cell": _NET + _B + "result = nn.PipelineCell(net, 2)(b)",
    "pipeline_cell_grad": _NET + _B + "result = ms.grad(lambda a: (nn.PipelineCell(net, 2)(a) * Tensor([1.0, 2.0])).sum())(b)",
    "pipeline_cell_weights_grad": _NET + _B + "pc = nn.PipelineCell(net, 4)\n"
                                  "result = ms.grad(lambda a: pc(a).sum(), None, net.trainable_params())(b)",
    "grad_accumulation_cell": _NET + _B + "result = nn.GradAccumulationCell(net, 4)(b)",
    "micro_batch_interleaved": _NET + _B + "result = nn.MicroBatchInterleaved(net, 2)(b)",
    "micro_batch_interleaved_int": "class Id(nn.Cell):\n    def construct(self, a):\n        return a\n"
                                   "result = nn.MicroBatchInterleaved(Id(), 2)(Tensor(np.arange(4).reshape(4, 1), ms.int32))",
    "pipeline_cell_two_inputs": "class Mul(nn.Cell):\n    def construct(self, a, c):\n        return a * c\n"
                                + _B + "result = nn.PipelineCell(Mul(), 2)(b, b + 1)",
    "pipeline_cell_stage_config": _NET + "class Two(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
                                  "        self.d = net\n    def construct(self, a):\n        return self.d(a)\n"
                                  "t = Two()\nnn.PipelineCell(t, 1, stage_config={'d': 1})\n"
                                  "result = t.d.pipeline_stage",
    "virtual_dataset_cell_triple": "class Add3(nn.Cell):\n    def construct(self, a, b, c):\n        return a + b * c\n"
                                   "result = nn.VirtualDatasetCellTriple(Add3())(Tensor([1.0]), Tensor([2.0]), Tensor([3.0]))",
    "pipeline_grad_reducer": _X + "ps = ms.ParameterTuple([ms.Parameter(x, 'w')])\n"
                             "r = nn.PipelineGradReducer(ps, scale_sense=2.0)\nresult = r((x,))",
    "pipeline_grad_reducer_opt_shard": _X + "ps = ms.ParameterTuple([ms.Parameter(x, 'w')])\n"
                                       "r = nn.PipelineGradReducer(ps, scale_sense=4.0, opt_shard=True)\nresult = r((x,))",
    "reshard_primitive": _X + "from mindspore.parallel import Layout\nlay = Layout((1,), ('dp',))('dp', 'None')\n"
                         "result = ops.Reshard((lay,), (lay,), ((1, 1),))(x) is x",
    "parameter_broadcast_no_layout": _NET + "result = ms.parameter_broadcast(net, {})",
    "tcp_store": "s = ops.TCPStore('127.0.0.1', 29617, 1, True)\n"
                 "result = (s.set('a', 'xy'), s.get('a'), s.set('b', b'\\x00z'), s.get('b'), s.add('n', 3), "
                 "s.add('n', 4), s.get('n'), s.delete_key('a'), s.delete_key('zz'))",
    # errors (no init: each may be re-run alone)
    "all_reduce_op_type": _X + "result = ops.AllReduce(op=1)(x)",
    "all_reduce_group_type": _X + "result = ops.AllReduce(group=1)(x)",
    "all_gather_group_type": _X + "result = ops.AllGather(group=1)(x)",
    "reduce_scatter_op_type": _X + "result = ops.ReduceScatter(op=1)(x)",
    "reduce_scatter_group_type": _X + "result = ops.ReduceScatter(group=2)(x)",
    "broadcast_root_type": _X + "result = ops.Broadcast(1.5)((x,))",
    "broadcast_group_type": _X + "result = ops.Broadcast(0, group=1)((x,))",
    "all_to_all_group_type": _X + "result = ops.AlltoAll(1, 0, 0, group=1)(x)",
    "all_to_all_count_type": _X + "result = ops.AlltoAll(1.5, 0, 0)(x)",
    "reduce_op_type": _X + "result = ops.Reduce(0, op=1)(x)",
    "collective_gather_group_type": _X + "result = ops.CollectiveGather(0, group=1)(x)",
    "all_gather_v_group_type": _X + "result = ops.AllGatherV(group=1)(x, [6])",
    "reduce_scatter_v_op_type": _X + "result = ops.ReduceScatterV(op=1)(x, [6])",
    "all_to_all_v_block_size": _X + "result = ops.AlltoAllV(block_size=1.5)(x, [6], [6])",
    "all_to_all_v_c_block_size": _X + "result = ops.AlltoAllVC(block_size='a')(x, [6])",
    "grad_reducer_degree": "result = nn.DistributedGradReducer([], degree=0)",
    "pipeline_cell_network": "result = nn.PipelineCell(1, 2)",
    "pipeline_cell_micro_size_type": _NET + "result = nn.PipelineCell(net, 2.0)",
    "pipeline_cell_micro_size": _NET + "result = nn.PipelineCell(net, 0)",
    "pipeline_cell_indivisible": _NET + _B + "result = nn.PipelineCell(net, 3)(b)",
    "pipeline_cell_shard": _NET + "result = nn.PipelineCell(net, 2).shard(((1, 1),))",
    "micro_batch_interleaved_num": _NET + "result = nn.MicroBatchInterleaved(net, 0)",
    "micro_batch_interleaved_num_type": _NET + "result = nn.MicroBatchInterleaved(net, 'a')",
    "grad_accumulation_cell_micro_size": _NET + "result = nn.GradAccumulationCell(net, 0)",
    "grad_accumulation_cell_network": "result = nn.GradAccumulationCell('net', 2)",
    "tcp_store_port": "result = ops.TCPStore('127.0.0.1', 70000)",
    "tcp_store_host_type": "result = ops.TCPStore(1, 29618)",
    "tcp_store_world_size": "result = ops.TCPStore('127.0.0.1', 29619, 0)",
    "tcp_store_set_value": "s = ops.TCPStore('127.0.0.1', 29620, 1, True)\nresult = s.set('k', 1)",
    "tcp_store_add_amount": "s = ops.TCPStore('127.0.0.1', 29621, 1, True)\nresult = s.add('k', 1.5)",
    "tcp_store_add_text": "s = ops.TCPStore('127.0.0.1', 29622, 1, True)\ns.set('q', 'x')\nresult = s.add('q', 1)",
    "gather_into_tensor_input": _X + "result = ops.gather_into_tensor(x, 1)",
    "gather_into_tensor_dst": _X + "result = ops.gather_into_tensor(x, x, dst='0')",
    "scatter_tensor_output": _X + "result = ops.scatter_tensor(1, x)",
    "scatter_tensor_group": _X + "result = ops.scatter_tensor(x, x, group=1)",
    "all_to_all_v_c_matrix_type": _X + "result = ops.all_to_all_v_c(x, x, Tensor([6]))",
    "all_to_all_v_c_async_type": _X + "result = ops.all_to_all_v_c(x, x, [6], async_op=1)",
    "data_sink_cpu": "import mindspore.dataset as ds\n"
                     "data = ds.NumpySlicesDataset({'x': np.ones((2, 1), np.float32)}, shuffle=False)\n"
                     "result = ms.data_sink(lambda a: a, data)",
    "data_sink_size": "import mindspore.dataset as ds\n"
                      "data = ds.NumpySlicesDataset({'x': np.ones((2, 1), np.float32)}, shuffle=False)\n"
                      "result = ms.data_sink(lambda a: a, data, sink_size=0)",
    "connect_network_not_sink": _NET + "import mindspore.dataset as ds\n"
                                "data = ds.NumpySlicesDataset({'x': np.ones((2, 3), np.float32)}, shuffle=False)\n"
                                "helper = ms.DatasetHelper(data, dataset_sink_mode=False)\n"
                                "result = ms.connect_network_with_dataset(net, helper)",
}
CASES.update({k: v + _DONE for k, v in CASES.items() if v.startswith(_INIT)})
_ERRORS = [k for k in CASES if k.endswith(("_type", "_degree", "_network", "_size", "_indivisible", "_shard", "_num",
                                           "_port", "_world_size", "_value", "_amount", "_text", "_input", "_dst",
                                           "_output", "_group", "_cpu", "_not_sink"))
           and k != "pipeline_grad_reducer_opt_shard"]
OPTIONS = {k: {"message": True} for k in _ERRORS}
OPTIONS["all_reduce_print"] = {"stdout": True}
OPTIONS["all_to_all_v_c_matrix_type"] = {"message_parts": ["send_count_matrix must be list, but got <class '",
                                                           ".common.tensor.Tensor'>"],
                                         "why": "the Tensor class's module is mindspore's in the wheel, mskernel's here"}
