"""The THOR layers: ``nn.DenseThor``, ``nn.Conv2dThor``, ``nn.EmbeddingThor``, ``nn.EmbeddingLookupThor``.

Each computes what its plain layer computes and, while ``self.thor`` is True, keeps the Kronecker-factor
statistics the THOR optimizer (:mod:`mskernel.nn.optim.thor`) inverts: ``matrix_a`` from the layer's input in
the forward pass and ``matrix_g`` from the gradient of its output in the backward pass. The statistics are the
MindSpore 2.10 CPU wheel's (measured there): DenseThor's ``matrix_a`` is ``x^T x / in_channels`` (the wheel's
CPU path divides by the Gram matrix's first dimension, not the batch) and ``matrix_g`` is ``dy^T dy / batch``;
EmbeddingThor's ``matrix_a`` counts each id and ``matrix_g`` is ``dy^T dy / number of ids``. Conv2dThor (whose
statistics the CPU wheel cannot compute: no ThorIm2Col kernel) averages the "same"-padded patches over the
batch, ``matrix_a_cov = P P^T / (H_out W_out)``, and likewise the batch-mean output gradient for
``matrix_g_cov``; ``a_normalizer``/``g_normalizer`` hold ``H_out W_out``.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> net = ms.nn.DenseThor(3, 2, weight_init="ones")
    >>> print(net(ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))))
    [[6. 6.]]
    >>> print(net.matrix_a.asnumpy()[0])
    [0.33333334 0.6666667  1.        ]
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.initializer import initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.activation import get_activation
from mskernel.ops import functional as F
from mskernel.ops.hook_ops import InsertGradientOf
from mskernel.ops.operations import Conv2D

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _pos_int(value: Any, arg: str, cls: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{cls}', the type of '{arg}' must be int, but got {type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For '{cls}', the '{arg}' must be int and must > 0, but got '{value}' with type 'int'.")
    return value


def _twice(v: Any) -> tuple:
    return (v, v) if isinstance(v, int) else tuple(v)


def _stat(arr: np.ndarray, dtype: Any = np.float32) -> Tensor:
    return Tensor(np.ascontiguousarray(arr, dtype=dtype))


class DenseThor(Cell):
    """``nn.DenseThor(in_channels, out_channels, weight_init='normal', bias_init='zeros', has_bias=True,
    activation=None)``: ``nn.Dense`` that keeps THOR's ``matrix_a`` (input) and ``matrix_g`` (output gradient).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> x = ms.Tensor(np.array([[1, 2, 3], [3, 4, 5]]), ms.float32)
        >>> print(ms.nn.DenseThor(3, 4, weight_init="ones")(x))
        [[ 6.  6.  6.  6.]
         [12. 12. 12. 12.]]
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, activation: Optional[str] = None) -> None:
        super().__init__()
        cls = "DenseThor"
        self.thor = True
        self.in_channels = _pos_int(in_channels, "in_channels", cls)
        self.out_channels = _pos_int(out_channels, "out_channels", cls)
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{cls}', the type of 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        if isinstance(weight_init, Tensor) and (weight_init.ndim != 2 or tuple(weight_init.shape)
                                                != (out_channels, in_channels)):
            raise ValueError(f"For '{cls}', weight init shape error. The dim of 'weight_init' should be equal to 2, "
                             f"and the first dim must be equal to 'out_channels', and the second dim must be equal "
                             f"to 'in_channels'. But got 'weight_init': {weight_init}, 'out_channels': "
                             f"{out_channels}, 'in_channels': {in_channels}.")
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels]), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise ValueError(f"For '{cls}', bias init shape error. The dim of 'bias_init' should be equal to 1, "
                                 f"and the first dim must be equal to 'out_channels'. But got 'bias_init': "
                                 f"{bias_init}, 'out_channels': {out_channels}.")
            self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None
        self.matrix_a = Parameter(Tensor(np.eye(in_channels, dtype=np.float32)), name="matrix_a",
                                  requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.eye(out_channels, dtype=np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.getG = InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout: Tensor) -> Tensor:
        """Keep ``matrix_g = dout^T dout / batch`` (the gradient of the pre-bias output) and pass it on."""
        d = np.asarray(dout.asnumpy(), np.float32)
        self.matrix_g = _stat(d.T @ d * np.float32(1.0 / d.shape[0]))
        return dout

    def construct(self, x: Tensor) -> Tensor:
        if self.thor:
            xa = np.asarray(x.asnumpy(), np.float32)
            gram = xa.T @ xa
            self.matrix_a = _stat(gram * np.float32(1.0 / gram.shape[0]))
            x = F.matmul(x, self.weight.T)
            x = self.getG(x)
        else:
            x = F.matmul(x, self.weight.T)
        if self.has_bias:
            x = F.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        return x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s


def _same_patches(x: np.ndarray, kernel: tuple, stride: tuple) -> np.ndarray:
    """(C*kh*kw, N, Ho*Wo) patches of x under "same" padding (MindSpore's split: the extra pad at the end)."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw) = kernel, stride
    ho, wo = -(-h // sh), -(-w // sw)
    ph, pw = max((ho - 1) * sh + kh - h, 0), max((wo - 1) * sw + kw - w, 0)
    xp = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    out = np.empty((c, kh, kw, n, ho, wo), x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, i, j] = xp[:, :, i:i + sh * ho:sh, j:j + sw * wo:sw].transpose(1, 0, 2, 3)
    return out.reshape(c * kh * kw, n, ho * wo)


class Conv2dThor(Cell):
    """``nn.Conv2dThor(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
    group=1, has_bias=False, weight_init='normal', bias_init='zeros')``: ``nn.Conv2d`` that keeps THOR's
    ``matrix_a_cov`` (patch covariance) and ``matrix_g_cov`` (output-gradient covariance).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> net = ms.nn.Conv2dThor(2, 3, 2, weight_init="ones")
        >>> print(net(ms.Tensor(np.ones([1, 2, 4, 4]), ms.float32)).shape, net.matrix_a_cov.shape)
        (1, 3, 4, 4) (8, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal", bias_init: Any = "zeros") -> None:
        super().__init__()
        cls = "Conv2dThor"
        self.in_channels = _pos_int(in_channels, "in_channels", cls)
        self.out_channels = _pos_int(out_channels, "out_channels", cls)
        kernel_size, stride, dilation = _twice(kernel_size), _twice(stride), _twice(dilation)
        if isinstance(padding, tuple):
            for pad in padding:
                if isinstance(pad, bool) or not isinstance(pad, int) or pad < 0:
                    raise ValueError(f"For '{cls}', the 'padding item' must be a non-negative int, but got {pad}.")
        elif isinstance(padding, int) and not isinstance(padding, bool):
            if padding < 0:
                raise ValueError(f"For '{cls}', the 'padding' must be a non-negative int, but got {padding}.")
        else:
            raise TypeError(f"For '{cls}', the type of 'padding' must be int/tuple(int), but got "
                            f"{type(padding).__name__}.")
        self.group = _pos_int(group, "group", cls)
        for arg, val in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in val[:2]):
                raise ValueError(f"For '{cls}', all elements in '{arg}' must be int or tuple and equal to or "
                                 f"greater than 1, but got '{arg}': {val}.")
        if in_channels % group != 0:
            raise ValueError(f"For '{cls}', the 'in_channels' must be divisible by 'group', but got "
                             f"'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group != 0:
            raise ValueError(f"For '{cls}', the 'out_channels' must be divisible by 'group', but got "
                             f"'out_channels': {out_channels} and 'group': {group}.")
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding, self.has_bias, self.bias_init = pad_mode, padding, has_bias, bias_init
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels // group, *kernel_size]),
                                name="weight")
        self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias") if has_bias else None
        self.conv2d = Conv2D(out_channel=out_channels, kernel_size=kernel_size, mode=1, pad_mode=pad_mode,
                             pad=padding, stride=stride, dilation=dilation, group=group)
        self.thor = True
        self.hw = kernel_size[0] * kernel_size[1]
        self.matrix_a_dim = in_channels * self.hw
        self.matrix_g_dim = out_channels
        self.a_normalizer = Parameter(Tensor(np.ones([1], np.float32)), name="a_normalizer", requires_grad=False)
        self.g_normalizer = Parameter(Tensor(np.ones([1], np.float32)), name="g_normalizer", requires_grad=False)
        self.matrix_a_cov = Parameter(Tensor(np.zeros([self.matrix_a_dim] * 2, np.float32)), name="matrix_a",
                                      requires_grad=False)
        self.matrix_g_cov = Parameter(Tensor(np.zeros([self.matrix_g_dim] * 2, np.float32)), name="matrix_g",
                                      requires_grad=False)
        self.getG = InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout: Tensor) -> Tensor:
        """Keep ``matrix_g_cov = D D^T / (H_out W_out)`` of the batch-mean output gradient ``D``."""
        d = np.asarray(dout.asnumpy(), np.float32).mean(axis=0)
        d = d.reshape(d.shape[0], -1)
        self.g_normalizer = _stat([d.shape[1]])
        self.matrix_g_cov = _stat(d @ d.T * np.float32(1.0 / d.shape[1]))
        return dout

    def construct(self, x: Tensor) -> Tensor:
        if x.dtype != self.weight.dtype:
            raise TypeError(f"For primitive[Conv2D], the input type must be same.\nname:[w]:Ref[Tensor["
                            f"{self.weight.dtype}]].\nname:[x]:Tensor[{x.dtype}].")
        if self.thor:
            p = _same_patches(np.asarray(x.asnumpy(), np.float32), self.kernel_size, self.stride).mean(axis=1)
            self.a_normalizer = _stat([p.shape[1]])
            self.matrix_a_cov = _stat(p @ p.T * np.float32(1.0 / p.shape[1]))
            out = self.getG(self.conv2d(x, self.weight))
        else:
            out = self.conv2d(x, self.weight)
        if self.has_bias:
            out = F.bias_add(out, self.bias)
        return out

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size="
                f"{self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"bias_init={self.bias_init}")


