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
