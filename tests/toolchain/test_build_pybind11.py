"""pybind11 and CPython modules: build, load without sys.modules, reload edits, PCH."""
from __future__ import annotations

import sys

import pytest

from mskernel.toolchain import (BuildError, Source, build, find_pch, find_support, load_python_module, prepare_pch,
                                prepare_support)
from mskernel.toolchain.pch import pch_header_text
from mskernel.toolchain.discover import find_toolchain


def test_pybind11_module_builds_loads_and_runs(pybind_v1):
    art, root, source = pybind_v1
    assert art.kind == "pybind11" and art.path.name == "mk_pyb" + find_toolchain().ext_suffix
    mod = load_python_module(art, "mk_pyb")
    assert mod.version() == 1
    assert "mk_pyb" not in sys.modules
    assert load_python_module(art, "mk_pyb") is mod
    flags = art.manifest["cxxflags"]
    assert "-DMS_EXTENSION_NAME=mk_pyb" in flags and "-DTORCH_EXTENSION_NAME=mk_pyb" in flags
    assert "-fvisibility=hidden" in flags
    assert any(f.endswith("pybind11/include") for f in flags)
    assert "-include" in art.log and "mskernel_pch.h" in art.log  # compiled against the shared PCH
    assert build("mk_pyb", [source(1)], kind="pybind11", build_dir=root).cached


@pytest.mark.slow
def test_edited_module_loads_as_new_module_and_old_one_still_works(pybind_v1):
    old_art, root, source = pybind_v1
    old = load_python_module(old_art, "mk_pyb")
    new_art = build("mk_pyb", [source(2)], kind="pybind11", build_dir=root)
    assert new_art.path != old_art.path and not new_art.cached
    new = load_python_module(new_art, "mk_pyb")
    assert new is not old
    assert (old.version(), new.version()) == (1, 2)


def test_wrong_module_name_is_a_clear_import_error(pybind_v1):
    art = pybind_v1[0]
    with pytest.raises(ImportError, match="PyInit_other"):
        load_python_module(art, "other")


def test_cpython_kind_builds_a_c_api_module(cache):
    src = """#define PY_SSIZE_T_CLEAN
#include <Python.h>
static PyObject* answer(PyObject*, PyObject*) { return PyLong_FromLong(42); }
static PyMethodDef methods[] = {{"answer", answer, METH_NOARGS, "42"}, {nullptr, nullptr, 0, nullptr}};
static PyModuleDef def = {PyModuleDef_HEAD_INIT, "capi_mod", nullptr, -1, methods};
PyMODINIT_FUNC PyInit_capi_mod(void) { return PyModule_Create(&def); }
"""
    art = build("capi_mod", [Source("capi.cpp", src)], kind="cpython")
    assert not any("pybind11" in f for f in art.manifest["cxxflags"])
    assert load_python_module(art, "capi_mod").answer() == 42


def test_undefined_symbol_in_a_module_is_reported_as_a_link_error(cache):
    src = ('#include <Python.h>\nint helper(int);\n'
           'extern "C" PyObject* PyInit_undef_mod(void) { helper(1); return nullptr; }\n')
    art = build("undef_mod", [Source("u.cpp", src)], kind="cpython")
    with pytest.raises(BuildError, match=r"undefined symbol 'helper\(int\)'"):
        load_python_module(art, "undef_mod")


def test_pch_is_reused_and_keyed_by_options(pch_ready):
    assert pch_ready.gch.stat().st_size > 1_000_000
    again = prepare_pch()
    assert again.cached and again.gch == pch_ready.gch and again.seconds == 0.0
    text = pch_ready.header.read_text()
    assert text.index("<vector>") < text.index('optimize ("O1")') < text.index("pybind11/pybind11.h")
    for kernel_facing in ("pybind11/numpy.h", "pybind11/stl.h", "pybind11/functional.h"):
        assert text.index("pop_options") < text.index(kernel_facing)
    assert 'optimize ("O1")' not in pch_header_text(find_toolchain(), "-O0")


@pytest.mark.slow
def test_kernel_code_keeps_its_optimization_under_the_pch(pybind_v1, tmp_path):
    """std:: inline functions must inline into user loops (not be stuck at the glue's -O1)."""
    src = ("#include <pybind11/pybind11.h>\n#include <cmath>\n"
           "float k(float x) { float s = 0; for (int i = 0; i < 64; ++i) s += std::sqrt(x + i); return s; }\n"
           "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\"k\", &k); }\n")
    root = pybind_v1[1]
    art = build("mk_inline", [Source("<k>", src)], kind="pybind11", build_dir=root, debug=False)
    import subprocess

    dyn = subprocess.run(["nm", "-D", "-C", str(art.path)], capture_output=True, text=True).stdout
    assert "std::sqrt" not in dyn  # an out-of-line std::sqrt(float) would mean the pragma leaked
    assert load_python_module(art, "mk_inline").k(0.0) == pytest.approx(sum(i ** 0.5 for i in range(64)), rel=1e-5)


