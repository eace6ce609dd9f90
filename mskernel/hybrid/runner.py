"""The checked (slow) path of ``HybridKernel.run``: normalize inputs, compile, call, report.

``HybridKernel.run`` first tries its last compiled kernel directly; when the dispatcher
rejects the call (another signature, a tensor-like that is not an ndarray, a non-native byte
order, unaligned data, a read-only in-place input, an in-place input overlapping another
input) this path takes over: it converts what must be converted -- copying only arrays the
kernel cannot read in place, and writing copied in-place inputs back -- compiles the
signature if needed, and turns kernel error codes into Python exceptions (``IndexError`` naming the tensor, the indices,
the shape and the DSL line; ``ValueError``/``MemoryError`` for an ``allocate`` that cannot be made).
What it needs of the kernel is the :class:`Kernel` protocol, which ``HybridKernel`` implements.

Example:
    >>> import numpy as np
    >>> from mskernel.hybrid.hybrid_kernel import HybridKernel
    >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] + 1\\n    return y\\n")
    >>> run_checked(hk, [np.arange(4)[::2].astype(">i4")], ())[0]
    array([1, 3], dtype=int32)
"""
from __future__ import annotations

from typing import Any, Optional, Protocol, Sequence

import numpy as np

from .compiler import CompiledKernel, dispatcher
from .dsl import to_numpy
from .dtypes import normalize_dtype

__all__ = ["Kernel", "run_checked", "index_error", "alloc_error", "plain_attr"]


class Kernel(Protocol):
    """What the checked path reads of a kernel (``HybridKernel`` provides it)."""

    @property
    def name(self) -> str: ...
    @property
    def num_inputs(self) -> int: ...
    @property
    def input_names(self) -> list[str]: ...
    @property
    def output_names(self) -> list[str]: ...
    @property
    def inplace_map(self) -> dict[int, int]: ...

    def compile(self, input_dtypes: Any, input_ranks: Optional[Sequence[int]] = None,
                attr_types: Sequence[Any] = (), debug: Optional[bool] = None) -> CompiledKernel: ...

    def _remember(self, ck: CompiledKernel) -> None: ...


