"""Keeping the build cache bounded: LRU eviction, busy entries, the automatic limit, the CLI."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mskernel.toolchain import Source, build, load_library
from mskernel.toolchain.cache import FileLock, lock_path
from mskernel.toolchain.evict import cache_entries, parse_size, prune

REPO = Path(__file__).resolve().parents[2]
OP = 'extern "C" int f(int a) { return a + %d; }\n'
DAY = 86400


def _make(name: str, k: int):
    return build(name, [Source("<c>", OP % k)])


def _age(root: Path, prefix: str, days: float) -> None:
    """Pretend the builds named ``prefix`` (entry and work dir) were last used ``days`` ago."""
    t = os.path.getmtime(root) - days * DAY
    for e in cache_entries(root):
        if e.name.startswith(prefix + "-"):
            for dirpath, dirs, files in os.walk(e.path):
                for n in files + dirs:
                    os.utime(os.path.join(dirpath, n), (t, t))
            os.utime(e.path, (t, t))


def test_old_builds_are_removed_and_rebuilt_on_demand(cache):
    a, b = _make("evict_a", 1), _make("evict_b", 2)
    _age(cache, "evict_a", 10)
    result = prune(cache, older_than_days=1)
    assert {e.name.split("-")[0] for e in result.removed} == {"evict_a"}
    assert {e.kind for e in result.removed} == {"artifact", "work"} and result.freed_bytes > 0
    assert not a.path.exists() and b.path.exists()
    assert _make("evict_b", 2).cached is True
    again = _make("evict_a", 1)
    assert again.cached is False and load_library(again).f(1) == 2


def test_size_limit_removes_least_recently_used_first(cache):
    _make("lru_old", 1)
    _make("lru_new", 2)
    _age(cache, "lru_old", 2)
    _age(cache, "lru_new", 1)
    _make("lru_old", 1)  # a cache hit marks its build used now; its work dir stays two days old
    entries = cache_entries(cache)
    keep = sum(e.bytes for e in entries if e.name.startswith("lru_old") and e.kind == "artifact")
    result = prune(cache, max_bytes=keep)
    removed = [(e.kind, e.name.split("-")[0]) for e in result.removed]
    assert removed[0] == ("work", "lru_old")  # oldest first
    assert set(removed[1:]) == {("work", "lru_new"), ("artifact", "lru_new")}
    assert result.kept_bytes == keep
    assert _make("lru_old", 1).cached is True


def test_an_entry_locked_by_a_build_is_skipped(cache):
    art = _make("busy", 1)
    entry = art.path.parent
    lock = FileLock(lock_path(cache, entry.name))
    assert lock.acquire(blocking=False)  # as a process rebuilding it would
    try:
        result = prune(cache, max_bytes=0)
    finally:
        lock.release()
    assert [e.name for e in result.skipped_busy] == [entry.name] and entry.exists()
    assert load_library(_make("busy", 1)).f(0) == 1


def test_dry_run_removes_nothing(cache):
    art = _make("dry", 1)
    result = prune(cache, max_bytes=0, dry_run=True)
    assert result.removed and art.path.exists()


def test_automatic_limit_after_a_cold_build_keeps_the_new_build(cache, monkeypatch):
    first = _make("auto_first", 1)
    monkeypatch.setenv("MSKERNEL_CACHE_MAX_SIZE", "1")  # one byte: everything else must go
    second = _make("auto_second", 2)
    assert not first.path.exists() and second.path.exists()
    assert load_library(second).f(1) == 3
    monkeypatch.setenv("MSKERNEL_CACHE_MAX_SIZE", "off")
    third = _make("auto_third", 3)
    assert second.path.exists() and third.path.exists()


def test_a_bad_limit_is_ignored_with_a_warning(cache, monkeypatch, caplog):
    monkeypatch.setenv("MSKERNEL_CACHE_MAX_SIZE", "lots")
    art = _make("badlimit", 1)
    assert art.path.exists()
    assert "ignoring MSKERNEL_CACHE_MAX_SIZE: cache size must be a number of bytes" in caplog.text


def test_parse_size():
    assert parse_size("2048") == 2048 and parse_size("1.5K") == 1536 and parse_size("3 MiB") == 3 * 2**20
    assert parse_size("0") is None and parse_size("off") is None
    with pytest.raises(ValueError, match="but got '-1G'"):
        parse_size("-1G")


def _cli(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MSKERNEL_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "mskernel", "cache", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_cli_usage_and_prune(cache):
    _make("cli_a", 1)
    usage = _cli(cache, "--usage")
    assert usage.returncode == 0 and usage.stdout.startswith(f"{cache}: 1 builds ") and "1 work dirs" in usage.stdout
    dry = _cli(cache, "--prune", "--max-size", "0", "--dry-run")
    assert dry.returncode == 0 and "would remove artifact cli_a-" in dry.stdout
    assert len(cache_entries(cache)) == 2
    real = _cli(cache, "--prune", "--max-size", "0")
    assert real.returncode == 0 and "removed 2 entries" in real.stdout
    assert cache_entries(cache) == []


@pytest.mark.parametrize("args, message", [
    (("--dry-run",), "--max-size, --older-than and --dry-run go with --prune"),
    (("--prune",), "--prune needs --max-size and/or --older-than"),
    (("--prune", "--max-size", "big"), "--max-size: cache size must be a number of bytes"),
])
def test_cli_argument_errors(cache, args, message):
    proc = _cli(cache, *args)
    assert proc.returncode == 2 and message in proc.stderr
