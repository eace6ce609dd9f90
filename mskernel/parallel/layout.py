"""``Layout``: a device matrix with a name for each of its axes, and, once called with one name (or tuple of
names, or ``"None"``) per tensor dimension, the tensor map that splits a tensor over it.

Example:
    >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    >>> layout("dp", "mp").to_dict()
    {'device_matrix': (2, 2, 2), 'tensor_map': (2, 0), 'interleaved_parallel': False, \
'alias_name': ('dp', 'sp', 'mp'), 'rank_list': [0, 1, 2, 3, 4, 5, 6, 7]}
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["Layout"]

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """A device matrix and the names of its axes; calling it with the names of the axes each tensor dimension is
    split along (``"None"``: not split) gives the layout of one tensor.

    Example:
        >>> Layout((2, 2), ("dp", "mp"))(("dp", "mp"), "None").to_dict()["tensor_map"]
        ((1, 0), -1)
    """

    def __init__(self, device_matrix: Tuple[int, ...], alias_name: Tuple[str, ...],
                 rank_list: Optional[List[int]] = None) -> None:
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if "None" in alias_name:
            raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        self._device_matrix = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(range(math.prod(device_matrix))) if rank_list is None else list(rank_list)
        self._tensor_map: Optional[Tuple[Any, ...]] = None

    def _axis(self, name: str, used: set) -> int:
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.add(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map: Union[str, Sequence[str]]) -> "Layout":
        """The layout of a tensor whose dimensions are split along the named axes."""
        used: set = set()
        out = Layout(self._device_matrix, self._alias_name, self._rank_list)
        out._tensor_map = tuple(tuple(self._axis(n, used) for n in dim) if isinstance(dim, (tuple, list))
                                else self._axis(dim, used) for dim in tensor_map)
        return out

    def to_dict(self) -> Dict[str, Any]:
        """The layout as MindSpore gives it: device matrix, tensor map, whether an axis is interleaved, the axis
        names and the ranks."""
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_matrix, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": list(self._rank_list)}
