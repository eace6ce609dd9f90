"""Recurrent layers: ``nn.RNN``, ``nn.GRU``, ``nn.LSTM`` and their cells ``nn.RNNCell``, ``nn.GRUCell``,
``nn.LSTMCell``, as MindSpore 2.10 has them.

Each kind of recurrence is one step function written with ops (so the engine differentiates it, to any order)
and one row of ``KINDS``: how many gate blocks its weights hold, its step, and the name of the inner cell
MindSpore's CPU layer prints. A layer runs the step over time for each layer and direction:

* parameters are named and ordered as MindSpore's: every ``weight_ih_l{k}[_reverse]``, then every
  ``weight_hh_...``, then the ``bias_ih_...`` and ``bias_hh_...``; gates are stacked as ``i, f, g, o``
  (LSTM) and ``r, z, n`` (GRU); every parameter starts uniform in ``±1/sqrt(hidden_size)``;
* ``x`` is ``(seq, batch, input)`` (``batch_first``: ``(batch, seq, input)``); the initial state ``hx``,
  ``(num_layers * num_directions, batch, hidden)`` (a pair of them for LSTM), defaults to zeros;
* ``seq_length`` (one length per batch element) stops each element's recurrence at its length: its outputs
  after that are zeros, its final state is the one at its last step, and the reverse direction starts from its
  last step, as MindSpore masks it;
* between layers, ``dropout`` applies while training.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    >>> out, (h, c) = lstm(ms.Tensor(np.ones((5, 2, 3), np.float32)))
    >>> out.shape, h.shape, c.shape
    ((5, 2, 8), (4, 2, 4), (4, 2, 4))
"""
from __future__ import annotations

import math
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.initializer import Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.basic import Dropout
from mskernel.ops import functional as F
from mskernel.ops.recurrent_steps import gru_step, lstm_step, rnn_relu_step, rnn_tanh_step

__all__ = ["RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell"]

State = Union[Tensor, Tuple[Tensor, Tensor]]


# the step functions live with the ops (mskernel.ops.recurrent_steps), which the recurrent primitives share


class Kind(NamedTuple):
    """A recurrence: its gate blocks per weight, its step, and the name of the inner cell MindSpore prints."""

    gates: int
    step: Callable[..., Any]
    inner: str


#: mode -> Kind, one line each
KINDS = {
    "RNN_TANH": Kind(1, rnn_tanh_step, "_DynamicRNNTanh"),
    "RNN_RELU": Kind(1, rnn_relu_step, "_DynamicRNNRelu"),
    "GRU": Kind(3, gru_step, "_DynamicGRUCPUGPU"),
    "LSTM": Kind(4, lstm_step, "_DynamicLSTMCPUGPU"),
}
NONLINEARITIES = ("tanh", "relu")


