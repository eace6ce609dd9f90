"""The content-addressed build cache: keys, local-header scanning, manifests, integrity, locks.

Layout of a cache root (``cache_dir()`` or a caller's ``build_dir``)::

    <root>/<name>-<key[:16]>/          one published artifact (immutable)
        <name><EXT_SUFFIX or .so>      the shared library
        manifest.json                  the commit record: key, sha256 + size of the .so, commands, ...
        build.log                      compiler output of the build that produced it
    <root>/.locks/<entry>.lock         fcntl.flock locks (never deleted; die with their process)
    <root>/.tmp/<entry>~<random>/      builds in progress, published with one os.rename
    <root>/.work/<name>-<config>/      persistent ninja work dirs (objects reused across edits)

An entry is used only if its manifest exists, names the expected key, and the .so's
size and sha256 match it (verified once per process per (path, mtime, size, inode)).
A failed build never publishes, so failures are never cached. Temp dirs left by a killed
build are removed by the next cold build once their entry lock is free.

Example:
    >>> import tempfile, os
    >>> os.environ["MSKERNEL_CACHE_DIR"] = tempfile.mkdtemp()
    >>> oct(cache_dir().stat().st_mode & 0o777)
    '0o700'
    >>> len(compute_key({"a": 1}))
    64
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from mskernel.cachedir import UntrustedCacheError, cache_dir, ensure_private_dir, untrusted_reason
from mskernel.errors import MskernelError
from mskernel.toolchain.diagnostics import BuildError

__all__ = ["cache_dir", "pch_dir", "ensure_private_dir", "untrusted_reason", "UntrustedCacheError", "compute_key",
           "publish_once", "sha256_bytes", "sha256_file", "INCLUDE_LINE",
           "scan_local_headers", "FileLock", "verify_entry", "write_manifest", "publish",
           "new_temp_dir", "cleanup_stale", "MANIFEST", "DISK_FULL_ERRNOS", "NO_SPACE", "disk_full_error"]

log = logging.getLogger("mskernel.toolchain")

MANIFEST = "manifest.json"


def pch_dir() -> Path:
    """Where precompiled headers live: ``$MSKERNEL_PCH_DIR``, else ``cache_dir()/pch``.

    Example:
        >>> pch_dir().is_dir()
        True
    """
    env = os.environ.get("MSKERNEL_PCH_DIR")
    return ensure_private_dir(Path(env).expanduser().absolute() if env else cache_dir() / "pch")


def compute_key(parts: Any) -> str:
    """sha256 hex digest of a JSON-serialisable description (dict keys sorted).

    Example:
        >>> compute_key({"b": 1, "a": 2}) == compute_key({"a": 2, "b": 1})
        True
    """
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def sha256_bytes(data: bytes) -> str:
    """sha256 hex digest of bytes.

    Example:
        >>> sha256_bytes(b"")[:8]
        'e3b0c442'
    """
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: os.PathLike | str) -> str:
    """sha256 hex digest of a file's content.

    Example:
        >>> import tempfile
        >>> f = tempfile.NamedTemporaryFile(delete=False); f.close()
        >>> sha256_file(f.name)[:8]
        'e3b0c442'
    """
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)


def scan_local_headers(text: str, own_dir: Optional[str], quote_dirs: Sequence[str],
                       angle_dirs: Sequence[str]) -> list[tuple[str, str, str]]:
    """Find the *local* headers a source includes, recursively, the way the preprocessor would.

    ``#include "x"`` is looked up in the including file's directory, then ``quote_dirs``,
    then ``angle_dirs``; ``#include <x>`` only in ``angle_dirs`` (the ``-I`` paths: the
    user's include paths and mskernel's ``include_dir()``). Headers not found there are not part
    of the key: the compiler's own (its version is), Python's and pybind11's (the Python ABI tag
    and the pybind11 version are), and those under ``-isystem`` directories of the caller's cflags --
    an edit there is not noticed (pass ``-I``, or ``force=True``). Conditional compilation
    is not evaluated, so this over-approximates (harmless for a cache key).

    Returns ``(spelling, resolved_path, sha256_of_text)`` for every header, in discovery order.

    Example:
        >>> import tempfile, pathlib
        >>> d = tempfile.mkdtemp(); _ = (pathlib.Path(d) / "k.h").write_text("int k;")
        >>> [(s, h[:8]) for s, _, h in scan_local_headers('#include "k.h"', d, [], [])]
        [('k.h', 'a9a8170d')]
    """
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def visit(src_text: str, src_dir: Optional[str]) -> None:
        for m in INCLUDE_LINE.finditer(src_text):
            kind, spelling = m.group(1), m.group(2).strip()
            dirs: list[str] = []
            if kind == '"':
                if src_dir:
                    dirs.append(src_dir)
                dirs.extend(quote_dirs)
            dirs.extend(angle_dirs)
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, spelling))
                if os.path.isfile(cand):
                    if cand not in seen:
                        seen.add(cand)
                        with open(cand, "rb") as f:
                            data = f.read()
                        found.append((spelling, cand, sha256_bytes(data)))
                        visit(data.decode("utf-8", errors="replace"), os.path.dirname(cand))
                    break

    visit(text, own_dir)
    return found


class FileLock:
    """An exclusive ``fcntl.flock`` lock on a file; released when its process dies.

    ``fileno()`` can be passed to child processes (``pass_fds``) so the lock stays held
    until the children exit too, e.g. an orphaned compiler of a killed build.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "x.lock")
        >>> with FileLock(p) as lk:
        ...     FileLock(p).acquire(blocking=False)
        False
    """

    def __init__(self, path: os.PathLike | str, timeout: Optional[float] = None):
        self.path = str(path)
        self.timeout = timeout if timeout is not None else float(os.environ.get("MSKERNEL_LOCK_TIMEOUT", "3600"))
        self._fd: Optional[int] = None

    def acquire(self, blocking: bool = True) -> bool:
        """Take the lock; with ``blocking=False`` return False at once when it is held elsewhere."""
        if self._fd is not None:
            return True
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        start = time.monotonic()
        next_note = 1.0
        delay = 0.01
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fd = fd
                self._record_holder(fd)
                return True
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    os.close(fd)
                    raise
            if not blocking:
                os.close(fd)
                return False
            waited = time.monotonic() - start
            if waited > self.timeout:
                os.close(fd)
                raise MskernelError(
                    f"timed out after {self.timeout:.0f} s waiting for lock {self.path!r} (another build "
                    f"of the same op is still running) -> wait for it, or raise MSKERNEL_LOCK_TIMEOUT")
            if waited > next_note:  # never a silent wait: after 1 s, then every minute
                log.warning("waiting %.0f s so far for %s to finish building the same thing (lock %s)", waited,
                            self.holder() or "another process", self.path)
                next_note = waited + 60.0
            time.sleep(delay)
            delay = min(delay * 1.5, 0.2)

    @staticmethod
    def _record_holder(fd: int) -> None:
        """Write who holds the lock into the lock file, for processes that wait on it."""
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} since {time.strftime('%H:%M:%S')}\n".encode(), 0)
        except OSError:
            pass  # informational only

    def holder(self) -> str:
        """Who holds the lock, as its holder wrote it ("pid 123 since 10:42:07"), or ''.

        Example:
            >>> import tempfile, os
            >>> p = os.path.join(tempfile.mkdtemp(), "y.lock")
            >>> with FileLock(p):
            ...     FileLock(p).holder().startswith(f"pid {os.getpid()} since ")
            True
        """
        try:
            with open(self.path) as f:
                return f.read(200).strip()
        except OSError:
            return ""

    def release(self) -> None:
        """Close our descriptor (idempotent).

        No explicit LOCK_UN: that would also unlock copies inherited by child processes.
        The lock is released when the last descriptor of it closes, i.e. when the last
        child that inherited it (ninja, a compiler, a background PCH build) exits.
        """
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def fileno(self) -> int:
        """The locked file descriptor (only while held)."""
        if self._fd is None:
            raise ValueError(f"lock {self.path!r} is not held")
        return self._fd

    def __enter__(self) -> "FileLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


_verified: dict[str, tuple[int, int, int]] = {}


def verify_entry(entry: Path, key: str) -> Optional[dict]:
    """The manifest of a published entry if it is intact, else None.

    Intact = ``manifest.json`` parses, names ``key``, and the library's size and sha256
    match, and the entry, its manifest and its library are owned by you and not writable by group
    or others (:func:`untrusted_reason`). The hash is computed once per process per (path, mtime,
    size, inode).

    Example:
        >>> verify_entry(Path("/nonexistent"), "0" * 64) is None
        True
    """
    try:
        with open(entry / MANIFEST, "rb") as f:
            manifest = json.loads(f.read())
            manifest_st = os.fstat(f.fileno())
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("key") != key or not manifest.get("file"):
        return None
    lib = entry / manifest["file"]
    try:
        st = os.stat(lib)
        entry_st = os.stat(entry)
    except OSError:
        return None
    checks = (("entry", entry, entry_st), ("manifest", entry / MANIFEST, manifest_st), ("library", lib, st))
    for what, path, info in checks:
        why = untrusted_reason(info)
        if why:
            _warn_once(f"cache entry {entry} is not trusted (its {what} {path} {why}); rebuilding")
            return None
    sig = (st.st_mtime_ns, st.st_size, st.st_ino)
    if _verified.get(str(lib)) == sig:
        return manifest
    if st.st_size != manifest.get("size") or sha256_file(lib) != manifest.get("sha256"):
        _warn_once(f"cache entry {entry} is corrupted (library does not match its manifest); rebuilding")
        return None
    _verified[str(lib)] = sig
    return manifest


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    """Log a warning once per process (an entry is looked up before and after taking its lock)."""
    if message not in _warned:
        _warned.add(message)
        log.warning("%s", message)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_manifest(tmp: Path, lib_name: str, key: str, extra: dict) -> dict:
    """Hash the finished library in ``tmp`` and write ``manifest.json`` last (the commit record)."""
    lib = tmp / lib_name
    _fsync_file(lib)
    manifest = {"format": 1, "key": key, "file": lib_name, "size": lib.stat().st_size,
                "sha256": sha256_file(lib), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **extra}
    path = tmp / MANIFEST
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    return manifest


def new_temp_dir(root: Path, entry_name: str) -> Path:
    """A fresh private temp dir for building ``entry_name`` (same filesystem as ``root``)."""
    tmp_root = ensure_private_dir(root / ".tmp")
    path = tmp_root / f"{entry_name}~{uuid.uuid4().hex[:12]}"
    path.mkdir(mode=0o700)
    return path


def publish(tmp: Path, final: Path) -> None:
    """Atomically move the finished ``tmp`` dir to ``final``; a stale ``final`` is replaced.

    Call with the entry's lock held.
    """
    if os.path.lexists(final):
        trash = tmp.parent / f"{final.name}~trash~{uuid.uuid4().hex[:12]}"
        os.rename(final, trash)
        os.rename(tmp, final)
        shutil.rmtree(trash, ignore_errors=True)
    else:
        os.rename(tmp, final)


def lock_path(root: Path, entry_name: str) -> Path:
    """The lock file guarding ``entry_name`` in ``root``."""
    return root / ".locks" / f"{entry_name}.lock"


def cleanup_stale(root: Path, held: Iterable[str] = ()) -> int:
    """Remove temp dirs left behind by killed builds; returns how many were removed.

    A temp dir ``.tmp/<entry>~...`` is stale when nobody holds ``<entry>``'s lock (or when
    we hold it ourselves: entries in ``held``).
    """
    tmp_root = root / ".tmp"
    try:
        names = os.listdir(tmp_root)
    except OSError:
        return 0
    held = set(held)
    removed = 0
    for name in names:
        entry = name.split("~", 1)[0]
        path = tmp_root / name
        if entry in held:
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
            continue
        lk = FileLock(lock_path(root, entry))
        if lk.acquire(blocking=False):
            try:
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
            finally:
                lk.release()
    if removed:
        log.info("removed %d stale temporary build dir(s) under %s", removed, tmp_root)
    return removed


def publish_once(root: Path, entry: Path, fill: Callable[[Path], None], origin: str) -> None:
    """Make the cache entry ``entry`` (a directory in ``root``) once, atomically: under its lock, unless a
    ``complete`` marker says it is there, ``fill(tmp)`` writes it into a fresh temp dir, which gets the marker
    (saying ``origin``) and replaces the entry. A failure (or a kill) leaves no entry behind, only a temp dir
    the next call's stale-cleanup removes.

    Example:
        >>> root = ensure_private_dir(Path(tempfile.mkdtemp()) / "c")
        >>> publish_once(root, root / "e", lambda tmp: (tmp / "x").write_text("1"), "an example")
        >>> sorted(p.name for p in (root / "e").iterdir())
        ['complete', 'x']
    """
    with FileLock(lock_path(root, entry.name)):
        if (entry / "complete").exists():
            return
        cleanup_stale(root, held=[entry.name])
        tmp = new_temp_dir(root, entry.name)
        try:
            fill(tmp)
            (tmp / "complete").write_text(f"derived from {origin}\n")
            publish(tmp, entry)  # (replacing an incomplete leftover)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)  # what a write into a full disk (or over quota) raises
NO_SPACE = re.compile(r"No space left on device|Disk quota exceeded")  # ... and what a compiler says then


def _inside(path: str, directory: Path) -> bool:
    return os.path.normpath(os.path.abspath(path)).startswith(os.path.join(os.path.abspath(directory), ""))


def _nearly_full(directory: Path) -> bool:
    """Less than 1 MB free for us on ``directory``'s file system."""
    try:
        st = os.statvfs(directory)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < (1 << 20)


