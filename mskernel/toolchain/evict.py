"""Keeping the build cache bounded: usage, least-recently-used eviction, ``python -m mskernel cache``.

What can go: published artifacts (``<root>/<name>-<key>/``) and ninja work dirs
(``<root>/.work/<name>-<config>/``), oldest use first. A cached load touches its entry, so "last
used" is the entry's mtime (a work dir's: its ``.ninja_log``). Each removal takes the entry's lock
without waiting -- an entry being built or rebuilt by another process is skipped -- and renames the
entry into ``.tmp`` before deleting it, so a reader sees the whole entry or none (a missing entry is
simply rebuilt). Precompiled headers, the split support object and derived headers (``pch_dir()``) are shared
one-time artifacts and are only counted.

After each cold build the cache is pruned to ``$MSKERNEL_CACHE_MAX_SIZE`` (default ``10G``;
``0`` or ``off`` disables it), like ccache's ``max_size``.

Example:
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> for name, size in (("old-0123456789abcdef", 3000), ("new-fedcba9876543210", 1000)):
    ...     (root / name).mkdir(); _ = (root / name / "lib.so").write_bytes(b"x" * size)
    >>> os.utime(root / "old-0123456789abcdef", (1, 1))   # used long ago
    >>> result = prune(root, max_bytes=2000)
    >>> [e.name for e in result.removed], result.freed_bytes, sorted(p.name for p in root.iterdir())
    (['old-0123456789abcdef'], 3000, ['.locks', '.tmp', 'new-fedcba9876543210'])
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, List, Optional

from mskernel.toolchain.cache import FileLock, lock_path

__all__ = ["CacheEntry", "PruneResult", "cache_entries", "directory_bytes", "prune", "parse_size", "max_cache_bytes",
           "touch", "auto_prune"]

log = logging.getLogger("mskernel.toolchain")

DEFAULT_MAX = "10G"
_ENTRY = re.compile(r"^.+-[0-9a-f]{16}$")


@dataclass
class CacheEntry:
    """One removable thing in a cache root.

    Attributes:
        path: the directory.
        kind: ``"artifact"`` (a published build) or ``"work"`` (a ninja work dir).
        bytes: total size of its files.
        last_used: seconds since the epoch.
    """

    path: Path
    kind: str
    bytes: int
    last_used: float

    @property
    def name(self) -> str:
        """The directory name."""
        return self.path.name

    @property
    def lock_name(self) -> str:
        """The name of the lock guarding it (the build layer's naming)."""
        return self.name if self.kind == "artifact" else f"work-{self.name}"


@dataclass
class PruneResult:
    """What :func:`prune` removed (or would remove, with ``dry_run``) and what is left."""

    removed: List[CacheEntry] = field(default_factory=list)
    skipped_busy: List[CacheEntry] = field(default_factory=list)
    kept_bytes: int = 0

    @property
    def freed_bytes(self) -> int:
        """Bytes removed."""
        return sum(e.bytes for e in self.removed)


def directory_bytes(path: Path) -> int:
    """Total size of the regular files under ``path`` (0 if it vanished).

    Example:
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp()); _ = (d / "a").write_bytes(b"12345")
        >>> directory_bytes(d)
        5
    """
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                st = os.lstat(os.path.join(dirpath, f))
            except OSError:
                continue
            total += st.st_size
    return total


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def cache_entries(root: Path) -> List[CacheEntry]:
    """The artifacts and work dirs under ``root``, least recently used first.

    Example:
        >>> import tempfile
        >>> cache_entries(Path(tempfile.mkdtemp()))
        []
    """
    found: List[CacheEntry] = []
    try:
        names = os.listdir(root)
    except OSError:
        return found
    for n in names:
        p = root / n
        if not n.startswith(".") and _ENTRY.match(n) and p.is_dir():
            found.append(CacheEntry(p, "artifact", directory_bytes(p), _mtime(p)))
    work = root / ".work"
    if work.is_dir():
        for n in os.listdir(work):
            p = work / n
            if p.is_dir():
                log_file = p / "obj" / ".ninja_log"
                used = max(_mtime(p), _mtime(log_file), _mtime(p / ".ninja_log"))
                found.append(CacheEntry(p, "work", directory_bytes(p), used))
    found.sort(key=lambda e: e.last_used)
    return found


def parse_size(text: str) -> Optional[int]:
    """Bytes from ``"500M"``, ``"10G"``, ``"2048"`` (K/M/G/T are powers of 1024); None for ``0``/``off``.

    Example:
        >>> parse_size("10G"), parse_size("512k"), parse_size("off")
        (10737418240, 524288, None)
        >>> parse_size("ten")
        Traceback (most recent call last):
        ...
        ValueError: cache size must be a number of bytes with an optional K, M, G or T suffix (e.g. 10G), but got 'ten'
    """
    t = text.strip().lower()
    if t in ("0", "off", "none", "unlimited", ""):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", t)
    if not m:
        raise ValueError("cache size must be a number of bytes with an optional K, M, G or T suffix (e.g. 10G), "
                         f"but got {text!r}")
    return int(float(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " "))


def max_cache_bytes() -> Optional[int]:
    """The automatic limit: ``$MSKERNEL_CACHE_MAX_SIZE`` (default 10G); None when disabled.

    Example:
        >>> os.environ["MSKERNEL_CACHE_MAX_SIZE"] = "2G"; max_cache_bytes()
        2147483648
        >>> del os.environ["MSKERNEL_CACHE_MAX_SIZE"]
    """
    return parse_size(os.environ.get("MSKERNEL_CACHE_MAX_SIZE", DEFAULT_MAX))


def touch(entry: Path) -> None:
    """Mark an entry as just used (best effort: a read-only cache still loads).

    Example:
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp()); os.utime(d, (1, 1)); touch(d); d.stat().st_mtime > 1
        True
    """
    try:
        os.utime(entry)
    except OSError:
        pass


def _remove(root: Path, entry: CacheEntry) -> bool:
    """Remove one entry under its lock; False when another process holds the lock."""
    lk = FileLock(lock_path(root, entry.lock_name))
    if not lk.acquire(blocking=False):
        return False
    try:
        trash_root = root / ".tmp"
        trash_root.mkdir(mode=0o700, exist_ok=True)
        trash = trash_root / f"{entry.lock_name}~evicted-{uuid.uuid4().hex[:8]}"
        try:
            os.rename(entry.path, trash)
        except FileNotFoundError:
            return True
        shutil.rmtree(trash, ignore_errors=True)
        return True
    finally:
        lk.release()


def prune(root: Path, max_bytes: Optional[int] = None, older_than_days: Optional[float] = None,
          dry_run: bool = False, keep: Iterable[str] = ()) -> PruneResult:
    """Remove entries unused for ``older_than_days``, then least recently used ones until the
    artifacts and work dirs take at most ``max_bytes``. Entries named in ``keep`` stay.

    Example:
        >>> import tempfile
        >>> prune(Path(tempfile.mkdtemp()), max_bytes=0).freed_bytes
        0
    """
    if max_bytes is not None and max_bytes < 0:
        raise ValueError(f"max_bytes must be >= 0, but got {max_bytes}")
    keep = set(keep)
    entries = [e for e in cache_entries(root) if e.name not in keep]
    total = sum(e.bytes for e in entries)
    result = PruneResult()
    cutoff = time.time() - older_than_days * 86400 if older_than_days is not None else None
    for e in entries:
        too_old = cutoff is not None and e.last_used < cutoff
        too_big = max_bytes is not None and total > max_bytes
        if not (too_old or too_big):
            continue
        if dry_run or _remove(root, e):
            result.removed.append(e)
            total -= e.bytes
        else:
            result.skipped_busy.append(e)
    result.kept_bytes = total
    if result.removed and not dry_run:
        log.info("build cache %s: removed %d entr%s (%d bytes), %d bytes kept", root, len(result.removed),
                 "y" if len(result.removed) == 1 else "ies", result.freed_bytes, total)
    return result


def auto_prune(root: Path, keep: Iterable[str] = ()) -> Optional[PruneResult]:
    """After a cold build: prune ``root`` to :func:`max_cache_bytes` (None when disabled or invalid);
    ``keep`` names the entries just built (about to be loaded).

    Example:
        >>> import tempfile
        >>> auto_prune(Path(tempfile.mkdtemp())).removed
        []
    """
    try:
        limit = max_cache_bytes()
    except ValueError as exc:
        log.warning("ignoring MSKERNEL_CACHE_MAX_SIZE: %s", exc)
        return None
    if limit is None:
        return None
    return prune(root, max_bytes=limit, keep=keep)
