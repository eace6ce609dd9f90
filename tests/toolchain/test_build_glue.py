"""mskernel's glue compiled once (mskernel.toolchain.glue): split builds see it declared and link it from the
support archive; full builds compile it into the module as before. Real compiler, real nm."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from mskernel.toolchain import Source, build, find_support, include_dir, load_python_module
from mskernel.toolchain.glue import MARKER, declare_glue, glue_headers

OP = """#include "ms_extension.h"
using namespace mskernel;
struct Twice : Function<Twice> {
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x) {
    ctx->SaveForBackward({x});
    auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
    custom::CustomLaunchAclnn("aclnnMuls", {x, MakeValue<double>(%s)}, {out});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto dx = std::make_shared<BaseTensor>(g[0]->data_type(), g[0]->shape());
    custom::CustomLaunchAclnn("aclnnMuls", {g[0], MakeValue<double>(%s)}, {dx});
    return {ctx->NeedsInputGrad(0) ? dx : nullptr};
  }
};
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("twice", [](const BaseTensorPtr &x) { return Twice::Apply(x); }); }
"""
_MARKED_BODY = re.compile(rf"^[ \t]*{MARKER}\b[^;{{]*\{{", re.MULTILINE)


def _object_symbols(root, name: str) -> str:
    objs = sorted((root / ".work").glob(f"{name}-*/obj/*.o"))
    assert objs, f"no object of {name} kept in {root / '.work'}"
    return subprocess.run(["nm", "-C", str(objs[-1])], capture_output=True, text=True, check=True).stdout


def test_every_marked_definition_becomes_a_declaration():
    headers = glue_headers()
    marked = 0
    for path in include_dir().rglob("*.h"):
        text = path.read_text()
        marked += len(_MARKED_BODY.findall(text))
        derived = (headers.include / path.relative_to(include_dir())).read_text()
        assert not _MARKED_BODY.search(derived), path
        assert derived == declare_glue(text)
    assert marked >= 20  # the glue of tensor.h, function.h, aclnn_cpu.h, ...


def test_declare_glue_keeps_declarations_and_the_macro_definition():
    text = ("#define MSKERNEL_GLUE __attribute__((noinline))\nMSKERNEL_GLUE inline int f(int x);\n"
            "MSKERNEL_GLUE inline int g(const char *s) { return s[0] == '}'; }\nint h() { return 1; }\n")
    assert declare_glue(text) == ("#define MSKERNEL_GLUE __attribute__((noinline))\n"
                                  "MSKERNEL_GLUE inline int f(int x);\n"
                                  "MSKERNEL_GLUE int g(const char *s);\nint h() { return 1; }\n")


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs binutils' nm")
def test_a_split_op_links_the_glue_from_the_support_archive_and_a_full_one_compiles_it(cache):
    import numpy as np
    import mskernel as ms

    split = build("glue_split", [Source("<split>", OP % ("2.0", "2.0"))], kind="pybind11")
    assert split.mode == "split" and find_support() is not None
    assert f"-I {glue_headers().include}" in split.manifest["commands"][0]
    full = build("glue_full", [Source("<full>", OP % ("2.0", "2.0"))], kind="pybind11", split=False)
    assert full.mode == "full" and str(glue_headers().include) not in full.manifest["commands"][0]
    # Finish (graph recording) and LaunchAclnn are glue: referenced by the split object, defined in the full one
    for fn in ("mskernel::detail::FunctionNode::Finish", "mskernel::aclnn::LaunchAclnn"):
        assert re.search(rf"^\s+U {re.escape(fn)}\(", _object_symbols(cache, "glue_split"), re.M), fn
        assert re.search(rf"^[0-9a-f]+ [TW] {re.escape(fn)}\(", _object_symbols(cache, "glue_full"), re.M), fn
    x = ms.Tensor(np.array([1.0, -3.0], np.float32))
    for art, name in ((split, "glue_split"), (full, "glue_full")):
        twice = load_python_module(art, name).twice
        np.testing.assert_array_equal(twice(x).asnumpy(), [2.0, -6.0])
        np.testing.assert_array_equal(ms.grad(twice)(x).asnumpy(), [2.0, 2.0])
