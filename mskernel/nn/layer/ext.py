"""MindSpore's torch-style layers in ``mindspore.nn`` (``nn.Linear``, ``nn.LayerNormExt``, ...), which
``mindspore.mint.nn`` exports under torch's names (``mint.nn.Linear``, ``mint.nn.LayerNorm``, ...).

Each is a Cell whose ``construct`` is one op of the op table, with torch's arguments and defaults and
MindSpore's parameter names (``weight``, ``bias``) and printed text.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> m = nn.Linear(3, 2, weight_init="ones", bias_init="zeros")
    >>> print(m, m(ms.Tensor([[1.0, 2.0, 3.0]])), [p.name for p in m.trainable_params()])
    Linear(input_features=3, output_features=2, has_bias=True) [[6. 6.]] ['weight', 'bias']
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union


from mskernel import dtype as mstype
from mskernel.common.initializer import Normal, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.activation import PReLUExt  # noqa: F401  (an *Ext layer MindSpore defines there)
from mskernel.nn.layer.basic import Dense
from mskernel.ops import functional as F
from mskernel.ops.inplace import inplace_update

__all__ = ["Linear", "LayerNormExt", "DropoutExt", "EmbeddingExt", "LogSoftmaxExt", "MaxPool2dExt",
           "AvgPool2dExt", "AvgPool1dExt", "Upsample"]


class Linear(Dense):
    """``nn.Linear(in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None)``:
    ``x @ weight.T + bias``, :class:`Dense` with torch's argument names.

    Example:
        >>> import mskernel as ms
        >>> print(Linear(2, 1, bias=False, weight_init=ms.Tensor([[1.0, -1.0]]))(ms.Tensor([[3.0, 1.0]])))
        [[2.]]
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, weight_init: Any = None,
                 bias_init: Any = None, dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(in_features, out_features, weight_init, bias_init, bias, None,
                         mstype.float32 if dtype is None else dtype)

    def extend_repr(self) -> str:  # the wheel names has_bias only when there is a bias
        return f"input_features={self.in_channels}, output_features={self.out_channels}" + (
            ", has_bias=True" if self.has_bias else "")


class LayerNormExt(Cell):
    """``nn.LayerNormExt(normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, dtype=None)``
    (``mint.nn.LayerNorm``): normalises the last ``len(normalized_shape)`` dimensions; Parameters ``weight``
    and ``bias``.

    Example:
        >>> import mskernel as ms
        >>> print(LayerNormExt(2)(ms.Tensor([[1.0, 3.0]])))
        [[-0.999995  0.999995]]
    """

    def __init__(self, normalized_shape: Union[int, Sequence[int]], eps: float = 1e-05, elementwise_affine: bool = True,
                 bias: bool = True, dtype: Optional[mstype.Type] = None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        dt = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(initializer("ones", shape, dt), name="weight") if elementwise_affine else None
        self.bias = Parameter(initializer("zeros", shape, dt), name="bias") if elementwise_affine and bias else None

    def construct(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return f"normalized_shape={self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class DropoutExt(Cell):
    """``nn.DropoutExt(p=0.5, inplace=False)`` (``mint.nn.Dropout``): zeroes each element with probability ``p``
    in training (the rest scaled by ``1 / (1 - p)``); the identity otherwise.

    Example:
        >>> import mskernel as ms
        >>> m = DropoutExt(0.3)
        >>> print(m(ms.Tensor([1.0, 2.0])))
        [1. 2.]
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"For 'DropoutExt', the 'p' must be in range [0, 1], but got {p}.")
        self.p, self.inplace = p, inplace

    def construct(self, input: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return input
        out = F.dropout(input, self.p, True)
        return inplace_update(input, out, "dropout") if self.inplace else out


class EmbeddingExt(Cell):
    """``nn.EmbeddingExt(num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
    scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None)`` (``mint.nn.Embedding``):
    rows of the Parameter ``weight``, drawn from N(0, 1) unless ``_weight`` gives it.

    Example:
        >>> import mskernel as ms
        >>> m = EmbeddingExt(3, 2, _weight=ms.Tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
        >>> print(m(ms.Tensor([2, 0])))
        [[4. 5.]
         [0. 1.]]
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False,
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__()
        dt = mstype.float32 if dtype is None else dtype
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'EmbeddingExt', the 'padding_idx' must be in range [{-num_embeddings}, "
                             f"{num_embeddings}), but got {padding_idx}.")
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        self.max_norm, self.norm_type, self.scale_grad_by_freq, self.dtype = max_norm, norm_type, scale_grad_by_freq, dt
        if _weight is None:
            table = initializer(Normal(1.0), (num_embeddings, embedding_dim), dt).init_data()
            if padding_idx is not None:
                arr = table.asnumpy().copy()
                arr[padding_idx] = 0
                table = Tensor(arr)
        else:
            table = _weight
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)

    def construct(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)

    def extend_repr(self) -> str:
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, padding_idx="
                f"{self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, scale_grad_by_freq="
                f"{self.scale_grad_by_freq}, dtype={self.dtype}")


def _softmax_dim(input: Tensor, dim: Optional[int]) -> int:
    return (0 if input.ndim in (0, 1, 3) else 1) if dim is None else dim


class LogSoftmaxExt(Cell):
    """``nn.LogSoftmaxExt(dim=None)`` (``mint.nn.LogSoftmax``); with no ``dim``, 0 for 0-, 1- and 3-D inputs,
    else 1.

    Example:
        >>> import mskernel as ms
        >>> print(LogSoftmaxExt(0)(ms.Tensor([0.0, 0.0])))
        [-0.6931472 -0.6931472]
    """

    def __init__(self, dim: Optional[int] = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, _softmax_dim(input, self.dim))


class MaxPool2dExt(Cell):
    """``nn.MaxPool2dExt(kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
    ceil_mode=False)`` (``mint.nn.MaxPool2d``); the stride defaults to the kernel size.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(MaxPool2dExt(2)(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input: Tensor) -> Any:
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                            self.ceil_mode)


class AvgPool2dExt(Cell):
    """``nn.AvgPool2dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None)`` (``mint.nn.AvgPool2d``); the stride defaults to the kernel size.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AvgPool2dExt(2)(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))))
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Optional[int] = None) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, kernel_size if stride is None else stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, 0 if self.divisor_override is None else self.divisor_override)


class AvgPool1dExt(Cell):
    """``nn.AvgPool1dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)``
    (``mint.nn.AvgPool1d``) on (N, C, L); the stride defaults to the kernel size.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AvgPool1dExt(2)(ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 4))))
        [[[0.5 2.5]]]
    """

    def __init__(self, kernel_size: int, stride: Optional[int] = None, padding: int = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, kernel_size if stride is None else stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def construct(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)


class Upsample(Cell):
    """``nn.Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None)`` (``mint.nn.Upsample``): :func:`mskernel.ops.interpolate` as a layer.

    Example:
        >>> import mskernel as ms
        >>> print(Upsample(scale_factor=2.0)(ms.Tensor([[[[1.0, 2.0]]]])))
        [[[[1. 1. 2. 2.]
           [1. 1. 2. 2.]]]]
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

