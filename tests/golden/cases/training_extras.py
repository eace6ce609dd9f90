"""Training semantics beyond the basics: weight decay given as a schedule, jit over functools.partial and jit's
options, mixed-precision training loops (amp levels, loss scale) step by step."""
# ---- weight decay as a schedule (a Cell called with global_step each step) --------------------------------
# the optimizer's step runs as a graph in MindSpore, whose parser resolves names in the case's module (the
# recorder's __main__): the schedule uses no module-level name
_WD = ("class WD(nn.Cell):\n"
       "    def construct(self, step):\n"
       "        return step * 0.1 + 0.05\n"
       "w = ms.Parameter(Tensor(np.array([[1.0, -2.0], [0.5, 0.25]], np.float32)), name='w')\n"
       "gamma = ms.Parameter(Tensor(np.array([0.5, -0.5], np.float32)), name='bn.gamma')\n"
       "g = [(Tensor(np.array([[0.1, 0.2], [-0.3, 0.05]], np.float32)), Tensor(np.array([0.3, -0.1], np.float32))),\n"
       "     (Tensor(np.array([[-0.2, 0.1], [0.4, 0.0]], np.float32)), Tensor(np.array([0.5, 0.5], np.float32))),\n"
       "     (Tensor(np.array([[0.3, -0.3], [0.1, 0.2]], np.float32)), Tensor(np.array([-1.0, 0.25], np.float32)))]\n")
_STEPS = ("hist = []\nfor gs in g:\n    opt(gs)\n    hist.append((w.asnumpy().copy(), gamma.asnumpy().copy()))\n"
          "result = (hist, opt.global_step.asnumpy(), type(opt.weight_decay).__name__)")
_DECAY = {
    "wd_schedule_momentum": "nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=WD())",
    "wd_schedule_exponential": "nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=nn.ExponentialDecayLR(0.1, 0.5, 1))",
    "wd_schedule_cosine": "nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=nn.CosineDecayLR(0.01, 0.2, 2))",
    "wd_schedule_dynamic_lr": "nn.Momentum([w, gamma], nn.ExponentialDecayLR(0.1, 0.5, 1), 0.9, weight_decay=WD())",
    "wd_schedule_lr_list": "nn.Momentum([w, gamma], [0.1, 0.05, 0.02], 0.9, weight_decay=WD())",
    "wd_schedule_loss_scale": "nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=WD(), loss_scale=4.0)",
    "wd_float_loss_scale": "nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=0.3, loss_scale=8.0)",
    "wd_schedule_adam": "nn.Adam([w, gamma], 0.1, weight_decay=WD())",
    "wd_schedule_adam_weight_decay": "nn.AdamWeightDecay([w, gamma], 0.1, weight_decay=WD())",
    "wd_schedule_rmsprop": "nn.RMSProp([w, gamma], 0.1, weight_decay=WD())",
    "wd_schedule_adagrad": "nn.Adagrad([w, gamma], learning_rate=0.1, weight_decay=WD())",
    "wd_schedule_groups": "nn.Momentum([{'params': [w], 'weight_decay': WD()}, {'params': [gamma], 'weight_decay': 0.2}], 0.1, 0.9)",
    "wd_groups_decay_every_parameter": "nn.Momentum([{'params': [w], 'weight_decay': WD()}, {'params': [gamma]}], 0.1, 0.9, weight_decay=0.01)",
}
CASES = {name: _WD + f"opt = {ctor}\n" + _STEPS for name, ctor in _DECAY.items()}
CASES.update({
    "wd_get_weight_decay": _WD + ("opt = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=WD(), loss_scale=2.0)\nseen = []\n"
                                  "for gs in g:\n    seen.append(opt.get_weight_decay())\n    opt(gs)\n"
                                  "fixed = nn.Momentum([w], 0.1, 0.9, weight_decay=0.25, loss_scale=2.0).get_weight_decay()\n"
                                  "grouped = nn.Momentum([{'params': [w], 'weight_decay': WD()}, {'params': [gamma], 'weight_decay': 0.2}], 0.1, 0.9).get_weight_decay()\n"
                                  "result = (seen, fixed, grouped)"),
    "wd_schedule_sgd_refused": _WD + "result = nn.SGD([w, gamma], 0.1, weight_decay=WD())",
    "wd_function_refused": _WD + "result = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=lambda step: 0.1)",
    "wd_string_refused": _WD + "result = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay='0.1')",
    "wd_negative_refused": _WD + "result = nn.Momentum([w, gamma], 0.1, 0.9, weight_decay=-1)",
})
OPTIONS = {
    # the 2.10 CPU wheel's Adam kernels round differently from numpy in float32 (1e-5 relative after a few
    # steps, with or without weight decay: optim_core's Adam cases agree to the same tolerance)
    "wd_schedule_adam": {"rtol": 1e-4},
    "wd_schedule_adam_weight_decay": {"rtol": 1e-4},
    **{name: {"message": True} for name in ("wd_schedule_sgd_refused", "wd_function_refused", "wd_string_refused",
                                            "wd_negative_refused")},
}

