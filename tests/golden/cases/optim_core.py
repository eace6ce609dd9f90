"""SGD, Momentum and Adam steps from fixed weights and gradients; groups, dynamic learning rates, loss scale."""
_P = ("w = ms.Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)), name='w')\n"
      "b = ms.Parameter(Tensor(np.array([0.1, -0.2], np.float32)), name='bias')\n"
      "g = [(Tensor(np.array([[0.1, -0.3], [0.2, 0.05]], np.float32)), Tensor(np.array([1.0, -0.5], np.float32))),\n"
      "     (Tensor(np.array([[-0.2, 0.1], [0.4, -0.1]], np.float32)), Tensor(np.array([0.5, 0.5], np.float32))),\n"
      "     (Tensor(np.array([[0.3, 0.3], [-0.1, 0.2]], np.float32)), Tensor(np.array([-1.0, 0.25], np.float32)))]\n")
_RUN = ("hist = []\nfor gs in g:\n    opt(gs)\n    hist.append((w.asnumpy().copy(), b.asnumpy().copy()))\n"
        "result = (hist, int(opt.global_step.asnumpy()[0]))")
SETTINGS = {
    "momentum": "nn.Momentum([w, b], learning_rate=0.1, momentum=0.9)",
    "momentum_nesterov": "nn.Momentum([w, b], learning_rate=0.1, momentum=0.9, use_nesterov=True)",
    "momentum_weight_decay": "nn.Momentum([w, b], learning_rate=0.1, momentum=0.9, weight_decay=0.01)",
    "momentum_loss_scale": "nn.Momentum([w, b], learning_rate=0.1, momentum=0.9, loss_scale=4.0)",
    "momentum_dynamic_lr": "nn.Momentum([w, b], learning_rate=[0.1, 0.05, 0.01], momentum=0.9)",
    "momentum_tensor_lr": "nn.Momentum([w, b], learning_rate=Tensor(np.array([0.2, 0.1, 0.05], np.float32)), momentum=0.5)",
    "sgd_plain": "nn.SGD([w, b], learning_rate=0.1)",
    "sgd_momentum": "nn.SGD([w, b], learning_rate=0.1, momentum=0.9)",
    "sgd_dampening": "nn.SGD([w, b], learning_rate=0.1, momentum=0.9, dampening=0.5)",
    "sgd_nesterov": "nn.SGD([w, b], learning_rate=0.1, momentum=0.9, nesterov=True)",
    "sgd_weight_decay": "nn.SGD([w, b], learning_rate=0.1, momentum=0.9, weight_decay=0.1)",
    "adam": "nn.Adam([w, b], learning_rate=0.01)",
    "adam_betas": "nn.Adam([w, b], learning_rate=0.05, beta1=0.5, beta2=0.9, eps=1e-6)",
    "adam_weight_decay": "nn.Adam([w, b], learning_rate=0.01, weight_decay=0.1)",
    "adam_nesterov": "nn.Adam([w, b], learning_rate=0.01, use_nesterov=True)",
    "adam_loss_scale": "nn.Adam([w, b], learning_rate=0.01, loss_scale=2.0)",
    "groups": "nn.Momentum([{'params': [w], 'lr': 0.05, 'weight_decay': 0.1}, {'params': [b]}], learning_rate=0.1, momentum=0.9)",
    "groups_order": "nn.SGD([{'params': [b], 'lr': 0.2}, {'params': [w]}, {'order_params': [w, b]}], learning_rate=0.1)",
}
CASES = {name: _P + f"opt = {ctor}\n" + _RUN for name, ctor in SETTINGS.items()}
CASES.update({
    "state_names": _P + "opt = nn.Adam([w, b])\nresult = ([p.name for p in opt.moment1], [p.name for p in opt.moment2], [p.name for p in nn.Momentum([w, b], 0.1, 0.9).moments])",
    "parameters_and_lr": _P + "opt = nn.Momentum([w, b], learning_rate=[0.1, 0.05], momentum=0.9)\nlrs = [float(opt.get_lr().asnumpy())]\nopt(g[0])\nlrs.append(float(opt.get_lr().asnumpy()))\nopt(g[1])\nlrs.append(float(opt.get_lr().asnumpy()))\nresult = ([p.name for p in opt.parameters], lrs)",
    "train_loop": "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Dense(3, 2, weight_init=Tensor(np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.6]], np.float32)), bias_init='zeros')\n    def construct(self, x):\n        return self.fc(x)\n"
                  "net = Net()\nloss_fn = nn.CrossEntropyLoss()\nopt = nn.Adam(net.trainable_params(), 0.05)\n"
                  "x = Tensor(np.array([[0.3, -0.7, 1.2], [2.5, -1.9, 0.05], [1.0, 1.0, -1.0]], np.float32))\ny = Tensor(np.array([1, 0, 1], np.int32))\n"
                  "grad_fn = ms.value_and_grad(lambda a, c: loss_fn(net(a), c), None, opt.parameters)\nlosses = []\n"
                  "for _ in range(5):\n    loss, grads = grad_fn(x, y)\n    opt(grads)\n    losses.append(float(loss.asnumpy()))\nresult = (losses, net.fc.weight.asnumpy())",
    "momentum_negative_error": _P + "result = nn.Momentum([w], 0.1, -0.5)",
    "sgd_nesterov_error": _P + "result = nn.SGD([w], 0.1, momentum=0.0, nesterov=True)",
})
OPTIONS = {"momentum_negative_error": {"message": True}, "sgd_nesterov_error": {"message": True},
           "momentum_nesterov": {"differs": "the 2.10 CPU wheel's Momentum ignores use_nesterov (its steps equal plain "
                                            "momentum); mskernel applies the documented Nesterov update"}}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('parameters_and_lr', {}).update(message_parts=[
    "For 'Gather', the 'input_indices' should be in the range [0, 2), but got 2"],
    why='the wheel appends an internal error code (error_code[58]); mskernel says which learning-rate list ran out')

# mskernel's documented Nesterov step (MindSpore's nn.Momentum docs: v <- u * v + g; p <- p - lr * (g + u * v)),
# in numpy from the case's own start
OPTIONS["momentum_nesterov"]["oracle"] = _P + """lr, u = np.float32(0.1), np.float32(0.9)
ps, vs, hist = [w, b], [np.zeros_like(w), np.zeros_like(b)], []
for gs in g:
    for p, v, gr in zip(ps, vs, gs):
        v *= u
        v += gr
        p -= gr * lr + v * u * lr
    hist.append((w.copy(), b.copy()))
result = (hist, len(g))
"""
