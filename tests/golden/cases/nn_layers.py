"""Convolution, pooling, normalization and embedding: functional ops, primitives and nn layers with fixed weights
(values, input and weight gradients, moving statistics, parameter names, reprs).

Not here because the 2.10 CPU wheel has no kernel for them (mskernel runs them; tests/ops/test_nn_layers_grad.py
checks their gradients): ops.conv_transpose2d, ops.embedding, ops.layer_norm."""
_X = ("x = Tensor(np.random.randn(2, 3, 7, 6).astype(np.float32))\n"
      "w = Tensor(np.random.randn(4, 3, 3, 3).astype(np.float32) * 0.3)\n"
      "b = Tensor(np.random.randn(4).astype(np.float32))\n")
_G = "def grads(f, *args):\n    return ms.grad(lambda *a: (f(*a) ** 2).sum() * 0.5, tuple(range(len(args))))(*args)\n"


def _conv_case(kwargs: str) -> str:
    return _X + _G + f"f = lambda a, k: ops.conv2d(a, k, b, {kwargs})\nresult = (f(x, w), grads(f, x, w))"


CASES = {
    "conv2d_valid": _conv_case("stride=1"),
    "conv2d_stride2_same": _conv_case("stride=2, pad_mode='same'"),
    "conv2d_pad_dilation": _conv_case("pad_mode='pad', padding=(1, 2), dilation=2"),
    "conv2d_pad_int": _conv_case("stride=(2, 1), pad_mode='pad', padding=1"),
    "conv2d_groups": _X + _G + ("wg = Tensor(np.random.randn(6, 1, 2, 2).astype(np.float32))\n"
                                "f = lambda a, k: ops.conv2d(a, k, None, 1, 'valid', 0, 1, 3)\nresult = (f(x, wg), grads(f, x, wg))"),
    "conv1d": _X + _G + ("x1 = Tensor(np.random.randn(2, 3, 9).astype(np.float32))\nw1 = Tensor(np.random.randn(4, 3, 3).astype(np.float32))\n"
                         "f = lambda a, k: ops.conv1d(a, k, None, 2, 'same')\nresult = (f(x1, w1), grads(f, x1, w1))"),
    "Conv2D_primitive": _X + "result = ops.Conv2D(4, 3, pad_mode='same', stride=2)(x, w)",
    "nn_Conv2d": _X + _G + ("net = nn.Conv2d(3, 4, 3, stride=2, has_bias=True, weight_init=w, bias_init=b)\n"
                            "out = net(x)\ngx, gw = ms.value_and_grad(lambda a: (net(a) ** 2).sum(), 0, net.trainable_params())(x)[1]\n"
                            "result = (out, gx, gw, [n for n, _ in net.parameters_and_names()])"),
    "nn_Conv2d_pad": _X + "net = nn.Conv2d(3, 4, 3, pad_mode='pad', padding=(0, 1, 2, 0), dilation=(1, 2), weight_init=w)\nresult = net(x)",
    "nn_Conv1d": _X + ("w1 = Tensor(np.random.randn(4, 3, 1, 3).astype(np.float32))\n"
                       "net = nn.Conv1d(3, 4, 3, has_bias=True, weight_init=w1, bias_init='zeros')\n"
                       "result = (net(Tensor(np.random.randn(2, 3, 8).astype(np.float32))), net.weight.shape)"),
    "nn_Conv2dTranspose_same": _X + ("wt = Tensor(np.random.randn(3, 2, 3, 3).astype(np.float32))\n"
                                     "net = nn.Conv2dTranspose(3, 2, 3, stride=2, weight_init=wt)\nresult = net(x)"),
    "nn_Conv2dTranspose_valid": _X + ("wt = Tensor(np.random.randn(3, 2, 3, 3).astype(np.float32))\n"
                                      "net = nn.Conv2dTranspose(3, 2, 3, stride=2, pad_mode='valid', weight_init=wt)\nresult = net(x)"),
    "conv_shape_same": "result = [nn.Conv2d(1, 1, k, stride=s)(Tensor(np.ones((1, 1, n, n), np.float32))).shape for n, k, s in ((7, 3, 2), (8, 4, 3), (5, 2, 1), (6, 5, 4))]",
    "conv_bad_channels": _X + "result = ops.conv2d(x, Tensor(np.ones((4, 2, 3, 3), np.float32)))",
    "conv_bad_pad_mode": "result = nn.Conv2d(1, 1, 3, pad_mode='bad')",
    "max_pool2d": _X + _G + "f = lambda a: ops.max_pool2d(a, 3, 2, 1)\nresult = (f(x), grads(f, x))",
    "max_pool2d_ceil": _X + _G + "f = lambda a: ops.max_pool2d(a, 2, ceil_mode=True)\nresult = (f(x), grads(f, x))",
    "max_pool2d_indices": _X + "result = ops.max_pool2d(x, 2, 2, return_indices=True)",
    "avg_pool2d": _X + _G + "f = lambda a: ops.avg_pool2d(a, 3, 2, 1)\nresult = (f(x), grads(f, x))",
    "avg_pool2d_no_pad_count": _X + "result = ops.avg_pool2d(x, 3, 2, 1, count_include_pad=False)",
    "avg_pool2d_ceil": _X + "result = ops.avg_pool2d(x, 2, 2, ceil_mode=True)",
    "avg_pool2d_divisor": _X + "result = ops.avg_pool2d(x, 2, 2, divisor_override=3)",
    "adaptive_avg_pool2d": _X + _G + "f = lambda a: ops.adaptive_avg_pool2d(a, (3, 4))\nresult = (f(x), grads(f, x))",
    "adaptive_max_pool2d": _X + "result = ops.adaptive_max_pool2d(x, (3, 2), return_indices=True)",
    "avg_pool1d": "result = ops.avg_pool1d(Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 6)), 3, 2)",
    "MaxPool_primitive": _X + "result = (ops.MaxPool(2, 2)(x), ops.MaxPool(3, 2, 'same')(x))",
    "AvgPool_primitive": _X + "result = (ops.AvgPool(2, 2)(x), ops.AvgPool(3, 2, 'same')(x))",
    "nn_MaxPool2d": _X + "result = (nn.MaxPool2d(2, 2)(x), nn.MaxPool2d(3, 1, pad_mode='same')(x), nn.MaxPool2d(3, 2, pad_mode='pad', padding=1)(x))",
    "nn_AvgPool2d": _X + "result = (nn.AvgPool2d(2, 2)(x), nn.AvgPool2d(3, 1, pad_mode='same')(x), nn.AvgPool2d(3, 2, pad_mode='pad', padding=1)(x))",
    "nn_pool1d": "x1 = Tensor(np.random.randn(2, 3, 9).astype(np.float32))\nresult = (nn.MaxPool1d(3, 2)(x1), nn.AvgPool1d(3, 2)(x1))",
    "nn_AdaptiveAvgPool2d": _X + "result = (nn.AdaptiveAvgPool2d((2, 3))(x), nn.AdaptiveAvgPool2d(1)(x))",
    "pool_reprs": "print(nn.MaxPool2d(2, 2)); print(nn.AvgPool2d(3, 1, pad_mode='same')); print(nn.MaxPool1d(2)); print(nn.AvgPool1d(2))\nresult = None",
    "batch_norm_training": _X + _G + ("rm, rv = Tensor(np.zeros(3, np.float32)), Tensor(np.ones(3, np.float32))\n"
                                      "g, be = Tensor(np.array([1.0, 2.0, 0.5], np.float32)), Tensor(np.array([0.0, 1.0, -1.0], np.float32))\n"
                                      "f = lambda a, gg, bb: ops.batch_norm(a, rm, rv, gg, bb, training=True)\n"
                                      "out = f(x, g, be)\nresult = (out, rm, rv)"),
    "batch_norm_grads": _X + _G + ("g, be = Tensor(np.array([1.0, 2.0, 0.5], np.float32)), Tensor(np.array([0.0, 1.0, -1.0], np.float32))\n"
                                   "f = lambda a, gg, bb: ops.batch_norm(a, Tensor(np.zeros(3, np.float32)), Tensor(np.ones(3, np.float32)), gg, bb, training=True)\n"
                                   "result = grads(f, x, g, be)"),
    "batch_norm_eval": _X + ("rm, rv = Tensor(np.array([0.1, -0.2, 0.3], np.float32)), Tensor(np.array([1.5, 0.5, 2.0], np.float32))\n"
                             "result = ops.batch_norm(x, rm, rv, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)))"),
    "nn_BatchNorm2d_train_eval": _X + ("bn = nn.BatchNorm2d(3)\nbn.set_train(True)\ny1 = bn(x)\ny2 = bn(x * 2)\nbn.set_train(False)\n"
                                       "result = (y1, y2, bn(x), bn.moving_mean, bn.moving_variance, [n for n, _ in bn.parameters_and_names()])"),
    "nn_BatchNorm2d_grads": _X + ("bn = nn.BatchNorm2d(3, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)))\nbn.set_train(True)\n"
                                  "result = ms.value_and_grad(lambda a: (bn(a) ** 3).sum(), 0, bn.trainable_params())(x)"),
    "nn_BatchNorm1d": "bn = nn.BatchNorm1d(4, momentum=0.8)\nbn.set_train(True)\nx = Tensor(np.random.randn(5, 4).astype(np.float32))\nresult = (bn(x), bn.moving_mean, bn.moving_variance)",
    "nn_BatchNorm_use_batch_statistics": _X + "bn = nn.BatchNorm2d(3, use_batch_statistics=True)\nbn.set_train(False)\nresult = (bn(x), bn.moving_mean)",
    "LayerNorm_primitive": _X + ("g = Tensor(np.random.randn(6).astype(np.float32))\nbe = Tensor(np.random.randn(6).astype(np.float32))\n"
                                 "result = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1)(x, g, be)"),
    "nn_LayerNorm": _X + ("ln = nn.LayerNorm((6,), gamma_init=Tensor(np.arange(6, dtype=np.float32)), beta_init='ones')\n"
                          "result = (ln(x), ms.grad(lambda a: (ln(a) ** 2).sum())(x), [n for n, _ in ln.parameters_and_names()])"),
    "nn_LayerNorm_axis": _X + "ln = nn.LayerNorm((7, 6), begin_norm_axis=2, begin_params_axis=2)\nresult = ln(x)",
    "group_norm": _X + _G + ("x4 = Tensor(np.random.randn(2, 4, 3, 3).astype(np.float32))\n"
                             "f = lambda a: ops.group_norm(a, 2, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)), Tensor(np.zeros(4, np.float32)))\n"
                             "result = (f(x4), grads(f, x4))"),
    "nn_GroupNorm": "x4 = Tensor(np.random.randn(2, 4, 3, 3).astype(np.float32))\ngn = nn.GroupNorm(2, 4)\nresult = (gn(x4), [n for n, _ in gn.parameters_and_names()])",
    "nn_Embedding": ("emb = nn.Embedding(5, 3, embedding_table=Tensor(np.random.randn(5, 3).astype(np.float32)))\n"
                     "ids = Tensor(np.array([[0, 4], [2, 2]], np.int32))\n"
                     "result = (emb(ids), ms.grad(lambda i: (emb(i) ** 2).sum(), None, emb.trainable_params())(ids), [n for n, _ in emb.parameters_and_names()])"),
    "nn_Embedding_one_hot": ("emb = nn.Embedding(5, 3, use_one_hot=True, embedding_table=Tensor(np.random.randn(5, 3).astype(np.float32)))\n"
                             "result = emb(Tensor(np.array([1, 3], np.int32)))"),
    "nn_Embedding_padding_idx": "emb = nn.Embedding(4, 2, embedding_table='ones', padding_idx=1)\nresult = (emb(Tensor(np.array([1, 2], np.int32))), emb.embedding_table)",
    "lenet_forward_backward": (
        "class LeNet5(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode='valid', weight_init=Tensor(np.random.randn(6, 1, 5, 5).astype(np.float32) * 0.2))\n"
        "        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid', weight_init=Tensor(np.random.randn(16, 6, 5, 5).astype(np.float32) * 0.1))\n"
        "        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Tensor(np.random.randn(120, 400).astype(np.float32) * 0.05), bias_init='zeros')\n"
        "        self.fc2 = nn.Dense(120, 10, weight_init=Tensor(np.random.randn(10, 120).astype(np.float32) * 0.1), bias_init='zeros')\n"
        "        self.relu = nn.ReLU()\n"
        "        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)\n"
        "        self.flatten = nn.Flatten()\n"
        "    def construct(self, x):\n"
        "        x = self.pool(self.relu(self.conv1(x)))\n"
        "        x = self.pool(self.relu(self.conv2(x)))\n"
        "        return self.fc2(self.relu(self.fc1(self.flatten(x))))\n"
        "net = LeNet5()\n"
        "x = Tensor(np.random.randn(4, 1, 32, 32).astype(np.float32))\n"
        "y = Tensor(np.array([1, 3, 5, 7], np.int32))\n"
        "loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')\n"
        "loss, grads = ms.value_and_grad(lambda a, t: loss_fn(net(a), t), None, net.trainable_params())(x, y)\n"
        "result = (loss, grads, [n for n, _ in net.parameters_and_names()])"),
}
OPTIONS = {
    "pool_reprs": {"stdout": True},
    "conv_bad_pad_mode": {},
    "conv_bad_channels": {"message": True},
    **{k: {"rtol": 1e-4, "atol": 1e-5} for k in ("conv2d_valid", "conv2d_stride2_same", "conv2d_pad_dilation", "conv2d_pad_int",
                                                 "conv2d_groups", "conv1d", "conv_transpose2d", "nn_Conv2d", "batch_norm_grads",
                                                 "nn_BatchNorm2d_grads", "layer_norm", "nn_LayerNorm", "group_norm", "lenet_forward_backward",
                                                 "batch_norm_training", "nn_BatchNorm2d_train_eval", "nn_BatchNorm1d", "LayerNorm_primitive",
                                                 "nn_LayerNorm_axis", "nn_GroupNorm", "nn_Conv2dTranspose_same", "nn_Conv2dTranspose_valid",
                                                 "nn_Conv2d_pad", "nn_Conv1d", "Conv2D_primitive", "nn_BatchNorm_use_batch_statistics",
                                                 "batch_norm_eval", "avg_pool2d", "adaptive_avg_pool2d")},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('conv_bad_pad_mode', {})["message"] = True
OPTIONS.setdefault('nn_Conv1d', {})["message"] = True