# ---- jit over functools.partial, and jit's arguments ------------------------------------------------------
# (the functions jit compiles use only their arguments: MindSpore's graph parser resolves other names in the
# recorder's __main__, not in the case)
_JIT = ("import functools\n"
        "def f(x, y, scale=1.0, shift=0):\n"
        "    return x * scale + y + shift\n"
        "def h(a):\n"
        "    return a * 2\n"
        "x = Tensor(np.array([1.0, 2.0], np.float32))\ny = Tensor(np.array([0.5, -0.5], np.float32))\n")
CASES.update({
    "jit_partial_keywords": _JIT + ("result = (ms.jit(functools.partial(f, scale=3.0))(x, y), "
                                    "ms.jit(functools.partial(f, scale=3.0, shift=1))(x, y), "
                                    "ms.jit(functools.partial(f, scale=3.0))(x, y, scale=5.0), "
                                    "ms.jit(functools.partial(f, y=y))(x), "
                                    "ms.jit(functools.partial(f, x, shift=2))(y, scale=2.0))"),
    "jit_partial_returned_unchanged": _JIT + ("p = functools.partial(f, scale=2.0)\nj = ms.jit(p)\n"
                                              "result = (j is p, type(j).__name__, hasattr(j, '__name__'), ms.jit(capture_mode='ast')(p) is p, "
                                              "ms.jit(p, capture_mode='bytecode') is p, j.keywords)"),
    "jit_partial_prints_as_python": _JIT + ("def loud(x, label='step'):\n    print(label, x.shape, x)\n    return x + 1\n"
                                            "out = ms.jit(functools.partial(loud, label='partial'))(x)\nprint(out)\nresult = out"),
    "jit_function_keywords": _JIT + "result = (ms.jit(f)(x, y, scale=2.0), ms.jit(f)(x, y, shift=3), ms.jit(f)(x, y=y))",
    "jit_input_signature_dropped": _JIT + ("result = (ms.jit(h, input_signature=(Tensor(shape=[None], dtype=ms.float32),))(x), "
                                           "ms.jit(h, input_signature=(Tensor(shape=[5], dtype=ms.int32),))(x))"),
    "jit_jit_config_dropped": _JIT + ("cfg = ms.JitConfig(jit_level='O1')\n"
                                      "result = (ms.jit(h, jit_config=cfg)(x), sorted(cfg.jit_config_dict.items()), "
                                      "sorted(ms.JitConfig().jit_config_dict.items()))"),
    "jit_config_bad_level": "ms.JitConfig(jit_level='O3')",
    "jit_options": _JIT + ("result = (ms.jit(h, capture_mode='bytecode')(x), ms.jit(h, jit_level='O1')(x), ms.jit(h, dynamic=1)(x), "
                           "ms.jit(h, fullgraph=True)(x), ms.jit(jit_level='O1')(h)(x), ms.jit(h).__name__)"),
    "jit_bad_capture_mode": _JIT + "ms.jit(h, capture_mode='graph')",
    "jit_bad_level": _JIT + "ms.jit(h, jit_level='O2')",
    "jit_bad_dynamic": _JIT + "ms.jit(h, dynamic=2)",
    "jit_bad_fullgraph": _JIT + "ms.jit(h, fullgraph=1)",
    "jit_bad_level_as_decorator": _JIT + "ms.jit(jit_level='O3')",
    "jit_cell_and_method": _JIT + ("net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')\nj = ms.jit(net)\n"
                                   "class Scale:\n    def __init__(self):\n        self.k = 3.0\n"
                                   "    def run(self, a):\n        return a * self.k\n"
                                   "s = Scale()\nm = ms.jit(s.run)\n"
                                   "result = (type(j).__name__, j.__self__ is net, j(x.reshape(1, 2)), type(m).__name__, m(x))"),
    "jit_other_objects_unchanged": _JIT + ("class Add:\n    def __call__(self, a):\n        return a + 1\n"
                                           "obj = Add()\nresult = (ms.jit(obj) is obj, ms.jit(obj)(x), ms.jit(3))"),
})
OPTIONS["jit_partial_prints_as_python"] = {"stdout": True}
OPTIONS.update({name: {"message": True} for name in ("jit_config_bad_level", "jit_bad_capture_mode", "jit_bad_level",
                                                     "jit_bad_dynamic", "jit_bad_fullgraph", "jit_bad_level_as_decorator")})

