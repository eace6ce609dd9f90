"""The margin, embedding and likelihood losses (ops.margin_ranking_loss ... ops.gaussian_nll_loss, their
primitives, the nn loss cells, mint.nn's CosineEmbeddingLoss/SoftMarginLoss): values over each reduction,
gradients, dtypes and error texts."""
_A = ("a = Tensor(np.array([[0.3, -0.8, 1.2], [0.4, 0.3, -0.5]], np.float32))\n"
      "b = Tensor(np.array([[0.4, 1.2, 0.1], [-0.4, -0.9, 0.7]], np.float32))\n")
_R = ("x1 = Tensor(np.array([0.3864, -2.4093, -1.4076, 0.5], np.float32))\n"
      "x2 = Tensor(np.array([-0.6012, -1.6681, 1.2928, 0.2], np.float32))\n"
      "t = Tensor(np.array([-1.0, -1.0, 1.0, 1.0], np.float32))\n")
_H = ("x = Tensor(np.array([[0.9, -1.2, 2.0], [0.8, 3.9, 0.5], [1.0, 0.2, -1.0]], np.float32))\n"
      "y = Tensor(np.array([[1, 1, -1], [1, -1, 1], [-1, 1, -1]], np.float32))\n")
_S = ("x = Tensor(np.array([[0.3, 0.6, -0.6], [0.9, -0.4, 0.2]], np.float32))\n"
      "y = Tensor(np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]], np.float32))\n"
      "pm = Tensor(np.array([[-1.0, 1.0, 1.0], [1.0, -1.0, -1.0]], np.float32))\n")
_G = ("x = Tensor(np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], np.float32))\n"
      "t = Tensor(np.array([[2.0, 3.0], [1.0, 4.0], [6.0, 4.0]], np.float32))\n"
      "v = Tensor(np.array([[0.5, 2.0], [1.0, 1e-8], [3.0, 0.25]], np.float32))\n")
_M = ("x = Tensor(np.array([[0.1, 0.8, 0.3, -0.2], [0.5, 0.2, 0.9, 0.4], [0.3, 0.3, 0.1, 1.0]], np.float32))\n"
      "t = Tensor(np.array([1, 2, 0], np.int64))\n"
      "w = Tensor(np.array([1.0, 2.0, 0.5, 1.5], np.float32))\n")
_T = ("a = Tensor(np.array([[0.3, 0.7, 0.1], [0.5, 0.5, -0.2]], np.float32))\n"
      "p = Tensor(np.array([[0.4, 0.6, 0.3], [0.4, 0.6, 0.0]], np.float32))\n"
      "n = Tensor(np.array([[0.2, 0.9, 0.0], [0.3, 0.7, 1.0]], np.float32))\n")
_ML = ("x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], np.float32))\n"
       "t = Tensor(np.array([[3, 0, -1, 1], [2, 3, -1, 1]], np.int32))\n")
_NL = ("x = Tensor(np.array([[-0.5, -1.2, -2.0], [-0.3, -1.5, -0.9], [-2.2, -0.1, -1.0]], np.float32))\n"
       "t = Tensor(np.array([0, 2, 1], np.int32))\n"
       "w = Tensor(np.array([0.4, 0.8, 1.5], np.float32))\n")
_RED = ("none", "sum", "mean")

CASES = {}
for r in _RED:
    CASES[f"margin_ranking_{r}"] = _R + f"result = ops.margin_ranking_loss(x1, x2, t, 0.5, '{r}')"
    CASES[f"cosine_embedding_{r}"] = _A + f"result = ops.cosine_embedding_loss(a, b, Tensor(np.array([1, -1], np.int32)), 0.2, '{r}')"
    CASES[f"hinge_embedding_{r}"] = _H + f"result = ops.hinge_embedding_loss(x, y, 0.7, '{r}')"
    CASES[f"multilabel_soft_margin_{r}"] = _S + f"result = ops.multilabel_soft_margin_loss(x, y, reduction='{r}')"
    CASES[f"gaussian_nll_{r}"] = _G + f"result = ops.gaussian_nll_loss(x, t, v, reduction='{r}')"
    CASES[f"multi_margin_{r}"] = _M + f"result = ops.multi_margin_loss(x, t, reduction='{r}')"
    CASES[f"MultiMarginLoss_{r}"] = _M + f"result = ops.MultiMarginLoss(p=2, margin=0.5, reduction='{r}')(x, t, w)"
    CASES[f"NLLLoss_prim_{r}"] = _NL + f"result = ops.NLLLoss(reduction='{r}')(x, t, w)"
    CASES[f"soft_margin_{r}"] = _S + f"result = ops.soft_margin_loss(x, pm, '{r}')"
    CASES[f"triplet_{r}"] = _T + f"result = ops.triplet_margin_loss(a, p, n, reduction='{r}')"
    CASES[f"multilabel_margin_{r}"] = _ML + f"result = ops.multilabel_margin_loss(x, t, '{r}')"
