"""Training semantics from issue [21]: what Model.eval prints, the optimizer state a checkpoint holds (and loading it
back), a Cell bprop's gradients for integer inputs and of other dtypes/shapes, and the error for a gradient that
cannot be fitted to its input."""
# ruff: noqa: E501
_PRE = """
import os, tempfile
from mindspore import Parameter
from mindspore.train import Model, Accuracy, Loss, MAE, MSE, Precision, Recall, F1, TopKCategoricalAccuracy, Metric, ModelCheckpoint, CheckpointConfig, History
W = np.array([[0.5, -0.2, 0.1, 0.3], [-0.1, 0.4, -0.3, 0.2], [0.2, 0.1, 0.25, -0.4]], np.float32)
B = np.array([0.05, -0.1, 0.0], np.float32)
def dense():
    return nn.Dense(4, 3, weight_init=Tensor(W), bias_init=Tensor(B))
class It:
    def __init__(self, items):
        self.items, self.i = items, 0
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= len(self.items):
            self.i = 0
            raise StopIteration
        self.i += 1
        return self.items[self.i - 1]
class DS:
    def __init__(self, n=4, seed=1):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, 2, 4).astype(np.float32)
        self.y = rng.randint(0, 3, (n, 2)).astype(np.int32)
    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return It([(Tensor(a), Tensor(b)) for a, b in zip(self.x, self.y)])
    def get_dataset_size(self):
        return len(self.x)
    def reset(self):
        pass
def ce():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
def trained(make_opt, epochs=1, steps=2):
    d = tempfile.mkdtemp()
    net = dense()
    opt = make_opt(net.trainable_params())
    ck = ModelCheckpoint('run', d, CheckpointConfig(save_checkpoint_steps=steps))
    Model(net, ce(), opt).train(epochs, DS(), callbacks=[ck])
    last = sorted(f for f in os.listdir(d) if f.endswith('.ckpt'))[-1]
    return net, opt, ms.load_checkpoint(os.path.join(d, last)), d
def layout(pd):
    return [(k, list(v.shape), str(v.dtype)) for k, v in pd.items()]
"""

_BPROP = """
x = Tensor(np.array([1.0, 2.0], np.float32))
n = Tensor(np.array([2, 3], np.int32))
def net_with(ret):
    class Net(nn.Cell):
        def construct(self, x, n):
            return x * n
        def bprop(self, x, n, out, dout):
            return ret(x, n, dout)
    return Net()
def grads(ret):
    return ms.grad(net_with(ret), grad_position=(0, 1))(x, n)
"""

_FUNCTION = """
x = Tensor(np.array([1.0, 2.0], np.float32))
def function_with(grad):
    class F(ms._Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, dout):
            return grad
    return ms.grad(lambda a: F.apply(a))(x)
"""

_EVAL = _PRE + """
class Mean64(Metric):
    def clear(self):
        self.s, self.k = np.float64(0), np.int64(0)
    def update(self, *inputs):
        self.s += np.float64(0.25)
        self.k += 1
    def eval(self):
        return self.s
class Count(Mean64):
    def eval(self):
        return self.k
"""

