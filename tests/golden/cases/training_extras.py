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
    "wd_schedule_sgd_refused": {"message": True},
    "wd_function_refused": {"message": True},
    "wd_string_refused": {"message": True},
    "wd_negative_refused": {"message": True},
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
OPTIONS.update({
    "jit_partial_prints_as_python": {"stdout": True},
    "jit_config_bad_level": {"message": True},
    "jit_bad_capture_mode": {"message": True},
    "jit_bad_level": {"message": True},
    "jit_bad_dynamic": {"message": True},
    "jit_bad_fullgraph": {"message": True},
    "jit_bad_level_as_decorator": {"message": True},
})
