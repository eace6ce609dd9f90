"""Op table: the optimizer primitives that update Parameters in place (``ops.ApplyMomentum``, ``ops.ApplyAdagrad``,
``ops.SGD``, ...), and the update rules their sparse forms share (:mod:`mskernel.ops.table.optim_apply_sparse`).

Each writes the new values into its variable and slot Parameters (views and references see them), as MindSpore's
kernels do, and returns copies of the updated tensors MindSpore returns (the variable alone for some, the variable
and its slots for others). The arithmetic is numpy's in the variable's dtype; no gradient flows through them.
The sparse forms update the rows named by ``indices`` (an index outside the variable is skipped; gradients of a
repeated index are summed first by the fused forms).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> var = ms.Parameter(ms.Tensor([1.0, 2.0]), name="var")
    >>> print(ops.ApplyGradientDescent()(var, 0.5, ms.Tensor([1.0, 1.0])), var.asnumpy())
    [0.5 1.5] [0.5 1.5]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import Op


def _var(x: Any, prim: str, name: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{prim}', the '{name}' must be a Parameter or Tensor, but got {type(x).__name__}.")
    if x._data.dtype.kind != "f":
        raise TypeError(f"For '{prim}', the input argument '{name}' must be a type of {{Float16, Float32, Float64}}, "
                        f"but got {x.dtype}.")
    return x


def _num(x: Any, dtype: Any) -> Any:
    """A scalar or tensor input as numpy in ``dtype``."""
    a = x._data if isinstance(x, Tensor) else np.asarray(x)
    return a.astype(dtype, copy=False)


def _check_shapes(prim: str, tensors: Dict[str, Tensor]) -> None:
    names = list(tensors)
    first = tensors[names[0]]
    for n in names[1:]:
        if tuple(tensors[n].shape) != tuple(first.shape):
            raise ValueError(f"For '{prim}', evaluator arg '{n}' must have the same shape as '{names[0]}'. But got "
                             f"'{n}' shape: ({', '.join(map(str, tensors[n].shape))}), '{names[0]}' shape: "
                             f"({', '.join(map(str, first.shape))}).")


def _commit(writes: Sequence[Tuple[Tensor, np.ndarray]], outs: Sequence[Tensor]) -> Any:
    for t, value in writes:
        t._data[...] = value
        t._version += 1
    copies = tuple(Tensor._wrap(t._data.copy()) for t in outs)
    return copies[0] if len(copies) == 1 else copies


def _dense(prim: str, slots: Tuple[str, ...], inputs: Tuple[str, ...], grad: str, rule: Callable,
           returns: Tuple[str, ...]) -> Callable:
    """An in-place update over whole tensors: ``rule(**arrays)`` gives the new value of each slot it names."""
    def apply(*args: Any) -> Any:
        vals = dict(zip(slots + inputs, args))
        ts = {n: _var(vals[n], prim, n) for n in slots}
        dt = ts[slots[0]]._data.dtype
        g = _var(vals[grad], prim, grad)
        _check_shapes(prim, {**ts, grad: g})
        arrays = {n: t._data.astype(dt) for n, t in ts.items()}
        arrays.update({n: _num(vals[n], dt) for n in inputs})
        new = rule(**arrays)
        return _commit([(ts[n], new[n]) for n in new], [ts[n] for n in returns])
    apply.__name__ = prim
    return apply


def _rows(indices: Any, n: int, prim: str) -> np.ndarray:
    if not isinstance(indices, Tensor) or indices._data.dtype.kind not in "iu":
        raise TypeError(f"For '{prim}', the 'indices' must be a Tensor of int32 or int64, but got "
                        f"{getattr(indices, 'dtype', type(indices).__name__)}.")
    return np.asarray(indices._data).astype(np.int64).reshape(-1)


def _sparse(prim: str, slots: Tuple[str, ...], inputs: Tuple[str, ...], rule: Callable,
            returns: Tuple[str, ...], fused: bool = False, every_row: bool = False) -> Callable:
    """An in-place update of the rows ``indices`` names: ``rule`` runs on those rows of the slots (with the
    matching rows of ``grad``), one index after another, or once over the summed gradients (``fused``);
    ``every_row`` runs it on every row, the rows not named with a zero gradient (FusedSparseAdam)."""
    def apply(*args: Any) -> Any:
        vals = dict(zip(slots + inputs + ("grad", "indices"), args))
        ts = {n: _var(vals[n], prim, n) for n in slots}
        _check_shapes(prim, ts)
        var = ts[slots[0]]
        dt = var._data.dtype
        g = _var(vals["grad"], prim, "grad")._data.astype(dt)
        idx = _rows(vals["indices"], var.shape[0], prim)
        if g.shape[0] != idx.shape[0] or tuple(g.shape[1:]) != tuple(var.shape[1:]):
            raise ValueError(f"For '{prim}', the shape of 'grad' must be (len(indices),) + var.shape[1:], but got "
                             f"'grad' shape: {tuple(g.shape)}, 'indices' shape: {tuple(idx.shape)}, 'var' shape: "
                             f"{tuple(var.shape)}.")
        scalars = {n: _num(vals[n], dt) for n in inputs}
        arrays = {n: t._data.astype(dt) for n, t in ts.items()}
        keep = (idx >= 0) & (idx < var.shape[0])
        if fused or every_row:
            rows, first = np.unique(idx[keep], return_inverse=True)
            summed = np.zeros((len(rows),) + g.shape[1:], dt)
            np.add.at(summed, first, g[keep])
            if every_row:
                full = np.zeros_like(arrays[slots[0]])
                full[rows] = summed
                arrays.update(rule(grad=full, **{n: arrays[n] for n in slots}, **scalars))
            else:
                new = rule(grad=summed, **{n: arrays[n][rows] for n in slots}, **scalars)
                for n, value in new.items():
                    arrays[n][rows] = value
        else:
            for k in np.nonzero(keep)[0]:
                r = idx[k]
                new = rule(grad=g[k], **{n: arrays[n][r] for n in slots}, **scalars)
                for n, value in new.items():
                    arrays[n][r] = value
        return _commit([(ts[n], arrays[n]) for n in slots], [ts[n] for n in returns])
    apply.__name__ = prim
    return apply


def _prox(prox_v: np.ndarray, lr: Any, l1: Any, l2: Any) -> np.ndarray:
    return np.sign(prox_v) / (1 + lr * l2) * np.maximum(np.abs(prox_v) - lr * l1, 0)


# -- the update rules, numpy on the slots and inputs by their MindSpore names ----------------------------------------

def _ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):  # noqa: ANN001, ANN202
    m = beta1 * m + (1 - beta1) * grad
    v = np.maximum(beta2 * v, np.abs(grad))
    return {"var": var - lr / (1 - beta1_power) * m / (v + epsilon), "m": m, "v": v}


def _adadelta(var, accum, accum_update, lr, rho, epsilon, grad):  # noqa: ANN001, ANN202
    accum = rho * accum + (1 - rho) * grad * grad
    update = np.sqrt(accum_update + epsilon) / np.sqrt(accum + epsilon) * grad
    accum_update = rho * accum_update + (1 - rho) * update * update
    return {"var": var - lr * update, "accum": accum, "accum_update": accum_update}


def _adagrad(eps: float = 0.0, inside: bool = False) -> Callable:
    """Adagrad's step; the CPU kernels always update the accumulator (whatever ``update_slots`` says), and the
    sparse V2 form adds ``eps`` under the square root (``inside``)."""
    def rule(var, accum, lr, grad):  # noqa: ANN001, ANN202
        accum = accum + grad * grad
        denom = np.sqrt(accum + eps) if inside else np.sqrt(accum) + eps
        return {"var": var - lr * grad / denom, "accum": accum}
    return rule


def _adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step):  # noqa: ANN001, ANN202, E501
    ga = gradient_accumulator + grad
    gs = gradient_squared_accumulator + grad * grad
    tmp = ga - l1 * global_step if l1 > 0 else ga  # the CPU kernel's rule (not sign(ga) * max(|ga| - l1 * step, 0))
    new = -lr * tmp / (l2 * global_step * lr + np.sqrt(gs))
    return {"var": new, "gradient_accumulator": ga, "gradient_squared_accumulator": gs}


def _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):  # noqa: ANN001, ANN202
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    vhat = np.maximum(vhat, v)
    lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    return {"var": var - lr_t * m / (np.sqrt(vhat) + epsilon), "m": m, "v": v, "vhat": vhat}


def _add_sign(var, m, lr, alpha, sign_decay, beta, grad):  # noqa: ANN001, ANN202
    m = beta * m + (1 - beta) * grad
    return {"var": var - lr * (alpha + sign_decay * np.sign(grad) * np.sign(m)) * grad, "m": m}


def _power_sign(var, m, lr, logbase, sign_decay, beta, grad):  # noqa: ANN001, ANN202
    m = beta * m + (1 - beta) * grad
    return {"var": var - lr * np.exp(logbase * sign_decay * np.sign(grad) * np.sign(m)) * grad, "m": m}


def _centered_rms(var, mean_gradient, mean_square, moment, grad, lr, decay, momentum, epsilon):  # noqa: ANN001, ANN202
    mg = decay * mean_gradient + (1 - decay) * grad
    ms = decay * mean_square + (1 - decay) * grad * grad
    centred = ms - mg * mg + epsilon
    ok = centred > 0  # where the centred variance is not positive the CPU kernel leaves var and moment as they were
    mom = np.where(ok, momentum * moment + lr * grad / np.sqrt(np.where(ok, centred, 1)), moment)
    return {"var": np.where(ok, var - mom, var), "mean_gradient": mg, "mean_square": ms, "moment": mom}


def _rms(var, mean_square, moment, lr, grad, decay, momentum, epsilon):  # noqa: ANN001, ANN202
    ms = decay * mean_square + (1 - decay) * grad * grad
    mom = momentum * moment + lr * grad / np.sqrt(ms + epsilon)
    return {"var": var - mom, "mean_square": ms, "moment": mom}


def _ftrl_rule(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=0.0, dense=False):  # noqa: ANN001, ANN202
    g_shrink = grad + 2 * l2_shrinkage * var
    accum_new = accum + grad * grad
    linear = linear + g_shrink - (np.power(accum_new, -lr_power) - np.power(accum, -lr_power)) / lr * var
    quadratic = np.power(accum_new, -lr_power) / lr + 2 * l2
    shrink = l1 if dense else np.sign(linear) * l1  # ApplyFtrl's CPU kernel: l1 - linear whatever linear's sign
    new = np.where(np.abs(linear) > l1, (shrink - linear) / quadratic, 0).astype(var.dtype)
    return {"var": new, "accum": accum_new, "linear": linear}


def _dense_ftrl(**kw: Any) -> Dict[str, np.ndarray]:
    return _ftrl_rule(dense=True, **kw)


def _gradient_descent(var, alpha, delta):  # noqa: ANN001, ANN202
    return {"var": var - alpha * delta}


def _momentum(gradient_scale: float) -> Callable:
    """The heavy-ball step; MindSpore's CPU kernel does not read ``use_nesterov``."""
    def rule(variable, accumulation, learning_rate, gradient, momentum):  # noqa: ANN001, ANN202
        g = gradient * gradient_scale if gradient_scale != 1.0 else gradient
        acc = accumulation * momentum + g
        return {"variable": variable - learning_rate * acc, "accumulation": acc}
    return rule


