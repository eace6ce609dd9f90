"""mindspore.boost: AutoBoost's levels and options, LessBN, gradient freezing and accumulation, DimReduce, the group
loss scales, the boost training cells, Model(boost_level=...), and the error texts for bad arguments."""
# ruff: noqa: E501
_NET = """
from mindspore import boost
from mindspore.boost import boost as boost_module
def reset():  # a new AutoBoost, and the level table as shipped (manual mode writes into it)
    boost.AutoBoost._instance = None
    off = dict.fromkeys(["less_bn", "grad_freeze", "adasum", "grad_accumulation", "dim_reduce", "loss_scale_group"], False)
    boost_module._boost_config_level.update({"O0": dict(off), "O1": dict(off, less_bn=True, grad_freeze=True),
                                             "O2": dict(off, less_bn=True, grad_freeze=True, adasum=True)})
reset()
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 5, bias_init="zeros", weight_init=Tensor(np.arange(20).reshape(5, 4).astype(np.float32) / 20))
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(5, 3, bias_init="zeros", weight_init=Tensor(np.arange(15).reshape(3, 5).astype(np.float32) / 15 - 0.3))
    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))
x = Tensor(np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32))
y = Tensor(np.array([[0.1, 0.2, 0.3], [0.0, 1.0, 0.0]], np.float32))
def show(net):
    return [(p.name, p.asnumpy().copy()) for p in net.trainable_params()]
def err(fn):
    try:
        fn()
    except Exception as e:
        return (type(e).__name__, str(e).split(" <class")[0])
    return None
"""
_DEEP = _NET + """
class Deep(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell([nn.Dense(4, 6, bias_init="zeros", weight_init=Tensor(np.linspace(-0.5, 0.5, 24).reshape(6, 4).astype(np.float32))), nn.Tanh()])
        self.fc1 = nn.Dense(6, 5, bias_init="zeros", weight_init=Tensor(np.linspace(0.5, -0.4, 30).reshape(5, 6).astype(np.float32)))
        self.fc2 = nn.Dense(5, 3, bias_init="zeros", weight_init=Tensor(np.linspace(-0.3, 0.6, 15).reshape(3, 5).astype(np.float32)))
    def construct(self, x):
        return self.fc2(self.fc1(self.body(x)))
"""
_DATA = """
import mindspore.dataset as ds
from mindspore.train import Model
xs = np.linspace(-1, 1, 24).reshape(6, 4).astype(np.float32)
ys = np.linspace(0, 1, 18).reshape(6, 3).astype(np.float32)
data = ds.NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False).batch(2)
"""
CASES = {
    # BoostTrainOneStepCell without boosts: MindSpore's PyNative step without sens returns None
    "step_no_sens_returns_none": _NET + """
net = Net()
t = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
outs = [t(x, y) for _ in range(3)]
result = (outs, show(net), t.freeze, t.use_grad_accumulation, t.enable_adasum, t.enable_dim_reduce, t.check_adasum_enable())""",
    "step_with_sens": _NET + """
net = Net()
t = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9), sens=2.0)
result = ([t(x, y) for _ in range(3)], show(net))""",
    # gradient freezing
    "freeze_sequences": _NET + """
gf = boost.GradientFreeze(2, 1, 0.5, 10)
result = (gf.generate_freeze_index_sequence(2, 1, 0.5, 10), gf.generate_freeze_index_sequence(3, 0, 0.5, 10),
          gf.generate_freeze_index_sequence(4, 0, 0.7, 5), gf.generate_freeze_index_sequence(1, 1, 0.5, 3),
          gf.generate_freeze_index_sequence(4, 1, 0.6, 30), err(lambda: gf.generate_freeze_index_sequence(3, 2, 0.5, 3)))""",
    "freeze_split_groups": _DEEP + """
gf = boost.GradientFreeze(2, 1, 0.5, 10)
net = nn.WithLossCell(Deep(), nn.MSELoss())
result = ([[p.name for p in g] for g in gf.split_parameters_groups(net, 2)],
          [[p.name for p in g] for g in gf.split_parameters_groups(net, 3)],
          [[p.name for p in g] for g in gf.split_parameters_groups(Net(), 1)])""",
    "freeze_train_steps": _NET + """
net = Net()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
wl = nn.WithLossCell(net, nn.MSELoss())
n2, o2 = boost.GradientFreeze(2, 1, 0.5, 10).freeze_generate(wl, opt)
t = boost.BoostTrainOneStepCell(n2, o2)
losses = [t(x, y) for _ in range(5)]
result = (type(o2).__name__, o2.groups_num, o2.train_strategy, len(o2.opts), len(t.freeze_nets), losses, int(t.step.asnumpy().copy()), show(net))""",
    "freeze_deep_groups_train": _DEEP + """
net = Deep()
wl = nn.WithLossCell(net, nn.MSELoss())
n2, o2 = boost.GradientFreeze(3, 0, 0.5, 6).freeze_generate(wl, nn.SGD(net.trainable_params(), 0.2))
t = boost.BoostTrainOneStepCell(n2, o2)
losses = [t(x, y) for _ in range(6)]
result = (o2.train_strategy, [[p.name for p in o.parameters] for o in o2.opts], losses, show(net))""",
    "freeze_step_wraps": _NET + """
net = Net()
wl = nn.WithLossCell(net, nn.MSELoss())
t = boost.BoostTrainOneStepCell(wl, boost.FreezeOpt(nn.SGD(net.trainable_params(), 0.5)))
r = err(lambda: t(x, y))
t2 = boost.BoostTrainOneStepCell(wl, boost.FreezeOpt(nn.SGD(net.trainable_params(), 0.5), [net.trainable_params()] * 2, [1, 0]))
result = (r, int(t.step.asnumpy().copy()), show(net), t2(x, y), err(lambda: t2(x, y)), int(t2.step.asnumpy().copy()), show(net))""",
    "train_cell_parameter_names": _NET + """
net = Net(); ps = net.trainable_params()
fo = boost.FreezeOpt(nn.Momentum(ps, 0.1, 0.9), [ps[:2], ps[2:]], [0, 1])
a = [p.name for p in fo.opts[1].get_parameters()]
t = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), fo)
net2 = Net()
t2 = boost.BoostTrainOneStepCell(nn.WithLossCell(net2, nn.MSELoss()), nn.SGD(net2.trainable_params(), 0.1))
result = (a, [p.name for p in fo.get_parameters()], [p.name for p in t.get_parameters()], [p.name for p in t2.get_parameters()])""",
    "freezeopt_errors": _NET + """
net = Net()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
ps = net.trainable_params()
result = [err(lambda: boost.FreezeOpt(net)),
          err(lambda: boost.FreezeOpt(opt, None, [0, 1])),
          err(lambda: boost.FreezeOpt(opt, ps[0], [0])),
          err(lambda: boost.FreezeOpt(opt, [ps], [0, 1.5])),
          err(lambda: boost.FreezeOpt(opt, [ps], Tensor(np.array([0, 1], np.int64)))),
          err(lambda: boost.FreezeOpt(opt, [ps], "01")),
          err(lambda: boost.FreezeOpt(opt, [ps[0]], [0]))]""",
    "freezeopt_groups_and_lr": _NET + """
net = Net()
ps = net.trainable_params()
fo = boost.FreezeOpt(nn.SGD(ps, learning_rate=[0.1, 0.2, 0.3, 0.4]), [ps[:2], ps[2:]], [0, 1, 1, 0, 1])
fo2 = boost.FreezeOpt(nn.Momentum(ps, 0.1, 0.9))
result = (fo.groups_num, fo.train_strategy, fo.dynamic_learning_rate, [len(o.parameters) for o in fo.opts],
          fo2.groups_num, fo2.train_strategy is None, len(fo2.opts[0].parameters), type(fo.opts[1]).__name__)""",
    "freeze_cell_steps": _NET + """
from mindspore.boost.grad_freeze import freeze_cell
net = Net()
wl = nn.WithLossCell(net, nn.MSELoss())
ps = net.trainable_params()
fo = boost.FreezeOpt(nn.SGD(ps, 0.5), [ps[:2], ps[2:]], [0, 1])
nets = freeze_cell(False, wl, fo, 1.0, ops.GradOperation(get_by_list=True, sens_param=True), False)
result = (len(nets), nets[1](x, y), show(net), nets[0](x, y), show(net))""",
    # gradient accumulation
    "grad_accumulation_cell": _NET + """
net = Net()
ga = boost.GradientAccumulation(2, nn.Momentum(net.trainable_params(), 0.1, 0.9))
g = tuple(Tensor(np.full(p.shape, 1.0 + i, np.float32)) for i, p in enumerate(net.trainable_params()))
outs = []
for i in range(3):
    outs.append((ga(Tensor(1.5), g), ga._accumulation_step.asnumpy().copy(), ga._grad_accumulation[3].asnumpy().copy()))
    outs.append(show(net))
result = (outs, [p.name for p in ga.get_parameters()])""",
    "grad_accumulation_step": _NET + """
b = boost.AutoBoost("O0", {"boost": {"mode": "manual", "grad_accumulation": True}, "grad_accumulation": {"grad_accumulation_step": 3}})
net = Net()
t = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9), sens=1.0)
outs = []
for i in range(4):
    try:
        outs.append(t(x, y))
    except TypeError as e:
        outs.append(str(e))
    outs.append((t.accumulation_step.asnumpy().copy(), t.grad_accumulation[3].asnumpy().copy(), show(net)))
result = (b.boost_config, t.use_grad_accumulation, t.max_accumulation_step, outs)
reset()""",
    "grad_accumulation_step_one": _NET + """
b = boost.AutoBoost("O0", {"boost": {"mode": "manual", "grad_accumulation": True}})
net = Net()
t = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9), sens=1.0)
result = (t.use_grad_accumulation, t.max_accumulation_step, t(x, y), show(net))
reset()""",
    # LessBN
    "less_bn_fn": _NET + """
net2 = Net()
lb = boost.LessBN(nn.WithLossCell(net2, nn.MSELoss()), fn_flag=True)
print(lb)
head = lb.network._backbone.fc2
result = ([(p.name, p.shape) for p in lb.trainable_params()], lb(x, y), lb.network.get_flags(), head.weight.asnumpy().copy(),
          head.multiplier.asnumpy().copy(), head.has_bias)""",
    "less_bn_deep": _DEEP + """
lb = boost.LessBN(Deep(), fn_flag=True)
print(lb)
result = ([p.name for p in lb.trainable_params()], lb(x))""",
    "less_bn_flag_only": _NET + """
net = Net()
lb = boost.LessBN(net)
lb2 = boost.LessBN(lb.network, fn_flag=True)
result = (lb.network.get_flags(), [p.name for p in lb.trainable_params()], type(lb2.network.fc2).__name__, lb(x), lb2(x))""",
    "less_bn_train": _NET + """
net = Net()
lb = boost.LessBN(nn.WithLossCell(net, nn.MSELoss()), fn_flag=True)
t = nn.TrainOneStepCell(lb, nn.Momentum(lb.trainable_params(), 0.1, 0.9))
result = ([t(x, y) for _ in range(4)], show(lb))""",
    "common_head_last_fn": _NET + """
from mindspore.boost.less_batch_normalization import CommonHeadLastFN
h = CommonHeadLastFN(4, 3, Tensor(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32)), Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
g = ops.GradOperation(get_by_list=True)(h, h.trainable_params())(x)
result = (h(x), [p.name for p in h.trainable_params()], g)""",
    # OptimizerProcess / ParameterProcess
    "optimizer_process_gc": _NET + """
net = Net()
ps = net.trainable_params()
opt = nn.Momentum([{"params": ps[:2], "weight_decay": 0.01}, {"params": ps[2:]}], 0.1, 0.9)
op = boost.OptimizerProcess(opt)
op.add_grad_centralization(net)
groups = [{k: ([p.name for p in v] if k == "params" else v) for k, v in g.items()} for g in op.origin_params]
o2 = op.generate_new_optimizer()
t = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), o2)
result = (opt.init_args, opt.init_learning_rate, opt.dynamic_lr, groups, type(o2).__name__, [t(x, y) for _ in range(3)], show(net))""",
    "optimizer_process_flat": _NET + """
net = Net()
op = boost.OptimizerProcess(nn.Adam(net.trainable_params(), learning_rate=Tensor(np.array([0.1, 0.05], np.float32))))
op.add_grad_centralization(net)
r = err(op.generate_new_optimizer)
op2 = boost.OptimizerProcess(nn.SGD(net.trainable_params(), learning_rate=[0.1, 0.05, 0.02], momentum=0.5))
o2 = op2.generate_new_optimizer()
t = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), o2)
result = (op.opt_init_args, op.learning_rate, r, op2.learning_rate, o2.dynamic_lr, [t(x, y) for _ in range(3)], show(net))""",
    "optimizer_process_lars": _NET + """
net = Net()
ps = net.trainable_params()
opt = nn.LARS(nn.Momentum([{"params": ps[:2]}, {"params": ps[2:], "weight_decay": 0.01}], 0.1, 0.9), epsilon=1e-6, coefficient=0.01)
op = boost.OptimizerProcess(opt)
op.add_grad_centralization(net)
o2 = op.generate_new_optimizer()
fo = boost.FreezeOpt(opt, [ps, ps[2:]], [0, 1, 0])
result = (op.is_lars, type(o2).__name__, type(o2.opt).__name__, {k: v for k, v in op.lars_init_args.items() if k != "lars_filter"}, fo.is_lars, [type(o).__name__ for o in fo.opts],
          [len(o.parameters) for o in fo.opts])""",
    "parameter_process": _NET + """
net = Net()
ps = net.trainable_params()
pp = boost.ParameterProcess()
a = [p.comm_fusion for p in pp.assign_parameter_group(ps)]
b = [p.comm_fusion for p in pp.assign_parameter_group(ps, [1, 3])]
c = [p.comm_fusion for p in boost.ParameterProcess().assign_parameter_group(ps, [])]
def named(groups):
    return [{k: ([p.name for p in v] if k in ("params", "order_params") else v) for k, v in g.items()} for g in groups]
g1 = named(boost.ParameterProcess.generate_group_params(ps[:1], ps))
g2 = named(boost.ParameterProcess.generate_group_params(ps[1:], [{"params": ps[:2], "lr": 0.5}, {"params": ps[2:3], "weight_decay": 0.1, "grad_centralization": True}, {"order_params": ps}]))
g3 = named(boost.ParameterProcess.generate_group_params(ps, [{"params": ps[:1]}]))
errs = [err(lambda: boost.ParameterProcess.generate_group_params(ps, bad)) for bad in ([], [1], None, ())]
result = (a, b, c, g1, g2, g3, errs, pp.assign_parameter_group([]), pp.assign_parameter_group(5))""",
    # AutoBoost
    "auto_boost_levels": _NET + """
out = []
for level, cfg in (("O0", ""), ("O1", ""), ("O2", ""), ("O5", ""), ("O1", {"boost": {"mode": "auto"}}),
                   ("O1", {"boost": {"mode": "manual", "less_bn": False, "dim_reduce": True, "nope": 1}}),
                   ("O0", {"boost": {"mode": "enable_all"}}), ("O2", {"boost": {"mode": "disable_all"}}), ("O2", {"common": {"device_number": 2}})):
    boost.AutoBoost._instance = None
    b = boost.AutoBoost(level, cfg)
    out.append((b.level, b.boost_config, b.device_number))
boost.AutoBoost._instance = None
a = boost.AutoBoost("O1")
same = boost.AutoBoost("O2", {"boost": {"mode": "fast"}})
out.append((a is same, same.level))
reset()
result = out""",
    "auto_boost_options": _NET + """
cfg = {"boost": {"mode": "enable_all"}, "common": {"gradient_split_groups": [1, 2], "device_number": 4},
       "less_bn": {"fn_flag": False, "gc_flag": False}, "grad_freeze": {"param_groups": 3, "freeze_type": 0, "freeze_p": 0.5, "total_steps": 100},
       "grad_accumulation": {"grad_accumulation_step": 4},
       "dim_reduce": {"rho": 0.5, "gamma": 0.8, "alpha": 0.01, "sigma": 0.3, "n_components": 4, "timeout": 3}}
b = boost.AutoBoost("O0", cfg)
r1 = (b._fn_flag, b._gc_flag, b._param_groups, b._freeze_type, b._freeze_p, b._total_steps, b.gradient_groups, b.device_number,
      b.grad_accumulation_step, b.rho, b.gamma, b.alpha, b.sigma, b.n_components, b.timeout, b.pca_mat_path, b.weight_load_dir)
boost.AutoBoost._instance = None
b = boost.AutoBoost("O1", {"less_bn": {"fn_flag": False}, "dim_reduce": {"rho": 0.1}, "grad_freeze": {"param_groups": 4}})
r2 = (b._fn_flag, b.rho, b._param_groups)
reset()
result = (r1, r2)""",
    "auto_boost_errors": _NET + """
out = []
for cfg in ({"boost": {"mode": "fast"}}, {"common": {"gradient_split_groups": "12"}}, {"common": {"gradient_split_groups": 3}}):
    boost.AutoBoost._instance = None
    out.append(err(lambda: boost.AutoBoost("O1", cfg)))
reset()
result = out""",
    "auto_boost_process_o1": _NET + """
b = boost.AutoBoost("O1", {"grad_freeze": {"param_groups": 2, "total_steps": 20}, "less_bn": {"gc_flag": False}})
net = Net()
wl = nn.WithLossCell(net, nn.MSELoss())
n2, o2 = b.network_auto_process_train(wl, nn.Momentum(net.trainable_params(), 0.1, 0.9))
e2 = b.network_auto_process_eval(Net())
t = boost.BoostTrainOneStepCell(n2, o2)
losses = [t(x, y) for _ in range(5)]
result = (type(n2).__name__, type(o2).__name__, o2.train_strategy, type(e2).__name__, type(e2.network.fc2).__name__, losses,
          [(p.name, p.asnumpy().copy(), p.comm_fusion) for p in n2.trainable_params()])
reset()""",
    "auto_boost_process_o2_gc": _DEEP + """
b = boost.AutoBoost("O2", {"grad_freeze": {"param_groups": 1, "total_steps": 4}})
net = Deep()
n2, o2 = b.network_auto_process_train(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.3))
t = boost.BoostTrainOneStepCell(n2, o2)
losses = [t(x, y) for _ in range(3)]
last = err(lambda: t(x, y))
result = (getattr(o2, "adasum", None), t.enable_adasum, o2.train_strategy, losses, last, int(t.step.asnumpy().copy()), [(p.name, p.asnumpy().copy()) for p in n2.trainable_params()])
reset()""",
    "auto_boost_empty_group": _NET + """
b = boost.AutoBoost("O1", {"grad_freeze": {"param_groups": 2, "total_steps": 20}})
net = Net()
r = err(lambda: b.network_auto_process_train(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9)))
reset()
result = r""",
    # Model(boost_level=...)
    "model_boost_o1": _NET + _DATA + """
net = Net()
m = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"loss"}, boost_level="O1",
          boost_config_dict={"grad_freeze": {"param_groups": 2, "total_steps": 20}, "less_bn": {"gc_flag": False}})
r = (type(m.predict_network).__name__, type(m.train_network).__name__, m.train_network.optimizer.train_strategy)
m.train(2, data)
result = (r, [(p.name, p.asnumpy().copy()) for p in m.predict_network.trainable_params()], m.eval(data))
reset()""",
    "model_boost_eval_network": _NET + _DATA + """
net = Net()
m = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), eval_network=nn.WithEvalCell(net, nn.MSELoss()),
          metrics={"loss"}, eval_indexes=[0, 1, 2], boost_level="O2",
          boost_config_dict={"grad_freeze": {"param_groups": 2, "freeze_type": 0, "total_steps": 10}, "less_bn": {"gc_flag": False}})
m.train(1, data)
result = (type(m.eval_network).__name__, m.eval_network.network.get_flags()["less_bn"], m.eval(data), show(m.predict_network))""",
    "model_boost_no_metrics": _NET + _DATA + """
net = Net()
m = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), boost_level="O1")
m.train(1, data)
result = (type(m.train_network).__name__, type(m.predict_network).__name__, show(net))
reset()""",
    "model_boost_acc_level": _NET + _DATA + """
net = Net()
m = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss"}, acc_level="O2",
          boost_config_dict={"grad_freeze": {"param_groups": 1, "total_steps": 10}, "less_bn": {"gc_flag": False}})
m.train(1, data)
result = (type(m.train_network).__name__, type(m.predict_network).__name__, boost.AutoBoost().level, [(p.name, p.asnumpy().copy()) for p in m.predict_network.trainable_params()])
reset()""",
    "model_boost_bad_level": _NET + """
r = err(lambda: ms.train.Model(Net(), nn.MSELoss(), nn.SGD(Net().trainable_params()), metrics={"loss"}, boost_level="O3"))
reset()
result = r""",
    "build_train_network_boost": _NET + """
net = Net()
cell = ms.amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.1), nn.MSELoss(), boost_level="O2")
result = (type(cell).__name__, cell(x, y), show(net), err(lambda: ms.amp.build_train_network(Net(), nn.SGD(Net().trainable_params()), boost_level="O4")))""",
    # DimReduce
    "dim_reduce_steps": _NET + """
from mindspore import ParameterTuple
net = Net()
wl = nn.WithLossCell(net, nn.MSELoss())
w = ParameterTuple(net.trainable_params())
opt = nn.SGD(w, learning_rate=1)
n = sum(p.size for p in w)
pca = np.random.RandomState(0).randn(3, n).astype(np.float32) / 10
dr = boost.DimReduce(wl, opt, w, pca, 3, 0.55, 0.9, 0.001, 0.4, 0, 1)
wc = w.clone(prefix="wc", init="same")
gradf = ops.GradOperation(get_by_list=True)
out = []
for i in range(4):
    loss = wl(x, y)
    g = gradf(wl, w)(x, y)
    out.append((loss, dr(loss, g, Tensor(np.float32(2.0 if i == 3 else 1.0)), w, wc, x, y), dr.bk.asnumpy().copy(), dr.sk.asnumpy().copy(), dr.gk_last.asnumpy().copy(), dr.grad_res_momentum[3].asnumpy().copy()))
result = (out, show(net), [p.asnumpy().copy() for p in wc])""",
    "dim_reduce_boost": _NET + """
import os, tempfile
from mindspore import ParameterTuple
d = tempfile.mkdtemp()
net = Net(); wl = nn.WithLossCell(net, nn.MSELoss()); w = ParameterTuple(net.trainable_params())
n = sum(p.size for p in w)
np.save(os.path.join(d, "pca.npy"), np.random.RandomState(1).randn(3, n) / 5)
b = boost.AutoBoost("O0", {"boost": {"mode": "manual", "dim_reduce": True}, "dim_reduce": {"n_components": 3, "pca_mat_path": os.path.join(d, "pca.npy"), "timeout": 2}})
n2, opt = b.network_auto_process_train(wl, nn.Momentum(w, 0.1, 0.9))
files = (type(opt).__name__, os.path.basename(b.local_pca_mat_path), sorted(os.listdir(d)), np.load(os.path.join(d, "pca_rank_0.npy")))
t = boost.BoostTrainOneStepCell(n2, opt, sens=1.0)
result = (files, t.enable_dim_reduce, [t(x, y) for _ in range(3)], show(net), [p.asnumpy().copy() for p in t.weights_clone],
          err(lambda: b.network_auto_process_train(wl, opt) if b.__setattr__("pca_mat_path", None) is None else None))""",
    "dim_reduce_two_ranks_builds": _NET + """
from mindspore import ParameterTuple
net = Net(); wl = nn.WithLossCell(net, nn.MSELoss()); w = ParameterTuple(net.trainable_params())
dr = boost.DimReduce(wl, nn.SGD(w, 1), w, np.ones((2, sum(p.size for p in w)), np.float32), 4, 0.55, 0.9, 0.001, 0.4, 1, 2)
result = (dr.start_index, dr.end_index, len(dr.pca_list_local), [p.name for p in dr.get_parameters()])""",
    # group loss scales
    "group_loss_scale_manager": _NET + """
m = boost.GroupLossScaleManager(4096, [])
r0 = (m.get_loss_scale(), m.get_update_cell() is m, m.loss_scale_number, m.layer_loss_scale, m.dynamic_loss_scale)
m.set_loss_scale_status(2, 16.0)
r1 = ([p.asnumpy().copy() for p in m.dynamic_loss_scale], [p.name for p in m.dynamic_loss_scale], len(m.layer_loss_scale))
r2 = (m.update_loss_scale_status(0, 0.5), m.update_loss_scale_status(1, Tensor(np.float32(2.0))), [p.asnumpy().copy() for p in m.dynamic_loss_scale])
m.set_loss_scale_status(2, [3.0, 5.0])
result = (r0, r1, r2, [p.asnumpy().copy() for p in m.dynamic_loss_scale])""",
    "enhanced_amp_steps": _NET + """
ab = boost.AutoBoost("O0", {"boost": {"mode": "manual", "loss_scale_group": True}})
net = Net()
ps = net.trainable_params()
m = boost.GroupLossScaleManager(16.0, [ps[:2], ps[2:]])
t = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(ps, 0.1, 0.9), m)
r = (t.optimizer_loss_scale, t.parent, [p.asnumpy().copy() for p in m.dynamic_loss_scale], t.enable_enhanced_amp)
outs = [t(x, y) for _ in range(3)]
result = (ab.boost_config, r, outs, [p.asnumpy().copy() for p in m.dynamic_loss_scale], show(net))
reset()""",
    "enhanced_amp_three_groups": _DEEP + """
ab = boost.AutoBoost("O0", {"boost": {"mode": "manual", "loss_scale_group": True}})
net = Deep()
ps = net.trainable_params()
m = boost.GroupLossScaleManager([4.0, 8.0, 32.0], [ps[:3], ps[3:4], ps[4:]])
m._loss_scale = [4.0, 8.0, 32.0]
no_params = err(lambda: boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(ps, 0.5), m))
t = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(ps, 0.5, 0.5), m)
outs = [t(x, y) for _ in range(2)]
result = (no_params, t.optimizer_loss_scale, t.parent, outs, [p.asnumpy().copy() for p in m.dynamic_loss_scale], [(p.name, p.asnumpy().copy()) for p in ps])
reset()""",
    "loss_scale_cell_errors": _NET + """
net = Net()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
wl = nn.WithLossCell(net, nn.MSELoss())
r = [err(lambda: boost.BoostTrainOneStepWithLossScaleCell(wl, opt, Tensor(np.ones(2, np.float32)))),
     err(lambda: boost.BoostTrainOneStepWithLossScaleCell(wl, opt, 8)),
     type(boost.BoostTrainOneStepWithLossScaleCell(wl, opt, Tensor(np.ones(1, np.float32)))).__name__,
     type(boost.BoostTrainOneStepWithLossScaleCell(wl, opt, nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 100)).scale_sense).__name__]
boost.AutoBoost._instance = None
boost.AutoBoost("O0", {"boost": {"mode": "manual", "loss_scale_group": True}})
r.append(err(lambda: boost.BoostTrainOneStepWithLossScaleCell(wl, opt, Tensor(np.float32(8.0)))))
reset()
result = r""",
    # AdaSum needs 16 or more ranks
    "adasum_standalone": _NET + """
net = Net()
result = [err(lambda: boost.AdaSum(0, 8, 2, net.trainable_params())), err(lambda: boost.AdaSum(0, 1, 1, net.trainable_params()))]""",
}
# every case leaves no AutoBoost and the level table as shipped, for whatever runs next in the process
CASES = {name: src + "\nreset()" for name, src in CASES.items()}
OPTIONS = {name: {"rtol": 1e-4, "atol": 1e-5} for name in CASES}
for _name in ("less_bn_fn", "less_bn_deep"):
    OPTIONS[_name]["stdout"] = True
