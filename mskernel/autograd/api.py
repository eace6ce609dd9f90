"""MindSpore's gradient API: ``grad``, ``value_and_grad``, ``GradOperation``, ``get_grad``.

Each call runs ``fn`` eagerly with the requested inputs (and weights) tracked, then one backward
pass of the engine. Calls nest: inside an outer ``grad`` the inner backward is itself recorded,
so ``grad(grad(f))`` gives second derivatives.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor(2.0, ms.float32)
    >>> print(ms.grad(lambda a: a * a)(x))
    4.0
    >>> print(ms.grad(ms.grad(lambda a: a * a * a))(x))
    12.0
"""
from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel._accel import cengine
from mskernel.autograd import hooks as hooks_module
from mskernel.autograd.hooks import apply_leaf_hooks, copy_leaf_hooks
from mskernel.autograd.node import STATE
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor

__all__ = ["grad", "value_and_grad", "GradOperation", "get_grad", "ParameterTuple", "recording", "track_inputs",
           "match_sens"]


def _check_position(grad_position: Any, weights: Any) -> Optional[Tuple[int, ...]]:
    if grad_position is None:
        if weights is None:
            raise ValueError("`grad_position` and `weight` can not be None at the same time.")
        return None
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple)):
        raise TypeError("For 'F.grad', the 'grad_position' must be int or tuple.")
    if isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        return (grad_position,)
    if not grad_position:
        raise ValueError("For 'F.grad', the 'grad_position' must not be an empty tuple.")
    for p in grad_position:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError("For 'F.grad', the element in 'grad_position' must be int, but got "
                            f"{type(p).__name__}.")
        if p < 0:
            raise ValueError("The element in grad_position must be >= 0.")
    if len(set(grad_position)) != len(grad_position):
        raise ValueError("There are duplicate positions in `grad_position`, please check it")
    return tuple(grad_position)


def _check_weights(weights: Any) -> Optional[Tuple[Parameter, ...]]:
    if weights is None:
        return None
    if isinstance(weights, Parameter):
        return (weights,)
    if isinstance(weights, (list, tuple)):
        for i, w in enumerate(weights):
            if not isinstance(w, Parameter):
                raise TypeError(f"For 'F.grad', the 'weights' must be a Parameter, a ParameterTuple or a list of "
                                f"Parameters, but weights[{i}] is {type(w).__name__}.")
        return tuple(weights)
    raise TypeError(f"For 'F.grad', the 'weights' must be a Parameter, a ParameterTuple or a list of Parameters, "
                    f"but got {type(weights).__name__}.")


def _check_fn(fn: Any, api: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{api}', the 'fn' must be callable (a function or a Cell), but got "
                        f"{type(fn).__name__}.")


def _finalize(g: Tensor, seen: set) -> Tensor:
    """A gradient the user may keep and write: its own buffer, not aliasing another returned gradient (``seen``:
    the ids of the arrays returned so far) nor anything the engine shares (a read-only or stride-0 array is
    copied). The engine core's, as grad's call uses it.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> a = np.ones(2, np.float32); a.flags.writeable = False
        >>> g = _finalize(ms.Tensor._wrap(a), set())
        >>> g.asnumpy().flags.writeable, g.asnumpy() is a
        (True, False)
    """
    return _C.finalize(g, seen)


def _outputs(out: Any, has_aux: bool) -> Tuple[List[Tensor], Any]:
    """(tensors to differentiate, aux outputs)."""
    if out.__class__ is Tensor and not has_aux:
        return [out], None
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
        first, aux = out[0], out[1:]
        roots = list(first) if isinstance(first, (tuple, list)) else [first]
    else:
        roots = list(out) if isinstance(out, (tuple, list)) else [out]
        aux = None
    leaves = _leaves(roots)
    for i, r in enumerate(leaves):
        if not isinstance(r, (Tensor, bool, int, float)):
            raise TypeError(f"For 'grad', the function's outputs must be Tensors, Python numbers or (nested) tuples "
                            f"of them, but output {i} is {type(r).__name__}.")
    return [r for r in leaves if isinstance(r, Tensor)], aux


