"""Learning-rate schedules, the dynamic-lr list helpers, and AdamWeightDecay/RMSProp/Adagrad over three steps
(parameter values, state names), alone, with weight decay, with schedules and with parameter groups."""
_RUN = ("def run(make, steps=3):\n"
        "    w = ms.Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name='w')\n"
        "    b = ms.Parameter(Tensor(np.array([0.3], np.float32)), name='bias')\n"
        "    opt = make([w, b])\n"
        "    out = []\n"
        "    for s in range(steps):\n"
        "        g = (Tensor(np.array([0.5, -1.0, 2.0], np.float32) * (s + 1)), Tensor(np.array([0.1], np.float32)))\n"
        "        opt(g)\n"
        "        out.append((w.asnumpy(), b.asnumpy()))\n"
        "    return out, sorted(n for n, _ in opt.parameters_and_names())\n")
_STEPS = "steps = [0, 1, 2, 3, 5, 10]\n"


def _sched(expr: str) -> str:
    return _STEPS + f"s = {expr}\nresult = [s(Tensor(np.array([i], np.int32))) for i in steps]"


CASES = {
    "adam_weight_decay": _RUN + "result = run(lambda p: nn.AdamWeightDecay(p, learning_rate=0.1, weight_decay=0.1))",
    "adam_weight_decay_plain": _RUN + "result = run(lambda p: nn.AdamWeightDecay(p, learning_rate=0.05, beta1=0.8, eps=1e-4))",
    "adam_weight_decay_groups": _RUN + "result = run(lambda p: nn.AdamWeightDecay([{'params': [p[0]], 'weight_decay': 0.2}, {'params': [p[1]], 'lr': 0.5}], learning_rate=0.1))",
    "adam_weight_decay_schedule": _RUN + "result = run(lambda p: nn.AdamWeightDecay(p, learning_rate=nn.CosineDecayLR(0.01, 0.1, 2), weight_decay=0.01))",
    "rmsprop": _RUN + "result = run(lambda p: nn.RMSProp(p, learning_rate=0.1))",
    "rmsprop_centered": _RUN + "result = run(lambda p: nn.RMSProp(p, learning_rate=0.1, momentum=0.5, centered=True, weight_decay=0.01))",
    "rmsprop_decay_eps": _RUN + "result = run(lambda p: nn.RMSProp(p, learning_rate=[0.1, 0.05, 0.01], decay=0.5, epsilon=1e-3))",
    "adagrad": _RUN + "result = run(lambda p: nn.Adagrad(p, learning_rate=0.1))",
    "adagrad_accum_wd": _RUN + "result = run(lambda p: nn.Adagrad(p, accum=0.5, learning_rate=0.1, weight_decay=0.1))",
    "adagrad_schedule": _RUN + "result = run(lambda p: nn.Adagrad(p, learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1)))",
    "cosine_decay_lr": _sched("nn.CosineDecayLR(0.01, 0.1, 4)"),
    "polynomial_decay_lr": _sched("nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)"),
    "polynomial_decay_lr_update": _sched("nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, update_decay_steps=True)"),
    "exponential_decay_lr": _sched("nn.ExponentialDecayLR(0.1, 0.9, 4)"),
    "exponential_decay_lr_stair": _sched("nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True)"),
    "natural_exp_decay_lr": _sched("nn.NaturalExpDecayLR(0.1, 0.9, 4)"),
    "natural_exp_decay_lr_stair": _sched("nn.NaturalExpDecayLR(0.1, 0.9, 4, True)"),
    "inverse_decay_lr": _sched("nn.InverseDecayLR(0.1, 0.5, 4)"),
    "inverse_decay_lr_stair": _sched("nn.InverseDecayLR(0.1, 0.5, 4, True)"),
    "warmup_lr_schedule": _sched("nn.WarmUpLR(0.1, 4)"),
    "schedule_scalar_step": "result = nn.CosineDecayLR(0.0, 1.0, 2)(Tensor(1, ms.int32))",
    "cosine_bad_range": "result = nn.CosineDecayLR(0.1, 0.01, 4)",
    "piecewise_constant": "result = nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01])",
    "piecewise_constant_bad": "result = nn.piecewise_constant_lr([2, 5], [0.1])",
    "exponential_decay_list": "result = (nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2), nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2, True))",
    "natural_exp_decay_list": "result = (nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2), nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True))",
    "inverse_decay_list": "result = (nn.inverse_decay_lr(0.1, 0.5, 6, 2, 2), nn.inverse_decay_lr(0.1, 0.5, 7, 1, 2, True))",
    "cosine_decay_list": "result = nn.cosine_decay_lr(0.01, 0.1, 8, 2, 3)",
    "polynomial_decay_list": "result = (nn.polynomial_decay_lr(0.1, 0.01, 8, 2, 2, 0.5), nn.polynomial_decay_lr(0.1, 0.01, 8, 1, 3, 2.0, True))",
    "warmup_list": "result = nn.warmup_lr(0.1, 7, 2, 3)",
    "list_helper_bad_step": "result = nn.warmup_lr(0.1, 0, 2, 3)",
}
OPTIONS = {k: {"rtol": 1e-5, "atol": 1e-6} for k in CASES}
# the wheel's fused AdamWeightDecay kernel rounds differently in float32 (its Python formula is ours): 1e-5 apart
OPTIONS.update({k: {"rtol": 1e-4, "atol": 1e-5} for k in CASES if k.startswith("adam_weight_decay")})

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('cosine_bad_range', {})["message"] = True
OPTIONS.setdefault('list_helper_bad_step', {})["message"] = True
OPTIONS.setdefault('piecewise_constant_bad', {})["message"] = True
