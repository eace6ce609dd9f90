"""What a build tells its caller: the stages as they happen (``on_stage``), the log as clean text,
and a full disk as a BuildError that names the directory and how to move it, with nothing published.

A full disk is produced for real where a path can be redirected: a file the build is about to write
is made a symbolic link to ``/dev/full`` (every write to it fails with ENOSPC). The copy into the
new cache entry goes to a fresh, randomly named directory, so there the failing OS call is injected.
"""
from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from mskernel.toolchain import BuildError, Source, build, load_library

PLAIN = 'extern "C" int seven(void) { return 7; }\n'
PYBIND = "#include <pybind11/pybind11.h>\nPYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.attr(\"v\") = {v}; }}\n"


def test_a_cold_build_reports_compiling_then_linking_and_a_cached_load_nothing(cache):
    seen: list[str] = []
    art = build("stages_plain", [Source("<s>", PLAIN)], on_stage=seen.append)
    assert seen == ["compiling", "linking"] and load_library(art).seven() == 7
    again: list[str] = []
    assert build("stages_plain", [Source("<s>", PLAIN)], on_stage=again.append).cached and again == []


def test_preparing_headers_is_reported_only_when_the_precompiled_header_is_built(cache, tmp_path, monkeypatch):
    from mskernel.toolchain.pch import PCH_SECONDS

    pch = tmp_path / "fresh-pch"
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(pch))
    first: list[str] = []
    art = build("stages_pch1", [Source("<p>", PYBIND.format(v=1))], kind="pybind11", split=False, pch=True,
                on_stage=first.append)
    assert first == [f"preparing headers (once; usually ~{PCH_SECONDS} s)", "compiling", "linking"]
    assert art.pch_seconds > 0 and list(pch.glob("pybind11-*/mskernel_pch.h.gch"))
    second: list[str] = []
    art = build("stages_pch2", [Source("<p>", PYBIND.format(v=2))], kind="pybind11", split=False, pch=True,
                on_stage=second.append)
    assert second == ["compiling", "linking"] and art.pch_seconds == 0.0  # the header was ready


def test_the_first_split_build_reports_the_support_object_it_waits_for(first_split_build):
    """The session's first split build (see conftest) built pybind11's runtime alongside its compile."""
    from mskernel.toolchain.support import SUPPORT_SECONDS

    stages, support_was_missing = first_split_build
    stages = [s for s in stages if not s.startswith("preparing headers")]  # derived split headers, if new
    once = f"(once; usually ~{SUPPORT_SECONDS} s)"
    if support_was_missing:
        assert stages[0] == f"compiling; preparing pybind11's runtime alongside {once}" and stages[-1] == "linking"
        assert stages[1:-1] in ([], [f"preparing pybind11's runtime {once}"])  # waited for it, unless it was done
    else:
        assert stages == ["compiling", "linking"]


def test_a_failed_build_log_is_clean_text_with_the_command_once(cache, monkeypatch):
    monkeypatch.setenv("CLICOLOR_FORCE", "1")  # what ipykernel sets: ninja then colours its FAILED line
    with pytest.raises(BuildError) as info:
        build("clean_log", [Source("<bad>", "int f() { return missing; }\n")])
    log = info.value.log
    assert "\x1b" not in log and "FAILED: " in log and "'missing' was not declared" in log.replace("\u2018", "'") \
        .replace("\u2019", "'")
    command = info.value.command
    assert " -c " in command and log.count(command) == 1
    assert f"] {command}\nFAILED: " in log  # once: on ninja's status line, not again under FAILED


def _entry_and_workdir(art) -> tuple[Path, Path]:
    entry = art.path.parent
    [workdir] = (entry.parent / ".work").glob(f"{art.name}-*")
    return entry, workdir


def _assert_disk_full(err: BuildError, root: Path) -> None:
    text = str(err)
    assert err.disk_full and text.startswith(f"{err.name}: the build cache directory {root} is full (")
    assert "No space left on device" in text and "MSKERNEL_CACHE_DIR" in text and "nothing was added" in text
    assert ".tmp" not in text and not err.diagnostics


def test_a_full_disk_under_the_linker_is_a_build_error_and_publishes_nothing(cache):
    art = build("full_link", [Source("<f>", PLAIN)])
    entry, workdir = _entry_and_workdir(art)
    shutil.rmtree(entry)  # (as if evicted) so the next call links again
    out = workdir / "out" / f"{entry.name}.so"
    out.unlink()
    out.symlink_to("/dev/full")  # the linker writes the library there: ENOSPC
    with pytest.raises(BuildError) as info:
        build("full_link", [Source("<f>", PLAIN)])
    _assert_disk_full(info.value, cache)
    assert "No space left on device" in info.value.log
    assert not entry.exists() and list((cache / ".tmp").iterdir()) == []


def test_a_full_disk_while_writing_a_source_is_a_build_error_and_leaves_no_partial_file(cache):
    art = build("full_src", [Source("<f>", PLAIN)])
    entry, workdir = _entry_and_workdir(art)
    shutil.rmtree(entry)
    [snapshot] = (workdir / "src").iterdir()
    snapshot.unlink()
    partial = snapshot.with_name(f"{snapshot.name}.{os.getpid()}")  # where the snapshot is written first
    partial.symlink_to("/dev/full")
    with pytest.raises(BuildError) as info:
        build("full_src", [Source("<f>", PLAIN)])
    _assert_disk_full(info.value, cache)
    assert isinstance(info.value.__cause__, OSError) and info.value.__cause__.errno == errno.ENOSPC
    assert not os.path.lexists(partial) and not snapshot.exists() and not entry.exists()


def test_a_full_disk_while_publishing_leaves_no_cache_entry(cache, monkeypatch):
    art = build("full_copy", [Source("<f>", PLAIN)])
    entry, _ = _entry_and_workdir(art)
    shutil.rmtree(entry)

    def no_space(*args):  # the OS call shutil.copyfile makes to copy the library into the new entry
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "sendfile", no_space)
    with pytest.raises(BuildError) as info:
        build("full_copy", [Source("<f>", PLAIN)])
    _assert_disk_full(info.value, cache)
    assert not entry.exists() and list((cache / ".tmp").iterdir()) == []
    monkeypatch.undo()
    assert load_library(build("full_copy", [Source("<f>", PLAIN)])).seven() == 7  # with room again, it builds


def test_a_full_build_dir_says_to_pass_another_build_dir(tmp_path):
    root = tmp_path / "own"
    art = build("full_own", [Source("<f>", PLAIN)], build_dir=root)
    entry, workdir = _entry_and_workdir(art)
    shutil.rmtree(entry)
    out = workdir / "out" / f"{entry.name}.so"
    out.unlink()
    out.symlink_to("/dev/full")
    with pytest.raises(BuildError, match=rf"full_own: the build directory {root} \(build_dir\) is full .* pass a "
                                         rf"build_dir on a disk with room"):
        build("full_own", [Source("<f>", PLAIN)], build_dir=root)
    assert not entry.exists()
