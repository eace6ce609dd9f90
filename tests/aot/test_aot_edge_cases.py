"""AOT edge cases: a library rebuilt at the same path is seen fresh, GPU builds are refused with
the reason, aclnn-named (Ascend) registrations construct, an InferShape-only source constructs."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.kernels.aot import AotError
from mskernel.kernels.aot_library import GpuLibraryError, gpu_requirement, needed_libraries

KERNEL = '''
#include <cstdint>
extern "C" int Scale(int n, void **p, int *nd, int64_t **sh, const char **dt, void *s, void *e) {
  float *x = static_cast<float *>(p[0]), *y = static_cast<float *>(p[1]);
  int64_t size = 1;
  for (int i = 0; i < nd[0]; ++i) size *= sh[0][i];
  for (int64_t i = 0; i < size; ++i) y[i] = FACTOR * x[i];
  return 0;
}
'''


def _so(path: Path, source: str, *flags: str) -> Path:
    src = path.with_suffix(".cc")
    src.write_text(source)
    subprocess.run(["g++", "-shared", "-fPIC", "-O1", str(src), "-o", str(path), *flags], check=True)
    return path


def _scale(path: Path):
    return ops.Custom(f"{path}:Scale", lambda x: x, lambda x: x, func_type="aot")


def test_a_library_rebuilt_at_the_same_path_is_loaded_fresh(tmp_path) -> None:
    lib = tmp_path / "scale.so"
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    first = _scale(_so(lib, KERNEL, "-DFACTOR=2"))
    np.testing.assert_array_equal(first(x).asnumpy(), [2.0, 4.0])
    second = _scale(_so(lib, KERNEL, "-DFACTOR=3"))  # rebuilt in place: a stale dlopen would still double
    np.testing.assert_array_equal(second(x).asnumpy(), [3.0, 6.0])
    np.testing.assert_array_equal(first(x).asnumpy(), [2.0, 4.0])  # the first op keeps its own code
    again = _scale(lib)  # same contents as the last build: the same mapping is reused
    np.testing.assert_array_equal(again(x).asnumpy(), [3.0, 6.0])


def test_a_library_linked_to_the_cuda_runtime_is_refused(tmp_path) -> None:
    fake = _so(tmp_path / "libcudart.so.12", "extern \"C\" int cudaFree(void *) { return 0; }",
               "-Wl,-soname,libcudart.so.12")
    lib = _so(tmp_path / "gpu_kernel.so", KERNEL, "-DFACTOR=2", "-Wl,--no-as-needed", f"-L{tmp_path}",
              "-l:libcudart.so.12")
    assert "libcudart.so.12" in needed_libraries(str(lib)) and fake.exists()
    with pytest.raises(GpuLibraryError) as info:
        _scale(lib)
    assert f"'{lib}' is built for a GPU: it links libcudart.so.12 (the CUDA runtime)" in str(info.value)
    assert "mskernel runs AOT kernels on the CPU" in str(info.value)


def test_a_library_with_cuda_device_code_is_refused(tmp_path) -> None:
    source = KERNEL + '__attribute__((section(".nv_fatbin"), used)) const char fatbin[16] = {1};\n'
    lib = _so(tmp_path / "fatbin.so", source, "-DFACTOR=2")
    assert gpu_requirement(str(lib)) == "it contains CUDA device code (an .nv_fatbin section)"
    with pytest.raises(GpuLibraryError, match="is built for a GPU: it contains CUDA device code"):
        _scale(lib)


def test_aclnn_named_registrations_construct_and_run_where_the_cpu_has_the_op() -> None:
    add = ops.Custom("aclnnAdd", lambda x, y: x, lambda x, y: x, func_type="aot")
    np.testing.assert_array_equal(add(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])).asnumpy(), [4.0, 6.0])
    custom = ops.Custom("aclnnAddCustom", lambda x, y: x, lambda x, y: x, func_type="aot")  # constructs
    with pytest.raises(RuntimeError, match="'aclnnAddCustom' is an aclnn operator registered for Ascend .* it runs "
                                           "on an Ascend device, and mskernel has no CPU version of it"):
        custom(ms.Tensor([1.0]), ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="'func' should be like 'file_name:func_name', but got add.so"):
        ops.Custom("add.so", lambda x: x, lambda x: x, func_type="aot")


def test_an_infer_shape_only_source_constructs_and_fails_clearly_when_called(tmp_path) -> None:
    src = tmp_path / "add_custom.cc"
    src.write_text('''
#include <cstdint>
#include <vector>
#include "custom_aot_extra.h"
extern "C" std::vector<int64_t> AddCustomInferShape(int *ndims, int64_t **shapes, AotExtra *extra) {
  return std::vector<int64_t>(shapes[0], shapes[0] + ndims[0]);
}
''')
    op = ops.Custom(f"{src}:AddCustom", None, lambda x, y: x, func_type="aot")
    with pytest.raises(AotError, match="defines only AddCustomInferShape, no kernel function 'AddCustom': on Ascend"):
        op(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