def disk_full_error(name: str, root: Path, own_dir: bool, path: Optional[str] = None,
                    log_text: str = "") -> BuildError:
    """The :class:`BuildError` of building ``name`` into cache root ``root`` when a disk was full:
    which directory is full and how to move it (``MSKERNEL_CACHE_DIR``, ``build_dir`` when
    ``own_dir``, ``MSKERNEL_PCH_DIR`` or ``TMPDIR``). ``path``: the file whose write failed; without it
    (a compiler said so in ``log_text``) the directory with no space left is looked for, else ``root``.
    ``.disk_full`` is True on it.

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> e = disk_full_error("op", root, False, str(root / ".tmp" / "op-1~2" / "op.so"))
        >>> str(e).startswith(f"op: the build cache directory {root} is full (No space left on device)")
        True
        >>> "set the environment variable MSKERNEL_CACHE_DIR" in str(e), e.disk_full
        (True, True)
    """
    pch, tmp = pch_dir(), Path(tempfile.gettempdir())
    where = [ln.strip() for ln in log_text.splitlines() if NO_SPACE.search(ln)]
    written = path or next((str(d) for d in (root, pch, tmp) if _nearly_full(d)), "")
    if written and _inside(written, pch) and not _inside(str(pch), root):
        what = f"the precompiled-header directory {pch}"
        move = "set MSKERNEL_PCH_DIR to a directory on a disk with room"
    elif written and _inside(written, tmp) and not _inside(written, root):
        what, move = f"the compiler's temporary directory {tmp}", "set TMPDIR to a directory on a disk with room"
    elif own_dir:
        what, move = f"the build directory {root} (build_dir)", "pass a build_dir on a disk with room"
    else:
        what = f"the build cache directory {root}"
        move = ("move the cache to a disk with room: set the environment variable MSKERNEL_CACHE_DIR to a directory "
                "there (python -m mskernel cache --prune --max-size 1G frees space in this one)")
    summary = (f"{name}: {what} is full ({where[0] if where else 'No space left on device'}) -> free space on its "
               f"disk, or {move}; nothing was added to the cache")
    err = BuildError(name, [], log_text, "", None, summary=summary)
    err.disk_full = True
    return err