def _keras_momentum(use_nesterov: bool) -> Callable:
    def rule(var, accum, lr, grad, momentum):  # noqa: ANN001, ANN202
        acc = accum * momentum - lr * grad
        return {"var": var + (acc * momentum - lr * grad if use_nesterov else acc), "accum": acc}
    return rule


def _proximal_adagrad(var, accum, lr, l1, l2, grad):  # noqa: ANN001, ANN202
    accum = accum + grad * grad
    lr_t = lr / np.sqrt(accum)
    return {"var": _prox(var - lr_t * grad, lr_t, l1, l2), "accum": accum}


def _proximal_gd(var, alpha, l1, l2, delta):  # noqa: ANN001, ANN202
    return {"var": _prox(var - alpha * delta, alpha, l1, l2)}


def _adam(use_nesterov: bool) -> Callable:
    def rule(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):  # noqa: ANN001, ANN202
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        lr_t = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
        step = (m * beta1 + (1 - beta1) * grad) if use_nesterov else m
        return {"var": var - lr_t * step / (np.sqrt(v) + epsilon), "m": m, "v": v}
    return rule


# -- the primitives' functions ----------------------------------------------------------------------------------------

def _apply_ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):  # noqa: ANN001, ANN202
    return _dense("ApplyAdaMax", ("var", "m", "v"), ("beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"),
                  "grad", _ada_max, ("var", "m", "v"))(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)


