"""``mindspore.experimental.optim``: the torch-style optimizers (parameters and state after several steps, with
parameter groups of their own lr and weight decay and each optimizer's flags), the lr schedulers' rate sequences
over ten epochs, the optimizers' printed form and parameter names, and the error texts for bad arguments."""
# ruff: noqa: E501
_NET = ("from mindspore.experimental import optim\n"
        "w = ms.Parameter(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)), name='w')\n"
        "b = ms.Parameter(Tensor(np.array([0.1, -0.3], np.float32)), name='b')\n"
        "x = Tensor(np.array([[1.5, -2.0], [4.0, 0.5], [-1.0, 2.0]], np.float32))\n"
        "grad_fn = ms.value_and_grad(lambda a: ((ops.matmul(a, w) + b) ** 2).mean() + (w ** 3).sum() * 0.1, None, [w, b])\n")


def _run(make, steps=4, state=()):
    extra = "".join(f", [s.value() for s in opt.{s}]" for s in state)
    return (_NET + f"opt = {make}\nlosses = []\n"
            f"for _ in range({steps}):\n    loss, g = grad_fn(x)\n    opt(g)\n    losses.append(loss)\n"
            f"result = (losses, w.value(), b.value(){extra})")


def _groups(opt, kw, group_kw="'lr': 0.05"):
    return f"optim.{opt}([{{'params': [w]}}, {{'params': [b], {group_kw}}}], {kw})"


CASES = {
    # Optimizer and SGD
    "SGD_plain": _run("optim.SGD([w, b], lr=0.1)"),
    "SGD_momentum_groups": _run(_groups("SGD", "lr=0.1, momentum=0.9, weight_decay=0.01", "'lr': 0.05, 'weight_decay': 0.0"), state=("accum", "stat")),
    "SGD_nesterov_maximize": _run(_groups("SGD", "lr=0.05, momentum=0.8, nesterov=True, maximize=True"), state=("accum",)),
    "SGD_dampening": _run("optim.SGD([w, b], lr=0.1, momentum=0.5, dampening=0.3)", state=("accum",)),
    "SGD_tensor_lr": _run("optim.SGD([{'params': [w], 'lr': Tensor(0.02, ms.float32)}, {'params': [b]}], lr=1)"),
    # Adam family
    "Adam": _run("optim.Adam([w, b], lr=0.1)", state=("exp_avg", "exp_avg_sq")) + " + (opt.state_step.value(),)",
    "Adam_groups_decay_amsgrad_maximize": _run(_groups("Adam", "lr=0.1, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1, amsgrad=True, maximize=True")),
    "AdamW": _run("optim.AdamW([w, b], lr=0.1)", state=("exp_avg", "exp_avg_sq")),
    "AdamW_groups_amsgrad": _run(_groups("AdamW", "lr=0.1, weight_decay=0.2, amsgrad=True", "'lr': 0.05, 'weight_decay': 0.0"), state=("max_exp_avg_sq",)),
    "AdamW_maximize": _run("optim.AdamW([w, b], lr=0.05, betas=(0.5, 0.9), maximize=True)"),
    "Adamax": _run(_groups("Adamax", "lr=0.1, weight_decay=0.05"), state=("exp_avg", "exp_inf")),
    "Adamax_maximize": _run("optim.Adamax([w, b], lr=0.1, betas=(0.7, 0.9), maximize=True)"),
    "NAdam": _run(_groups("NAdam", "lr=0.1, weight_decay=0.05, momentum_decay=0.01"), state=("exp_avg", "mu_product")),
    "RAdam": _run(_groups("RAdam", "lr=0.1, weight_decay=0.05"), steps=8, state=("exp_avg", "exp_avg_sq")),
    "RAdam_low_beta2": _run("optim.RAdam([w, b], lr=0.1, betas=(0.9, 0.5))", steps=8),
    # adaptive step sizes
    "Adadelta": _run(_groups("Adadelta", "lr=1.0, rho=0.8, weight_decay=0.1"), state=("accum", "accum_update")),
    "Adadelta_maximize": _run("optim.Adadelta([w, b], lr=0.5, eps=1e-4, maximize=True)"),
    "Adagrad": _run(_groups("Adagrad", "lr=0.1, lr_decay=0.1, weight_decay=0.05, initial_accumulator_value=0.2"), state=("accum",)) + " + (opt.step_t.value(),)",
    "Adagrad_maximize": _run("optim.Adagrad([w, b], lr=0.1, eps=1e-3, maximize=True)"),
    "RMSprop": _run(_groups("RMSprop", "lr=0.01, alpha=0.9"), state=("mean_square",)),
    "RMSprop_centered_momentum": _run(_groups("RMSprop", "lr=0.01, momentum=0.5, centered=True, weight_decay=0.1, maximize=True"), state=("mean_grad", "moment")),
    "Rprop": _run(_groups("Rprop", "lr=0.1"), steps=5, state=("prev", "step_size")),
    "Rprop_options": _run("optim.Rprop([w, b], lr=0.2, etas=(0.3, 1.5), step_sizes=(0.01, 0.25), maximize=True)", steps=5, state=("step_size",)),
    "ASGD": _run(_groups("ASGD", "lr=0.1, lambd=0.01, t0=2.0, weight_decay=0.05"), state=("ax", "eta", "mu")),
    "ASGD_maximize": _run("optim.ASGD([w, b], lr=0.05, alpha=0.5, maximize=True)", state=("ax",)),
    # the base class
    "custom_optimizer": _NET + (
        "class MySGD(optim.Optimizer):\n"
        "    def __init__(self, params, lr):\n"
        "        super().__init__(params, dict(lr=lr))\n"
        "    def construct(self, gradients):\n"
        "        for gid, group in enumerate(self.param_groups):\n"
        "            start = self.group_start_id[gid]\n"
        "            for i, p in enumerate(group['params']):\n"
        "                ops.assign(p, p - gradients[start + i] * group['lr'])\n"
        "        return True\n"
        "opt = MySGD([w], 0.1)\n"
        "opt.add_param_group({'params': b, 'lr': 0.5})\n"
        "_, g = grad_fn(x)\nopt(g)\n"
        "result = (w.value(), b.value(), opt.group_start_id, [p.name for p in opt.parameters], "
        "[float(l.asnumpy()) for l in opt.lrs], len(opt.state), sorted(opt.param_groups[1]))"),
    "printed_and_names": _NET + (
        "opts = [optim.SGD([w, b], lr=0.1, momentum=0.9), optim.Adam([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1),\n"
        "        optim.RMSprop([w, b]), optim.Rprop([w, b]), optim.ASGD([w, b]), optim.NAdam([w, b]), optim.Adagrad([w, b])]\n"
        "for o in opts:\n    print(o)\n"
        "result = [sorted(n for n, _ in o.parameters_and_names()) for o in opts] + [opts[0].defaults]"),
    "set_params_ok": _NET + "opt = optim.SGD({w}, lr=0.1)\nresult = [p.name for p in opt.parameters]",
}

