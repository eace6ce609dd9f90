"""Op table: matrix products and linear algebra — matmul, bmm, outer, dot, einsum, kron, cross, cdist,
tensor_dot, batch_dot, addmm/baddbmm, inverse, det, matrix_power, vander.

Most are written with other ops (their gradients come from those); ``einsum``, ``inverse`` and ``det`` have
rules of their own, each written with ops so they differentiate again.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> a = ms.Tensor([[1.0, 2.0]])
    >>> print(ops.matmul(a, a.T), ops.MatMul(transpose_b=True)(a, a), ops.outer(a[0], a[0])[1])
    [[5.]] [[5.]] [2. 4.]
    >>> print(ops.einsum("ij,kj->ik", a, a), ms.grad(lambda m: ops.det(m))(ms.Tensor([[2.0, 1.0], [1.0, 4.0]])))
    [[5.]] [[ 4. -1.]
     [-1.  2.]]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops import shape as S
from mskernel.ops._core import broadcast_error, check_tensor
from mskernel.ops.opdef import F, Op


def _matmul_t(x: Any, y: Any, transpose_a: bool, transpose_b: bool) -> Any:
    """``MatMul``/``BatchMatMul``: transpose the last two dimensions first where asked.

    Example:
        >>> import mskernel as ms
        >>> print(_matmul_t(ms.Tensor([[1.0], [2.0]]), ms.Tensor([[3.0], [4.0]]), True, False))
        [[11.]]
    """
    if transpose_a:
        x = S.swapaxes(x, -1, -2)
    if transpose_b:
        y = S.swapaxes(y, -1, -2)
    return M.matmul(x, y)


def _operands(equation: str, n: int) -> tuple:
    eq = equation.replace(" ", "")
    if "..." in eq:
        raise ValueError(f"For 'Einsum', ellipses are not supported here, but got {equation!r}.")
    lhs, arrow, rhs = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != n:
        raise ValueError(f"For 'Einsum', the equation names {len(ins)} operands, but got {n}.")
    if not arrow:
        rhs = "".join(sorted(c for c in set(lhs.replace(",", "")) if lhs.count(c) == 1))
    return ins, rhs


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation over ``operands`` (explicit or implicit output; no ellipsis).

    Example:
        >>> import mskernel as ms
        >>> print(einsum("i,i->", ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))
        11.0
    """
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    ts = [check_tensor(t, "Einsum", "operands") for t in operands]
    ins, out = _operands(equation, len(ts))
    return F._einsum(ts, ",".join(ins) + "->" + out)


def _einsum_fwd(*arrays: np.ndarray, equation: str) -> np.ndarray:
    return np.asarray(np.einsum(equation, *arrays, optimize=len(arrays) > 2))


def _einsum_grad(g: Tensor, operands: tuple, equation: str) -> tuple:
    lhs, out = equation.split("->")
    ins = lhs.split(",")
    grads = []
    for i, t in enumerate(operands):
        others = [o for j, o in enumerate(operands) if j != i]
        subs = [out] + [s for j, s in enumerate(ins) if j != i]
        target = ins[i]
        missing = [c for c in dict.fromkeys(target) if c not in "".join(subs)]
        grad = F._einsum([g, *others], ",".join(subs) + "->" + "".join(c for c in target if c not in missing)) \
            if len(set(target)) == len(target) else None
        if grad is None:
            raise ValueError(f"For 'Einsum', the gradient of an operand with a repeated index ({target!r}) is not "
                             f"supported.")
        if missing:  # an index summed away inside one operand: its gradient broadcasts back
            keep = "".join(c for c in target if c not in missing)
            grad = F.broadcast_to(F.reshape(grad, tuple(t.shape[target.index(c)] if c in keep else 1
                                                         for c in target)), t.shape)
        grads.append(grad)
    return tuple(grads)


def _einsum_list(operands: Any, equation: str) -> Tensor:
    from mskernel.autograd.node import STATE, record, saved
    ts = list(operands)
    out = Tensor._wrap(_einsum_fwd(*[t._data for t in ts], equation=equation))
    if STATE.enabled and any(t._rg for t in ts):
        kept = tuple(saved(t) for t in ts)  # what the backward reads
        record("Einsum", ts, (out,), lambda d: _einsum_grad(d[0], kept, equation))
    return out


def bmm(input_x: Any, mat2: Any) -> Tensor:
    """Batched matrix product (both inputs at least 3-D; leading dimensions broadcast).

    Example:
        >>> import mskernel as ms
        >>> bmm(ms.Tensor(np.ones((2, 2, 3))), ms.Tensor(np.ones((2, 3, 1)))).shape
        (2, 2, 1)
    """
    a, b = check_tensor(input_x, "BatchMatMul", "input_x"), check_tensor(mat2, "BatchMatMul", "mat2")
    if a.ndim < 3 or b.ndim < 3:
        raise ValueError(f"For 'bmm', both inputs must be at least 3-D, but got {a.ndim}-D and {b.ndim}-D.")
    return M.matmul(a, b)