class EmbeddingThor(Cell):
    """``nn.EmbeddingThor(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
    dtype=mstype.float32, padding_idx=None)``: ``nn.Embedding`` that keeps THOR's ``matrix_a`` (id counts) and
    ``matrix_g`` (output-gradient covariance).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> net = ms.nn.EmbeddingThor(20, 8, True)
        >>> net(ms.Tensor(np.ones([2, 3]), ms.int32)).shape
        (2, 3, 8)
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = mstype.float32,
                 padding_idx: Optional[int] = None) -> None:
        super().__init__()
        cls = "EmbeddingThor"
        for arg, val, typ in (("vocab_size", vocab_size, int), ("embedding_size", embedding_size, int),
                              ("use_one_hot", use_one_hot, bool)):
            if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
                raise TypeError(f"For '{cls}', the type of '{arg}' should be '{typ.__name__}', but got type "
                                f"'{type(val).__name__}'.")
        self.vocab_size, self.embedding_size, self.use_one_hot, self.dtype = (vocab_size, embedding_size,
                                                                              use_one_hot, dtype)
        table = initializer(embedding_table, [vocab_size, embedding_size]).init_data()
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or \
                    not 0 <= padding_idx <= vocab_size:
                raise ValueError(f"For '{cls}', the 'padding_idx' must be in range [0, {vocab_size}], but got "
                                 f"{padding_idx}.")
            arr = table.asnumpy().copy()
            arr[padding_idx] = 0
            table = Tensor(arr)
        self.embedding_table = Parameter(table, name="embedding_table")
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros([vocab_size], np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros([embedding_size, embedding_size], np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.getG = InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout: Tensor) -> Tensor:
        """Keep ``matrix_g = dout^T dout / number of ids`` and pass the gradient on."""
        d = np.asarray(dout.asnumpy(), np.float32)
        self.matrix_g = _stat(d.T @ d * np.float32(1.0 / d.shape[0]))
        return dout

    def construct(self, ids: Tensor) -> Tensor:
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = F.reshape(ids, (-1,))
        if self.use_one_hot:
            one_hot = F.one_hot(flat, self.vocab_size, Tensor(1.0, self.dtype), Tensor(0.0, self.dtype))
            out = F.matmul(one_hot, self.embedding_table)
        elif self.thor:
            idx = np.asarray(flat.asnumpy()).astype(np.int64)
            valid = idx[(idx >= 0) & (idx < self.vocab_size)]
            self.matrix_a = _stat(np.bincount(valid, minlength=self.vocab_size))
            out = self.getG(F.gather(self.embedding_table, flat, 0))
        else:
            out = F.gather(self.embedding_table, flat, 0)
        return F.reshape(out, out_shape)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot="
                f"{self.use_one_hot}, embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx="
                f"{self.padding_idx}")


class EmbeddingLookupThor(Cell):
    """``nn.EmbeddingLookupThor(vocab_size, embedding_size, param_init='normal', target='CPU',
    slice_mode='batch_slice', manual_shapes=None, max_norm=None, sparse=True)``: a float16 embedding lookup;
    with ``target='DEVICE'`` it keeps THOR's ``matrix_a`` (id counts) and ``matrix_g`` (computed in float16).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> net = ms.nn.EmbeddingLookupThor(4, 2, param_init="ones")
        >>> print(net(ms.Tensor(np.array([[1, 0], [3, 2]]), ms.int32)).shape)
        (2, 2, 2)
    """
    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: Optional[float] = None,
                 sparse: bool = True) -> None:
        super().__init__()
        cls = "EmbeddingLookupThor"
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{cls}', the type of 'sparse' should be 'bool', but got "
                            f"'{type(sparse).__name__}'.")
        self.vocab_size = _pos_int(vocab_size, "vocab_size", cls)
        self.target, self.sparse, self.forward_unique = target, sparse, False
        self.dtype = mstype.float16
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{cls}', the 'target' must be one of values in ('CPU', 'DEVICE'), but got "
                             f"{target}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{cls}', embedding_lookup must be sparse when 'target' is CPU, but got "
                             f"'sparse': {sparse}, 'target': {target}.")
        self.embedding_size = _pos_int(embedding_size, "embedding_size", cls)
        # a Tensor keeps its own dtype (measured); a name or an Initializer makes a float16 table
        table = initializer(param_init, [vocab_size, embedding_size]) if isinstance(param_init, Tensor) else \
            initializer(param_init, [vocab_size, embedding_size], mstype.float16)
        self.embedding_table = Parameter(table, name="embedding_table")
        self.max_norm = None
        if max_norm is not None:
            if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) or max_norm <= 0:
                raise ValueError(f"For '{cls}', the 'max_norm' must be a positive float, but got {max_norm}.")
            self.max_norm = float(max_norm)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros([vocab_size], np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros([embedding_size, embedding_size], np.float32)), name="matrix_g",
                                  requires_grad=False)
        self.getG = InsertGradientOf(self.save_gradient)

    def save_gradient(self, dout: Tensor) -> Tensor:
        """Keep ``matrix_g = D^T D / dout.shape[0]`` (float16) of the flattened output gradient ``D``."""
        d = np.asarray(dout.asnumpy())
        flat = d.reshape(-1, self.embedding_size).astype(np.float16)
        self.matrix_g = _stat((flat.T @ flat) * np.float16(1.0 / d.shape[0]), np.float16)
        return dout

    def construct(self, indices: Tensor) -> Tensor:
        if self.target == "CPU":
            idx = np.asarray(indices.asnumpy())
            table = self.embedding_table
            ok = Tensor(((idx >= 0) & (idx < self.vocab_size))[..., None]).astype(table.dtype)
            out = F.gather(table, Tensor(np.clip(idx, 0, self.vocab_size - 1).astype(np.int32)), 0) * ok
        elif self.thor:
            idx = np.asarray(indices.asnumpy()).reshape(-1).astype(np.int64)
            valid = idx[(idx >= 0) & (idx < self.vocab_size)]
            self.matrix_a = _stat(np.bincount(valid, minlength=self.vocab_size), np.float16)
            out = self.getG(F.gather(self.embedding_table, indices, 0))
        else:
            out = F.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            axes = tuple(range(indices.ndim, out.ndim))
            norm = F.sqrt(F.reduce_sum(out * out, axes, True))
            scale = F.minimum(F.ones_like(norm), Tensor(self.max_norm, out.dtype) / F.maximum(norm, F.ones_like(
                norm) * 1e-12))
            out = out * scale
        return out
