"""Op table: MindSpore's thin names over ops the table already has — the older primitive names (``Pack`` is
``Stack``, ``Unpack``, ``GatherV2``, ``SplitV``, ``Expand``, ``ScalarToArray``), the view primitives
(``TransposeView``, ``SelectView``, ...), the ``_ext`` primitives of mint's signatures (``LerpScalar``,
``LogSoftmaxExt``), aliases and in-place forms of functions (``fills``, ``top_k``, ``type_as``, ``clamp_``,
``zero_``, ...), and the small debugging and bookkeeping primitives (``TensorDump``, ``DumpGradient``,
``FloatStatus``, ``UpdateState``, ``PyFunc``, ``DropoutGenMask``/``DropoutDoMask``, ``ConfusionMatrix``).

Each is measured on the MindSpore 2.10 CPU wheel; where that wheel has no CPU kernel (``SplitV``, ``Fills``,
``LerpScalar``, ``ConfusionMatrix``, ``DropoutDoMask``, ``FloatStatus``, the in-place functions) the op computes
what its documentation defines. mskernel's results never alias their input, so a view primitive prints what its
copying op prints; gradients come from the ops each is written with.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(ops.Pack(1)((x, x)).shape, ops.fills(x, 7.0))
    (2, 2, 2) [[7. 7.]
     [7. 7.]]
"""
from __future__ import annotations

import itertools
import os
import threading
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.node import STATE, record
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _shape_arg(shape: Any) -> Tuple[int, ...]:
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._data.reshape(-1))
    return tuple(int(v) for v in shape)


def expand(x: Any, shape: Any) -> Tensor:
    """``x`` (float16/32, int8/32 or uint8, as MindSpore's Expand kernel) broadcast to ``shape`` (a Tensor or a
    sequence of ints), as ``broadcast_to``."""
    t = check_tensor(x, "Expand", "x")
    if str(t.dtype) not in ("Float16", "Float32", "Int32", "Int8", "UInt8"):
        raise TypeError("For primitive[Expand], the input argument[x] must be a type of {Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Int32], Tensor[Int8], Tensor[UInt8]}}, but got Tensor[{t.dtype}].")
    return F.broadcast_to(t, _shape_arg(shape))


def nan_to_num_prim(x: Any, nan: Optional[float] = None, posinf: Optional[float] = None,
                    neginf: Optional[float] = None) -> Tensor:
    """NaN → ``nan`` (0 when None), ±inf → ``posinf``/``neginf`` (the dtype's extremes when None)."""
    return F.nan_to_num(x, 0.0 if nan is None else nan, posinf, neginf)


def split_v(x: Any, size_splits: Sequence[int], split_dim: int, num_split: int) -> Tuple[Tensor, ...]:
    """``x`` cut along ``split_dim`` into pieces of ``size_splits`` (one of them may be -1: the rest)."""
    t = check_tensor(x, "SplitV", "input_x")
    ax = split_dim + t.ndim if split_dim < 0 else split_dim
    if not 0 <= ax < t.ndim:
        raise ValueError(f"For 'SplitV', the 'split_dim' must be in range [{-t.ndim}, {t.ndim}), but got {split_dim}.")
    sizes = [int(s) for s in size_splits]
    if len(sizes) != num_split:
        raise ValueError(f"For 'SplitV', the length of 'size_splits' must be equal to 'num_split' {num_split}, "
                         f"but got {len(sizes)}.")
    if sizes.count(-1) > 1:
        raise ValueError("For 'SplitV', at most one element of 'size_splits' can be -1.")
    if -1 in sizes:
        sizes[sizes.index(-1)] = t.shape[ax] - (sum(sizes) + 1)
    if sum(sizes) != t.shape[ax] or min(sizes) < 0:
        raise ValueError(f"For 'SplitV', the sum of 'size_splits' must be equal to the dimension {t.shape[ax]} of "
                         f"'input_x' at 'split_dim', but got {list(size_splits)}.")
    return tuple(F.split(t, sizes, ax))


