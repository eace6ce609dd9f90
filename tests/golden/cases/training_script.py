"""A MindSpore 2.x training script as the tutorials write them (issue [12]): loss at every step, names, accuracy."""
_DATA = '''
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
import mindspore.dataset as ds
from mindspore.train import Model, Callback, LossMonitor

rng = np.random.RandomState(0)
features = rng.randn(96, 4).astype(np.float32)
labels = (features[:, 0] + 0.5 * features[:, 1] > 0).astype(np.int32) + (features[:, 2] > 1).astype(np.int32)

def softclip_fwd(x):
    return (np.tanh(x) * 2.0).astype(np.float32)

def softclip_bprop(x, out, dout):
    return (dout * 2.0 * (1 - ops.tanh(x) * ops.tanh(x)),)

softclip = ops.Custom(softclip_fwd, out_shape=lambda x: x, out_dtype=lambda x: x, func_type="pyfunc",
                      bprop=softclip_bprop)

class SoftClip(nn.Cell):
    def construct(self, x):
        return softclip(x)

w1 = Tensor(rng.randn(8, 4).astype(np.float32) * 0.5)
b1 = Tensor(np.zeros(8, np.float32))
w2 = Tensor(rng.randn(3, 8).astype(np.float32) * 0.5)
b2 = Tensor(np.full(3, 0.1, np.float32))
net = nn.SequentialCell([nn.Dense(4, 8, weight_init=w1, bias_init=b1), nn.ReLU(), SoftClip(),
                         nn.Dense(8, 3, weight_init=w2, bias_init=b2)])
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
'''
CASES = {
    "names": _DATA + "result = [p.name for p in net.trainable_params()]",
    "custom_loop": _DATA + '''
def forward_fn(data, label):
    logits = net(data)
    loss = loss_fn(logits, label)
    return loss, logits

grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
dataset = ds.NumpySlicesDataset({"data": features, "label": labels}, shuffle=False).batch(16)
losses = []
for epoch in range(2):
    for data, label in dataset.create_tuple_iterator():
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        losses.append(float(loss.asnumpy()))
result = (losses, net(Tensor(features[:4])))
''',
    "model_train_eval": _DATA + '''
class StepLosses(Callback):
    def __init__(self):
        super().__init__()
        self.losses = []
    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses.append(float(cb.net_outputs.asnumpy()))

dataset = ds.NumpySlicesDataset({"data": features, "label": labels}, shuffle=False).batch(16)
model = Model(net, loss_fn, optimizer, metrics={"accuracy"})
steps = StepLosses()
model.train(2, dataset, callbacks=[steps, LossMonitor(3)])
acc = model.eval(dataset)
result = (steps.losses, acc)
''',
    "checkpoint_round_trip": _DATA + '''
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "net.ckpt")
ms.save_checkpoint(net, path)
params = ms.load_checkpoint(path)
fresh = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), SoftClip(), nn.Dense(8, 3)])
not_loaded = ms.load_param_into_net(fresh, params)
result = (sorted(params), not_loaded, fresh(Tensor(features[:4])))
''',
}
OPTIONS = {"model_train_eval": {"stdout": "approx", "rtol": 1e-4}, "custom_loop": {"rtol": 1e-4}}
