"""Training surface: wrappers (TrainOneStepCell...), Model.train/eval/fit with callbacks, metrics, amp, communication."""
# ruff: noqa: E501
_PRE = """
from mindspore import Parameter, ParameterTuple
from mindspore.train import Model, LossMonitor, TimeMonitor, History, LambdaCallback, Callback, RunContext
import mindspore.train as train
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.5, 0.1, -0.2], [-0.3, 0.2, 0.4]], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([0.05, -0.1, 0.0], np.float32)), name="b")
    def construct(self, x):
        return ops.matmul(x, self.w) + self.b
class MSE(nn.Cell):
    def construct(self, out, label):
        return ((out - label) ** 2).mean()
class SGD(nn.Cell):
    def __init__(self, params, lr=0.1, momentum=0.0):
        super().__init__()
        self.parameters = ParameterTuple(params)
        self.lr, self.momentum = lr, momentum
        self.moments = ParameterTuple([Parameter(Tensor(np.zeros(p.shape, np.float32)), name="m_" + p.name) for p in params])
    def construct(self, grads):
        for p, m, g in zip(self.parameters, self.moments, grads):
            m.set_data(m * self.momentum + g)
            p.set_data(p - m * self.lr)
        return True
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
    def __init__(self, n=4, classes=False, seed=1):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, 3, 2).astype(np.float32)
        self.y = rng.randint(0, 3, (n, 3)).astype(np.int32) if classes else rng.randn(n, 3, 3).astype(np.float32)
    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return It([(Tensor(a), Tensor(b)) for a, b in zip(self.x, self.y)])
    def get_dataset_size(self):
        return len(self.x)
    def reset(self):
        pass
def weights(net):
    return [p.asnumpy() for p in net.trainable_params()]
def printed(fn):
    # what fn prints, as (line with numbers replaced by #, [numbers]): losses agree to float32 rounding, not digits
    import io, re, contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    num = r"-?\\d+\\.\\d+(?:e-?\\d+)?"
    return [(re.sub(num, "#", line), [float(v) for v in re.findall(num, line)]) for line in buf.getvalue().splitlines()]
"""

