"""``ops.Custom``: MindSpore's custom-operator primitive, for every func_type, on the CPU — one module per idea.

* :mod:`~mskernel.ops.custom.op` — the class, composing the parts below;
* :mod:`~mskernel.ops.custom.kinds` — the func_types: the kernel kind of each (the table ``KINDS``), the
  ``func`` each accepts;
* :mod:`~mskernel.ops.custom.inference` — ``out_shape``/``out_dtype`` checked, and turned into a call's
  output specs;
* :mod:`~mskernel.ops.custom.registration` — the operator information (``reg_info``) by target;
* :mod:`~mskernel.ops.custom.arguments` — a call's Tensors and attribute values;
* :mod:`~mskernel.ops.custom.selection` — the registered dtype row a call matches;
* :mod:`~mskernel.ops.custom.plans` — the plans of call signatures, and the fast plans the engine core runs;
* :mod:`~mskernel.ops.custom.backward` — the engine node of a call and its bprop or derived backward.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops.custom import Custom
    >>> op = Custom(lambda x: x + 1, lambda x: x, lambda x: x, func_type="pyfunc")
    >>> print(op(ms.Tensor([1.0])))
    [2.]
"""
from mskernel.ops.custom.op import Custom

__all__ = ["Custom"]
