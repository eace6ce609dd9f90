"""``mindspore.dataset.transforms``: ``TypeCast``, ``Compose``, ``OneHot``, ``Fill``, ``Duplicate``.

Each is a callable on numpy arrays, used in ``dataset.map(operations=...)``.

Example:
    >>> import numpy as np
    >>> from mskernel.dataset import transforms
    >>> import mskernel as ms
    >>> transforms.Compose([transforms.TypeCast(ms.float32), transforms.OneHot(3)])(np.array(1))
    array([0., 1., 0.], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Callable, List

import numpy as np

__all__ = ["TypeCast", "Compose", "OneHot", "Fill", "Duplicate"]


def _np_dtype(dtype: Any) -> Any:
    return getattr(dtype, "np", dtype)


class TypeCast:
    """Cast to a MindSpore or numpy dtype.

    Example:
        >>> import mskernel as ms
        >>> TypeCast(ms.int32)(np.array([1.7])).dtype
        dtype('int32')
    """

    def __init__(self, data_type: Any) -> None:
        self.data_type = _np_dtype(data_type)

    def __call__(self, x: Any) -> np.ndarray:
        return np.asarray(x).astype(self.data_type)


class OneHot:
    """One-hot encode integer labels into ``num_classes`` columns (``smoothing_rate`` spreads some mass).

    Example:
        >>> OneHot(3)(np.array([2]))
        array([[0, 0, 1]])
    """

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def __call__(self, x: Any) -> np.ndarray:
        a = np.asarray(x)
        if a.ndim == 2 and a.shape[1] == 1:  # one label per row: (N, 1) gives (N, num_classes)
            a = a[:, 0]
        out = (np.arange(self.num_classes) == a[..., None]).astype(a.dtype)
        if self.smoothing_rate:
            out = out * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out


class Fill:
    """Fill with a value (same shape).

    Example:
        >>> Fill(7)(np.zeros(2, np.int32))
        array([7, 7], dtype=int32)
    """

    def __init__(self, fill_value: Any) -> None:
        self.fill_value = fill_value

    def __call__(self, x: Any) -> np.ndarray:
        return np.full_like(np.asarray(x), self.fill_value)


class Duplicate:
    """Two copies of the input (for ``map`` with two output columns).

    Example:
        >>> len(Duplicate()(np.array([1])))
        2
    """

    def __call__(self, x: Any) -> tuple:
        a = np.asarray(x)
        return a, a.copy()


class Compose:
    """Apply operations in order.

    Example:
        >>> Compose([lambda a: a + 1, lambda a: a * 2])(np.array(1))
        np.int64(4)
    """

    def __init__(self, transforms: List[Callable]) -> None:
        self.transforms = list(transforms)

    def __call__(self, *x: Any) -> Any:
        for t in self.transforms:
            x = t(*x)
            x = x if isinstance(x, tuple) else (x,)
        return x[0] if len(x) == 1 else x


from mskernel.dataset.transforms import random_choice, tensor_ops  # noqa: E402
from mskernel.dataset.transforms.random_choice import *  # noqa: E402,F401,F403
from mskernel.dataset.transforms.tensor_ops import *  # noqa: E402,F401,F403

__all__ += random_choice.__all__ + tensor_ops.__all__

from mskernel.refusals import refused_names as _refused_names  # noqa: E402

globals().update(_refused_names("mindspore.dataset.transforms"))  # refused with their reason (mskernel.refusals)
