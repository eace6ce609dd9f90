"""Op table: the recurrent primitives: ``ops.LSTM`` (all weights in one flat tensor), ``ops.BasicLSTMCell``,
``ops.DynamicRNN`` and ``ops.DynamicGRUV2`` (one weight matrix over ``[x, h]``, as the NPU kernels take them).

Each is the recurrence of :mod:`mskernel.ops.recurrent_steps` (the steps ``nn.LSTM``/``nn.GRU`` run) unrolled
with ops, so gradients come from the engine.

* ``LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w)``: ``w``
  holds, in this order, every ``weight_ih`` ``(4 * hidden, in)`` (layer by layer, forward direction before
  reverse), every ``weight_hh`` ``(4 * hidden, real_hidden)``, every projection ``(proj_size, hidden)`` and
  every bias ``(4 * hidden,)`` (one summed bias per layer and direction); gates ``i, f, g, o``. Measured on the
  2.10 CPU wheel for one layer, with and without bias and projection; the wheel's oneDNN kernel fails for
  several layers, which here follow the same layout. ``reserve`` ``(7168, 1)`` and ``state`` ``(1, 1)`` are the
  kernel's workspace and random state: zeros here. ``dropout`` is not applied (the primitive has no training
  switch).
* ``BasicLSTMCell``, ``DynamicRNN`` and ``DynamicGRUV2`` have no kernel in the CPU wheel ("Unsupported op [...]
  on CPU"); their maths is MindSpore's documented one, tested here against a float64 numpy recurrence. The LSTM
  forms take one weight ``(input + hidden, 4 * hidden)`` over ``[x, h]`` with gate columns ``i, j, f, o`` (``j``
  the cell input; ``forget_bias`` added to ``f``); ``DynamicGRUV2`` takes ``(input, 3 * hidden)`` and
  ``(hidden, 3 * hidden)`` in ``gate_order`` (``'rzh'``/``'zrh'``). ``keep_prob`` (dropout) is not applied and
  ``seq_length`` does not stop a sample early: every step runs.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> out, hn, cn, _, _ = ops.LSTM(1, 1, 1, False, False, 0.0)(ms.Tensor(np.ones((2, 1, 1), np.float32)),
    ...     ms.Tensor(np.zeros((1, 1, 1), np.float32)), ms.Tensor(np.zeros((1, 1, 1), np.float32)),
    ...     ms.Tensor(np.ones((8, 1, 1), np.float32)))
    >>> print(out.shape, hn.shape)
    (2, 1, 1) (1, 1, 1)
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.recurrent_steps import lstm_step


def _positive_int(op: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{op}', the '{name}' must be int, but got '{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"For '{op}', the '{name}' must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


def _bool(op: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'bool', but got type '{type(value).__name__}'.")
    return value


# -- the NPU-form recurrences: one weight matrix over [x, h], gate columns i, j (the cell input), f, o ----------
def _lstm_gates(xh: Tensor, c: Tensor, w: Tensor, b: Optional[Tensor], forget_bias: float,
                cell_clip: float = -1.0) -> Tuple[Tensor, ...]:
    gates = F.matmul(xh, w) if b is None else F.matmul(xh, w) + b
    i, j, f, o = F.chunk(gates, 4, -1)
    i, j, f, o = F.sigmoid(i), F.tanh(j), F.sigmoid(f + forget_bias), F.sigmoid(o)
    c = f * c + i * j
    if cell_clip > 0:
        c = F.clamp(c, -cell_clip, cell_clip)
    tanh_c = F.tanh(c)
    return o * tanh_c, c, i, j, f, o, tanh_c


def basic_lstm_cell(x: Any, h: Any, c: Any, w: Any, b: Any, keep_prob: float = 1.0, forget_bias: float = 1.0,
                    state_is_tuple: bool = True, activation: str = "tanh") -> Tuple[Tensor, ...]:
    """``ops.BasicLSTMCell``: one step; returns ``ct, ht, it, jt, ft, ot, tanhct`` (``ht`` in float16, as the
    primitive declares)."""
    op = "BasicLSTMCell"
    if not isinstance(keep_prob, float) or not 0.0 <= keep_prob <= 1.0:
        raise ValueError(f"For '{op}', the 'keep_prob' must be a float in range of [0.0, 1.0], but got {keep_prob}.")
    if not isinstance(forget_bias, float):
        raise TypeError(f"For '{op}', the type of 'forget_bias' should be 'float', but got type "
                        f"'{type(forget_bias).__name__}'.")
    _bool(op, "state_is_tuple", state_is_tuple)
    if activation != "tanh":
        raise ValueError(f"For '{op}', the 'activation' must be str and must be in '['tanh']', but got "
                         f"'{activation}'.")
    x, h, c, w, b = (check_tensor(v, op, n) for v, n in ((x, "x"), (h, "h"), (c, "c"), (w, "w"), (b, "b")))
    hidden = h.shape[1]
    if w.shape != (x.shape[1] + hidden, 4 * hidden) or b.shape != (4 * hidden,) or c.shape != h.shape:
        raise ValueError(f"For '{op}', 'w' must be (x_shape[1] + h_shape[1], 4 * h_shape[1]), 'b' (4 * h_shape[1],) "
                         f"and 'c' like 'h', but got w {w.shape}, b {b.shape}, c {c.shape} for x {x.shape}, h "
                         f"{h.shape}.")
    ht, ct, i, j, f, o, tanh_c = _lstm_gates(F.concat((x, h), 1), c, w, b, forget_bias)
    return ct, F.cast(ht, mstype.float16), i, j, f, o, tanh_c


def dynamic_rnn(x: Any, w: Any, b: Any, seq_length: Any = None, init_h: Any = None, init_c: Any = None,
                cell_type: str = "LSTM", direction: str = "UNIDIRECTIONAL", cell_depth: int = 1,
                use_peephole: bool = False, keep_prob: float = 1.0, cell_clip: float = -1.0, num_proj: int = 0,
                time_major: bool = True, activation: str = "tanh", forget_bias: float = 0.0,
                is_training: bool = True) -> Tuple[Tensor, ...]:
    """``ops.DynamicRNN``: the LSTM over ``x`` (T, N, I); returns ``y, output_h, output_c, i, j, f, o, tanhc``,
    each (T, N, H). ``seq_length`` is accepted and every step runs."""
    op = "DynamicRNN"
    for name, value, allowed in (("cell_type", cell_type, ["LSTM"]), ("direction", direction, ["UNIDIRECTIONAL"]),
                                 ("activation", activation, ["tanh"])):
        if value not in allowed:
            raise ValueError(f"For '{op}', the '{name}' must be str and must be in '{allowed}', but got '{value}'.")
    if cell_depth != 1 or use_peephole or num_proj != 0 or not time_major:
        raise ValueError(f"For '{op}', only cell_depth=1, use_peephole=False, num_proj=0 and time_major=True are "
                         f"supported, as MindSpore documents, but got {cell_depth}, {use_peephole}, {num_proj}, "
                         f"{time_major}.")
    x, w, b = (check_tensor(v, op, n) for v, n in ((x, "x"), (w, "w"), (b, "b")))
    if x.ndim != 3:
        raise ValueError(f"For '{op}', the dimension of 'x' must be 3, but got {x.ndim}.")
    hidden = w.shape[1] // 4
    if w.shape != (x.shape[2] + hidden, 4 * hidden) or b.shape != (4 * hidden,):
        raise ValueError(f"For '{op}', 'w' must be (input_size + hidden_size, 4 * hidden_size) and 'b' "
                         f"(4 * hidden_size,), but got w {w.shape} and b {b.shape} for x {x.shape}.")
    zeros = Tensor._wrap(np.zeros((x.shape[1], hidden), x._data.dtype))
    h = zeros if init_h is None else F.reshape(check_tensor(init_h, op, "init_h"), (x.shape[1], hidden))
    c = zeros if init_c is None else F.reshape(check_tensor(init_c, op, "init_c"), (x.shape[1], hidden))
    steps: List[Tuple[Tensor, ...]] = []
    for t in range(x.shape[0]):
        h, c, i, j, f, o, tanh_c = _lstm_gates(F.concat((x[t], h), 1), c, w, b, forget_bias, cell_clip)
        steps.append((h, c, i, j, f, o, tanh_c))
    hs, cs, i, j, f, o, tanh_c = (F.stack([s[k] for s in steps], 0) for k in range(7))
    return hs, hs, cs, i, j, f, o, tanh_c


def dynamic_gru_v2(x: Any, weight_input: Any, weight_hidden: Any, bias_input: Any = None, bias_hidden: Any = None,
                   seq_length: Any = None, init_h: Any = None, direction: str = "UNIDIRECTIONAL",
                   cell_depth: int = 1, keep_prob: float = 1.0, cell_clip: float = -1.0, num_proj: int = 0,
                   time_major: bool = True, activation: str = "tanh", gate_order: str = "rzh",
                   reset_after: bool = True, is_training: bool = True) -> Tuple[Tensor, ...]:
    """``ops.DynamicGRUV2``: the GRU over ``x`` (T, N, I); returns ``y, output_h, update, reset, new,
    hidden_new`` (``hidden_new`` is ``h W_hn + b_hn``), each (T, N, H)."""
    op = "DynamicGRUV2"
    if gate_order not in ("rzh", "zrh"):
        raise ValueError(f"For '{op}', the 'gate_order' must be str and must be in '['zrh', 'rzh']', but got "
                         f"'{gate_order}'.")
    if direction != "UNIDIRECTIONAL" or activation != "tanh" or cell_depth != 1 or num_proj != 0 or not time_major:
        raise ValueError(f"For '{op}', only direction='UNIDIRECTIONAL', activation='tanh', cell_depth=1, num_proj=0 "
                         f"and time_major=True are supported, as MindSpore documents.")
    _bool(op, "reset_after", reset_after)
    x, wi, wh = (check_tensor(v, op, n) for v, n in ((x, "x"), (weight_input, "weight_input"),
                                                    (weight_hidden, "weight_hidden")))
    hidden = wh.shape[0]
    if x.ndim != 3 or wi.shape != (x.shape[2], 3 * hidden) or wh.shape != (hidden, 3 * hidden):
        raise ValueError(f"For '{op}', 'x' must be (num_step, batch_size, input_size), 'weight_input' (input_size, "
                         f"3 * hidden_size) and 'weight_hidden' (hidden_size, 3 * hidden_size), but got {x.shape}, "
                         f"{wi.shape} and {wh.shape}.")
    bi = None if bias_input is None else check_tensor(bias_input, op, "bias_input")
    bh = None if bias_hidden is None else check_tensor(bias_hidden, op, "bias_hidden")
    h = (Tensor._wrap(np.zeros((x.shape[1], hidden), x._data.dtype)) if init_h is None
         else check_tensor(init_h, op, "init_h"))
    wi_r, wi_z, wi_n = F.chunk(wi, 3, 1)
    wh_r, wh_z, wh_n = F.chunk(wh, 3, 1)
    bi_r, bi_z, bi_n = F.chunk(bi, 3, 0) if bi is not None else (0, 0, 0)
    bh_r, bh_z, bh_n = F.chunk(bh, 3, 0) if bh is not None else (0, 0, 0)
    if gate_order == "zrh":
        wi_r, wi_z, wh_r, wh_z, bi_r, bi_z, bh_r, bh_z = wi_z, wi_r, wh_z, wh_r, bi_z, bi_r, bh_z, bh_r
    steps = []
    for t in range(x.shape[0]):
        xt = x[t]
        r = F.sigmoid(F.matmul(xt, wi_r) + bi_r + F.matmul(h, wh_r) + bh_r)
        z = F.sigmoid(F.matmul(xt, wi_z) + bi_z + F.matmul(h, wh_z) + bh_z)
        hn = F.matmul(h, wh_n) + bh_n
        inner = r * hn if reset_after else F.matmul(r * h, wh_n) + bh_n
        n = F.tanh(F.matmul(xt, wi_n) + bi_n + inner)
        h = (1 - z) * n + z * h
        steps.append((h, z, r, n, hn))
    hs, z, r, n, hn = (F.stack([s[k] for s in steps], 0) for k in range(5))
    return hs, hs, z, r, n, hn




def _check_lstm(input_size: Any, hidden_size: Any, num_layers: Any, has_bias: Any, bidirectional: Any,
                dropout: Any, proj_size: Any) -> None:
    op = "LSTM"
    _positive_int(op, "input_size", input_size)
    _positive_int(op, "hidden_size", hidden_size)
    if isinstance(proj_size, bool) or not isinstance(proj_size, int) or not 0 <= proj_size < hidden_size:
        raise ValueError(f"For '{op}', the 'proj_size' must be in range of [0, {hidden_size}), but got {proj_size} "
                         f"with type '{type(proj_size).__name__}'.")
    _positive_int(op, "num_layers", num_layers)
    _bool(op, "has_bias", has_bias)
    _bool(op, "bidirectional", bidirectional)
    if not isinstance(dropout, float):
        raise TypeError(f"For '{op}', the type of 'dropout' should be 'float', but got type "
                        f"'{type(dropout).__name__}'.")
    if not 0 <= dropout <= 1:
        raise ValueError(f"For '{op}', the 'dropout' must be in range of [0, 1], but got {dropout} with type "
                         f"'float'.")


def _run(x: Tensor, h: Tensor, c: Tensor, w_ih: Tensor, w_hh: Tensor, b: Optional[Tensor], w_hr: Optional[Tensor],
         reverse: bool) -> Tuple[Tensor, Tensor, Tensor]:
    steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
    outs: List[Tensor] = [None] * x.shape[0]  # type: ignore[list-item]
    for t in steps:
        h, c = lstm_step(x[t], (h, c), w_ih, w_hh, b, None)
        if w_hr is not None:
            h = F.matmul(h, F.transpose(w_hr, (1, 0)))
        outs[t] = h
    return F.stack(outs, 0), h, c


def lstm(x: Any, h: Any, c: Any, w: Any, input_size: int, hidden_size: int, num_layers: int, has_bias: bool,
         bidirectional: bool, dropout: float, proj_size: int = 0) -> Tuple[Tensor, ...]:
    """``ops.LSTM``'s forward (see the module docstring for the layout of ``w``)."""
    _check_lstm(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size)
    op = "LSTM"
    x, h, c, w = (check_tensor(v, op, n) for v, n in ((x, "input"), (h, "h"), (c, "c"), (w, "w")))
    dirs = 2 if bidirectional else 1
    real = proj_size or hidden_size
    gates = 4 * hidden_size
    ins = [input_size if k == 0 else real * dirs for k in range(num_layers)]
    sizes = ([gates * i for i in ins for _ in range(dirs)] + [gates * real] * (num_layers * dirs)
             + ([proj_size * hidden_size] * (num_layers * dirs) if proj_size else [])
             + ([gates] * (num_layers * dirs) if has_bias else []))
    flat = F.reshape(w, (-1,))
    if flat.shape[0] < sum(sizes):
        raise ValueError(f"For '{op}', the 'w' must hold at least {sum(sizes)} elements for these sizes, but got "
                         f"{flat.shape[0]}.")
    parts, off = [], 0
    for n in sizes:
        parts.append(flat[off:off + n])
        off += n
    k = num_layers * dirs
    w_ih = [F.reshape(p, (gates, -1)) for p in parts[:k]]
    w_hh = [F.reshape(p, (gates, real)) for p in parts[k:2 * k]]
    rest = parts[2 * k:]
    w_hr = [F.reshape(p, (proj_size, hidden_size)) for p in rest[:k]] if proj_size else [None] * k
    bias = rest[k:] if proj_size else rest
    bias = bias if has_bias else [None] * k
    inp, hn, cn = x, [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            i = layer * dirs + d
            out, hi, ci = _run(inp, h[i], c[i], w_ih[i], w_hh[i], bias[i], w_hr[i], d == 1)
            outs.append(out)
            hn.append(hi)
            cn.append(ci)
        inp = outs[0] if dirs == 1 else F.concat(tuple(outs), -1)
    reserve = Tensor._wrap(np.zeros((7168, 1), x._data.dtype))
    state = Tensor._wrap(np.zeros((1, 1), np.float32))
    return inp, F.stack(hn, 0), F.stack(cn, 0), reserve, state


_RNN_ATTRS = ("cell_type='LSTM', direction='UNIDIRECTIONAL', cell_depth=1, use_peephole=False, keep_prob=1.0, "
              "cell_clip=-1.0, num_proj=0, time_major=True, activation='tanh', forget_bias=0.0, is_training=True")
_GRU_ATTRS = ("direction='UNIDIRECTIONAL', cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0, time_major=True, "
              "activation='tanh', gate_order='rzh', reset_after=True, is_training=True")


def _names(attrs: str) -> str:
    return ", ".join(a.split("=")[0].strip() for a in attrs.split(", "))


OPS: List[Op] = [
    Op("_lstm", "x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0",
       fn=lstm, inputs=4,
       prim="LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w) "
            "-> x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size"),
    Op("_basic_lstm_cell", "x, h, c, w, b, keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation='tanh'",
       fn=basic_lstm_cell, inputs=5,
       prim="BasicLSTMCell(keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation='tanh')(x, h, c, w, b) -> "
            "x, h, c, w, b, keep_prob, forget_bias, state_is_tuple, activation"),
    Op("_dynamic_rnn", "x, w, b, seq_length=None, init_h=None, init_c=None, " + _RNN_ATTRS, fn=dynamic_rnn, inputs=6,
       prim=f"DynamicRNN({_RNN_ATTRS})(x, w, b, seq_length=None, init_h=None, init_c=None) -> x, w, b, seq_length, "
            "init_h, init_c, " + _names(_RNN_ATTRS)),
    Op("_dynamic_gru_v2", "x, weight_input, weight_hidden, bias_input=None, bias_hidden=None, seq_length=None, "
       "init_h=None, " + _GRU_ATTRS, fn=dynamic_gru_v2, inputs=7,
       prim=f"DynamicGRUV2({_GRU_ATTRS})(x, weight_input, weight_hidden, bias_input=None, bias_hidden=None, "
            "seq_length=None, init_h=None) -> x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, "
            "init_h, " + _names(_GRU_ATTRS)),
]

EXAMPLES = {
    "LSTM": ("import numpy as np", "x, h = ms.Tensor(np.ones((2, 1, 1), np.float32)), ms.Tensor(np.zeros((1, 1, 1), "
             "np.float32))",
             "out, hn, cn, _, _ = ops.LSTM(1, 1, 1, False, False, 0.0)(x, h, h, ms.Tensor(np.ones((8, 1, 1), "
             "np.float32)))", "out.shape, hn.shape", "(2, 1, 1) (1, 1, 1)"),
    "BasicLSTMCell": ("import numpy as np",
                      "x, h = ms.Tensor(np.zeros((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))",
                      "out = ops.BasicLSTMCell()(x, h, h, ms.Tensor(np.ones((3, 4), np.float32)), "
                      "ms.Tensor(np.zeros(4, np.float32)))", "out[0], out[4]", "[[0.]] [[0.7310586]]"),
    "DynamicRNN": ("import numpy as np", "x = ms.Tensor(np.ones((3, 2, 4), np.float16))",
                   "y, h, c, i, j, f, o, tanhc = ops.DynamicRNN()(x, ms.Tensor(np.zeros((6, 8), np.float16)), "
                   "ms.Tensor(np.zeros(8, np.float16)))", "y.shape, c[0]", "(3, 2, 2) [[0. 0.]\n [0. 0.]]"),
    "DynamicGRUV2": ("import numpy as np", "x = ms.Tensor(np.ones((3, 2, 4), np.float16))",
                     "out = ops.DynamicGRUV2()(x, ms.Tensor(np.zeros((4, 6), np.float16)), ms.Tensor(np.zeros((2, 6), "
                     "np.float16)))", "out[0].shape, out[2][0]", "(3, 2, 2) [[0.5 0.5]\n [0.5 0.5]]"),
}
