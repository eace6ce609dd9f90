"""More Tensor methods, mint functions and optimizers (nn's ASGD, FTRL, Lamb, LazyAdam, Rprop, AdamOffload; mint.optim's
Adam, AdamW and FusedAdamW), as the CPU wheel runs them: parameters after several steps, error texts.

Where the wheel cannot run a program (no CPU kernel: nn.Lamb, mint.optim.AdamW/FusedAdamW; or, mint.optim.Adam, a
step that leaves the parameters unchanged), the case is a documented difference whose oracle computes the documented
rule with numpy in float64."""
_M = "from mindspore import mint\n"
_NET = ("ms.set_seed(0)\nnet = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')\n"
        "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
        "grad_fn = ms.value_and_grad(lambda a: (net(a) ** 2).mean(), None, net.trainable_params())\n")


def _steps(n, *state):
    extra = "".join(f", [s.value() for s in opt.{s}]" for s in state)
    return (f"losses = []\nfor _ in range({n}):\n    loss, g = grad_fn(x)\n    opt(g)\n    losses.append(loss)\n"
            f"result = (losses, [p.value() for p in net.trainable_params()]{extra})")


CASES = {}
# nn optimizers the CPU wheel runs
CASES.update({
    "ASGD": _NET + "opt = nn.ASGD(net.trainable_params(), learning_rate=0.1, lambd=0.01, t0=1.0)\n"
            + _steps(4, "ax", "eta", "mu"),
    "ASGD_decay_schedule": _NET + "opt = nn.ASGD(net.trainable_params(), learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1), "
                           "weight_decay=0.05)\n" + _steps(3, "ax", "eta"),
    "Rprop": _NET + "opt = nn.Rprop(net.trainable_params(), learning_rate=0.1)\n" + _steps(4, "prev", "step_size"),
    "Rprop_options": _NET + "opt = nn.Rprop(net.trainable_params(), learning_rate=[0.2, 0.1, 0.05, 0.02], etas=(0.3, 1.5), "
                     "step_sizes=(0.01, 0.25), weight_decay=0.1)\n" + _steps(4, "step_size"),
    "FTRL": _NET + "opt = nn.FTRL(net.trainable_params(), learning_rate=0.1)\n" + _steps(3, "moments", "linear"),
    "FTRL_options": _NET + "opt = nn.FTRL(net.trainable_params(), initial_accum=0.5, learning_rate=0.2, lr_power=-0.7, "
                    "l1=0.01, l2=0.1, loss_scale=2.0, weight_decay=0.01)\n" + _steps(3, "moments", "linear"),
    "LazyAdam": _NET + "opt = nn.LazyAdam(net.trainable_params(), learning_rate=0.1)\n"
                + _steps(3, "moment1", "moment2") + " + (opt.beta1_power.value(),)",
    "LazyAdam_options": _NET + "opt = nn.LazyAdam(net.trainable_params(), learning_rate=[0.1, 0.05, 0.01], "
                        "use_nesterov=True, weight_decay=0.1, loss_scale=4.0)\n" + _steps(3, "moment1"),
    "AdamOffload": _NET + "opt = nn.AdamOffload(net.trainable_params(), learning_rate=0.1)\n"
                   + _steps(3, "moment1", "moment2") + " + (opt.beta2_power.value(),)",
    "AdamOffload_options": _NET + "opt = nn.AdamOffload(net.trainable_params(), learning_rate=nn.PolynomialDecayLR(0.1, "
                           "0.01, 4, 1.0), weight_decay=0.05)\n" + _steps(3),
    "optimizer_state_names": _NET + "result = [[p.name for p in o.get_parameters()] for o in (nn.ASGD(net.trainable_params()), "
                             "nn.Rprop(net.trainable_params()), nn.FTRL(net.trainable_params()), "
                             "nn.LazyAdam(net.trainable_params()), nn.AdamOffload(net.trainable_params()))]",
})
_W = "w = ms.Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name='w')\n"
for case, src in {
    "ASGD_lambd_int": "nn.ASGD([w], lambd=1)",
    "Rprop_etaplus": "nn.Rprop([w], etas=(0.5, 1.0))",
    "Rprop_step_sizes": "nn.Rprop([w], step_sizes=(1.0, 0.5))",
    "Rprop_etas_list": "nn.Rprop([w], etas=[0.5, 1.2])",
    "Rprop_etaminus": "nn.Rprop([w], etas=(1.5, 1.2))",
    "FTRL_lr_int": "nn.FTRL([w], learning_rate=1)",
    "FTRL_dynamic_lr": "nn.FTRL([w], learning_rate=[0.1, 0.2])",
    "FTRL_l1": "nn.FTRL([w], l1=-1.0)",
    "Lamb_beta1": "nn.Lamb([w], 0.1, beta1=1.0)",
    "LazyAdam_beta1": "nn.LazyAdam([w], beta1=1.0)",
    "LazyAdam_weight_decay_int": "nn.LazyAdam([w], weight_decay=1)",
    "AdamOffload_eps": "nn.AdamOffload([w], eps=0.0)",
}.items():
    CASES[f"{case}_error"] = _W + f"result = {src}"