def _leaves(items: Any) -> List[Any]:
    """Nested tuples/lists flattened in order (MindSpore PyNative differentiates every Tensor in them;
    Python numbers are constants: they add nothing to the gradient)."""
    out: List[Any] = []
    for x in items:
        if isinstance(x, (tuple, list)):
            out.extend(_leaves(x))
        else:
            out.append(x)
    return out


def _detach(out: Any) -> Any:
    if out is None:
        return None
    if isinstance(out, Tensor):
        return Tensor._wrap(out._data)
    if isinstance(out, (tuple, list)):
        return type(out)(_detach(o) for o in out)
    return out


class recording:
    """Context for running a function that will be differentiated: ops record, and a ``grad`` call
    inside counts as nested (its backward is recorded too, for higher-order gradients).

    Example:
        >>> import mskernel as ms
        >>> with ms.no_grad(), recording():
        ...     on = ms.autograd.grad_enabled()
        >>> on
        True
    """

    __slots__ = ("_prev",)

    def __enter__(self) -> "recording":
        STATE.depth += 1
        self._prev = STATE.enabled
        STATE.enabled = True
        return self

    def __exit__(self, *exc: Any) -> None:
        STATE.depth -= 1
        STATE.enabled = self._prev


def track_inputs(args: Sequence[Any], positions: Sequence[int], api: str = "grad", ints: bool = False
                 ) -> Tuple[list, List[Tensor]]:
    """``args`` with the inputs at ``positions`` replaced by tracked tensors (sharing their data), and
    those tensors (the gradient targets). An input already tracked by an outer ``grad`` is linked to
    it through an identity op, so higher-order gradients flow through.

    Example:
        >>> import mskernel as ms
        >>> call, targets = track_inputs((ms.Tensor([1.0]), 3), [0])
        >>> targets[0].requires_grad, call[1]
        (True, 3)
    """
    call = list(args)
    targets: List[Tensor] = []
    for p in positions:
        if p >= len(args):
            raise ValueError(f"For '{api}', grad_position {p} is out of range: the function was called with "
                             f"{len(args)} positional inputs.")
        a = args[p]
        if not isinstance(a, Tensor):
            raise TypeError(f"For '{api}', the input at grad_position {p} must be a Tensor, but got "
                            f"{type(a).__name__}.")
        if a._rg:
            from mskernel.ops.shape import identity  # ops sit above autograd
            t = identity(a)
        else:
            t = Tensor._wrap(a._data)
            t._rg = a.dtype.kind in "fc" or (ints and a._data.dtype.kind in "iub")
            copy_leaf_hooks(a, t)
        call[p] = t
        targets.append(t)
    return call, targets


# grad/value_and_grad track integer (and bool) inputs at their grad positions too, as MindSpore differentiates
# them: an op's rule gives such an input a gradient cast to its dtype (d(a * k)/dk = a, truncated), a Cell's
# bprop or a _Function's backward its own values (fitted to the input), and one no tracked op reaches gets zeros.
# (Ops whose outputs are integers are not recorded, so a gradient does not flow back through them.)
_TRACK_INTS = True


def _run(fn: Callable, args: tuple, kwargs: Optional[dict], positions: Optional[Tuple[int, ...]],
         weights: Optional[Tuple[Parameter, ...]], has_aux: bool, sens: Any = None
         ) -> Tuple[Any, Any, List[Tensor], List[Tensor]]:
    """Run fn with tracked inputs and weights, then the backward; returns (out, aux, input grads, weight grads).

    The steps (the engine core's ``grad_call``, ``mskernel/autograd/_cengine_calls.c``): recording on, one
    grad deeper (:class:`recording`); the inputs at ``positions`` replaced by tracked tensors sharing their
    data (:func:`track_inputs`); the weights tracked for the call; ``fn`` run and its outputs taken
    (:func:`_outputs`; with ``sens``, :func:`_sens_list` matches it to them); one backward pass
    (:func:`~mskernel.autograd.engine.gradients`, recorded too when this call is inside another grad);
    tracking and recording restored whatever happened; the leaf hooks applied, zeros for a target the
    outputs do not reach (:func:`_zeros_for`), each gradient the user's own buffer (a read-only, stride-0 or
    already returned array is copied); the output detached (unless recorded for an outer grad). Integer
    inputs at ``positions`` are tracked too (``_TRACK_INTS``).

    Example:
        >>> import mskernel as ms
        >>> out, aux, gi, gw = _run(lambda x: (x * x).sum(), (ms.Tensor([1.0, 2.0]),), None, (0,), None, False)
        >>> print(out, gi[0], gw)
        5.0 [2. 4.] []
    """
    return _C.grad_call(fn, args, kwargs or None, positions, weights, has_aux, sens, _TRACK_INTS)