def _apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad):  # noqa: ANN001, ANN202
    return _dense("ApplyAdadelta", ("var", "accum", "accum_update"), ("lr", "rho", "epsilon", "grad"), "grad",
                  _adadelta, ("var", "accum", "accum_update"))(var, accum, accum_update, lr, rho, epsilon, grad)


def _apply_adagrad(var, accum, lr, grad, update_slots=True):  # noqa: ANN001, ANN202
    return _dense("ApplyAdagrad", ("var", "accum"), ("lr", "grad"), "grad", _adagrad(),
                  ("var", "accum"))(var, accum, lr, grad)


def _apply_adagrad_v2(var, accum, lr, grad, epsilon, update_slots=True):  # noqa: ANN001, ANN202
    return _dense("ApplyAdagradV2", ("var", "accum"), ("lr", "grad"), "grad", _adagrad(epsilon),
                  ("var", "accum"))(var, accum, lr, grad)


def _apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step,  # noqa: ANN001, ANN202, E501
                      use_locking=False):
    return _dense("ApplyAdagradDA", ("var", "gradient_accumulator", "gradient_squared_accumulator"),
                  ("grad", "lr", "l1", "l2", "global_step"), "grad", _adagrad_da, ("var",))(
        var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step)


def _apply_adam_with_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, grad, beta1=0.9, beta2=0.999,  # noqa: ANN001, ANN202, E501
                             epsilon=1e-8, use_locking=False):
    return _dense("ApplyAdamWithAmsgrad", ("var", "m", "v", "vhat"),
                  ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"), "grad", _amsgrad,
                  ("var", "m", "v", "vhat"))(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                             grad)


