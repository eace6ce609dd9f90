"""NN functional ops, layers and losses used by training scripts: values, gradients, names, printing."""
_X = "x = Tensor(np.array([[0.3, -0.7, 1.2], [2.5, -1.9, 0.05]], np.float32))\n"
_T = "t = Tensor(np.array([2, 0], np.int32))\n"
_P = "p = Tensor(np.array([[0.2, 0.3, 0.5], [0.7, 0.1, 0.2]], np.float32))\n"
_W = ("w = Tensor(np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.6]], np.float32))\n"
      "b = Tensor(np.array([0.1, -0.1], np.float32))\n")
ACT = ["softmax", "log_softmax", "gelu", "silu", "leaky_relu", "elu", "relu6", "softplus", "softsign", "hardswish",
       "hardsigmoid", "mish", "selu", "sigmoid", "relu", "tanh"]
CASES = {}
for name in ACT:
    CASES[f"{name}_value"] = _X + f"result = ops.{name}(x)"
    CASES[f"{name}_grad"] = _X + f"result = ms.grad(lambda a: (ops.{name}(a) * Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))).sum())(x)"
LOSSES = {
    "cross_entropy": _X + _T + "result = {f}(x, t)",
    "cross_entropy_weight": _X + _T + "result = {f}(x, t, weight=Tensor(np.array([1.0, 2.0, 0.5], np.float32)))",
    "cross_entropy_smoothing": _X + _T + "result = {f}(x, t, label_smoothing=0.2)",
    "cross_entropy_ignore": _X + "t = Tensor(np.array([2, -100], np.int32))\nresult = {f}(x, t)",
    "cross_entropy_sum": _X + _T + "result = {f}(x, t, reduction='sum')",
    "cross_entropy_none": _X + _T + "result = {f}(x, t, reduction='none')",
    "cross_entropy_probs": _X + _P + "result = {f}(x, p)",
    "nll_loss": _X + _T + "result = {f}(ops.log_softmax(x, 1), t)",
    "mse_loss": _X + _P + "result = {f}(x, p)",
    "l1_loss": _X + _P + "result = {f}(x, p, reduction='sum')",
    "smooth_l1_loss": _X + _P + "result = {f}(x, p, beta=0.5, reduction='mean')",
    "bce_with_logits": _X + _P + "result = {f}(x, p)",
    "bce_with_logits_pos_weight": _X + _P + "result = {f}(x, p, pos_weight=Tensor(np.array([1.0, 2.0, 3.0], np.float32)))",
    "binary_cross_entropy": _P + "q = Tensor(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], np.float32))\nresult = {f}(p, q)",
    "kl_div": _X + _P + "result = {f}(ops.log_softmax(x, 1), p, reduction='batchmean')",
}
_FN = {"cross_entropy": "ops.cross_entropy", "nll_loss": "ops.nll_loss", "mse_loss": "ops.mse_loss",
       "l1_loss": "ops.l1_loss", "smooth_l1_loss": "ops.smooth_l1_loss", "bce_with_logits": "ops.binary_cross_entropy_with_logits",
       "binary_cross_entropy": "ops.binary_cross_entropy", "kl_div": "ops.kl_div"}
for name, src in LOSSES.items():
    fn = next(v for k, v in _FN.items() if name.startswith(k))
    CASES[f"loss_{name}"] = src.format(f=fn)
    if "ignore" not in name:
        CASES[f"loss_{name}_grad"] = src.format(f=f"(lambda *a, **k: ms.grad(lambda z: {fn}(z, *a[1:], **k).sum())(a[0]))")