def match_sens(sens_all: List[Any], outs: List[Any]) -> List[Any]:
    """The sensitivities of the Tensor outputs: a flat ``sens_all`` with one entry per (flattened) output keeps
    the Tensors' entries (Python numbers among the outputs get none); otherwise it is taken as it is.

    Example:
        >>> import mskernel as ms
        >>> match_sens([1, 2, 3], [ms.Tensor(1.0), 5, ms.Tensor(2.0)])
        [1, 3]
    """
    if len(sens_all) == len(outs):
        return [g for g, o in zip(sens_all, outs) if isinstance(o, Tensor)]
    return sens_all


def _sens_list(sens: Any, out: Any, roots: List[Tensor]) -> List[Any]:
    """The sensitivities for ``roots`` (see :func:`match_sens`), or MindSpore's error when they do not match."""
    outs = _leaves(out if isinstance(out, (tuple, list)) else [out])
    sens_list = match_sens(_leaves(sens if isinstance(sens, (tuple, list)) else [sens]), outs)
    if len(sens_list) != len(roots):
        raise ValueError(f"For 'GradOperation', sens has {len(sens_list)} items but the function has "
                         f"{len(roots)} outputs.")
    return sens_list


def _structure(positions: Optional[Tuple[int, ...]], grad_position: Any, weights: Optional[tuple],
               in_grads: List[Tensor], w_grads: List[Tensor], return_ids: bool, single_weight: bool = False) -> Any:
    if return_ids:
        in_g: Any = [(p, g) for p, g in zip(positions or (), in_grads)]
        w_g: Any = [(w.name, g) for w, g in zip(weights or (), w_grads)]
    else:
        in_g, w_g = in_grads, w_grads
    # MindSpore 2.10 (measured): one position, as an int or a 1-tuple, gives the gradient itself; so does a
    # single Parameter given as ``weights`` (a list or ParameterTuple of one stays a tuple)
    if positions is not None:
        ins = in_g[0] if len(in_g) == 1 else tuple(in_g)
    if weights is None:
        return ins
    ws = w_g[0] if single_weight else tuple(w_g)
    if positions is None:
        return ws
    return ins, ws


def _split_sens(args: tuple, sens_param: bool, api: str) -> Tuple[tuple, Any]:
    if not sens_param:
        return args, None
    if not args:
        raise ValueError(f"For '{api}', 'sens_param' is True but no sens was passed.")
    return args[:-1], args[-1]


