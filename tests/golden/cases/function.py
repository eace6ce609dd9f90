"""``mindspore._Function`` (Python custom autograd functions): error texts, mark_dirty, versions, options.

MindSpore's texts end with C++ call stacks, so error cases compare the type and the first line. The
forward functions mark inputs dirty without writing them: on the CPU wheel ``add_`` does not modify
its input, and what is compared is the bookkeeping (history, versions, checks), not the write.
"""
_H = """
from mindspore import _Function
def first_line(call):
    try:
        return call()
    except Exception as e:
        return (type(e).__name__, str(e).split("\\n")[0].replace("mindspore", ""))
class Dirty(_Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, d):
        return d * 3
"""
CASES = {
    "wrong_number_of_gradients": _H + """
class Bad(_Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, d):
        return d
def f(x):
    return Bad.apply(x, x).sum()
result = first_line(lambda: ms.grad(f)(Tensor([1.0])))
""",
    "gradient_not_tensor": _H + """
class Worse(_Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, d):
        return d, 1.0
def f(x):
    return Worse.apply(x, x).sum()
result = first_line(lambda: ms.grad(f)(Tensor([1.0])))
""",
    "gradient_for_non_tensor_input": _H + """
class ForScalar(_Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, d):
        return d * 2, d
def f(x):
    return ForScalar.apply(x, 2.0).sum()
result = first_line(lambda: ms.grad(f)(Tensor([1.0])))
""",
    "gradient_shape_errors": _H + """
def op(shape):
    class Shaped(_Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, d):
            return Tensor(np.ones(shape, np.float32))
    def f(x):
        return Shaped.apply(x).sum()
    return first_line(lambda: ms.grad(f)(Tensor([1.0, 2.0])))
result = [op(s) for s in [(3, 4), (1,), (), (3, 2)]]
""",
    "mark_dirty_leaf_input_of_grad": _H + """
def f(x):
    return Dirty.apply(x).sum()
result = first_line(lambda: ms.grad(f)(Tensor([1.0, 2.0])))
""",
    "mark_dirty_input_not_differentiated": _H + """
def g(x, w):
    return (x * Dirty.apply(w * 1)).sum()
result = ms.grad(g, 0)(Tensor([1.0, 2.0]), Tensor([1.0, 1.0]))
""",
    "mark_dirty_parameter": _H + """
p = ms.Parameter(Tensor([1.0, 1.0]), name="p")
frozen = ms.Parameter(Tensor([1.0, 1.0]), name="frozen", requires_grad=False)
def g(x):
    return (x * Dirty.apply(p)).sum()
def h(x):
    return (x * Dirty.apply(frozen)).sum()
result = (first_line(lambda: ms.grad(g)(Tensor([1.0, 2.0]))), ms.grad(h)(Tensor([1.0, 2.0])),
          Dirty.apply(p))
""",
    "mark_dirty_non_leaf": _H + """
def f(x):
    y = x * 2
    z = Dirty.apply(y)
    print(y._version, z._version, z is y)
    return (z * z).sum()
result = ms.grad(f)(Tensor([1.0, 2.0]))
""",
    "mark_dirty_moves_history": _H + """
def f(x):
    y = x * 2
    z = Dirty.apply(y)
    return (y * 1.0).sum() + z.sum()
result = ms.grad(f)(Tensor([1.0, 2.0]))
""",
    "mark_dirty_outside_grad": _H + """
y = Tensor([1.0, 2.0])
z = Dirty.apply(y)
result = (y._version, z._version, z is y, z)
""",
    "mark_dirty_not_returned": _H + """
class NotReturned(_Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x * 1
    @staticmethod
    def backward(ctx, d):
        return d
def f(x):
    return NotReturned.apply(x * 2).sum()
result = first_line(lambda: ms.grad(f)(Tensor([1.0])))
""",
    "input_returned_as_is": _H + """
class Same(_Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, d):
        return d * 5
def f(x):
    y = x * 1
    z = Same.apply(y)
    print(z is y)
    return (z + y).sum()
result = ms.grad(f)(Tensor([1.0]))
""",
    "set_materialize_grads": _H + """
def make(flag):
    class TwoOut(_Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(flag)
            return x * 2, x * 3
        @staticmethod
        def backward(ctx, a, b):
            print(b)
            return a * 2 if b is None else a * 2 + b * 3
    return TwoOut
def f(x):
    return make(False).apply(x)[0].sum()
def g(x):
    return make(True).apply(x)[0].sum()
result = (ms.grad(f)(Tensor([1.0])), ms.grad(g)(Tensor([1.0])))
""",
    "mark_non_differentiable": _H + """
class ND(_Function):
    @staticmethod
    def forward(ctx, x):
        a, b = x * 2, x * 3
        ctx.mark_non_differentiable(b)
        return a, b
    @staticmethod
    def backward(ctx, a, b):
        print(a, b)
        return a * 2
def f(x):
    a, b = ND.apply(x)
    return a.sum() + b.sum()
result = ms.grad(f)(Tensor([1.0]))
""",
    "setup_context": _H + """
class Scale(_Function):
    @staticmethod
    def forward(x, k=3.0):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, d):
        return d * ctx.k, None
def f(x):
    return Scale.apply(x).sum()
def g(x):
    return Scale.apply(x, 5.0).sum()
result = (ms.grad(f)(Tensor([1.0])), ms.grad(g)(Tensor([1.0])))
""",
    "forward_not_overridden": _H + """
class Empty(_Function):
    pass
result = first_line(lambda: Empty.apply(Tensor([1.0])))
""",
}
OPTIONS = {
    "mark_dirty_non_leaf": {"stdout": True},
    "input_returned_as_is": {"stdout": True},
    "set_materialize_grads": {"stdout": True},
    "mark_non_differentiable": {"stdout": True},
}