def log_softmax_ext(input: Any, dim: Optional[int] = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """``log(softmax(input, dim))``, cast to ``dtype`` first when given; ``dim=None`` picks axis 0 for a tensor of
    rank 0, 1 or 3 and axis 1 otherwise (the legacy rule of the mint signature)."""
    x = check_tensor(input, "LogSoftmaxExt", "input")
    if dtype is not None:
        x = F.cast(x, dtype)
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return F.log_softmax(x, dim)


_FILLS_DTYPES = ("Float16", "Float32", "Int16", "Int32", "Int8")


def fills(x: Any, value: Any) -> Tensor:
    """A tensor of ``x``'s shape and dtype filled with ``value`` (a number or a 0-d Tensor); ``x`` must be
    float16/32 or int8/16/32, as MindSpore's Fills kernel."""
    t = check_tensor(x, "Fills", "x")
    name = str(t.dtype)
    if name not in _FILLS_DTYPES:
        raise TypeError("For primitive[Fills], the input argument[x] must be a type of {Tensor[Float16], "
                        "Tensor[Float32], Tensor[Int16], Tensor[Int32], Tensor[Int8]}, but got "
                        f"Tensor[{name}].")
    v = float(value._data) if isinstance(value, Tensor) else value
    return F.full_like(t, v)


def fill_diagonal_prim(input_x: Any, fill_value: float, wrap: bool = False) -> Tensor:
    """A copy of ``input_x`` with its main diagonal set to ``fill_value`` (``wrap``: a tall matrix starts again
    every ``ncols + 1`` rows)."""
    return check_tensor(input_x, "FillDiagonal", "input_x").fill_diagonal(fill_value, wrap)


def confusion_matrix(labels: Any, predictions: Any, weights: Any = None, num_classes: int = 2,
                     dtype: str = "int32") -> Tensor:
    """``out[labels[i], predictions[i]] += weights[i]`` (1 without weights) in a ``num_classes`` square of
    ``dtype``."""
    lab = check_tensor(labels, "ConfusionMatrix", "labels")._data.astype(np.int64).reshape(-1)
    pre = check_tensor(predictions, "ConfusionMatrix", "predictions")._data.astype(np.int64).reshape(-1)
    if lab.shape != pre.shape:
        raise ValueError(f"For 'ConfusionMatrix', the shape of 'labels' must be equal to the shape of 'predictions', "
                         f"but got {list(lab.shape)} and {list(pre.shape)}.")
    for name, v in (("labels", lab), ("predictions", pre)):
        if v.size and (v.min() < 0 or v.max() >= num_classes):
            raise ValueError(f"For 'ConfusionMatrix', the values of '{name}' must be in [0, {num_classes}), but got "
                             f"{v.tolist()}.")
    np_dtype = mstype.dtype_to_nptype(mstype.to_dtype(dtype))
    w = np.ones(lab.shape, np_dtype) if weights is None else \
        check_tensor(weights, "ConfusionMatrix", "weights")._data.reshape(-1).astype(np_dtype)
    out = np.zeros((num_classes, num_classes), np_dtype)
    np.add.at(out, (lab, pre), w)
    return Tensor._wrap(out)


_MASK_LOCK = threading.Lock()


def dropout_gen_mask(shape: Any, keep_prob: Any, Seed0: int = 0, Seed1: int = 0) -> Tensor:  # noqa: N803
    """A dropout mask for ``shape``: one bit per element, 1 (kept) with probability ``keep_prob``, lowest bit
    first, packed into uint8 and padded to a multiple of 128 bits (MindSpore's mask layout). Seeds of 0 draw
    from numpy's global generator."""
    dims = _shape_arg(shape)
    p = float(keep_prob._data) if isinstance(keep_prob, Tensor) else float(keep_prob)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"For 'DropoutGenMask', the 'keep_prob' must be in range [0, 1], but got {p}.")
    n = int(np.prod(dims)) if dims else 1
    padded = (n + 127) // 128 * 128
    if Seed0 or Seed1:
        rng: Any = np.random.default_rng((Seed0, Seed1))
        bits = rng.random(padded) < p
    else:
        with _MASK_LOCK:
            bits = np.random.random_sample(padded) < p
    bits[n:] = False
    return Tensor._wrap(np.packbits(bits, bitorder="little"))