def grad(fn: Callable, grad_position: Union[int, Tuple[int, ...], None] = 0, weights: Any = None,
         has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> Callable:
    """A function computing gradients of ``fn`` (MindSpore's ``mindspore.grad``).

    Output structure: an int ``grad_position`` gives one Tensor; a tuple gives a tuple; weights
    only give a tuple of weight gradients; both give ``(input_grads, weight_grads)``. Non-scalar
    outputs are weighted by ones; several outputs add up. ``has_aux`` differentiates only the
    first output and returns ``(gradient, aux_tuple)``. ``return_ids`` pairs each gradient with its
    position or parameter name. With ``sens_param`` the last argument of the call is the output's
    gradient (sensitivity) in place of ones.

    Example:
        >>> import mskernel as ms
        >>> f = lambda x, y: (x * y).sum()
        >>> gx, gy = ms.grad(f, grad_position=(0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
        >>> print(gx, gy)
        [3. 4.] [1. 2.]
    """
    return _grad_wrapper(fn, grad_position, weights, has_aux, return_ids, sens_param, "grad")


def value_and_grad(fn: Callable, grad_position: Union[int, Tuple[int, ...], None] = 0, weights: Any = None,
                   has_aux: bool = False, return_ids: bool = False, sens_param: bool = False) -> Callable:
    """Like :func:`grad`, returning ``(forward_output, gradients)``.

    Example:
        >>> import mskernel as ms
        >>> v, g = ms.value_and_grad(lambda x: (x * x).sum())(ms.Tensor([1.0, 2.0]))
        >>> print(v, g)
        5.0 [2. 4.]
    """
    return _grad_wrapper(fn, grad_position, weights, has_aux, return_ids, sens_param, "value_and_grad")


def _grad_wrapper(fn: Callable, grad_position: Any, weights: Any, has_aux: bool, return_ids: bool,
                  sens_param: bool, api: str) -> Callable:
    """The function ``grad`` (api "grad") or ``value_and_grad`` (api "value_and_grad") returns."""
    _check_fn(fn, api)
    positions = _check_position(grad_position, weights)
    ws = _check_weights(weights)
    single_weight = isinstance(weights, Parameter)
    grad_call = _C.grad_call

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        sens = None
        if sens_param:
            args, sens = _split_sens(args, sens_param, api)
        expanded = None
        for p in positions or ():  # a plain loop: this runs on every call, and a tuple input is rare
            if p < len(args) and isinstance(args[p], (tuple, list)):
                expanded = expand_mutable(fn, args, positions)
                break
        if expanded is None:
            out, aux, gi, gw = grad_call(fn, args, kwargs or None, positions, ws, has_aux, sens, _TRACK_INTS)
        else:
            f2, a2, p2, regroup = expanded
            out, aux, gi, gw = grad_call(f2, a2, kwargs or None, p2, ws, has_aux, sens, _TRACK_INTS)
            gi = regroup(gi)
        g = _structure(positions, grad_position, ws, gi, gw, return_ids, single_weight)
        if api == "value_and_grad":
            return out, g
        return (g, tuple(aux)) if has_aux else g
    # the names functools.wraps keeps when fn has none (a Cell): as when each API defined its own function
    wrapper.__name__, wrapper.__qualname__ = f"{api}_fn", f"{api}.<locals>.{api}_fn"
    return functools.wraps(fn)(wrapper)


def _mutable_seq(a: Any) -> bool:
    """A tuple or list of Tensors marked by ``mutable`` (MindSpore differentiates through it element-wise)."""
    return isinstance(a, (tuple, list)) and getattr(a, "__ms_mutable__", False) \
        and all(isinstance(e, Tensor) for e in a)


def expand_mutable(fn: Callable, args: tuple, positions: Optional[Tuple[int, ...]]) -> Any:
    """For inputs at ``positions`` that are ``mutable`` tuples/lists of Tensors: ``(fn', args', positions',
    regroup)``, where ``fn'`` takes their Tensors as separate inputs and ``regroup(grads)`` packs each one's
    gradients back into a tuple (MindSpore 2.10's graph-mode result, measured); None when there is none.

    Example:
        >>> import mskernel as ms
        >>> f, a, p, regroup = expand_mutable(lambda t: t[0] * t[1], (ms.mutable((ms.Tensor(2.0), ms.Tensor(3.0))),),
        ...                                   (0,))
        >>> p, regroup(["g0", "g1"])
        ((0, 1), [('g0', 'g1')])
    """
    if not positions or not any(p < len(args) and _mutable_seq(args[p]) for p in positions):
        return None
    spans = []  # per original argument: (start in the flat args, length, kind) with kind None for a plain one
    flat: List[Any] = []
    for a in args:
        if _mutable_seq(a):
            spans.append((len(flat), len(a), type(a)))
            flat.extend(a)
        else:
            spans.append((len(flat), 1, None))
            flat.append(a)

    def flat_fn(*xs: Any, **kwargs: Any) -> Any:
        rebuilt = [xs[s] if kind is None else kind(xs[s:s + n]) for s, n, kind in spans]
        return fn(*rebuilt, **kwargs)

    new_pos = tuple(q for p in positions for q in range(spans[p][0], spans[p][0] + spans[p][1]))

    def regroup(grads: Sequence[Any]) -> List[Any]:
        out, k = [], 0
        for p in positions:
            n, kind = spans[p][1], spans[p][2]
            out.append(grads[k] if kind is None else tuple(grads[k:k + n]))
            k += n
        return out
    return flat_fn, tuple(flat), new_pos, regroup


def _zeros_for(t: Tensor) -> Tensor:
    """The gradient of a target the outputs do not depend on (as :func:`_run` gives it).

    Example:
        >>> import mskernel as ms
        >>> print(_zeros_for(ms.Tensor([1.0, 2.0])))
        [0. 0.]
    """
    return Tensor._wrap(np.zeros(t._data.shape, t._data.dtype))


_C = cengine()
_C.bind_grad({"track_inputs": track_inputs, "outputs": _outputs, "sens_list": _sens_list, "detach": _detach,
              "zeros": _zeros_for, "leaf_table": hooks_module._LEAF, "apply_leaf_hooks": apply_leaf_hooks})


def get_grad(gradients: Any, identifier: Union[int, str]) -> Tensor:
    """The gradient for a position or parameter name from ``return_ids=True`` output.

    Example:
        >>> import mskernel as ms
        >>> g = ms.grad(lambda x, y: x * y, (0, 1), return_ids=True)(ms.Tensor(2.0), ms.Tensor(3.0))
        >>> print(get_grad(g, 1))
        2.0
    """
    stack = [gradients]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], (int, str)) \
                and isinstance(item[1], Tensor):
            if item[0] == identifier:
                return item[1]
            continue
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
    raise ValueError(f"For 'get_grad', the identifier {identifier!r} was not found in the gradients; pass "
                     f"return_ids=True to grad/value_and_grad.")