CASES.update({
    "cosine_embedding_int_target_margin_int": _A + "result = ops.cosine_embedding_loss(a, b, Tensor(np.array([-1, 1], np.int32)), 0)",
    "cosine_embedding_grad": _A + "result = ms.grad(lambda u, w: ops.cosine_embedding_loss(u, w, Tensor(np.array([1, -1], np.int32)), -0.5), (0, 1))(a, b)",
    "cosine_embedding_margin_error": _A + "result = ops.cosine_embedding_loss(a, b, Tensor(np.array([1, -1], np.int32)), 1.5)",
    "margin_ranking_grad": _R + "result = ms.grad(lambda u, w: ops.margin_ranking_loss(u, w, t, 0.5), (0, 1))(x1, x2)",
    "margin_ranking_margin_int_error": _R + "result = ops.margin_ranking_loss(x1, x2, t, 1)",
    "margin_ranking_float16": _R + "result = ops.margin_ranking_loss(x1.astype(ms.float16), x2.astype(ms.float16), t.astype(ms.float16))",
    "hinge_embedding_grad": _H + "result = ms.grad(lambda u: ops.hinge_embedding_loss(u, y, 0.7))(x)",
    "multilabel_soft_margin_weight": _S + "result = ops.multilabel_soft_margin_loss(x, y, Tensor(np.array([0.5, 1.0, 2.0], np.float32)))",
    "multilabel_soft_margin_grad": _S + "result = ms.grad(lambda u: ops.multilabel_soft_margin_loss(u, y))(x)",
    "gaussian_nll_full": _G + "result = ops.gaussian_nll_loss(x, t, v, full=True, eps=1e-3)",
    "gaussian_nll_var_broadcast": _G + "result = ops.gaussian_nll_loss(x, t, Tensor(np.array([0.5, 2.0, 1.5], np.float32)))",
    "gaussian_nll_grad": _G + "result = ms.grad(lambda u, s: ops.gaussian_nll_loss(u, t, s), (0, 1))(x, v + 0.5)",
    "gaussian_nll_eps_error": _G + "result = ops.gaussian_nll_loss(x, t, v, eps=0.0)",
    "multi_margin_weight_p2": _M + "result = ops.multi_margin_loss(x, t, p=2, margin=2, weight=w)",
    "multi_margin_grad": _M + "result = ms.grad(lambda u: ops.multi_margin_loss(u, t, weight=w))(x)",
    "multi_margin_margin_float_error": _M + "result = ops.multi_margin_loss(x, t, margin=1.0)",
    "BCEWithLogitsLoss_prim": _S + "result = ops.BCEWithLogitsLoss('sum')(x, y, Tensor(np.array([1.0, 2.0, 0.5], np.float32)), Tensor(np.array([1.5, 1.0, 2.0], np.float32)))",
    "BinaryCrossEntropy_prim": "p = Tensor(np.array([0.2, 0.7, 0.1], np.float32))\nl = Tensor(np.array([0., 1., 1.], np.float32))\n"
                               "result = (ops.BinaryCrossEntropy()(p, l, Tensor(np.array([1, 2, 2], np.float32))), ops.BinaryCrossEntropy('none')(p, l))",
    "KLDivLoss_prim": "p = Tensor(np.array([0.2, 0.7, 0.1], np.float32))\nl = Tensor(np.array([0., 0.6, 0.4], np.float32))\n"
                      "result = (ops.KLDivLoss('sum')(p, l), ops.KLDivLoss('none')(p, l), ops.KLDivLoss()(p, l))",
    "SmoothL1Loss_prim": _A + "result = (ops.SmoothL1Loss()(a, b), ops.SmoothL1Loss(beta=0.5, reduction='sum')(a, b))",
    "L2Loss_prim": _A + "result = (ops.L2Loss()(a), ops.L2Loss()(a.astype(ms.float16)))",
    "L2Loss_grad": _A + "result = ms.grad(lambda u: ops.L2Loss()(u))(a)",
    "NLLLoss_prim_ignore": _NL + "result = ops.NLLLoss(ignore_index=2)(x, Tensor(np.array([0, 2, 1], np.int32)), w)",
    "mse_loss_ext": _A + "result = (ops.mse_loss_ext(a, b), ops.mse_loss_ext(a, b, 'none'), ops.mse_loss_ext(a, b, 'sum'))",
    "soft_margin_grad": _S + "result = ms.grad(lambda u: ops.soft_margin_loss(u, pm))(x)",
    "SoftMarginLoss_prim": _S + "result = ops.SoftMarginLoss('sum')(x, pm)",
    "triplet_swap_p1": _T + "result = ops.triplet_margin_loss(a, p, n, margin=0.3, p=1, swap=True)",
    "TripletMarginLoss_prim": _T + "result = ops.TripletMarginLoss(p=2, swap=True, reduction='none')(a, p, n, Tensor(0.5, ms.float32))",
    "MultilabelMarginLoss_prim": _ML + "result = ops.MultilabelMarginLoss('none')(x, t)",
    # the nn cells
    "nn_CosineEmbeddingLoss": _A + "result = nn.CosineEmbeddingLoss(margin=0.1, reduction='sum')(a, b, Tensor(np.array([1, -1], np.int32)))",
    "nn_CosineEmbeddingLoss_margin_error": "result = nn.CosineEmbeddingLoss(margin=2.0)",
    "nn_HingeEmbeddingLoss": _H + "result = nn.HingeEmbeddingLoss(margin=0.5, reduction='none')(x, y)",
    "nn_MarginRankingLoss": _R + "result = nn.MarginRankingLoss(margin=0.1, reduction='sum')(x1, x2, t)",
    "nn_MultiMarginLoss": _M + "result = (nn.MultiMarginLoss()(x, t), nn.MultiMarginLoss(p=2, weight=w)(x, t), nn.MultiMarginLoss(reduction='none')(x, t, w))",
    "nn_MultiLabelSoftMarginLoss": _S + "result = nn.MultiLabelSoftMarginLoss(weight=Tensor(np.array([0.5, 1.0, 2.0], np.float32)), reduction='none')(x, y)",
    "nn_TripletMarginWithDistanceLoss": _T + "result = (nn.TripletMarginWithDistanceLoss()(a, p, n), nn.TripletMarginWithDistanceLoss(swap=True, reduction='none', margin=0.2)(a, p, n))",
    "nn_TripletMarginWithDistanceLoss_fn": _T + "result = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, w: ops.abs(u - w).sum(1), reduction='sum')(a, p, n)",
    "nn_TripletMarginWithDistanceLoss_grad": _T + "loss = nn.TripletMarginWithDistanceLoss()\nresult = ms.grad(lambda u: loss(u, p, n))(a)",
    "nn_GaussianNLLLoss": _G + "result = nn.GaussianNLLLoss(full=True, reduction='sum')(x, t, v)",
    "nn_GaussianNLLLoss_eps_error": "result = nn.GaussianNLLLoss(eps=-1.0)",
    "nn_PoissonNLLLoss": _S + "result = (nn.PoissonNLLLoss()(x, y), nn.PoissonNLLLoss(reduction='none')(x, y))",
    "nn_PoissonNLLLoss_full": "x = Tensor(np.array([[0.3, 0.7], [0.5, 2.5]], np.float32))\nt = Tensor(np.array([[1.0, 2.0], [3.0, 0.0]], np.float32))\n"
                              "result = (nn.PoissonNLLLoss(log_input=False, full=True)(x, t), nn.PoissonNLLLoss(full=True, reduction='sum')(x, t))",
    "nn_PoissonNLLLoss_grad": _S + "loss = nn.PoissonNLLLoss()\nresult = ms.grad(lambda u: loss(u, y))(x)",
    "nn_FocalLoss_sparse": "logits = Tensor(np.array([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]], np.float32))\nlabels = Tensor(np.array([[1], [1], [0]], np.int32))\n"
                           "result = (nn.FocalLoss(weight=Tensor(np.array([1.0, 2.0], np.float32)), gamma=2.0)(logits, labels), nn.FocalLoss(gamma=1.5, reduction='none')(logits, labels))",
    "nn_FocalLoss_onehot": "logits = Tensor(np.array([[0.8, 1.4, 0.2], [0.5, 0.9, -1.0]], np.float32))\nlabels = Tensor(np.array([[0, 1, 0], [1, 0, 0]], np.float32))\n"
                           "result = (nn.FocalLoss()(logits, labels), nn.FocalLoss(weight=Tensor(np.array([1.0, 2.0, 0.5], np.float32)), reduction='sum')(logits, labels))",
    "nn_FocalLoss_grad": "logits = Tensor(np.array([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]], np.float32))\nlabels = Tensor(np.array([[1], [1], [0]], np.int32))\n"
                         "loss = nn.FocalLoss()\nresult = ms.grad(lambda u: loss(u, labels))(logits)",
    "nn_FocalLoss_gamma_error": "result = nn.FocalLoss(gamma=2)",
    "nn_DiceLoss": "x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32))\ny = Tensor(np.array([[0, 1], [1, 0], [0, 1]], np.float32))\n"
                   "result = (nn.DiceLoss()(x, y), nn.DiceLoss(smooth=0.5)(x, y), ms.grad(lambda u: nn.DiceLoss()(u, y))(x))",
    "nn_DiceLoss_shape_error": "result = nn.DiceLoss()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)))",
    "nn_MultiClassDiceLoss": "x = Tensor(np.array([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5], [0.9, 0.6, 0.3]], np.float32))\n"
                             "y = Tensor(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32))\n"
                             "result = (nn.MultiClassDiceLoss()(x, y), nn.MultiClassDiceLoss(ignore_indiex=1, activation='sigmoid')(x, y), "
                             "nn.MultiClassDiceLoss(weights=Tensor(np.array([[0.5], [1.0], [2.0]], np.float32)), activation=None)(x, y))",
    "nn_MultiClassDiceLoss_weights_error": "x = Tensor(np.array([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5]], np.float32))\n"
                                           "y = Tensor(np.array([[0, 1, 0], [1, 0, 0]], np.float32))\n"
                                           "result = nn.MultiClassDiceLoss(weights=Tensor(np.array([[0.5, 1.0, 2.0]], np.float32)))(x, y)",
    "nn_MultiClassDiceLoss_activation_error": "result = nn.MultiClassDiceLoss(activation='gelu')",
    "nn_RMSELoss": "result = (nn.RMSELoss()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([1, 2, 2], np.float32))), "
                   "nn.RMSELoss()(Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([[1, 1, 1], [1, 2, 2]], np.float32))))",
    "nn_MAELoss": "x = Tensor(np.array([1, 2, 3], np.float32))\ny = Tensor(np.array([[1, 1, 1], [1, 2, 2]], np.float32))\n"
                  "result = (nn.MAELoss()(x, y), nn.MAELoss(reduction='none')(x, y), nn.MAELoss('sum')(x, y))",
    "nn_L1LossExt": "x = Tensor(np.array([1, 2, 3], np.float32))\ny = Tensor(np.array([[1, 1, 1], [1, 2, 2]], np.float32))\n"
                    "result = (nn.L1LossExt()(x, y), nn.L1LossExt(reduction='none')(x, y))",
    "nn_SoftMarginLoss": _S + "result = nn.SoftMarginLoss()(x, pm)",
    "nn_TripletMarginLoss": _T + "result = nn.TripletMarginLoss(p=1, margin=0.4)(a, p, n)",
    "nn_MultilabelMarginLoss": _ML + "result = nn.MultilabelMarginLoss()(x, t)",
    "mint_cosine_embedding": _A + "from mindspore import mint\nresult = mint.nn.functional.cosine_embedding_loss(a, b, Tensor(np.array([1, -1], np.int32)), 0.2)",
    "mint_CosineEmbeddingLoss": _A + "from mindspore import mint\nresult = mint.nn.CosineEmbeddingLoss(reduction='none')(a, b, Tensor(np.array([-1, 1], np.int32)))",
    "mint_soft_margin": _S + "from mindspore import mint\nresult = (mint.nn.functional.soft_margin_loss(x, pm), mint.nn.SoftMarginLoss(reduction='none')(x, pm))",
})