CASES = {
    # ---- wrappers --------------------------------------------------------------------------------------
    "with_loss_cell": _PRE + "ds = DS()\nnet = nn.WithLossCell(Net(), MSE())\nresult = (net(Tensor(ds.x[0]), Tensor(ds.y[0])), net.backbone_network.cls_name, [p.name for p in net.trainable_params()])",
    "with_eval_cell": _PRE + "ds = DS()\nresult = nn.WithEvalCell(Net(), MSE())(Tensor(ds.x[0]), Tensor(ds.y[0]))",
    "train_one_step_sgd_losses": _PRE + "ds = DS()\nnet = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))\nlosses = [step(Tensor(a), Tensor(b)) for a, b in zip(ds.x, ds.y)]\nresult = (losses, weights(net), step.training)",
    "train_one_step_momentum_losses": _PRE + "ds = DS()\nnet = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.05, 0.9))\nlosses = [step(Tensor(a), Tensor(b)) for _ in range(3) for a, b in zip(ds.x, ds.y)]\nresult = (losses, weights(net))",
    "train_one_step_sens": _PRE + "ds = DS()\nnet = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1), sens=2.0)\nresult = ([step(Tensor(a), Tensor(b)) for a, b in zip(ds.x, ds.y)], weights(net))",
    "train_one_step_return_grad": _PRE + "ds = DS()\nnet = Net()\nloss, grads = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1), return_grad=True)(Tensor(ds.x[0]), Tensor(ds.y[0]))\nresult = (loss, sorted(grads), grads['w'], grads['b'])",
    "train_one_step_sens_zero": _PRE + "net = Net()\nnn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params()), sens=0)",
    "forward_value_and_grad": _PRE + "ds = DS()\nnet = nn.WithLossCell(Net(), MSE())\nf = nn.ForwardValueAndGrad(net, weights=ParameterTuple(net.trainable_params()), get_by_list=True)\nresult = f(Tensor(ds.x[0]), Tensor(ds.y[0]))",
    "forward_value_and_grad_all_sens": _PRE + "ds = DS()\nnet = nn.WithLossCell(Net(), MSE())\nf = nn.ForwardValueAndGrad(net, get_all=True, sens_param=True)\nresult = f(Tensor(ds.x[0]), Tensor(ds.y[0]), Tensor(3.0))",
    "forward_value_and_grad_bad_weights": _PRE + "nn.ForwardValueAndGrad(Net(), get_by_list=True)",
    "loss_scale_update_dynamic": _PRE + "upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=16.0, scale_factor=2, scale_window=2)\ns = Parameter(Tensor(16.0, ms.float32), name='s')\nout = []\nfor flag in [False, False, True, False, False, False]:\n    upd(s, Tensor(flag))\n    out.append(float(s.asnumpy()))\nresult = (out, upd.get_loss_scale(), nn.FixedLossScaleUpdateCell(8.0).get_loss_scale())",
    "loss_base_reductions": "class L(nn.LossBase):\n    def construct(self, x, w=1.0):\n        return self.get_loss(x, w)\nx = Tensor(np.array([[1, 2], [3, 5]], np.float32))\nresult = (L()(x), L('sum')(x), L('none')(x), L()(x, Tensor(np.array([2, 3], np.float32))), L('none')(x, Tensor(np.array([2, 3], np.float32))), L()(Tensor(np.array([[1, 2], [3, 5]], np.float16))), L('sum')(Tensor(np.array([1, 2], np.int32))))",
    "loss_base_bad_reduction": "nn.LossBase('foo')",
    # ---- Model.train / callbacks -------------------------------------------------------------------------
    "model_train_loss_monitor": _PRE + "net = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))\nresult = (printed(lambda: Model(step).train(2, DS(), callbacks=LossMonitor())), weights(net))",
    "model_train_loss_monitor_every2_initial_epoch": _PRE + "net = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))\nresult = (printed(lambda: Model(step).train(3, DS(), callbacks=[LossMonitor(2)], initial_epoch=1)), weights(net))",
    "model_train_sink_mode": _PRE + "net = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))\nresult = (printed(lambda: Model(step).train(2, DS(), callbacks=[LossMonitor()], dataset_sink_mode=True, sink_size=2)), weights(net))",
    "model_train_loss_fn_network": _PRE + "net = Net()\nm = Model(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1)))\nm.train(1, DS(), callbacks=[LossMonitor()])\nresult = (type(m.train_network).__name__, m.predict(Tensor(np.ones((1, 2), np.float32))))",
    "model_cb_params": _PRE + "seen = []\nclass Spy(Callback):\n    def on_train_begin(self, rc):\n        cb = rc.original_args()\n        seen.append(('begin', cb.epoch_num, cb.batch_num, cb.mode, cb.cur_step_num, type(cb.train_network).__name__, cb.dataset_sink_mode))\n    def on_train_step_end(self, rc):\n        cb = rc.original_args()\n        seen.append(('step', cb.cur_epoch_num, cb.cur_step_num, float(cb.net_outputs.asnumpy()), len(cb.train_dataset_element)))\n        if cb.cur_step_num == 6:\n            rc.request_stop()\n    def on_train_epoch_end(self, rc):\n        seen.append(('epoch_end', rc.original_args().cur_epoch_num))\n    def on_train_end(self, rc):\n        seen.append(('end', rc.original_args().cur_step_num))\nnet = Net()\nModel(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))).train(3, DS(), callbacks=[Spy()])\nresult = seen",
    "model_old_callback_names": _PRE + "log = []\nclass Old(Callback):\n    def begin(self, rc):\n        log.append('begin')\n    def epoch_begin(self, rc):\n        log.append('epoch_begin')\n    def step_begin(self, rc):\n        log.append('step_begin')\n    def step_end(self, rc):\n        log.append('step_end')\n    def epoch_end(self, rc):\n        log.append('epoch_end')\n    def end(self, rc):\n        log.append('end')\nnet = Net()\nModel(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))).train(1, DS(n=2), callbacks=Old())\nresult = log",
    "model_lambda_callback_history": _PRE + "log = []\nnet = Net()\nh = History()\ncb = LambdaCallback(on_train_epoch_end=lambda rc: log.append(rc.original_args().cur_epoch_num))\nModel(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))).train(2, DS(), callbacks=[cb, h])\nresult = (log, h.epoch, h.history)",
    "model_time_monitor_lines": _PRE + "import io, re, contextlib\nnet = Net()\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    Model(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))).train(2, DS(), callbacks=[TimeMonitor()])\nresult = [bool(re.fullmatch(r'Train epoch time: \\d+\\.\\d{3} ms, per step time: \\d+\\.\\d{3} ms', line)) for line in buf.getvalue().splitlines()]",
    "model_eval_metrics": _PRE + "net = Net()\nm = Model(net, loss_fn=nn.WithLossCell(Net(), MSE())._loss_fn, metrics={'mae': train.MAE(), 'mse': train.MSE(), 'loss': train.Loss()})\nresult = m.eval(DS())",
    "model_eval_accuracy_set": _PRE + "class CE(nn.Cell):\n    def construct(self, logits, label):\n        return ((logits - ops.cast(label, ms.float32)) ** 2).mean()\nnet = Net()\nm = Model(net, loss_fn=CE(), metrics={'accuracy', 'loss', 'top_1_accuracy'})\nr = m.eval(DS(classes=True))\nresult = sorted(r.items())",
    "model_fit_eval_result_lines": _PRE + "class CE(nn.Cell):\n    def construct(self, logits, label):\n        return ((logits - ops.cast(label, ms.float32)) ** 2).mean()\nnet = Net()\nh = History()\nm = Model(nn.TrainOneStepCell(nn.WithLossCell(net, CE()), SGD(net.trainable_params(), 0.05)), eval_network=nn.WithEvalCell(net, CE()), eval_indexes=[0, 1, 2], metrics={'acc': train.Accuracy()})\nout = printed(lambda: m.fit(2, DS(classes=True), DS(classes=True, seed=2), callbacks=[LossMonitor(4), h]))\nresult = (out, h.epoch, sorted(h.history))",
    "model_eval_without_metrics": _PRE + "Model(Net()).eval(DS())",
    "model_metrics_without_loss": _PRE + "Model(Net(), metrics={'acc'})",
    "model_train_epoch_zero": _PRE + "Model(Net()).train(0, DS())",
    "model_train_initial_epoch": _PRE + "Model(Net()).train(2, DS(), initial_epoch=2)",
    "model_bad_kwarg": _PRE + "Model(Net(), foo=1)",
    "model_amp_without_optimizer": _PRE + "Model(Net(), amp_level='O2')",
    "model_bad_sink_size": _PRE + "Model(Net()).train(1, DS(), sink_size=0)",
    "run_context_bad_args": "from mindspore.train import RunContext\nRunContext(3)",
    "run_context_stop": "from mindspore.train import RunContext\nrc = RunContext({'a': 1})\nb = rc.get_stop_requested()\nrc.request_stop()\nresult = (b, rc.get_stop_requested(), rc.original_args())",
    "loss_monitor_negative": "from mindspore.train import LossMonitor\nLossMonitor(-1)",
    "loss_monitor_float": "from mindspore.train import LossMonitor\nLossMonitor(1.5)",
    "loss_monitor_nan": _PRE + "class Bad(nn.Cell):\n    def construct(self, x, y):\n        return ops.log(x.sum() * 0 - 1)\nModel(Bad()).train(1, DS(), callbacks=[LossMonitor()])",
    "checkpoint_config_all_zero": "from mindspore.train import CheckpointConfig\nCheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)",
    "checkpoint_bad_prefix": "from mindspore.train import ModelCheckpoint\nModelCheckpoint(prefix='a/b')",
    "checkpoint_bad_config": "from mindspore.train import ModelCheckpoint\nModelCheckpoint(config=3)",
    "checkpoint_config_fields": "from mindspore.train import CheckpointConfig\nc = CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2)\nd = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=5, keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=0)\nresult = (c.save_checkpoint_steps, c.save_checkpoint_seconds, c.keep_checkpoint_max, c.keep_checkpoint_per_n_minutes, d.save_checkpoint_seconds, d.keep_checkpoint_max)",
    "model_checkpoint_files": _PRE + "import os, tempfile\nfrom mindspore.train import ModelCheckpoint, CheckpointConfig\nd = tempfile.mkdtemp()\nnet = Net()\nstep = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 0.1))\nck = ModelCheckpoint('net', d, CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2))\nModel(step).train(2, DS(), callbacks=[ck])\nfirst = sorted(os.listdir(d))\nModel(step).train(1, DS(), callbacks=[ModelCheckpoint('net', d, CheckpointConfig(save_checkpoint_steps=2))])\nresult = (first, sorted(os.listdir(d)), os.path.basename(ck.latest_ckpt_file_name))",
    "early_stopping_bad_mode": "from mindspore.train import EarlyStopping\nEarlyStopping(mode='up')",
    "early_stopping_loss": _PRE + "from mindspore.train import EarlyStopping\nnet = Net()\nes = EarlyStopping(monitor='loss', patience=1)\nlog = []\nModel(nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), SGD(net.trainable_params(), 2.0))).train(6, DS(), callbacks=[es, LambdaCallback(on_train_epoch_end=lambda rc: log.append(rc.original_args().cur_epoch_num))])\nresult = (log, es.stopped_epoch, es.wait)",
    # ---- metrics ------------------------------------------------------------------------------------------
    "metric_accuracy_classification": "m = nn.Accuracy('classification')\nm.update(Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), ms.float32), Tensor(np.array([1, 0, 1]), ms.float32))\nm.update(np.array([[0.7, 0.3]]), np.array([[1, 0]]))\nresult = m.eval()",
    "metric_accuracy_multilabel": "m = nn.Accuracy('multilabel')\nresult = m(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 0, 0]]))",
    "metric_accuracy_empty": "nn.Accuracy().eval()",
    "metric_accuracy_bad_type": "nn.Accuracy('regression')",
    "metric_accuracy_shape": "nn.Accuracy()(np.array([[0.1, 0.9]]), np.array([[1, 0, 0]]))",
    "metric_accuracy_class_change": "m = nn.Accuracy()\nm.update(np.array([[0.1, 0.9]]), np.array([1]))\nm.update(np.array([[0.1, 0.8, 0.1]]), np.array([1]))",
    "metric_accuracy_bad_input": "nn.Accuracy()((1, 2), np.array([1]))",
    "metric_precision_recall_f1": "x = np.array([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6], [0.9, 0.05, 0.05], [0.1, 0.2, 0.7]])\ny = np.array([1, 2, 1, 2])\np, r, f = nn.Precision(), nn.Recall(), nn.F1()\nfor m in (p, r, f):\n    m.update(x, y)\nresult = (p.eval(), p.eval(average=True), r.eval(), r.eval(True), f.eval(), f.eval(True), nn.Fbeta(0.5)(x, y))",
    "metric_precision_multilabel": "x = np.array([[0, 1, 1], [1, 0, 1], [0, 0, 1]])\ny = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 1]])\np = nn.Precision('multilabel'); p.update(x, y)\nr = nn.Recall('multilabel'); r.update(x, y)\nresult = (p.eval(), p.eval(True), r.eval(), r.eval(True))",
    "metric_topk": "x = np.array([[0.2, 0.5, 0.3, 0.0], [0.3, 0.1, 0.6, 0.0], [0.9, 0.05, 0.05, 0.0]])\ny = np.array([2, 1, 0])\nresult = (nn.TopKCategoricalAccuracy(2)(x, y), nn.Top1CategoricalAccuracy()(x, y), nn.Top5CategoricalAccuracy()(np.eye(6)[[0, 5, 3]], np.array([5, 5, 3])))",
    "metric_topk_bad_k": "nn.TopKCategoricalAccuracy(0)",
    "metric_mae_mse_loss": "yp = Tensor(np.array([[0.1, 0.2], [0.6, 0.9]]), ms.float32)\ny = Tensor(np.array([[0.1, 0.25], [0.7, 0.9]]), ms.float32)\nl = nn.Loss(); l.update(Tensor(0.5)); l.update(Tensor(np.array([1.0, 2.0], np.float32)))\nresult = (nn.MAE()(yp, y), nn.MSE()(yp, y), l.eval())",
    "metric_loss_bad_dim": "nn.Loss()(Tensor(np.ones((2, 2), np.float32)))",
    "metric_set_indexes": "m = nn.MAE().set_indexes([1, 2])\nresult = (m(np.array([9.0]), np.array([1.0]), np.array([3.0])), m.indexes)",
    "metric_names_and_get": "from mindspore.train import names\nresult = (names(), type(nn.get_metric_fn('acc')).__name__, type(nn.get_metric_fn('topk', 3)).__name__, nn.get_metric_fn('topk', 3).k)",
    "metric_get_unknown": "nn.get_metric_fn('foo')",
    "metric_rearrange_inputs": "class M(nn.Metric):\n    def clear(self):\n        self.v = None\n    @nn.rearrange_inputs\n    def update(self, *inputs):\n        self.v = inputs\n    def eval(self):\n        return list(self.v)\nresult = (M()(1, 2, 3), M().set_indexes([2, 0])(1, 2, 3))",
    # ---- amp and communication ----------------------------------------------------------------------------
    "amp_loss_scale_managers": "from mindspore.train import FixedLossScaleManager, DynamicLossScaleManager\nm = DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)\nseq = []\nfor flag in [False, False, True, False, False]:\n    m.update_loss_scale(flag)\n    seq.append(m.get_loss_scale())\nf = FixedLossScaleManager(64, drop_overflow_update=False)\nresult = (seq, f.get_loss_scale(), f.get_drop_overflow_update(), f.get_update_cell(), type(m.get_update_cell()).__name__, type(FixedLossScaleManager().get_update_cell()).__name__)",
    "amp_fixed_manager_bad": "from mindspore.amp import FixedLossScaleManager\nFixedLossScaleManager(0.5)",
    "amp_static_scaler": "from mindspore.amp import StaticLossScaler\ns = StaticLossScaler(1024)\nresult = (s.scale(Tensor(0.5)), s.unscale((Tensor(np.array([512.0, 1024.0], np.float32)), Tensor(2048.0))), s.adjust(Tensor(True)))",
    "amp_dynamic_scaler": "from mindspore.amp import DynamicLossScaler, all_finite\ns = DynamicLossScaler(1024, 2, 2)\nseq = []\nfor flag in [True, True, False, True, True]:\n    s.adjust(Tensor(flag))\n    seq.append(float(s.scale_value.asnumpy()))\nresult = (seq, all_finite((Tensor([1.0]), Tensor([2.0]))), all_finite((Tensor([1.0]), Tensor([float('inf')]))))",
    "amp_scaler_bad": "from mindspore.amp import StaticLossScaler\nStaticLossScaler(0.5)",
    "amp_o3_output_float32": _PRE + "from mindspore import amp\nnet = amp.auto_mixed_precision(Net(), 'O3')\nout = net(Tensor(np.ones((2, 2), np.float32)))\nresult = (out.dtype, out)",
    "amp_bad_level": _PRE + "from mindspore import amp\namp.auto_mixed_precision(Net(), 'O5')",
    "communication_single_process": "from mindspore.communication import get_rank, get_group_size, GlobalComm\nresult = (get_rank(), get_group_size(), GlobalComm.WORLD_COMM_GROUP)",
}