def _apply_adam_with_amsgrad_v2(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,  # noqa: ANN001, ANN202, E501
                                use_locking=False):
    return _dense("ApplyAdamWithAmsgradV2", ("var", "m", "v", "vhat"),
                  ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"), "grad", _amsgrad,
                  ("var", "m", "v", "vhat"))(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                             grad)


def _apply_add_sign(var, m, lr, alpha, sign_decay, beta, grad):  # noqa: ANN001, ANN202
    return _dense("ApplyAddSign", ("var", "m"), ("lr", "alpha", "sign_decay", "beta", "grad"), "grad", _add_sign,
                  ("var", "m"))(var, m, lr, alpha, sign_decay, beta, grad)


def _apply_power_sign(var, m, lr, logbase, sign_decay, beta, grad):  # noqa: ANN001, ANN202
    return _dense("ApplyPowerSign", ("var", "m"), ("lr", "logbase", "sign_decay", "beta", "grad"), "grad",
                  _power_sign, ("var", "m"))(var, m, lr, logbase, sign_decay, beta, grad)


def _apply_centered_rms_prop(var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,  # noqa: ANN001, ANN202, E501
                             epsilon, use_locking=False):
    return _dense("ApplyCenteredRMSProp", ("var", "mean_gradient", "mean_square", "moment"),
                  ("grad", "lr", "decay", "momentum", "epsilon"), "grad", _centered_rms, ("var",))(
        var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon)


def _apply_rms_prop(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon,  # noqa: ANN001, ANN202
                    use_locking=False):
    return _dense("ApplyRMSProp", ("var", "mean_square", "moment"), ("lr", "grad", "decay", "momentum", "epsilon"),
                  "grad", _rms, ("var",))(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon)


def _apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, use_locking=False):  # noqa: ANN001, ANN202
    return _dense("ApplyFtrl", ("var", "accum", "linear"), ("grad", "lr", "l1", "l2", "lr_power"), "grad",
                  _dense_ftrl, ("var",))(var, accum, linear, grad, lr, l1, l2, lr_power)


def _apply_gradient_descent(var, alpha, delta):  # noqa: ANN001, ANN202
    return _dense("ApplyGradientDescent", ("var",), ("alpha", "delta"), "delta", _gradient_descent, ("var",))(
        var, alpha, delta)