def outer(input: Any, vec2: Any) -> Tensor:
    """The outer product of two vectors.

    Example:
        >>> import mskernel as ms
        >>> outer(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0, 5.0])).shape
        (2, 3)
    """
    a, b = check_tensor(input, "outer", "input"), check_tensor(vec2, "outer", "vec2")
    return F.reshape(a, (-1, 1)) * F.reshape(b, (1, -1))


def dot(input: Any, other: Any) -> Tensor:
    """MindSpore's ``ops.dot``: contract the last axis of ``input`` with the second-to-last of ``other``
    (both at least 2-D).

    Example:
        >>> import mskernel as ms
        >>> print(dot(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0], [4.0]])))
        [[11.]]
    """
    a, b = check_tensor(input, "dot", "input"), check_tensor(other, "dot", "other")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got 'len(x1_shape)': "
                         f"({a.ndim}) and 'len(x2_shape)': ({b.ndim}).")
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))


def tensor_dot(x1: Any, x2: Any, axes: Any) -> Tensor:
    """Sum products over ``axes`` (an int: the last n of ``x1`` and first n of ``x2``; or two lists).

    Example:
        >>> import mskernel as ms
        >>> tensor_dot(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((3, 4))), 1).shape
        (2, 4)
    """
    a, b = check_tensor(x1, "tensor_dot", "x1"), check_tensor(x2, "tensor_dot", "x2")
    if isinstance(axes, (int, np.integer)):
        ax_a, ax_b = list(range(a.ndim - int(axes), a.ndim)), list(range(int(axes)))
    else:
        ax_a, ax_b = ([axes[0]] if isinstance(axes[0], int) else list(axes[0]),
                      [axes[1]] if isinstance(axes[1], int) else list(axes[1]))
        ax_a, ax_b = [x % a.ndim for x in ax_a], [x % b.ndim for x in ax_b]
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [i for i in range(b.ndim) if i not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a]))
    am = F.reshape(F.transpose(a, tuple(free_a + ax_a)), (-1, k))
    bm = F.reshape(F.transpose(b, tuple(ax_b + free_b)), (k, -1))
    return F.reshape(M.matmul(am, bm), tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def batch_dot(x1: Any, x2: Any, axes: Any = None) -> Tensor:
    """Per-batch dot products: by default the last axis of ``x1`` with the last (2-D) or second-to-last axis of
    ``x2``; 2-D results keep a trailing axis of 1, as MindSpore's.

    Example:
        >>> import mskernel as ms
        >>> print(batch_dot(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 3)))))
        [[3.]
         [3.]]
    """
    a, b = check_tensor(x1, "batch_dot", "x1"), check_tensor(x2, "batch_dot", "x2")
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1 if b.ndim == 2 else b.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    ax_a, ax_b = axes[0] % a.ndim, axes[1] % b.ndim
    letters = "abcdefghijklmnopqrstuvw"
    sa = ["z"] + [letters[i] for i in range(a.ndim - 1)]
    sb = ["z"] + [letters[10 + i] for i in range(b.ndim - 1)]
    sb[ax_b] = sa[ax_a]
    out = "z" + "".join(c for c in sa[1:] if c != sa[ax_a]) + "".join(c for c in sb[1:] if c != sa[ax_a])
    res = einsum("".join(sa) + "," + "".join(sb) + "->" + out, a, b)
    return F.reshape(res, res.shape + (1,)) if res.ndim == 1 else res


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``.

    Example:
        >>> import mskernel as ms
        >>> print(addmm(ms.Tensor([[1.0]]), ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0], [4.0]]), beta=2, alpha=0.5))
        [[7.5]]
    """
    return input * beta + M.matmul(mat1, mat2) * alpha


def baddbmm(input: Any, batch1: Any, batch2: Any, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``; 2-D ``batch1``/``batch2`` multiply as matrices (as the
    wheel accepts them).

    Example:
        >>> import mskernel as ms
        >>> baddbmm(ms.Tensor(np.zeros((1, 1, 1))), ms.Tensor(np.ones((1, 1, 2))), ms.Tensor(np.ones((1, 2, 1)))).shape
        (1, 1, 1)
    """
    both_2d = isinstance(batch1, Tensor) and isinstance(batch2, Tensor) and batch1.ndim == 2 and batch2.ndim == 2
    return input * beta + (F.matmul(batch1, batch2) if both_2d else bmm(batch1, batch2)) * alpha


