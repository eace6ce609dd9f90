"""build(): plain and C libraries, flags, cache layout, cache dir, toolchain errors."""
from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest

from mskernel.toolchain import (Artifact, BuildError, Source, ToolchainError, build, cache_dir, find_toolchain,
                            include_dir, load_library)
from mskernel.toolchain.cache import verify_entry
from mskernel.errors import MskernelError

ADD = 'extern "C" int add(int a, int b) { return a + b; }\n'


def test_plain_build_and_ctypes_call(cache):
    art = build("plain_add", [Source("<cell 1>", ADD)])
    assert isinstance(art, Artifact)
    assert art.cached is False and art.seconds > 0
    assert art.path.name == "plain_add.so" and art.path.is_file()
    assert art.path.parent.parent == cache
    assert art.path.parent.name == f"plain_add-{art.key[:16]}"
    assert load_library(art).add(40, 2) == 42
    manifest = json.loads((art.path.parent / "manifest.json").read_text())
    assert manifest["key"] == art.key and manifest["size"] == art.path.stat().st_size
    assert manifest["compiler_version"] == find_toolchain().cxx_version
    assert [c.split()[0] for c in manifest["commands"]] == [find_toolchain().cxx] * 2  # compile, link
    assert " -c " in manifest["commands"][0] and manifest["commands"][1].endswith(".so")
    # plain kernels see no Python or pybind11 headers
    assert not any("python3" in f or "pybind11" in f for f in manifest["cxxflags"])
    assert f"{include_dir()}" in manifest["cxxflags"]


def test_second_build_is_cached_and_runs_no_compiler(cache, cxx_wrapper, monkeypatch):
    """(How fast a cached build() is, is measured by benchmarks/build_layer.py, not asserted here.)"""
    wrapper = cxx_wrapper()
    monkeypatch.setenv("CXX", str(wrapper.path))
    first = build("plain_cached", [Source("<c>", ADD)])
    calls = len(wrapper.invocations())
    second = build("plain_cached", [Source("<c>", ADD)])
    assert (second.cached, second.seconds, second.path, second.key) == (True, 0.0, first.path, first.key)
    for _ in range(5):
        assert build("plain_cached", [Source("<c>", ADD)]).cached
    assert len(wrapper.invocations()) == calls  # not even a version probe


def test_c_source_compiles_as_c(cache):
    # 'new' and 'class' are identifiers in C but keywords in C++.
    src = "int class_count(void) { int new = 2, class = 3; return new * class; }\n"
    art = build("cfile", [Source("kernel.c", src)])
    assert load_library(art).class_count() == 6


def test_mixed_c_and_cpp_sources(cache, tmp_path):
    c_file = tmp_path / "helper.c"
    c_file.write_text("int helper(int x) { return 10 * x; }\n")
    cpp = Source("main.cpp", 'extern "C" int helper(int); extern "C" int entry(int x) { return helper(x) + 1; }')
    assert load_library(build("mixed", [c_file, cpp])).entry(4) == 41


def test_file_source_and_debug_flags(cache, tmp_path):
    path = tmp_path / "k.cpp"
    path.write_text(ADD)
    art = build("dbg", [str(path)], debug=True)
    flags = art.manifest["cxxflags"]
    assert "-g" in flags and "-O0" in flags and "-O2" not in flags
    assert "-s" not in art.manifest["ldflags"]
    out = subprocess.run(["nm", str(art.path)], capture_output=True, text=True).stdout
    assert " add" in out  # not stripped: the static symbol table is there
    assert build("dbg", [str(path)], debug=False).key != art.key


def test_openmp_kernel(cache):
    src = ('#include <omp.h>\nextern "C" int threads() { int n = 0;\n'
           "#pragma omp parallel reduction(+:n)\n n += 1;\n return n; }\n")
    art = build("omp", [Source("omp.cpp", src)], openmp=True)
    assert "-fopenmp" in art.manifest["cxxflags"]
    assert load_library(art).threads() >= 1


def test_build_dir_holds_the_artifacts(cache, tmp_path):
    root = tmp_path / "elsewhere"
    art = build("bd", [Source("<c>", ADD)], build_dir=root)
    assert art.path.parent.parent == root and not (cache / art.path.parent.name).exists()
    assert stat.S_IMODE(root.stat().st_mode) == 0o700


def test_cache_dir_reads_env_at_call_time_and_is_private(tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(a))
    assert cache_dir() == a and stat.S_IMODE(a.stat().st_mode) == 0o700
    b.mkdir(mode=0o755)
    os.chmod(b, 0o755)
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(b))
    assert cache_dir() == b
    assert stat.S_IMODE(b.stat().st_mode) == 0o755  # readable by others is fine, and never changed for you
    monkeypatch.delenv("MSKERNEL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "mskernel"


def test_argument_errors_name_what_was_expected(cache):
    with pytest.raises(ValueError, match="C identifier.*'bad-name'"):
        build("bad-name", [Source("<c>", ADD)], kind="pybind11")
    with pytest.raises(ValueError, match="kind must be one of"):
        build("k", [Source("<c>", ADD)], kind="cuda")
    with pytest.raises(FileNotFoundError, match="no_such_file.cpp"):
        build("k", ["no_such_file.cpp"])
    with pytest.raises(TypeError, match="path .* or a Source, but got int"):
        build("k", [123])
    with pytest.raises(ValueError, match="optimize must be one of"):
        build("k", [Source("<c>", ADD)], optimize="fast")
    with pytest.raises(TypeError, match="cflags must be a sequence of strings"):
        build("k", [Source("<c>", ADD)], cflags="-O3")


def test_missing_compiler_is_an_actionable_toolchain_error(cache, monkeypatch):
    monkeypatch.setenv("CXX", "/nonexistent/g++")
    with pytest.raises(ToolchainError, match="apt-get install g\\+\\+") as info:
        build("k", [Source("<c>", ADD)])
    assert isinstance(info.value, MskernelError)


def test_link_error_for_undefined_function_is_readable(cache):
    src = 'int helper(int);\nextern "C" int f(int x) { return helper(x) + 1; }\n'
    with pytest.raises(BuildError) as info:
        build("undef", [Source("<cell 4>", src)])
    err = info.value
    assert "undefined reference to" in str(err) and "helper(int)" in str(err)
    assert "link error" in str(err)
    assert err.location is None
    assert "collect2" in err.log or "ld" in err.log
    assert not list(cache.glob("undef-*"))


def test_headers_in_sources_are_hashed_not_compiled(cache, tmp_path):
    h = tmp_path / "consts.h"
    h.write_text("#define K 5\n")
    cpp = Source(str(tmp_path / "k.cpp"), '#include "consts.h"\nextern "C" int k() { return K; }\n')
    art = build("hdr_src", [cpp, h])
    assert load_library(art).k() == 5
    assert art.log.count(" -c ") == 1


def test_verify_entry_rejects_wrong_key(cache):
    art = build("vk", [Source("<c>", ADD)])
    assert verify_entry(art.path.parent, art.key) is not None
    assert verify_entry(art.path.parent, "0" * 64) is None
