"""check_kernel on C++ ops: the real compiler, real sanitized builds, real child processes.

A sanitized build takes ~10 s, so there are two: one C++ cell (compiled through ``mskernel.cells``, the
library under ``%%custom_op``) whose module binds every buggy function, its op the ``--forward`` one, and one
``CustomOpBuilder`` module built from a file (``shift_right.cpp``). Both use the default build cache, so a
re-run of the suite rebuilds nothing. Each check then costs one or two child processes (~1 s each).
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import CellOptions, ForwardBackwardOp, run_cell
from mskernel.kernelcheck import KernelCheck, check_kernel
from mskernel.kernelcheck.cpp import (CheckedRunError, SanitizerUnavailableError, check_cpp, cpp_target,
                                      sanitizer_runtime)
from mskernel.toolchain import CustomOpBuilder, find_toolchain

FIRST_LINE = 2  # the cell's code starts under its %%custom_op line

# the cell's text; the comments name the notebook line (FIRST_LINE + index) of the defects
CELL = """#include "ms_extension.h"
#include <climits>
#include <stdexcept>
ms::Tensor overflow(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  const float *px = x.data_ptr<float>();
  float *py = y.data_ptr<float>();
  for (size_t i = 0; i <= x.numel(); ++i) py[i] = px[i] * 2.0f;  // line 9: reads x one past its end
  return y;
}
ms::Tensor overflow_bw(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) { return dout; }
ms::Tensor after_free(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  float *tmp = new float[x.numel()];
  delete[] tmp;  // line 16
  y.data_ptr<float>()[0] = tmp[0];  // line 17: reads freed memory
  return y;
}
int add_one(int v) {
  int big = INT_MAX - 1 + v;
  return big + 1;  // line 22: signed overflow for v = 1
}
ms::Tensor uninit(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  float *tmp = new float[x.numel()];
  float *py = y.data_ptr<float>();
  for (size_t i = 0; i < x.numel(); ++i) py[i] = tmp[i] + 1.0f;  // line 28: tmp was never written
  delete[] tmp;
  return y;
}
ms::Tensor half(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  for (size_t i = 0; i < x.numel() / 2; ++i) y.data_ptr<float>()[i] = 1.0f;  // the second half unwritten
  return y;
}
ms::Tensor clean(const ms::Tensor &x, double s) {
  ms::Tensor y(x.data_type(), x.shape());
  for (size_t i = 0; i < x.numel(); ++i) y.data_ptr<float>()[i] = x.data_ptr<float>()[i] * s;
  return y;
}
ms::Tensor crash(const ms::Tensor &x) { std::abort(); }
ms::Tensor refuse(const ms::Tensor &x) { throw std::invalid_argument("refuse: no, thank you"); }
ms::Tensor forever(const ms::Tensor &x) { volatile int spin = 1; while (spin) {} return x; }
namespace mindspore::pynative::autograd {
class Bump : public Function<Bump> {
 public:
  static BaseTensorPtr Forward(AutogradContext *, const BaseTensorPtr &x) {
    auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
    const float *px = static_cast<const float *>(x->data_c());
    float *po = static_cast<float *>(out->data_c());
    for (size_t i = 0; i <= x->DataSize(); ++i) po[i] = px[i % x->DataSize()] + 1.0f;  // writes out past its end
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList grads) { return {grads[0]}; }
};
BaseTensorPtr bump(const BaseTensorPtr &x) { return Bump::Apply(x); }
}  // namespace mindspore::pynative::autograd
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("overflow", &overflow); m.def("overflow_bw", &overflow_bw); m.def("after_free", &after_free);
  m.def("add_one", &add_one); m.def("uninit", &uninit); m.def("half", &half); m.def("clean", &clean);
  m.def("crash", &crash); m.def("refuse", &refuse); m.def("forever", &forever);
  m.def("bump", &mindspore::pynative::autograd::bump);
}
"""

# a CustomOpBuilder source file, kept beside this test so its build is cached across runs; line 7 writes y one past
# its end
BUILDER_FILE = Path(__file__).resolve().parent / "shift_right.cpp"

X = np.arange(8, dtype=np.float32)
BIG = np.ones(512, np.float32)  # 2 KiB: allocated by malloc itself (numpy reuses freed blocks under 1 KiB)


def cell_line(marker: str) -> int:
    """The notebook line of the cell line containing ``marker``."""
    return FIRST_LINE + next(i for i, text in enumerate(CELL.splitlines()) if marker in text)


@pytest.fixture(scope="module")
def cell_op():
    ns: dict = {}
    run_cell("kc_cpp_cell", CELL, CellOptions(forward="overflow", backward="overflow_bw"), ns,
             first_line=FIRST_LINE)
    return ns["kc_cpp_cell"]


@pytest.fixture(scope="module")
def builder_fn():
    return CustomOpBuilder("kc_cpp_builder", str(BUILDER_FILE), backend="CPU").load().shift_right, str(BUILDER_FILE)


def test_a_cell_op_traces_back_to_its_cell_and_reads_past_the_end(cell_op):
    assert isinstance(cell_op, ForwardBackwardOp)
    target = cpp_target(cell_op)
    assert (target.name, target.function, target.module) == ("kc_cpp_cell", "overflow", "kc_cpp_cell")
    assert target.request.sources[0].name == "<cell kc_cpp_cell>"
    check = check_kernel(cell_op, X)
    assert isinstance(check, KernelCheck) and not check.ok and check.language == "cpp"
    [f] = check.findings
    assert (f.kind, f.file, f.line) == ("address", "<cell kc_cpp_cell>", cell_line("line 9:"))
    assert f.message == "heap-buffer-overflow: READ of size 4 past the end of a 32-byte block"
    assert "px[i] * 2.0f" in f.source and "AddressSanitizer: heap-buffer-overflow" in f.detail
    assert (f.tensor, f.index) == (None, None)
    assert "AddressSanitizer" in check.log and any("child process" in n for n in check.notes)
    # the child died of it; this process did not, and the op still runs here
    assert any("exited with status" in n for n in check.notes)
    assert cell_op(ms.Tensor(np.ones(2, np.float32))).shape == (2,)


def test_use_after_free_points_at_the_read_and_the_free(cell_op):
    check = check_kernel(cell_op.module.after_free, X)
    [f] = check.findings
    assert (f.kind, f.line) == ("address", cell_line("line 17:"))
    assert f.message.startswith("heap-use-after-free: READ of size 4")
    assert f.message.endswith(f"freed at <cell kc_cpp_cell>:{cell_line('line 16')}")


def test_signed_overflow_is_undefined_behaviour_at_its_line(cell_op):
    check = check_kernel(cell_op.module.add_one, 1)
    [f] = check.findings
    assert (f.kind, f.file, f.line) == ("undefined-behaviour", "<cell kc_cpp_cell>", cell_line("line 22:"))
    assert f.message == "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
    assert check.outputs == (-2147483648,)  # UBSan reports and lets the run finish
    assert check.of_kind("address") == []


def test_reading_new_memory_nothing_wrote_changes_the_output(cell_op):
    check = check_kernel(cell_op.module.uninit, BIG)
    [f] = check.findings
    assert (f.kind, f.tensor, f.index, f.count) == ("uninitialised-read", "out", (0,), 512)
    assert f.file == "<cell kc_cpp_cell>" and f.line is None


def test_an_output_half_written_shows_the_fill_byte(cell_op):
    check = check_kernel(cell_op.module.half, BIG)
    [f] = check.findings
    assert (f.kind, f.index, f.count) == ("unwritten-output", (256,), 256)
    out = check.outputs[0].asnumpy()
    assert (out[:256] == 1).all() and (out[256:].view(np.uint8) == 0xBE).all()


def test_a_clean_op_is_ok_and_returns_its_outputs(cell_op):
    check = check_kernel(cell_op.module.clean, X, 0.5)
    assert check.ok, str(check)
    assert str(check).startswith("check_kernel(kc_cpp_cell.clean): ok, no findings")
    np.testing.assert_array_equal(check.outputs[0].asnumpy(), X * 0.5)
    assert any("same outputs" in n for n in check.notes)


def test_a_crash_without_a_report_is_an_error_not_a_crash_here(cell_op):
    with pytest.raises(CheckedRunError, match="was killed by SIGABRT without a sanitizer report"):
        check_kernel(cell_op.module.crash, X)
    with pytest.raises(CheckedRunError, match="the op raised in the checked run: ValueError: refuse: no, thank you"):
        check_kernel(cell_op.module.refuse, X)
    with pytest.raises(CheckedRunError, match="did not finish within 3 s"):
        check_cpp(cpp_target(cell_op.module.forever), [X], timeout=3)


def test_a_function_op_applied_by_a_module_function(cell_op):
    """A C++ Function<T> op is reached through the module function that applies it."""
    [f] = check_kernel(cell_op.module.bump, X).findings
    assert (f.kind, f.line) == ("address", cell_line("writes out past its end"))
    assert f.message == "heap-buffer-overflow: WRITE of size 4 past the end of a 32-byte block"


def test_a_custom_op_builder_function_from_a_file(builder_fn):
    fn, path = builder_fn
    target = cpp_target(fn)
    assert target.request.sources[0].name == path
    [f] = check_kernel(fn, X).findings
    assert (f.kind, f.file, f.line) == ("address", path, 7)
    assert f.message == "heap-buffer-overflow: WRITE of size 4 past the end of a 32-byte block"
    assert f.source.strip().startswith("for (size_t i = 0; i < x.numel(); ++i) py[i + 1] = px[i];")


@pytest.mark.parametrize("op", [len, lambda x: x, np.add, ms.Tensor([1.0]), "kernel",
                                ForwardBackwardOp("py", lambda x: x, lambda x, o, d: d)],
                         ids=["builtin", "lambda", "ufunc", "tensor", "str", "python-forward-backward"])
def test_anything_else_is_a_type_error_naming_what_is_accepted(op):
    with pytest.raises(TypeError, match="a C\\+\\+ op \\(a C\\+\\+ cell's op or module function, a "
                                        "CustomOpBuilder module's function\\)"):
        check_kernel(op, X)
    with pytest.raises(TypeError, match="cpp_target: expected a C\\+\\+ op"):
        cpp_target(op)


def test_a_module_itself_is_not_an_op(cell_op):
    with pytest.raises(TypeError, match="but got module"):
        check_kernel(cell_op.module, X)


def test_a_compiler_without_sanitizers_says_so(cell_op, tmp_path, monkeypatch):
    """A real compiler wrapper that refuses -fsanitize (as a compiler built without the runtimes does)."""
    real = find_toolchain().cxx_argv[0]
    wrapper = tmp_path / "g++-nosan"
    wrapper.write_text("#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -fsanitize=*)\n"
                       "  echo \"g++-nosan: error: unrecognized command-line option '$a'\" >&2; exit 1;; esac; done\n"
                       f"exec {real} \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CXX", str(wrapper))
    with pytest.raises(SanitizerUnavailableError) as info:
        check_kernel(cell_op, X)
    message = str(info.value)
    assert str(wrapper) in message and "unrecognized command-line option" in message
    assert "apt-get install libasan8 libubsan1" in message
    assert isinstance(info.value, ms.errors.MskernelError)


def test_the_runtime_is_found_once_per_compiler():
    assert os.path.isabs(sanitizer_runtime()) and sanitizer_runtime() == sanitizer_runtime()
    assert sys.executable  # the child runs this same interpreter