# ---- mixed precision: training loops step by step, and the float16 kernels they rest on --------------------
_NET = ("from mindspore import amp\nfrom mindspore.train import Model, Callback, LossMonitor\nimport mindspore.dataset as ds\n"
        "rng = np.random.RandomState(0)\n"
        "W = {'c1': rng.randn(4, 1, 3, 3).astype(np.float32) * 0.5, 'c2': rng.randn(6, 4, 3, 3).astype(np.float32) * 0.3,\n"
        "     'd1': rng.randn(10, 24).astype(np.float32) * 0.3, 'b1': rng.randn(10).astype(np.float32) * 0.1, 'd2': rng.randn(3, 10).astype(np.float32) * 0.3}\n"
        "X = rng.randn(8, 1, 8, 8).astype(np.float32)\nY = (np.arange(8) % 3).astype(np.int32)\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode='same', weight_init=Tensor(W['c1']), has_bias=False)\n"
        "        self.bn1 = nn.BatchNorm2d(4)\n"
        "        self.relu = nn.ReLU()\n"
        "        self.pool = nn.MaxPool2d(2, 2)\n"
        "        self.conv2 = nn.Conv2d(4, 6, 3, pad_mode='same', weight_init=Tensor(W['c2']), has_bias=False)\n"
        "        self.bn2 = nn.BatchNorm2d(6)\n"
        "        self.flatten = nn.Flatten()\n"
        "        self.fc1 = nn.Dense(24, 10, weight_init=Tensor(W['d1']), bias_init=Tensor(W['b1']))\n"
        "        self.fc2 = nn.Dense(10, 3, weight_init=Tensor(W['d2']), bias_init='zeros')\n"
        "    def construct(self, x):\n"
        "        x = self.pool(self.relu(self.bn1(self.conv1(x))))\n"
        "        x = self.pool(self.relu(self.bn2(self.conv2(x))))\n"
        "        return self.fc2(self.relu(self.fc1(self.flatten(x))))\n"
        "def params(net):\n"
        "    return {p.name: p.asnumpy() for p in net.get_parameters()}\n")
_FUNC = ("from mindspore import amp\n"
         "rng = np.random.RandomState(3)\n"
         "W1 = rng.randn(16, 12).astype(np.float32) * 0.4\nW2 = rng.randn(16, 16).astype(np.float32) * 0.3\nW3 = rng.randn(5, 16).astype(np.float32) * 0.3\n"
         "X = rng.randn(16, 12).astype(np.float32)\nY = (np.arange(16) % 5).astype(np.int32)\n"
         "class Net(nn.Cell):\n"
         "    def __init__(self):\n"
         "        super().__init__()\n"
         "        self.fc1 = nn.Dense(12, 16, weight_init=Tensor(W1), bias_init='zeros', activation='relu')\n"
         "        self.bn = nn.BatchNorm1d(16)\n"
         "        self.fc2 = nn.Dense(16, 16, weight_init=Tensor(W2), bias_init='zeros')\n"
         "        self.fc3 = nn.Dense(16, 5, weight_init=Tensor(W3), bias_init='zeros')\n"
         "        self.mm = ops.MatMul(transpose_b=True)\n"
         "        self.tanh = ops.Tanh()\n"
         "        self.sigmoid = ops.Sigmoid()\n"
         "        self.w = ms.Parameter(Tensor(np.eye(16, dtype=np.float32) * 0.5), name='w')\n"
         "    def construct(self, x):\n"
         "        h = self.bn(self.fc1(x))\n"
         "        h = self.tanh(h) + self.mm(h, self.w)\n"
         "        h = h * self.sigmoid(self.fc2(h))\n"
         "        return self.fc3(h)\n"
         "def train(level, steps=5):\n"
         "    net = Net()\n"
         "    net.set_train()\n"
         "    if level != 'O0':\n"
         "        net = amp.auto_mixed_precision(net, level)\n"
         "    loss_fn = nn.CrossEntropyLoss()\n"
         "    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)\n"
         "    scaler = amp.StaticLossScaler(1024.0)\n"
         "    def fwd(x, y):\n"
         "        return scaler.scale(loss_fn(net(x).astype(ms.float32), y))\n"
         "    grad_fn = ms.value_and_grad(fwd, None, opt.parameters)\n"
         "    losses = []\n"
         "    for _ in range(steps):\n"
         "        loss, grads = grad_fn(Tensor(X), Tensor(Y))\n"
         "        opt(scaler.unscale(grads))\n"
         "        losses.append(float(scaler.unscale(loss).asnumpy()))\n"
         "    return losses, {p.name: p.asnumpy() for p in opt.parameters}\n")
