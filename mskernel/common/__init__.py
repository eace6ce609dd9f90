"""MindSpore's ``mindspore.common`` names: ``dtype``, ``Tensor``, ``Parameter``.

Example:
    >>> from mskernel.common import dtype as mstype
    >>> mstype.float32
    mindspore.float32
"""
from mskernel import dtype
from mskernel.autograd.api import ParameterTuple
from mskernel.tensor import Parameter, Tensor

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple"]
