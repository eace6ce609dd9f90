"""Shape and dtype inference of ``ops.Custom``: from ``out_shape``/``out_dtype`` to the specs of a call's outputs.

``out_shape`` and ``out_dtype`` are each an infer function (one argument per call input: a shape list, a
dtype) or a fixed value; a tuple of dtypes means several outputs. Either may be None for a kernel that
infers its outputs itself (the hybrid DSL, an AOT kernel's InferShape/InferType). :func:`check_specs`
holds them to MindSpore's rules when the op is built; :class:`OutputInference` turns them into the
:class:`~mskernel.kernels.OutSpec` list of one call (a pyfunc op with no output gets a placeholder), and
for a DSL kernel checks given specs against what the kernel produces.

Example:
    >>> import mskernel as ms
    >>> infer = OutputInference(lambda x: x, lambda x: x, "pyfunc", None, "For 'Custom'")
    >>> x = ms.Tensor([1.0, 2.0])
    >>> infer((x,), [x], [])
    ([OutSpec(shape=(2,), dtype=dtype('float32'))], False)
"""
from __future__ import annotations

import logging
from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.kernels import CustomKernel, OutSpec

__all__ = ["OutputInference", "check_specs", "static_output_count"]

log = logging.getLogger("mskernel.ops")


def check_specs(out_shape: Any, out_dtype: Any, func_type: str, prefix: str) -> None:
    """Refuse ``out_shape``/``out_dtype`` of the wrong type, or None where the kernel cannot infer them; warn
    on an empty tuple for one of them (MindSpore's placeholder).

    Example:
        >>> check_specs(None, None, "pyfunc", "For 'Custom'")
        Traceback (most recent call last):
        ...
        TypeError: For 'Custom', 'out_shape' and 'out_dtype' can be None only for func_type 'hybrid'/'akg' (inferred from the kernel) or 'aot' (C++ InferShape/InferType); give infer functions or values.
    """  # noqa: E501
    s, d = out_shape, out_dtype
    if s is not None and not callable(s) and not isinstance(s, (list, tuple)):
        raise TypeError(f"{prefix}, 'out_shape' must be one of [tuple, list, function], but got {type(s)}")
    if d is not None and not callable(d) and not isinstance(d, (mstype.Type, list, tuple)):
        raise TypeError(f"{prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], "
                        f"but got {type(d)}")
    if (s is None or d is None) and func_type not in ("hybrid", "akg", "aot"):
        raise TypeError(f"{prefix}, 'out_shape' and 'out_dtype' can be None only for func_type 'hybrid'/'akg' "
                        f"(inferred from the kernel) or 'aot' (C++ InferShape/InferType); give infer functions or "
                        f"values.")
    if func_type == "pyfunc" and s == () and d != ():
        log.warning("%s, 'out_shape' is an empty tuple. Add a placeholder instead. Not recommend to use it as it "
                    "could be any uninitialized data.", prefix)
    if func_type == "pyfunc" and d == () and s != ():
        log.warning("%s, 'out_dtype' is an empty tuple. Add a placeholder instead. Not recommend to use it as it "
                    "could be any uninitialized data.", prefix)


def static_output_count(out_dtype: Any) -> Optional[int]:
    """How many outputs a fixed ``out_dtype`` describes (None: an infer function, or nothing fixed).

    Example:
        >>> import mskernel as ms
        >>> static_output_count(ms.float32), static_output_count((ms.float32, ms.int32)), static_output_count(None)
        (1, 2, None)
    """
    if isinstance(out_dtype, mstype.Type):
        return 1
    if isinstance(out_dtype, (list, tuple)) and out_dtype:
        return len(out_dtype)
    return None


def _is_shape(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                                                for d in v)


def _spec_dtype(d: Any, prefix: str, i: int) -> np.dtype:
    if isinstance(d, mstype.Type):
        return d.np
    if isinstance(d, str):
        return mstype.to_dtype(d).np
    if isinstance(d, (np.dtype, type)):
        return np.dtype(d)
    raise TypeError(f"{prefix}, output {i}'s dtype must be a mindspore dtype, but got {d!r}.")


