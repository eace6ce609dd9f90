"""grad / value_and_grad / GradOperation output structures and argument errors."""
_F = """
x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
y = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
def f(a, b):
    return (a * a * b).sum()
"""
_NET = """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0, 4.0], np.float32)), name="w")
    def construct(self, a, b):
        return (a * self.w + b).sum()
net = Net()
"""
CASES = {
    "int_position": _F + "result = ms.grad(f, 0)(x, y)",
    "one_position_tuple": _F + "result = ms.grad(f, (0,))(x, y)",
    "one_position_tuple_second": _F + "result = ms.grad(f, (1,))(x, y)",
    "two_positions": _F + "result = ms.grad(f, (0, 1))(x, y)",
    "value_and_grad_one_tuple": _F + "result = ms.value_and_grad(f, (0,))(x, y)",
    "value_and_grad_two": _F + "result = ms.value_and_grad(f, (0, 1))(x, y)",
    "weights_only": _F + _NET + "result = ms.grad(net, None, net.trainable_params())(x, y)",
    "position_and_weights": _F + _NET + "result = ms.grad(net, (0,), net.trainable_params())(x, y)",
    "positions_and_weights": _F + _NET + "result = ms.grad(net, (0, 1), net.trainable_params())(x, y)",
    "single_parameter_weight": _F + _NET + "result = ms.grad(net, None, net.w)(x, y)",
    "has_aux_grad": _F + "result = ms.grad(lambda a, b: (f(a, b), a * 2), 0, has_aux=True)(x, y)",
    "has_aux_value_and_grad": _F + "result = ms.value_and_grad(lambda a, b: (f(a, b), a * 2), 0, has_aux=True)(x, y)",
    "return_ids": _F + "result = ms.grad(f, (0, 1), return_ids=True)(x, y)",
    "gradoperation_get_all": _F + "result = ops.GradOperation(get_all=True)(f)(x, y)",
    "gradoperation_default": _F + "result = ops.GradOperation()(f)(x, y)",
    "gradoperation_sens": _F + "result = ops.GradOperation(sens_param=True)(lambda a: a * 2)(x, y)",
    "both_none_error": _F + "result = ms.grad(f, None, None)(x, y)",
    "negative_position_error": _F + "result = ms.grad(f, -1)(x, y)",
}
OPTIONS = {
    "both_none_error": {"message": True},
    "negative_position_error": {"message": True},
}
