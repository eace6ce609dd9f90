"""mskernel: develop custom differentiable operators with MindSpore's API on an ordinary CPU.

Replace ``mindspore`` by ``mskernel`` in the imports of MindSpore code and it runs here, printing
what MindSpore prints.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor(2.0, ms.float32)
    >>> print(ms.grad(lambda a: a * a)(x))
    4.0
"""
from mskernel import autograd, dtype, nn, ops
from mskernel._version import __version__
from mskernel.autograd import GradOperation, ParameterTuple, enable_grad, get_grad, grad, no_grad, value_and_grad
from mskernel.context import GRAPH_MODE, PYNATIVE_MODE, get_context, get_current_device, set_context, set_device
from mskernel.dtype import (
    Type,
    bool_,
    complex64,
    complex128,
    double,
    dtype_to_nptype,
    dtype_to_pytype,
    float16,
    float32,
    float64,
    float_,
    half,
    int8,
    int16,
    int32,
    int64,
    pytype_to_dtype,
    single,
    uint8,
    uint16,
    uint32,
    uint64,
)
from mskernel.gradcheck import GradcheckError, GradcheckReport, gradcheck, gradgradcheck
from mskernel.tensor import Parameter, Tensor, from_numpy, is_tensor

_no_grad = no_grad


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext mskernel``: register the ``%%custom_op`` magics (see the ``magics`` package).

    Example:
        >>> from IPython.core.interactiveshell import InteractiveShell
        >>> load_ipython_extension(InteractiveShell.instance())
        >>> InteractiveShell.instance().find_cell_magic("custom_op") is not None
        True
    """
    from magics import load_ipython_extension as load  # the IPython layer sits above the library

    load(ipython)


__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "GradOperation",
    "GradcheckError",
    "GradcheckReport",
    "Parameter",
    "ParameterTuple",
    "Tensor",
    "Type",
    "__version__",
    "autograd",
    "bool_",
    "complex64",
    "complex128",
    "double",
    "dtype",
    "dtype_to_nptype",
    "dtype_to_pytype",
    "enable_grad",
    "float16",
    "float32",
    "float64",
    "float_",
    "from_numpy",
    "get_context",
    "get_current_device",
    "get_grad",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "half",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_tensor",
    "nn",
    "no_grad",
    "ops",
    "pytype_to_dtype",
    "set_context",
    "set_device",
    "single",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "value_and_grad",
]