OPTIONS = {case: {"message": True} for case in CASES if case.endswith("_error")}


def _oracle(rule, n=3):
    """numpy float64: the loss mean((x @ w.T + b) ** 2), its gradient, and ``rule`` (code updating ``ps``, the
    parameters, from ``gs``, their gradients, at step ``t`` from 1; ``st`` is a dict for its state)."""
    return ("x = np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float64)\n"
            "ps = [np.ones((2, 3)), np.zeros(2)]\nst = {}\nlosses = []\n"
            f"for t in range(1, {n + 1}):\n"
            "    y = x @ ps[0].T + ps[1]\n    losses.append(as_tensor(np.float32((y ** 2).mean())))\n"
            "    dy = 2 * y / y.size\n    gs = [dy.T @ x, dy.sum(0)]\n"
            + "".join("    " + line + "\n" for line in rule.splitlines())
            + "result = (losses, [as_tensor(p.astype(np.float32)) for p in ps])")


# nn.Lamb: the wheel has no CPU kernel ("Unsupported op [Lamb] on CPU"); the documented rule
_LAMB = ("for k, (p, g) in enumerate(zip(ps, gs)):\n"
         "    m = st.get(('m', k), 0) * {b1} + (1 - {b1}) * g\n    v = st.get(('v', k), 0) * {b2} + (1 - {b2}) * g * g\n"
         "    st[('m', k)], st[('v', k)] = m, v\n"
         "    r = (m / (1 - {b1} ** t)) / (np.sqrt(v / (1 - {b2} ** t)) + {eps}) + {wd} * p\n"
         "    wn, rn = np.linalg.norm(p), np.linalg.norm(r)\n"
         "    ratio = wn / rn if wn > 0 and rn > 0 else 1.0\n"
         "    ps[k] = p - {lr} * ratio * r")
_WHY_LAMB = ("MindSpore 2.10's CPU wheel has no kernel for nn.Lamb's Lamb primitive (\"Unsupported op [Lamb] on CPU\"); "
             "mskernel takes the step it documents (Adam's bias-corrected direction plus weight decay, times the "
             "trust ratio ||w|| / ||r + wd * w||)")
CASES.update({
    "Lamb": _NET + "opt = nn.Lamb(net.trainable_params(), learning_rate=0.1)\n" + _steps(3),
    "Lamb_weight_decay": _NET + "opt = nn.Lamb(net.trainable_params(), learning_rate=0.05, beta1=0.8, beta2=0.99, "
                         "eps=1e-4, weight_decay=0.1)\n" + _steps(3),
})
OPTIONS.update({
    "Lamb": {"differs": _WHY_LAMB, "oracle": _oracle(_LAMB.format(b1=0.9, b2=0.999, eps=1e-6, wd=0.0, lr=0.1)),
             "rtol": 1e-4, "atol": 1e-5},
    "Lamb_weight_decay": {"differs": _WHY_LAMB, "rtol": 1e-4, "atol": 1e-5,
                          "oracle": _oracle(_LAMB.format(b1=0.8, b2=0.99, eps=1e-4, wd=0.1, lr=0.05))},
})
# float32 rounding: the wheel's Adam kernel orders its operations differently (moments agree to ~2e-5)
OPTIONS.update({case: {"rtol": 1e-4, "atol": 1e-5} for case in ("LazyAdam", "AdamOffload")})