OPTIONS = {
    "train_one_step_sens_zero": {"message": True},
    "forward_value_and_grad_bad_weights": {"message": True},
    "loss_base_bad_reduction": {"message": True},
    "model_train_loss_fn_network": {"stdout": True},
    "model_eval_without_metrics": {"message": True},
    "model_metrics_without_loss": {"message": True},
    "model_train_epoch_zero": {"message": True},
    "model_train_initial_epoch": {"message": True},
    "model_bad_kwarg": {"message": True},
    "model_amp_without_optimizer": {"message": True},
    "model_bad_sink_size": {"message": True},
    "run_context_bad_args": {"message": True},
    "loss_monitor_negative": {"message": True},
    "loss_monitor_float": {"message": True},
    "loss_monitor_nan": {"message": True},
    "checkpoint_config_all_zero": {"message": True},
    "checkpoint_bad_prefix": {"message": True},
    "checkpoint_bad_config": {"message": True},
    "early_stopping_bad_mode": {"message": True},
    "metric_accuracy_empty": {"message": True},
    "metric_accuracy_shape": {"message": True},
    "metric_accuracy_class_change": {"message": True},
    "metric_accuracy_bad_input": {"message": True},
    "metric_topk_bad_k": {"message": True},
    "metric_loss_bad_dim": {"message": True},
    "metric_get_unknown": {"message": True},
    "amp_fixed_manager_bad": {"message": True},
    "amp_scaler_bad": {"message": True},
    "amp_bad_level": {"message": True},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('model_train_loss_fn_network', {})["message"] = True
OPTIONS.setdefault('metric_accuracy_bad_type', {}).update(message_parts=[
    "The argument 'eval_type' must be in {",
    "'classification'",
    "'multilabel'",
    '}, but got regression'],
    why='the wheel prints a Python set, whose order changes with the string hash seed from run to run')