CASES.update({
    "dense": _X + _W + "d = nn.Dense(3, 2, weight_init=w, bias_init=b)\nresult = (d(x), [p.name for p in d.trainable_params()], str(d))",
    "dense_grad": _X + _W + "d = nn.Dense(3, 2, weight_init=w, bias_init=b)\nresult = ms.grad(lambda a: d(a).sum(), 0, d.trainable_params())(x)",
    "dense_activation": _X + _W + "d = nn.Dense(3, 2, weight_init=w, bias_init=b, activation='relu')\nresult = (d(x), str(d))",
    "dense_3d": _W + "d = nn.Dense(3, 2, weight_init=w, bias_init=b)\nresult = d(Tensor(np.ones((2, 4, 3), np.float32)))",
    "dense_no_bias": _X + _W + "d = nn.Dense(3, 2, weight_init=w, has_bias=False)\nresult = (d(x), [p.name for p in d.trainable_params()])",
    "dense_init_strings": "d = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')\nresult = (d.weight.asnumpy(), d.bias.asnumpy())",
    "dense_default_init_shapes": "d = nn.Dense(5, 4)\nresult = (d.weight.shape, d.bias.shape, str(d.weight.dtype), bool(np.all(np.abs(d.bias.asnumpy()) <= 1 / np.sqrt(5))))",
    "dense_bad_init_shape": _W + "result = nn.Dense(4, 2, weight_init=w)",
    "sequential_names": "net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])\nresult = [p.name for p in net.trainable_params()]",
    "print_sequential": "net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dropout(p=0.1), nn.Flatten()])\nprint(net)\nresult = None",
    "activations_print": "print(nn.ReLU(), nn.GELU(), nn.Softmax(), nn.LeakyReLU(0.1), nn.Tanh(), nn.Sigmoid(), nn.SiLU(), nn.Dropout(keep_prob=0.8))\nresult = None",
    "cells_forward": _X + "result = (nn.ReLU()(x), nn.GELU()(x), nn.GELU(approximate=False)(x), nn.Softmax(0)(x), nn.LogSoftmax()(x), nn.LeakyReLU(0.1)(x), nn.ELU()(x), nn.PReLU()(x), nn.Flatten()(x), nn.Identity()(x))",
    "dropout_eval_identity": _X + "d = nn.Dropout(p=0.5)\nd.set_train(False)\nresult = d(x)",
    "dropout_train_scale": "d = nn.Dropout(p=0.5)\nd.set_train(True)\ny = d(Tensor(np.ones((100, 100), np.float32))).asnumpy()\nresult = (sorted(set(np.round(y.reshape(-1), 4).tolist())), bool(0.4 < (y == 0).mean() < 0.6))",
    "loss_cells": _X + _T + _P + "result = (nn.CrossEntropyLoss()(x, t), nn.MSELoss()(x, p), nn.L1Loss(reduction='sum')(x, p), nn.SmoothL1Loss()(x, p), nn.BCEWithLogitsLoss()(x, p), nn.NLLLoss()(ops.log_softmax(x, 1), t), nn.KLDivLoss(reduction='sum')(ops.log_softmax(x, 1), p))",
    "softmax_ce_with_logits_cell": _X + _T + "result = (nn.SoftmaxCrossEntropyWithLogits(sparse=True)(x, t), nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')(x, t), nn.SoftmaxCrossEntropyWithLogits()(x, Tensor(np.eye(3, dtype=np.float32)[[2, 0]])))",
    "softmax_ce_with_logits_grad": _X + _T + "loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')\nresult = ms.grad(lambda a: loss(a, t))(x)",
    "loss_bad_reduction": "result = nn.MSELoss(reduction='avg')",
    "primitive_softmax_ce": _X + "result = ops.SoftmaxCrossEntropyWithLogits()(x, Tensor(np.eye(3, dtype=np.float32)[[2, 0]]))",
    "primitive_sparse_softmax_ce": _X + _T + "result = ops.SparseSoftmaxCrossEntropyWithLogits()(x, t)",
    "primitive_softmax": _X + "result = (ops.Softmax()(x), ops.Softmax(axis=0)(x), ops.LogSoftmax()(x))",
    "sigmoid_ce_with_logits": _X + _P + "result = ops.SigmoidCrossEntropyWithLogits()(x, p)",
    "cosine_similarity": _X + _P + "result = ops.cosine_similarity(x, p)",
    "dropout_functional_eval": _X + "result = ops.dropout(x, p=0.5, training=False)",
})
OPTIONS = {"print_sequential": {"stdout": True}, "activations_print": {"stdout": True},
           "loss_bad_reduction": {"message": True}, "dense_bad_init_shape": {"message": True},
           "log_softmax_grad": {"atol": 2e-5},
           "selu_grad": {"differs": "MindSpore 2.10's CPU SeLU gradient is not the derivative for negative inputs "
                                    "(negative at x = -1.9); mskernel gives scale * alpha * exp(x)"}}

# SeLU's derivative: scale for x > 0, scale * alpha * exp(x) otherwise (the constants of its definition)
OPTIONS["selu_grad"]["oracle"] = _X + """scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
dselu = np.where(x > 0, scale, scale * alpha * np.exp(x.astype(np.float64)))
result = as_tensor((np.arange(6).reshape(2, 3) * dselu).astype(np.float32))
"""
