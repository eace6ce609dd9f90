"""The C++ of MindSpore's Function/AutogradContext tutorial compiles unchanged, for CPU and Ascend.

The tutorial is read from ``../shared/seeds/restored/`` beside the checkout (this repository keeps no copy);
where that is absent the tests skip. tests/seeds/test_seeds.py checks the whole tutorial's printed output.
"""
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

TUTORIAL_CPP = Path(__file__).resolve().parents[2].parent / "shared" / "seeds" / "restored" / "function_ops.cpp"

pytestmark = pytest.mark.skipif(
    not TUTORIAL_CPP.is_file(), reason=f"the tutorial's C++ is read from {TUTORIAL_CPP} (../shared/seeds beside "
                                       f"the checkout), which is not on this machine")


@pytest.mark.filterwarnings("ignore:CustomOpBuilder. backend 'Ascend'")
@pytest.mark.parametrize("backend", ["CPU", "Ascend"])
def test_tutorial_builds_and_differentiates(build_ops, backend):
    my_ops = build_ops("my_ops", TUTORIAL_CPP, backend=backend)  # "Ascend": built for the CPU, with a warning
    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0], np.float32))
    out, (dx, dy) = ms.value_and_grad(lambda a, b: my_ops.mul(a, b).sum(), grad_position=(0, 1))(x, y)
    assert out.item() == 9.0
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(dy.asnumpy(), [3.0])
    assert my_ops.mul.__doc__.strip().endswith("Calculate the value x multiplied by y.")