def _apply_momentum(variable, accumulation, learning_rate, gradient, momentum, use_nesterov=False,  # noqa: ANN001, ANN202
                    use_locking=False, gradient_scale=1.0):
    return _dense("ApplyMomentum", ("variable", "accumulation"), ("learning_rate", "gradient", "momentum"),
                  "gradient", _momentum(gradient_scale), ("variable",))(
        variable, accumulation, learning_rate, gradient, momentum)


def _apply_keras_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False):  # noqa: ANN001, ANN202
    return _dense("ApplyKerasMomentum", ("var", "accum"), ("lr", "grad", "momentum"), "grad",
                  _keras_momentum(use_nesterov), ("var", "accum"))(var, accum, lr, grad, momentum)


def _apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False):  # noqa: ANN001, ANN202
    return _dense("ApplyProximalAdagrad", ("var", "accum"), ("lr", "l1", "l2", "grad"), "grad", _proximal_adagrad,
                  ("var", "accum"))(var, accum, lr, l1, l2, grad)


def _apply_proximal_gradient_descent(var, alpha, l1, l2, delta):  # noqa: ANN001, ANN202
    return _dense("ApplyProximalGradientDescent", ("var",), ("alpha", "l1", "l2", "delta"), "delta", _proximal_gd,
                  ("var",))(var, alpha, l1, l2, delta)


def _adam_prim(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,  # noqa: ANN001, ANN202
               use_nesterov=False):
    return _dense("Adam", ("var", "m", "v"),
                  ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad"), "grad",
                  _adam(use_nesterov), ("var", "m", "v"))(var, m, v, beta1_power, beta2_power, lr, beta1, beta2,
                                                          epsilon, grad)


def _adam_no_update_param(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,  # noqa: ANN001, ANN202, E501
                          use_nesterov=False):
    prim = "AdamNoUpdateParam"
    mt, vt = _var(m, prim, "m"), _var(v, prim, "v")
    g = _var(grad, prim, "grad")
    _check_shapes(prim, {"m": mt, "v": vt, "grad": g})
    dt = mt._data.dtype
    b1, b2, b1p, b2p, lr_, eps = (_num(x, dt) for x in (beta1, beta2, beta1_power, beta2_power, lr, epsilon))
    ga = g._data.astype(dt)
    new_m = b1 * mt._data + (1 - b1) * ga
    new_v = b2 * vt._data + (1 - b2) * ga * ga
    lr_t = lr_ * np.sqrt(1 - b2p) / (1 - b1p)
    step = (new_m * b1 + (1 - b1) * ga) if use_nesterov else new_m
    delta = (-lr_t * step / (np.sqrt(new_v) + eps)).astype(dt)
    _commit([(mt, new_m), (vt, new_v)], ())
    return Tensor._wrap(delta)


def _adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, use_locking=False):  # noqa: ANN001, ANN202
    def rule(var, m, v, lr, beta1, beta2, epsilon, decay, gradient):  # noqa: ANN001, ANN202
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient * gradient
        return {"var": var - lr * (m / (np.sqrt(v) + epsilon) + decay * var), "m": m, "v": v}
    return _dense("AdamWeightDecay", ("var", "m", "v"), ("lr", "beta1", "beta2", "epsilon", "decay", "gradient"),
                  "gradient", rule, ("var", "m", "v"))(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)


def _sgd(parameters, gradient, learning_rate, accum, momentum, stat, dampening=0.0, weight_decay=0.0,  # noqa: ANN001, ANN202
         nesterov=False):
    prim = "SGD"
    p, g, a, s = (_var(x, prim, n) for x, n in ((parameters, "parameters"), (gradient, "gradient"),
                                                 (accum, "accum"), (stat, "stat")))
    if nesterov and dampening != 0:
        raise ValueError(f"For '{prim}', the 'dampening' must be 0 when 'nesterov' is True, but got {dampening}.")
    dt = p._data.dtype
    lr, mom = _num(learning_rate, dt), _num(momentum, dt)
    grad = g._data.astype(dt)
    if weight_decay != 0:
        grad = grad + weight_decay * p._data
    if mom > 0:
        acc = np.where(s._data > 0, grad, a._data * mom + (1 - dampening) * grad).astype(dt)
        step = grad + mom * acc if nesterov else acc
    else:
        acc, step = a._data, grad
    return _commit([(p, p._data - lr * step), (a, acc), (s, np.where(s._data > 0, 0, s._data))], (p,))