class GradOperation:
    """MindSpore's older gradient API: ``GradOperation(get_all, get_by_list, sens_param)(fn, weights)``.

    Example:
        >>> import mskernel as ms
        >>> g = GradOperation(get_all=True)(lambda x, y: x * y)(ms.Tensor(2.0), ms.Tensor(5.0))
        >>> print(g)
        (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 2))
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' must be a bool, but got {type(v).__name__}.")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn: Callable, weights: Any = None) -> Callable:
        _check_fn(fn, "GradOperation")
        if self.get_by_list and weights is None:
            raise ValueError("For 'GradOperation', 'weights' must be given when 'get_by_list' is True.")
        ws = _check_weights(weights) if self.get_by_list else None

        def grad_fn(*args: Any) -> Any:
            return grad_operation_call(fn, args, ws, self.get_all, self.get_by_list, self.sens_param,
                                       "GradOperation")[1]
        return grad_fn


def grad_operation_call(fn: Callable, args: tuple, weights: Optional[Tuple[Any, ...]], get_all: bool,
                        get_by_list: bool, sens_param: bool, api: str = "GradOperation") -> Tuple[Any, Any]:
    """One call of a ``GradOperation(get_all, get_by_list, sens_param)`` gradient function: ``(detached output,
    gradients)``. ``weights`` (used when ``get_by_list``) are already checked; with ``sens_param`` the last of
    ``args`` is the sensitivity. ``get_all`` differentiates every Tensor input, ``get_by_list`` the weights, both
    give ``(input grads, weight grads)``, neither the first input alone. ``api`` names the caller in errors.

    Example:
        >>> import mskernel as ms
        >>> out, (gx, gy) = grad_operation_call(lambda x, y: x * y, (ms.Tensor(2.0), ms.Tensor(5.0)), None,
        ...                                     True, False, False)
        >>> print(out, gx, gy)
        10.0 5.0 2.0
    """
    args, sens = _split_sens(args, sens_param, api)
    if get_all:
        positions: Optional[Tuple[int, ...]] = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    elif get_by_list:
        positions = None
    else:
        positions = (0,)
    expanded = expand_mutable(fn, args, positions)
    if expanded is None:
        out, _, gi, gw = _run(fn, args, {}, positions, weights if get_by_list else None, False, sens)
    else:
        fn, flat, flat_pos, regroup = expanded
        out, _, gi, gw = _run(fn, flat, {}, flat_pos, weights if get_by_list else None, False, sens)
        gi = regroup(gi)
    if get_all and get_by_list:
        return out, (tuple(gi), tuple(gw))
    if get_all:
        return out, tuple(gi)
    if get_by_list:
        return out, tuple(gw)
    return out, gi[0]
