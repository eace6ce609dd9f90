"""Functional transforms over the one engine: ``jvp``, ``vjp``, ``jacfwd`` and ``jacrev``.

Each runs ``fn`` eagerly with its inputs tracked, then asks the engine for gradients:

- ``vjp`` keeps the recorded graph and runs one backward pass per call of the returned ``vjp_fn``.
- ``jvp`` uses two reverse passes (the "double vjp"): the first, recorded, is linear in a dummy
  output gradient ``u``; differentiating it with respect to ``u`` along ``v`` gives ``J @ v``.
- ``jacrev``/``jacfwd`` build the Jacobian one output element at a time (one backward pass each);
  both give the same numbers and the same structure as MindSpore (``jacfwd`` does not use forward
  mode here).

Inside an outer ``grad`` these results are recorded too, so they can be differentiated again.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    >>> out, tangent = jvp(lambda a: a ** 3, x, ms.Tensor(np.ones(2, np.float32)))
    >>> print(out, tangent)
    [1. 8.] [ 3. 12.]
    >>> print(jacrev(lambda a: a * a)(x))
    [[2. 0.]
     [0. 4.]]
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel.autograd.api import _check_weights, _detach, _finalize, match_sens, recording, track_inputs
from mskernel.autograd.engine import gradients
from mskernel.autograd.node import STATE
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor

__all__ = ["jvp", "vjp", "jacfwd", "jacrev"]

_AUX_MSG = "When 'has_aux' is True, origin 'fn' requires more than one outputs."


def _check_has_aux(has_aux: Any) -> None:
    if not isinstance(has_aux, bool):
        raise TypeError("The 'has_aux' must be bool type.")


def _flatten(struct: Any) -> List[Any]:
    """Leaves of nested tuples/lists, in order."""
    if isinstance(struct, (tuple, list)):
        out: List[Any] = []
        for s in struct:
            out.extend(_flatten(s))
        return out
    return [struct]


def _rebuild(struct: Any, leaves: List[Any], tuples: bool = True) -> Any:
    """``struct``'s nesting filled with ``leaves`` (consumed from the front); lists become tuples."""
    if isinstance(struct, (tuple, list)):
        items = [_rebuild(s, leaves, tuples) for s in struct]
        return tuple(items) if tuples or isinstance(struct, tuple) else items
    return leaves.pop(0)


def _zeros_like(t: Tensor) -> Tensor:
    return Tensor._wrap(np.zeros(t._data.shape, t._data.dtype))


def _split_aux(out: Any, has_aux: bool, quoted: bool) -> Tuple[Any, Any]:
    """(differentiated output, aux) as MindSpore splits them: aux is ``out[1]`` or ``out[1:]``."""
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError(f"'{_AUX_MSG}'" if quoted else _AUX_MSG)
    return out[0], (out[1] if len(out) == 2 else out[1:])


def _track_struct(arg: Any, api: str) -> Tuple[Any, List[Tensor]]:
    """``arg`` (a Tensor or nested tuple/list of them) with every Tensor tracked; and those tensors."""
    if isinstance(arg, Tensor):
        call, targets = track_inputs((arg,), (0,), api)
        return call[0], targets
    if isinstance(arg, (tuple, list)):
        items, targets = [], []
        for a in arg:
            c, t = _track_struct(a, api)
            items.append(c)
            targets.extend(t)
        return type(arg)(items), targets
    return arg, []


def _finish(grads: Sequence[Optional[Tensor]], targets: Sequence[Tensor], nested: bool) -> List[Tensor]:
    """Zeros for missing gradients; own buffers when not recording."""
    seen: set = set()
    out = []
    for g, t in zip(grads, targets):
        if g is None:
            g = _zeros_like(t)
        elif not nested:
            g = _finalize(g, seen)
        out.append(g)
    return out


