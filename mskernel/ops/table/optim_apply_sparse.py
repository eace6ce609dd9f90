"""Op table: the sparse and fused optimizer primitives (``ops.SparseApplyAdagrad``, ``ops.SparseApplyFtrl``,
``ops.FusedSparseAdam``, ...): the update rules of :mod:`mskernel.ops.table.optim_apply` applied to the rows named
by ``indices`` (an index outside the variable is skipped; the fused forms sum the gradients of a repeated index
first). Like the dense forms they write into their Parameters and no gradient flows through them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> var = ms.Parameter(ms.Tensor([[1.0], [2.0]]), name="var")
    >>> accum = ms.Parameter(ms.Tensor([[1.0], [1.0]]), name="accum")
    >>> _ = ops.SparseApplyAdagrad(lr=0.5)(var, accum, ms.Tensor([[1.0]]), ms.Tensor([1], ms.int32))
    >>> print(var.asnumpy().reshape(-1))
    [1.        1.6464466]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from mskernel.ops.opdef import Op
from mskernel.ops.table.optim_apply import (_adadelta, _adagrad, _adam, _entry, _ftrl_rule, _proximal_adagrad, _rms,
                                            _sparse)

# -- the sparse and fused forms ----------------------------------------------------------------------------------------

def _rule_no_var(rule: Callable, rename: Dict[str, str]) -> Callable:
    def wrapped(**kw: Any) -> Dict[str, np.ndarray]:
        return rule(**{rename.get(k, k): v for k, v in kw.items()})
    return wrapped


def _sparse_apply_adagrad(var, accum, grad, indices, lr, update_slots=True, use_locking=False):  # noqa: ANN001, ANN202
    return _sparse("SparseApplyAdagrad", ("var", "accum"), ("lr",), _adagrad(), ("var", "accum"), fused=True)(
        var, accum, lr, grad, indices)


def _sparse_apply_adagrad_v2(var, accum, grad, indices, lr, epsilon, use_locking=False, update_slots=True):  # noqa: ANN001, ANN202, E501
    return _sparse("SparseApplyAdagradV2", ("var", "accum"), ("lr",), _adagrad(epsilon, inside=True),
                   ("var", "accum"), fused=True)(var, accum, lr, grad, indices)


def _sparse_apply_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, use_locking=False):  # noqa: ANN001, ANN202
    return _sparse("SparseApplyFtrl", ("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power"), _ftrl_rule,
                   ("var", "accum", "linear"))(var, accum, linear, lr, l1, l2, lr_power, grad, indices)


def _sparse_apply_ftrl_v2(var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power,  # noqa: ANN001, ANN202
                          use_locking=False):
    return _sparse("SparseApplyFtrlV2", ("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power", "l2_shrinkage"),
                   _ftrl_rule, ("var", "accum", "linear"))(var, accum, linear, lr, l1, l2, lr_power, l2_shrinkage,
                                                            grad, indices)


def _sparse_apply_adadelta(var, accum, accum_update, lr, rho, grad, indices, epsilon, use_locking=False):  # noqa: ANN001, ANN202, E501
    return _sparse("SparseApplyAdadelta", ("var", "accum", "accum_update"), ("lr", "rho", "epsilon"), _adadelta,
                   ("var", "accum", "accum_update"))(var, accum, accum_update, lr, rho, epsilon, grad, indices)


def _sparse_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False):  # noqa: ANN001, ANN202
    return _sparse("SparseApplyProximalAdagrad", ("var", "accum"), ("lr", "l1", "l2"), _proximal_adagrad,
                   ("var", "accum"))(var, accum, lr, l1, l2, grad, indices)


def _sparse_apply_rms_prop(var, ms, mom, lr, grad, indices, rho, momentum, epsilon, use_locking=False):  # noqa: ANN001, ANN202
    rule = _rule_no_var(_rms, {"ms": "mean_square", "mom": "moment", "rho": "decay"})

    def renamed(**kw: Any) -> Dict[str, np.ndarray]:
        out = rule(**kw)
        return {"var": out["var"], "ms": out["mean_square"], "mom": out["moment"]}
    return _sparse("SparseApplyRMSProp", ("var", "ms", "mom"), ("lr", "rho", "momentum", "epsilon"), renamed,
                   ("var", "ms", "mom"))(var, ms, mom, lr, rho, momentum, epsilon, grad, indices)


def _fused_sparse_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices,  # noqa: ANN001, ANN202
                       use_locking=False, use_nesterov=False):
    return _sparse("FusedSparseAdam", ("var", "m", "v"),
                   ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"), _adam(use_nesterov),
                   ("var", "m", "v"), every_row=True)(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                                      grad, indices)


def _fused_sparse_lazy_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices,  # noqa: ANN001, ANN202, E501
                            use_locking=False, use_nesterov=False):
    return _sparse("FusedSparseLazyAdam", ("var", "m", "v"),
                   ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"), _adam(use_nesterov),
                   ("var", "m", "v"), fused=True)(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                                  grad, indices)


def _fused_sparse_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, use_locking=False):  # noqa: ANN001, ANN202
    return _sparse("FusedSparseFtrl", ("var", "accum", "linear"), ("lr", "l1", "l2", "lr_power"), _ftrl_rule,
                   ("var", "accum", "linear"), fused=True)(var, accum, linear, lr, l1, l2, lr_power, grad, indices)


def _fused_sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False):  # noqa: ANN001, ANN202
    return _sparse("FusedSparseProximalAdagrad", ("var", "accum"), ("lr", "l1", "l2"), _proximal_adagrad,
                   ("var", "accum"), fused=True)(var, accum, lr, l1, l2, grad, indices)


OPS: List[Op] = [
    _entry(_sparse_apply_adagrad, "SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad, "
                                  "indices) -> var, accum, grad, indices, lr, update_slots"),
    _entry(_sparse_apply_adagrad_v2, "SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, "
                                     "accum, grad, indices) -> var, accum, grad, indices, lr, epsilon, "
                                     "update_slots=update_slots"),
    _entry(_sparse_apply_ftrl, "SparseApplyFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad, "
                               "indices) -> var, accum, linear, grad, indices, lr, l1, l2, lr_power"),
    _entry(_sparse_apply_ftrl_v2, "SparseApplyFtrlV2(lr, l1, l2, l2_shrinkage, lr_power, use_locking=False)(var, "
                                  "accum, linear, grad, indices) -> var, accum, linear, grad, indices, lr, l1, l2, "
                                  "l2_shrinkage, lr_power"),
    _entry(_sparse_apply_adadelta, "SparseApplyAdadelta(epsilon, use_locking=False)(var, accum, accum_update, lr, "
                                   "rho, grad, indices) -> var, accum, accum_update, lr, rho, grad, indices, epsilon"),
    _entry(_sparse_apply_proximal_adagrad, "SparseApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, "
                                           "grad, indices) -> var, accum, lr, l1, l2, grad, indices"),
    _entry(_sparse_apply_rms_prop, "SparseApplyRMSProp(rho, momentum, epsilon, use_locking=False)(var, ms, mom, lr, "
                                   "grad, indices) -> var, ms, mom, lr, grad, indices, rho, momentum, epsilon"),
    _entry(_fused_sparse_adam, "FusedSparseAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, "
                               "beta2_power, lr, beta1, beta2, epsilon, grad, indices) -> var, m, v, beta1_power, "
                               "beta2_power, lr, beta1, beta2, epsilon, grad, indices, use_locking, use_nesterov"),
    _entry(_fused_sparse_lazy_adam, "FusedSparseLazyAdam(use_locking=False, use_nesterov=False)(var, m, v, "
                                    "beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices) -> var, m, "
                                    "v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices, "
                                    "use_locking, use_nesterov"),
    _entry(_fused_sparse_ftrl, "FusedSparseFtrl(lr, l1, l2, lr_power, use_locking=False)(var, accum, linear, grad, "
                               "indices) -> var, accum, linear, grad, indices, lr, l1, l2, lr_power"),
    _entry(_fused_sparse_proximal_adagrad, "FusedSparseProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, "
                                           "grad, indices) -> var, accum, lr, l1, l2, grad, indices"),
]

#: the examples, by primitive name (mskernel.ops.registry adds each to its docstring; the tests run it)
EXAMPLES: Dict[str, Tuple[str, ...]] = {
    'SparseApplyAdagrad': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        'ops.SparseApplyAdagrad(lr=0.1)(var, accum, ms.Tensor([[0.3], [0.1]]), ms.Tensor([1, 1], ms.int32))[0]',
        '[[0.6      ]\n [0.3507634]]',
    ),
    'SparseApplyAdagradV2': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        'ops.SparseApplyAdagradV2(lr=0.1, epsilon=1e-6)(var, accum, ms.Tensor([[0.3]]), ms.Tensor([0], ms.int32))[0]',
        '[[0.5638843]\n [0.4      ]]',
    ),
    'SparseApplyFtrl': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        "linear = ms.Parameter(ms.Tensor([[0.9], [0.1]]), name='linear')",
        'ops.SparseApplyFtrl(0.01, 0.0, 0.0, -0.5)(var, accum, linear, ms.Tensor([[0.3]]), ms.Tensor([1],'
        ' ms.int32))[0]',
        '[[0.6      ]\n [0.0265626]]',
    ),
    'SparseApplyFtrlV2': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        "linear = ms.Parameter(ms.Tensor([[0.9], [0.1]]), name='linear')",
        'ops.SparseApplyFtrlV2(0.01, 0.0, 0.0, 0.1, -0.5)(var, accum, linear, ms.Tensor([[0.3]]), ms.Tensor([1],'
        ' ms.int32))[0]',
        '[[0.6       ]\n [0.02552109]]',
    ),
    'SparseApplyAdadelta': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        "au = ms.Parameter(ms.Tensor([[0.9], [0.1]]), name='au')",
        'ops.SparseApplyAdadelta(1e-6)(var, accum, au, 0.01, 0.2, ms.Tensor([[0.3]]), ms.Tensor([0], ms.int32))[0]',
        '[[0.59350485]\n [0.4       ]]',
    ),
    'SparseApplyProximalAdagrad': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "accum = ms.Parameter(ms.Tensor([[0.6], [0.5]]), name='accum')",
        'ops.SparseApplyProximalAdagrad()(var, accum, 0.1, 0.0, 0.0, ms.Tensor([[0.3]]), ms.Tensor([0],'
        ' ms.int32))[0]',
        '[[0.56388426]\n [0.4       ]]',
    ),
    'SparseApplyRMSProp': (
        "var = ms.Parameter(ms.Tensor([[0.6], [0.4]]), name='var')",
        "ms_ = ms.Parameter(ms.Tensor([[0.2], [0.4]]), name='ms')",
        "mom = ms.Parameter(ms.Tensor([[0.3], [0.1]]), name='mom')",
        'ops.SparseApplyRMSProp(0.2, 0.01, 1e-6)(var, ms_, mom, 0.01, ms.Tensor([[0.3], [0.7]]), ms.Tensor([0, 1],'
        ' ms.int32))[0]',
        '[[0.5880358]\n [0.3888111]]',
    ),
    'FusedSparseAdam': (
        "var, m, v = (ms.Parameter(ms.Tensor([[1.0], [1.0]]), name=n) for n in ('var', 'm', 'v'))",
        '_ = ops.FusedSparseAdam()(var, m, v, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-8, ms.Tensor([[0.1]]),'
        ' ms.Tensor([0], ms.int32))',
        'var.asnumpy()',
        '[[0.9997121 ]\n [0.99971527]]',
    ),
    'FusedSparseLazyAdam': (
        "var, m, v = (ms.Parameter(ms.Tensor([[1.0], [1.0]]), name=n) for n in ('var', 'm', 'v'))",
        '_ = ops.FusedSparseLazyAdam()(var, m, v, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-8, ms.Tensor([[0.1]]),'
        ' ms.Tensor([0], ms.int32))',
        'var.asnumpy()',
        '[[0.9997121]\n [1.       ]]',
    ),
    'FusedSparseFtrl': (
        "var, accum, linear = (ms.Parameter(ms.Tensor([[1.0], [1.0]]), name=n) for n in ('var', 'accum', 'linear'))",
        '_ = ops.FusedSparseFtrl(0.01, 0.0, 0.0, -0.5)(var, accum, linear, ms.Tensor([[0.1]]), ms.Tensor([0],'
        ' ms.int32))',
        'var.asnumpy()',
        '[[-0.00598256]\n [ 1.        ]]',
    ),
    'FusedSparseProximalAdagrad': (
        "var, accum = (ms.Parameter(ms.Tensor([[1.0], [1.0]]), name=n) for n in ('var', 'accum'))",
        '_ = ops.FusedSparseProximalAdagrad()(var, accum, 0.01, 0.0, 0.0, ms.Tensor([[0.1]]), ms.Tensor([0],'
        ' ms.int32))',
        'var.asnumpy()',
        '[[0.99900496]\n [1.        ]]',
    ),
}
