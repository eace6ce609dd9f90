"""The one autograd engine: nodes, recording, backward, and MindSpore's grad API.

Example:
    >>> import mskernel as ms
    >>> print(ms.autograd.grad(lambda x: x * x)(ms.Tensor(3.0)))
    6.0
"""
from mskernel.autograd.api import GradOperation, ParameterTuple, get_grad, grad, value_and_grad
from mskernel.autograd.engine import GradientError, gradients, grad_stats
from mskernel.autograd.graph import GraphSnapshot, snapshot, trace
from mskernel.autograd.node import (STATE, Node, enable_grad, grad_enabled, needs_grad, no_grad, record,
                                    set_grad_enabled)

__all__ = ["GradOperation", "ParameterTuple", "get_grad", "grad", "value_and_grad", "GradientError", "gradients",
           "grad_stats", "GraphSnapshot", "snapshot", "trace", "STATE", "Node", "enable_grad", "grad_enabled",
           "needs_grad", "no_grad", "record", "set_grad_enabled"]