def dropout_do_mask(input_x: Any, mask: Any, keep_prob: Any) -> Tensor:
    """``input_x * bit / keep_prob`` with one bit of ``mask`` (uint8, lowest bit first) per element."""
    x = check_tensor(input_x, "DropoutDoMask", "input_x")
    m = check_tensor(mask, "DropoutDoMask", "mask")._data.astype(np.uint8).reshape(-1)
    n = int(np.prod(x.shape))
    bits = np.unpackbits(m, bitorder="little")
    if bits.size < n:
        raise ValueError(f"For 'DropoutDoMask', the 'mask' must hold at least {n} bits, but got {bits.size}.")
    keep = Tensor._wrap(bits[:n].reshape(x.shape).astype(x._data.dtype))
    p = keep_prob if isinstance(keep_prob, Tensor) else Tensor(float(keep_prob))
    return x * keep / F.cast(p, x.dtype)


def dynamic_shape(tensor: Any, dtype: int = 9) -> Tensor:
    """The shape of ``tensor`` as an int64 Tensor (``ops.DynamicShape``, the older form of ``ops.shape``)."""
    t = check_tensor(tensor, "DynamicShape", "tensor")
    return Tensor._wrap(np.array(t.shape, np.int64))


def scalar_to_array(input_x: Any) -> Tensor:
    """A 0-d Tensor holding the Python number ``input_x`` (float32 for a float, int64 for an int)."""
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(f"For 'ScalarToArray', the input must be a number, but got {type(input_x).__name__}.")
    return Tensor._wrap(np.asarray(input_x, np.int64 if isinstance(input_x, int) else np.float32))


_ENUMS = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38, "UInt32": 39,
          "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44, "BFloat16": 45, "Complex64": 51,
          "Complex128": 52}


def dtype_to_enum(op_name: str, arg_name: str, dtype: Any) -> int:
    """MindSpore's type id (``TypeId``) of ``dtype``: Float32 is 43, Int64 35, Bool 30, ..."""
    if not isinstance(dtype, mstype.Type) or str(dtype) not in _ENUMS:
        raise TypeError(f"For '{op_name}', the input '{arg_name}' should be mindspore dtype, but got {dtype}.")
    return _ENUMS[str(dtype)]


def select_view(input: Any, index: int, dim: int) -> Tensor:  # noqa: A002
    """``input``'s slice at ``index`` along ``dim`` (that axis removed; MindSpore's order: index, then dim)."""
    return check_tensor(input, "SelectView", "input").select(dim, index)


def copy_with_slice(self: Any, src: Any) -> Tensor:
    """``src``'s values written into ``self`` (broadcast and cast to its dtype), in place; returns ``self``."""
    return check_tensor(self, "CopyWithSlice", "self").copy_(src)


def scatter_non_aliasing_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """``input_x`` (a Parameter) with ``updates`` added at ``indices`` (int32, a trailing axis of positions), in
    place; returns it."""
    x = check_tensor(input_x, "ScatterNonAliasingAdd", "input_x")
    idx = check_tensor(indices, "ScatterNonAliasingAdd", "indices")
    if str(idx.dtype) != "Int32":
        raise TypeError("For primitive[ScatterNonAliasingAdd], the input argument[indices type] must be a type of "
                        f"{{Tensor[Int32]}}, but got Tensor[{idx.dtype}].")
    return F.scatter_nd_add(x, idx, updates)


def update_state(u: Any, *args: Any) -> Any:
    """The graph's side-effect token: returns its first argument (``u``) unchanged."""
    return u


def reusing(x: Any) -> Any:
    """``x`` itself (a marker for the graph compiler's memory reuse)."""
    return x