def _lars_update(weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate, epsilon=1e-05,  # noqa: ANN001, ANN202
                 hyperpara=0.001, use_clip=False):
    prim = "LARSUpdate"
    w, g = _var(weight, prim, "weight"), _var(gradient, prim, "gradient")
    dt = w._data.dtype
    nw, ng = np.sqrt(_num(norm_weight, dt)), np.sqrt(_num(norm_gradient, dt))
    wd, lr = _num(weight_decay, dt), _num(learning_rate, dt)
    trust = np.where((nw > 0) & (ng > 0), hyperpara * nw / (ng + wd * nw + epsilon), 1.0).astype(dt)
    if use_clip:
        trust = np.minimum(trust / lr, 1.0).astype(dt)
    return Tensor._wrap((trust * (g._data + wd * w._data)).astype(dt))


def _entry(fn: Callable, spec: str) -> Op:
    import inspect
    sig = ", ".join(str(p) for p in inspect.signature(fn).parameters.values())
    return Op(fn.__name__, sig, fn=fn, prim=spec)


OPS: List[Op] = [
    _entry(_apply_ada_max, "ApplyAdaMax"),
    _entry(_apply_adadelta, "ApplyAdadelta"),
    _entry(_apply_adagrad, "ApplyAdagrad(update_slots=True)(var, accum, lr, grad) -> var, accum, lr, grad, "
                           "update_slots"),
    _entry(_apply_adagrad_v2, "ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad) -> var, accum, lr, "
                              "grad, epsilon, update_slots"),
    _entry(_apply_adagrad_da, "ApplyAdagradDA(use_locking=False)(var, gradient_accumulator, "
                              "gradient_squared_accumulator, grad, lr, l1, l2, global_step) -> var, "
                              "gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step"),
    _entry(_apply_adam_with_amsgrad, "ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.999, epsilon=1e-08, use_locking=False)"
                                     "(var, m, v, vhat, beta1_power, beta2_power, lr, grad) -> var, m, v, vhat, "
                                     "beta1_power, beta2_power, lr, grad, beta1, beta2, epsilon"),
    _entry(_apply_adam_with_amsgrad_v2, "ApplyAdamWithAmsgradV2(use_locking=False)(var, m, v, vhat, beta1_power, "
                                        "beta2_power, lr, beta1, beta2, epsilon, grad) -> var, m, v, vhat, "
                                        "beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad"),
    _entry(_apply_add_sign, "ApplyAddSign"),
    _entry(_apply_power_sign, "ApplyPowerSign"),
    _entry(_apply_centered_rms_prop, "ApplyCenteredRMSProp(use_locking=False)(var, mean_gradient, mean_square, "
                                     "moment, grad, learning_rate, decay, momentum, epsilon) -> var, mean_gradient, "
                                     "mean_square, moment, grad, learning_rate, decay, momentum, epsilon"),
    _entry(_apply_rms_prop, "ApplyRMSProp(use_locking=False)(var, mean_square, moment, learning_rate, grad, decay, "
                            "momentum, epsilon) -> var, mean_square, moment, learning_rate, grad, decay, momentum, "
                            "epsilon"),
    _entry(_apply_ftrl, "ApplyFtrl(use_locking=False)(var, accum, linear, grad, lr, l1, l2, lr_power) -> var, "
                        "accum, linear, grad, lr, l1, l2, lr_power"),
    _entry(_apply_gradient_descent, "ApplyGradientDescent"),
    _entry(_apply_momentum, "ApplyMomentum(use_nesterov=False, use_locking=False, gradient_scale=1.0)(variable, "
                            "accumulation, learning_rate, gradient, momentum) -> variable, accumulation, "
                            "learning_rate, gradient, momentum, use_nesterov, use_locking, gradient_scale"),
    _entry(_apply_keras_momentum, "ApplyKerasMomentum(use_locking=False, use_nesterov=False)(var, accum, lr, grad, "
                                  "momentum) -> var, accum, lr, grad, momentum, use_locking, use_nesterov"),
    _entry(_apply_proximal_adagrad, "ApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2, grad) -> var, "
                                    "accum, lr, l1, l2, grad"),
    _entry(_apply_proximal_gradient_descent, "ApplyProximalGradientDescent"),
    _entry(_adam_prim, "Adam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr, beta1, "
                       "beta2, epsilon, grad) -> var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, "
                       "grad, use_locking, use_nesterov"),
    _entry(_adam_no_update_param, "AdamNoUpdateParam(use_locking=False, use_nesterov=False)(m, v, beta1_power, "
                                  "beta2_power, lr, beta1, beta2, epsilon, grad) -> m, v, beta1_power, beta2_power, "
                                  "lr, beta1, beta2, epsilon, grad, use_locking, use_nesterov"),
    _entry(_adam_weight_decay, "AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, epsilon, decay, "
                               "gradient) -> var, m, v, lr, beta1, beta2, epsilon, decay, gradient"),
    _entry(_sgd, "SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters, gradient, learning_rate, accum, "
                 "momentum, stat) -> parameters, gradient, learning_rate, accum, momentum, stat, dampening, "
                 "weight_decay, nesterov"),
    _entry(_lars_update, "LARSUpdate(epsilon=1e-05, hyperpara=0.001, use_clip=False)(weight, gradient, norm_weight, "
                         "norm_gradient, weight_decay, learning_rate) -> weight, gradient, norm_weight, "
                         "norm_gradient, weight_decay, learning_rate, epsilon, hyperpara, use_clip"),
]