_ERR = _NET
for _name, _src in {
    "SGD_negative_lr": "optim.SGD([w], lr=-1.0)",
    "SGD_lr_type": "optim.SGD([w], lr='a')",
    "SGD_momentum_type": "optim.SGD([w], lr=0.1, momentum='x')",
    "SGD_negative_momentum": "optim.SGD([w], lr=0.1, momentum=-0.5)",
    "SGD_nesterov_type": "optim.SGD([w], lr=0.1, nesterov=1)",
    "SGD_nesterov_no_momentum": "optim.SGD([w], lr=0.1, nesterov=True)",
    "SGD_negative_decay": "optim.SGD([w], lr=0.1, weight_decay=-1.0)",
    "group_negative_lr": "optim.SGD([{'params': [w], 'lr': -0.5}], lr=0.1)",
    "group_decay_type": "optim.SGD([{'params': [w], 'weight_decay': 'a'}], lr=0.1)",
    "group_vector_lr": "optim.SGD([{'params': [w], 'lr': Tensor(np.array([0.1, 0.2], np.float32))}], lr=0.1)",
    "empty_params": "optim.SGD([], lr=0.1)",
    "none_params": "optim.SGD(None, lr=0.1)",
    "param_in_two_groups": "optim.SGD([{'params': [w]}, {'params': [w, b]}], lr=0.1)",
    "group_not_dict": "optim.SGD([w], lr=0.1).add_param_group([b])",
    "Adam_beta": "optim.Adam([w], betas=(0.9, 1.0))",
    "Adam_eps": "optim.Adam([w], eps=-1.0)",
    "AdamW_decay": "optim.AdamW([w], weight_decay=-0.1)",
    "Adadelta_rho": "optim.Adadelta([w], rho=1.5)",
    "Adadelta_lr": "optim.Adadelta([w], lr=0.0)",
    "Adagrad_lr_decay": "optim.Adagrad([w], lr_decay=-0.1)",
    "Adamax_beta": "optim.Adamax([w], betas=(1.0, 0.9))",
    "NAdam_momentum_decay": "optim.NAdam([w], momentum_decay=-1.0)",
    "RAdam_beta": "optim.RAdam([w], betas=(0.9, -0.1))",
    "RMSprop_alpha": "optim.RMSprop([w], alpha=-0.1)",
    "Rprop_etas": "optim.Rprop([w], etas=(1.5, 1.2))",
    "Rprop_etaplus": "optim.Rprop([w], etas=(0.5, 0.9))",
    "ASGD_lambd": "optim.ASGD([w], lambd=1)",
    "ASGD_t0": "optim.ASGD([w], t0=5)",
}.items():
    CASES["error_" + _name] = _ERR + _src + "\nresult = 0"