class OutputInference:
    """The output specs of a call: ``infer(args, tensors, attrs) -> (specs, several outputs?)``.

    ``kernel`` is asked for what ``out_shape``/``out_dtype`` leave to it (None where they give everything).

    Example:
        >>> import mskernel as ms
        >>> pair = OutputInference(lambda x: (x, x), lambda x: (x, ms.int32), "pyfunc", None, "For 'Custom'")
        >>> x = ms.Tensor([1.0])
        >>> [(s.shape, s.dtype.name) for s in pair((x,), [x], [])[0]]
        [((1,), 'float32'), ((1,), 'int32')]
    """

    def __init__(self, out_shape: Any, out_dtype: Any, func_type: str, kernel: Optional[CustomKernel],
                 prefix: str) -> None:
        self.out_shape, self.out_dtype = out_shape, out_dtype
        self.func_type, self.kernel, self.prefix = func_type, kernel, prefix

    def __call__(self, args: tuple, tensors: List[Tensor], attrs: List[Any]) -> Tuple[List[OutSpec], bool]:
        s, d = self.out_shape, self.out_dtype
        if callable(s):
            s = s(*[list(a.shape) if isinstance(a, Tensor) else [] for a in args])
        if callable(d):
            d = d(*[a.dtype if isinstance(a, Tensor) else mstype.to_dtype(type(a)) if isinstance(a, (bool, int, float))
                    else None for a in args])
        if s is None or d is None:  # the kernel infers what was not given (hybrid DSL, AOT InferShape)
            specs = self._kernel_specs(tensors, attrs)
            if specs is None:
                raise TypeError(f"{self.prefix}, 'out_shape'/'out_dtype' are None and this kernel cannot infer "
                                f"them; give infer functions or values.")
            many = len(specs) != 1
            if s is None:
                s = tuple(sp.shape for sp in specs) if many else specs[0].shape
            if d is None:
                d = tuple(mstype.Type.of(sp.dtype) for sp in specs) if many else mstype.Type.of(specs[0].dtype)
        if self.func_type == "pyfunc" and s == () and d == ():  # no output: a placeholder
            return [OutSpec((1,), np.dtype(np.int32))], False
        if s == ():
            s = (1,) if self.func_type == "pyfunc" else ()
        if d == ():
            d = mstype.int32
        multi = isinstance(d, (list, tuple))
        if multi:
            if not (isinstance(s, (list, tuple)) and all(_is_shape(x) for x in s)) or len(s) != len(d):
                raise ValueError(f"{self.prefix}, out_dtype describes {len(d)} outputs, so out_shape must be a "
                                 f"tuple of {len(d)} shapes, but got {s!r}.")
            specs = [OutSpec(tuple(int(v) for v in x), _spec_dtype(dt, self.prefix, i))
                     for i, (x, dt) in enumerate(zip(s, d))]
        else:
            if not _is_shape(s):
                raise ValueError(f"{self.prefix}, out_shape must be a shape (list or tuple of ints) for a single "
                                 f"output, but got {s!r}.")
            specs = [OutSpec(tuple(int(v) for v in s), _spec_dtype(d, self.prefix, 0))]
        if self.func_type in ("hybrid", "akg") and self.out_shape is not None and self.out_dtype is not None:
            self._check_against_kernel(tensors, attrs, specs)
        return specs, multi

    def _kernel_specs(self, tensors: List[Tensor], attrs: List[Any]) -> Optional[List[OutSpec]]:
        if self.kernel is None:
            return None
        return self.kernel.infer([t.shape for t in tensors], [t._data.dtype for t in tensors], attrs)

    def _check_against_kernel(self, tensors: List[Tensor], attrs: List[Any], specs: List[OutSpec]) -> None:
        """A DSL kernel knows its outputs: given specs must agree (checked once per call signature)."""
        real = self._kernel_specs(tensors, attrs)
        if real is None:
            return
        given = [(tuple(sp.shape), np.dtype(sp.dtype)) for sp in specs]
        actual = [(tuple(sp.shape), np.dtype(sp.dtype)) for sp in real]
        if given != actual:
            show = lambda lst: ", ".join(f"{list(sh)} {dt}" for sh, dt in lst)  # noqa: E731
            raise ValueError(f"{self.prefix}, out_shape/out_dtype describe outputs [{show(given)}], but the "
                             f"kernel produces [{show(actual)}]; fix the infer functions or pass None to infer them "
                             f"from the kernel.")