_MODEL = ("def fit(level, scale=None, steps=4):\n"
          "    net = Net()\n"
          "    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')\n"
          "    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=scale or 1.0)\n"
          "    kw = {'loss_scale_manager': amp.FixedLossScaleManager(scale, drop_overflow_update=False)} if scale else {}\n"
          "    model = Model(net, loss, opt, amp_level=level, **kw)\n"
          "    data = ds.NumpySlicesDataset({'x': X, 'y': Y}, shuffle=False).batch(8)\n"
          "    seen = []\n"
          "    class Record(Callback):\n"
          "        def on_train_step_end(self, run_context):\n"
          "            seen.append(float(run_context.original_args().net_outputs.asnumpy()))\n"
          "    model.train(steps, data, callbacks=[Record(), LossMonitor()], dataset_sink_mode=False)\n"
          "    return seen, params(net)\n")
_BUILD = ("def build(level, steps=4):\n"
          "    net = Net()\n"
          "    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')\n"
          "    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)\n"
          "    step = amp.build_train_network(net, opt, loss, level=level, loss_scale_manager=None)\n"
          "    losses = [float(step(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(steps)]\n"
          "    return losses, params(net)\n")
_H = ("h = np.float16\nrng = np.random.RandomState(7)\nx = (rng.randn(64, 30) * 2).astype(h)\ngy = rng.randn(64, 30).astype(h)\n"
      "X, G = Tensor(x), Tensor(gy)\npos = Tensor((np.abs(x) + h(0.3)).astype(h))\n")
# MindSpore's O1 rewrites the network's source, which it reads from the module of its class: the networks of
# these cases live in a module the case writes (named after its text, so each import is fresh)
_HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn, ops, Tensor\n"


def _module(body: str) -> str:
    import hashlib
    name = "amp_case_" + hashlib.sha1(body.encode()).hexdigest()[:12]
    return ("import importlib, os, sys, tempfile\nsrc_dir = tempfile.mkdtemp()\n"
            f"with open(os.path.join(src_dir, '{name}.py'), 'w') as fh:\n    fh.write({_HEAD + body!r})\n"
            f"sys.path.insert(0, src_dir)\nsys.modules.pop('{name}', None)\nm = importlib.import_module('{name}')\n")