# ---- jvp ----------------------------------------------------------------------------------------------
def jvp(fn: Callable, inputs: Union[Tensor, Sequence[Tensor]], v: Union[Tensor, Sequence[Tensor]],
        has_aux: bool = False) -> tuple:
    """Jacobian-vector product: ``(fn(*inputs), J @ v)`` (MindSpore's ``mindspore.jvp``).

    ``inputs`` and ``v`` are a Tensor or a tuple/list of Tensors of the same length. The tangent has
    the structure of the output (a Tensor, or a tuple of Tensors). With ``has_aux`` only the first
    output is differentiated and the result is ``(out[0], tangent, aux)``, ``aux`` being ``out[1]``
    when ``fn`` returns two values and ``out[1:]`` otherwise.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
        >>> out, t = jvp(lambda a, b: a * b, (x, y), (ms.Tensor([1.0, 0.0]), ms.Tensor([0.0, 1.0])))
        >>> print(out, t)
        [3. 8.] [3. 2.]
    """
    _check_has_aux(has_aux)
    if not isinstance(inputs, (Tensor, tuple, list)) or not isinstance(v, (Tensor, tuple, list)):
        raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    args = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    vs = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(args) != len(vs):
        raise ValueError(f"v has invalid length: should be {len(args)}, but got {len(vs)}")
    for a in args + vs:
        if not isinstance(a, Tensor):
            raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
    with recording():
        nested = STATE.depth > 1
        call, targets = track_inputs(args, range(len(args)), "jvp")
        out = fn(*call)
        main, aux = _split_aux(out, has_aux, quoted=True)
        leaves = _flatten(main)
        roots = [o for o in leaves if isinstance(o, Tensor) and o._rg]
        us = []
        for r in roots:  # the dummy output gradients: the first pass is linear in them
            u = Tensor._wrap(np.ones(r._data.shape, r._data.dtype))
            u._rg = True
            us.append(u)
        tangents: List[Optional[Tensor]] = [None] * len(roots)
        if roots:
            first = gradients(roots, targets, us, create_graph=True)
            pairs = [(g, t) for g, t in zip(first, vs) if g is not None and g._rg]
            if pairs:
                tangents = gradients([g for g, _ in pairs], us, [_as_dtype(t, g) for g, t in pairs],
                                     create_graph=nested)
    by_root = {id(r): t for r, t in zip(roots, tangents)}
    result = []
    for o in leaves:
        if isinstance(o, Tensor):
            t = by_root.get(id(o))
            result.append(_zeros_like(o) if t is None else (t if nested else Tensor._wrap(t._data.copy())))
        else:
            result.append(o)
    tangent = _rebuild(main, result)
    if not nested:
        main, aux = _detach(main), _detach(aux)
    if isinstance(main, list):
        main = tuple(main)
    return (main, tangent, aux) if has_aux else (main, tangent)


def _as_dtype(t: Tensor, like: Tensor) -> Tensor:
    if t._data.dtype != like._data.dtype and like._data.dtype.kind in "fc":
        return Tensor._wrap(t._data.astype(like._data.dtype))
    return t


# ---- vjp ----------------------------------------------------------------------------------------------
def _check_tensor(items: Sequence[Any]) -> None:
    for item in items:
        if not isinstance(item, (Tensor, tuple, list)):
            raise TypeError("The inputs type must be Tensor.")