def _check_size(cls: str, name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{cls}', the '{name}' must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")


def _uniform(shape: Tuple[int, ...], hidden_size: int, dtype: Any, name: str) -> Parameter:
    return Parameter(initializer(Uniform(1 / math.sqrt(hidden_size)), shape, dtype), name=name)


def _select(mask: Optional[Tensor], new: State, old: State) -> State:
    """``new`` where ``mask`` (``(batch, 1)`` 0/1) is 1, else ``old``; no mask: ``new``."""
    if mask is None:
        return new
    if isinstance(new, tuple):
        return tuple(_select(mask, n, o) for n, o in zip(new, old))  # type: ignore[return-value]
    return new * mask + old * (1 - mask)


class _Recurrence(Cell):
    """The inner cell of a layer: runs one kind's step over time, in one direction."""

    def __init__(self, kind: Kind) -> None:
        super().__init__()
        self.kind = kind

    def construct(self, steps: Sequence[Tensor], state: State, weights: Sequence[Optional[Tensor]],
                  masks: Optional[Sequence[Tensor]], reverse: bool) -> Tuple[List[Tensor], State]:
        outs: List[Any] = [None] * len(steps)
        for t in (reversed(range(len(steps))) if reverse else range(len(steps))):
            new = self.kind.step(steps[t], state, *weights)
            mask = None if masks is None else masks[t]
            state = _select(mask, new, state)
            h = new[0] if isinstance(new, tuple) else new
            outs[t] = h if mask is None else h * mask
        return outs, state


def _inner_class(name: str) -> type:
    return type(name, (_Recurrence,), {"__doc__": f"MindSpore's inner recurrent cell {name} (printed by its layer).",
                                       "__module__": __name__})


_INNER = {mode: _inner_class(kind.inner) for mode, kind in KINDS.items()}


class _RNNBase(Cell):
    """What ``RNN``, ``GRU`` and ``LSTM`` share: parameters, checks, and the run over layers and directions."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        cls = type(self).__name__
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            _check_size(cls, name, value)
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
            raise ValueError(f"For '{cls}', the 'dropout' must be a number in range [0, 1) representing the "
                             f"probability of an element being zeroed, but got {dropout}.")
        self.mode, self.kind = mode, KINDS[mode]
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first, self.dropout = has_bias, batch_first, float(dropout)
        self.bidirectional = bidirectional
        self.num_directions = 2 if bidirectional else 1
        rows = self.kind.gates * hidden_size
        suffixes = [(layer, f"_l{layer}" + ("_reverse" if d else "")) for layer in range(num_layers)
                    for d in range(self.num_directions)]
        self._suffixes = [s for _, s in suffixes]
        shapes = {"weight_ih": lambda layer: (rows, input_size if layer == 0 else hidden_size * self.num_directions),
                  "weight_hh": lambda layer: (rows, hidden_size)}
        if has_bias:
            shapes.update({"bias_ih": lambda layer: (rows,), "bias_hh": lambda layer: (rows,)})
        for kind, shape in shapes.items():  # MindSpore's order: every weight_ih, every weight_hh, then the biases
            for layer, suffix in suffixes:
                setattr(self, kind + suffix, _uniform(shape(layer), hidden_size, dtype, kind + suffix))
        self.rnn = _INNER[mode](self.kind)
        self.dropout_op = Dropout(p=self.dropout)

    def _weights(self, suffix: str) -> List[Optional[Tensor]]:
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        return [getattr(self, n + suffix, None) if self.has_bias or n.startswith("weight") else None for n in names]

    def _check_input(self, x: Tensor) -> None:
        if len(x.shape) != 3:
            if self.mode == "LSTM":
                raise ValueError(f"For primitive[LSTM], the x_shape.size() must be equal to 3, but got {len(x.shape)}.")
            raise ValueError("MatMul inputs should have the same dimension size and equal to 2.")

    def construct(self, x: Tensor, hx: Optional[State] = None, seq_length: Optional[Tensor] = None) -> Any:
        self._check_input(x)
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        steps_n, batch = x.shape[0], x.shape[1]
        lstm = self.mode == "LSTM"
        if hx is None:
            zeros = F.zeros((self.num_layers * self.num_directions, batch, self.hidden_size), x.dtype)
            hx = (zeros, zeros) if lstm else zeros
        masks = None
        if seq_length is not None:
            lengths = np.asarray(seq_length.asnumpy() if isinstance(seq_length, Tensor) else seq_length)
            valid = (np.arange(steps_n)[:, None] < lengths.reshape(1, -1)).astype(mstype.dtype_to_nptype(x.dtype))
            masks = [Tensor(valid[t][:, None]) for t in range(steps_n)]
        steps = list(F.unbind(x, 0))
        finals: List[State] = []
        for layer in range(self.num_layers):
            outs_by_direction = []
            for d in range(self.num_directions):
                index = layer * self.num_directions + d
                state = (hx[0][index], hx[1][index]) if lstm else hx[index]
                outs, state = self.rnn(steps, state, self._weights(self._suffixes[index]), masks, reverse=d == 1)
                outs_by_direction.append(outs)
                finals.append(state)
            steps = [outs[0] if len(outs) == 1 else F.concat(outs, -1) for outs in zip(*outs_by_direction)]
            if layer + 1 < self.num_layers:
                steps = [self.dropout_op(s) for s in steps]
        output = F.stack(steps, 0)
        if self.batch_first:
            output = F.transpose(output, (1, 0, 2))
        if lstm:
            return output, (F.stack([s[0] for s in finals], 0), F.stack([s[1] for s in finals], 0))
        return output, F.stack(finals, 0)


class RNN(_RNNBase):
    """``nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=mindspore.float32)``: an Elman network, ``h' = act(x W_ih^T + b_ih +
    h W_hh^T + b_hh)``. ``net(x, hx=None, seq_length=None)`` returns ``(output, h_n)``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> out, h = RNN(3, 4, nonlinearity="relu")(ms.Tensor(np.ones((5, 2, 3), np.float32)))
        >>> out.shape, h.shape
        ((5, 2, 4), (1, 2, 4))
    """

    #: MindSpore's positional order (RNN takes ``*args, **kwargs``; ``nonlinearity`` is fourth)
    ARGS = ("input_size", "hidden_size", "num_layers", "nonlinearity", "has_bias", "batch_first", "dropout",
            "bidirectional", "dtype")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.ARGS):
            raise TypeError(f"For 'RNN', it takes at most {len(self.ARGS)} arguments, but got {len(args)}.")
        given = dict(zip(self.ARGS, args), **kwargs)
        nonlinearity = given.pop("nonlinearity", "tanh")
        if nonlinearity not in NONLINEARITIES:
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in {list(NONLINEARITIES)}, but got "
                             f"{nonlinearity}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", **given)
        self.nonlinearity = nonlinearity


class GRU(_RNNBase):
    """``nn.GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mindspore.float32)``: gated recurrent units (gates ``r, z, n``).
    ``net(x, hx=None, seq_length=None)`` returns ``(output, h_n)``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> out, h = GRU(3, 4, bidirectional=True)(ms.Tensor(np.ones((5, 2, 3), np.float32)))
        >>> out.shape, h.shape
        ((5, 2, 8), (2, 2, 4))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """``nn.LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, dtype=mindspore.float32)``: long short-term memory (gates ``i, f, g, o``).
    ``net(x, hx=None, seq_length=None)``, ``hx = (h_0, c_0)``, returns ``(output, (h_n, c_n))``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> out, (h, c) = LSTM(3, 4, batch_first=True)(ms.Tensor(np.ones((2, 5, 3), np.float32)))
        >>> out.shape, h.shape
        ((2, 5, 4), (1, 2, 4))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class _CellBase(Cell):
    """One step of a recurrence as a layer of its own: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, has_bias: bool, dtype: Any) -> None:
        super().__init__()
        cls = type(self).__name__
        _check_size(cls, "input_size", input_size)
        _check_size(cls, "hidden_size", hidden_size)
        self.kind = KINDS[mode]
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        rows = self.kind.gates * hidden_size
        self.weight_ih = _uniform((rows, input_size), hidden_size, dtype, "weight_ih")
        self.weight_hh = _uniform((rows, hidden_size), hidden_size, dtype, "weight_hh")
        if has_bias:
            self.bias_ih = _uniform((rows,), hidden_size, dtype, "bias_ih")
            self.bias_hh = _uniform((rows,), hidden_size, dtype, "bias_hh")
        else:
            self.bias_ih = self.bias_hh = None

    def construct(self, x: Tensor, hx: State) -> State:
        return self.kind.step(x, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class RNNCell(_CellBase):
    """``nn.RNNCell(input_size, hidden_size, has_bias=True, nonlinearity='tanh', dtype=mindspore.float32)``:
    ``cell(x, hx)`` is one step of :class:`RNN`.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> RNNCell(3, 4)(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.zeros((2, 4), np.float32))).shape
        (2, 4)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, nonlinearity: str = "tanh",
                 dtype: Any = mstype.float32) -> None:
        if nonlinearity not in NONLINEARITIES:
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be str and must be in "
                             f"'{list(NONLINEARITIES)}', but got {nonlinearity!r}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, has_bias,
                         dtype)
        self.nonlinearity = nonlinearity


class GRUCell(_CellBase):
    """``nn.GRUCell(input_size, hidden_size, has_bias=True, dtype=mindspore.float32)``: ``cell(x, hx)`` is one
    step of :class:`GRU`.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> GRUCell(3, 4)(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.zeros((2, 4), np.float32))).shape
        (2, 4)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__("GRU", input_size, hidden_size, has_bias, dtype)


class LSTMCell(_CellBase):
    """``nn.LSTMCell(input_size, hidden_size, has_bias=True, dtype=mindspore.float32)``: ``cell(x, (h, c))`` is
    one step of :class:`LSTM` and returns ``(h', c')``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> zeros = ms.Tensor(np.zeros((2, 4), np.float32))
        >>> [t.shape for t in LSTMCell(3, 4)(ms.Tensor(np.ones((2, 3), np.float32)), (zeros, zeros))]
        [(2, 4), (2, 4)]
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__("LSTM", input_size, hidden_size, has_bias, dtype)