def kron(input: Any, other: Any) -> Tensor:
    """The Kronecker product.

    Example:
        >>> import mskernel as ms
        >>> print(kron(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 10.0])))
        [ 1. 10.  2. 20.]
    """
    a, b = check_tensor(input, "kron", "input"), check_tensor(other, "kron", "other")
    nd = max(a.ndim, b.ndim)
    a = F.reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b = F.reshape(b, (1,) * (nd - b.ndim) + b.shape)
    ai = F.reshape(a, sum(((s, 1) for s in a.shape), ()))
    bi = F.reshape(b, sum(((1, s) for s in b.shape), ()))
    return F.reshape(ai * bi, tuple(x * y for x, y in zip(a.shape, b.shape)))


def cross(input: Any, other: Any, dim: Any = None) -> Tensor:
    """The cross product along ``dim`` (the first axis of length 3 when None).

    Example:
        >>> import mskernel as ms
        >>> print(cross(ms.Tensor([[1.0, 0, 0]]), ms.Tensor([[0, 1.0, 0]])))
        [[0. 0. 1.]]
        >>> cross(ms.Tensor([[1.0, 0, 0], [0, 0, 1.0]]), ms.Tensor([0, 1.0, 0])).shape
        (2, 3)
    """
    a, b = check_tensor(input, "cross", "input"), check_tensor(other, "cross", "other")
    if a.shape != b.shape:  # MindSpore broadcasts the operands first (a batch of vectors against one vector)
        try:
            common = tuple(np.broadcast_shapes(a.shape, b.shape))
        except ValueError:
            raise broadcast_error("Cross", a, b) from None
        a, b = F.broadcast_to(a, common), F.broadcast_to(b, common)
    if dim is None:
        dim = next((i for i, s in enumerate(a.shape) if s == 3), None)
        if dim is None:
            raise ValueError(f"For 'cross', no dimension of size 3 in the input shape {list(a.shape)}.")
    d = dim % a.ndim
    if a.shape[d] != 3:
        raise ValueError(f"For 'cross', the dimension {dim} must have size 3, but got {a.shape[d]}.")
    pick = [F.getitem(a, (slice(None),) * d + (i,)) for i in range(3)]
    qick = [F.getitem(b, (slice(None),) * d + (i,)) for i in range(3)]
    parts = [pick[1] * qick[2] - pick[2] * qick[1], pick[2] * qick[0] - pick[0] * qick[2],
             pick[0] * qick[1] - pick[1] * qick[0]]
    return F.stack(parts, d)


def cdist(x1: Any, x2: Any, p: float = 2.0) -> Tensor:
    """The p-norm distance between each row of ``x1`` and each row of ``x2`` (batched).

    Example:
        >>> import mskernel as ms
        >>> print(cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]])))
        [[5.]]
    """
    a, b = check_tensor(x1, "cdist", "x1"), check_tensor(x2, "cdist", "x2")
    diff = F.expand_dims(a, -2) - F.expand_dims(b, -3)
    # at a zero distance the norm has a kink; its gradient there is 0 (the subgradient MindSpore gives), so the
    # norm is taken of a stand-in of ones there and replaced by the zero it is
    same = F.expand_dims(F.all(diff == 0, -1), -1)
    safe = F.where(same, F.ones_like(diff), diff)
    return F.where(F.squeeze(same, -1), F.zeros_like(diff[..., 0]), F.norm(safe, float(p), dim=-1))


def _inverse_grad(g: Tensor, out: Tensor) -> tuple:
    t = F.swapaxes(out, -1, -2)
    return (-M.matmul(M.matmul(t, g), t),)


def _det_grad(g: Tensor, out: Tensor, input: Tensor) -> tuple:
    inv_t = F.swapaxes(F.inverse(input), -1, -2)
    return (F.expand_dims(F.expand_dims(g * out, -1), -1) * inv_t,)


def matrix_power(input: Any, n: int) -> Tensor:
    """``input`` multiplied by itself ``n`` times (the inverse's powers for negative ``n``).

    Example:
        >>> import mskernel as ms
        >>> print(matrix_power(ms.Tensor([[1.0, 1.0], [0.0, 1.0]]), 3))
        [[1. 3.]
         [0. 1.]]
    """
    x = check_tensor(input, "MatrixPower", "input")
    if n == 0:
        return Tensor._wrap(np.broadcast_to(np.eye(x.shape[-1], dtype=x._data.dtype), x.shape).copy())
    base = F.inverse(x) if n < 0 else x
    result = base
    for _ in range(abs(int(n)) - 1):
        result = M.matmul(result, base)
    return result


