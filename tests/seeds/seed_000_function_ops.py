# Seed 000 (MindSpore tutorial "CustomOpBuilder: Develop Forward and Backward Operators with the
# Function Interface"), with `mindspore` replaced by `mskernel` in the imports and the source path
# pointing at function_ops.cpp next to this script (the tutorial's C++, its <...> restored).
import os

import numpy as np
import mskernel as ms
from mskernel import Tensor, Parameter, nn
from mskernel.ops import CustomOpBuilder

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "function_ops.cpp")


class MyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(2.0, requires_grad=True)
        self.my_ops = CustomOpBuilder("my_ops", [SRC], backend="Ascend").load()

    def construct(self, x, y):
        z = self.my_ops.mul(x, y)
        return self.my_ops.mul(z, self.p)


x = Tensor(1.0, ms.float32) * 2
y = Tensor(1.0, ms.float32) * 3
net = MyNet()
grad_op = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())
out, grads = grad_op(x, y)
print('out:', out)
print('grads[0]:', grads[0])
print('grads[1]:', grads[1])
