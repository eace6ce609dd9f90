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
  on CPU"); their maths is MindSpore's documented one, tested here against a float64 numpy recurrence.

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


OPS: List[Op] = [
    Op("_lstm", "x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0",
       fn=lstm, inputs=4,
       prim="LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w) "
            "-> x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size"),
]

EXAMPLES = {
    "LSTM": ("import numpy as np", "x, h = ms.Tensor(np.ones((2, 1, 1), np.float32)), ms.Tensor(np.zeros((1, 1, 1), "
             "np.float32))",
             "out, hn, cn, _, _ = ops.LSTM(1, 1, 1, False, False, 0.0)(x, h, h, ms.Tensor(np.ones((8, 1, 1), "
             "np.float32)))", "out.shape, hn.shape", "(2, 1, 1) (1, 1, 1)"),
}
