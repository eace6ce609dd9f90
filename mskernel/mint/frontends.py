"""``mindspore.mint``'s functions as front ends of the op table: one line per name.

Each :class:`~mskernel.ops.opdef.Front` line gives mint's own signature (as the 2.10 wheel's ``inspect.signature``
has it; for an overloaded function, the general form of the calls its error message lists) and the one call of
the op table's functional ops that computes it. The rule (forward, backward, dtype rule, errors) stays the
table entry's; the line only renames (``dim`` for ``axis``, ``correction`` for ``ddof``), reorders and fills
mint's defaults. A few adapters below (``HELPERS``) handle what one call cannot say: mint's overloads
(``max(input)``, ``max(input, dim)``, ``max(input, other)``), int64 indices where the table's entry gives int32,
``alpha``/``beta`` scaling, ``inplace=True``. :mod:`mskernel.ops.registry` builds the functions
(:func:`~mskernel.ops.registry.front_ends`); :mod:`mskernel.mint` and its submodules hold them.

mint names whose computation the op table does not have are not here: the compatibility page lists them as
missing.

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> x = ms.Tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> print(mint.sum(x, dim=1, keepdim=True), mint.max(x, 1)[1], mint.std(x))
    [[-1.]
     [ 7.]] [0 1] 2.6457512
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.mint.examples import EXAMPLES
from mskernel.ops.inplace import inplace_update
from mskernel.ops.opdef import F, Front
from mskernel.mint.batch_norm_parts import (_batch_norm_elemt, _batch_norm_gather_stats_with_counts,  # noqa: F401
                                           _batch_norm_stats)

__all__ = ["MINT", "NN_FUNCTIONAL", "SPECIAL", "LINALG", "HELPERS", "EXAMPLES", "front_end_examples"]


# -- adapters: what one call of the table cannot say --------------------------------------------------------------
def _scaled(value: Any, factor: Any) -> Any:
    """``value * factor``, or ``value`` itself for a factor of 1 (mint's ``alpha=``, ``beta=``)."""
    if isinstance(factor, (int, float)) and not isinstance(factor, bool) and factor == 1:
        return value
    return F.mul(value, factor) if isinstance(value, Tensor) or isinstance(factor, Tensor) else value * factor


def _i64(pair: Any) -> Any:
    """(values, indices) with int64 indices, as mint gives them (some table entries give int32)."""
    values, indices = pair
    return values, F.cast(indices, mstype.int64)


def _as_i64(t: Tensor) -> Tensor:
    return F.cast(t, mstype.int64)


def _extreme(name: str, input: Any, dim: Any, keepdim: bool, other: Any) -> Any:
    """mint's ``max``/``min`` overloads: ``(input)`` the extreme of all elements; ``(input, dim, keepdim=False)``
    (values, int64 indices); ``(input, other)`` the elementwise extreme."""
    if isinstance(dim, Tensor):
        dim, other = None, dim
    if other is not None:
        return getattr(F, "maximum" if name == "max" else "minimum")(input, other)
    if dim is None:
        return getattr(F, name)(input)[0]
    return _i64(getattr(F, name)(input, dim, keepdim))


def _median(input: Any, dim: Any, keepdim: bool) -> Any:
    """``median(input)``: the lower median of all elements; ``median(input, dim)``: (values, int64 indices)."""
    if dim is None:
        return F.median(F.reshape(input, (-1,)), 0)[0]
    return _i64(F.median(input, dim, keepdim))


def _where(condition: Any, input: Any, other: Any) -> Any:
    """``where(condition)`` is ``nonzero(condition, as_tuple=True)``; with ``input`` and ``other`` it selects."""
    if input is None and other is None:
        return F.nonzero(condition, as_tuple=True)
    return F.where(condition, input, other)


def _diag(input: Any, diagonal: int) -> Any:
    """A 1-D input becomes the matrix with it on the ``diagonal``-th diagonal; a 2-D input gives that diagonal."""
    return F.diag_embed(input, diagonal) if input.ndim == 1 else F.diagonal(input, diagonal)


def _t(input: Any) -> Any:
    return F.swapaxes(input, 0, 1) if input.ndim == 2 else input


def _select(input: Any, dim: int, index: int) -> Any:
    key = (slice(None),) * (dim % input.ndim) + (index,)
    return F.getitem(input, key)


def _unique(input: Any, sorted: bool, return_inverse: bool, return_counts: bool, dim: Any) -> Any:
    """The table's ``unique`` (first-appearance order, with the inverse), sorted as mint sorts, with counts."""
    if dim is not None:
        raise ValueError("For 'mint.unique', mskernel supports only dim=None (the unique elements of the flattened "
                         "input).")
    values, inverse = F.unique(F.reshape(input, (-1,)))
    if sorted:
        values, order = F.sort(values)
        rank = F.argsort(order)
        inverse = F.gather(rank, inverse, 0)
    out = [values]
    if return_inverse:
        out.append(_as_i64(F.reshape(inverse, input.shape)))
    if return_counts:
        out.append(_as_i64(F.bincount(inverse, None, values.shape[0])))
    return out[0] if len(out) == 1 else tuple(out)


def _norm(input: Any, p: Any, dim: Any, keepdim: bool, dtype: Any) -> Any:
    """mint's ``norm``: a number ``p`` is a vector norm (of the flattened input when ``dim`` is None); ``"fro"`` the
    2-norm; ``"nuc"`` the nuclear norm of matrices."""
    if p == "fro":
        p = None if dim is not None and not isinstance(dim, int) else 2
    if dim is None and p != "nuc":
        input = F.reshape(input, (-1,))
    return F.norm(input, p, dim, keepdim, dtype=dtype)


def _vector_norm(x: Any, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Any:
    if dim is None:
        out = F.norm(F.reshape(x, (-1,)), ord, 0, False, dtype=dtype)
        return F.reshape(out, (1,) * x.ndim) if keepdim else out
    return F.norm(x, ord, dim, keepdim, dtype=dtype)


def _implicit_dim(input: Any, dim: Optional[int]) -> int:
    """softmax's dimension when none is given: 0 for 0-, 1- and 3-D inputs, else 1 (the torch convention mint
    follows)."""
    return (0 if input.ndim in (0, 1, 3) else 1) if dim is None else dim


def _cast(t: Tensor, dtype: Any) -> Tensor:
    return t if dtype is None else F.cast(t, dtype)


def _allclose(input: Any, other: Any, rtol: float, atol: float, equal_nan: bool) -> bool:
    """mint's ``allclose``: one Python bool, whether every element is close."""
    return bool(np.all(F.isclose(input, other, rtol, atol, equal_nan)._data))


def _equal(input: Any, other: Any) -> bool:
    """mint's ``equal``: one Python bool, whether both have the same shape and elements."""
    return tuple(input.shape) == tuple(other.shape) and bool(np.all(F.equal(input, other)._data))


def _inplace(input: Tensor, result: Tensor, inplace: bool, name: str) -> Tensor:
    """mint's ``inplace=True``: the result written into ``input``."""
    return inplace_update(input, result, name) if inplace else result


def _conv(fn: Any, input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any,
          groups: int) -> Any:
    """mint's ``padding``: a string is MindSpore's ``pad_mode``, a number or tuple pads (``pad_mode="pad"``)."""
    if isinstance(padding, str):
        return fn(input, weight, bias, stride, padding, 0, dilation, groups)
    return fn(input, weight, bias, stride, "pad", padding, dilation, groups)


def _adaptive_max_pool1d(input: Any, output_size: int, return_indices: bool) -> Any:
    """mint's ``adaptive_max_pool1d``: torch's regions (no divisibility needed), the indices on request."""
    from mskernel.ops._core import check_tensor
    from mskernel.ops.table.nn_pool3d import _adaptive_max_nd
    x = check_tensor(input, "AdaptiveMaxPool1D", "input")
    return _adaptive_max_nd(x, output_size, 1, return_indices, "AdaptiveMaxPool1D")


def _fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> Any:
    """mint's ``fold``: ``output_size`` an int or a pair (not a Tensor); (C * k, L) or (N, C * k, L) input."""
    from mskernel.ops.table import nn_fold
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    batched = input if input.ndim == 3 else F.expand_dims(input, 0)
    out = nn_fold.fold(batched, Tensor(list(size)), kernel_size, dilation, padding, stride)
    return out if input.ndim == 3 else F.squeeze(out, 0)


def _unfold(input: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> Any:
    """mint's ``unfold``: (C, H, W) or (N, C, H, W) input."""
    batched = input if input.ndim == 4 else F.expand_dims(input, 0)
    out = F.unfold(batched, kernel_size, dilation, padding, stride)
    return out if input.ndim == 4 else F.squeeze(out, 0)


def _threshold(input: Any, threshold: Any, value: Any) -> Any:
    """``ops.threshold`` for the front ends whose parameter ``threshold`` hides the op's name."""
    return F.threshold(input, threshold, value)


def _one_hot(tensor: Any, num_classes: int) -> Any:
    if num_classes == -1:
        num_classes = int(F.amax(tensor, ()).asnumpy()) + 1
    return F.one_hot(tensor, num_classes, Tensor(1, mstype.int64), Tensor(0, mstype.int64))


def _kl_div(input: Any, target: Any, reduction: str, log_target: bool) -> Any:
    """The pointwise ``target * (log(target) - input)`` (``exp(target) * (target - input)`` for a log target),
    reduced; ``"mean"`` averages over every element, ``"batchmean"`` over the first dimension."""
    if log_target:
        target = F.exp(target)
    if reduction == "mean":
        return F.mean(F.kl_div(input, target, "none"))
    return F.kl_div(input, target, reduction)


def _fill_dtype(fill_value: Any, dtype: Any) -> Any:
    """mint.full's dtype: the one given, else the fill value's own (Bool, Int64, Float32 or a Tensor's), where
    ops.full would make Int64."""
    if dtype is not None:
        return dtype
    if isinstance(fill_value, Tensor):
        return fill_value.dtype
    if isinstance(fill_value, bool):
        return mstype.bool_
    return mstype.int64 if isinstance(fill_value, int) else mstype.float32


def _normalize(input: Any, p: float, dim: int, eps: float) -> Any:
    return F.div(input, F.clamp(F.norm(input, p, dim, True), eps))


def _linear(input: Any, weight: Any, bias: Any) -> Any:
    out = F.matmul(input, F.swapaxes(weight, 0, 1) if weight.ndim == 2 else weight)
    return out if bias is None else F.add(out, bias)


def _dropout(input: Any, p: float, training: bool, inplace: bool) -> Any:
    if not training or p == 0:
        return input
    return _inplace(input, F.dropout(input, p, True), inplace, "dropout")


def _pad(input: Any, pad: Any, mode: str, value: Any) -> Any:
    """The table's ``pad`` (mint's parameter of the same name hides it in a one-line call)."""
    return F.pad(input, pad, mode, value)


def _flatten(input: Any, start_dim: int, end_dim: int) -> Any:
    return F.flatten(input, start_dim=start_dim, end_dim=end_dim)


def _conv_tbc(input: Any, weight: Any, bias: Any, pad: int) -> Any:
    """torch's time-batch-channel convolution: ``input`` (T, B, Cin), ``weight`` (K, Cin, Cout), ``bias`` (Cout,),
    ``pad`` zeros at both ends of T; conv1d on the permuted axes."""
    for name, t, rank in (("input", input, 3), ("weight", weight, 3), ("bias", bias, 1)):
        if not isinstance(t, Tensor) or t.ndim != rank:
            raise ValueError(f"For 'conv_tbc', the '{name}' must be a {rank}-D Tensor, but got "
                             f"{getattr(t, 'shape', type(t).__name__)}.")
    y = F.conv1d(F.permute(input, (1, 2, 0)), F.permute(weight, (2, 1, 0)), None, 1, "pad", pad)
    return F.add(F.permute(y, (2, 0, 1)), bias)


#: the adapters above, by name: the names a front end's call may use besides the table's functional ops
HELPERS: Dict[str, Any] = {name: value for name, value in globals().items() if name.startswith("_") and callable(value)
                           and getattr(value, "__module__", None) == __name__}
HELPERS.update({f.__name__: f for f in (_batch_norm_stats, _batch_norm_elemt, _batch_norm_gather_stats_with_counts)})

# -- mindspore.mint -------------------------------------------------------------------------------------------------
_UNARY = ("abs acos acosh asin asinh atan atanh ceil cos cosh erf erfc erfinv exp exp2 expm1 floor frac isfinite isinf "
          "log log10 log1p log2 logical_not neg negative ravel reciprocal rsqrt sigmoid sign sin sinh sqrt square tan "
          "tanh trunc inverse bitwise_not").split()
_ALIAS = {"arccos": "acos", "arccosh": "acosh", "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh",
          "fix": "trunc", "clone": "identity"}
_BINARY = ("atan2 bitwise_and bitwise_or bitwise_xor fmod floor_divide logical_and logical_or logical_xor maximum "
           "minimum remainder xlogy").split()
_CMP = {"eq": "equal", "ne": "not_equal", "not_equal": "not_equal", "gt": "greater", "greater": "greater",
        "ge": "greater_equal", "greater_equal": "greater_equal", "lt": "less", "less": "less", "le": "less_equal",
        "less_equal": "less_equal"}

MINT: List[Front] = [Front(n, "input") for n in _UNARY] + [
    Front(n, "input", f"{op}(input)") for n, op in _ALIAS.items()] + [
    Front("arcsin", "x", "asin(x)"),
    Front("isnan", "tensor", "isnan(tensor)")] + [Front(n, "input, other") for n in _BINARY] + [
    Front("arctan2", "input, other", "atan2(input, other)")] + [
    Front(n, "input, other", f"{op}(input, other)") for n, op in _CMP.items()] + [
    # arithmetic
    Front("add", "input, other, *, alpha=1", "add(input, _scaled(other, alpha))"),
    Front("sub", "input, other, *, alpha=1", "sub(input, _scaled(other, alpha))"),
    Front("mul", "input, other"),
    Front("pow", "input, exponent"),
    Front("div", "input, other, *, rounding_mode=None"),
    Front("divide", "input, other, *, rounding_mode=None", "div(input, other, rounding_mode=rounding_mode)"),
    Front("lerp", "input, end, weight"),
    Front("logaddexp", "input, other"),
    Front("addbmm", "input, batch1, batch2, *, beta=1, alpha=1",
          "addbmm(input, batch1, batch2, beta=beta, alpha=alpha)"),
    Front("addmv", "input, mat, vec, *, beta=1, alpha=1", "addmv(input, mat, vec, beta=beta, alpha=alpha)"),
    Front("addr_", "input, vec1, vec2, beta=1, alpha=1",
          "_inplace(input, addr(input, vec1, vec2, beta=beta, alpha=alpha), True, 'addr_')"),
    Front("vdot", "input, other", "vecdot(input, other, axis=0)"),
    Front("triangular_solve", "b, A, upper=True, transpose=False, unitriangular=False"),
    Front("histc", "input, bins=100, min=0, max=0"),
    Front("kthvalue", "input, k, dim=-1, keepdim=False", "_kthvalue(input, k, dim, keepdim)"),
    Front("allclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False",
          "_allclose(input, other, rtol, atol, equal_nan)"),
    Front("equal", "input, other", "_equal(input, other)"),
    Front("diff", "input, n=1, dim=-1, prepend=None, append=None", "diff_ext(input, n, dim, prepend, append)"),
    Front("logaddexp2", "input, other"),
    Front("rand", "*size, generator=None, dtype=None, device=None",
          "_rand_ext(*size, generator=generator, dtype=dtype)"),
    Front("randn", "*size, generator=None, dtype=None, device=None",
          "_randn_ext(*size, generator=generator, dtype=dtype)"),
    Front("rand_like", "input, *, dtype=None, device=None", "_rand_like_ext(input, dtype=dtype)"),
    Front("randn_like", "input, *, dtype=None, device=None", "_randn_like_ext(input, dtype=dtype)"),
    Front("randint", "*args, generator=None, dtype=None, device=None",
          "_randint_ext(*args, generator=generator, dtype=dtype)"),
    Front("randint_like", "*args, dtype=None, device=None", "_randint_like_ext(*args, dtype=dtype)"),
    Front("randperm", "n, *, generator=None, dtype=mindspore.int64",
          "_randperm_ext(n, generator=generator, dtype=dtype)"),
    Front("bernoulli", "input, *, generator=None", "bernoulli_ext(input, generator=generator)"),
    Front("multinomial", "input, num_samples, replacement=False, *, generator=None",
          "_multinomial_ext(input, num_samples, replacement, generator=generator)"),
    Front("normal", "mean=0.0, std=1.0, size=None, generator=None", "_normal_ext(mean, std, size, generator)"),
    Front("empty", "*size, dtype=None, device=None", "_empty(*size, dtype=dtype)"),
    Front("empty_like", "input, *, dtype=None, device=None", "_empty_like(input, dtype=dtype)"),
    Front("addcmul", "input, tensor1, tensor2, *, value=1", "addcmul(input, tensor1, tensor2, value)"),
    Front("gcd", "input, other"),
    Front("sinc", "input"),
    Front("float_power", "input, exponent"),
    Front("isneginf", "input"),
    Front("polar", "abs, angle"),
    Front("real", "input"),
    Front("imag", "input"),
    Front("clamp", "input, min=None, max=None"),
    Front("isclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False"),
    Front("nan_to_num", "input, nan=None, posinf=None, neginf=None",
          "nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)"),
    Front("round", "input, *, decimals=0"),
    # reductions
    Front("sum", "input, dim=None, keepdim=False, *, dtype=None"),
    Front("mean", "input, dim=None, keepdim=False, *, dtype=None", "_cast(mean(input, dim, keepdim), dtype)"),
    Front("prod", "input, dim=None, keepdim=False, *, dtype=None", "prod(input, dim, keepdim, dtype)"),
    Front("nansum", "input, dim=None, keepdim=False, *, dtype=None", "nansum(input, dim, keepdim, dtype=dtype)"),
    Front("amax", "input, dim=(), keepdim=False", "amax(input, dim, keepdim)"),
    Front("amin", "input, dim=(), keepdim=False", "amin(input, dim, keepdim)"),
    Front("all", "input, dim=None, keepdim=False", "all(input, dim, keepdim)"),
    Front("any", "input, dim=None, keepdim=False", "any(input, dim, keepdim)"),
    Front("std", "input, dim=None, *, correction=1, keepdim=False", "std(input, dim, correction, keepdim)"),
    Front("var", "input, dim=None, *, correction=1, keepdim=False", "var(input, dim, correction, keepdim)"),
    Front("std_mean", "input, dim=None, *, correction=1, keepdim=False", "std_mean(input, dim, correction, keepdim)"),
    Front("var_mean", "input, dim=None, *, correction=1, keepdim=False", "var_mean(input, dim, correction, keepdim)"),
    Front("logsumexp", "input, dim, keepdim=False"),
    Front("count_nonzero", "input, dim=None",
          "count_nonzero(input, () if dim is None else dim, dtype=mindspore.int64)"),
    Front("max", "input, dim=None, keepdim=False, *, other=None", "_extreme('max', input, dim, keepdim, other)"),
    Front("min", "input, dim=None, keepdim=False, *, other=None", "_extreme('min', input, dim, keepdim, other)"),
    Front("argmax", "input, dim=None, keepdim=False", "_as_i64(argmax(input, dim, keepdim))"),
    Front("argmin", "input, dim=None, keepdim=False", "_as_i64(argmin(input, dim, keepdim))"),
    Front("median", "input, dim=None, keepdim=False", "_median(input, dim, keepdim)"),
    Front("cumsum", "input, dim, dtype=None", "cumsum(input, dim, dtype)"),
    Front("cumprod", "input, dim, dtype=None", "cumprod(input, dim, dtype)"),
    Front("cummax", "input, dim", "_i64(cummax(input, dim))"),
    Front("cummin", "input, dim", "_i64(cummin(input, dim))"),
    Front("norm", "input, p='fro', dim=None, keepdim=False, *, dtype=None", "_norm(input, p, dim, keepdim, dtype)"),
    # shapes, joining, indexing
    Front("cat", "tensors, dim=0", "concat(tensors, dim)"),
    Front("concat", "tensors, dim=0", "concat(tensors, dim)"),
    Front("stack", "tensors, dim=0", "stack(tensors, dim)"),
    Front("hstack", "tensors"),
    Front("dstack", "tensors"),
    Front("split", "tensor, split_size_or_sections, dim=0", "split(tensor, split_size_or_sections, dim)"),
    Front("chunk", "input, chunks, dim=0", "chunk(input, chunks, dim)"),
    Front("unbind", "input, dim=0"),
    Front("narrow", "input, dim, start, length", "narrow(input, dim, start, length)"),
    Front("select", "input, dim, index", "_select(input, dim, index)"),
    Front("reshape", "input, shape"),
    Front("flatten", "input, start_dim=0, end_dim=-1", "_flatten(input, start_dim, end_dim)"),
    Front("squeeze", "input, dim", "squeeze(input, dim)"),
    Front("unsqueeze", "input, dim"),
    Front("permute", "input, dims", "permute(input, dims)"),
    Front("transpose", "input, dim0, dim1", "swapaxes(input, dim0, dim1)"),
    Front("swapaxes", "input, axis0, axis1"),
    Front("t", "input", "_t(input)"),
    Front("broadcast_to", "input, shape"),
    Front("tile", "input, dims"),
    Front("repeat_interleave", "input, repeats, dim=None, *, output_size=None",
          "repeat_interleave(input, repeats, dim)"),
    Front("flip", "input, dims"),
    Front("roll", "input, shifts, dims=None"),
    Front("tril", "input, diagonal=0"),
    Front("triu", "input, diagonal=0"),
    Front("diag", "input, diagonal=0", "_diag(input, diagonal)"),
    Front("trace", "input"),
    Front("gather", "input, dim, index", "gather_elements(input, dim, index)"),
    Front("index_select", "input, dim, index", "index_select(input, dim, index)"),
    Front("masked_select", "input, mask"),
    Front("take", "input, index", "gather(reshape(input, (-1,)), index, 0)"),
    Front("scatter", "input, dim, index, src", "scatter(input, dim, index, src)"),
    Front("unique_consecutive", "input, return_inverse=False, return_counts=False, dim=None"),
    Front("scatter_add", "input, dim, index, src", "tensor_scatter_elements(input, index, src, dim, 'add')"),
    Front("index_add", "input, dim, index, source, *, alpha=1",
          "_index_add_mint(input, dim, index, source, alpha=alpha)"),
    Front("where", "condition, input=None, other=None", "_where(condition, input, other)"),
    Front("nonzero", "input, *, as_tuple=False"),
    Front("sort", "input, *, dim=-1, descending=False, stable=False", "_i64(sort(input, dim, descending))"),
    Front("argsort", "input, dim=-1, descending=False, stable=False", "_as_i64(argsort(input, dim, descending))"),
    Front("topk", "input, k, dim=-1, largest=True, sorted=True", "_i64(topk(input, k, dim, largest, sorted))"),
    Front("searchsorted", "sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None"),
    Front("unique", "input, sorted=True, return_inverse=False, return_counts=False, dim=None",
          "_unique(input, sorted, return_inverse, return_counts, dim)"),
    Front("bincount", "input, weights=None, minlength=0"),
    Front("meshgrid", "*tensors, indexing=None", "meshgrid(*tensors, indexing='ij' if indexing is None else indexing)"),
    # linear algebra
    Front("matmul", "input, other"),
    Front("mm", "input, mat2", "matmul(input, mat2)"),
    Front("bmm", "input, mat2", "bmm(input, mat2)"),
    Front("mv", "input, vec", "matmul(input, vec)"),
    Front("outer", "input, vec2"),
    Front("dot", "input, other", "matmul(input, other)"),
    Front("addmm", "input, mat1, mat2, *, beta=1, alpha=1"),
    Front("baddbmm", "input, batch1, batch2, *, beta=1, alpha=1", "baddbmm(input, batch1, batch2, beta, alpha)"),
    Front("einsum", "equation, *operands"),
    Front("cross", "input, other, dim=None"),
    Front("cdist", "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'", "cdist(x1, x2, p)"),
    # creation
    Front("zeros", "size, *, dtype=None", "zeros(size, dtype)"),
    Front("ones", "size, *, dtype=None", "ones(size, dtype)"),
    Front("zeros_like", "input, *, dtype=None"),
    Front("ones_like", "input, *, dtype=None"),
    Front("full", "size, fill_value, *, dtype=None", "full(size, fill_value, dtype=_fill_dtype(fill_value, dtype))"),
    Front("full_like", "input, fill_value, *, dtype=None"),
    Front("eye", "n, m=None, dtype=None"),
    Front("arange", "start=0, end=None, step=1, *, dtype=None"),
    Front("linspace", "start, end, steps, *, dtype=None", "_cast(linspace(start, end, steps), dtype)"),
    # shared with mint.nn.functional
    Front("softmax", "input, dim, *, dtype=None", "softmax(input, dim, dtype=dtype)"),
    Front("conv2d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
          "_conv(conv2d, input, weight, bias, stride, padding, dilation, groups)"),
    Front("addcdiv", "input, tensor1, tensor2, *, value=1", "addcdiv(input, tensor1, tensor2, value)"),
    Front("batch_norm_stats", "input, eps", "_batch_norm_stats(input, eps)"),
    Front("batch_norm_elemt", "input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05",
          "_batch_norm_elemt(input, weight, bias, mean, invstd, eps)"),
    Front("batch_norm_gather_stats_with_counts", "input, mean, invstd, running_mean=None, running_var=None, "
          "momentum=0.1, eps=1e-05, counts=None",
          "_batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean, running_var, momentum, eps, "
          "counts)"),
    Front("conv_tbc", "input, weight, bias, pad=0", "_conv_tbc(input, weight, bias, pad)"),
]

# -- mindspore.mint.nn.functional -----------------------------------------------------------------------------------
NN_FUNCTIONAL: List[Front] = [Front(n, "input") for n in "sigmoid tanh hardsigmoid hardswish mish".split()] + [
    Front("relu", "input, inplace=False", "_inplace(input, relu(input), inplace, 'relu')"),
    Front("relu6", "input, inplace=False", "_inplace(input, relu6(input), inplace, 'relu6')"),
    Front("silu", "input, inplace=False", "_inplace(input, silu(input), inplace, 'silu')"),
    Front("elu", "input, alpha=1.0, inplace=False", "_inplace(input, elu(input, alpha), inplace, 'elu')"),
    Front("relu_", "input", "_inplace(input, relu(input), True, 'relu_')"),
    Front("sigmoid_", "input", "_inplace(input, sigmoid(input), True, 'sigmoid_')"),
    Front("elu_", "input, alpha=1.0", "_inplace(input, elu(input, alpha), True, 'elu_')"),
    Front("selu", "input"),
    Front("logsigmoid", "input"),
    Front("glu", "input, dim=-1", "glu(input, dim)"),
    Front("hardshrink", "input, lambd=0.5"),
    Front("softshrink", "input, lambd=0.5"),
    Front("hardtanh", "input, min_val=-1.0, max_val=1.0, inplace=False",
          "_inplace(input, hardtanh(input, min_val, max_val), inplace, 'hardtanh')"),
    Front("hardtanh_", "input, min_val=-1, max_val=1",
          "_inplace(input, hardtanh(input, min_val, max_val), True, 'hardtanh_')"),
    Front("threshold", "input, threshold, value, inplace=False",
          "_inplace(input, _threshold(input, threshold, value), inplace, 'threshold')"),
    Front("threshold_", "input, threshold, value",
          "_inplace(input, _threshold(input, threshold, value), True, 'threshold_')"),
    Front("gelu", "input, approximate='none'"),
    Front("leaky_relu", "input, negative_slope=0.01", "leaky_relu(input, negative_slope)"),
    Front("softplus", "input, beta=1, threshold=20"),
    Front("prelu", "input, weight"),
    Front("softmax", "input, dim=None, dtype=None", "softmax(input, _implicit_dim(input, dim), dtype=dtype)"),
    Front("log_softmax", "input, dim=None, *, dtype=None",
          "_cast(log_softmax(input, _implicit_dim(input, dim)), dtype)"),
    Front("linear", "input, weight, bias=None", "_linear(input, weight, bias)"),
    Front("dropout", "input, p=0.5, training=True, inplace=False", "_dropout(input, p, training, inplace)"),
    Front("flatten", "input, start_dim=0, end_dim=-1", "_flatten(input, start_dim, end_dim)"),
    Front("dropout2d", "input, p=0.5, training=True, inplace=False",
          "_inplace(input, dropout2d(input, p, training), inplace and training and p > 0, 'dropout2d')"),
    Front("pixel_shuffle", "input, upscale_factor"),
    Front("grid_sample", "input, grid, mode='bilinear', padding_mode='zeros', align_corners=None"),
    Front("max_unpool2d", "input, indices, kernel_size, stride=None, padding=0, output_size=None",
          "max_unpool2d(input, indices, kernel_size, stride, padding, output_size)"),
    Front("unfold", "input, kernel_size, dilation=1, padding=0, stride=1",
          "_unfold(input, kernel_size, dilation, padding, stride)"),
    Front("fold", "input, output_size, kernel_size, dilation=1, padding=0, stride=1",
          "_fold(input, output_size, kernel_size, dilation, padding, stride)"),
    Front("one_hot", "tensor, num_classes=-1", "_one_hot(tensor, num_classes)"),
    Front("pad", "input, pad, mode='constant', value=None", "_pad(input, pad, mode, value)"),
    Front("normalize", "input, p=2.0, dim=1, eps=1e-12", "_normalize(input, p, dim, eps)"),
    Front("embedding", "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False"),
    Front("layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05"),
    Front("group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05"),
    Front("batch_norm", "input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, "
          "eps=1e-05", "batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)"),
    Front("conv2d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
          "_conv(conv2d, input, weight, bias, stride, padding, dilation, groups)"),
    Front("conv_transpose2d", "input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1"),
    Front("conv1d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
          "_conv(conv1d, input, weight, bias, stride, padding, dilation, groups)"),
    Front("conv3d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
          "_conv(conv3d, input, weight, bias, stride, padding, dilation, groups)"),
    Front("max_pool2d", "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
          "max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)"),
    Front("avg_pool2d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, "
          "divisor_override=None", "avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, "
          "padding, ceil_mode, count_include_pad, 0 if divisor_override is None else divisor_override)"),
    Front("avg_pool1d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True",
          "avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode, "
          "count_include_pad)"),
    Front("adaptive_avg_pool1d", "input, output_size"),
    Front("adaptive_avg_pool2d", "input, output_size"),
    Front("adaptive_max_pool2d", "input, output_size, return_indices=False"),
    Front("adaptive_avg_pool3d", "input, output_size"),
    Front("adaptive_max_pool1d", "input, output_size, return_indices=False",
          "_adaptive_max_pool1d(input, output_size, return_indices)"),
    Front("avg_pool3d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, "
          "divisor_override=None", "avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, "
          "padding, ceil_mode, count_include_pad, 0 if divisor_override is None else divisor_override)"),
    Front("interpolate", "input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
          "recompute_scale_factor=None"),
    Front("upsample", "input, size=None, scale_factor=None, mode='nearest', align_corners=None"),
    Front("mse_loss", "input, target, reduction='mean'"),
    Front("l1_loss", "input, target, reduction='mean'"),
    Front("smooth_l1_loss", "input, target, reduction='mean', beta=1.0",
          "smooth_l1_loss(input, target, beta, reduction)"),
    Front("binary_cross_entropy", "input, target, weight=None, reduction='mean'"),
    Front("binary_cross_entropy_with_logits", "input, target, weight=None, reduction='mean', pos_weight=None",
          "binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)"),
    Front("cross_entropy", "input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0"),
    Front("nll_loss", "input, target, weight=None, ignore_index=-100, reduction='mean'",
          "nll_loss(input, target, weight, ignore_index, reduction)"),
    Front("kl_div", "input, target, reduction='mean', log_target=False",
          "_kl_div(input, target, reduction, log_target)"),
    Front("cosine_embedding_loss", "input1, input2, target, margin=0.0, reduction='mean'"),
    Front("soft_margin_loss", "input, target, reduction='mean'"),
]

# -- mindspore.mint.special and mindspore.mint.linalg ---------------------------------------------------------------
SPECIAL: List[Front] = [Front(n, "input") for n in "erfc exp2 expm1 log1p round sinc".split()] + [
    Front("log_softmax", "input, dim=None, *, dtype=None",
          "_cast(log_softmax(input, _implicit_dim(input, dim)), dtype)"),
]
LINALG: List[Front] = [
    Front("norm", "A, ord=None, dim=None, keepdim=False, *, dtype=None"),
    Front("vector_norm", "x, ord=2, dim=None, keepdim=False, *, dtype=None",
          "_vector_norm(x, ord, dim, keepdim, dtype)"),
    Front("matrix_norm", "A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None",
          "norm(A, ord, dim, keepdim, dtype=dtype)"),
    Front("inv", "input", "inverse(input)"),
    Front("qr", "A, mode='reduced'", "qr(A, mode)"),
]



def front_end_examples(namespace: str) -> Dict[str, Tuple[str, ...]]:
    """The examples of one front end's functions: ``namespace`` is ``""`` for ``mint`` itself, else
    ``"nn.functional"``, ``"special"`` or ``"linalg"`` (the keys of ``EXAMPLES`` are ``namespace:name`` for these).

    Example:
        >>> front_end_examples("linalg")["inv"][-2]
        'mint.linalg.inv(a)'
    """
    prefix = f"{namespace}:" if namespace else ""
    return {k[len(prefix):]: v for k, v in EXAMPLES.items() if (k.startswith(prefix) if prefix else ":" not in k)}