_CNN = _module(_NET + _MODEL + _BUILD)
_MLP = _module(_FUNC)
CASES.update({
    "amp_model_o2_batchnorm_loss_scale": _CNN + "result = m.fit('O2', scale=128.0)",
    "amp_model_o3": _CNN + "result = m.fit('O3')",
    "amp_model_o1": _CNN + "result = m.fit('O1')",
    "amp_model_o0": _CNN + "result = m.fit('O0')",
    "amp_build_train_network_levels": _CNN + "result = [m.build(level) for level in ('O1', 'O2', 'O3')]",
    "amp_functional_o1": _MLP + "result = m.train('O1')",
    "amp_functional_o2": _MLP + "result = m.train('O2')",
    "amp_functional_o3": _MLP + "result = m.train('O3')",
    "amp_batchnorm_o3_moving_statistics": _CNN + ("amp = m.amp\ninner = m.Net()\nnet = amp.auto_mixed_precision(inner, 'O3')\nnet.set_train()\nout = net(Tensor(m.X))\n"
                                                  "result = (out.dtype, out, inner.bn1.moving_mean.asnumpy(), inner.bn1.moving_variance.asnumpy(), inner.bn1.gamma.dtype)"),
    "amp_o1_casts_white_list": _MLP + ("amp = m.amp\ninner = m.Net()\nnet = amp.auto_mixed_precision(inner, 'O1')\nnet.set_train()\nout = net(Tensor(m.X))\n"
                                       "relu = amp.auto_mixed_precision(nn.SequentialCell([nn.ReLU()]), 'O1')(Tensor(np.array([0.1, 1 / 3, -2.0], np.float32)))\n"
                                       "result = (out.dtype, out, relu.dtype, relu, inner.fc1.weight.dtype)"),
    "fp16_sums_accumulate_in_float32": _H + ("result = (ops.sum(X, 0), ops.sum(X, 1), ops.mean(X, 0), X.sum(), "
                                             "ms.grad(lambda a, b: ((a + b) * G).sum(), grad_position=1)(X, Tensor(x[0])))"),
    "fp16_conv_gradients": _H + ("img = Tensor(rng.randn(2, 3, 9, 9).astype(h))\nk = Tensor(rng.randn(4, 3, 3, 3).astype(h))\n"
                                 "conv = lambda a, w: ops.conv2d(a, w, pad_mode='valid')\ngo = Tensor(rng.randn(2, 4, 7, 7).astype(h))\n"
                                 "result = (conv(img, k), ms.grad(lambda a, w: (conv(a, w) * go).sum(), grad_position=(0, 1))(img, k))"),
    "fp16_activations": _H + "result = (ops.sigmoid(X), ops.silu(X), ops.gelu(X), ops.softmax(X, -1), ops.relu(X), ops.erf(X))",
    "fp16_softplus": _H + "result = ops.softplus(X)",
    "fp16_activation_gradients": _H + ("g = lambda f, a: ms.grad(lambda t: (f(t) * G).sum())(a)\n"
                                       "result = (g(ops.sigmoid, X), g(ops.erf, X), g(ops.softplus, X), g(ops.reciprocal, pos), "
                                       "g(ops.sqrt, pos), g(ops.log, pos), g(ops.relu, X), g(lambda t: t * t, X), g(lambda t: t / pos, X))"),
    "fp16_tanh_gradient": _H + "result = ms.grad(lambda t: (ops.tanh(t) * G).sum())(X)",
})
_STEPS = {"stdout": "approx", "rtol": 1e-5, "atol": 1e-5}
OPTIONS.update({
    # losses and parameters after a few float16 steps: the wheel's float32 kernels sum in their own order, so a
    # value near a float16 rounding boundary can round apart (an element of a weight off by ~2e-6); the printed
    # losses (LossMonitor) agree to the same tolerance
    "amp_model_o2_batchnorm_loss_scale": _STEPS, "amp_model_o3": _STEPS, "amp_model_o1": _STEPS,
    "amp_model_o0": _STEPS,
    "amp_build_train_network_levels": {"rtol": 1e-5, "atol": 1e-5},
    "amp_functional_o1": {"rtol": 1e-5, "atol": 1e-5},
    "amp_functional_o2": {"rtol": 1e-5, "atol": 1e-5},
    "amp_functional_o3": {"rtol": 1e-5, "atol": 1e-5},
    "amp_batchnorm_o3_moving_statistics": {"rtol": 1e-3, "atol": 1e-6},  # float16 outputs: one unit
    "amp_o1_casts_white_list": {"rtol": 1e-3},  # float16 results: one float16 unit (the wheel's tanh rounds apart)
    # float16 values agree to the bit, except where the wheel's float32 exp/tanh round apart from numpy's (one
    # float16 unit, on a few elements)
    "fp16_sums_accumulate_in_float32": {"rtol": 0, "atol": 0},
    "fp16_conv_gradients": {"rtol": 0, "atol": 0},
    "fp16_activations": {"rtol": 0, "atol": 0},
    "fp16_activation_gradients": {"rtol": 0, "atol": 0},
    "fp16_softplus": {"rtol": 2e-3, "atol": 0},  # the wheel's float32 exp rounds one element apart
    # tanh's gradient 1 - tanh**2 where tanh saturates: the wheel's float32 tanh is off by up to 3e-5 there (see
    # docs/guide/mindspore.md), which the gradient turns into ~1e-3 on a few elements
    "fp16_tanh_gradient": {"rtol": 2e-3, "atol": 2e-3},
})
