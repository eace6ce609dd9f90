"""Random differentiable programs over the op table, recorded from MindSpore 2.10 (value and gradients).

The generator is seeded, so the same programs are made every time; each is a chain of 3-7 ops drawn
from elementwise, binary (broadcasting), reduction (values, extremes with indices, moments), scan, shape
(tile, pad, split, narrow, ...) and selection ops, called in the functional,
primitive or Tensor-method form, ending in ``value_and_grad`` over both inputs. Inputs are kept where
every op is defined (``abs(.) + 0.5`` before log/sqrt/pow, ``tanh`` to bound exp). tests/golden/
test_random_programs.py compares them all: each must agree, except the disagreements it pins by name.
"""
import random

UNARY = [
    ("ops.neg({a})", None), ("ops.exp(ops.tanh({a}))", None), ("ops.sin({a})", None), ("ops.cos({a})", None),
    ("ops.tanh({a})", None), ("ops.sigmoid({a})", None), ("ops.abs({a})", None), ("ops.square({a})", None),
    ("ops.atan({a})", None), ("ops.erf({a})", None), ("ops.log(ops.abs({a}) + 0.5)", None),
    ("ops.sqrt(ops.abs({a}) + 0.5)", None), ("ops.log1p(ops.abs({a}))", None), ("{a}.exp().tanh()", None),
    ("ops.Sigmoid()({a})", None), ("ops.Square()({a})", None), ("ops.relu({a})", None), ("{a}.abs()", None),
    ("ops.rsqrt(ops.abs({a}) + 0.5)", None), ("ops.reciprocal(ops.abs({a}) + 0.5)", None),
    ("ops.clamp({a}, -0.5, 0.7)", None), ("ops.atanh(ops.tanh({a}) * 0.9)", None), ("ops.asinh({a})", None),
    ("ops.expm1(ops.tanh({a}))", None), ("{a} * 2.5 - 1", None), ("1.5 / (ops.abs({a}) + 1)", None),
    ("ops.cumsum({a}, -1)", None), ("ops.CumSum(exclusive=True, reverse=True)({a}, -1)", None),
    ("ops.cumprod(ops.tanh({a}) + 1.5, -1)", None), ("ops.flip({a}, (-1,))", None), ("{a}.flip((0,))", None),
    ("ops.logsumexp({a}, -1, True) - {a}", None), ("ops.softmax({a}, -1)", None), ("ops.logit(ops.sigmoid({a}))", None),
]
# ops that need a matrix (two or more dimensions)
MATRIX = ["ops.tril({a})", "ops.triu({a}, 1)", "ops.Tril(diagonal=-1)({a})", "ops.swapaxes({a}, -1, -2)",
          "ops.matmul({a}, ops.swapaxes({a}, -1, -2))"]
BINARY = [
    "ops.add({a}, {b})", "ops.sub({a}, {b})", "ops.mul({a}, {b})", "ops.div({a}, ops.abs({b}) + 0.5)",
    "ops.maximum({a}, {b})", "ops.minimum({a}, {b})", "ops.atan2({a}, ops.abs({b}) + 0.1)",
    "ops.pow(ops.abs({a}) + 0.5, ops.tanh({b}))", "ops.hypot({a}, {b})", "{a} * {b} + {a}", "{a} - {b} * 0.5",
    "ops.Mul()({a}, {b})", "ops.Add()({a}, {b})", "ops.Maximum()({a}, {b})", "ops.where({a} > {b}, {a}, {b})",
    "ops.lerp({a}, {b}, 0.25)", "{a}.mul({b})", "ops.RealDiv()({a}, ops.abs({b}) + 1)",
]
REDUCE = ["ops.sum({a}, {ax})", "ops.mean({a}, {ax})", "ops.amax({a}, {ax})", "ops.amin({a}, {ax})",
          "{a}.sum({ax})", "{a}.mean({ax})", "ops.ReduceSum(keep_dims=True)({a}, {ax})",
          "ops.ReduceMean(keep_dims=False)({a}, {ax})", "ops.ReduceMax(keep_dims=True)({a}, {ax})",
          "ops.max({a}, {ax})[0]", "ops.min({a}, {ax})[0]", "{a}.max(axis={ax})", "ops.var({a}, {ax})",
          "ops.std({a}, {ax}, ddof=1)", "ops.logsumexp({a}, {ax})", "ops.prod(ops.tanh({a}) + 1.5, {ax})",
          "ops.norm({a}, dim={ax})", "ops.median({a}, {ax})[0]", "ops.ArgMaxWithValue({ax})({a})[1]",
          "ops.ReduceProd(keep_dims=True)(ops.tanh({a}) + 1.5, {ax})"]