#: the examples, by primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES: Dict[str, Tuple[str, ...]] = {
    'ApplyAdaMax': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.6, 0.5]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.9, 0.1]), name='v')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyAdaMax()(var, m, v, 0.9, 0.001, 0.9, 0.99, 1e-10, grad)',
        '[0.5936027  0.39457142] [0.57000005 0.37999997] [0.891 0.7  ]',
    ),
    'ApplyAdadelta': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        "accum_update = ms.Parameter(ms.Tensor([0.9, 0.1]), name='accum_update')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyAdadelta()(var, accum, accum_update, 0.001, 0.0, 1e-6, grad)',
        '[0.59905136 0.40031624] [0.09       0.48999998] [0.899991   0.10000079]',
    ),
    'ApplyAdagrad': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyAdagrad()(var, accum, 0.01, grad)',
        '[0.59638846 0.40703526] [0.69000006 0.99      ]',
    ),
    'ApplyAdagradV2': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyAdagradV2(epsilon=1e-6)(var, accum, 0.01, grad)',
        '[0.59638846 0.40703526] [0.69000006 0.99      ]',
    ),
    'ApplyAdagradDA': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "ga = ms.Parameter(ms.Tensor([0.1, 0.3]), name='ga')",
        "gs = ms.Parameter(ms.Tensor([0.2, 0.1]), name='gs')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyAdagradDA()(var, ga, gs, grad, 0.01, 0.001, 0.001, ms.Tensor(2, ms.int32)), ga.asnumpy()',
        '[-0.0073904   0.00523346] [ 0.4        -0.39999998]',
    ),
    'ApplyAdamWithAmsgrad': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        "vhat = ms.Parameter(ms.Tensor([0.1, 0.2]), name='vhat')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyAdamWithAmsgrad()(var, m, v, vhat, 0.9, 0.999, 0.01, grad)[0]',
        '[0.59915125 0.3992222 ]',
    ),
    'ApplyAdamWithAmsgradV2': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        "vhat = ms.Parameter(ms.Tensor([0.1, 0.2]), name='vhat')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyAdamWithAmsgradV2()(var, m, v, vhat, 0.9, 0.999, 0.01, 0.8, 0.999, 1e-8, grad)[0]',
        '[0.5990098 0.3998586]',
    ),
    'ApplyAddSign': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.6, 0.5]), name='m')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyAddSign()(var, m, 0.001, 1.0, 0.99, 0.9, grad)',
        '[0.599403 0.400007] [0.57000005 0.37999997]',
    ),
    'ApplyPowerSign': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.6, 0.5]), name='m')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyPowerSign()(var, m, 0.001, 2.718282, 0.99, 0.9, grad)',
        '[0.5955757  0.40004748] [0.57000005 0.37999997]',
    ),
    'ApplyCenteredRMSProp': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "mg = ms.Parameter(ms.Tensor([0.1, 0.1]), name='mg')",
        "ms_ = ms.Parameter(ms.Tensor([1.0, 1.0]), name='ms_')",
        "mom = ms.Parameter(ms.Tensor([0.0, 0.0]), name='mom')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyCenteredRMSProp()(var, mg, ms_, mom, grad, 0.01, 0.9, 0.5, 1e-3), var.asnumpy()',
        '[0.59683    0.40718338] [0.59683    0.40718338]',
    ),
    'ApplyRMSProp': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "ms_ = ms.Parameter(ms.Tensor([1.0, 1.0]), name='ms_')",
        "mom = ms.Parameter(ms.Tensor([0.0, 0.0]), name='mom')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyRMSProp()(var, ms_, mom, 0.01, grad, 0.9, 0.5, 1e-3), var.asnumpy()',
        '[0.59685516 0.40718186] [0.59685516 0.40718186]',
    ),
    'ApplyFtrl': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        "linear = ms.Parameter(ms.Tensor([0.9, 0.1]), name='linear')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyFtrl()(var, accum, linear, grad, 0.001, 0.0, 0.0, -0.5)',
        '[0.0390525  0.11633541]',
    ),
    'ApplyGradientDescent': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyGradientDescent()(var, 0.1, grad), var.asnumpy()',
        '[0.57000005 0.47      ] [0.57000005 0.47      ]',
    ),
    'ApplyMomentum': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyMomentum()(var, accum, 0.1, grad, 0.9), accum.asnumpy()',
        '[0.51600003 0.425     ] [ 0.84000003 -0.25      ]',
    ),
    'ApplyKerasMomentum': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyKerasMomentum()(var, accum, 0.1, grad, 0.9)',
        '[1.11       0.91999996] [0.51 0.52]',
    ),
    'ApplyProximalAdagrad': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "accum = ms.Parameter(ms.Tensor([0.6, 0.5]), name='accum')",
        'grad = ms.Tensor([0.3, -0.7])',
        '*ops.ApplyProximalAdagrad()(var, accum, 0.01, 0.0, 0.0, grad)',
        '[0.59638846 0.40703526] [0.69000006 0.99      ]',
    ),
    'ApplyProximalGradientDescent': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.ApplyProximalGradientDescent()(var, 0.1, 0.1, 0.1, grad)',
        '[0.5544555  0.45544556]',
    ),
    'Adam': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.Adam()(var, m, v, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, grad)[0]',
        '[0.59915125 0.39890215]',
    ),
    'AdamNoUpdateParam': (
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.AdamNoUpdateParam()(m, v, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, grad), m.asnumpy()',
        '[-0.00084876 -0.00109785] [0.12       0.10999998]',
    ),
    'AdamWeightDecay': (
        "var = ms.Parameter(ms.Tensor([0.6, 0.4]), name='var')",
        "m = ms.Parameter(ms.Tensor([0.1, 0.2]), name='m')",
        "v = ms.Parameter(ms.Tensor([0.2, 0.1]), name='v')",
        'grad = ms.Tensor([0.3, -0.7])',
        'ops.AdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, grad)[0]',
        '[0.596716   0.39612827]',
    ),
    'SGD': (
        'p, a, s = ms.Tensor([2.0, -0.5]), ms.Tensor([0.1, 0.3]), ms.Tensor([1.5, -0.3])',
        'ops.SGD()(p, ms.Tensor([1.0, -1.0]), ms.Tensor(0.01), a, ms.Tensor(0.1), s), s',
        '[ 1.99   -0.4903] [ 0.  -0.3]',
    ),
    'LARSUpdate': (
        'w, g = ms.Tensor([0.5, 0.8]), ms.Tensor([0.4, 0.4])',
        'ops.LARSUpdate()(w, g, (w * w).sum(), (g * g).sum(), 0.0, 1.0)',
        '[0.00066707 0.00066707]',
    ),
}
