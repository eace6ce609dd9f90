# Seed 001 (MindSpore tutorial "Defining the bprop Function for Operators", test_grad.py),
# with `mindspore` replaced by `mskernel` in the imports and nothing else changed.
import numpy as np
import mskernel as ms
from mskernel.nn import Cell
import mskernel.ops as ops

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_device(device_target="CPU")

# Forward computation of custom operator
def square(x):
    return x * x

# Backward computation of custom operator
def square_grad(x, dout):
    dx = 2.0 * x * dout
    return dx

# Backpropagation function
def bprop():
    op = ops.Custom(square_grad, lambda x, _: x, lambda x, _: x, func_type="pyfunc")

    def custom_bprop(x, out, dout):
        dx = op(x, dout)
        return (dx,)

    return custom_bprop

class Net(Cell):
    def __init__(self):
        super(Net, self).__init__()
        # Define a custom operator of pyfunc type and provide a backpropagation function
        self.op = ops.Custom(square, lambda x: x, lambda x: x, bprop=bprop(), func_type="pyfunc")

    def construct(self, x):
        return self.op(x)

if __name__ == "__main__":
    x = np.array([1.0, 4.0, 9.0]).astype(np.float32)
    dx = ms.grad(Net())(ms.Tensor(x))
    print(dx)
