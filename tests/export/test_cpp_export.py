"""The C++ export: the sources unchanged, a loader with MindSpore's documented CustomOpBuilder call, the
--forward/--backward bindings and Cell, and the refusals. (tests/golden/export compiles and runs one
export with MindSpore's own builder.)"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mskernel.cells import CellOptions, CellResult
from mskernel.mindspore_export import ExportError, export_mindspore
from mskernel.toolchain import CustomOpBuilder

CUBE = (Path(__file__).resolve().parents[1] / "golden" / "export" / "cube.cpp").read_text()
TINY = """#include <pybind11/pybind11.h>
int answer() { return 42; }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("answer", &answer); }
"""


def cell(name: str, code: str, **options) -> CellResult:
    """What a C++ %%custom_op cell leaves (its code and options), without building it."""
    return CellResult(name, "cpp", None, [(name, f"module {name}")], False, 0.0, "ab" * 32, code=code,
                      options=CellOptions(lang="cpp", **options))


def _imports(text: str) -> set[str]:
    return {(n.module if isinstance(n, ast.ImportFrom) else n.names[0].name).split(".")[0]
            for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.Import, ast.ImportFrom))}


def test_forward_backward_cell_exports_its_source_the_bindings_and_a_cell(tmp_path):
    out = export_mindspore(cell("cube_op", CUBE, forward="cube", backward="cube_grad"), tmp_path / "cube_op")
    assert sorted(p.name for p in out.iterdir()) == ["cube_op.cpp", "cube_op.py", "cube_op_module.cpp"]
    assert (out / "cube_op.cpp").read_text() == CUBE  # unchanged
    module = (out / "cube_op_module.cpp").read_text()
    assert '#include "cube_op.cpp"' in module and 'm.def("cube", &cube);' in module and \
        'm.def("cube_grad", &cube_grad);' in module
    loader = (out / "cube_op.py").read_text()
    assert 'builder = ops.CustomOpBuilder(name="cube_op", sources=os.path.join(HERE, "cube_op_module.cpp"), ' \
           'backend="CPU")' in loader
    assert "    def construct(self, x):\n        return self.module.cube(x)" in loader
    assert "    def bprop(self, x, out, dout):\n        grads = self.module.cube_grad(x, out, dout)" in loader
    assert _imports(loader) == {"os", "mindspore"}


def test_flags_and_include_directories_are_passed_as_mindspore_takes_them(tmp_path):
    out = export_mindspore(cell("tiny", TINY, cflags=["-O3", "-DN=4"], ldflags=["-lm"], include_dirs=["/opt/inc"]),
                           tmp_path / "tiny")
    loader = (out / "tiny.py").read_text()
    assert "include_paths=['/opt/inc'], cflags='-O3 -DN=4', ldflags='-lm')" in loader  # cflags is one string
    assert sorted(p.name for p in out.iterdir()) == ["tiny.cpp", "tiny.py"]


def test_a_custom_op_builder_is_exported_and_its_module_refused(tmp_path):
    src = tmp_path / "answer.cpp"
    src.write_text(TINY)
    builder = CustomOpBuilder("answer_mod", [str(src), "int other() { return 1; }\n"], cflags="-O2")
    out = export_mindspore(builder, tmp_path / "out")
    assert sorted(p.name for p in out.iterdir()) == ["answer.cpp", "answer_mod.py", "answer_mod_inline_1.cpp"]
    assert 'sources=[os.path.join(HERE, "answer.cpp"), os.path.join(HERE, "answer_mod_inline_1.cpp")]' in \
        (out / "answer_mod.py").read_text()
    module = builder.load()
    with pytest.raises(ExportError, match="a loaded C\\+\\+ module.*Export the CustomOpBuilder that loaded it"):
        export_mindspore(module, tmp_path / "m")


def test_what_mindspore_cannot_build_is_refused(tmp_path):
    with pytest.raises(ExportError) as err:
        export_mindspore(cell("own", '#include <cstdint>\n#include "mskernel/extension.h"\n' + TINY), tmp_path / "a")
    assert err.value.construct == '#include "mskernel/extension.h"' and err.value.location.line == 3
    assert 'Include "ms_extension/api.h"' in str(err.value)
    with pytest.raises(ExportError, match="--debug does not carry over"):
        export_mindspore(cell("dbg", TINY, debug=True), tmp_path / "b")
    with pytest.raises(ExportError, match="backend 'GPU' does not carry over.*builds for CPU or Ascend"):
        export_mindspore(cell("gpu", TINY, backend="GPU"), tmp_path / "c")
    with pytest.raises(ExportError, match="debug_mode=True does not carry over"):
        export_mindspore(CustomOpBuilder("dbg_mod", TINY, debug_mode=True), tmp_path / "d")