def vander(x: Any, N: Any = None) -> Tensor:
    """Columns ``x ** (N-1), ..., x ** 0`` (decreasing powers).

    Example:
        >>> import mskernel as ms
        >>> print(vander(ms.Tensor([1.0, 2.0, 3.0])))
        [[1. 1. 1.]
         [4. 2. 1.]
         [9. 3. 1.]]
    """
    t = check_tensor(x, "vander", "x")
    n = t.shape[0] if N is None else int(N)
    powers = Tensor._wrap(np.arange(n - 1, -1, -1).astype(t._data.dtype))
    return F.pow(F.reshape(t, (-1, 1)), powers)


OPS: List[Op] = [
    Op("matmul", "input, other", fn=M.matmul, inputs=2, method=("matmul", "mm"), aliases=("mm",)),
    Op("matmul_t", "x, y, transpose_a=False, transpose_b=False", fn=_matmul_t, inputs=2,
       prim=("MatMul(transpose_a=False, transpose_b=False)(x, y) -> x, y, transpose_a, transpose_b",
             "BatchMatMul(transpose_a=False, transpose_b=False)(x, y) -> x, y, transpose_a, transpose_b")),
    Op("bmm", "input_x, mat2", fn=bmm, inputs=2, method=True),
    Op("outer", "input, vec2", fn=outer, inputs=2, method=("outer", "ger"), aliases=("ger",), prim="Ger"),
    Op("dot", "input, other", fn=dot, inputs=2, method=True),
    Op("einsum", "equation, *operands", fn=einsum, inputs=0),
    Op("_einsum", "operands, equation", fn=_einsum_list, inputs=0,
       prim="Einsum(equation)(operands) -> operands, equation"),
    Op("tensor_dot", "x1, x2, axes", fn=tensor_dot, inputs=2),
    Op("batch_dot", "x1, x2, axes=None", fn=batch_dot, inputs=2),
    Op("addmm", "input, mat1, mat2, *, beta=1, alpha=1", fn=addmm, inputs=3, method=True),
    Op("baddbmm", "input, batch1, batch2, beta=1, alpha=1", fn=baddbmm, inputs=3, method=True),
    Op("kron", "input, other", fn=kron, inputs=2),
    Op("cross", "input, other, dim=None", fn=cross, inputs=2, method=True,
       prim="Cross(dim=-65530)(x1, x2) -> x1, x2, None if dim == -65530 else dim"),
    Op("cdist", "x1, x2, p=2.0", fn=cdist, inputs=2, prim="Cdist(p=2.0)(input_x, input_y) -> input_x, input_y, p"),
    Op("inverse", "input", np.linalg.inv, _inverse_grad, dtype="float", method=True),
    Op("_matrix_inverse", "x, adjoint=False",
       fn=lambda x, adjoint=False: F.inverse(F.swapaxes(x, -1, -2) if adjoint else x),  # real: adjoint = transpose
       prim="MatrixInverse(adjoint=False)(x) -> x, adjoint"),
    Op("det", "input", lambda x: np.asarray(np.linalg.det(x), x.dtype), _det_grad, dtype="float",
       prim="MatrixDeterminant", method=True),
    Op("matrix_power", "input, n", fn=matrix_power, method=True, prim="MatrixPower(n)(x) -> x, n"),
    Op("vander", "x, N=None", fn=vander),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "inverse": ("ops.inverse(ms.Tensor([[2.0, 0.0], [0.0, 4.0]]))", "[[0.5  0.  ]\n [0.   0.25]]"),
    "MatrixInverse": ("ops.MatrixInverse(adjoint=True)(ms.Tensor([[1.0, 2.0], [0.0, 4.0]]))",
                      "[[ 1.    0.  ]\n [-0.5   0.25]]"),
    "det": ("ops.det(ms.Tensor([[2.0, 1.0], [1.0, 3.0]]))", "5.0"),
    "MatMul": ("ops.MatMul(transpose_b=True)(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0, 4.0]]))", "[[11.]]"),
    "BatchMatMul": ("x, y = ms.Tensor([[[1.0, 2.0]], [[3.0, 4.0]]]), ms.Tensor([[[1.0], [1.0]], [[2.0], [0.5]]])",
                    "ops.BatchMatMul()(x, y)",
                    "[[[3.]]\n\n [[8.]]]"),
    "Ger": ("ops.Ger()(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 2.0, 3.0]))", "[[1. 2. 3.]\n [2. 4. 6.]]"),
    "Cross": ("ops.Cross(dim=0)(ms.Tensor([1, 0, 0]), ms.Tensor([0, 1, 0]))", "[0 0 1]"),
    "Cdist": ("ops.Cdist()(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]]))", "[[5.]]"),
    "MatrixPower": ("ops.MatrixPower(2)(ms.Tensor([[1.0, 1.0], [0.0, 1.0]]))", "[[1. 2.]\n [0. 1.]]"),
    "Einsum": ("ops.Einsum('ij,j->i')((ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([1.0, 1.0])))", "[3. 7.]"),
}
