"""``vmap``: map a function over an axis of its inputs (MindSpore's ``mindspore.vmap``).

Runs ``fn`` once per index of the mapped axis on slices of the inputs and stacks the results along
``out_axes``. The slicing and stacking are recorded ops, so a vmapped function is differentiable
(and ``grad`` can be vmapped). Correctness over speed: one call of ``fn`` per batch element.

``in_axes``/``out_axes`` are an int, None, or a tuple/list with one entry per argument/output
(nesting like the arguments/outputs). An argument with axis None is passed whole to every call;
an output that does not depend on the batch (the same object every call) is broadcast along
the mapped axis. ``fn`` may be an ``nn.CellList``: cell ``i`` then handles batch element ``i``
(model ensembling), and ``in_axes`` may be None.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
    >>> print(vmap(lambda row: row.sum())(x))
    [ 3.  7. 11.]
    >>> print(vmap(lambda a, b: a * b, in_axes=(1, None))(x, ms.Tensor(2.0)))
    [[ 2.  6. 10.]
     [ 4.  8. 12.]]
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["vmap"]


def _is_cell_list(fn: Any) -> bool:
    return any(c.__name__ == "CellList" for c in type(fn).__mro__)


def _check_axis(axis: Any, where: str) -> None:
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
        raise RuntimeError(f"The axis in vmap`s '{where}' can only be of type Int or None, but got "
                           f"{type(axis).__name__} {axis!r}.")


def _norm_axis(axis: int, ndim: int, where: str) -> int:
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"The axis: {axis} in '{where}' is out of bounds for array of dimension [{-ndim},{ndim}).")
    return axis + ndim if axis < 0 else axis


def _in_sizes(arg: Any, axis: Any, sizes: List[int]) -> None:
    """Check ``axis`` against ``arg`` (recursing into tuples/lists) and collect the mapped sizes."""
    if isinstance(axis, (tuple, list)):
        if not isinstance(arg, (tuple, list)) or len(arg) != len(axis):
            raise RuntimeError(f"The axis in vmap's 'in_axes' should be a None or a scalar of type Int64Imm, but got "
                               f"a {tuple(axis)}.")
        for a, ax in zip(arg, axis):
            _in_sizes(a, ax, sizes)
        return
    _check_axis(axis, "in_axes")
    if axis is None:
        return
    if isinstance(arg, (tuple, list)):
        for a in arg:
            _in_sizes(a, axis, sizes)
        return
    if not isinstance(arg, Tensor):
        raise RuntimeError(f"The orig_abs should be AbstractTensor when corresponding axis is {axis}, but got a "
                           f"{type(arg).__name__}. Tip: Please check the correspondence between vmap's 'in_axes' and "
                           f"inputs. You may want to explicitly specify the 'in_axes' corresponding to it as None.")
    ndim = arg.ndim
    sizes.append(arg.shape[_norm_axis(axis, ndim, "in_axes")])


def _slice(arg: Any, axis: Any, i: int) -> Any:
    """Element ``i`` of ``arg`` along ``axis`` (a recorded, differentiable indexing op)."""
    if isinstance(axis, (tuple, list)):
        return type(arg)(_slice(a, ax, i) for a, ax in zip(arg, axis))
    if axis is None:
        return arg
    if isinstance(arg, (tuple, list)):
        return type(arg)(_slice(a, axis, i) for a in arg)
    ax = axis + arg.ndim if axis < 0 else axis
    return arg[(slice(None),) * ax + (i,)]


def _all_none(axes: Any) -> bool:
    if isinstance(axes, (tuple, list)):
        return all(_all_none(a) for a in axes)
    return axes is None


def _stack(results: List[Any], axis: Any) -> Any:
    """Stack the per-element results (nested like the outputs) along ``axis`` (nested like them too)."""
    first = results[0]
    if isinstance(first, (tuple, list)):
        if isinstance(axis, (tuple, list)):
            if len(axis) != len(first):
                raise RuntimeError(f"The size of vmap's 'out_axes' should be equal to the number of results of 'fn': "
                                   f"{len(first)}, but got size: {len(axis)}.")
            return tuple(_stack([r[k] for r in results], axis[k]) for k in range(len(first)))
        return tuple(_stack([r[k] for r in results], axis) for k in range(len(first)))
    if isinstance(axis, (tuple, list)):
        raise RuntimeError(f"The size of vmap's 'out_axes' should be equal to the number of results of 'fn': 1, but "
                           f"got size: {len(axis)}.")
    _check_axis(axis, "out_axes")
    if first is None or not isinstance(first, (Tensor, bool, int, float, np.ndarray, np.generic)):
        raise RuntimeError(f"The outputs of vmap's 'fn' should be consisting of tensors or constants, but got "
                           f"{type(first).__name__}.")
    same = all(r is first for r in results)
    if axis is None:
        if not same:
            raise RuntimeError("It is invalid that source is not None and dst is None.")
        return first
    from mskernel.ops.shape import stack  # ops sit above autograd

    items = [r if isinstance(r, Tensor) else Tensor(np.asarray(r, np.float32) if isinstance(r, float) else r)
             for r in results]
    ndim = items[0].ndim + 1
    return stack(items, _norm_axis(axis, ndim, "out_axes"))


def vmap(fn: Callable, in_axes: Any = 0, out_axes: Any = 0) -> Callable:
    """The batched version of ``fn``: mapped over ``in_axes`` of its arguments, results stacked along
    ``out_axes`` (see the module docstring). Lists in the outputs come back as tuples.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> x = ms.Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float32))
        >>> y = ms.Tensor(np.array([[-3, -2, -1], [3, 2, 1]], np.float32))
        >>> z = ms.Tensor(np.array([0, 3], np.float32))
        >>> print(vmap(lambda a, b, c: a + b + c, in_axes=(0, 1, None), out_axes=1)(x, y, z))
        [[-2.  1.  4.]
         [ 8.  9. 10.]]
    """

    def batched(*args: Any, **kwargs: Any) -> Any:
        cells = _is_cell_list(fn)
        if not cells and not callable(fn):
            raise RuntimeError(f"'VmapOperation' arg0 must be a 'Function' or 'Cell', but got {type(fn).__name__}.")
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise RuntimeError(f"When vmap`s 'in_axes' is a tuple or list, and its size must be equal to the "
                                   f"number of arguments of 'fn': {len(args)}, but got size: {len(in_axes)}.")
            if not cells and _all_none(in_axes):
                raise RuntimeError(f"The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a 'CellList', but "
                                   f"got {tuple(in_axes)}.")
            axes: List[Any] = list(in_axes)
        else:
            _check_axis(in_axes, "in_axes")
            if in_axes is None and not cells:
                raise RuntimeError("The 'in_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'.")
            axes = [in_axes] * len(args)
        if out_axes is None and not cells:
            raise RuntimeError("The 'out_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'.")
        sizes: List[int] = []
        for a, ax in zip(args, axes):
            _in_sizes(a, ax, sizes)
        if cells:
            sizes.insert(0, len(fn))
        for s in sizes[1:]:
            if s != sizes[0]:
                raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should be equal, but got "
                                   f"{sizes[0]} and {s}.")
        if not sizes:
            raise RuntimeError("For 'vmap', no argument is mapped: give at least one argument a non-None axis.")
        results = []
        for i in range(sizes[0]):
            f: Optional[Callable] = fn[i] if cells else fn
            out = f(*[_slice(a, ax, i) for a, ax in zip(args, axes)], **kwargs)
            results.append(out)
        return _stack(results, 0 if (cells and out_axes is None) else out_axes)
    return batched