# shape-changing ops: (template, how the rank changes)
RESHAPE = [("ops.tile({a}, (2,))", 0), ("ops.repeat_interleave({a}, 2, -1)", 0), ("ops.pad({a}, (1, 2))", 0),
           ("ops.pad({a}, (2, 1), mode='reflect')", 0), ("ops.narrow({a}, -1, 0, 1)", 0),
           ("ops.split({a}, 1, -1)[0]", 0), ("ops.chunk({a}, 2, 0)[0]", 0), ("ops.unsqueeze({a}, 0)", 1),
           ("ops.stack(ops.unbind({a}, 0), -1)", 0), ("ops.concat(ops.split({a}, 1, 0)[::-1], 0)", 0),
           ("ops.diag_embed({a})", 1), ("ops.StridedSlice()({a}, (0,), (1,), (1,))", 0)]
SHAPES = [(2, 3), (3, 4), (2, 3, 4), (4,), (3, 1)]


def _broadcastable(rng: random.Random, shape):
    choice = rng.randrange(3)
    if choice == 0:
        return shape
    if choice == 1 and len(shape) > 1:
        return shape[1:]
    return tuple(1 if rng.random() < 0.5 else s for s in shape)


def _program(seed: int) -> str:
    rng = random.Random(seed)
    sx = rng.choice(SHAPES)
    sy = _broadcastable(rng, sx)
    lines = [f"np.random.seed({seed})",
             f"x = Tensor(np.random.uniform(-1.5, 1.5, {sx}).astype(np.float32))",
             f"y = Tensor(np.random.uniform(-1.5, 1.5, {sy}).astype(np.float32))",
             "def f(x, y):"]
    live = [("x", len(sx)), ("y", len(sy))]
    steps = rng.randint(3, 7)
    for k in range(steps):
        kind = rng.random()
        a, nd = rng.choice(live)
        if kind < 0.4:
            expr, nd2 = rng.choice(UNARY)[0].format(a=a), nd
        elif kind < 0.75:
            b, ndb = rng.choice(live)
            expr, nd2 = rng.choice(BINARY).format(a=a, b=b), max(nd, ndb)
        elif kind < 0.88 and nd >= 1:
            ax = rng.randrange(-nd, nd)
            tmpl = rng.choice(REDUCE)
            expr = tmpl.format(a=a, ax=ax)
            nd2 = nd if "keep_dims=True" in tmpl else nd - 1
        elif kind < 0.94 and nd >= 1:
            tmpl, dnd = rng.choice(RESHAPE)
            if "pad" in tmpl and "reflect" in tmpl:
                expr = tmpl.format(a=f"ops.tile({a}, (3,))")
            else:
                expr = tmpl.format(a=a)
            nd2 = nd + dnd
        elif nd >= 2:
            expr, nd2 = rng.choice([(f"ops.transpose({a}, {tuple(reversed(range(nd)))})", nd),
                                    (f"{a}.reshape(-1)", 1), (f"ops.expand_dims({a}, 0)", nd + 1),
                                    (f"{a}.T", nd), (rng.choice(MATRIX).format(a=a), nd)])
        else:
            expr, nd2 = f"ops.expand_dims({a}, -1) * 1.5", nd + 1
        lines.append(f"    v{k} = {expr}")
        live.append((f"v{k}", nd2))
    last = live[-1][0]
    # tie the last value to both inputs so that both gradients are defined
    lines.append(f"    return ({last}).sum() + (x * 0.1).sum() + (y * 0.2).sum()")
    lines.append("value, grads = ms.value_and_grad(f, (0, 1))(x, y)")
    lines.append("result = (value, grads)")
    return "\n".join(lines)


CASES = {f"program_{i:03d}": _program(1000 + i) for i in range(300)}