def py_func(*inputs: Any, fn: Callable = None, in_types: Any = None, in_shapes: Any = None,  # type: ignore
            out_types: Any = None, out_shapes: Any = None, stateful: bool = True) -> Tuple[Tensor, ...]:
    """``fn`` called with the inputs as numpy arrays; its results (one or a tuple) as Tensors of ``out_types``."""
    arrays = [v.asnumpy() if isinstance(v, Tensor) else v for v in inputs]
    res = fn(*arrays)
    res = res if isinstance(res, tuple) else (res,)
    if out_types is not None and len(out_types) != len(res):
        raise ValueError(f"For 'PyFunc', the function returned {len(res)} outputs, but 'out_types' has "
                         f"{len(out_types)}.")
    types = out_types or [None] * len(res)
    return tuple(Tensor(np.asarray(r), t) if t is not None else Tensor(np.asarray(r)) for r, t in zip(res, types))


def _check_dump_args(file: Any, x: Any, who: str) -> None:
    if not isinstance(file, str):
        raise TypeError(f"For '{who}', the input 'file' must be a str, but got {type(file).__name__}.")
    if not file:
        raise ValueError(f"For '{who}', the input argument[file] cannot be an empty string.")
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{who}', the input 'input_x' must be a Tensor, but got {type(x).__name__}.")


def dump_gradient(path: Any, x: Any, input_output: str = "in") -> Tensor:
    """``x`` unchanged; when differentiated, its gradient is saved to the npy file ``path`` and passed on."""
    t = check_tensor(x, "DumpGradient", "x")
    out = Tensor._wrap(t._data)
    if STATE.enabled and t._rg:
        def backward(d: List[Tensor]) -> tuple:
            np.save(path, d[0].asnumpy())
            return (d[0],)
        record("DumpGradient", (t,), (out,), backward)
    return out


_DUMP_COUNT = itertools.count()
_DUMP_LOCK = threading.Lock()


def _dtype_word(t: Tensor) -> str:
    return str(t.dtype).lower()


def tensor_dump_file(file: str, x: Tensor) -> None:
    """Save ``x`` as ``<file>_<dtype>_<id>.npy``; the id counts every dump of the process. A bfloat16 tensor is
    saved as float32. (MindSpore documents a ``_in`` after the name for mode ``'in'``; in a single process, which is
    its stand-alone mode, the CPU wheel writes the same name for both modes, and so does mskernel.)"""
    with _DUMP_LOCK:
        n = next(_DUMP_COUNT)
    head = file
    arr = x.asnumpy()
    if str(x.dtype) == "BFloat16":
        arr = arr.astype(np.float32)
    folder = os.path.dirname(head)
    if folder:
        os.makedirs(folder, exist_ok=True)
    np.save(f"{head}_{_dtype_word(x)}_{n}.npy", arr)


def tensor_dump(file: Any, input_x: Any, input_output: str = "out") -> None:
    """``ops.TensorDump(input_output)(file, input_x)``: ``input_x`` saved as an npy file (see
    ``tensor_dump_file``); returns None."""
    if not isinstance(file, str):
        raise TypeError(f"For 'TensorDump', the input 'file' should be str, but got {type(file).__name__}")
    if not file:
        raise ValueError("For 'TensorDump', the input argument[file] cannot be an empty string.")
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For 'TensorDump', the input 'input_x' should be Tensor, but got "
                        f"{type(input_x).__name__}")
    tensor_dump_file(file, input_x)
    return None


def tensordump(file_name: Any, tensor: Any, mode: str = "out") -> None:
    """``tensor`` saved as ``<file_name>_<dtype>_<id>.npy`` (see ``tensor_dump_file``); returns None."""
    if not isinstance(file_name, str):
        raise TypeError(f"Parameter file_name should only be build_in str type but got: {type(file_name)}")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Parameter tensor should only be Tensor type, but got: {type(tensor)}")
    if not isinstance(mode, str):
        raise TypeError(f"Parameter mode should only be build_in str type, but got: {type(mode)}")
    if mode not in ("out", "in"):
        if mode == "all":
            raise ValueError("Argument [mode] has been not supported value of 'all'.")
        raise ValueError(f"Parameter mode should in ['out', 'in'], but got {mode}")
    tensor_dump_file(file_name, tensor)
    return None