CASES = {
    # ---- a) what Model.eval returns and prints ------------------------------------------------------------
    "model_eval_prints_metrics": _PRE + "model = Model(dense(), ce(), metrics={'Accuracy': Accuracy(), 'Loss': Loss(), 'Top2': TopKCategoricalAccuracy(2), 'Precision': Precision(), 'Recall': Recall(), 'F1': F1()})\nr = model.eval(DS())\nprint(r)\nresult = r",
    "model_eval_prints_named_metrics": _PRE + "r = Model(dense(), ce(), metrics={'acc', 'loss', 'top_1_accuracy'}).eval(DS())\nprint(sorted(r.items()))\nresult = r",
    "model_eval_prints_custom_numpy_scalars": _EVAL + "r = Model(dense(), ce(), metrics={'mean': Mean64(), 'count': Count(), 'acc': Accuracy()}).eval(DS())\nprint(r)\nresult = r",
    "metrics_eval_printed": _PRE + "y_pred = Tensor(np.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]], np.float32))\ny = Tensor(np.array([1, 0, 2, 0], np.int32))\na = Tensor(np.array([0.5, 0.25, 1.0, 2.0], np.float32))\nb = Tensor(np.array([0.25, 0.25, 0.5, 1.0], np.float32))\nout = []\nfor m, args in [(Accuracy(), (y_pred, y)), (TopKCategoricalAccuracy(2), (y_pred, y)), (MAE(), (a, b)), (MSE(), (a, b)), (Loss(), (Tensor(np.float32(0.5)),))]:\n    m.clear(); m.update(*args); out.append(m.eval())\np, r = Precision(), Recall()\np.update(y_pred, y); r.update(y_pred, y)\nout += [p.eval(average=True), r.eval(average=True)]\nprint(out)\nresult = out",
    "model_fit_history_metrics": _EVAL + "h = History()\nnet = dense()\nmodel = Model(net, ce(), nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={'acc': Accuracy(), 'count': Count()})\nmodel.fit(2, DS(), DS(), callbacks=[h])\nprint({k: v for k, v in h.history.items() if k != 'net_output'})\nresult = {k: v for k, v in h.history.items() if k != 'net_output'}",
    # ---- b) the optimizer state in checkpoints -------------------------------------------------------------
    "checkpoint_momentum_state": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, 0.1, 0.9))\nresult = (layout(pd), pd)",
    "checkpoint_momentum_weight_decay": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, 0.05, 0.8, weight_decay=0.01))\nresult = (layout(pd), pd)",
    "checkpoint_adam_state": _PRE + "net, opt, pd, d = trained(lambda p: nn.Adam(p, 0.01))\nresult = (layout(pd), pd)",
    "checkpoint_adam_amsgrad_state": _PRE + "net, opt, pd, d = trained(lambda p: nn.Adam(p, 0.01, use_amsgrad=True))\nresult = (layout(pd), pd)",
    "checkpoint_sgd_state": _PRE + "net, opt, pd, d = trained(lambda p: nn.SGD(p, 0.1))\nresult = (layout(pd), pd)",
    "checkpoint_sgd_momentum_state": _PRE + "net, opt, pd, d = trained(lambda p: nn.SGD(p, 0.1, momentum=0.9))\nresult = (layout(pd), pd)",
    "checkpoint_list_learning_rate": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, [0.1, 0.05, 0.02, 0.01], 0.9))\nresult = (layout(pd), pd)",
    "checkpoint_schedule_learning_rate": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, nn.ExponentialDecayLR(0.1, 0.9, 2), 0.9))\nresult = (layout(pd), pd)",
    "save_checkpoint_optimizer_and_net": _PRE + "net, opt, pd, d = trained(lambda p: nn.Adam(p, 0.01))\nms.save_checkpoint(opt, os.path.join(d, 'opt.ckpt'))\nms.save_checkpoint(net, os.path.join(d, 'net.ckpt'))\nresult = (layout(ms.load_checkpoint(os.path.join(d, 'opt.ckpt'))), layout(ms.load_checkpoint(os.path.join(d, 'net.ckpt'))))",
    "optimizer_parameters_and_names": _PRE + "out = []\nfor make in [lambda p: nn.Momentum(p, 0.1, 0.9), lambda p: nn.SGD(p), lambda p: nn.Adam(p), lambda p: nn.Momentum(p, [0.1, 0.01], 0.9)]:\n    out.append([(k, p.name, list(p.shape), str(p.dtype)) for k, p in make(dense().trainable_params()).parameters_and_names()])\nresult = out",
    "optimizer_parameters_and_names_more": _PRE + "out = []\nfor make in [lambda p: nn.Adagrad(p), lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True), lambda p: nn.AdamWeightDecay(p), lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9))]:\n    out.append([(k, p.name, list(p.shape), str(p.dtype)) for k, p in make(dense().trainable_params()).parameters_and_names()])\nresult = out",
    "optimizer_group_rates_names": _PRE + "out = []\nfor groups in [lambda p: [{'params': [p[0]], 'lr': 0.05}, {'params': [p[1]]}], lambda p: [{'params': [p[0]]}, {'params': [p[1]], 'lr': 0.05}], lambda p: [{'params': [p[0]], 'lr': 0.05}, {'params': [p[1]], 'lr': [0.2, 0.3]}], lambda p: [{'params': [p[0]]}, {'params': [p[1]], 'weight_decay': 0.1}]]:\n    out.append([(k, p.name, list(p.shape), p.asnumpy()) for k, p in nn.Momentum(groups(dense().trainable_params()), 0.1, 0.9).parameters_and_names() if k not in ('weight', 'bias')])\nresult = out",
    "checkpoint_group_rates_resume": _PRE + "groups = lambda p: [{'params': [p[0]], 'lr': 0.05}, {'params': [p[1]]}]\nnet, opt, pd, d = trained(lambda p: nn.Momentum(groups(p), 0.1, 0.9), steps=4)\nnet2 = dense()\nopt2 = nn.Momentum(groups(net2.trainable_params()), 0.1, 0.9)\nms.load_param_into_net(net2, pd)\nms.load_param_into_net(opt2, pd)\nopt2.learning_rate[0].set_data(Tensor(np.float32(0.01)))\nModel(net2, ce(), opt2).train(1, DS())\nresult = (layout(pd), net2.weight, net2.bias)",
    "optimizer_state_is_trainable": _PRE + "net = dense()\nopt = nn.Momentum(net.trainable_params(), 0.1, 0.9)\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)\nadam = nn.Adam(dense().trainable_params())\nresult = ([p.name for p in step.trainable_params()], [p.name for p in opt.untrainable_params()], [p.name for p in adam.untrainable_params()], [p.name for p in adam.trainable_params()])",
    "checkpoint_resume_momentum": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, 0.1, 0.9), steps=4)\nModel(net, ce(), opt).train(1, DS())\nnet2 = dense()\nopt2 = nn.Momentum(net2.trainable_params(), 0.1, 0.9)\nnot_loaded = (ms.load_param_into_net(net2, pd), ms.load_param_into_net(opt2, pd))\nModel(net2, ce(), opt2).train(1, DS())\nresult = (not_loaded, net.weight, net2.weight, net2.bias, opt2.moments[0], opt2.global_step)",
    "checkpoint_resume_adam": _PRE + "net, opt, pd, d = trained(lambda p: nn.Adam(p, 0.01), steps=4)\nModel(net, ce(), opt).train(1, DS())\nnet2 = dense()\nopt2 = nn.Adam(net2.trainable_params(), 0.01)\nnot_loaded = ms.load_param_into_net(opt2, pd)\nModel(net2, ce(), opt2).train(1, DS())\nresult = (not_loaded, net.weight, net2.weight, opt2.beta1_power, opt2.moment2[1])",
    "checkpoint_loaded_momentum_and_rate_are_used": _PRE + "net, opt, pd, d = trained(lambda p: nn.Momentum(p, 0.1, 0.9), steps=4)\nnet2 = dense()\nopt2 = nn.Momentum(net2.trainable_params(), 0.5, 0.5)\nms.load_param_into_net(opt2, pd)\nModel(net2, ce(), opt2).train(1, DS())\nModel(net, ce(), opt).train(1, DS())\nresult = (opt2.momentum, opt2.learning_rate, net2.weight, net.weight)",
    # ---- c) a Cell bprop's gradients for integer inputs, other dtypes and broadcast shapes ------------------
    "bprop_int_input_gets_int_gradient": _BPROP + "result = grads(lambda x, n, d: (d * 2, n * 3))",
    "bprop_float_gradient_of_int_input_is_cast": _BPROP + "result = grads(lambda x, n, d: (d, Tensor(np.array([0.7, -1.7], np.float32))))",
    "bprop_bool_gradient_of_int_input_is_cast": _BPROP + "result = grads(lambda x, n, d: (d, Tensor(np.array([True, False]))))",
    "bprop_float64_gradient_is_cast": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.array([0.5, 1.5], np.float64)), n))",
    "bprop_int_gradient_of_float_input_is_cast": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.array([1, 2], np.int32)), n))",
    "bprop_gradient_summed_to_input_shape": _BPROP + "result = (grads(lambda x, n, d: (Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), n)), grads(lambda x, n, d: (Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((4, 2), np.int32)))))",
    "bprop_value_and_grad_int_input": _BPROP + "result = ms.value_and_grad(net_with(lambda x, n, d: (d, n * 3)), grad_position=(0, 1))(x, n)",
    "function_gradient_summed_and_cast": _FUNCTION + "result = (function_with(Tensor(np.ones((3, 2), np.float32))), function_with(Tensor(np.array([1.5, 2.5], np.float64))))",
    "function_int_input_gradients": _BPROP + "def with_grads(gn):\n    class F(ms._Function):\n        @staticmethod\n        def forward(ctx, x, n):\n            return x * n\n        @staticmethod\n        def backward(ctx, dout):\n            return dout, gn\n    return ms.grad(lambda a, b: F.apply(a, b), grad_position=(0, 1))(x, n)\nresult = (with_grads(Tensor(np.array([6, 9], np.int32))), with_grads(Tensor(np.array([0.5, -1.5], np.float32))), with_grads(None))",
    "grad_int_inputs_through_ops": "x = Tensor(np.array([1.5, 2.0, -3.0], np.float32))\ni = Tensor(np.array([2, 0], np.int32))\nn = Tensor(np.array([2, 3, 4], np.int32))\nb = Tensor(np.array([True, False, True]))\ng = lambda f, *a: ms.grad(f, grad_position=(0, 1))(*a)\nresult = (g(lambda x, n: (x * n).sum(), x, n), g(lambda x, n: (x ** n).sum(), ops.abs(x), n), g(lambda x, n: (x / n).sum(), x, n), g(lambda x, n: (x * n.astype(ms.float32)).sum(), x, n), g(lambda x, i: ops.gather(x, i, 0).sum(), x, i), g(lambda x, n: x.sum(), x, n), g(lambda x, b: (x * b).sum(), x, b), g(lambda x, b: ops.where(b, x, 0.0).sum(), x, b))",
    "grad_int_input_through_int_ops": "x = Tensor(np.array([1.5, 2.0, -3.0], np.float32))\nn = Tensor(np.array([2, 3, 4], np.int32))\nresult = ms.grad(lambda x, n: (x * (n * n)).sum(), grad_position=(0, 1))(x, n)",
    # ---- d) a gradient that cannot be fitted to its input -------------------------------------------------
    "bprop_gradient_longer_than_input": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.ones(3, np.float32)), n))",
    "bprop_gradient_of_size_one": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.array([3.0], np.float32)), n))",
    "bprop_gradient_scalar": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.float32(3.0)), n))",
    "bprop_gradient_trailing_mismatch": _BPROP + "result = grads(lambda x, n, d: (Tensor(np.ones((2, 3), np.float32)), n))",
    "bprop_int_gradient_wrong_shape": _BPROP + "result = grads(lambda x, n, d: (d, Tensor(np.ones(3, np.int32))))",
    "function_gradient_wrong_shape": _FUNCTION + "result = function_with(Tensor(np.ones((2, 3), np.float32)))",
}

OPTIONS = {
    "grad_int_input_through_int_ops": {
        "differs": "mskernel records no op whose outputs are integers (n * n here), so no gradient flows back through "
                   "one to an integer input; the wheel differentiates them too (d/dn of x * (n * n), the gradient "
                   "cast to int32 at the integer product: [4, 12, -24])",
        "oracle": "n = np.array([2, 3, 4], np.int32)\nresult = (as_tensor((n * n).astype(np.float32)), "
                  "as_tensor(np.zeros(3, np.int32)))"},
    "model_eval_prints_metrics": {"stdout": "approx"},
    "model_eval_prints_named_metrics": {"stdout": "approx"},
    "model_eval_prints_custom_numpy_scalars": {"stdout": True},
    "metrics_eval_printed": {"stdout": True},
    "model_fit_history_metrics": {"stdout": True},
    "bprop_gradient_longer_than_input": {"message": True},
    "bprop_gradient_of_size_one": {"message": True},
    "bprop_gradient_scalar": {"message": True},
    "bprop_gradient_trailing_mismatch": {"message": True},
    "bprop_int_gradient_wrong_shape": {"message": True},
    "function_gradient_wrong_shape": {"message": True},
}
