"""THOR: the layers' forwards and their Kronecker-factor statistics (forward and backward), nn.thor's optimizer
as built on CPU, ConvertNetUtils/ConvertModelUtils, and the error texts (the CPU wheel cannot run THOR's step:
no CholeskyTrsm kernel; that rule is tested against numpy in tests/test_thor.py)."""
# ruff: noqa: E501
_DENSE = """
x = Tensor(np.array([[1, 2, 3], [3, 4, 5]]), ms.float32)
w = Tensor(np.arange(12).reshape(4, 3).astype(np.float32) / 10)
net = nn.DenseThor(3, 4, weight_init=w, bias_init=Tensor(np.array([1, -20, 1, 1], np.float32)), activation='relu')
"""
_EMB = """
table = Tensor(np.arange(15).reshape(5, 3).astype(np.float32) / 4)
ids = Tensor(np.array([[1, 2], [1, 4]]), ms.int32)
"""
_NET = """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 3)
        self.body = nn.SequentialCell([nn.Dense(3, 4, activation='relu'), nn.Dense(4, 2)])
        self.wide = nn.Dense(2, 2)
        self.conv = nn.Conv2d(1, 2, 3)
        self.norm = nn.LayerNorm((2,))
    def construct(self, x):
        return self.norm(self.wide(self.body(self.emb(x))))
net = Net()
lr = Tensor(np.array([0.1] * 4, np.float32))
"""