@pytest.mark.slow
def test_the_first_split_build_prepares_the_pch_alongside_the_support_object(cache, tmp_path, monkeypatch,
                                                                             pybind_v1):
    """A fresh cache: the precompiled header is built while the support object compiles (not after, in the
    background), so the first build already uses it and the edits after it find it ready."""
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(tmp_path / "fresh-pch"))
    source = pybind_v1[2]
    assert find_support() is None and find_pch(split=True) is None
    stages = []
    first = build("pre_first", [source(7)], kind="pybind11", on_stage=stages.append)  # pch=None
    assert first.mode == "split" and find_support() is not None
    assert "mskernel_pch.h" in first.log and "not used because" not in first.log and first.pch_seconds > 0
    assert any("preparing headers and pybind11's runtime" in s for s in stages), stages
    assert find_pch(split=True).cached
    assert load_python_module(first, "pre_first").version() == 7


@pytest.mark.slow
def test_a_pch_failing_alongside_the_support_object_does_not_fail_the_first_build(cache, tmp_path, monkeypatch,
                                                                                  pybind_v1):
    wrapper = tmp_path / "cxx.sh"
    wrapper.write_text('#!/bin/sh\ncase " $* " in *" c++-header "*) exit 1 ;; esac\nexec g++ "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CXX", str(wrapper))
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(tmp_path / "fresh-pch"))
    first = build("pre_fail", [pybind_v1[2](5)], kind="pybind11")  # pch=None: a PCH is never required
    assert first.mode == "split" and "mskernel_pch.h" not in first.log and first.pch_seconds == 0.0
    assert load_python_module(first, "pre_fail").version() == 5


@pytest.mark.slow
def test_a_build_without_its_pch_starts_it_in_the_background(cache, tmp_path, monkeypatch, pybind_v1):
    """The support object is ready but this optimization level's PCH is not: compile without it, start it."""
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(tmp_path / "fresh-pch"))
    prepare_support()  # (always -O2, whatever the op's level)
    source = pybind_v1[2]
    first = build("bg_first", [source(7)], kind="pybind11", optimize="-O1")  # pch=None: do not wait for the PCH
    assert "mskernel_pch.h" not in first.log and first.pch_seconds == 0.0
    assert first.mode == "split"  # so the PCH it starts is the split one
    # started after the compile, in the background
    assert find_pch(split=True, optimize="-O1") is None or find_pch(split=True, optimize="-O1").cached
    assert load_python_module(first, "bg_first").version() == 7
    pch = prepare_pch(split=True, optimize="-O1")  # blocks until the background build has published it
    assert pch.cached and pch.gch.exists() and str(pch.gch).startswith(str(tmp_path / "fresh-pch"))
    second = build("bg_second", [source(8)], kind="pybind11", optimize="-O1")
    assert "mskernel_pch.h" in second.log and "not used because" not in second.log
    assert load_python_module(second, "bg_second").version() == 8


def test_a_failing_pch_build_is_not_retried_in_the_background(cache, tmp_path, monkeypatch):
    from mskernel.toolchain import ToolchainError

    log = tmp_path / "calls.log"
    wrapper = tmp_path / "cxx.sh"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\ncase " $* " in *" c++-header "*) exit 1 ;; esac\n'
                       'exec g++ "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CXX", str(wrapper))
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(tmp_path / "pch"))

    def pch_attempts() -> int:
        return sum("c++-header" in line for line in log.read_text().splitlines()) if log.exists() else 0

    assert prepare_pch(wait=False) is None  # starts the background build, which fails
    import time

    deadline = time.monotonic() + 60
    while not list((tmp_path / "pch").glob("*.failed.log")):
        assert time.monotonic() < deadline, "background PCH build did not finish"
        time.sleep(0.05)
    assert pch_attempts() == 1
    assert prepare_pch(wait=False) is None and pch_attempts() == 1  # not started again
    with pytest.raises(ToolchainError, match="precompiling pybind11 failed"):
        prepare_pch(wait=True)  # an explicit request does try again, and says why it failed
    assert pch_attempts() == 2


def test_pybind11_checks_the_gil_on_reference_counts_only_in_debug_builds(cache):
    # the check costs a thread-state lookup at every reference count change of every call; a debug build
    # keeps it (it finds reference counts changed without the GIL)
    src = Source("gil_checks.cpp", "#include <pybind11/pybind11.h>\n"
                 "PYBIND11_MODULE(MS_EXTENSION_NAME, m) {\n"
                 "#ifdef PYBIND11_ASSERT_GIL_HELD_INCREF_DECREF\n  m.attr(\"checks\") = true;\n"
                 "#else\n  m.attr(\"checks\") = false;\n#endif\n}\n")
    assert load_python_module(build("gil_checks", [src], kind="pybind11"), "gil_checks").checks is False
    debug = build("gil_checks", [src], kind="pybind11", debug=True)
    assert load_python_module(debug, "gil_checks").checks is True
