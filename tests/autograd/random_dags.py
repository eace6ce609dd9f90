"""Random computation DAGs, each written twice: as MindSpore source text and as numpy float64 arithmetic.

A program is a short straight-line computation over inputs, Parameters held in an ``nn.Cell`` (hand-made
``Parameter``s and ``nn.Dense`` layers) and constants. Its steps are drawn from elementwise ops, broadcasting
binary ops, matmul, reductions, views and reshapes, identity-like ops (same-dtype casts, ``depend``, ...),
concatenation and the in-place updates MindSpore 2.10's PyNative mode really performs on a CPU
(``t[i] = u``, ``t[i] *= u``, ``t[i] = t[j] * u``, a write through ``t[k]``). Operands are reused, so values
fan out, and skip connections ``z = h + b; f(z) + z`` pass one gradient through Add to two places. Every value
nothing else reads feeds the scalar loss as ``(v * r).sum()`` with a random constant ``r``, so no gradient
that reaches a value is uniform. A quarter of the programs differentiate twice: their loss is
``sum(grad(f)(x) * d)`` (or the same over the weights' gradients) and the outer ``value_and_grad`` takes every
input and weight.

:meth:`Program.source` is MindSpore code for the golden harness (``ms``, ``ops``, ``nn``, ``np`` and
``Tensor`` bound; the answer is left in ``result``). :meth:`Program.forward` evaluates the same computation
in float64 with numpy alone, from each op's mathematical definition. Inputs are drawn until no relu, abs,
maximum or minimum sits near its kink and no value is large, so central differences are meaningful.
Nothing here imports mskernel or MindSpore.

Example:
    >>> p = make_program(7)
    >>> p.name, p.source().splitlines()[0] == f"np.random.seed({p.seed})"
    ('dag_007', True)
    >>> value, kinks = p.forward(p.point())
    >>> isinstance(value, float)
    True
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["Op", "Index", "Step", "ArraySpec", "Dense", "Program", "make_program", "programs", "MARGIN", "LARGEST"]

Shape = Tuple[int, ...]
Arrays = Dict[str, np.ndarray]

MARGIN = 0.05   # no relu/abs/maximum/minimum input (or difference) is closer than this to the kink
LARGEST = 30.0  # no intermediate value is larger than this in magnitude
MAX_SIZE = 48   # elements of any value
MAX_RANK = 4


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-a))


@dataclass(frozen=True)
class Index:
    """A basic index (ints and slices) and its Python spelling: ``Index((1, slice(None, None, 2)))`` is ``1, ::2``."""

    parts: Tuple[Any, ...]

    def __str__(self) -> str:
        def one(p: Any) -> str:
            if isinstance(p, slice):
                text = ("" if p.start is None else str(p.start)) + ":" + ("" if p.stop is None else str(p.stop))
                return text + ("" if p.step is None else f":{p.step}")
            return str(p)
        return ", ".join(one(p) for p in self.parts)


@dataclass(frozen=True)
class Op:
    """One operation in two languages.

    ``forms`` are MindSpore spellings: format strings over operands ``{a}`` and ``{b}``, the attributes and
    ``{dt}`` (the program's MindSpore dtype). ``fn`` is the float64 definition on numpy arrays, called with
    the operands and the attributes as keywords. ``kink`` gives the quantity whose sign picks the op's smooth
    piece (relu's input, maximum's difference), or None. A ``statement`` op changes ``{a}`` in place; its form
    is a statement and ``fn`` returns the changed copy.
    """

    name: str
    forms: Tuple[str, ...]
    fn: Callable[..., np.ndarray]
    kink: Optional[Callable[..., Optional[np.ndarray]]] = None
    statement: bool = False


def _set(a: np.ndarray, b: np.ndarray, idx: Index) -> np.ndarray:
    out = a.copy()
    out[idx.parts] = b
    return out


def _set_add(a: np.ndarray, b: np.ndarray, idx: Index) -> np.ndarray:
    out = a.copy()
    out[idx.parts] = out[idx.parts] + b
    return out


def _set_sub(a: np.ndarray, b: np.ndarray, idx: Index) -> np.ndarray:
    out = a.copy()
    out[idx.parts] = out[idx.parts] - b
    return out


def _set_mul(a: np.ndarray, b: np.ndarray, idx: Index) -> np.ndarray:
    out = a.copy()
    out[idx.parts] = out[idx.parts] * b
    return out


def _set_shifted(a: np.ndarray, b: np.ndarray, idx: Index, src: Index) -> np.ndarray:
    out = a.copy()
    out[idx.parts] = a[src.parts] * b  # the right-hand side is read before the write
    return out


def _set_through_view(a: np.ndarray, b: np.ndarray, idx: Index, sub: Index, tmp: str) -> np.ndarray:
    out = a.copy()
    view = out[idx.parts]  # a basic index: a view, so the write below changes ``out``
    view[sub.parts] = b
    return out


def _dense(a: np.ndarray, w: np.ndarray, b: Optional[np.ndarray] = None, *, layer: str, act: str) -> np.ndarray:
    z = a @ w.T + (0.0 if b is None else b)
    return {"none": z, "tanh": np.tanh(z), "relu": np.maximum(z, 0.0), "sigmoid": _sigmoid(z)}[act]


def _dense_kink(a: np.ndarray, w: np.ndarray, b: Optional[np.ndarray] = None, *, layer: str,
                act: str) -> Optional[np.ndarray]:
    return a @ w.T + (0.0 if b is None else b) if act == "relu" else None


UNARY = (
    Op("neg", ("-{a}", "ops.neg({a})", "ops.Neg()({a})"), lambda a: -a),
    Op("exp", ("ops.exp({a})", "{a}.exp()", "ops.Exp()({a})"), np.exp),
    Op("tanh", ("ops.tanh({a})", "{a}.tanh()", "ops.Tanh()({a})"), np.tanh),
    Op("sigmoid", ("ops.sigmoid({a})", "{a}.sigmoid()", "ops.Sigmoid()({a})"), _sigmoid),
    Op("square", ("ops.square({a})", "{a}.square()", "{a} ** 2", "ops.Square()({a})"), np.square),
    Op("sin", ("ops.sin({a})", "{a}.sin()"), np.sin),
    Op("cos", ("ops.cos({a})", "{a}.cos()"), np.cos),
    Op("cube", ("ops.pow({a}, 3.0)",), lambda a: a ** 3),
    Op("log1sq", ("ops.log(ops.square({a}) + 1.0)",), lambda a: np.log(a * a + 1.0)),
    Op("sqrtsq", ("ops.sqrt(ops.square({a}) + 0.5)",), lambda a: np.sqrt(a * a + 0.5)),
    Op("recip1sq", ("ops.reciprocal(ops.square({a}) + 1.0)", "1.0 / ({a} * {a} + 1.0)"), lambda a: 1.0 / (a * a + 1.0)),
    Op("relu", ("ops.relu({a})", "ops.ReLU()({a})"), lambda a: np.maximum(a, 0.0), kink=lambda a: a),
    Op("abs", ("ops.abs({a})", "{a}.abs()", "ops.Abs()({a})"), np.abs, kink=lambda a: a),
    Op("scale", ("{a} * {c}", "{c} * {a}", "ops.mul({a}, {c})"), lambda a, c: a * c),
    Op("divide", ("{a} / {c}",), lambda a, c: a / c),
    Op("shift", ("{a} + {c}", "{c} + {a}", "ops.add({a}, {c})"), lambda a, c: a + c),
    Op("rsub", ("{c} - {a}",), lambda a, c: c - a),
)
BINARY = (
    Op("add", ("{a} + {b}", "ops.add({a}, {b})", "ops.Add()({a}, {b})", "{a}.add({b})"), np.add),
    Op("sub", ("{a} - {b}", "ops.sub({a}, {b})", "ops.Sub()({a}, {b})"), np.subtract),
    Op("mul", ("{a} * {b}", "ops.mul({a}, {b})", "ops.Mul()({a}, {b})"), np.multiply),
    Op("div", ("{a} / ({b} * {b} + 0.5)", "ops.div({a}, ops.square({b}) + 0.5)"), lambda a, b: a / (b * b + 0.5)),
    Op("maximum", ("ops.maximum({a}, {b})", "ops.Maximum()({a}, {b})"), np.maximum, kink=np.subtract),
    Op("minimum", ("ops.minimum({a}, {b})",), np.minimum, kink=np.subtract),
)
MATMUL = Op("matmul", ("ops.matmul({a}, {b})", "{a} @ {b}"), np.matmul)
MATMUL_2D = Op("matmul2d", ("ops.MatMul()({a}, {b})",), np.matmul)
MATMUL_TB = Op("matmul_tb", ("ops.MatMul(transpose_b=True)({a}, {b})", "ops.matmul({a}, {b}.T)"),
               lambda a, b: a @ b.T)
DENSE = Op("dense", ("self.{layer}({a})",), _dense, kink=_dense_kink)
REDUCE = (
    Op("sum", ("{a}.sum(axis={axis}, keepdims={keep})", "ops.sum({a}, {axis}, {keep})",
               "ops.ReduceSum(keep_dims={keep})({a}, {axis})"),
       lambda a, axis, keep: a.sum(axis=axis, keepdims=keep)),
    Op("mean", ("{a}.mean(axis={axis}, keep_dims={keep})", "ops.mean({a}, {axis}, {keep})",
                "ops.ReduceMean(keep_dims={keep})({a}, {axis})"),
       lambda a, axis, keep: a.mean(axis=axis, keepdims=keep)),
)
REDUCE_ALL = (
    Op("sum_all", ("{a}.sum()", "ops.sum({a})", "ops.ReduceSum()({a})"), lambda a: a.sum()),
    Op("mean_all", ("{a}.mean()", "ops.mean({a})"), lambda a: a.mean()),
)
RESHAPE = Op("reshape", ("{a}.reshape({shape})", "ops.reshape({a}, {shape})", "ops.Reshape()({a}, {shape})"),
             lambda a, shape: a.reshape(shape))
VIEW_RESHAPE = Op("view", ("{a}.view({shape})",), lambda a, shape: a.reshape(shape))  # contiguous operands only
TRANSPOSE = Op("transpose", ("ops.transpose({a}, {perm})", "{a}.transpose({perm})", "ops.permute({a}, {perm})"),
               lambda a, perm: a.transpose(perm))
TRANSPOSE_T = Op("T", ("{a}.T",), lambda a: a.T)
SWAPAXES = Op("swapaxes", ("ops.swapaxes({a}, {i}, {j})",), lambda a, i, j: np.swapaxes(a, i, j))
GETITEM = Op("getitem", ("{a}[{idx}]",), lambda a, idx: a[idx.parts])
EXPAND_DIMS = Op("expand_dims",
                 ("ops.expand_dims({a}, {axis})", "{a}.expand_dims({axis})", "ops.unsqueeze({a}, {axis})"),
                 lambda a, axis: np.expand_dims(a, axis))
SQUEEZE = Op("squeeze", ("ops.squeeze({a}, {axis})", "{a}.squeeze({axis})"), lambda a, axis: np.squeeze(a, axis))
BROADCAST_TO = Op("broadcast_to", ("ops.broadcast_to({a}, {shape})", "{a}.broadcast_to({shape})"),
                  lambda a, shape: np.broadcast_to(a, shape))
IDENTITY = Op("identity", ("ops.cast({a}, {dt})", "{a}.astype({dt})", "ops.identity({a})",
                           "ops.reshape({a}, {a}.shape)", "{a}[...]", "ops.broadcast_to({a}, {a}.shape)"),
              lambda a: a)
DEPEND = Op("depend", ("ops.depend({a}, {b})",), lambda a, b: a)
CONCAT = Op("concat", ("ops.concat(({a}, {b}), {axis})", "ops.cat(({a}, {b}), {axis})"),
            lambda a, b, axis: np.concatenate((a, b), axis))
STACK = Op("stack", ("ops.stack(({a}, {b}), {axis})",), lambda a, b, axis: np.stack((a, b), axis))
SETITEM = (
    Op("setitem", ("{a}[{idx}] = {b}",), _set, statement=True),
    Op("setitem_add", ("{a}[{idx}] += {b}",), _set_add, statement=True),
    Op("setitem_sub", ("{a}[{idx}] -= {b}",), _set_sub, statement=True),
    Op("setitem_mul", ("{a}[{idx}] *= {b}",), _set_mul, statement=True),
)
SETITEM_SHIFTED = Op("setitem_shifted", ("{a}[{idx}] = {a}[{src}] * {b}",), _set_shifted, statement=True)
SETITEM_VIEW = Op("setitem_view", ("{tmp} = {a}[{idx}]\n{tmp}[{sub}] = {b}",), _set_through_view, statement=True)


@dataclass(frozen=True)
class Step:
    """``out = op(args..., **attrs)`` written in the spelling ``form`` (for a statement op, ``out`` is ``args[0]``)."""

    out: str
    op: Op
    form: str
    args: Tuple[str, ...]
    attrs: Tuple[Tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class ArraySpec:
    """An array drawn by ``np.random.uniform(lo, hi, shape)`` in the program's header, in order.

    ``role`` is ``input`` (a function argument), ``weight`` (a Parameter), ``const`` (a loss weight) or
    ``direction`` (the ``d`` of a second-order loss); ``var`` is its variable in the source.
    """

    name: str
    var: str
    role: str
    shape: Shape
    lo: float = -1.0
    hi: float = 1.0


@dataclass(frozen=True)
class Dense:
    """An ``nn.Dense`` layer of the Cell: its attribute name, sizes, bias and activation (``none`` for None)."""

    attr: str
    in_channels: int
    out_channels: int
    has_bias: bool
    act: str


@dataclass
class Program:
    """A generated program; see the module docstring.

    ``order2`` is None for a first-order program, ``("input", p)`` when the inner ``grad`` is over input ``p``
    and ``("weights",)`` when it is over every weight.
    """

    name: str
    seed: int
    dtype: str
    cell: bool
    arrays: List[ArraySpec]
    layers: List[Dense]
    steps: List[Step]
    loss_terms: List[Tuple[str, str]]
    order2: Optional[Tuple[Any, ...]] = None
    hand_weights: List[str] = field(default_factory=list)

    # -- numpy ---------------------------------------------------------------------------------------------
    def draw(self) -> Arrays:
        """Every array of the header in float64, as the source's ``np.random`` calls draw them."""
        rs = np.random.RandomState(self.seed)
        return {s.name: np.asarray(rs.uniform(s.lo, s.hi, s.shape), dtype=np.float64) for s in self.arrays}

    @property
    def inputs(self) -> List[str]:
        """Names of the function's arguments, in order."""
        return [s.name for s in self.arrays if s.role == "input"]

    @property
    def weights(self) -> List[str]:
        """Names of the Parameters (MindSpore's names: ``w0``, ``dense0.weight``), in creation order."""
        return [s.name for s in self.arrays if s.role == "weight"]

    def point(self) -> Arrays:
        """The differentiable arrays (inputs and weights) by name, float64."""
        drawn = self.draw()
        return {n: drawn[n] for n in self.inputs + self.weights}

    def direction(self) -> Arrays:
        """For a second-order program: the ``d`` arrays by the name of the leaf they multiply the gradient of."""
        drawn = self.draw()
        return {s.name[len("d:"):]: drawn[s.name] for s in self.arrays if s.role == "direction"}

    def _run(self, point: Arrays) -> Tuple[Arrays, List[np.ndarray]]:
        env = self.draw()
        env.update(point)
        kinks: List[np.ndarray] = []
        for step in self.steps:
            args = [env[a] for a in step.args]
            attrs = dict(step.attrs)
            if step.op.kink is not None:
                k = step.op.kink(*args, **attrs)
                if k is not None:
                    kinks.append(np.asarray(k, dtype=np.float64))
            env[step.out] = np.asarray(step.op.fn(*args, **attrs), dtype=np.float64)
        return env, kinks

    def forward(self, point: Arrays) -> Tuple[float, List[np.ndarray]]:
        """The first-order loss at ``point`` in float64, and the kink quantities (their signs pick smooth pieces)."""
        env, kinks = self._run(point)
        return float(sum((env[v] * env[r]).sum() for v, r in self.loss_terms)), kinks

    def largest(self, point: Arrays) -> float:
        """The largest magnitude of any value the program computes at ``point``."""
        env, _ = self._run(point)
        return max(float(np.abs(env[s.out]).max()) for s in self.steps)

    # -- MindSpore source ----------------------------------------------------------------------------------
    def _operand(self, name: str) -> str:
        return f"self.{name}" if name in self.hand_weights else name

    def _line(self, step: Step, dt: str) -> List[str]:
        names = dict(zip("ab", (self._operand(a) for a in step.args)))
        attrs = {k: str(v) for k, v in step.attrs}
        text = step.form.format(dt=dt, **names, **attrs)
        return text.split("\n") if step.op.statement else [f"{step.out} = {text}"]

    def source(self, dtype: Optional[str] = None) -> str:
        """MindSpore source text of the program in ``dtype`` (default: the program's own, float32 or float64)."""
        dtype = dtype or self.dtype
        dt = f"ms.{dtype}"
        lines = [f"np.random.seed({self.seed})"]
        for s in self.arrays:
            draw = f"np.random.uniform({s.lo}, {s.hi}, {s.shape}).astype(np.{dtype})"
            lines.append(f"{s.var} = {draw}" if s.role == "weight" else f"{s.var} = Tensor({draw})")
        args = ", ".join(self.inputs)
        body = [ln for step in self.steps for ln in self._line(step, dt)]
        body.append("return " + " + ".join(f"({self._operand(v)} * {r}).sum()" for v, r in self.loss_terms))
        var = {s.name: s.var for s in self.arrays}
        if self.cell:
            lines += ["class Net(nn.Cell):", "    def __init__(self):", "        super().__init__()"]
            for w in self.hand_weights:
                lines.append(f"        self.{w} = ms.Parameter(Tensor({var[w]}), name=\"{w}\")")
            for d in self.layers:
                bias = (f"bias_init=Tensor({var[d.attr + '.bias']})" if d.has_bias else "has_bias=False")
                act = "" if d.act == "none" else f", activation=\"{d.act}\""
                lines.append(f"        self.{d.attr} = nn.Dense({d.in_channels}, {d.out_channels}, "
                             f"weight_init=Tensor({var[d.attr + '.weight']}), {bias}{act}, dtype={dt})")
            lines.append(f"    def construct(self, {args}):")
            lines += ["        " + ln for ln in body]
            lines.append("net = Net()")
            f = "net"
        else:
            lines.append(f"def f({args}):")
            lines += ["    " + ln for ln in body]
            f = "f"
        positions = str(tuple(range(len(self.inputs))))
        if self.order2 is not None:
            lines.append(f"def g({args}):")
            if self.order2[0] == "input":
                p = self.order2[1]
                lines.append(f"    return (ms.grad({f}, {p})({args}) * {var['d:' + self.inputs[p]]}).sum()")
            else:
                lines.append(f"    gw = ms.grad({f}, None, net.trainable_params())({args})")
                lines.append("    named = dict(zip([p.name for p in net.trainable_params()], gw))")
                lines.append("    return " + " + ".join(f"(named[\"{w}\"] * {var['d:' + w]}).sum()"
                                                          for w in self.weights))
            f = "g"
        if self.cell:
            lines.append(f"value, (gin, gw) = ms.value_and_grad({f}, {positions}, net.trainable_params())({args})")
            lines.append("result = (value, gin, gw, [p.name for p in net.trainable_params()])")
        else:
            lines.append(f"value, gin = ms.value_and_grad({f}, {positions})({args})")
            lines.append("result = (value, gin)")
        return "\n".join(lines)

    def gradients_by_name(self, result: Sequence[Any]) -> Dict[str, Any]:
        """The gradients in a ``result`` left by :meth:`source`, keyed by leaf name (inputs and weights)."""
        def items(grads: Any) -> Sequence[Any]:  # a one-element grad_position gives the Tensor itself
            return grads if isinstance(grads, (tuple, list)) else (grads,)
        out = dict(zip(self.inputs, items(result[1])))
        if self.cell:
            out.update(zip(result[3], items(result[2])))
        return out


# -- the generator ------------------------------------------------------------------------------------------
@dataclass
class _Value:
    name: str
    shape: Shape
    kind: str  # input, weight, layer (a Dense parameter: no operand), fresh (a new buffer), derived (a view or alias)
    contiguous: bool = True
    uses: int = 0


class _Builder:
    """Grows one program step by step; every choice comes from ``rng``."""

    def __init__(self, rng: random.Random, cell: bool, twice: bool):
        self.rng = rng
        self.cell = cell
        self.twice = twice  # differentiated twice: MindSpore 2.10 cannot take x[i] (one bare int) there
        self.arrays: List[ArraySpec] = []
        self.layers: List[Dense] = []
        self.hand_weights: List[str] = []
        self.steps: List[Step] = []
        self.values: List[_Value] = []
        self.count: Dict[str, int] = {}

    # names and leaves
    def _fresh(self, prefix: str) -> str:
        k = self.count.get(prefix, 0)
        self.count[prefix] = k + 1
        return f"{prefix}{k}"

    def _value(self, name: str, shape: Shape, kind: str, contiguous: bool = True) -> _Value:
        v = _Value(name, tuple(shape), kind, contiguous)
        self.values.append(v)
        return v

    def n_role(self, role: str) -> int:
        return sum(s.role == role for s in self.arrays)

    def leaf(self, shape: Shape, weight_ok: bool = True) -> Optional[_Value]:
        """A new input or (in a Cell) Parameter of ``shape``; None when the program has enough of both."""
        want_weight = self.cell and self.rng.random() < 0.6 and weight_ok
        if want_weight and len(self.hand_weights) < 4:
            name = self._fresh("w")
            self.arrays.append(ArraySpec(name, f"init_{name}", "weight", tuple(shape)))
            self.hand_weights.append(name)
            return self._value(name, shape, "weight")
        if self.n_role("input") < 4:
            name = self._fresh("x")
            self.arrays.append(ArraySpec(name, name, "input", tuple(shape), -1.5, 1.5))
            return self._value(name, shape, "input")
        return None

    def pick(self, ok: Callable[[_Value], bool] = lambda v: True) -> Optional[_Value]:
        """An existing operand, favouring recent and unused values."""
        cands = [v for v in self.values if v.kind != "layer" and ok(v)]
        if not cands:
            return None
        n = len(self.values)
        weights = [(1.0 + 2.0 * self.values.index(v) / n) * (1.5 if v.uses == 0 else 1.0) for v in cands]
        return self.rng.choices(cands, weights)[0]

    def emit(self, op: Op, args: Sequence[_Value], shape: Shape, kind: str, attrs: Dict[str, Any] = (),
             contiguous: bool = True) -> _Value:
        for a in args:
            a.uses += 1
        name = self._fresh("v")
        self.steps.append(Step(name, op, self.rng.choice(op.forms), tuple(a.name for a in args),
                               tuple(dict(attrs).items())))
        return self._value(name, shape, kind, contiguous)

    # shapes
    def random_shape(self) -> Shape:
        rank = self.rng.choice((1, 2, 2, 2, 3, 3))
        return tuple(self.rng.choice((1, 2, 3, 3, 4)) for _ in range(rank))

    def broadcastable_to(self, shape: Shape) -> Shape:
        """A shape that broadcasts to ``shape`` (a suffix with some sizes 1)."""
        k = self.rng.randint(0, len(shape)) if self.rng.random() < 0.5 else len(shape)
        suffix = shape[len(shape) - k:]
        return tuple(1 if self.rng.random() < 0.3 else s for s in suffix)

    # step kinds: each returns False when it does not apply to what the program has
    def unary(self) -> bool:
        a = self.pick()
        op = self.rng.choice(UNARY)
        attrs = {}
        if op.name in ("scale", "divide", "shift", "rsub"):
            attrs["c"] = self.rng.choice((0.5, -1.5, 2.0, 0.25, -0.75, 3.0))
        self.emit(op, [a], a.shape, "fresh", attrs)
        return True

    def binary(self) -> bool:
        a = self.pick()

        def fits(v: _Value) -> bool:
            try:
                s = np.broadcast_shapes(a.shape, v.shape)
            except ValueError:
                return False
            return int(np.prod(s)) <= MAX_SIZE and len(s) <= MAX_RANK
        r = self.rng.random()
        b = a if r < 0.15 else self.pick(fits) if r < 0.7 else None  # a op a: one value, two operand slots
        if b is None:
            b = self.leaf(self.broadcastable_to(a.shape) if self.rng.random() < 0.6 else a.shape)
        if b is None:
            return False
        if self.rng.random() < 0.5:
            a, b = b, a
        self.emit(self.rng.choice(BINARY), [a, b], np.broadcast_shapes(a.shape, b.shape), "fresh")
        return True

    def residual(self) -> bool:
        """A skip connection over a sum: ``z = h + b; out = f(z) + z``. ``z`` fans out and Add passes one gradient
        to both ``h`` and ``b``; ``h`` is preferably a value something else reads too."""
        h = (self.pick(lambda v: v.uses > 0) if self.rng.random() < 0.7 else None) or self.pick()
        b = self.pick(lambda v: v.shape == h.shape and v is not h) if self.rng.random() < 0.5 else None
        b = b or self.leaf(h.shape)
        if b is None:
            return False
        z = self.emit(BINARY[0], [h, b] if self.rng.random() < 0.5 else [b, h], h.shape, "fresh")
        y = self.emit(self.rng.choice(UNARY[:13]), [z], z.shape, "fresh")
        self.emit(BINARY[0], [y, z] if self.rng.random() < 0.5 else [z, y], z.shape, "fresh")
        return True

    def bias(self) -> bool:
        """``v + self.w`` with a new Parameter of a shape that broadcasts to ``v`` (a Cell's broadcast bias)."""
        a = self.pick(lambda v: len(v.shape) >= 1)
        if not self.cell or a is None or len(self.hand_weights) >= 4:
            return False
        r = self.rng.random()
        shape = (a.shape[-1],) if r < 0.35 else a.shape if r < 0.7 else self.broadcastable_to(a.shape)
        name = self._fresh("w")
        self.arrays.append(ArraySpec(name, f"init_{name}", "weight", tuple(shape)))
        self.hand_weights.append(name)
        w = self._value(name, shape, "weight")
        operands = [a, w] if self.rng.random() < 0.7 else [w, a]
        self.emit(BINARY[0], operands, np.broadcast_shapes(a.shape, shape), "fresh")
        return True

    def matmul(self) -> bool:
        a = self.pick(lambda v: len(v.shape) in (2, 3))
        if a is None:
            return False
        k, n = a.shape[-1], self.rng.randint(1, 4)
        if self.cell and self.rng.random() < 0.35 and len(self.layers) < 2:
            return self.dense(a)
        if len(a.shape) == 2 and self.rng.random() < 0.25:  # a on the right: (m, k') @ a
            b = self.pick(lambda v: len(v.shape) == 2 and v.shape[1] == a.shape[0] and v is not a) \
                or self.leaf((self.rng.randint(1, 4), a.shape[0]))
            if b is None:
                return False
            op = self.rng.choice((MATMUL, MATMUL_2D))
            self.emit(op, [b, a], (b.shape[0], a.shape[1]), "fresh")
            return True
        transposed = len(a.shape) == 2 and self.rng.random() < 0.25  # a @ b.T, b of shape (n, k)
        want = (n, k) if transposed else (k, n)
        b = self.pick(lambda v: v.shape == want) if self.rng.random() < 0.5 else None
        b = b or self.leaf(want)
        if b is None:
            return False
        out = a.shape[:-1] + (n,)
        if transposed:
            op = MATMUL_TB
        else:
            op = MATMUL_2D if len(a.shape) == 2 and self.rng.random() < 0.3 else MATMUL
        self.emit(op, [a, b], out, "fresh")
        return True

    def dense(self, a: _Value) -> bool:
        k, n = a.shape[-1], self.rng.randint(1, 4)
        attr = self._fresh("dense")
        layer = Dense(attr, k, n, self.rng.random() < 0.7, self.rng.choice(("none", "tanh", "relu", "sigmoid")))
        self.layers.append(layer)
        self.arrays.append(ArraySpec(f"{attr}.weight", f"init_{attr}_weight", "weight", (n, k)))
        args = [a, self._value(f"{attr}.weight", (n, k), "layer")]
        if layer.has_bias:
            self.arrays.append(ArraySpec(f"{attr}.bias", f"init_{attr}_bias", "weight", (n,)))
            args.append(self._value(f"{attr}.bias", (n,), "layer"))
        self.emit(DENSE, args, a.shape[:-1] + (n,), "fresh", {"layer": attr, "act": layer.act})
        return True

    def reduce(self) -> bool:
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return False
        rank = len(a.shape)
        if self.rng.random() < 0.2:
            self.emit(self.rng.choice(REDUCE_ALL), [a], (), "fresh")
            return True
        axes = sorted(self.rng.sample(range(rank), self.rng.randint(1, min(2, rank))))
        keep = self.rng.random() < 0.4
        shape = tuple(1 if i in axes else s for i, s in enumerate(a.shape)) if keep else \
            tuple(s for i, s in enumerate(a.shape) if i not in axes)
        spelled = [ax - rank if self.rng.random() < 0.3 else ax for ax in axes]
        axis: Any = spelled[0] if len(spelled) == 1 and self.rng.random() < 0.6 else tuple(spelled)
        self.emit(self.rng.choice(REDUCE), [a], shape, "fresh", {"axis": axis, "keep": keep})
        return True

    def random_index(self, shape: Shape) -> Tuple[Index, Shape]:
        """A basic index into ``shape`` and the shape it selects (never empty)."""
        parts: List[Any] = []
        out: List[int] = []
        for s in shape:
            r = self.rng.random()
            if r < 0.45:
                parts.append(slice(None))
                out.append(s)
            elif r < 0.65:
                i = self.rng.randrange(s)
                parts.append(i - s if self.rng.random() < 0.3 else i)
            elif r < 0.85 and s >= 2:
                lo = self.rng.randrange(s - 1)
                hi = self.rng.randint(lo + 1, s)
                parts.append(slice(lo or None, hi if hi < s else None))
                out.append(hi - lo)
            elif s >= 2:
                parts.append(slice(None, None, 2))
                out.append((s + 1) // 2)
            else:
                parts.append(slice(None))
                out.append(s)
        while len(parts) > 1 and parts[-1] == slice(None) and not (self.twice and len(parts) == 2):
            parts.pop()
        if self.twice and len(parts) == 1 and isinstance(parts[0], int):
            parts[0] = slice(None)  # a 1-D operand: take it whole
            out.append(shape[0])
        return Index(tuple(parts)), tuple(out)

    def view(self) -> bool:
        a = self.pick()
        rank, size = len(a.shape), int(np.prod(a.shape))
        kinds = ["reshape", "getitem", "expand_dims"] if rank >= 1 else ["reshape", "expand_dims"]
        if rank >= 2:
            kinds += ["transpose", "T", "swapaxes"]
        if 1 in a.shape:
            kinds.append("squeeze")
        if size * 2 <= MAX_SIZE and rank < MAX_RANK:
            kinds.append("broadcast_to")
        kind = self.rng.choice(kinds)
        if kind == "reshape":
            shape = self.reshape_target(size, a.shape)
            op = VIEW_RESHAPE if a.contiguous and a.kind == "fresh" and self.rng.random() < 0.3 else RESHAPE
            self.emit(op, [a], shape, "derived", {"shape": shape}, contiguous=a.contiguous)
        elif kind == "getitem":
            idx, shape = self.random_index(a.shape)
            self.emit(GETITEM, [a], shape, "derived", {"idx": idx}, contiguous=False)
        elif kind == "expand_dims":
            axis = self.rng.randint(-rank - 1, rank)
            pos = axis if axis >= 0 else rank + 1 + axis
            self.emit(EXPAND_DIMS, [a], a.shape[:pos] + (1,) + a.shape[pos:], "derived", {"axis": axis},
                      contiguous=a.contiguous)
        elif kind == "squeeze":
            axis = self.rng.choice([i for i, s in enumerate(a.shape) if s == 1])
            self.emit(SQUEEZE, [a], a.shape[:axis] + a.shape[axis + 1:], "derived", {"axis": axis},
                      contiguous=a.contiguous)
        elif kind == "broadcast_to":
            if 1 in a.shape and self.rng.random() < 0.6:
                shape = tuple(self.rng.choice((2, 3)) if s == 1 else s for s in a.shape)
            else:
                shape = (2,) + a.shape
            if int(np.prod(shape)) > MAX_SIZE:
                return False
            self.emit(BROADCAST_TO, [a], shape, "derived", {"shape": shape}, contiguous=False)
        elif kind == "transpose":
            perm = tuple(self.rng.sample(range(rank), rank))
            self.emit(TRANSPOSE, [a], tuple(a.shape[p] for p in perm), "derived", {"perm": perm}, contiguous=False)
        elif kind == "T":
            self.emit(TRANSPOSE_T, [a], a.shape[::-1], "derived", contiguous=False)
        else:
            i, j = self.rng.sample(range(rank), 2)
            shape = list(a.shape)
            shape[i], shape[j] = shape[j], shape[i]
            self.emit(SWAPAXES, [a], tuple(shape), "derived", {"i": i, "j": j}, contiguous=False)
        return True

    def reshape_target(self, size: int, old: Shape) -> Shape:
        divisors = [d for d in range(1, size + 1) if size % d == 0]
        for _ in range(10):
            r = self.rng.random()
            if r < 0.3:
                shape: Shape = (size,)
            elif r < 0.75:
                d = self.rng.choice(divisors)
                shape = (d, size // d)
            else:
                d = self.rng.choice(divisors)
                e = self.rng.choice([x for x in divisors if (size // d) % x == 0])
                shape = (d, e, size // d // e)
            if shape != old:
                return shape
        return (size,) if old != (size,) else (1, size)

    def identity(self) -> bool:
        a = self.pick()
        if self.rng.random() < 0.2:
            b = self.pick(lambda v: v is not a)
            if b is None:
                return False
            self.emit(DEPEND, [a, b], a.shape, "derived", contiguous=a.contiguous)
        else:
            self.emit(IDENTITY, [a], a.shape, "derived", contiguous=a.contiguous)
        return True

    def join(self) -> bool:
        # no Parameter here: MindSpore 2.10's Stack rejects a Parameter (a Ref) beside a Tensor when the result
        # is written in place or differentiated twice
        a = self.pick(lambda v: v.kind != "weight" and len(v.shape) >= 1 and 2 * int(np.prod(v.shape)) <= MAX_SIZE)
        if a is None:
            return False
        b = self.pick(lambda v: v.kind != "weight" and v.shape == a.shape)
        rank = len(a.shape)
        if self.rng.random() < 0.6:
            axis = self.rng.randrange(-rank, rank)
            shape = list(a.shape)
            shape[axis] *= 2
            self.emit(CONCAT, [a, b], tuple(shape), "fresh", {"axis": axis})
        elif rank < MAX_RANK:
            axis = self.rng.randint(0, rank)
            self.emit(STACK, [a, b], a.shape[:axis] + (2,) + a.shape[axis:], "fresh", {"axis": axis})
        else:
            return False
        return True

    def inplace(self) -> bool:
        """An in-place update of a new buffer nothing has read yet (MindSpore's CPU PyNative keeps these)."""
        t = self.pick(lambda v: v.kind == "fresh" and v.uses == 0 and len(v.shape) >= 1)
        if t is None:
            return False
        r = self.rng.random()
        attrs: Dict[str, Any] = {}
        if r < 0.2 and len(t.shape) >= 2 and not self.twice:  # MindSpore 2.10 fails on it when differentiating twice
            op = SETITEM_VIEW
            i = self.rng.randrange(t.shape[0])
            sub, target = self.random_index(t.shape[1:])
            attrs = {"idx": Index((i, slice(None)) if self.twice else (i,)), "sub": sub, "tmp": self._fresh("t")}
        elif r < 0.4 and max(t.shape) >= 2:
            op = SETITEM_SHIFTED
            d = self.rng.choice([i for i, s in enumerate(t.shape) if s >= 2])
            head = [slice(None)] * d
            attrs = {"idx": Index(tuple(head + [slice(1, None)])), "src": Index(tuple(head + [slice(None, -1)]))}
            target = tuple(s - 1 if i == d else s for i, s in enumerate(t.shape))
        else:
            op = self.rng.choice(SETITEM)
            idx, target = self.random_index(t.shape)
            attrs = {"idx": idx}

        def fits(v: _Value) -> bool:  # MindSpore 2.10 cannot assign a Parameter itself (its dtype is a Ref)
            try:
                return v is not t and v.kind != "weight" and np.broadcast_shapes(v.shape, target) == target
            except ValueError:
                return False
        b = self.pick(fits) if self.rng.random() < 0.7 else None
        b = b or self.leaf(self.broadcastable_to(target), weight_ok=False)
        if b is None:
            return False
        b.uses += 1
        self.steps.append(Step(t.name, op, op.forms[0], (t.name, b.name), tuple(attrs.items())))
        return True


KINDS = (("unary", 20), ("binary", 20), ("residual", 7), ("matmul", 10), ("bias", 6), ("reduce", 9), ("view", 14),
         ("identity", 5), ("join", 4), ("inplace", 8))


def _build(rng: random.Random, cell: bool, twice: bool) -> _Builder:
    b = _Builder(rng, cell, twice)
    for _ in range(rng.randint(1, 3)):
        b.leaf(b.random_shape())
    if cell and not b.hand_weights:
        shape = b.values[0].shape
        name = b._fresh("w")
        b.arrays.append(ArraySpec(name, f"init_{name}", "weight", b.broadcastable_to(shape) or (1,)))
        b.hand_weights.append(name)
        b._value(name, b.arrays[-1].shape, "weight")
    if not b.n_role("input"):
        b.arrays.append(ArraySpec("x0", "x0", "input", b.random_shape(), -1.5, 1.5))
        b.count["x"] = 1
        b._value("x0", b.arrays[-1].shape, "input")
    n_steps = rng.randint(5, 11)
    names, weights = zip(*KINDS)
    while len(b.steps) < n_steps:
        getattr(b, rng.choices(names, weights)[0])()
    return b


def _finish(b: _Builder, order2: Optional[Tuple[Any, ...]]) -> Tuple[List[ArraySpec], List[Tuple[str, str]]]:
    """Loss weights for every value nothing reads, and second-order directions; the header's arrays in order."""
    arrays = list(b.arrays)
    terms = []
    for v in b.values:
        if v.uses == 0 and v.kind != "layer":
            r = f"r{len(terms)}"
            arrays.append(ArraySpec(r, r, "const", v.shape))
            terms.append((v.name, r))
    if order2 is not None:
        leaves = [s for s in b.arrays if s.role == "input"]
        if order2[0] == "input":
            leaves = [leaves[order2[1]]]
        else:
            leaves = [s for s in b.arrays if s.role == "weight"]
        for s in leaves:
            arrays.append(ArraySpec("d:" + s.name, "d_" + s.name.replace(".", "_"), "direction", s.shape))
    return arrays, terms


def make_program(index: int) -> Program:
    """The program numbered ``index`` (the same every time): ``dag_<index>``, float64 for even numbers, float32 for odd.

    Example:
        >>> make_program(3).source() == make_program(3).source()
        True
    """
    rng = random.Random(7919 * index + 17)
    cell = rng.random() < 0.6
    twice = rng.random() < 0.25
    while True:
        b = _build(rng, cell, twice)
        order2 = None
        if twice:
            order2 = ("weights",) if cell and rng.random() < 0.4 else ("input", rng.randrange(b.n_role("input")))
        arrays, terms = _finish(b, order2)
        for attempt in range(30):
            p = Program(f"dag_{index:03d}", 1000 * index + attempt, "float64" if index % 2 == 0 else "float32", cell,
                        arrays, list(b.layers), list(b.steps), terms, order2, list(b.hand_weights))
            point = p.point()
            _, kinks = p.forward(point)
            if all(np.abs(k).min() >= MARGIN for k in kinks if k.size) and p.largest(point) <= LARGEST:
                return p


def programs(start: int, stop: int) -> List[Program]:
    """Programs ``start`` to ``stop - 1``.

    Example:
        >>> [p.name for p in programs(0, 2)]
        ['dag_000', 'dag_001']
    """
    return [make_program(i) for i in range(start, stop)]
