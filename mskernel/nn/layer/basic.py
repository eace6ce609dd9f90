"""``nn.Dense``, ``nn.Flatten``, ``nn.Identity``, ``nn.Dropout``: MindSpore's basic layers.

Parameters are named and initialised as MindSpore does (``weight`` ``(out, in)`` with
``HeUniform(sqrt(5))``, ``bias`` with ``Uniform(1 / sqrt(in))`` by default; strings, initializers
and Tensors accepted), and ``print(layer)`` shows MindSpore's text.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> d = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    >>> print(d, d(ms.Tensor([[1.0, 2.0, 3.0]])), [p.name for p in d.trainable_params()])
    Dense(input_channels=3, output_channels=2, has_bias=True) [[6. 6.]] ['weight', 'bias']
"""
from __future__ import annotations

import math
from typing import Any, Optional, Union

from mskernel import dtype as mstype
from mskernel.common.initializer import HeUniform, Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.activation import get_activation
from mskernel.ops import functional as F

__all__ = ["Dense", "Flatten", "Identity", "Dropout", "MatMul"]


class Dense(Cell):
    """``nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True, activation=None,
    dtype=mindspore.float32)``: ``activation(x @ weight.T + bias)``.

    Example:
        >>> import mskernel as ms
        >>> print(Dense(2, 1, weight_init=ms.Tensor([[1.0, -1.0]]), bias_init="ones")(ms.Tensor([[3.0, 1.0]])))
        [[3.]]
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None, bias_init: Any = None,
                 has_bias: bool = True, activation: Union[str, Cell, None] = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        for name, v in (("in_channels", in_channels), ("out_channels", out_channels)):
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise ValueError(f"For 'Dense', the '{name}' must be a positive int, but got {v!r}.")
        self.in_channels, self.out_channels, self.has_bias = in_channels, out_channels, has_bias
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in_channels):
            raise ValueError(f"For 'Dense', weight init shape error. The ndim of 'weight_init' must be equal to 2, "
                             f"and the first dim must be equal to 'out_channels', and the second dim must be equal "
                             f"to 'in_channels'. But got 'weight_init': {weight_init}, 'out_channels': "
                             f"{out_channels}, 'in_channels': {in_channels}.")
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init,
                                            (out_channels, in_channels), dtype), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For 'Dense', bias init shape error. The shape of 'bias_init' must be "
                                 f"({out_channels},), but got {tuple(bias_init.shape)}.")
            default = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(default if bias_init is None else bias_init, (out_channels,), dtype),
                                  name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None

    def construct(self, x: Tensor) -> Tensor:
        shape = x.shape
        if len(shape) != 2:
            x = F.reshape(x, (-1, shape[-1]))
        out = F.matmul(x, F.transpose(self.weight, (1, 0)))
        if self.has_bias:
            out = out + self.bias
        if self.activation_flag:
            out = self.activation(out)
        if len(shape) != 2:
            out = F.reshape(out, tuple(shape[:-1]) + (self.out_channels,))
        return out

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}, has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation!r}"
        return s


class Flatten(Cell):
    """``nn.Flatten(start_dim=1, end_dim=-1)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Flatten()(ms.Tensor(np.zeros((2, 3, 4), np.float32))).shape
        (2, 12)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x: Tensor) -> Tensor:
        return F.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class MatMul(Cell):
    """MindSpore's ``nn.MatMul(transpose_x1=False, transpose_x2=False)``: a matrix product of the two inputs
    (broadcast over leading dimensions), either transposed first.

    Example:
        >>> import mskernel as ms
        >>> print(MatMul(transpose_x2=True)(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0, 4.0]])))
        [[11.]]
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False, dtype: Any = None) -> None:
        super().__init__()
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        if self.transpose_x1:
            x1 = F.swapaxes(x1, -1, -2)
        if self.transpose_x2:
            x2 = F.swapaxes(x2, -1, -2)
        return F.matmul(x1, x2)


class Identity(Cell):
    """``nn.Identity()``: returns its input.

    Example:
        >>> import mskernel as ms
        >>> print(Identity()(ms.Tensor([1.0])))
        [1.]
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def construct(self, x: Any) -> Any:
        return x


class Dropout(Cell):
    """``nn.Dropout(keep_prob=0.5, p=None, dtype=mindspore.float32)``: drops elements while training.

    Example:
        >>> import mskernel as ms
        >>> d = Dropout(p=0.5)
        >>> print(d, d(ms.Tensor([1.0, 2.0])))   # a new Cell is not training
        Dropout(p=0.5) [1. 2.]
    """

    def __init__(self, keep_prob: float = 0.5, p: Optional[float] = None, dtype: Any = mstype.float32) -> None:
        super().__init__()
        keep_prob_given = p is None
        if p is None:
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            p = 1 - keep_prob
        elif not 0 <= p < 1:
            raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
        self.p = p
        self.keep_prob = 1 - p
        self._by_keep_prob = keep_prob_given
    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        return F.dropout(x, self.p, True)

    def extend_repr(self) -> str:
        return f"keep_prob={round(self.keep_prob, 6)}" if self._by_keep_prob else f"p={round(self.p, 6)}"
