"""What a build takes and gives: :class:`Source` (inline code), :class:`Artifact` (a built library in the
cache) and :class:`BuildRequest` (what was asked for, enough to build it again). Plain data: building is
:func:`mskernel.toolchain.build`.

Example:
    >>> Source("<cell 3>", "int f() { return 1; }").directory is None
    True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

__all__ = ["Source", "Artifact", "BuildRequest"]


@dataclass(frozen=True)
class Source:
    """An inline source: ``name`` is what diagnostics show (a path, ``"<cell 3>"``...).

    ``directory`` is where ``#include "..."`` looks first; by default the directory of
    ``name`` when that is an existing directory, else the current working directory.
    A name ending in ``.c`` compiles as C, anything else as C++.

    Example:
        >>> Source("<cell 3>", "int f() { return 1; }").name
        '<cell 3>'
    """

    name: str
    text: str
    directory: Optional[str] = None


@dataclass(frozen=True)
class Artifact:
    """A built shared library in the cache.

    ``cached`` is True when it came from the cache with no compiler call; ``seconds`` is the
    compile+link time (0 when cached); ``pch_seconds`` the time spent precompiling pybind11
    headers during this call (0 when the PCH already existed or was built in the background);
    ``log`` the compiler output of the build that produced it (warnings included);
    ``mode`` for pybind11 modules: ``"split"`` or ``"full"`` (see :mod:`mskernel.toolchain.split`),
    ``support_seconds`` the time this call waited for the split support object's one-time build, and
    ``compile_cache`` what ccache did in the build that produced it (:mod:`mskernel.toolchain.ccache`;
    ``{}`` when it was not used): its ``version``, the ``objects`` it compiled, ``hits`` among them,
    ``remote_hits`` (served by the remote store) and ``remote_errors`` (objects compiled locally because
    the remote store could not be reached).

    Example:
        >>> from mskernel.toolchain import build
        >>> art = build("doc_artifact", [Source("k.c", "int one(void) { return 1; }")])
        >>> art.path.exists(), art.name
        (True, 'doc_artifact')
    """

    path: Path
    key: str
    name: str
    cached: bool
    seconds: float
    log: str
    kind: str = "plain"
    pch_seconds: float = 0.0
    manifest: dict = field(default_factory=dict, repr=False, compare=False)
    mode: str = ""
    support_seconds: float = 0.0
    compile_cache: dict = field(default_factory=dict, repr=False, compare=False)
    request: Optional["BuildRequest"] = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class BuildRequest:
    """What :func:`build` was asked to build, enough to build the same sources again (``Artifact.request``).

    ``sources`` are the texts that were compiled (a file source as ``Source(path, text, directory)``,
    so a later edit of the file does not change what the request describes); the rest are
    :func:`build`'s arguments as given (flags as lists of strings).
    :func:`~mskernel.toolchain.rebuild` builds it once more, with some arguments changed -- e.g. a
    checked build of a loaded module with other flags, which the cache keeps apart from the original
    by its key.

    Example:
        >>> from mskernel.toolchain import build
        >>> art = build("doc_request", [Source("k.c", "int four(void) { return 4; }")])
        >>> art.request.sources[0].name, art.request.kind
        ('k.c', 'plain')
    """

    name: str
    sources: tuple[Source, ...]
    kind: str = "plain"
    include_paths: tuple[str, ...] = ()
    cflags: tuple[str, ...] = ()
    ldflags: tuple[str, ...] = ()
    openmp: bool = False
    debug: bool = False
    optimize: str = "-O2"
    define_module_name: bool = True
    split: Optional[bool] = None
    build_dir: Optional[str] = None