def vjp(fn: Callable, *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple:
    """Vector-Jacobian product (MindSpore's ``mindspore.vjp``): returns ``(outputs, vjp_fn)``.

    ``vjp_fn(*v)`` takes one vector per output (shaped like it) and returns a tuple with one
    gradient per input -- a tuple even for one input. With ``weights`` it returns
    ``(input_gradients, weight_gradients)`` (a single Parameter gives its gradient itself). With
    ``has_aux`` only the first output is differentiated and the result is
    ``(out[0], vjp_fn, aux)``. ``vjp_fn`` may be called several times (the graph is kept).

    Example:
        >>> import mskernel as ms
        >>> out, vjp_fn = vjp(lambda a, b: a * b, ms.Tensor([2.0]), ms.Tensor([5.0]))
        >>> print(out, vjp_fn(ms.Tensor([1.0])))
        [10.] (Tensor(shape=[1], dtype=Float32, value= [ 5.00000000e+00]), Tensor(shape=[1], dtype=Float32, \
value= [ 2.00000000e+00]))
    """
    _check_tensor(inputs)
    _check_has_aux(has_aux)
    ws = _check_weights(weights)
    raised: List[Parameter] = []
    try:
        with recording():
            nested = STATE.depth > 1
            call, targets, per_input = [], [], []
            for a in inputs:
                c, t = _track_struct(a, "vjp")
                call.append(c)
                targets.extend(t)
                per_input.append(len(t))
            for w in ws or ():
                if not w._rg and w._data.dtype.kind in "fc":
                    w._rg = True
                    raised.append(w)
            out = fn(*call)
    finally:
        for w in raised:
            w._rg = False
    main, aux = _split_aux(out, has_aux, quoted=False)
    leaves = _flatten(main)
    roots = [o for o in leaves if isinstance(o, Tensor)]
    all_targets = targets + list(ws or ())

    def vjp_fn(*v: Any) -> Any:
        _check_tensor(v)
        sens_all = _flatten(v if len(v) > 1 else v[0])
        sens = match_sens(sens_all, leaves)
        if len(sens) != len(roots):
            raise ValueError(f"For 'vjp', vjp_fn got {len(sens_all)} vectors, but the function has {len(roots)} "
                             f"outputs.")
        for w in raised:
            w._rg = True
        try:
            grads = gradients(roots, all_targets, sens, retain_graph=True, create_graph=nested)
        finally:
            for w in raised:
                w._rg = False
        full = _finish(grads, all_targets, nested)
        in_grads, k = [], 0
        for a, n in zip(inputs, per_input):
            part = full[k:k + n]
            k += n
            in_grads.append(part[0] if isinstance(a, Tensor) else _rebuild(a, list(part)))
        if ws is None:
            return tuple(in_grads)
        wg = full[k:]
        return tuple(in_grads), (wg[0] if isinstance(weights, Parameter) else tuple(wg))

    if not nested:
        main, aux = _detach(main), _detach(aux)
    return (main, vjp_fn, aux) if has_aux else (main, vjp_fn)


# ---- Jacobians ----------------------------------------------------------------------------------------
def _check_grad_position(grad_position: Any, nargs: int) -> Tuple[int, ...]:
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        pos = []
        for gp in grad_position:
            if not isinstance(gp, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if gp < 0:
                raise ValueError("The element in grad_position must be >= 0.")
            pos.append(int(gp))
        positions = tuple(pos)
    elif isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        positions = (int(grad_position),)
    else:
        raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")
    for gp in positions:
        if gp >= nargs:
            raise ValueError("The element in grad_position must belong to [0, args_num).")
    return positions


def _jacobian_of(o: Any, targets: List[Tensor], nested: bool) -> List[Tensor]:
    """d o / d target for each target, shaped ``o.shape + target.shape`` (one backward pass per element)."""
    from mskernel.ops.shape import reshape, stack  # ops sit above autograd

    if not isinstance(o, Tensor):
        o = Tensor(o)
    shape = o._data.shape
    if not o._rg:
        return [Tensor._wrap(np.zeros(shape + t._data.shape, t._data.dtype)) for t in targets]
    rows: List[List[Tensor]] = [[] for _ in targets]
    for k in range(o._data.size):
        sens = np.zeros(shape, o._data.dtype)
        sens.flat[k] = 1
        grads = gradients([o], targets, [Tensor._wrap(sens)], retain_graph=True, create_graph=nested)
        for j, (g, t) in enumerate(zip(grads, targets)):
            rows[j].append(_zeros_like(t) if g is None else g)
    out = []
    for j, t in enumerate(targets):
        if not rows[j]:  # an empty output
            out.append(Tensor._wrap(np.zeros(shape + t._data.shape, t._data.dtype)))
            continue
        if nested:
            out.append(reshape(stack(rows[j], 0), shape + t._data.shape))
        else:
            arr = np.stack([g._data for g in rows[j]]).reshape(shape + t._data.shape)
            out.append(Tensor._wrap(np.ascontiguousarray(arr)))
    return out


def _jacobian(fn: Callable, grad_position: Any, has_aux: bool, api: str) -> Callable:
    _check_has_aux(has_aux)

    def wrapped(*args: Any) -> Any:
        positions = _check_grad_position(grad_position, len(args))
        with recording():
            nested = STATE.depth > 1
            call, targets = track_inputs(args, positions, api)
            out = fn(*call)
            main, aux = _split_aux(out, has_aux, quoted=True)
            outs = _flatten(main)
            jac = [_jacobian_of(o, targets, nested) for o in outs]
        if len(outs) == 1 and len(targets) == 1:
            res: Any = jac[0][0]
        elif len(outs) == 1:
            res = tuple(jac[0])
        elif len(targets) == 1:
            res = tuple(row[0] for row in jac)
        else:
            res = tuple(tuple(row) for row in jac)
        if not has_aux:
            return res
        return res, (aux if nested else _detach(aux))
    return wrapped


def jacrev(fn: Callable, grad_position: Union[int, Tuple[int, ...]] = 0, has_aux: bool = False) -> Callable:
    """The Jacobian of ``fn`` by reverse passes (MindSpore's ``mindspore.jacrev``).

    For an output of shape ``S`` and an input of shape ``T`` the Jacobian has shape ``S + T``.
    One output and one position give a Tensor; several positions give a tuple (one per input);
    several outputs a tuple (one per output); both, a tuple per output of tuples per input.
    With ``has_aux`` it returns ``(jacobian, aux)`` for the first output.

    Example:
        >>> import mskernel as ms
        >>> print(jacrev(lambda a, b: a * b, (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))[1])
        [[1. 0.]
         [0. 2.]]
    """
    return _jacobian(fn, grad_position, has_aux, "jacrev")


def jacfwd(fn: Callable, grad_position: Union[int, Tuple[int, ...]] = 0, has_aux: bool = False) -> Callable:
    """The Jacobian of ``fn`` (MindSpore's ``mindspore.jacfwd``): the same values and structure as
    :func:`jacrev` (computed here by reverse passes as well).

    Example:
        >>> import mskernel as ms
        >>> print(jacfwd(lambda a: (a * a).sum())(ms.Tensor([1.0, 2.0])))
        [2. 4.]
    """
    return _jacobian(fn, grad_position, has_aux, "jacfwd")