_CTC = ("lp = ops.log_softmax(Tensor(np.random.randn(6, 3, 4).astype(np.float32)), 2)\n"
        "tg = Tensor(np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]], np.int32))\n"
        "il = Tensor(np.array([6, 5, 4], np.int32))\ntl = Tensor(np.array([3, 2, 1], np.int32))\n")
CASES.update({
    "ctc_loss_none": _CTC + "result = ops.ctc_loss(lp, tg, il, tl, reduction='none')",
    "ctc_loss_mean_sum": _CTC + "result = (ops.ctc_loss(lp, tg, il, tl)[0], ops.ctc_loss(lp, tg, il, tl, reduction='sum')[0])",
    "ctc_loss_blank3": _CTC + "result = ops.ctc_loss(lp, tg - 1 + 1, il, tl, blank=3, reduction='none')[0]",
    "ctc_loss_grad": _CTC + "result = ms.grad(lambda x: ops.ctc_loss(x, tg, il, tl)[0])(lp)",
    "ctc_loss_grad_raw": "x = Tensor(np.random.randn(5, 2, 3).astype(np.float32))\n"
                         "tg = Tensor(np.array([[1, 2], [2, 2]], np.int32))\nil = Tensor(np.array([5, 5], np.int32))\n"
                         "tl = Tensor(np.array([2, 2], np.int32))\n"
                         "result = ms.grad(lambda u: ops.ctc_loss(ops.log_softmax(u, 2), tg, il, tl, reduction='sum')[0])(x)",
    "ctc_loss_infinite": "lp = ops.log_softmax(Tensor(np.random.randn(2, 1, 3).astype(np.float32)), 2)\n"
                         "tg = Tensor(np.array([[1, 1]], np.int32))\nil = Tensor(np.array([2], np.int32))\ntl = Tensor(np.array([2], np.int32))\n"
                         "result = (ops.ctc_loss(lp, tg, il, tl, reduction='none')[0], ops.ctc_loss(lp, tg, il, tl, reduction='none', zero_infinity=True)[0], "
                         "ms.grad(lambda x: ops.ctc_loss(x, tg, il, tl, reduction='sum', zero_infinity=True)[0])(lp), "
                         "ms.grad(lambda x: ops.ctc_loss(x, tg, il, tl, reduction='sum')[0])(lp))",
    "CTCLossV2_prim": _CTC + "result = ops.CTCLossV2(blank=0, reduction='none')(lp, tg, il, tl)",
    "nn_CTCLoss": _CTC + "result = (nn.CTCLoss()(lp, tg, il, tl), nn.CTCLoss(reduction='none')(lp, tg, il, tl), "
                         "nn.CTCLoss(reduction='sum')(lp[:, 0], tg[0], il[:1], tl[:1]))",
    "ctc_greedy_decoder": "x = Tensor(np.random.rand(5, 3, 4).astype(np.float32))\n"
                          "result = (ops.ctc_greedy_decoder(x, Tensor(np.array([5, 3, 4], np.int32))), "
                          "ops.CTCGreedyDecoder(merge_repeated=False)(x, Tensor(np.array([5, 1, 2], np.int32))))",
})

