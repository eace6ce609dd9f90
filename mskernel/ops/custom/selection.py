"""Kernel selection of ``ops.Custom``: the dtype row of the operator information a call matches.

MindSpore selects a kernel by the dtypes (and formats) of a call's inputs and outputs among the rows the
operator information registers (:mod:`~mskernel.ops.custom.registration`). Here one kernel serves every
row, so selecting is checking: a call whose dtypes no row accepts is a TypeError that lists the
supported rows. An empty dtype in a row accepts any; an op without rows accepts every call; a pyfunc op
with no output (``fake_output``) is matched on its inputs alone.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel.kernels import OutSpec
    >>> rows = [(("float32",), ("float32",))]
    >>> select(rows, [ms.Tensor([1.0])], [OutSpec((1,), np.dtype("float32"))], False, "For 'Custom'")
    >>> select(rows, [ms.Tensor([1])], [OutSpec((1,), np.dtype("int64"))], False, "For 'Custom'")
    Traceback (most recent call last):
    ...
    TypeError: For 'Custom', unsupported data types: the supported data types are input[Float32], output[Float32]; but got input[Int64] and output[Int64].
"""  # noqa: E501
from __future__ import annotations

from typing import List, Sequence, Tuple

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.kernels import OutSpec

__all__ = ["select"]


def _match(want: Tuple[str, ...], got: Tuple[str, ...]) -> bool:
    return len(want) == len(got) and all(w in ("", g) for w, g in zip(want, got))


def select(rows: Sequence[Tuple[Tuple[str, ...], Tuple[str, ...]]], tensors: List[Tensor], specs: List[OutSpec],
           fake_output: bool, prefix: str) -> None:
    """Nothing if a row accepts the dtypes of ``tensors`` (the inputs) and ``specs`` (the outputs), else the
    TypeError of MindSpore's kernel selection."""
    if not rows:
        return
    ins = tuple(t._data.dtype.name for t in tensors)
    outs = tuple(s.dtype.name for s in specs)
    if any(_match(ri, ins) and (not ro or _match(ro, outs) or fake_output) for ri, ro in rows):
        return
    supported = "; ".join(f"input[{' '.join(str(mstype.to_dtype(d)) if d else 'Any' for d in ri)}], "
                          f"output[{' '.join(str(mstype.to_dtype(d)) if d else 'Any' for d in ro)}]"
                          for ri, ro in rows)
    got_in = " ".join(str(t.dtype) for t in tensors)
    got_out = " ".join(str(mstype.Type.of(s.dtype)) for s in specs)
    raise TypeError(f"{prefix}, unsupported data types: the supported data types are {supported}; but got "
                    f"input[{got_in}] and output[{got_out}].")