CASES = {
    "dense_forward_ones": "net = nn.DenseThor(3, 4, weight_init='ones')\nx = Tensor(np.array([[1, 2, 3], [3, 4, 5]]), ms.float32)\nresult = (net(x), net.matrix_a, net.matrix_g)",
    "dense_repr_and_params": "net = nn.DenseThor(3, 4)\nprint(net)\nresult = ([p.name for p in net.get_parameters()], [p.requires_grad for p in net.get_parameters()], net.thor)",
    "dense_repr_no_bias": "print(nn.DenseThor(2, 5, has_bias=False))\nresult = nn.DenseThor(2, 5, has_bias=False).bias",
    "dense_grad_and_statistics": _DENSE + "gf = ms.grad(lambda x: (net(x) ** 2).sum(), grad_position=0, weights=net.trainable_params())\ng = gf(x)\nresult = (g, net.matrix_a, net.matrix_g)",
    "dense_thor_off_keeps_statistics": _DENSE + "net.thor = False\ngf = ms.grad(lambda x: (net(x) ** 2).sum(), grad_position=0)\nresult = (net(x), gf(x), net.matrix_a, net.matrix_g)",
    "dense_weight_shape_error": "result = nn.DenseThor(3, 4, weight_init=Tensor(np.ones((3, 4), np.float32)))",
    "dense_in_channels_error": "result = nn.DenseThor(0, 4)",
    "embedding_forward_and_counts": _EMB + "e = nn.EmbeddingThor(5, 3, embedding_table=table)\nresult = (e(ids), e.matrix_a, e.matrix_g)",
    "embedding_grad_and_statistics": _EMB + "e = nn.EmbeddingThor(5, 3, embedding_table=table)\ngf = ms.grad(lambda i: (e(i) ** 3).sum(), grad_position=None, weights=e.trainable_params())\nresult = (gf(ids), e.matrix_a, e.matrix_g)",
    "embedding_one_hot": _EMB + "e = nn.EmbeddingThor(5, 3, True, embedding_table=table)\nresult = (e(ids), e.matrix_a)",
    "embedding_padding_idx": _EMB + "e = nn.EmbeddingThor(5, 3, embedding_table=table, padding_idx=2)\nresult = (e(ids), e.embedding_table)",
    "embedding_repr": "e = nn.EmbeddingThor(5, 3, embedding_table='ones')\nprint(e)\nresult = [p.name for p in e.get_parameters()]",
    "embedding_vocab_type_error": "result = nn.EmbeddingThor(5.0, 3)",
    "lookup_cpu_forward": "e = nn.EmbeddingLookupThor(4, 2, param_init=Tensor(np.arange(8).reshape(4, 2).astype(np.float32)))\nout = e(Tensor(np.array([[1, 0], [3, 2]]), ms.int32))\nprint(e)\nresult = (out, e.embedding_table.dtype, e.matrix_a, [p.name for p in e.get_parameters()])",
    "lookup_target_error": "result = nn.EmbeddingLookupThor(4, 2, target='GPU')",
    "lookup_sparse_error": "result = nn.EmbeddingLookupThor(4, 2, sparse=False)",
    "conv_thor_off_forward": "net = nn.Conv2dThor(2, 3, 2, weight_init='ones', has_bias=True, bias_init='ones')\nnet.thor = False\nx = Tensor(np.arange(36).reshape(2, 2, 3, 3).astype(np.float32))\nresult = (net(x), net.matrix_a_cov.shape, net.matrix_g_cov.shape, net.a_normalizer)",
    "conv_repr_and_params": "net = nn.Conv2dThor(4, 6, (3, 2), stride=2, pad_mode='pad', padding=1, group=2)\nprint(net)\nresult = ([(p.name, p.shape) for p in net.get_parameters()], net.matrix_a_dim, net.matrix_g_dim)",
    "conv_group_error": "result = nn.Conv2dThor(3, 4, 2, group=2)",
    "conv_padding_type_error": "result = nn.Conv2dThor(3, 4, 2, padding=1.0)",
    "thor_builds_gpu_variant": _NET + "opt = nn.thor(net, lr, lr, 0.9, batch_size=2, frequency=3)\nprint(net)\nresult = (type(opt).__name__, opt.get_frequency(), [p.name for p in opt.parameters], [p.name for p in opt.matrix_a], [tuple(p.shape) for p in opt.matrix_a], [tuple(p.shape) for p in opt.matrix_g], [p.name for p in opt.matrix_a_cov])",
    "thor_frequency_error": _NET + "result = nn.thor(net, lr, lr, 0.9, frequency=1)",
    "thor_momentum_error": _NET + "result = nn.thor(net, lr, lr, -0.5)",
    "convert_net_utils": _NET + "ms.ConvertNetUtils().convert_to_thor_net(net)\nprint(net)\nresult = [(p.name, p.shape) for p in net.get_parameters()]",
    "convert_model_keeps_plain_model": _NET + "opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)\nloss = nn.MSELoss()\nmodel = ms.Model(net, loss_fn=loss, optimizer=opt)\nresult = ms.ConvertModelUtils.convert_to_thor_model(model, net, loss, opt) is model",
    "convert_model_to_model_thor": _NET + "opt = nn.thor(net, lr, lr, 0.9, frequency=2)\nloss = nn.MSELoss()\nmodel = ms.Model(net, loss_fn=loss, optimizer=opt)\nm = ms.ConvertModelUtils.convert_to_thor_model(model, net, loss, opt)\nresult = (type(m).__name__, isinstance(m, ms.Model), m is model)",
    "conv_input_dtype_error": "net = nn.Conv2dThor(2, 3, 2, weight_init='ones')\nnet.thor = False\nresult = net(Tensor(np.ones([1, 2, 3, 3]), ms.float16))",
    "lookup_cpu_out_of_range_ids": "e = nn.EmbeddingLookupThor(4, 2, param_init='ones')\nresult = e(Tensor(np.array([[1, -1], [3, 4]]), ms.int32))",
    "convert_conv_dense_activation": "class N(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(2, 4, 3, stride=2, has_bias=True, pad_mode='pad', padding=1)\n        self.d = nn.Dense(4, 3, activation='gelu')\n        self.o = nn.Dense(3, 1001, has_bias=False)\nn = N()\nms.ConvertNetUtils().convert_to_thor_net(n)\nprint(n)\nresult = ([(p.name, p.shape, p.requires_grad) for p in n.get_parameters()], n.o.bias)",
    "thor_conv_layer_shapes": "class N(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 200, 3, has_bias=False)\n        self.d = nn.Dense(200, 10)\nn = N()\nopt = nn.thor(n, Tensor([0.1]), Tensor([0.1]), 0.0)\nresult = ([(p.name, p.shape) for p in opt.matrix_a], [(p.name, p.shape) for p in opt.matrix_g], [p.name for p in opt.a_normalizer], opt.cov_step, [p.name for p in opt.moments])",
}

OPTIONS = {name: {"message": True} for name in CASES if "error" in name}
OPTIONS.update({name: {"stdout": True} for name in ("dense_repr_and_params", "dense_repr_no_bias", "embedding_repr", "lookup_cpu_forward", "conv_repr_and_params", "thor_builds_gpu_variant", "convert_net_utils", "convert_conv_dense_activation")})
