"""CustomOpBuilder: MindSpore's validation (types and messages) and building/loading."""
from __future__ import annotations

import warnings

import pytest

from mskernel.toolchain import CustomOpBuilder, include_dir
from mskernel.toolchain import builder as builder_mod

CASES = [
    # (args, kwargs, exception type, exact message)
    ((123, "a.cc"), {}, TypeError, "The type of 'name' should be 'str', but got type 'int'."),
    (("op", 123), {}, TypeError, "The type of 'sources' should be one of '['list', 'tuple']', but got type 'int'."),
    (("op", ["a.cc", 123]), {}, TypeError, "The type of 'sources' should be str, but got '123' with type 'int'."),
    (("op", "a.cc"), {"backend": "GPU"}, ValueError,
     "For 'backend', only 'CPU' or 'Ascend' are allowed, but got 'GPU'."),
    (("op", "a.cc"), {"backend": 1}, TypeError,
     "The type of 'backend' should be one of '['str', 'NoneType']', but got type 'int'."),
    (("op", "a.cc"), {"include_paths": ["inc", 123]}, TypeError,
     "The type of 'include_paths' should be str, but got '123' with type 'int'."),
    (("op", "a.cc"), {"cflags": 123}, TypeError,
     "The type of 'cflags' should be one of '['str', 'NoneType']', but got type 'int'."),
    (("op", "a.cc"), {"ldflags": 123}, TypeError,
     "The type of 'ldflags' should be one of '['str', 'NoneType']', but got type 'int'."),
    (("op", "a.cc"), {"build_dir": 5}, TypeError,
     "The type of 'build_dir' should be one of '['str', 'NoneType']', but got type 'int'."),
    (("op", "a.cc"), {"debug_mode": "true"}, TypeError, "The 'debug_mode' must be a bool, but got str."),
    (("op", "a.cc"), {"enable_asdsip": 1}, TypeError, "The 'enable_asdsip' must be a bool, but got int."),
    (("op", "a.cc"), {"op_def": 123}, TypeError,
     "The type of 'op_def' should be one of '['list', 'tuple']', but got type 'int'."),
    (("op", "a.cc"), {"op_def": ["x.yaml", 123]}, TypeError,
     "The type of 'op_def' should be str, but got '123' with type 'int'."),
    (("op", "a.cc"), {"op_doc": 123}, TypeError,
     "The type of 'op_doc' should be one of '['list', 'tuple']', but got type 'int'."),
    (("op", "a.cc"), {"enable_atb": "yes"}, TypeError, "The input value must be a bool, but got str."),
    (("op", "a.cc"), {"backend": "CPU", "enable_atb": True}, ValueError,
     "For 'CustomOpBuilder', when 'enable_atb' is set to True, the 'backend' must be 'Ascend' (or left "
     "implicit), but got 'CPU'"),
    (("op", "a.cc"), {"backend": "CPU", "enable_asdsip": True}, ValueError,
     "For 'CustomOpBuilder', when 'enable_asdsip' is set to True, the 'backend' must be 'Ascend' (or left "
     "implicit), but got 'CPU'"),
]


@pytest.mark.parametrize("args, kwargs, exc, message", CASES, ids=[f"{c[2].__name__}-{i}" for i, c in enumerate(CASES)])
def test_validation_matches_mindspore(args, kwargs, exc, message):
    with pytest.raises(exc) as info:
        CustomOpBuilder(*args, **kwargs)
    assert str(info.value) == message


def test_accepted_arguments_and_getters(tmp_path):
    b = CustomOpBuilder("op", ("a.cpp", "b.cpp"), backend="CPU", include_paths="inc", cflags="-DA=1 -O3",
                        ldflags="-lm", build_dir=str(tmp_path), debug_mode=True)
    assert b.get_sources() == ["a.cpp", "b.cpp"]
    assert b.get_include_paths() == ["inc", str(include_dir())]
    assert b.get_cflags() == ["-DMS_EXTENSION_NAME=op", "-std=c++17", "-fPIC", "-g", "-DA=1", "-O3"]
    assert b.get_ldflags() == ["-shared", "-lm"]
    assert b.build_dir == str(tmp_path) and b.debug_mode is True


def test_ascend_backend_and_op_def_warn_once(monkeypatch):
    monkeypatch.setattr(builder_mod, "_warned", set())
    with pytest.warns(UserWarning, match="built and run on the CPU"):
        CustomOpBuilder("op", "a.cc", backend="Ascend")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CustomOpBuilder("op", "a.cc", backend="Ascend", enable_atb=True)  # no second warning
    with pytest.warns(UserWarning, match="'op_def' .* is ignored"):
        CustomOpBuilder("op", "a.cc", op_def="ops.yaml", op_doc=["doc.yaml"])


def test_missing_source_file_is_reported_not_compiled(cache):
    with pytest.raises(FileNotFoundError, match="'nope/missing.cpp' not found"):
        CustomOpBuilder("op", "nope/missing.cpp").build()


SRC = """#include <pybind11/pybind11.h>
int add3(int a, int b, int c) { return a + b + c + %d; }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("add3", &add3, "add three ints"); }
"""


@pytest.mark.slow
def test_load_inline_source_reuses_the_module_and_reloads_edits(cache, pch_ready):
    b = CustomOpBuilder("cob_inline", SRC % 0, backend="CPU")
    mod = b.load()
    assert mod.add3(1, 2, 3) == 6
    assert b.load() is mod and CustomOpBuilder("cob_inline", SRC % 0).load() is mod
    path = b.build()
    assert path.endswith(".so") and path.startswith(str(cache))
    edited = CustomOpBuilder("cob_inline", SRC % 100).load()
    assert edited is not mod and edited.add3(1, 2, 3) == 106 and mod.add3(1, 2, 3) == 6
    compile_cmd, link_cmd = (c.split() for c in b.build_artifact().manifest["commands"])
    for flag in ("-DMS_EXTENSION_NAME=cob_inline", "-std=c++17", "-fPIC", "-O2", str(include_dir())):
        assert compile_cmd.count(flag) == 1, flag  # build() adds the builder's defaults only once
    assert link_cmd.count("-shared") == 1 and link_cmd.count("-s") == 1


def test_inline_compile_error_names_the_inline_source(cache):
    from mskernel.toolchain import BuildError

    with pytest.raises(BuildError) as info:
        CustomOpBuilder("cob_err", ["int ok() { return 1; }", "int f() {\n  return nope;\n}\n"]).build()
    assert (info.value.location.file, info.value.location.line) == ("cob_err_inline_1.cpp", 2)
