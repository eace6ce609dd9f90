"""``DimReduce``: a quasi-Newton step in a PCA subspace of the weights plus momentum outside it.

With ``P`` (``n_components x n``, the rows of ``pca_mat_local`` split by parameter) and the gradient ``g``
(divided by the loss scale): ``gk = P g``; BFGS keeps ``bk`` (``n_components x n_components``, from
the previous ``gk`` and step ``sk``); ``dk = -bk gk`` and its image ``dn = P.T dk``. A line search tries
``rho ** m`` for ``m = 0, 1``: the weights moved by ``rho ** m * dn`` (through ``optimizer``, usually
``SGD(learning_rate=1)``) must give a loss below ``loss + sigma * rho ** m * gk.T dk``; the first that does is
kept (``sk = rho ** m dk``), else the step is 0 and ``bk`` is left as it was. The weights are restored after
each try; then the residual momentum ``mom = gamma * mom + g_raw - P.T gk`` makes the update
``optimizer(alpha * mom - rho * dn)`` and ``weight_clone`` takes the new weights.

One process has rank 0 of 1: with ``rank_size`` > 1 it builds (as in the CPU wheel) but a step, which would
broadcast each rank's share of the subspace, raises RuntimeError (the CPU wheel's process dies there).

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.WithLossCell(nn.Dense(2, 1, "ones", "zeros"), nn.MSELoss())
    >>> w = ms.ParameterTuple(net.trainable_params())
    >>> dr = DimReduce(net, nn.SGD(w, 1.0), w, np.eye(2, 3, dtype=np.float32), 2, 0.55, 0.9, 0.001, 0.4, 0, 1)
    >>> x, y = ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))
    >>> loss, grads = ms.value_and_grad(net, None, w)(x, y)
    >>> _ = dr(loss, grads, ms.Tensor(1.0), w, w.clone("clone"), x, y)
    >>> print(w[0].asnumpy(), w[1].asnumpy(), dr.gk_last.asnumpy().ravel())
    [[1. 1.]] [-0.004] [0. 0.]
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["DimReduce"]

_F32 = np.float32


class DimReduce(Cell):
    """Dimension-reduced quasi-Newton training step (see the module docstring).

    Args: ``network`` (the loss cell), ``optimizer``, ``weight`` (its parameters), ``pca_mat_local``
    (numpy, ``k x n``: this rank's rows, ``n`` the total size of ``weight``), ``n_components``, ``rho``,
    ``gamma``, ``alpha``, ``sigma``, ``rank``, ``rank_size``.

    Inputs: ``loss``, ``old_grad``, ``loss_scale``, ``weight``, ``weight_clone``, ``*inputs``. Output: ``loss``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> w = ms.ParameterTuple([ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="w")])
        >>> dr = DimReduce(nn.Cell(), nn.SGD(w, 1.0), w, np.ones((2, 3), np.float32), 2, 0.55, 0.9, 0.001, 0.4, 0, 1)
        >>> print(dr.bk.asnumpy())
        [[1. 0.]
         [0. 1.]]
    """

    def __init__(self, network: Cell, optimizer: Cell, weight: Sequence[Parameter], pca_mat_local: np.ndarray,
                 n_components: int, rho: float, gamma: float, alpha: float, sigma: float, rank: int,
                 rank_size: int) -> None:
        super().__init__()
        self.network = network
        self.optimizer = optimizer
        self.rank = rank
        self.rank_size = rank_size
        self.gamma = gamma
        self.alpha = alpha
        self.sigma = sigma
        self.float_type = mstype.float32
        self.max_search_time = 2
        self.rho_list = [_F32(np.power(rho, i)) for i in range(self.max_search_time)] + [_F32(0)]
        self._set_local_pca_mat(pca_mat_local, n_components, weight)
        self._set_init_parameter(weight)

    def _set_local_pca_mat(self, pca_mat_local: np.ndarray, n_components: int, weight: Sequence[Parameter]) -> None:
        self.n_components = n_components
        local_dim = n_components // self.rank_size
        self.start_index = self.rank * local_dim
        self.end_index = (self.rank + 1) * local_dim
        mat = np.asarray(pca_mat_local)
        self.pca_list_local = []
        start = 0
        for param in weight:
            size = int(np.prod(param.shape))
            self.pca_list_local.append(mat[:, start:start + size].astype(_F32))
            start += size
        self.pad_num = self.rank_size * local_dim - n_components

    def _set_init_parameter(self, weight: Sequence[Parameter]) -> None:
        n = self.n_components

        def state(value: np.ndarray, name: str) -> Parameter:
            return Parameter(Tensor(value.astype(_F32)), name=name)

        self.gk_last = state(np.zeros([n, 1]), "gk_last")
        self.gk_last_init = Parameter(Tensor(False), name="gk_last_init")
        self.bk = state(np.eye(n), "bk")
        self.sk = state(np.zeros([n, 1]), "sk")
        self.grad_res_momentum = ParameterTuple(weight).clone(prefix="grad_res_momentum", init="zeros")
        self.gk_last_back = state(np.zeros([n, 1]), "gk_last_back")
        self.bk_back = state(np.eye(n), "bk_back")
        # the buffers of the broadcast sums (used with several ranks; kept, as MindSpore keeps them, with one)
        self.grad_proj_init = ParameterTuple(weight).clone(prefix="grad_proj_init", init="zeros")
        self.dn_init = ParameterTuple(weight).clone(prefix="dn_init", init="zeros")

    def construct(self, loss: Tensor, old_grad: Sequence[Tensor], loss_scale: Any, weight: Sequence[Parameter],
                  weight_clone: Sequence[Parameter], *inputs: Any) -> Tensor:
        if self.rank_size > 1:  # each rank's share of the subspace would be broadcast to the others
            raise RuntimeError(f"For 'DimReduce', 'rank_size' {self.rank_size} needs {self.rank_size} ranks to "
                               f"broadcast their share of the subspace, but mskernel runs one process (rank 0 of a "
                               f"group of 1).")
        scale = _F32(loss_scale.asnumpy() if isinstance(loss_scale, Tensor) else loss_scale)
        grads = [g.asnumpy() for g in old_grad]
        scaled = [(g.astype(_F32) / scale).astype(_F32) for g in grads]
        gk_local = sum(p @ g.reshape(-1, 1) for p, g in zip(self.pca_list_local, scaled))
        gk = gk_local[:self.n_components]
        self.gk_last_back.set_data(Tensor(self.gk_last.asnumpy().copy()))
        self.bk_back.set_data(Tensor(self.bk.asnumpy().copy()))
        dk = self._apply_quasi_newton_update(gk)
        dk_pad = np.concatenate([dk, np.zeros([self.pad_num, 1], _F32)]) if self.pad_num else dk
        dk_local = dk_pad[self.start_index:self.end_index]
        dn = [(p.T @ dk_local).reshape(g.shape) for p, g in zip(self.pca_list_local, grads)]
        grad_proj = [(p.T @ gk_local).reshape(g.shape) for p, g in zip(self.pca_list_local, grads)]
        rho, found = self._line_search(gk, dk, dn, loss, weight, weight_clone, *inputs)
        if not found:
            self.gk_last.set_data(Tensor(self.gk_last_back.asnumpy().copy()))
            self.bk.set_data(Tensor(self.bk_back.asnumpy().copy()))
        self._res_loss(grads, grad_proj, weight, weight_clone, rho, dn)
        return loss

    def _apply_quasi_newton_update(self, gk: np.ndarray) -> np.ndarray:
        """BFGS update of ``bk`` from the change of ``gk`` and the last step; returns ``-bk gk``."""
        if bool(self.gk_last_init.asnumpy()):
            yk = gk - self.gk_last.asnumpy()
            sk = self.sk.asnumpy()
            g = (yk.T @ sk).reshape(())
            if g > 1e-20:
                pk = _F32(1.0) / g
                t1 = np.eye(self.n_components, dtype=_F32) - (pk * yk) @ sk.T
                self.bk.set_data(Tensor((t1.T @ self.bk.asnumpy() @ t1 + (pk * sk) @ sk.T).astype(_F32)))
        else:
            self.gk_last_init.set_data(Tensor(True))
        self.gk_last.set_data(Tensor(gk.astype(_F32)))
        return (-1 * (self.bk.asnumpy() @ gk)).astype(_F32)

    def _line_search(self, gk: np.ndarray, dk: np.ndarray, dn: list, old_loss: Tensor, weight: Sequence[Parameter],
                     weight_clone: Sequence[Parameter], *inputs: Any) -> Tuple[np.float32, bool]:
        for rho in self.rho_list[:self.max_search_time]:
            if self._find_rho(gk, dk, dn, old_loss, weight, weight_clone, rho, *inputs):
                return rho, True
        return self.rho_list[-1], False

    def _find_rho(self, gk: np.ndarray, dk: np.ndarray, dn: list, old_loss: Tensor, weight: Sequence[Parameter],
                  weight_clone: Sequence[Parameter], rho: np.float32, *inputs: Any) -> bool:
        """Move the weights by ``rho * dn``, compare the loss with the Armijo bound, restore the weights."""
        self.optimizer(tuple(Tensor((-1 * rho * d).astype(_F32)) for d in dn))
        new_loss = _F32(self.network(*inputs).asnumpy())
        bound = _F32(old_loss.asnumpy()) + _F32(self.sigma) * rho * _F32((gk.T @ dk).reshape(()))
        found = bool(bound > new_loss)
        if found:
            self.sk.set_data(Tensor((rho * dk).astype(_F32)))
        for param, saved in zip(weight, weight_clone):
            param.set_data(Tensor(saved.asnumpy().copy()))
        return found

    def _res_loss(self, grads: list, grad_proj: list, weight: Sequence[Parameter],
                  weight_clone: Sequence[Parameter], rho: np.float32, dn: list) -> None:
        deltas = []
        for mom, g, proj, d in zip(self.grad_res_momentum, grads, grad_proj, dn):
            new_mom = (_F32(self.gamma) * mom.asnumpy() + g - proj).astype(_F32)
            mom.set_data(Tensor(new_mom))
            deltas.append(Tensor((_F32(self.alpha) * new_mom - rho * d).astype(_F32)))
        self.optimizer(tuple(deltas))
        for saved, param in zip(weight_clone, weight):
            saved.set_data(Tensor(param.asnumpy().copy()))
