"""Where mskernel keeps what it caches between runs, and whether a cache directory can be trusted.

The root is ``$MSKERNEL_CACHE_DIR``, else ``$XDG_CACHE_HOME/mskernel``, else ``~/.cache/mskernel``. Built operator
libraries (:mod:`mskernel.toolchain.cache`) and the op table's compiled code (:mod:`mskernel.ops.codecache`) live
under it. Whatever is loaded from there runs as code, so a directory is used only if it is yours and nobody else
can write it, as ssh and git judge their files.

Example:
    >>> import tempfile, os
    >>> os.environ["MSKERNEL_CACHE_DIR"] = tempfile.mkdtemp()
    >>> oct(cache_dir().stat().st_mode & 0o777)
    '0o700'
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional

from mskernel.errors import MskernelError

__all__ = ["UntrustedCacheError", "untrusted_reason", "ensure_private_dir", "cache_dir"]

_checked_dirs: set[str] = set()


class UntrustedCacheError(MskernelError):
    """A cache directory or entry that someone else controls: loading from it could run their code.

    Example:
        >>> import tempfile
        >>> shared = Path(tempfile.mkdtemp())
        >>> shared.chmod(0o777)  # writable by everyone, as /tmp is
        >>> ensure_private_dir(shared)
        Traceback (most recent call last):
        ...
        mskernel.cachedir.UntrustedCacheError: mskernel will not use the cache directory '...': it is writable by group and others (mode 0777), so another user could plant code that mskernel would load -> run 'chmod go-w ...' if the directory is yours and its contents are trusted, or point MSKERNEL_CACHE_DIR / build_dir at a directory only you can write
    """  # noqa: E501


def untrusted_reason(st: os.stat_result) -> Optional[str]:
    """Why a file or directory with this ``stat`` cannot be trusted (as ssh and git judge their
    files: owned by someone else, or writable by group or others), or None.

    Example:
        >>> import tempfile
        >>> untrusted_reason(os.stat(tempfile.mkdtemp())) is None
        True
    """
    if st.st_uid != os.geteuid():
        return f"is owned by uid {st.st_uid}, not by you (uid {os.geteuid()})"
    if st.st_mode & 0o022:
        who = "group and others" if st.st_mode & 0o022 == 0o022 else "others" if st.st_mode & 0o002 else "its group"
        return f"is writable by {who} (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (mode 0700), or check that an existing one can be trusted.

    Trusted = owned by you and not writable by group or others (its mode is never changed for
    you). Anything else raises :class:`UntrustedCacheError`: a library loaded from a directory
    someone else can write would run their code.

    Example:
        >>> import tempfile
        >>> p = ensure_private_dir(Path(tempfile.mkdtemp()) / "c")
        >>> oct(p.stat().st_mode & 0o777)
        '0o700'
    """
    key = str(path)
    if key in _checked_dirs and path.is_dir():
        return path
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    why = untrusted_reason(path.stat())
    if why:
        raise UntrustedCacheError(
            f"mskernel will not use the cache directory {key!r}: it {why}, so another user could plant code "
            f"that mskernel would load -> run 'chmod go-w {key}' if the directory is yours and its contents "
            f"are trusted, or point MSKERNEL_CACHE_DIR / build_dir at a directory only you can write")
    _checked_dirs.add(key)
    return path


def cache_dir() -> Path:
    """The build cache root: ``$MSKERNEL_CACHE_DIR``, else ``$XDG_CACHE_HOME/mskernel``, else
    ``~/.cache/mskernel``. Read at every call; created with mode 0700.

    Example:
        >>> import tempfile, os
        >>> os.environ["MSKERNEL_CACHE_DIR"] = d = tempfile.mkdtemp()
        >>> cache_dir() == Path(d)
        True
    """
    env = os.environ.get("MSKERNEL_CACHE_DIR")
    if env:
        root = Path(env).expanduser()
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = Path(base) / "mskernel"
    return ensure_private_dir(root.absolute())
