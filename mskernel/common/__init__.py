"""MindSpore's ``mindspore.common`` names: ``dtype``, ``Tensor``, ``Parameter``, ``ParameterTuple``, ``set_seed``.

Example:
    >>> from mskernel.common import dtype as mstype
    >>> mstype.float32
    mindspore.float32
"""
from mskernel import dtype
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.seed import get_seed, set_seed
from mskernel.common.tensor import Tensor
from mskernel.common.storage import UntypedStorage
from mskernel.common import initializer as _initializer  # fills Tensor's PROVIDERS["initializer"]

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed", "UntypedStorage"]