# mint.optim: Adam runs on the CPU wheel but leaves the parameters unchanged; AdamW and FusedAdamW have no CPU kernel
# ("The kernel AdamW unregistered"). mskernel takes torch's step, computed here by numpy
_MNET = _M + ("ms.set_seed(0)\nnet = mint.nn.Linear(3, 2, weight_init='ones', bias_init='zeros')\n"
              "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
              "grad_fn = ms.value_and_grad(lambda a: (net(a) ** 2).mean(), None, net.trainable_params())\n")
_ADAM = ("for k, (p, g) in enumerate(zip(ps, gs)):\n"
         "    g = -g if {maximize} else g\n"
         "    p = p * (1 - {lr} * {wd}) if {decoupled} else p\n"
         "    g = g if {decoupled} else g + {wd} * p\n"
         "    m = st.get(('m', k), 0) * {b1} + (1 - {b1}) * g\n    v = st.get(('v', k), 0) * {b2} + (1 - {b2}) * g * g\n"
         "    st[('m', k)], st[('v', k)] = m, v\n"
         "    if {amsgrad}:\n        v = st[('vmax', k)] = np.maximum(st.get(('vmax', k), 0), v)\n"
         "    ps[k] = p - {lr} / (1 - {b1} ** t) * m / (np.sqrt(v) / np.sqrt(1 - {b2} ** t) + {eps})")


def _adam(cls, lr, wd, b1=0.9, b2=0.999, eps=1e-8, amsgrad=False, maximize=False):
    args = f"lr={lr}, betas=({b1}, {b2}), eps={eps}, weight_decay={wd}, amsgrad={amsgrad}, maximize={maximize}"
    src = _MNET + f"opt = mint.optim.{cls}(net.trainable_params(), {args})\n" + _steps(3)
    oracle = _oracle(_ADAM.format(lr=lr, wd=wd, b1=b1, b2=b2, eps=eps, amsgrad=amsgrad, maximize=maximize,
                                  decoupled=cls != "Adam"))
    return src, oracle


_WHY_MADAM = ("MindSpore 2.10's CPU wheel runs mint.optim.Adam's step without error but leaves the parameters "
              "unchanged; mskernel takes the step it documents (torch's Adam)")
_WHY_MADAMW = ("MindSpore 2.10's CPU wheel has no kernel for mint.optim.{}'s step (\"The kernel AdamW unregistered\"); "
               "mskernel takes the step it documents (torch's AdamW)")
for case, cls, kw in [("mint_Adam", "Adam", dict(lr=0.1, wd=0.0)),
                      ("mint_Adam_decay_amsgrad", "Adam", dict(lr=0.05, wd=0.1, b1=0.8, b2=0.99, amsgrad=True)),
                      ("mint_Adam_maximize", "Adam", dict(lr=0.1, wd=0.0, eps=1e-3, maximize=True)),
                      ("mint_AdamW", "AdamW", dict(lr=0.1, wd=0.01)),
                      ("mint_AdamW_options", "AdamW", dict(lr=0.05, wd=0.2, b1=0.8, b2=0.99, amsgrad=True,
                                                           maximize=True)),
                      ("mint_FusedAdamW", "FusedAdamW", dict(lr=0.1, wd=0.05))]:
    CASES[case], oracle = _adam(cls, **kw)
    why = _WHY_MADAM if cls == "Adam" else _WHY_MADAMW.format(cls)
    OPTIONS[case] = {"differs": why, "oracle": oracle, "rtol": 1e-4, "atol": 1e-5}
CASES["mint_optim_state_names"] = (_MNET + "result = [[p.name for p in o.get_parameters() if p.name.startswith(('exp', "
                                   "'state'))] for o in (mint.optim.Adam(net.trainable_params()), "
                                   "mint.optim.AdamW(net.trainable_params()))]")