# -- programs the CPU wheel has no kernel for: an equivalent composed of ops it has ---------------------------
_SOFT = "ops.log(1 + ops.exp(-pm * x))"
_TRIP = ("def _d(u, w, q=2, e=1e-6):\n    return (ops.abs(u - w + e) ** q).sum(1) ** (1.0 / q)\n")
_MLM = ("def _mlm(x, t):\n"
        "    xs, ts = x.asnumpy(), t.asnumpy()\n"
        "    out = []\n"
        "    for i in range(xs.shape[0]):\n"
        "        tg = []\n"
        "        for j in ts[i]:\n"
        "            if j < 0:\n"
        "                break\n"
        "            tg.append(int(j))\n"
        "        m = np.zeros((xs.shape[1], xs.shape[1]), np.float32)\n"
        "        for j in tg:\n"
        "            for k in range(xs.shape[1]):\n"
        "                if k not in tg:\n"
        "                    m[j, k] = 1\n"
        "        out.append((ops.relu(1 - (x[i].reshape(-1, 1) - x[i].reshape(1, -1))) * Tensor(m)).sum() / xs.shape[1])\n"
        "    return ops.stack(out)\n")
_RED_FN = {"none": "", "sum": ".sum()", "mean": ".mean()"}
VIA = {}
for r in _RED:
    VIA[f"soft_margin_{r}"] = _S + f"result = {_SOFT}{_RED_FN[r]}"
    VIA[f"triplet_{r}"] = _T + _TRIP + f"result = ops.relu(_d(a, p) - _d(a, n) + 1.0){_RED_FN[r]}"
    VIA[f"multilabel_margin_{r}"] = _ML + _MLM + f"result = _mlm(x, t){_RED_FN[r]}"
