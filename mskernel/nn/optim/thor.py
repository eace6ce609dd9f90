"""``nn.thor``: the THOR second-order optimizer (MindSpore's GPU/CPU variant, ``ThorGpu``).

``thor(net, ...)`` converts ``net``'s Dense/Conv2d/Embedding layers into their THOR layers
(:mod:`mskernel.nn.layer.thor_layer`), then returns the optimizer. Each step (``damping`` and ``learning_rate``
are per-step Tensors, read at the step count) preconditions every THOR layer's gradient with the inverses of its
damped Kronecker factors, ``g <- G^-1 g A^-1`` with ``A + sqrt(damping) I`` and
``G / loss_scale^2 * batch_size^2 + sqrt(damping) I`` (each inverted in 128 x 128 diagonal blocks; a Conv2dThor
divides the damping by its normalizer and scales both inverses by ``sqrt(1 / a_normalizer)``); an embedding's
gradient by ``(a / batch_size + sqrt(damping))^-1`` per row and ``G^-1``; a LayerNorm's by
``1 / (g^2 / batch_size + sqrt(damping))``. Then weight decay, optional clipping (norm 1 per gradient) and
momentum. With ``opt.thor = False`` (the steps between two of every ``frequency``, as ``ModelThor`` runs them)
the inverses of the last THOR step are reused. The MindSpore 2.10 CPU wheel builds this optimizer but cannot run
its step (no CholeskyTrsm kernel); the rule here follows its source, tested against a numpy float64 oracle.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(3, 2, weight_init="ones")])
    >>> temp = ms.Tensor(np.full(4, 0.1, np.float32))
    >>> opt = ms.nn.thor(net, temp, temp, 0.9, batch_size=1, frequency=2)
    >>> type(opt).__name__, type(net[0]).__name__
    ('ThorGpu', 'DenseThor')
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.optim.optimizer import Optimizer
from mskernel.autograd.node import no_grad

__all__ = ["thor"]

OTHER, CONV, FC, EMBEDDING, LAYERNORM, BATCHNORM = -1, 1, 2, 3, 4, 5
SPLIT_DIM = 128


def _check_param(momentum: Any, frequency: Any, lr: Any, cls: str) -> None:
    if not isinstance(momentum, float):
        raise TypeError(f"For '{cls}', the type of 'momentum' should be 'float', but got "
                        f"'{type(momentum).__name__}'.")
    if momentum < 0.0:
        raise ValueError(f"For 'thor', the argument 'momentum' must be at least 0.0, but got 'momentum' {momentum}.")
    if isinstance(frequency, bool) or not isinstance(frequency, int):
        raise TypeError(f"For '{cls}', the type of 'frequency' should be 'int', but got "
                        f"'{type(frequency).__name__}'.")
    if frequency < 2:
        raise ValueError(f"For 'thor', the argument 'frequency' must be at least 2, but got 'frequency' "
                         f"{frequency}.")
    if not isinstance(lr, Tensor):
        raise TypeError(f"For '{cls}', the type of 'learning rate' should be 'Tensor', but got "
                        f"'{type(lr).__name__}'.")


def _blocks(dim: int) -> tuple:
    """(number of blocks, block size) of a factor of order ``dim`` in MindSpore's 128-splitting."""
    if dim <= SPLIT_DIM:
        return 1, dim
    return -(-dim // SPLIT_DIM), SPLIT_DIM


def block_inverse(m: np.ndarray) -> np.ndarray:
    """The inverses of the diagonal blocks of the SPD matrix ``m`` as (n_blocks, s, s); a last partial block
    is padded with the identity (float32, as the optimizer keeps them)."""
    dim = m.shape[0]
    nb, s = _blocks(dim)
    padded = np.eye(nb * s, dtype=np.float64)
    padded[:dim, :dim] = m
    out = np.empty((nb, s, s), np.float64)
    for b in range(nb):
        blk = padded[b * s:(b + 1) * s, b * s:(b + 1) * s]
        lower_inv = np.linalg.inv(np.linalg.cholesky(blk))
        out[b] = lower_inv.T @ lower_inv
    return out.astype(np.float32)


def _blockdiag(blocks: np.ndarray, dim: int) -> np.ndarray:
    nb, s, _ = blocks.shape
    full = np.zeros((nb * s, nb * s), np.float32)
    for b in range(nb):
        full[b * s:(b + 1) * s, b * s:(b + 1) * s] = blocks[b]
    return full[:dim, :dim]


def _layer_types(net: Any) -> List[int]:
    from mskernel.nn.layer import basic, conv, conv_nd, embedding, normalization
    from mskernel.nn.layer import thor_layer as tl
    out: List[int] = []

    def walk(cell: Any) -> None:
        for _, sub in cell.name_cells().items():
            if sub is cell:
                continue
            if isinstance(sub, tl.Conv2dThor):
                out.append(CONV)
            elif isinstance(sub, tl.DenseThor):
                out.append(FC)
            elif isinstance(sub, (tl.EmbeddingThor, tl.EmbeddingLookupThor)):
                out.append(EMBEDDING)
            elif isinstance(sub, normalization.LayerNorm):
                out.append(LAYERNORM)
            elif isinstance(sub, normalization.BatchNorm2d):
                if sub.gamma.requires_grad:
                    out.append(BATCHNORM)
            elif isinstance(sub, (conv.Conv2d, basic.Dense)):
                if sub.weight.requires_grad:
                    out.append(OTHER)
            elif isinstance(sub, (embedding.Embedding, conv.Conv2dTranspose, conv.Conv1d, conv_nd.Conv1dTranspose,
                                  normalization.BatchNorm1d, normalization.GroupNorm)):
                out.append(OTHER)
            else:
                walk(sub)
    walk(net)
    return out


def _advance(layer_type: int, counter: int, params: List[Parameter], idx: int) -> int:
    """MindSpore's rule for when a parameter closes its layer (``get_layer_counter``)."""
    name = params[idx].name.lower()
    nxt_has_bias = idx < len(params) - 1 and "bias" in params[idx + 1].name.lower()
    if layer_type in (CONV, FC):
        return counter + 1 if "bias" in name or (idx < len(params) - 1 and not nxt_has_bias) else counter
    if layer_type in (LAYERNORM, BATCHNORM):
        return counter + 1 if "beta" in name else counter
    if "bias" in name:
        return counter + 1
    if "weight" in name:
        return counter + 1 if idx < len(params) - 1 and not nxt_has_bias else counter
    return counter + 1


class ThorGpu(Optimizer):
    """The THOR optimizer as MindSpore builds it off Ascend (see the module docstring); make it with
    :func:`mskernel.nn.thor`.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 1, weight_init="ones", has_bias=False)])
        >>> opt = thor(net, ms.Tensor([0.1, 0.1]), ms.Tensor([0.5, 0.5]), 0.0, batch_size=1, frequency=2)
        >>> x = ms.Tensor([[1.0, 0.0]])
        >>> grads = ms.grad(lambda x: net(x).sum(), None, opt.parameters)(x)
        >>> _ = opt(grads)
        >>> print(net[0].weight.asnumpy().round(4))
        [[0.9515 1.    ]]
    """

    def __init__(self, net: Any, learning_rate: Any, damping: Any, momentum: float, weight_decay: float = 0.0,
                 loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
                 decay_filter: Callable = lambda x: x.name not in [], split_indices: Any = None,
                 enable_clip_grad: bool = False, frequency: int = 100) -> None:
        params = [p for p in net.get_parameters() if p.requires_grad]
        super().__init__(learning_rate, params, 0.0, loss_scale)
        _check_param(momentum, frequency, learning_rate, "ThorGpu")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"The type of 'use_nesterov' should be 'bool', but got '{type(use_nesterov).__name__}'.")
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum")
        self.use_nesterov = use_nesterov
        self.moments = self._state("moments")
        self.net = net
        allp = list(net.get_parameters())
        self.matrix_a_cov = ParameterTuple([p for p in allp if "matrix_a" in p.name])
        self.matrix_g_cov = ParameterTuple([p for p in allp if "matrix_g" in p.name])
        self.a_normalizer = ParameterTuple([p for p in allp if "a_normalizer" in p.name])
        self.g_normalizer = ParameterTuple([p for p in allp if "g_normalizer" in p.name])
        self.batch_size = float(batch_size)
        self.loss_scale_value = float(loss_scale)
        self.damping = damping
        self.cov_step = Parameter(Tensor(np.zeros([1], np.int32)), name="cov_step", requires_grad=False)
        self.thor = True
        self.thor_weight_decay = weight_decay
        self.decay_flags = tuple(bool(decay_filter(p)) for p in self._parameters)
        self.enable_clip_grad = enable_clip_grad
        self.frequency = frequency
        self.split_indices = split_indices
        self._map_layers(net)

    def get_frequency(self) -> int:
        """The number of steps between two THOR (inverse-refreshing) steps."""
        return self.frequency

    def _map_layers(self, net: Any) -> None:
        types = _layer_types(net)
        params = list(self._parameters)
        counter = thor_count = conv_count = 0
        self.fim_idx, self.conv_idx, self.type_idx = [], [], []
        inv_a, inv_g = [], []
        for idx, w in enumerate(params):
            layer_type = types[counter] if counter < len(types) else OTHER
            is_weight = "bias" not in w.name.lower()
            if layer_type in (CONV, FC, EMBEDDING) and is_weight:
                shape = tuple(w.shape)
                if layer_type == EMBEDDING:
                    a0, g0 = np.zeros([shape[0]], np.float32), np.zeros([shape[1]] * 2, np.float32)
                else:
                    a_dim = int(np.prod(shape[1:]))
                    (nw, sa), (nh, sg) = _blocks(a_dim), _blocks(shape[0])
                    a0, g0 = np.zeros((nh, nw, sa, sa), np.float32), np.zeros((nh, sg, sg), np.float32)
                inv_a.append(Parameter(Tensor(a0), name=f"matrix_a_inv_{thor_count}", requires_grad=False))
                inv_g.append(Parameter(Tensor(g0), name=f"matrix_g_inv_{thor_count}", requires_grad=False))
                self.fim_idx.append(thor_count)
                thor_count += 1
                self.type_idx.append(layer_type)
                self.conv_idx.append(conv_count if layer_type == CONV else -1)
                conv_count += layer_type == CONV
            else:
                self.fim_idx.append(-1)
                self.conv_idx.append(-1)
                self.type_idx.append(LAYERNORM if layer_type == LAYERNORM else OTHER)
            if "output_bias" not in w.name.lower():
                counter = _advance(layer_type, counter, params, idx)
        self.matrix_a = ParameterTuple(inv_a)
        self.matrix_g = ParameterTuple(inv_g)

    def _inverses(self, i: int, damping: float) -> tuple:
        """Refresh and store the damped inverse factors of parameter ``i``'s layer."""
        t, c, kind = self.fim_idx[i], self.conv_idx[i], self.type_idx[i]
        a = np.asarray(self.matrix_a_cov[t].asnumpy(), np.float32)
        g = np.asarray(self.matrix_g_cov[t].asnumpy(), np.float32)
        damp_a = damp_g = np.float32(damping)
        fmap = np.float32(1.0)
        if kind == CONV:
            an = np.float32(self.a_normalizer[c].asnumpy()[0])
            gn = np.float32(self.g_normalizer[c].asnumpy()[0])
            damp_a, damp_g = damp_a * (np.float32(1) / an), damp_g * (np.float32(1) / gn)
            fmap = np.sqrt(np.float32(1) / an)
        damp_a, damp_g = np.sqrt(damp_a), np.sqrt(damp_g)
        g = g * np.float32(1 / (self.loss_scale_value ** 2)) * np.float32(self.batch_size ** 2)
        g = g + damp_g * np.eye(g.shape[0], dtype=np.float32)
        if kind == EMBEDDING:
            a_inv = (np.float32(1) / (a * np.float32(1 / self.batch_size) + damp_a)) * fmap
            g_inv = _blockdiag(block_inverse(g), g.shape[0]) * fmap
            self.matrix_a[t].set_data(Tensor(a_inv))
            self.matrix_g[t].set_data(Tensor(g_inv))
            return a_inv, g_inv
        a_blocks = block_inverse(a + damp_a * np.eye(a.shape[0], dtype=np.float32)) * fmap
        g_blocks = block_inverse(g) * fmap
        self.matrix_a[t].set_data(Tensor(np.broadcast_to(a_blocks, self.matrix_a[t].shape).copy()))
        self.matrix_g[t].set_data(Tensor(g_blocks))
        return _blockdiag(a_blocks, a.shape[0]), _blockdiag(g_blocks, g.shape[0])

    def _stored(self, i: int) -> tuple:
        t = self.fim_idx[i]
        a_inv, g_inv = self.matrix_a[t].asnumpy(), self.matrix_g[t].asnumpy()
        if self.type_idx[i] == EMBEDDING:
            return a_inv, g_inv
        a_dim = int(np.prod(self._parameters[i].shape[1:]))
        return _blockdiag(a_inv[0], a_dim), _blockdiag(g_inv, self._parameters[i].shape[0])

    def construct(self, gradients: Any) -> Any:
        grads = tuple(gradients)
        if len(grads) != len(self._parameters):
            raise ValueError(f"For 'ThorGpu', the number of gradients ({len(grads)}) must equal the number of "
                             f"parameters ({len(self._parameters)}).")
        step = int(self.global_step._data[0])
        cov = int(self.cov_step._data[0])
        damp = np.asarray(self.damping.asnumpy() if isinstance(self.damping, Tensor) else self.damping,
                          np.float32).reshape(-1)
        damping = np.float32(damp[min(cov, damp.size - 1)])
        with no_grad():
            for i, (p, g) in enumerate(zip(self._parameters, grads)):
                g = np.asarray(g.asnumpy() if isinstance(g, Tensor) else g, np.float32)
                if self.loss_scale_value != 1.0:
                    g = g * np.float32(1.0 / self.loss_scale_value)
                kind = self.type_idx[i]
                if kind in (CONV, FC, EMBEDDING):
                    a_inv, g_inv = self._inverses(i, damping) if self.thor else self._stored(i)
                    if kind == EMBEDDING:
                        g = (a_inv[:, None] * g) @ g_inv
                    else:
                        g = (g_inv @ g.reshape(g.shape[0], -1) @ a_inv).reshape(g.shape)
                elif kind == LAYERNORM:
                    g = g / (g * g * np.float32(1 / self.batch_size) + np.sqrt(damping))
                if self.thor_weight_decay > 0 and self.decay_flags[i]:
                    g = p._data * np.float32(self.thor_weight_decay) + g
                if self.enable_clip_grad:
                    norm = np.sqrt(np.sum(np.square(g, dtype=np.float32)))
                    g = g * np.float32(1.0 / max(norm, 1.0))
                lr = np.float32(self._rate(i, step))
                acc = self.moments[i]._data
                mom = np.float32(self.momentum._data)
                acc[...] = acc * mom + g
                upd = g + acc * mom if self.use_nesterov else acc
                p._data[...] = p._data - lr * upd
                p._version += 1
            self.cov_step._data[0] = cov + 1
            self.global_step._data[0] = step + 1
        return True


def thor(net: Any, learning_rate: Any, damping: Any, momentum: float, weight_decay: float = 0.0,
         loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
         decay_filter: Callable = lambda x: x.name not in [], split_indices: Optional[list] = None,
         enable_clip_grad: bool = False, frequency: int = 100) -> ThorGpu:
    """Convert ``net`` to THOR layers (``ConvertNetUtils().convert_to_thor_net``) and return its THOR optimizer
    (``ThorGpu``, as MindSpore returns off Ascend).

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 2)])
        >>> opt = thor(net, ms.Tensor([0.1]), ms.Tensor([0.1]), 0.9)
        >>> opt.get_frequency()
        100
    """
    from mskernel.nn.layer.thor_convert import ConvertNetUtils
    ConvertNetUtils().convert_to_thor_net(net)
    return ThorGpu(net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov,
                   decay_filter, split_indices=split_indices, enable_clip_grad=enable_clip_grad, frequency=frequency)