# lr schedulers: the rate of each group over ten epochs
_SCH = ("from mindspore.experimental import optim\n"
        "from mindspore.experimental.optim import lr_scheduler as S\n"
        "w = ms.Parameter(Tensor(np.array([1.0], np.float32)), name='w')\n"
        "b = ms.Parameter(Tensor(np.array([1.0], np.float32)), name='b')\n"
        "opt = optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1)\n")


def _sched(make, epochs=10, step="s.step()"):
    return (_SCH + f"s = {make}\nlrs = [[float(l.asnumpy()) for l in s.get_last_lr()]]\n"
            f"for epoch in range({epochs}):\n    {step}\n    lrs.append([float(l.asnumpy()) for l in s.get_last_lr()])\n"
            "result = (lrs, [float(g['lr'].asnumpy()) for g in opt.param_groups])")


CASES.update({
    "StepLR": _sched("S.StepLR(opt, step_size=3, gamma=0.5)"),
    "StepLR_epoch_argument": _sched("S.StepLR(opt, step_size=3, gamma=0.5)", step="s.step(epoch * 2)"),
    "MultiStepLR": _sched("S.MultiStepLR(opt, milestones=[2, 5, 5, 8], gamma=0.5)"),
    "ExponentialLR": _sched("S.ExponentialLR(opt, gamma=0.8)"),
    "ExponentialLR_epoch_argument": _sched("S.ExponentialLR(opt, gamma=0.8)", step="s.step(10 - epoch)"),
    "LinearLR": _sched("S.LinearLR(opt, start_factor=0.25, end_factor=1.0, total_iters=4)"),
    "LinearLR_down": _sched("S.LinearLR(opt, start_factor=1.0, end_factor=0.2, total_iters=6)"),
    "ConstantLR": _sched("S.ConstantLR(opt, factor=0.25, total_iters=3)"),
    "LambdaLR": _sched("S.LambdaLR(opt, lr_lambda=lambda e: 0.9 ** e)"),
    "LambdaLR_per_group": _sched("S.LambdaLR(opt, lr_lambda=[lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)])"),
    "MultiplicativeLR": _sched("S.MultiplicativeLR(opt, lr_lambda=lambda e: 0.9)"),
    "PolynomialLR": _sched("S.PolynomialLR(opt, total_iters=6, power=2.0)"),
    "CosineAnnealingLR": _sched("S.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)", epochs=12),
    "CosineAnnealingLR_epoch_argument": _sched("S.CosineAnnealingLR(opt, T_max=4)", step="s.step(epoch)"),
    "CosineAnnealingWarmRestarts": _sched("S.CosineAnnealingWarmRestarts(opt, T_0=3, eta_min=0.01)", epochs=12),
    "CosineAnnealingWarmRestarts_mult": _sched("S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)", epochs=12),
    "CosineAnnealingWarmRestarts_epoch_argument": _sched("S.CosineAnnealingWarmRestarts(opt, T_0=3)", step="s.step(epoch * 2)"),
    "CyclicLR_triangular": _sched("S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3)", epochs=14),
    "CyclicLR_triangular2": _sched("S.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=2, step_size_down=3, mode='triangular2')", epochs=14),
    "CyclicLR_exp_range": _sched("S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='exp_range', gamma=0.9)", epochs=12),
    "SequentialLR": _sched("S.SequentialLR(opt, schedulers=[S.ConstantLR(opt, factor=0.1, total_iters=2), S.ExponentialLR(opt, gamma=0.9)], milestones=[2])"),
    "SequentialLR_linear_cosine": _sched("S.SequentialLR(opt, [S.LinearLR(opt, start_factor=0.2, total_iters=3), S.CosineAnnealingLR(opt, T_max=5)], milestones=[3])"),
    "SequentialLR_three": _sched("S.SequentialLR(opt, [S.LinearLR(opt, start_factor=0.5, total_iters=2), S.StepLR(opt, 2, gamma=0.5), S.ExponentialLR(opt, 0.9)], milestones=[3, 6])"),
    "ReduceLROnPlateau": _sched("S.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=[0.01, 0.2])",
                                step="s.step(Tensor([1.0, 0.9, 0.95, 0.93, 0.94, 0.96, 0.5, 0.6, 0.7, 0.8][epoch], ms.float32))"),
    "ReduceLROnPlateau_max_abs": _sched("S.ReduceLROnPlateau(opt, mode='max', threshold=0.1, threshold_mode='abs', patience=0)",
                                        step="s.step(Tensor([1.0, 1.05, 1.2, 1.25, 1.5, 1.0, 2.0, 2.0, 2.0, 2.0][epoch], ms.float32))"),
    "scheduler_trains": _NET + ("from mindspore.experimental.optim import lr_scheduler as S\n"
                               "opt = optim.Adam([w, b], lr=0.1)\ns = S.StepLR(opt, 2, gamma=0.1)\n"
                               "for _ in range(4):\n    _, g = grad_fn(x)\n    opt(g)\n    s.step()\n"
                               "result = (w.value(), b.value(), s.get_last_lr(), s.last_epoch.value())"),
})
for _name, _src in {
    "StepLR_step_size": "S.StepLR(opt, step_size=1.5)",
    "StepLR_gamma": "S.StepLR(opt, 2, gamma=1)",
    "not_optimizer": "S.StepLR(1, 2)",
    "resume_without_initial_lr": "S.StepLR(opt, 2, last_epoch=3)",
    "LinearLR_start": "S.LinearLR(opt, start_factor=0.0)",
    "LinearLR_end": "S.LinearLR(opt, end_factor=1.5)",
    "ConstantLR_factor": "S.ConstantLR(opt, factor=2.0)",
    "LambdaLR_count": "S.LambdaLR(opt, [lambda e: 1.0])",
    "PolynomialLR_power": "S.PolynomialLR(opt, power=-1.0)",
    "CosineAnnealingLR_eta_min": "S.CosineAnnealingLR(opt, 5, eta_min='a')",
    "WarmRestarts_T0": "S.CosineAnnealingWarmRestarts(opt, T_0=0)",
    "WarmRestarts_Tmult": "S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)",
    "CyclicLR_mode": "S.CyclicLR(opt, 0.01, 0.1, mode='sine')",
    "CyclicLR_count": "S.CyclicLR(opt, [0.01], 0.1)",
    "SequentialLR_milestones": "S.SequentialLR(opt, [S.StepLR(opt, 2), S.StepLR(opt, 3)], milestones=[1, 2])",
    "Plateau_factor": "S.ReduceLROnPlateau(opt, factor=1.0)",
    "Plateau_mode": "S.ReduceLROnPlateau(opt, mode='avg')",
    "Plateau_threshold_mode": "S.ReduceLROnPlateau(opt, threshold_mode='x')",
    "Plateau_min_lr": "S.ReduceLROnPlateau(opt, min_lr=[0.1])",
    "MultiStepLR_milestone_type": "S.MultiStepLR(opt, [1.5])",
}.items():
    CASES["error_" + _name] = _SCH + _src + "\nresult = 0"

OPTIONS = {name: {"message": True} for name in CASES if name.startswith("error_")}
OPTIONS["printed_and_names"] = {"stdout": True}