VIA.update({
    "mse_loss_ext": _A + "result = (ops.mse_loss(a, b), ops.mse_loss(a, b, 'none'), ops.mse_loss(a, b, 'sum'))",
    "soft_margin_grad": _S + "result = ms.grad(lambda u: ops.log(1 + ops.exp(-pm * u)).mean())(x)",
    "SoftMarginLoss_prim": _S + f"result = {_SOFT}.sum()",
    "triplet_swap_p1": _T + _TRIP + "result = ops.relu(_d(a, p, 1) - ops.minimum(_d(a, n, 1), _d(p, n, 1)) + 0.3).mean()",
    "TripletMarginLoss_prim": _T + _TRIP + "result = ops.relu(_d(a, p) - ops.minimum(_d(a, n), _d(p, n)) + 0.5)",
    "MultilabelMarginLoss_prim": _ML + _MLM + "result = (_mlm(x, t), Tensor(np.array([[1, 0, 0, 1], [0, 0, 1, 1]], np.int32)))",
    "nn_L1LossExt": "x = Tensor(np.array([1, 2, 3], np.float32))\ny = Tensor(np.array([[1, 1, 1], [1, 2, 2]], np.float32))\n"
                    "result = (nn.L1Loss()(x, y), nn.L1Loss(reduction='none')(x, y))",
    "nn_SoftMarginLoss": _S + f"result = {_SOFT}.mean()",
    "nn_TripletMarginLoss": _T + _TRIP + "result = ops.relu(_d(a, p, 1) - _d(a, n, 1) + 0.4).mean()",
    "nn_MultilabelMarginLoss": _ML + _MLM + "result = _mlm(x, t).mean()",
    "mint_soft_margin": _S + f"result = ({_SOFT}.mean(), {_SOFT})",
    "mint_CosineEmbeddingLoss": _A + "result = nn.CosineEmbeddingLoss(reduction='none')(a, b, Tensor(np.array([-1, 1], np.int32)))",
})
OPTIONS = {case: {"why": "the CPU wheel has no kernel for it (SoftMarginLoss, TripletMarginLoss, "
                         "MultilabelMarginLoss, MSELossExt, L1LossExt): the answer is an equivalent program's, "
                         "composed of ops the wheel runs"} for case in VIA}
VIA["mint_cosine_embedding"] = _A + "result = ops.cosine_embedding_loss(a, b, Tensor(np.array([1, -1], np.int32)), 0.2)"
for _c in ("mint_CosineEmbeddingLoss", "mint_cosine_embedding"):
    OPTIONS[_c] = {"why": "the CPU wheel's mint cosine_embedding_loss kernel fails its shape inference ('Not implement "
                          "exception'): the answer is ops.cosine_embedding_loss's / nn.CosineEmbeddingLoss's"}
OPTIONS.update({case: {"message": True} for case in CASES if case.endswith("_error")})
