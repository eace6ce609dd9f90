"""MindSpore code's import lines work with `mindspore` replaced by `mskernel`."""
import subprocess
import sys

import pytest

IMPORTS = [
    "import mskernel as ms",
    "from mskernel import Tensor, Parameter, nn, ops, context",
    "from mskernel import dtype as mstype",
    "import mskernel.common.dtype as mstype",
    "from mskernel.common import dtype as mstype",
    "from mskernel.common.dtype import float32",
    "from mskernel.nn import Cell",
    "import mskernel.ops as ops",
    "from mskernel.ops import operations as P",
    "from mskernel.ops import composite as C",
    "from mskernel.ops import functional as F",
    "from mskernel.ops import Custom, CustomRegOp, DataType, custom_info_register",
    "from mskernel.ops import kernel, ms_kernel",
    "from mskernel.ops import CustomOpBuilder",
    "from mskernel import ParameterTuple, GradOperation, value_and_grad, grad, get_grad",
    "from mskernel.context import set_context, GRAPH_MODE",
    "from mskernel import _Function, jit, mutable",
    "from mskernel.common.initializer import initializer, Normal, One, Zero, Uniform, XavierUniform, HeNormal",
    "import mskernel.common.initializer as init",
    "from mskernel.common.api import jit",
]


@pytest.mark.parametrize("line", IMPORTS)
def test_mindspore_import_line(line):
    proc = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_aliases_are_the_same_objects():
    import mskernel as ms
    from mskernel.ops import composite as C, functional as F, operations as P
    assert P.Mul is ms.ops.Mul and P.Custom is ms.ops.Custom
    assert C.GradOperation is ms.GradOperation and F.mul is ms.ops.mul
