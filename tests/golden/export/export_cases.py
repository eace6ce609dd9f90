"""The ops the export goldens carry to MindSpore, each with seeded inputs and output gradients.

Kernels of the hybrid corpus (tests/hybrid/corpus.py), random kernels from the autodiff generator
(tests/hybrid/autodiff/test_random_kernels.py), ``%%custom_op`` cells (an attribute, a bprop kernel,
C++ with --forward/--backward), a hybrid op with a Python bprop and a pyfunc op. ``record_export.py``
exports each, runs the file in MindSpore 2.10's wheel and stores what MindSpore computed;
``test_export_goldens.py`` exports each again and compares mskernel's values with them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

import mskernel as ms
from mskernel import ops
from mskernel.cells import CellOptions, run_cell
from mskernel.hybrid import HybridKernel, kernel
from mskernel.hybrid.intrinsics import output_tensor  # noqa: F401  (what the kernels below call)
from tests.hybrid.autodiff.test_random_kernels import random_kernel
from tests.hybrid.corpus import CASES as CORPUS

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Case:
    """An op, the inputs it is exported for (tensors then attributes) and one output gradient per output."""

    kind: str            # hybrid, pyfunc or cpp
    op: Any
    inputs: list
    attrs: tuple
    douts: list


def _douts(op: Any, inputs: list, attrs: tuple, seed: int) -> list:
    outs = op(*[ms.Tensor(a.copy()) for a in inputs], *attrs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    rng = np.random.default_rng(seed + 7)
    return [rng.standard_normal(o.shape).astype(o.asnumpy().dtype) for o in outs]


def _corpus(name: str, dtype: str, seed: int = 0) -> Callable[[], Case]:
    def make() -> Case:
        case = CORPUS[name]
        tensors, attrs = case.inputs(np.random.default_rng(seed), dtype, 5, 4)
        func_type = "hybrid" if getattr(case.func, "ms_kernel_flag", False) else "akg"
        op = ops.Custom(case.func, func_type=func_type)
        return Case("hybrid", op, tensors, tuple(attrs), _douts(op, tensors, tuple(attrs), seed))
    return make


def _random(seed: int) -> Callable[[], Case]:
    def make() -> Case:
        hk = HybridKernel.from_source(random_kernel(seed), "rk", filename=f"<random kernel {seed}>")
        op = ops.Custom(hk.python_function(), func_type="akg")
        rng = np.random.default_rng(seed)
        inputs = [rng.uniform(-2, 2, 5), rng.uniform(-2, 2, 5)]
        return Case("hybrid", op, inputs, (), _douts(op, inputs, (), seed))
    return make


SOFTCLIP = """def softclip(x, a):
    # a smooth clip to [-a, a]
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            y[i, j] = a * tanh(x[i, j] / a)
    return y
"""

SQUARE_WITH_BPROP = """def square(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y

def square_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 2.0 * x[i] * dout[i]
    return dx
"""


def _cell_softclip() -> Case:
    ns: dict = {}
    run_cell("export_softclip", SOFTCLIP, CellOptions(), ns, first_line=2)
    op = ns["export_softclip"]
    x = np.random.default_rng(3).uniform(-4, 4, (3, 4)).astype(np.float32)
    return Case("hybrid", op, [x], (2.0,), _douts(op, [x], (2.0,), 3))


def _cell_bprop_kernel() -> Case:
    ns: dict = {}
    run_cell("square", SQUARE_WITH_BPROP, CellOptions(bprop="square_grad"), ns, first_line=2)
    op = ns["square"]
    x = np.random.default_rng(4).uniform(-2, 2, 6)
    return Case("hybrid", op, [x], (), _douts(op, [x], (), 4))


def scaled_exp_bprop(x, out, dout):
    """The gradient of exp(2x): 2 * out * dout."""
    return (2.0 * out * dout,)


@kernel
def scaled_exp(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = exp(2.0 * x[i])  # noqa: F821
    return y


def _python_bprop() -> Case:
    op = ops.Custom(scaled_exp, func_type="hybrid", bprop=scaled_exp_bprop)
    x = np.random.default_rng(5).uniform(-1, 1, 4).astype(np.float32)
    return Case("hybrid", op, [x], (), _douts(op, [x], (), 5))


def cube(x):
    return np.power(x, 3)


def cube_bprop(x, out, dout):
    return (3 * x * x * dout,)


def _pyfunc() -> Case:
    op = ops.Custom(cube, lambda x: x, lambda x: x, func_type="pyfunc", bprop=cube_bprop)
    x = np.random.default_rng(6).uniform(-2, 2, 5).astype(np.float32)
    return Case("pyfunc", op, [x], (), _douts(op, [x], (), 6))


def _cpp_cube() -> Case:
    cube_cpp = (ROOT / "tests" / "golden" / "export" / "cube.cpp").read_text()
    ns: dict = {}
    run_cell("export_cube", cube_cpp, CellOptions(forward="cube", backward="cube_grad"), ns, first_line=2)
    op = ns["export_cube"]
    x = np.random.default_rng(7).uniform(-2, 2, 5)
    return Case("cpp", op, [x], (), _douts(op, [x], (), 7))


CASES: dict[str, Callable[[], Case]] = {}
for _name in ("add", "outer", "fused", "square_half", "row_sum", "col_max", "matmul", "conv2d", "softmax",
              "prefix_sum", "relu", "piecewise", "clip_ternary", "multi_output", "inplace_and_output",
              "grid_example", "range_steps", "allocate_temp", "with_scopes", "erf_abs_sign", "rounding",
              "powers_minmax", "row_mean_scoped", "broadcast_row", "axpy", "bool_attr", "arange_attr"):
    CASES[f"corpus_{_name}"] = _corpus(_name, "float64")
for _name in ("add", "softmax", "conv2d"):
    CASES[f"corpus_{_name}_f32"] = _corpus(_name, "float32")
CASES["corpus_scale_int"] = _corpus("scale_int", "int32")
for _seed in range(1000, 1010):
    CASES[f"random_{_seed}"] = _random(_seed)
CASES["cell_softclip_attribute"] = _cell_softclip
CASES["cell_bprop_kernel"] = _cell_bprop_kernel
CASES["python_bprop"] = _python_bprop
CASES["pyfunc_cube"] = _pyfunc
CASES["cpp_cube_cell"] = _cpp_cube
