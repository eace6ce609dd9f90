"""Introspection, clipping, printing and scalar conversions (table/misc.py)."""
_X = "x = Tensor(np.array([[3.0, 4.0], [0.0, 0.0]], np.float32))\n"
CASES = {
    "introspection": _X + "result = (ops.shape(x), str(ops.dtype(x)), ops.rank(x), ops.size(x), ops.numel(x))",
    "introspection_primitives": _X + "result = (ops.Shape()(x), ops.Rank()(x), ops.Size()(x), str(ops.DType()(x)), ops.TensorShape()(x))",
    "clip_by_value": _X + "result = ops.clip_by_value(x, 0.5, 3.5)",
    "clip_by_value_grad": _X + "result = ms.grad(lambda a: ops.clip_by_value(a, 0.5, 3.5).sum())(x)",
    "clip_by_norm": _X + "result = ops.clip_by_norm(x, 1.0)",
    "clip_by_norm_grad": _X + "result = ms.grad(lambda a: ops.clip_by_norm(a, 1.0).sum())(x)",
    "clip_by_norm_no_clip": _X + "result = ops.clip_by_norm(x, 10.0)",
    "clip_by_global_norm": _X + "result = ops.clip_by_global_norm((x, x * 2), 1.0)",
    "print_": _X + "ops.print_('hello', x)\nops.Print()('v:', x)\nresult = None",
    "scalar_to_tensor": "result = (ops.scalar_to_tensor(3), ops.scalar_to_tensor(2, ms.int32))",
    "tuple_to_array": "result = ops.tuple_to_array((1, 2, 3))",
    "is_floating_point": _X + "result = (ops.is_floating_point(x), ops.is_floating_point(Tensor([1, 2])))",
}
OPTIONS = {"print_": {"stdout": True}, "clip_by_norm_grad": {"rtol": 1e-4, "atol": 1e-5}}