def plain_attr(value: Any) -> Any:
    """A scalar attribute as a Python bool/int/float (numpy scalars and 0-d arrays unwrapped).

    Example:
        >>> plain_attr(np.float32(1.5)), plain_attr(np.array(3))
        (1.5, 3)
    """
    value = to_numpy(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    return value


def _canonical(a: Any) -> tuple[np.ndarray, bool]:
    """(an ndarray the dispatcher accepts, whether it is a copy)."""
    if not isinstance(a, np.ndarray):
        return np.asarray(a), True
    name = normalize_dtype(a.dtype.newbyteorder("="))
    if name is None:
        raise TypeError(f"unsupported dtype for a hybrid kernel: {a.dtype}")
    want = np.dtype(name)
    if a.dtype.byteorder not in ("=", "|") and a.dtype.byteorder != want.byteorder:
        return a.astype(want), True
    if a.dtype.num != want.num:
        return a.view(want), False
    return a, False


def index_error(hk: "Kernel", ck: CompiledKernel, info: tuple[int, ...]) -> IndexError:
    """The IndexError for a kernel's out-of-bounds report ``(1, site, rank, ...)``."""
    site, rank = info[1], info[2]
    idx, dims = info[3:3 + rank], info[3 + rank:3 + 2 * rank]
    tensor, loc = ck.generated.sites[site]
    src = ck.typed.kernel.lines.get(loc[0], "").strip()
    return IndexError(
        f"hybrid kernel '{hk.name}': index ({', '.join(map(str, idx))}{',' if rank == 1 else ''}) "
        f"is out of bounds for tensor {tensor} with shape ({', '.join(map(str, dims))}"
        f"{',' if rank == 1 else ''}) at {ck.typed.kernel.filename}:{loc[0]}:{loc[1]}\n    {src}")


def alloc_error(hk: "Kernel", ck: CompiledKernel, info: tuple[int, ...]) -> Exception:
    """ValueError (negative extent) or MemoryError for a failed ``allocate`` report ``(code, site, rank, ...)``."""
    code, site, rank = info[0], info[1], info[2]
    dims = info[3:3 + rank]
    name, loc = ck.generated.sites[site]
    shape = f"({', '.join(map(str, dims))}{',' if rank == 1 else ''})"
    where = f"at {ck.typed.kernel.filename}:{loc[0]}:{loc[1]}\n    {ck.typed.kernel.lines.get(loc[0], '').strip()}"
    if code == 4:
        return ValueError(f"hybrid kernel '{hk.name}': allocate() of {name} with shape {shape}: negative "
                          f"dimensions are not allowed {where}")
    dtype = np.dtype(ck.typed.tensors[name].dtype)
    size = float(np.prod([float(d) for d in dims])) * dtype.itemsize
    return MemoryError(f"hybrid kernel '{hk.name}': cannot allocate {name} with shape {shape} and dtype {dtype} "
                       f"({size:.3g} bytes) {where}")


def _check_out(hk: "Kernel", ck: CompiledKernel, arrays: list[np.ndarray], attrs: tuple,
               out: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    expected = [r for n, r in zip(hk.output_names, ck.infer([a.shape for a in arrays], attrs))
                if n not in hk.input_names]
    if len(out) != len(expected):
        raise ValueError(f"hybrid kernel '{hk.name}' has {len(expected)} output(s) that are not "
                         f"inputs, but {len(out)} 'out' array(s) were given")
    for k, (o, (shape, dtype)) in enumerate(zip(out, expected)):
        if not isinstance(o, np.ndarray) or o.shape != tuple(shape) or o.dtype != np.dtype(dtype):
            got = f"{o.shape} {o.dtype}" if isinstance(o, np.ndarray) else type(o).__name__
            raise ValueError(f"hybrid kernel '{hk.name}': out[{k}] must be a {dtype} array of shape "
                             f"{tuple(shape)}, not {got}")
    return tuple(out)


def run_checked(hk: "Kernel", inputs: Sequence[Any], attrs: Sequence[Any],
                out: Sequence[np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
    """Run ``hk`` compiled on ``inputs``/``attrs`` with every conversion and check."""
    if len(inputs) + len(attrs) != hk.num_inputs:
        raise TypeError(f"hybrid kernel '{hk.name}' takes {hk.num_inputs} inputs (tensors, then "
                        f"attributes), but got {len(inputs)} tensors and {len(attrs)} attributes")
    originals = [to_numpy(x) for x in inputs]
    arrays: list[np.ndarray] = []
    copied: set[int] = set()
    for i, a in enumerate(originals):
        arr, is_copy = _canonical(a)
        arrays.append(arr)
        if is_copy:
            copied.add(i)
    plain = tuple(plain_attr(a) for a in attrs)
    ck = hk.compile([a.dtype for a in arrays], [a.ndim for a in arrays], plain)
    written = set(hk.inplace_map.values())
    call = dispatcher()
    given = None if out is None else _check_out(hk, ck, arrays, plain, out)
    for _ in range(4):
        outs = ck.alloc(arrays, plain) if given is None else given
        r = call(ck.contig, ck.strided, ck.spec, (*arrays, *outs), plain)
        if r is None:
            break
        code = r[0]
        if code == -3:
            arrays[r[1]] = np.ascontiguousarray(arrays[r[1]]).copy()
            copied.add(r[1])
        elif code == -4:
            for m in range(len(arrays)):
                if m not in written:
                    arrays[m] = arrays[m].copy()
                    copied.add(m)
        elif code == -2:
            raise ValueError(f"hybrid kernel '{hk.name}' writes its input {hk.input_names[r[1]]} "
                             f"in place, but that array is read-only")
        elif code == 1:
            raise index_error(hk, ck, r)
        elif code == 2:
            raise ValueError(f"hybrid kernel '{hk.name}': range() arg 3 must not be zero")
        elif code in (3, 4):
            raise alloc_error(hk, ck, r)
        else:
            raise TypeError(f"hybrid kernel '{hk.name}' cannot take these inputs/attributes "
                            f"(dispatcher code {r})")
    else:  # pragma: no cover - each retry removes one cause
        raise RuntimeError(f"hybrid kernel '{hk.name}': could not prepare the inputs")
    for i in written & copied:
        np.copyto(originals[i], arrays[i])
    if not copied:
        hk._remember(ck)
    result = list(outs)
    if ck.select is not None:
        sources = [o if isinstance(o, np.ndarray) else a for o, a in zip(originals, arrays)]
        result = list(ck.select(sources, outs))
    return tuple(result)
