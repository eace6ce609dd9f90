"""Op table: the reducing scatters — ``scatter_{update,sub,mul,div,max,min}`` (rows of a Parameter, in place),
``scatter_nd_{add,sub,mul,div,max,min,update}`` (coordinates, in place), ``tensor_scatter_{sub,mul,div,max,min}``
(a new tensor, differentiable) and ``tensor_scatter_elements``.

Every op here writes ``updates`` into flat positions of its input with one reduction (``_REDUCE``: add, sub,
mul, div, max, min or update). A position named more than once takes its updates one after the other in the
order of ``indices``, as the wheel's CPU kernels do: ``scatter_div`` of 6 by 2 and then 3 gives 1, an update
named twice keeps the last. Integer division truncates toward zero, as the wheel's.

The in-place forms change the Parameter's values and return a new Tensor holding them (the wheel returns a
Tensor, not the Parameter itself).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> p = ms.Parameter(ms.Tensor([[6.0, 6.0], [2.0, 2.0]]), name="p")
    >>> print(ops.scatter_div(p, ms.Tensor([0, 0]), ms.Tensor([[2.0, 3.0], [2.0, 3.0]])))
    [[1.5       0.6666667]
     [2.        2.       ]]
    >>> print(ops.tensor_scatter_max(ms.Tensor([4.0, 4.0]), ms.Tensor([[0], [0]]), ms.Tensor([5.0, 7.0])))
    [7. 4.]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.index import _axis1, _ints, _scatter_into
from mskernel.ops.table.rearrange import _index


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "iu":  # C's integer division: toward zero
        q = np.abs(a) // np.abs(b)
        return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return a / b


#: the reductions, each ``(old values, update) -> new values``
_REDUCE: Dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _div, "max": np.maximum, "min": np.minimum,
    "update": lambda a, b: b,
}


def apply_at(flat: np.ndarray, dest: np.ndarray, upd: np.ndarray, kind: str) -> None:
    """Reduce ``upd`` into ``flat`` at the flat positions ``dest``, in place; a position named twice takes its
    updates in order.

    Example:
        >>> a = np.array([6.0, 1.0]); apply_at(a, np.array([0, 0]), np.array([2.0, 3.0]), "div"); a
        array([1., 1.])
    """
    dest, upd = dest.reshape(-1), upd.reshape(-1).astype(flat.dtype, copy=False)
    if not dest.size:
        return
    order = np.argsort(dest, kind="stable")
    s = dest[order]
    start = np.r_[0, np.flatnonzero(s[1:] != s[:-1]) + 1]
    rank = np.empty(dest.size, np.int64)
    rank[order] = np.arange(dest.size) - np.repeat(start, np.diff(np.r_[start, dest.size]))
    fn = _REDUCE[kind]
    for r in range(int(rank.max()) + 1):  # the r-th update of every position at once
        sel = rank == r
        d = dest[sel]
        flat[d] = fn(flat[d], upd[sel])


def _shape(s: Tuple[int, ...]) -> str:
    return f"({', '.join(str(int(n)) for n in s)})"


def _updates(updates: Any, x: Tensor, op: str) -> np.ndarray:
    u = check_tensor(updates, op, "updates")._data
    return u.astype(x._data.dtype, copy=False)


def _row_dest(x: Tensor, indices: Any, u: np.ndarray, op: str) -> np.ndarray:
    idx = _ints(indices, op, "indices")
    if u.shape != idx.shape + x.shape[1:]:
        raise ValueError(f"For {op}, updates_shape = indices_shape + input_x_shape[1:], but got input_x_shape: "
                         f"{_shape(x.shape)}, indices_shape: {_shape(idx.shape)}, updates_shape: {_shape(u.shape)}.")
    n = x.shape[0]
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        raise RuntimeError(f"For '{op}', the value of indices should be in [0, {n}), but got '{int(idx[bad][0])}' "
                           "in indices.")
    return _index(x.shape)[idx]


def _nd_dest(shape: Tuple[int, ...], idx: np.ndarray, u_shape: Tuple[int, ...], op: str) -> np.ndarray:
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim == 0 or k > len(shape) or tuple(u_shape) != idx.shape[:-1] + tuple(shape[k:]):
        raise ValueError(f"For {op}, updates_shape = indices_shape[:-1] + x_shape[indices_shape[-1]:], but got "
                         f"x_shape: {_shape(shape)}, indices_shape: {_shape(idx.shape)}, updates_shape: "
                         f"{_shape(u_shape)}.")
    rows = idx.reshape(-1, k)
    bad = ((rows < 0) | (rows >= np.asarray(shape[:k], np.int64))).any(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])  # the wheel counts the position in the flat indices
        raise RuntimeError(f"For '{op}', the {i * k}-th value of 'indices'[{', '.join(str(int(c)) for c in rows[i])}] "
                           f"is out of range[{', '.join(str(int(n)) for n in shape[:k])}].")
    return _index(shape)[tuple(idx[..., j] for j in range(k))]


def _in_place(x: Tensor, dest: np.ndarray, u: np.ndarray, kind: str) -> Tensor:
    flat = x._data.reshape(-1).copy()
    apply_at(flat, dest, u, kind)
    x._data[...] = flat.reshape(x.shape)
    x._version += 1
    return Tensor._wrap(x._data.copy())


def _row_scatter(kind: str, op: str) -> Callable:
    def fn(input_x: Any, indices: Any, updates: Any) -> Tensor:
        x = check_tensor(input_x, op, "input_x")
        u = _updates(updates, x, op)
        return _in_place(x, _row_dest(x, indices, u, op), u, kind)
    fn.__name__ = fn.__qualname__ = "scatter_" + kind
    fn.__doc__ = (f"Reduce (``{kind}``) ``updates`` into the rows ``indices`` of the Parameter ``input_x`` in place, "
                  "a row named twice taking its updates in order; return the new values.")
    return fn


def _nd_scatter(kind: str, op: str) -> Callable:
    def fn(input_x: Any, indices: Any, updates: Any, use_locking: bool = False) -> Tensor:
        x = check_tensor(input_x, op, "input_x")
        u = _updates(updates, x, op)
        return _in_place(x, _nd_dest(x.shape, _ints(indices, op, "indices"), u.shape, op), u, kind)
    fn.__name__ = fn.__qualname__ = "scatter_nd_" + kind
    fn.__doc__ = (f"Reduce (``{kind}``) ``updates`` into the Parameter ``input_x`` in place at ``indices`` "
                  "(coordinates in their last axis); return the new values.")
    return fn


def _tensor_scatter(kind: str, op: str) -> Callable:
    def forward(input_x: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        if indices.dtype.kind not in "iu":
            raise TypeError(f"For primitive[{op}], the input argument[indices type] must be a type of "
                            f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{mstype.to_dtype(indices.dtype)}].")
        if updates.dtype != input_x.dtype:
            raise TypeError(f"For primitive[{op}], the input type must be same.\n"
                            f"name:[input_x]:Tensor[{mstype.to_dtype(input_x.dtype)}].\n"
                            f"name:[updates]:Tensor[{mstype.to_dtype(updates.dtype)}].")
        out = input_x.reshape(-1).copy()
        apply_at(out, _nd_dest(input_x.shape, indices.astype(np.int64), updates.shape, op), updates, kind)
        return out.reshape(input_x.shape)
    return forward


def _mask(a: Tensor, b: Tensor, like: Tensor) -> Tensor:
    return F.cast(F.equal(a, b), like.dtype)


def _extreme_backward(g: Tensor, out: Tensor, input_x: Tensor, indices: Tensor, updates: Tensor) -> tuple:
    """The gradient of tensor_scatter_max/min goes to those of the old value and the updates the output equals,
    shared equally among them when several are (as the wheel's)."""
    mx, mu = _mask(input_x, out, g), _mask(updates, F.gather_nd(out, indices), g)
    share = g / F.tensor_scatter_add(mx, indices, mu)
    return share * mx, None, F.gather_nd(share, indices) * mu


def tensor_scatter_elements(input_x: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none") -> Tensor:
    """``input_x`` with ``updates[i][j]`` written (``reduction='add'``: added) at ``[i][indices[i][j]]`` along ``axis``.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(tensor_scatter_elements(x, ms.Tensor([[1, 0]]), ms.Tensor([[8.0, 9.0]]), 1, "add"))
        [[10. 10.]
         [ 3.  4.]]
    """
    op = "TensorScatterElements"
    if reduction not in ("none", "add"):
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduce' of '{op}' to enum.")
    x = check_tensor(input_x, op, "input_x")
    ax = _axis1(axis, x.ndim, op)
    idx = _ints(indices, op, "indices")
    n = x.shape[ax]
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise RuntimeError(f"For '{op}', the value of 'indices' must be in [-{n}, {n}), but got {int(idx[bad][0])}.")
    coords = list(np.indices(idx.shape))
    coords[ax] = idx % n
    u = check_tensor(updates, op, "updates")
    if u.shape != idx.shape:
        u = F.getitem(u, tuple(slice(0, k) for k in idx.shape))
    return _scatter_into(x, _index(x.shape)[tuple(coords)], u, reduction == "add", op)


def _scatter_add_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.scatter_add(indices, updates)`` (``tensor_scatter_add``), or torch's ``x.scatter_add(dim, index, src)``
    (``tensor_scatter_elements`` adding), both of which MindSpore's Tensor takes.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.scatter_add(ms.Tensor([[0, 1]]), ms.Tensor([5.0])), x.scatter_add(1, ms.Tensor([[0, 0]]),
        ...       ms.Tensor([[1.0, 2.0]])))
        [[1. 7.]
         [3. 4.]] [[4. 2.]
         [3. 4.]]
    """
    if "dim" in kwargs or (args and isinstance(args[0], (int, np.integer)) and not isinstance(args[0], bool)):
        names = ("dim", "index", "src")
        kw = {**dict(zip(names, args)), **kwargs}
        return tensor_scatter_elements(self, kw["index"], kw["src"], kw["dim"], "add")
    return F.tensor_scatter_add(self, *args, **kwargs)


def _scatter_add_inplace(self: Tensor, dim: int, index: Any, src: Any) -> Tensor:
    """``x.scatter_add_(dim, index, src)``: torch's scatter_add, in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); _ = x.scatter_add_(0, ms.Tensor([1, 1]), ms.Tensor([5.0, 5.0])); print(x)
        [ 1. 12.]
    """
    from mskernel.ops.inplace import inplace_update
    return inplace_update(self, tensor_scatter_elements(self, index, src, dim, "add"), "scatter_add_")


METHODS = {"scatter_add": _scatter_add_method, "scatter_add_": _scatter_add_inplace}

_T3 = "input_x, indices, updates"

OPS: List[Op] = [
    # ops.scatter_sub is no MindSpore function: its entry only gives ScatterSub
    *[Op(name, _T3, fn=_row_scatter(k, p), inputs=0, prim=f"{p}(use_locking={lock})({_T3}) -> {_T3}")
      for name, k, p, lock in (("scatter_update", "update", "ScatterUpdate", True),
                               ("scatter_mul", "mul", "ScatterMul", False), ("scatter_div", "div", "ScatterDiv", False),
                               ("scatter_max", "max", "ScatterMax", False), ("scatter_min", "min", "ScatterMin", False),
                               ("_scatter_sub", "sub", "ScatterSub", False))],
    *[Op(f"scatter_nd_{k}", _T3 + ", use_locking=False", fn=_nd_scatter(k, p), inputs=0,
         prim=f"{p}(use_locking={lock})({_T3}) -> {_T3}")
      for k, p, lock in (("add", "ScatterNdAdd", False), ("sub", "ScatterNdSub", False),
                         ("mul", "ScatterNdMul", False), ("div", "ScatterNdDiv", False),
                         ("max", "ScatterNdMax", False), ("min", "ScatterNdMin", False),
                         ("update", "ScatterNdUpdate", True))],
    Op("tensor_scatter_sub", _T3, _tensor_scatter("sub", "TensorScatterSub"),
       lambda g, indices: (g, None, -F.gather_nd(g, indices)), inputs=3, prim="TensorScatterSub", method="scatter_sub"),
    Op("tensor_scatter_mul", _T3, _tensor_scatter("mul", "TensorScatterMul"),
       lambda g, input_x, indices, updates: (F.tensor_scatter_mul(g, indices, updates), None,
                                             F.gather_nd(g * input_x, indices)),
       inputs=3, prim="TensorScatterMul", method="scatter_mul"),
    Op("tensor_scatter_div", _T3, _tensor_scatter("div", "TensorScatterDiv"),
       lambda g, input_x, indices, updates: (F.tensor_scatter_div(g, indices, updates), None,
                                             -F.gather_nd(g * input_x, indices) / (updates * updates)),
       inputs=3, prim="TensorScatterDiv", method="scatter_div"),
    Op("tensor_scatter_max", _T3, _tensor_scatter("max", "TensorScatterMax"), _extreme_backward,
       inputs=3, prim="TensorScatterMax", method="scatter_max"),
    Op("tensor_scatter_min", _T3, _tensor_scatter("min", "TensorScatterMin"), _extreme_backward,
       inputs=3, prim="TensorScatterMin", method="scatter_min"),
    Op("tensor_scatter_elements", _T3 + ", axis=0, reduction='none'", fn=tensor_scatter_elements,
       prim="TensorScatterElements(axis=0, reduction='none')(data, indices, updates) -> data, indices, updates, "
            "axis, reduction"),
]

_P = "p = ms.Parameter(ms.Tensor([[6.0, 6.0], [2.0, 2.0]]), name='p')"
_I = "i = ms.Tensor([[0, 0], [1, 1]])"
_X = "x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])"

#: the examples, by op or primitive name (see mskernel.ops.table)
EXAMPLES = {
    "scatter_update": (_P, "ops.scatter_update(p, ms.Tensor([1, 1]), ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))",
                       "[[6. 6.]\n [3. 4.]]"),
    "scatter_mul": (_P, "ops.scatter_mul(p, ms.Tensor([0, 0]), ms.Tensor([[2.0, 3.0], [2.0, 3.0]]))",
                    "[[24. 54.]\n [ 2.  2.]]"),
    "scatter_div": (_P, "ops.scatter_div(p, ms.Tensor([0, 1]), ms.Tensor([[2.0, 3.0], [2.0, 4.0]]))",
                    "[[3.  2. ]\n [1.  0.5]]"),
    "scatter_max": (_P, "ops.scatter_max(p, ms.Tensor([1]), ms.Tensor([[1.0, 5.0]]))", "[[6. 6.]\n [2. 5.]]"),
    "scatter_min": (_P, "ops.scatter_min(p, ms.Tensor([1]), ms.Tensor([[1.0, 5.0]]))", "[[6. 6.]\n [1. 2.]]"),
    "ScatterSub": (_P, "ops.ScatterSub()(p, ms.Tensor([1, 1]), ms.Tensor([[1.0, 2.0], [1.0, 2.0]]))",
                    "[[ 6.  6.]\n [ 0. -2.]]"),
    "scatter_nd_add": (_P, _I, "ops.scatter_nd_add(p, i, ms.Tensor([1.0, 2.0]))", "[[7. 6.]\n [2. 4.]]"),
    "scatter_nd_sub": (_P, _I, "ops.scatter_nd_sub(p, i, ms.Tensor([1.0, 2.0]))", "[[5. 6.]\n [2. 0.]]"),
    "scatter_nd_mul": (_P, _I, "ops.scatter_nd_mul(p, i, ms.Tensor([2.0, 3.0]))", "[[12.  6.]\n [ 2.  6.]]"),
    "scatter_nd_div": (_P, _I, "ops.scatter_nd_div(p, i, ms.Tensor([2.0, 4.0]))", "[[3.  6. ]\n [2.  0.5]]"),
    "scatter_nd_max": (_P, _I, "ops.scatter_nd_max(p, i, ms.Tensor([9.0, 1.0]))", "[[9. 6.]\n [2. 2.]]"),
    "scatter_nd_min": (_P, _I, "ops.scatter_nd_min(p, i, ms.Tensor([9.0, 1.0]))", "[[6. 6.]\n [2. 1.]]"),
    "scatter_nd_update": (_P, "ops.scatter_nd_update(p, ms.Tensor([[1]]), ms.Tensor([[0.0, 1.0]]))",
                          "[[6. 6.]\n [0. 1.]]"),
    "tensor_scatter_sub": (_X, _I, "ops.tensor_scatter_sub(x, i, ms.Tensor([1.0, 1.0]))", "[[0. 2.]\n [3. 3.]]"),
    "tensor_scatter_mul": (_X, _I, "ops.tensor_scatter_mul(x, i, ms.Tensor([5.0, 2.0]))", "[[5. 2.]\n [3. 8.]]"),
    "tensor_scatter_div": (_X, _I, "ops.tensor_scatter_div(x, i, ms.Tensor([2.0, 8.0]))",
                           "[[0.5 2. ]\n [3.  0.5]]"),
    "tensor_scatter_max": (_X, _I, "ops.tensor_scatter_max(x, i, ms.Tensor([5.0, 2.0]))", "[[5. 2.]\n [3. 4.]]"),
    "tensor_scatter_min": (_X, _I, "ops.tensor_scatter_min(x, i, ms.Tensor([5.0, 2.0]))", "[[1. 2.]\n [3. 2.]]"),
}
# the primitives with constructor attributes are called as their functional op is: the same examples
for _op in OPS:
    if _op.name in EXAMPLES and isinstance(_op.prim_spec, str) and "(use_locking" in _op.prim_spec:
        *_setup, _expr, _shown = EXAMPLES[_op.name]
        EXAMPLES[_op.prim_name] = (*_setup, _expr.replace(f"ops.{_op.name}(", f"ops.{_op.prim_name}()("), _shown)
EXAMPLES["TensorScatterElements"] = (
    _X, "ops.TensorScatterElements(1, 'none')(x, ms.Tensor([[1, 1]]), ms.Tensor([[8.0, 9.0]]))",
    "[[1. 9.]\n [3. 4.]]")