for case, src in {
    "mint_Adam_lr_int": "mint.optim.Adam([w], lr=1)",
    "mint_Adam_betas_list": "mint.optim.Adam([w], betas=[0.9, 0.99])",
    "mint_AdamW_betas_list": "mint.optim.AdamW([w], betas=[0.9, 0.99])",
    "mint_Adam_betas_size": "mint.optim.Adam([w], betas=(0.9,))",
    "mint_Adam_lr_negative": "mint.optim.Adam([w], lr=-0.1)",
    "mint_AdamW_beta0": "mint.optim.AdamW([w], betas=(1.0, 0.9))",
    "mint_FusedAdamW_weight_decay": "mint.optim.FusedAdamW([w], weight_decay=-1.0)",
    "mint_Adam_eps": "mint.optim.Adam([w], eps=-1.0)",
    "mint_Adam_amsgrad_int": "mint.optim.Adam([w], amsgrad=1)",
}.items():
    CASES[f"{case}_error"] = _M + _W + f"result = {src}"
    OPTIONS[f"{case}_error"] = {"message": True}

# SyncBatchNorm in one process: BatchNorm over the local batch (the wheel without init())
_IMG = "img = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / 7)\n"
CASES.update({
    "nn_SyncBatchNorm_train": _IMG + "m = nn.SyncBatchNorm(3)\nm.set_train(True)\ny = m(img)\n"
                              "result = (y, m(img[:, :, 0, 0]), [p.value() for p in m.get_parameters()], "
                              "[p.name for p in m.get_parameters()])",
    "nn_SyncBatchNorm_eval": _IMG + "m = nn.SyncBatchNorm(3, eps=1e-3, momentum=0.5, beta_init='ones', moving_mean_init='ones')\n"
                             "result = (m(img), str(m))",
    "nn_SyncBatchNorm_grad": _IMG + "m = nn.SyncBatchNorm(3)\nm.set_train(True)\n"
                             "result = ms.grad(lambda a: (m(a) * a).sum())(img)",
    "nn_SyncBatchNorm_rank_error": "m = nn.SyncBatchNorm(3)\nresult = m(Tensor(np.ones((2, 3, 2), np.float32)))",
    "mint_SyncBatchNorm_train": _M + _IMG + "m = mint.nn.SyncBatchNorm(3)\nm.set_train(True)\ny = m(img)\n"
                                "result = (y, m(img[:, :, 0]), [p.value() for p in m.get_parameters()], "
                                "[p.name for p in m.get_parameters()])",
    "mint_SyncBatchNorm_eval": _M + _IMG + "m = mint.nn.SyncBatchNorm(3, eps=1e-3, momentum=0.5, affine=False)\n"
                               "result = m(img[:, :, 0])",
    "mint_SyncBatchNorm_grad": _M + _IMG + "m = mint.nn.SyncBatchNorm(3)\nm.set_train(True)\n"
                               "result = ms.grad(lambda a: (m(a) * a).sum())(img)",
})
OPTIONS["nn_SyncBatchNorm_rank_error"] = {"message": True}

# mint functions the CPU wheel has no kernel for ("The kernel AddcdivExt unregistered", BatchNormStats,
# BatchNormElemt, BatchNormGatherStatsWithCounts; conv_tbc: "Not implement exception"): torch's documented
# arithmetic, computed by numpy in float64 (gradients by central differences)
_XY = ("x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
       "y = Tensor(np.array([[0.5, 2.0, -1.0], [3.0, -0.5, 2.0]], np.float32))\n")
_BN = ("img = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.5 / 7)\n"
       "w = Tensor(np.array([1.0, 2.0, -0.5], np.float32))\nb = Tensor(np.array([0.1, 0.0, -0.2], np.float32))\n")
