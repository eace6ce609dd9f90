"""``mindspore.experimental.optim``: torch-style optimizers (a step is ``optimizer(grads)``) and
:mod:`.lr_scheduler`.

Example:
    >>> import mskernel as ms
    >>> from mskernel.experimental import optim
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = optim.SGD([w], lr=0.1)
    >>> _ = opt((ms.Tensor([2.0]),)); print(w.asnumpy())
    [0.8]
"""
from mskernel.experimental.optim.optimizer import Optimizer
from mskernel.experimental.optim.sgd import SGD
from mskernel.experimental.optim.adam import Adam, AdamW, Adamax, NAdam, RAdam
from mskernel.experimental.optim.adaptive import ASGD, Adadelta, Adagrad, RMSprop, Rprop
from mskernel.experimental.optim import lr_scheduler

__all__ = ["Optimizer", "AdamW", "SGD", "Adam", "Adadelta", "Adagrad", "ASGD", "Adamax", "RMSprop", "Rprop", "RAdam",
           "NAdam", "lr_scheduler"]
