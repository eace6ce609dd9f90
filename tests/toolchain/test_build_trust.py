"""Cache trust, as ssh and git treat their files: nothing is loaded from what another user can write."""
from __future__ import annotations

import logging
import os
import stat

import pytest

from mskernel.toolchain import Source, build, cache_dir, load_library
from mskernel.toolchain.cache import UntrustedCacheError, verify_entry

SRC = 'extern "C" int f() { return 5; }\n'


@pytest.mark.parametrize("mode,who", [(0o777, "group and others"), (0o770, "its group"), (0o703, "others")])
def test_a_cache_root_others_can_write_is_refused_and_left_alone(tmp_path, monkeypatch, mode, who):
    root = tmp_path / f"shared{mode:o}"
    root.mkdir()
    os.chmod(root, mode)
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(root))
    with pytest.raises(UntrustedCacheError) as info:
        cache_dir()
    msg = str(info.value)
    assert str(root) in msg and f"is writable by {who} (mode {mode:04o})" in msg
    assert f"chmod go-w {root}" in msg and "MSKERNEL_CACHE_DIR" in msg
    assert stat.S_IMODE(root.stat().st_mode) == mode  # never changed behind the user's back


def test_a_build_dir_others_can_write_is_refused(cache, tmp_path):
    shared = tmp_path / "team"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(UntrustedCacheError, match="is writable by group and others"):
        build("t_shared", [Source("<c>", SRC)], build_dir=shared)
    assert not list(shared.iterdir())  # nothing was written there


@pytest.mark.parametrize("target", ["entry", "manifest", "library"])
def test_an_entry_others_can_write_is_not_loaded_but_rebuilt(cache, caplog, target):
    art = build("t_entry", [Source("<c>", SRC)])
    entry = art.path.parent
    path = {"entry": entry, "manifest": entry / "manifest.json", "library": art.path}[target]
    os.chmod(path, stat.S_IMODE(path.stat().st_mode) | 0o020)
    assert verify_entry(entry, art.key) is None
    with caplog.at_level(logging.WARNING, logger="mskernel.toolchain"):
        again = build("t_entry", [Source("<c>", SRC)])
    assert not again.cached and load_library(again).f() == 5
    warnings = [r.getMessage() for r in caplog.records if "not trusted" in r.getMessage()]
    assert len(warnings) == 1 and f"its {target} {path} is writable by its group" in warnings[0]
    assert verify_entry(again.path.parent, again.key) is not None  # the rebuilt entry is private again


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a file to another user")
def test_an_entry_planted_by_another_user_is_not_loaded(cache):
    art = build("t_planted", [Source("<c>", SRC)])
    os.chown(art.path, 65534, 65534)  # as if user "nobody" had put it there
    assert verify_entry(art.path.parent, art.key) is None
    again = build("t_planted", [Source("<c>", SRC)])
    assert not again.cached and again.path.stat().st_uid == os.geteuid()


def test_a_damaged_library_loads_with_a_hint_not_a_bare_elf_error(cache, tmp_path):
    bad = tmp_path / "damaged.so"
    bad.write_bytes(b"not an ELF file at all" * 10)
    with pytest.raises(OSError) as info:
        load_library(bad)
    assert "is not a valid shared library" in str(info.value) and "delete its cache entry" in str(info.value)