_GATHER = ("mean = Tensor(np.array([[0.5, 1.0, -1.0], [1.5, 0.0, 2.0]], np.float32))\n"
           "invstd = Tensor(np.array([[2.0, 1.0, 0.5], [1.0, 4.0, 1.0]], np.float32))\n"
           "rm = ms.Parameter(Tensor(np.zeros(3, np.float32)), name='rm')\n"
           "rv = ms.Parameter(Tensor(np.ones(3, np.float32)), name='rv')\n")
_TBC = ("xt = Tensor(np.arange(24, dtype=np.float32).reshape(4, 2, 3) / 5 - 1)\n"
        "wt = Tensor(np.arange(18, dtype=np.float32).reshape(3, 3, 2) / 9 - 0.7)\n"
        "bt = Tensor(np.array([0.5, -0.25], np.float32))\n")
_O_XY = ("x = np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]])\ny = np.array([[0.5, 2.0, -1.0], [3.0, -0.5, 2.0]])\n")
_O_BN = ("img = np.arange(24, dtype=np.float64).reshape(2, 3, 2, 2) ** 1.5 / 7\n"
         "w = np.array([1.0, 2.0, -0.5])\nb = np.array([0.1, 0.0, -0.2])\n"
         "def stats(a, eps):\n    m = a.mean((0, 2, 3))\n    v = ((a - m[None, :, None, None]) ** 2).mean((0, 2, 3))\n"
         "    return m, 1 / np.sqrt(v + eps)\n"
         "def elemt(a, m, s):\n    c = lambda t: t[None, :, None, None]\n    return (a - c(m)) * c(s) * c(w) + c(b)\n")
_O_GATHER = ("mean = np.array([[0.5, 1.0, -1.0], [1.5, 0.0, 2.0]])\ninvstd = np.array([[2.0, 1.0, 0.5], [1.0, 4.0, 1.0]])\n"
             "n = np.array([3.0, 5.0])[:, None]\ngm = (n * mean).sum(0) / n.sum()\n"
             "gv = (n * (1 / invstd ** 2 - 1e-5 + (mean - gm) ** 2)).sum(0) / n.sum()\n")
_O_TBC = ("xt = np.arange(24, dtype=np.float64).reshape(4, 2, 3) / 5 - 1\nwt = np.arange(18, dtype=np.float64).reshape(3, 3, 2) / 9 - 0.7\n"
          "bt = np.array([0.5, -0.25])\n"
          "def tbc(x, pad):\n    xp = np.pad(x, ((pad, pad), (0, 0), (0, 0)))\n    T = xp.shape[0] - wt.shape[0] + 1\n"
          "    return np.stack([sum(xp[t + k] @ wt[k] for k in range(wt.shape[0])) for t in range(T)]) + bt\n")
