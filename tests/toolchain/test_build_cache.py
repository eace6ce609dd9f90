"""The content-addressed cache: hits without a compiler, keys that follow edits, integrity."""
from __future__ import annotations

import os
import subprocess
import textwrap

import pytest

from mskernel.toolchain import Source, build, load_library
from mskernel.toolchain import cache as cache_mod

ADD = 'extern "C" int f(int a) { return a + %d; }\n'


def test_cache_hit_runs_no_subprocess_at_all(cache, monkeypatch):
    build("nohit", [Source("<c>", ADD % 1)])

    def forbidden(*args, **kwargs):
        raise AssertionError(f"a cached build started a process: {args[:1]}")

    monkeypatch.setattr(subprocess.Popen, "__init__", forbidden)
    art = build("nohit", [Source("<c>", ADD % 1)])
    assert art.cached is True
    assert load_library(art).f(1) == 2


def test_cache_hit_in_a_fresh_process_never_runs_the_compiler(cache, cxx_wrapper, run_python):
    wrapper = cxx_wrapper()
    code = textwrap.dedent("""
        import subprocess, sys
        from mskernel.toolchain import build, Source, load_library
        if sys.argv[-1] == "forbid":
            def forbidden(*a, **k):
                raise AssertionError("process started")
            subprocess.Popen.__init__ = forbidden
        art = build("fresh", [Source("<c>", 'extern "C" int f() { return 7; }')])
        print(art.cached, load_library(art).f())
    """)
    env = {"CXX": str(wrapper.path), "MSKERNEL_CACHE_DIR": str(cache)}
    first = run_python(code, env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["False", "7"]
    calls_after_first = wrapper.invocations()
    assert len(wrapper.compiles()) == 1
    second = run_python(code.replace('sys.argv[-1] == "forbid"', "True"), env)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["True", "7"]
    assert wrapper.invocations() == calls_after_first  # not even `--version`


def test_edit_gives_new_key_new_file_and_both_libraries_work(cache):
    old = build("edit", [Source("<c>", ADD % 1)])
    new = build("edit", [Source("<c>", ADD % 2)])
    assert new.key != old.key and new.path != old.path and not new.cached
    lib_old, lib_new = load_library(old), load_library(new)
    assert (lib_old.f(10), lib_new.f(10)) == (11, 12)
    assert load_library(old) is lib_old


def test_key_covers_flags_kind_and_name(cache):
    base = build("flags", [Source("<c>", ADD % 1)])
    keys = {base.key,
            build("flags", [Source("<c>", ADD % 1)], cflags=["-DX=1"]).key,
            build("flags", [Source("<c>", ADD % 1)], optimize="-O3").key,
            build("flags", [Source("<c>", ADD % 1)], ldflags=["-lm"]).key,
            build("flags2", [Source("<c>", ADD % 1)]).key,
            build("flags", [Source("<other name>", ADD % 1)]).key}
    assert len(keys) == 6


def test_local_header_edit_changes_key_and_rebuilds(cache, tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (tmp_path / "local.h").write_text('#include "nested.h"\n')
    (tmp_path / "nested.h").write_text("#define LOCAL 1\n")
    (inc / "angle.h").write_text("#define ANGLE 10\n")
    src = tmp_path / "k.cpp"
    src.write_text('#include "local.h"\n#include <angle.h>\nextern "C" int f() { return LOCAL + ANGLE; }\n')

    def make():
        return build("hdr", [src], include_paths=[inc])

    a = make()
    assert load_library(a).f() == 11 and make().cached
    (tmp_path / "nested.h").write_text("#define LOCAL 2\n")  # a header included by a header
    b = make()
    assert b.key != a.key and not b.cached and load_library(b).f() == 12
    (inc / "angle.h").write_text("#define ANGLE 20\n")  # found through include_paths
    c = make()
    assert c.key not in (a.key, b.key) and load_library(c).f() == 22
    assert make().cached


def test_only_the_edited_source_of_a_multi_file_op_recompiles(cache, tmp_path):
    files = []
    for i in range(3):
        p = tmp_path / f"part{i}.cpp"
        p.write_text(f'extern "C" int part{i}() {{ return {i}; }}\n')
        files.append(p)
    first = build("multi", files)
    assert first.log.count(" -c ") == 3
    files[1].write_text('extern "C" int part1() { return 100; }\n')
    second = build("multi", files)
    assert second.log.count(" -c ") == 1, second.log
    lib = load_library(second)
    assert (lib.part0(), lib.part1(), lib.part2()) == (0, 100, 2)


@pytest.mark.parametrize("damage", ["truncate", "flip-byte", "delete-manifest"])
def test_damaged_entry_is_rebuilt_never_loaded(cache, damage):
    art = build(f"dmg_{damage.replace('-', '_')}", [Source("<c>", ADD % 5)])
    data = art.path.read_bytes()
    st = art.path.stat()
    if damage == "truncate":
        art.path.write_bytes(data[: len(data) // 2])
    elif damage == "flip-byte":
        pos = len(data) // 2
        art.path.write_bytes(data[:pos] + bytes([data[pos] ^ 0xFF]) + data[pos + 1:])
        os.utime(art.path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    else:
        (art.path.parent / "manifest.json").unlink()
    again = build(art.name, [Source("<c>", ADD % 5)])
    assert again.cached is False and again.path == art.path and again.key == art.key
    assert again.path.read_bytes() != b"" and cache_mod.verify_entry(again.path.parent, again.key)
    assert load_library(again).f(1) == 6


def test_altered_library_is_detected_by_a_fresh_process(cache, run_python):
    art = build("fresh_dmg", [Source("<c>", ADD % 5)])
    data = bytearray(art.path.read_bytes())
    st = art.path.stat()
    data[len(data) // 2] ^= 0xFF
    art.path.write_bytes(bytes(data))
    os.utime(art.path, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size and mtime: only the hash can tell
    code = ("from mskernel.toolchain import build, Source, load_library\n"
            "a = build('fresh_dmg', [Source('<c>', 'extern \"C\" int f(int a) { return a + 5; }\\n')])\n"
            "print(a.cached, load_library(a).f(1))")
    out = run_python(code, {"MSKERNEL_CACHE_DIR": str(cache)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "6"]


def test_failed_build_leaves_no_entry_and_the_fix_builds(cache):
    from mskernel.toolchain import BuildError

    with pytest.raises(BuildError):
        build("fails", [Source("<c>", 'extern "C" int f() { return undefined_name; }')])
    assert not list(cache.glob("fails-*"))
    assert not list((cache / ".tmp").glob("*")) if (cache / ".tmp").exists() else True
    art = build("fails", [Source("<c>", 'extern "C" int f() { return 3; }')])
    assert load_library(art).f() == 3
    with pytest.raises(BuildError):  # the failure is not cached either: it fails again, by compiling
        build("fails", [Source("<c>", 'extern "C" int f() { return undefined_name; }')])


def test_stale_temp_dirs_are_cleaned_by_the_next_cold_build(cache):
    build("warm", [Source("<c>", ADD % 1)])
    stale = cache / ".tmp" / "ghost-0123456789abcdef~deadbeef"
    stale.mkdir(parents=True)
    (stale / "half.so").write_bytes(b"\x7fELF")
    build("cold", [Source("<c>", ADD % 2)])
    assert not stale.exists()


def test_force_recompiles_every_source_and_replaces_the_entry(cache, cxx_wrapper, monkeypatch):
    from mskernel.toolchain import Source, build, load_library

    wrapper = cxx_wrapper()
    monkeypatch.setenv("CXX", str(wrapper.path))
    src = [Source("<c>", 'extern "C" int forced() { return 4; }\n')]
    first = build("forced", src)
    assert build("forced", src).cached and len(wrapper.compiles()) == 1
    again = build("forced", src, force=True)
    assert not again.cached and len(wrapper.compiles()) == 2  # compiled, not just relinked
    assert again.path == first.path and load_library(again).forced() == 4
    assert build("forced", src).cached  # and published for the next caller
