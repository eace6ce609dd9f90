"""None or a non-Tensor for a tensor argument, and C++ code throwing a value that is not a
std::exception, raise clear Python errors at every C++ entry path -- never a crash. Each probe
runs in a fresh interpreter that must survive (a segfault would fail the test, not kill pytest)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).parent / "src" / "bad_args.cpp"

PROBES = {
    # BaseTensorPtr arguments: None is refused by pybind11 with the function's signature
    "base_none": ("m.base_numel(None)", "TypeError", "base_numel(): incompatible function arguments"),
    "base_int": ("m.base_numel(3)", "TypeError", "base_numel(): incompatible function arguments"),
    "function_apply_none": ("m.mul2(x, None)", "TypeError", "mul2(): incompatible function arguments"),
    "base_optional": ("print('RESULT', m.base_optional_is_none(None))", None, "RESULT True"),
    # ms::Tensor arguments: None is an undefined Tensor (MindSpore's rule); using it raises
    "ms_none_numel": ("m.ms_numel(None)", "TypeError", "ms::Tensor: The Tensor is not defined: None was passed"),
    "ms_none_tensor": ("m.ms_requires_grad(None)", "TypeError", "The Tensor is not defined"),
    "ms_none_defined": ("print('RESULT', m.ms_is_defined(None))", None, "RESULT False"),
    "ms_list": ("m.ms_numel([1.0])", "TypeError", "ms_numel(): incompatible function arguments"),
    # thrown values that are not std::exceptions
    "throw_int": ("m.throws_int(x)", "RuntimeError",
                  "A C++ function threw a C++ value that is not a std::exception (e.g. `throw 42`)"),
    "throw_message": ("m.throws_message(x)", "RuntimeError", "a clear message"),
    "function_forward_throw": ("m.throws_in_forward(x)", "RuntimeError",
                               "The Forward of Function[ThrowsInForward] threw a C++ value that is not a"),
    "function_backward_throw": ("ms.grad(lambda t: m.throws_in_backward(t).sum())(x)", "RuntimeError",
                                "The Backward of Function[ThrowsInBackward] threw a C++ value that is not a"),
}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_bad_argument_or_exception_raises_and_the_process_survives(name: str, build_ops) -> None:
    build_ops("bad_args", SRC)  # compiled once per session; the subprocess loads it from the cache
    call, exc, text = PROBES[name]
    script = textwrap.dedent(f"""
        import numpy as np, mskernel as ms
        from mskernel.ops import CustomOpBuilder
        m = CustomOpBuilder("bad_args", [{str(SRC)!r}], backend="CPU").load()
        x = ms.Tensor(np.ones(3, np.float32))
        x.requires_grad = True
        try:
            {call}
        except Exception as e:
            print("RAISED", type(e).__name__, str(e).replace(chr(10), " "))
    """)
    env = dict(os.environ, MSKERNEL_CACHE_DIR=build_ops.cache_dir, MSKERNEL_PCH_DIR=build_ops.pch_dir)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, f"the interpreter died (rc {proc.returncode}): {proc.stderr[-2000:]}"
    if exc is None:
        assert text in proc.stdout and "RAISED" not in proc.stdout, proc.stdout
    else:
        assert f"RAISED {exc} " in proc.stdout and text in proc.stdout, proc.stdout + proc.stderr[-1000:]