_F32 = "result = as_tensor(np.asarray({}, np.float32))"
for case, src, oracle in [
    ("mint_addcdiv", _XY + "result = mint.addcdiv(x, y, x + 10, value=0.5)", _O_XY + _F32.format("x + 0.5 * y / (x + 10)")),
    ("mint_addcdiv_default", _XY + "result = mint.addcdiv(x, y, y + 10)", _O_XY + _F32.format("x + y / (y + 10)")),
    ("mint_addcdiv_grad", _XY + "result = ms.grad(lambda a, c: (mint.addcdiv(a, a, c + 10, value=2.0) ** 2).sum(), (0, 1))(x, y)",
     _O_XY + "f = lambda a, c: ((a + 2.0 * a / (c + 10)) ** 2).sum()\n"
     "result = (as_tensor(numeric_grad(f, x, y).astype(np.float32)), as_tensor(numeric_grad(f, x, y, wrt=1).astype(np.float32)))"),
    ("mint_batch_norm_stats", _BN + "result = mint.batch_norm_stats(img, 1e-3)",
     _O_BN + "m, s = stats(img, 1e-3)\nresult = (as_tensor(m.astype(np.float32)), as_tensor(s.astype(np.float32)))"),
    ("mint_batch_norm_elemt", _BN + "m, s = mint.batch_norm_stats(img, 1e-5)\nresult = mint.batch_norm_elemt(img, w, b, m, s, 1e-5)",
     _O_BN + _F32.format("elemt(img, *stats(img, 1e-5))")),
    ("mint_batch_norm_elemt_grad", _BN + "f = lambda a: (mint.batch_norm_elemt(a, w, b, *mint.batch_norm_stats(a, 1e-5)) * a).sum()\n"
     "result = ms.grad(f)(img)",
     _O_BN + "result = as_tensor(numeric_grad(lambda a: (elemt(a, *stats(a, 1e-5)) * a).sum(), img).astype(np.float32))"),
    ("mint_batch_norm_gather_stats_with_counts", _M + _BN + _GATHER +
     "out = mint.batch_norm_gather_stats_with_counts(img, mean, invstd, rm, rv, 0.2, 1e-5, Tensor(np.array([3.0, 5.0], np.float32)))\n"
     "result = (out, rm.value(), rv.value())",
     _O_GATHER + "result = ((as_tensor(gm.astype(np.float32)), as_tensor((1 / np.sqrt(gv + 1e-5)).astype(np.float32))), "
     "as_tensor((0.2 * gm).astype(np.float32)), as_tensor((0.8 + 0.2 * gv * 8 / 7).astype(np.float32)))"),
    ("mint_conv_tbc", _TBC + "result = mint.conv_tbc(xt, wt, bt)", _O_TBC + _F32.format("tbc(xt, 0)")),
    ("mint_conv_tbc_pad", _TBC + "result = mint.conv_tbc(xt, wt, bt, 1)", _O_TBC + _F32.format("tbc(xt, 1)")),
    ("mint_conv_tbc_grad", _TBC + "result = ms.grad(lambda a, k: (mint.conv_tbc(a, k, bt, 1) ** 2).sum(), (0, 1))(xt, wt)",
     _O_TBC + "def f(a, k):\n    global wt\n    keep, wt = wt, k\n    out = (tbc(a, 1) ** 2).sum()\n    wt = keep\n    return out\n"
     "result = (as_tensor(numeric_grad(f, xt, wt).astype(np.float32)), as_tensor(numeric_grad(f, xt, wt, wrt=1).astype(np.float32)))"),
]:
    CASES[case] = (src if src.startswith(_M) else _M + src)
    OPTIONS[case] = {"differs": "MindSpore 2.10's CPU wheel has no kernel for it; mskernel computes torch's documented "
                                "arithmetic", "oracle": oracle, "rtol": 1e-4, "atol": 1e-4}

# Tensor methods the CPU wheel runs
_T = "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
CASES.update({
    "Tensor_top_k": _T + "result = x.top_k(2)",
    "Tensor_top_k_unsorted": _T + "result = x.top_k(3, sorted=True)[1].dtype",
    "Tensor_top_k_int": "result = Tensor(np.array([3, 1, 4, 1, 5], np.int32)).top_k(2)",
    "Tensor_reverse": _T + "result = (x.reverse([1]), x.reverse([0, 1]), x.reverse([-1]))",
    "Tensor_reverse_grad": _T + "result = ms.grad(lambda a: (a.reverse([1]) * a).sum())(x)",
    "Tensor_storage": _T + "s = x.storage()\nu = x.untyped_storage()\n"
                      "result = (s.nbytes(), s.size(), u.nbytes(), s.data_ptr() == x.data_ptr(), type(s).__name__)",
    "Tensor_hooks": _T + "y = x.copy()\nh = y.register_hook(lambda g: g * 2)\nresult = (len(x.hooks()), len(y.hooks()))",
    "Tensor_sync": _T + "result = (x.data_sync(True), x.wait_pipeline(), x.set_cast_dtype(ms.float16))",
    "Tensor_dlpack": _T + "result = (type(x.to_dlpack()).__name__, Tensor.from_dlpack(x.to_dlpack()))",
    "Tensor_flags": _T + "result = (x.symbolic_shape, x.virtual_flag, x.param_info, x.index_of_parent_, x.parent_tensor_)",
    "Tensor_to__error": _T + "result = x.to_('GPU')",
    "Tensor_assign_value_cpp": _T + "y = x.copy()\ny.assign_value_cpp(Tensor(np.ones((2, 3), np.float32)))\nresult = y",
    "Tensor_set_": _T + "y = Tensor(np.zeros(2, np.float32))\ny.set_(x)\nx[0, 0] = 7.0\nresult = (y, y.shape)",
})
OPTIONS["Tensor_to__error"] = {"message": True}

