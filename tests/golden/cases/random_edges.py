"""Random differentiable programs whose inputs sit on the edges: ties, +-0, +-inf and NaN ([21]).

Like random_programs.py (seeded chains of ops ending in ``value_and_grad`` over both inputs), but the inputs are
drawn from a few values (-1, -0.5, -0, 0, 0.5, 1, 6), so that maxima tie, inputs meet clamp's and relu6's bounds
and maximum compares equal operands, and about a third of the programs get one +inf, -inf or NaN. The ops are
those whose values or gradients have a convention at such points (maximum/minimum, clamp, relu, abs, the
extremes and their indices, where, sorts) joined by smooth ones that carry the edges along. Each program is a
case of test_goldens.py.
"""
import random

_NAN = "nan, inf = float('nan'), float('inf')\n"
POOL = ["-1.0", "-0.5", "-0.0", "0.0", "0.5", "1.0", "6.0"]
SPECIAL = ["inf", "-inf", "nan"]
UNARY = ["ops.relu({a})", "ops.relu6({a})", "ops.abs({a})", "{a}.abs()", "ops.clamp({a}, 0.0, 1.0)",
         "ops.clip_by_value({a}, -0.5, 0.5)", "ops.leaky_relu({a}, 0.1)", "ops.elu({a})", "ops.sign({a}) * {a}",
         "ops.square({a})", "ops.tanh({a})", "ops.sigmoid({a})", "{a} * 2.0 - 0.5", "ops.neg({a})",
         "ops.ReLU()({a})", "ops.maximum({a}, 0.5)", "ops.minimum({a}, -0.0)", "ops.sqrt(ops.relu({a}))",
         "ops.cummax({a}, -1)[0]", "ops.sort({a}, -1)[0]", "ops.floor({a}) + {a}"]
BINARY = ["ops.maximum({a}, {b})", "ops.minimum({a}, {b})", "ops.Maximum()({a}, {b})", "ops.Minimum()({a}, {b})",
          "ops.where({a} > {b}, {a}, {b})", "ops.where({a} >= {b}, {a} * 2, {b})", "ops.add({a}, {b})",
          "ops.mul({a}, {b})", "{a} - {b}", "ops.maximum({a}, {b}) - ops.minimum({a}, {b})"]
REDUCE = ["ops.amax({a}, {ax})", "ops.amin({a}, {ax})", "ops.max({a}, {ax})[0]", "ops.min({a}, {ax})[0]",
          "{a}.max(axis={ax})", "{a}.min(axis={ax})", "ops.ReduceMax(keep_dims=True)({a}, {ax})",
          "ops.ReduceMin()({a}, {ax})", "ops.ArgMaxWithValue({ax})({a})[1]", "ops.ArgMinWithValue({ax})({a})[1]",
          "ops.aminmax({a}, axis={ax})[1]", "ops.sum({a}, {ax})", "ops.mean({a}, {ax})",
          "ops.cast(ops.argmax({a}, {ax}), ms.float32) + ops.sum({a}, {ax})"]
SHAPES = [(2, 3), (3, 4), (2, 2, 3), (5,), (3, 1)]


def _values(rng: random.Random, shape, special: bool) -> str:
    n = 1
    for s in shape:
        n *= s
    vals = [rng.choice(POOL) for _ in range(n)]
    if special:
        vals[rng.randrange(n)] = rng.choice(SPECIAL)
    return f"Tensor(np.array([{', '.join(vals)}], np.float32).reshape({shape}))"


def _program(seed: int) -> str:
    rng = random.Random(seed)
    sx = rng.choice(SHAPES)
    choice = rng.randrange(3)
    sy = sx if choice == 0 else (sx[1:] if choice == 1 and len(sx) > 1 else tuple(1 if rng.random() < 0.5 else s
                                                                                  for s in sx))
    lines = [_NAN.rstrip("\n"), f"x = {_values(rng, sx, rng.random() < 0.35)}", f"y = {_values(rng, sy, False)}",
             "def f(x, y):"]
    live = [("x", len(sx)), ("y", len(sy))]
    for k in range(rng.randint(3, 6)):
        kind = rng.random()
        a, nd = rng.choice(live)
        if kind < 0.4:
            expr, nd2 = rng.choice(UNARY).format(a=a), nd
        elif kind < 0.75:
            b, ndb = rng.choice(live)
            expr, nd2 = rng.choice(BINARY).format(a=a, b=b), max(nd, ndb)
        elif nd >= 1:
            tmpl = rng.choice(REDUCE)
            expr = tmpl.format(a=a, ax=rng.randrange(-nd, nd))
            nd2 = nd if "keep_dims=True" in tmpl else nd - 1
        else:
            expr, nd2 = f"ops.expand_dims({a}, -1) * 1.5", nd + 1
        lines.append(f"    v{k} = {expr}")
        live.append((f"v{k}", nd2))
    # tie the last value to both inputs so that both gradients are defined
    lines.append(f"    return ({live[-1][0]}).sum() + (x * 0.1).sum() + (y * 0.2).sum()")
    lines.append("value, grads = ms.value_and_grad(f, (0, 1))(x, y)")
    lines.append("result = (value, grads)")
    return "\n".join(lines)


CASES = {f"edge_program_{i:03d}": _program(5000 + i) for i in range(60)}
# a program that raises (shapes that do not broadcast) must raise MindSpore's error word for word
OPTIONS = {name: {"message": True} for name in CASES}
# Tensor's ``-`` names its kernel (SubExt) and calls its arguments input/other; ops.sub's error, which mskernel
# gives for both, says Sub with input1/input2
OPTIONS["edge_program_037"] = {"message_parts": ["need to broadcast", "must be 1 or -1 when they are not the same",
                                                 "shape = [4] and", "shape = [3]"],
                               "why": "the wheel's internal kernel name (SubExt) and its argument names"}
