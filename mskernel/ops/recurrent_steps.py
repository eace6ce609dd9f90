"""One step of each recurrence, written with ops (so the engine differentiates it to any order): the plain RNN
(tanh, relu), the GRU and the LSTM, as MindSpore stacks their gates (``r, z, n``; ``i, f, g, o``). The recurrent
layers of ``nn`` and the recurrent primitives of ``ops`` (``ops.LSTM``, ``ops.DynamicRNN``...) share them.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops.recurrent_steps import rnn_tanh_step
    >>> w = ms.Tensor([[1.0]])
    >>> print(rnn_tanh_step(ms.Tensor([[0.5]]), ms.Tensor([[0.5]]), w, w, None, None))
    [[0.7615942]]
"""
from __future__ import annotations

from typing import Optional, Tuple

from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F

__all__ = ["rnn_tanh_step", "rnn_relu_step", "gru_step", "lstm_step"]


def _affine(x: Tensor, w: Tensor, b: Optional[Tensor]) -> Tensor:
    out = F.matmul(x, F.transpose(w, (1, 0)))
    return out if b is None else out + b


# one step of each recurrence: (input, state, weight_ih, weight_hh, bias_ih, bias_hh) -> new state
def rnn_tanh_step(x: Tensor, h: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor],
                  b_hh: Optional[Tensor]) -> Tensor:
    """``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Tensor([[1.0]])
        >>> print(rnn_tanh_step(ms.Tensor([[0.5]]), ms.Tensor([[0.5]]), w, w, None, None))
        [[0.7615942]]
    """
    return F.tanh(_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh))


def rnn_relu_step(x: Tensor, h: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor],
                  b_hh: Optional[Tensor]) -> Tensor:
    """``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Tensor([[1.0]])
        >>> print(rnn_relu_step(ms.Tensor([[-2.0]]), ms.Tensor([[0.5]]), w, w, None, None))
        [[0.]]
    """
    return F.relu(_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh))


def gru_step(x: Tensor, h: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor],
             b_hh: Optional[Tensor]) -> Tensor:
    """Gates ``r, z`` and candidate ``n = tanh(x_n + r * h_n)``; the new state is ``(1 - z) * n + z * h``.

    Example:
        >>> import mskernel as ms
        >>> zeros = ms.Tensor([[0.0], [0.0], [0.0]])
        >>> print(gru_step(ms.Tensor([[1.0]]), ms.Tensor([[2.0]]), zeros, zeros, None, None))  # z = 0.5, n = 0
        [[1.]]
    """
    gi = F.chunk(_affine(x, w_ih, b_ih), 3, -1)
    gh = F.chunk(_affine(h, w_hh, b_hh), 3, -1)
    r = F.sigmoid(gi[0] + gh[0])
    z = F.sigmoid(gi[1] + gh[1])
    n = F.tanh(gi[2] + r * gh[2])
    return (1 - z) * n + z * h


def lstm_step(x: Tensor, state: Tuple[Tensor, Tensor], w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor],
              b_hh: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    """Gates ``i, f, o`` and cell input ``g``: ``c' = f * c + i * g``, ``h' = o * tanh(c')``.

    Example:
        >>> import mskernel as ms
        >>> zeros = ms.Tensor([[0.0]] * 4)
        >>> h, c = lstm_step(ms.Tensor([[1.0]]), (ms.Tensor([[0.0]]), ms.Tensor([[2.0]])), zeros, zeros, None, None)
        >>> print(h, c)   # f = 0.5 keeps half of c; g = 0 adds nothing
        [[0.3807971]] [[1.]]
    """
    h, c = state
    i, f, g, o = F.chunk(_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh), 4, -1)
    c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    return F.sigmoid(o) * F.tanh(c), c