# Tensor methods the CPU wheel has no kernel for: torch's documented meaning, by numpy
_WHY_T = "MindSpore 2.10's CPU wheel has no kernel for it ({}); mskernel computes the documented result"
_O_T = "x = np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32)\n"
for case, src, oracle, why in [
    ("Tensor_addmm_", _T + "y = x.copy()\nr = y.addmm_(x, Tensor(np.ones((3, 3), np.float32)), beta=2, alpha=0.5)\nresult = (r, y)",
     _O_T + "r = 2 * x + 0.5 * x @ np.ones((3, 3), np.float32)\nresult = (as_tensor(r), as_tensor(r))", "InplaceAddmm"),
    ("Tensor_index_copy_", _T + "y = x.copy()\nr = y.index_copy_(1, Tensor(np.array([2, 0])), Tensor(np.ones((2, 2), np.float32)))\nresult = (r, y)",
     _O_T + "y = x.copy()\ny[:, 2] = 1\ny[:, 0] = 1\nresult = (as_tensor(y), as_tensor(y))", "InplaceIndexCopy"),
    ("Tensor_scatter_", _T + "y = x.copy()\nr = y.scatter_(1, Tensor(np.array([[0], [2]])), Tensor(np.full((2, 1), 9.0, np.float32)))\nresult = (r, y)",
     _O_T + "y = x.copy()\ny[0, 0] = 9\ny[1, 2] = 9\nresult = (as_tensor(y), as_tensor(y))", "InplaceScatterSrc"),
    ("Tensor_fills", _T + "y = x.copy()\nresult = (y.fills(2.5), y, Tensor(np.array([1, 2], np.int32)).fills(3.0))",
     _O_T + "result = (as_tensor(np.full((2, 3), 2.5, np.float32)), as_tensor(x), as_tensor(np.array([3, 3], np.int32)))",
     "kernel select fails"),
    ("Tensor_index", _T + "result = (x.index([Tensor(np.array([1, 0]))]), x.index((Tensor(np.array([1, 0])), Tensor(np.array([2, 2])))))",
     _O_T + "result = (as_tensor(x[[1, 0]]), as_tensor(x[[1, 0], [2, 2]]))", "\"index only supports Ascend\""),
    ("Tensor_to_", _T + "result = x.to_('CPU') is x",
     "result = True", "\"Unsupported op [Free] on CPU\""),
]:
    CASES[case] = src
    OPTIONS[case] = {"differs": _WHY_T.format(why), "oracle": oracle}

# fused optimizer primitives: FusedCastAdamWeightDecay runs on the CPU wheel; FusedWeightScaleApplyMomentum is
# GPU-only there (kernel select fails on CPU): its GPU kernel's arithmetic, by numpy
_FC = ("var = ms.Parameter(Tensor(np.array([[0.6, 0.4], [0.1, 0.5]], np.{dt})), name='var')\n"
       "m = ms.Parameter(Tensor(np.full((2, 2), 0.1, np.float32)), name='m')\n"
       "v = ms.Parameter(Tensor(np.full((2, 2), 0.2, np.float32)), name='v')\n"
       "g = Tensor(np.array([[0.3, -0.7], [0.5, 0.2]], np.{dt}))\nop = ops.FusedCastAdamWeightDecay()\n"
       "for _ in range(3):\n"
       "    op(var, m, v, Tensor(np.float32(0.1)), Tensor(np.float32(0.9)), Tensor(np.float32(0.999)), "
       "Tensor(np.float32(1e-8)), Tensor(np.float32({wd})), g, Tensor(np.float32(2.0)))\n"
       "result = (var.value(), m.value(), v.value())")