def float_status(x: Any) -> Tensor:
    """``[1.]`` (float32, shape (1,)) when any element of ``x`` is inf or nan, ``[0.]`` otherwise."""
    t = check_tensor(x, "FloatStatus", "x")
    if t._data.dtype.kind not in "fc":
        raise TypeError(f"For 'FloatStatus', the input 'x' must be a float Tensor, but got {t.dtype}.")
    return Tensor._wrap(np.array([0.0 if np.isfinite(t._data).all() else 1.0], np.float32))


def move_to(input: Any, to: str = "CPU", blocking: bool = True) -> Tensor:  # noqa: A002
    """``input`` on device ``to``: mskernel runs on the CPU, so a copy of it ("GPU"/"Ascend" run on the CPU too,
    as the rest of mskernel does)."""
    t = check_tensor(input, "MoveTo", "input")
    if to not in ("CPU", "GPU", "Ascend"):
        raise ValueError(f"The value of arg 'to' must be one of ['CPU', 'GPU', 'Ascend'], but got {to}")
    return F.identity(t)


def clamp_(input: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """``input`` clamped to [``min``, ``max``] in place; returns ``input``."""
    return check_tensor(input, "InplaceClampScalar", "input").clamp_(min, max)


def expand_as(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input`` broadcast to ``other``'s shape."""
    return F.broadcast_to(check_tensor(input, "ExpandAs", "input"), check_tensor(other, "ExpandAs", "other").shape)


def type_as(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input`` cast to ``other``'s dtype."""
    return F.cast(check_tensor(input, "TypeAs", "input"), check_tensor(other, "TypeAs", "other").dtype)


def top_k(input_x: Any, k: int, sorted: bool = True) -> Tuple[Tensor, Tensor]:  # noqa: A002
    """The ``k`` largest values along the last axis and their int32 indices."""
    return F.topk(input_x, k, -1, True, sorted)


def _expand_ellipsis(equation: str, ndims: Sequence[int]) -> str:
    """``equation`` with each ``...`` written out as letters the equation does not use (the broadcast dimensions,
    aligned from the right); an implicit output is the ellipsis' letters, then the letters used once, sorted."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise ValueError(f"For 'einsum', the equation has {len(terms)} operands, but got {len(ndims)} tensors.")
    if "..." not in eq:
        return eq
    free = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in eq]
    n_ell = max((nd - len(t.replace("...", "")) for t, nd in zip(terms, ndims) if "..." in t), default=0)
    ell = "".join(free[:n_ell])
    out_terms = []
    for t, nd in zip(terms, ndims):
        if "..." in t:
            k = nd - len(t.replace("...", ""))
            t = t.replace("...", ell[n_ell - k:] if k else "")
        out_terms.append(t)
    if arrow:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(out_terms)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    return ",".join(out_terms) + "->" + out


def einsum_ext(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (``operands`` may also be one list); ``...`` stands for the broadcast dimensions."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    ts = [check_tensor(t, "einsum", "operands") for t in operands]
    return F.einsum(_expand_ellipsis(equation, [t.ndim for t in ts]), *ts)


def zero_(input: Any) -> Tensor:  # noqa: A002
    """``input`` filled with zeros in place; returns it."""
    return check_tensor(input, "InplaceZero", "input").zero_()


def inplace_sigmoid(input: Any) -> Tensor:  # noqa: A002
    """``input`` replaced by its sigmoid in place; returns it."""
    return check_tensor(input, "InplaceSigmoid", "input").sigmoid_()


OPS: List[Op] = [
    Op("_pack", "x, axis=0", fn=lambda x, axis=0: F.stack(x, axis), prim="Pack(axis=0)(x) -> x, axis"),
    Op("_unpack", "input_x, axis=0", fn=lambda input_x, axis=0: F.unstack(input_x, axis),
       prim="Unpack(axis=0)(x) -> x, axis"),
    Op("_gather_v2", "input_params, input_indices, axis",
       fn=lambda input_params, input_indices, axis: F.gather(input_params, input_indices, axis),
       prim="GatherV2()(input_params, input_indices, axis) -> input_params, input_indices, axis"),
    Op("_expand", "x, shape", fn=expand, prim="Expand()(x, shape) -> x, shape"),
    Op("_nan_to_num_prim", "x, nan=None, posinf=None, neginf=None", fn=nan_to_num_prim,
       prim="NanToNum(nan=None, posinf=None, neginf=None)(x) -> x, nan, posinf, neginf"),
    Op("_split_v", "x, size_splits, split_dim, num_split", fn=split_v,
       prim="SplitV(size_splits, split_dim, num_split)(x) -> x, size_splits, split_dim, num_split"),
    Op("_scalar_to_array_prim", "input_x", fn=scalar_to_array, prim="ScalarToArray()(input_x) -> input_x"),
    Op("_lerp_scalar", "input, end, weight", fn=lambda input, end, weight: F.lerp(input, end, weight),
       prim="LerpScalar()(input, end, weight) -> input, end, weight"),
    Op("_log_softmax_ext", "input, dim=None, dtype=None", fn=log_softmax_ext,
       prim="LogSoftmaxExt()(input, dim=None, dtype=None) -> input, dim, dtype"),
    Op("fills", "x, value", fn=fills, prim="Fills()(x, value) -> x, value"),
    Op("_fill_diagonal_prim", "input_x, fill_value, wrap=False", fn=fill_diagonal_prim,
       prim="FillDiagonal(fill_value, wrap=False)(input_x) -> input_x, fill_value, wrap"),
    Op("_confusion_matrix", "labels, predictions, weights=None, num_classes=2, dtype='int32'", fn=confusion_matrix,
       prim="ConfusionMatrix(num_classes, dtype='int32')(labels, predictions, weights=None) -> labels, predictions, "
            "weights, num_classes, dtype"),
    Op("_dropout_gen_mask", "shape, keep_prob, Seed0=0, Seed1=0", fn=dropout_gen_mask,
       prim="DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob) -> shape, keep_prob, Seed0, Seed1"),
    Op("_dropout_do_mask", "input_x, mask, keep_prob", fn=dropout_do_mask,
       prim="DropoutDoMask()(input_x, mask, keep_prob) -> input_x, mask, keep_prob"),
    Op("_dynamic_shape", "tensor, dtype=9", fn=dynamic_shape, prim="DynamicShape(dtype=9)(tensor) -> tensor, dtype"),
    Op("_dtype_to_enum", "op_name, arg_name, dtype", fn=dtype_to_enum, inputs=0,
       prim="DtypeToEnum()(op_name, arg_name, dtype) -> op_name, arg_name, dtype"),
    Op("_transpose_view", "input, input_perm", fn=lambda input, input_perm: F.transpose(input, input_perm),
       prim="TransposeView()(input, input_perm) -> input, input_perm"),
    Op("_transpose_ext_view", "input, dim0, dim1", fn=lambda input, dim0, dim1: F.swapaxes(input, dim0, dim1),
       prim="TransposeExtView()(input, dim0, dim1) -> input, dim0, dim1"),
    Op("_select_view", "input, index, dim", fn=select_view,
       prim="SelectView()(input, index, dim) -> input, index, dim"),
    Op("_copy_with_slice", "self, src", fn=copy_with_slice, prim="CopyWithSlice()(self_, src) -> self_, src"),
    Op("_scatter_non_aliasing_add", "input_x, indices, updates", fn=scatter_non_aliasing_add,
       prim="ScatterNonAliasingAdd()(input_x, indices, updates) -> input_x, indices, updates"),
    Op("_update_state", "u, *args", fn=update_state, inputs=0, prim="UpdateState()(u, *args) -> u, *args"),
    Op("_reusing", "x", fn=reusing, prim="Reusing()(x) -> x"),
    Op("_py_func", "*inputs, fn=None, in_types=None, in_shapes=None, out_types=None, out_shapes=None, stateful=True",
       fn=py_func, inputs=0,
       prim="PyFunc(fn, in_types, in_shapes, out_types, out_shapes, stateful=True)(*inputs) -> *inputs, fn=fn, "
            "in_types=in_types, in_shapes=in_shapes, out_types=out_types, out_shapes=out_shapes, stateful=stateful"),
    Op("_dump_gradient", "path, x, input_output='in'", fn=dump_gradient, inputs=0,
       prim="DumpGradient()(path, x, input_output='in') -> path, x, input_output"),
    Op("_tensor_dump", "file, input_x, input_output='out'", fn=tensor_dump, inputs=0,
       prim="TensorDump(input_output='out')(file, input_x) -> file, input_x, input_output"),
    Op("tensordump", "file_name, tensor, mode='out'", fn=tensordump, inputs=0),
    Op("_float_status", "x", fn=float_status, prim="FloatStatus()(x) -> x"),
    Op("move_to", "input, to='CPU', blocking=True", fn=move_to,
       prim="MoveTo()(input, to='CPU', blocking=True) -> input, to, blocking"),
    Op("clamp_", "input, min=None, max=None", fn=clamp_),
    Op("expand_as", "input, other", fn=expand_as, inputs=2),
    Op("type_as", "input, other", fn=type_as, inputs=2),
    Op("top_k", "input_x, k, sorted=True", fn=top_k),
    Op("einsum_ext", "equation, *operands", fn=einsum_ext, inputs=0),
    Op("zero_", "input", fn=zero_),
    Op("inplace_sigmoid", "input", fn=inplace_sigmoid),
    Op("scalar_to_array", "input_x", fn=scalar_to_array, inputs=0),
]

EXAMPLES = {
    "Pack": ("ops.Pack(1)((ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))", "[[1. 3.]\n [2. 4.]]"),
    "Unpack": ("ops.Unpack()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))[1]", "[3. 4.]"),
    "GatherV2": ("ops.GatherV2()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([1]), 1)", "[[2.]\n [4.]]"),
    "Expand": ("ops.Expand()(ms.Tensor([[1.0], [2.0]]), ms.Tensor([2, 2]))", "[[1. 1.]\n [2. 2.]]"),
    "NanToNum": ("ops.NanToNum(nan=5.0)(ms.Tensor([float('nan'), 1.0]))", "[5. 1.]"),
    "SplitV": ("ops.SplitV([1, -1], 0, 2)(ms.Tensor([1.0, 2.0, 3.0]))[1]", "[2. 3.]"),
    "ScalarToArray": ("ops.ScalarToArray()(2.5)", "2.5"),
    "LerpScalar": ("ops.LerpScalar()(ms.Tensor([0.0, 10.0]), ms.Tensor([10.0, 20.0]), 0.5)", "[ 5. 15.]"),
    "LogSoftmaxExt": ("ops.LogSoftmaxExt()(ms.Tensor([0.0, 0.0]), 0)", "[-0.6931472 -0.6931472]"),
    "fills": ("ops.fills(ms.Tensor([1.0, 2.0]), 3.0)", "[3. 3.]"),
    "Fills": ("ops.Fills()(ms.Tensor([1.0, 2.0]), 3.0)", "[3. 3.]"),
    "FillDiagonal": ("ops.FillDiagonal(5.0)(ms.Tensor([[0.0, 0.0], [0.0, 0.0]]))", "[[5. 0.]\n [0. 5.]]"),
    "ConfusionMatrix": ("ops.ConfusionMatrix(3)(ms.Tensor([0, 1, 2]), ms.Tensor([0, 2, 2]))",
                        "[[1 0 0]\n [0 0 1]\n [0 0 1]]"),
    "DropoutGenMask": ("ops.DropoutGenMask()((2, 3), ms.Tensor(1.0)).shape", "(16,)"),
    "DropoutDoMask": ("ops.DropoutDoMask()(ms.Tensor([1.0, 2.0]), ms.Tensor([2], ms.uint8), ms.Tensor(0.5))",
                      "[0. 4.]"),
    "DynamicShape": ("ops.DynamicShape()(ms.Tensor([[1.0, 2.0]]))", "[1 2]"),
    "DtypeToEnum": ("ops.DtypeToEnum()('op', 'dtype', ms.float32)", "43"),
    "TransposeView": ("ops.TransposeView()(ms.Tensor([[1.0, 2.0]]), (1, 0))", "[[1.]\n [2.]]"),
    "TransposeExtView": ("ops.TransposeExtView()(ms.Tensor([[1.0, 2.0]]), 0, 1)", "[[1.]\n [2.]]"),
    "SelectView": ("ops.SelectView()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 1, 0)", "[3. 4.]"),
    "CopyWithSlice": ("ops.CopyWithSlice()(ms.Tensor([1.0, 2.0]), ms.Tensor([5.0, 6.0]))", "[5. 6.]"),
    "ScatterNonAliasingAdd": ("ops.ScatterNonAliasingAdd()(ms.Parameter(ms.Tensor([1.0, 2.0]), name='p'), "
                              "ms.Tensor([[1]], ms.int32), ms.Tensor([5.0]))", "[1. 7.]"),
    "UpdateState": ("ops.UpdateState()(1, ms.Tensor([2.0]))", "1"),
    "Reusing": ("ops.Reusing()(ms.Tensor([2.0]))", "[2.]"),
    "PyFunc": ("ops.PyFunc(lambda a: a * 2, [ms.float32], [(1,)], [ms.float32], [(1,)])(ms.Tensor([2.0]))[0]",
               "[4.]"),
    "DumpGradient": ("ops.DumpGradient()('grad.npy', ms.Tensor([2.0]), 'in')", "[2.]"),
    "TensorDump": ("ops.TensorDump()('', ms.Tensor([1.0]))",
                   "Traceback (most recent call last):\n...\nValueError: For 'TensorDump', the input argument[file] "
                   "cannot be an empty string."),
    "tensordump": ("ops.tensordump('x', ms.Tensor([1.0]), 'all')",
                   "Traceback (most recent call last):\n...\nValueError: Argument [mode] has been not supported "
                   "value of 'all'."),
    "FloatStatus": ("ops.FloatStatus()(ms.Tensor([1.0, float('inf')]))", "[1.]"),
    "move_to": ("ops.move_to(ms.Tensor([1.0, 2.0]), 'CPU')", "[1. 2.]"),
    "MoveTo": ("ops.MoveTo()(ms.Tensor([1.0, 2.0]), 'CPU', True)", "[1. 2.]"),
    "clamp_": ("ops.clamp_(ms.Tensor([-1.0, 0.5, 3.0]), 0.0, 1.0)", "[0.  0.5 1. ]"),
    "expand_as": ("ops.expand_as(ms.Tensor([1.0, 2.0]), ms.Tensor([[0.0, 0.0], [0.0, 0.0]]))", "[[1. 2.]\n [1. 2.]]"),
    "type_as": ("ops.type_as(ms.Tensor([1.5]), ms.Tensor([1], ms.int32)).dtype", "Int32"),
    "top_k": ("ops.top_k(ms.Tensor([1.0, 5.0, 3.0]), 2)[0]", "[5. 3.]"),
    "einsum_ext": ("ops.einsum_ext('i,i->', ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "11.0"),
    "zero_": ("ops.zero_(ms.Tensor([1.0, 2.0]))", "[0. 0.]"),
    "inplace_sigmoid": ("ops.inplace_sigmoid(ms.Tensor([0.0]))", "[0.5]"),
    "scalar_to_array": ("ops.scalar_to_array(3)", "3"),
}
