"""Op table: fused optimizer primitives — ``ops.FusedCastAdamWeightDecay`` (AdamWeightDecay's step on gradients
divided by a global norm, the arithmetic in float32, the variable kept in its own dtype, float16 included) and
``ops.FusedWeightScaleApplyMomentum`` (the momentum step on ``gradient * loss_scale + weight_decay * variable``;
MindSpore runs it on GPUs only, and this is that kernel's documented arithmetic). Both write their variable and
slots in place, as :mod:`mskernel.ops.table.optim_apply`'s primitives do.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> var = ms.Parameter(ms.Tensor([1.0, 2.0]), name="var")
    >>> acc = ms.Parameter(ms.Tensor([0.0, 0.0]), name="acc")
    >>> _ = ops.FusedWeightScaleApplyMomentum()(0.1, 0.5, var, acc, 0.1, ms.Tensor([2.0, 2.0]), 0.9)
    >>> print(var.asnumpy(), acc.asnumpy())
    [0.89 1.88] [1.1 1.2]
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from mskernel.ops.opdef import Op
from mskernel.ops.table.optim_apply import _check_shapes, _commit, _num, _var

__all__ = ["OPS", "EXAMPLES", "adafactor_step"]


def _fused_cast_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm,  # noqa: ANN001, ANN202, E501
                                  use_locking=False):
    prim = "FusedCastAdamWeightDecay"
    vt, mt, st = _var(var, prim, "var"), _var(m, prim, "m"), _var(v, prim, "v")
    g = _var(gradient, prim, "gradient")
    _check_shapes(prim, {"var": vt, "m": mt, "v": st, "gradient": g})
    f = np.float32
    lr_, b1, b2, eps, wd, norm = (_num(x, f) for x in (lr, beta1, beta2, epsilon, decay, global_norm))
    grad = g._data.astype(f) / norm
    new_m = b1 * mt._data.astype(f) + (f(1) - b1) * grad
    new_v = b2 * st._data.astype(f) + (f(1) - b2) * grad * grad
    w = vt._data.astype(f)
    update = new_m / (np.sqrt(new_v) + eps)
    if wd > 0:
        update = update + wd * w
    new_w = (w - lr_ * update).astype(vt._data.dtype)
    return _commit([(vt, new_w), (mt, new_m.astype(mt._data.dtype)), (st, new_v.astype(st._data.dtype))],
                   (vt, mt, st))


def _fused_weight_scale_apply_momentum(weight_decay, loss_scale, variable, accumulation, learning_rate, gradient,  # noqa: ANN001, ANN202, E501
                                       momentum):
    prim = "FusedWeightScaleApplyMomentum"
    var, acc = _var(variable, prim, "variable"), _var(accumulation, prim, "accumulation")
    g = _var(gradient, prim, "gradient")
    _check_shapes(prim, {"variable": var, "accumulation": acc, "gradient": g})
    dt = var._data.dtype
    wd, scale, lr, mom = (_num(x, dt) for x in (weight_decay, loss_scale, learning_rate, momentum))
    grad = var._data * wd + g._data.astype(dt) * scale
    new_acc = (mom * acc._data + grad).astype(dt)
    return _commit([(acc, new_acc), (var, (var._data - lr * new_acc).astype(dt))], (var,))


def _rms(a: np.ndarray) -> Any:
    return np.sqrt(np.mean(np.square(a)))


def adafactor_step(param: np.ndarray, exp_avg: Any, row: np.ndarray, col: np.ndarray, sq: np.ndarray,
                   grad: np.ndarray, lr: Any, eps: Tuple[float, float], clip: float, beta1: float, beta2t: Any,
                   weight_decay: float, scale_parameter: bool) -> None:
    """One Adafactor step on numpy buffers, in place (float32 arithmetic; ``exp_avg`` None: no first moment;
    ``weight_decay`` 0: none): what ``nn.AdaFactor`` and ``ops.FusedAdaFactor`` compute."""
    f = np.float32
    g = grad.astype(f)
    p = param.astype(f)
    lr_u = f(lr) * np.maximum(f(eps[1]), _rms(p)) if scale_parameter else f(lr)
    upd = g * g + f(eps[0])
    beta2t = f(beta2t)
    if g.ndim >= 2:
        row[...] = row.astype(f) * beta2t + upd.mean(-1) * (f(1) - beta2t)
        col[...] = col.astype(f) * beta2t + upd.mean(-2) * (f(1) - beta2t)
        r = row.astype(f)
        update = (f(1) / np.sqrt(r / r.mean(-1, keepdims=True)))[..., None] / np.sqrt(col.astype(f)[..., None, :]) * g
    else:
        sq[...] = sq.astype(f) * beta2t + upd * (f(1) - beta2t)
        update = g / np.sqrt(sq.astype(f))
    update = update / np.maximum(_rms(update) / f(clip), f(1.0)) * lr_u
    if exp_avg is not None:
        exp_avg[...] = exp_avg.astype(f) * f(beta1) + update * f(1 - beta1)
        update = exp_avg.astype(f)
    if weight_decay:
        p = p + p * -f(weight_decay) * lr_u
    param[...] = (p - update).astype(param.dtype)


def _fused_ada_factor(epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate, grad, param, exp_avg,  # noqa: ANN001, ANN202, E501
                      exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, enable_scale_parameter=False,
                      enable_first_moment=False, enable_weight_decay=False):
    prim = "FusedAdaFactor"
    ts = [_var(t, prim, n) for t, n in ((param, "param"), (exp_avg, "exp_avg"), (exp_avg_sq_row, "exp_avg_sq_row"),
                                        (exp_avg_sq_col, "exp_avg_sq_col"), (exp_avg_sq, "exp_avg_sq"))]
    g = _var(grad, prim, "grad")
    _check_shapes(prim, {"param": ts[0], "grad": g})
    eps = _num(epsilon, np.float32).reshape(-1)
    arrays = [t._data.copy() for t in ts]
    adafactor_step(arrays[0], arrays[1] if enable_first_moment else None, arrays[2], arrays[3], arrays[4], g._data,
                   _num(learning_rate, np.float32), (float(eps[0]), float(eps[1])),
                   float(_num(clip_threshold, np.float32)), float(_num(beta1, np.float32)),
                   _num(beta2t, np.float32), float(_num(weight_decay, np.float32)) if enable_weight_decay else 0.0,
                   enable_scale_parameter)
    return _commit(list(zip(ts, arrays)), (ts[0],))


def _entry(fn: Callable, spec: str) -> Op:
    sig = ", ".join(str(p) for p in inspect.signature(fn).parameters.values())
    return Op(fn.__name__, sig, fn=fn, prim=spec)


OPS: List[Op] = [
    _entry(_fused_cast_adam_weight_decay, "FusedCastAdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, "
                                          "epsilon, decay, gradient, global_norm) -> var, m, v, lr, beta1, beta2, "
                                          "epsilon, decay, gradient, global_norm, use_locking"),
    _entry(_fused_weight_scale_apply_momentum, "FusedWeightScaleApplyMomentum"),
    _entry(_fused_ada_factor, "FusedAdaFactor(enable_scale_parameter=False, enable_first_moment=False, "
                              "enable_weight_decay=False)(epsilon, clip_threshold, beta1, beta2t, weight_decay, "
                              "learning_rate, grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq) -> "
                              "epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate, grad, param, "
                              "exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, enable_scale_parameter, "
                              "enable_first_moment, enable_weight_decay"),
]

#: the examples, by primitive name: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES: Dict[str, Tuple[str, ...]] = {
    "FusedCastAdamWeightDecay": (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4], ms.float16), name='var')",
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        "g = ms.Tensor([0.3, -0.7], ms.float16)",
        "ops.FusedCastAdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.0, g, 1.0)[0]",
        "[0.5977 0.3965]",
    ),
    "FusedWeightScaleApplyMomentum": (
        "var = ms.Parameter(ms.Tensor([1.0, 2.0]), name='var')",
        "acc = ms.Parameter(ms.Tensor([0.0, 0.0]), name='acc')",
        "ops.FusedWeightScaleApplyMomentum()(0.1, 0.5, var, acc, 0.1, ms.Tensor([2.0, 2.0]), 0.9)",
        "[0.89 1.88]",
    ),
    "FusedAdaFactor": (
        "p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')",
        "z = [ms.Parameter(ms.Tensor(v), name=n) for v, n in (([0.0, 0.0], 'm'), ([0.0], 'r'), ([0.0], 'c'), "
        "([0.0, 0.0], 's'))]",
        "ops.FusedAdaFactor()(ms.Tensor([1e-30, 1e-3]), 1.0, 0.9, 0.0, 0.0, 0.1, ms.Tensor([1.0, -1.0]), p, *z)",
        "[0.9 2.1]",
    ),
}