CASES.update({
    "FusedCastAdamWeightDecay_fp16": _FC.format(dt="float16", wd=0.05),
    "FusedCastAdamWeightDecay_fp32": _FC.format(dt="float32", wd=0.0),
    "FusedWeightScaleApplyMomentum": "var = ms.Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name='var')\n"
                                     "acc = ms.Parameter(Tensor(np.array([0.5, 0.0], np.float32)), name='acc')\n"
                                     "op = ops.FusedWeightScaleApplyMomentum()\nfor _ in range(2):\n"
                                     "    op(Tensor(np.float32(0.1)), Tensor(np.float32(0.5)), var, acc, "
                                     "Tensor(np.float32(0.1)), Tensor(np.array([2.0, 1.0], np.float32)), "
                                     "Tensor(np.float32(0.9)))\nresult = (var.value(), acc.value())",
})
OPTIONS["FusedWeightScaleApplyMomentum"] = {
    "differs": "MindSpore 2.10 runs FusedWeightScaleApplyMomentum on GPUs only (its CPU wheel's kernel select fails); "
               "mskernel computes that kernel's documented step",
    "oracle": "w, a = np.array([1.0, -2.0]), np.array([0.5, 0.0])\nfor _ in range(2):\n"
              "    a = 0.9 * a + (w * 0.1 + np.array([2.0, 1.0]) * 0.5)\n    w = w - 0.1 * a\n"
              "result = (as_tensor(w.astype(np.float32)), as_tensor(a.astype(np.float32)))"}

# nn.AdaFactor (the CPU wheel runs it with its FusedAdaFactor CPU kernel)
CASES.update({
    "AdaFactor": _NET + "opt = nn.AdaFactor(net.trainable_params())\n"
                 + _steps(3, "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq") + " + (opt.step.value(),)",
    "AdaFactor_lr_decay": _NET + "opt = nn.AdaFactor(net.trainable_params(), learning_rate=0.05, relative_step=False, "
                          "scale_parameter=False, weight_decay=0.1, clip_threshold=0.5, decay_rate=0.5)\n" + _steps(3),
    "AdaFactor_no_first_moment": _NET + "opt = nn.AdaFactor(net.trainable_params(), beta1=0.0, warmup_init=True)\n" + _steps(3),
    "AdaFactor_names": _NET + "result = [p.name for p in nn.AdaFactor(net.trainable_params()).get_parameters()]",
    "AdaFactor_lr_error": _W + "result = nn.AdaFactor([w], learning_rate=0.1)",
    "AdaFactor_eps_error": _W + "result = nn.AdaFactor([w], eps=(1e-30,))",
})
OPTIONS.update({"AdaFactor_lr_error": {"message": True}, "AdaFactor_eps_error": {"message": True}})

# ops.FusedAdaFactor (the CPU kernel nn.AdaFactor uses)
_FA = ("p = ms.Parameter(Tensor(np.array([[1.0, -2.0, 0.5], [0.5, 3.0, -1.0]], np.float32)), name='p')\n"
       "m = ms.Parameter(Tensor(np.zeros((2, 3), np.float32)), name='m')\n"
       "r = ms.Parameter(Tensor(np.zeros(2, np.float32)), name='r')\nc = ms.Parameter(Tensor(np.zeros(3, np.float32)), name='c')\n"
       "s = ms.Parameter(Tensor(np.zeros(1, np.float32)), name='s')\n"
       "g = Tensor(np.array([[0.5, -1.0, 0.2], [2.0, 0.1, -0.3]], np.float32))\n"
       "op = ops.FusedAdaFactor({attrs})\n"
       "for b2 in (0.0, 0.4, 0.5):\n"
       "    op(Tensor(np.array([1e-30, 1e-3], np.float32)), Tensor(np.float32(1.0)), Tensor(np.float32(0.9)), "
       "Tensor(np.float32(b2)), Tensor(np.float32(0.1)), Tensor(np.float32(0.05)), g, p, m, r, c, s)\n"
       "result = (p.value(), m.value(), r.value(), c.value())")
CASES.update({
    "FusedAdaFactor": _FA.format(attrs=""),
    "FusedAdaFactor_all": _FA.format(attrs="enable_scale_parameter=True, enable_first_moment=True, enable_weight_decay=True"),
})
