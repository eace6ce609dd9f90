"""``mindspore.graph``: hooks into how ``jit`` functions are compiled, and the compile-side names.

MindSpore 2.10 gathers here what acts on its graph compiler: op wrappers and infer functions
(:func:`register_op_wrapper`, :func:`register_op_infer`, which mskernel applies as primitives are called inside
``jit`` functions, as it runs them eagerly), custom passes (:func:`register_custom_pass`,
:class:`CustomPassType`) and custom backends (:func:`register_custom_backend`), whose plugins extend MindSpore's
C++ compiler and are refused here. The submodules ``api``, ``jit_config``, ``mutable``, ``lazy_inline``,
``no_inline`` and ``symbol`` name what ``mskernel`` has at its top level (``jit``, ``JitConfig``, ...).

Example:
    >>> import mskernel as ms
    >>> import mskernel.graph as graph
    >>> from mskernel import ops
    >>> @graph.register_op_wrapper("Mul")
    ... def square_first(x, y):
    ...     return lambda a, b: a * a * b
    >>> f = ms.jit(lambda a, b: ops.Mul()(a, b))
    >>> print(f(ms.Tensor([3.0]), ms.Tensor([2.0])), graph.CustomPassType.FULL_GRAPH)
    [18.] CustomPassType.FULL_GRAPH
    >>> graph.clear_op_wrapper()
"""
from mskernel.graph import api, jit_config, lazy_inline, mutable, no_inline, symbol
from mskernel.graph.custom_backend import register_custom_backend
from mskernel.graph.custom_infer import clear_op_infer, clear_op_wrapper, register_op_infer, register_op_wrapper
from mskernel.graph.custom_pass import CustomPassType, register_custom_pass

__all__ = [
    "register_custom_pass",
    "register_custom_backend",
    "register_op_infer",
    "register_op_wrapper",
    "clear_op_infer",
    "clear_op_wrapper",
    "CustomPassType",
]

_SUBMODULES = (api, jit_config, lazy_inline, mutable, no_inline, symbol)
