"""``build()``: sources in, a cached shared library out.

Flow of one call:

1. Normalise sources (file paths or inline :class:`Source`), pick flags for the kind.
2. Key = sha256 of the name, the kind, every source's name and text with the local headers it
   includes (recursively, see :func:`~mskernel.toolchain.cache.scan_local_headers`), the flags,
   compiler path + version, Python ABI, mskernel version, and for pybind11 modules the pybind11
   version and mode (split builds: also the keys of the support object and the derived headers).
3. If ``<root>/<name>-<key[:16]>`` is published and intact, return it: no compiler, no
   ninja, no lock (``Artifact.cached is True``).
4. Else take the entry's lock (a concurrent build of the same thing waits, then finds the
   published entry), compile with ninja in a persistent per-op work dir, copy the library
   into a temp dir, write the manifest last and publish with one ``os.rename``.

``on_stage(text)`` hears when a cold build moves on: ``"preparing headers (once; usually ~N s)"``
(split pybind11 headers derived, or with ``pch=True`` the precompiled header built),
``"preparing headers and pybind11's runtime (once; usually ~N s)"`` (the first split build: the
support object and the precompiled headers built side by side, so the build compiles against them),
``"compiling"`` (with the split support object's one-time build alongside, or alone after it),
``"linking"``; a cached load calls it never. A full disk raises a :class:`BuildError` that names the
directory and how to move it, and publishes nothing.

Inline sources are written to the work dir behind a ``#line 1 "<name>"`` directive, so
diagnostics, ``__FILE__`` and ``BuildError.location`` show the caller's name and line
numbers. File sources are handled the same way (a snapshot of the text that was hashed is
compiled, with the original path in ``#line``), so the artifact always matches its key.

Example:
    >>> art = build("doc_api", [Source("<cell 1>", 'extern "C" int add(int a, int b) { return a + b; }')])
    >>> art.path.name, len(art.key)
    ('doc_api.so', 64)
    >>> build("doc_api", [Source("<cell 1>", 'extern "C" int add(int a, int b) { return a + b; }')]).cached
    True
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Literal, Optional, Sequence, Union

from mskernel._version import __version__
from mskernel.toolchain.cache import (DISK_FULL_ERRNOS, NO_SPACE, FileLock, cache_dir, cleanup_stale, compute_key,
                                      disk_full_error, ensure_private_dir, lock_path, new_temp_dir, publish,
                                      scan_local_headers, sha256_bytes, verify_entry, write_manifest)
from mskernel.toolchain.ccache import (CompileCache, ccache_mode, compile_cache_for, read_stats_log,
                                       remote_storage)
from mskernel.toolchain.evict import auto_prune, touch
from mskernel.toolchain.diagnostics import BuildError, first_user_error, line_table, parse_diagnostics
from mskernel.toolchain.glue import glue_headers
from mskernel.toolchain.flags import KINDS, check_optimize, link_flags, source_flags
from mskernel.toolchain.ninja import run_ninja, write_ninja
from mskernel.toolchain.pch import PCH_SECONDS, find_pch, pch_eligible, prepare_pch
from mskernel.toolchain.split import choose_mode, fell_back, remember_fallback, retry_in_full_mode, split_headers
from mskernel.toolchain.support import (LINK_FLAGS, SUPPORT_SECONDS, failed_output, find_support, start_support,
                                        support_spec)
from mskernel.toolchain.discover import Toolchain, ToolchainError, find_toolchain, include_dir
from mskernel.toolchain.artifact import Artifact, BuildRequest, Source
from mskernel.toolchain.units import Unit, as_unit, write_sources

__all__ = ["Source", "Artifact", "BuildRequest", "build", "rebuild"]

log = logging.getLogger("mskernel.toolchain")

def _include_dirs_from_flags(cflags: Sequence[str]) -> list[str]:
    dirs, it = [], iter(cflags)
    for flag in it:
        if flag in ("-I", "-isystem", "-iquote", "-idirafter"):
            nxt = next(it, None)
            if nxt and flag != "-isystem":
                dirs.append(os.path.abspath(nxt))
        elif flag.startswith("-I") and len(flag) > 2:
            dirs.append(os.path.abspath(flag[2:]))
    return dirs


def _validate(name: str, kind: str) -> None:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, but got {type(name).__name__}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, but got {kind!r}")
    pattern = r"[A-Za-z_][A-Za-z0-9_]*" if kind != "plain" else r"[A-Za-z0-9_][A-Za-z0-9_.+-]*"
    if not re.fullmatch(pattern, name) or len(name) > 120:
        what = "a C identifier (it names PyInit_<name>)" if kind != "plain" else "letters, digits, '_', '.', '-'"
        raise ValueError(f"name for kind={kind!r} must be {what}, at most 120 characters, but got {name!r}")


def _str_list(value: Sequence, what: str) -> list[str]:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of strings (e.g. [{value!r}]), but got a single string")
    out = []
    for v in value:
        if not isinstance(v, (str, os.PathLike)):
            raise TypeError(f"{what} must contain strings, but got {type(v).__name__}: {v!r}")
        out.append(os.fspath(v))
    return out


def build(name: str, sources: Sequence[Union[str, os.PathLike, Source]], *,
          kind: Literal["pybind11", "cpython", "plain"] = "plain",
          include_paths: Sequence[Union[str, os.PathLike]] = (), cflags: Sequence[str] = (),
          ldflags: Sequence[str] = (), openmp: bool = False, debug: bool = False, optimize: str = "-O2",
          build_dir: Union[str, os.PathLike, None] = None, define_module_name: bool = True,
          pch: Optional[bool] = None, split: Optional[bool] = None, force: bool = False,
          on_stage: Optional[Callable[[str], None]] = None) -> Artifact:
    """Compile ``sources`` into a shared library, or fetch it from the cache.

    Args:
        name: library/module name. For ``kind="pybind11"``/``"cpython"`` it is the module
            name (``PyInit_<name>``); pybind11 sources get ``-DMS_EXTENSION_NAME=<name>``
            and ``-DTORCH_EXTENSION_NAME=<name>`` (unless ``define_module_name=False``).
        sources: paths of existing files and/or :class:`Source` objects. ``.c`` compiles as
            C, headers (``.h``, ``.hpp``...) are hashed but not compiled, the rest is C++17.
        kind: ``"plain"`` (extern "C" functions; no Python headers), ``"cpython"`` (Python C
            API module) or ``"pybind11"`` (pybind11 + mskernel headers, hidden visibility).
        include_paths: extra ``-I`` directories (their headers are part of the key).
        cflags: extra compiler arguments, appended last.
        ldflags: extra linker arguments, appended last.
        openmp: compile and link with OpenMP.
        debug: ``-g -O0`` and no stripping (``optimize`` is then ignored).
        optimize: optimization flag, default ``-O2``.
        build_dir: cache root to use instead of :func:`cache_dir` (same layout; created with
            mode 0700 if missing; an existing one must be yours and not writable by group or others).
        pch: pybind11 precompiled header (see ``mskernel.toolchain.pch``): None = use it when
            ready, else compile without it and start building it in the background for the
            next build; True = build it first if needed (its time is reported in
            ``Artifact.pch_seconds``); False = never.
        split: for ``kind="pybind11"``: None = a split build (pybind11's runtime from a support
            object compiled once, see ``mskernel.toolchain.split``) where the toolchain allows it,
            rebuilt with full pybind11 if it fails with an error mentioning pybind11; True = split,
            no retry; False = full pybind11, as does ``-DMSKERNEL_FULL_PYBIND11`` in ``cflags``.
        force: compile every source again (no cache hit, no object kept from an earlier build) and
            replace the published entry.
        on_stage: called with a short text each time a cold build moves on to another stage
            (see the module docstring), from the calling thread; e.g. a progress display's setter.

    Returns:
        The :class:`Artifact` (``cached=True`` when no compilation was needed).

    Raises:
        BuildError: compilation or linking failed (``.location`` points at the user's line), or the
            disk of the cache directory is full (the message names it and how to move it).
        ToolchainError: compiler, ninja, Python or pybind11 headers missing.

    Example:
        >>> art = build("doc_build", [Source("k.cpp", 'extern "C" int twice(int x) { return 2 * x; }')])
        >>> from mskernel.toolchain import load_library
        >>> load_library(art).twice(21)
        42
    """
    t0 = time.perf_counter()
    opts = dict(kind=kind, include_paths=include_paths, cflags=cflags, ldflags=ldflags, openmp=bool(openmp),
                debug=bool(debug), optimize=optimize, define_module_name=define_module_name)
    again = dict(build_dir=build_dir, pch=pch, split=False, force=force, on_stage=on_stage, **opts)
    root = Path(build_dir).absolute() if build_dir is not None else None
    try:
        plan = _plan(name, sources, split=split, on_stage=on_stage, **opts)
        request = _request(plan, split, build_dir)
        root = ensure_private_dir(root) if root is not None else cache_dir()
        if plan.mode == "split" and split is None and fell_back(root, plan.entry_name):
            return replace(build(name, sources, **again), request=request)
        cached = None if force else _cached(root, plan)
        if cached is not None:
            log.debug("%s: loaded from cache (%s) in %.1f ms", name, cached.path, 1e3 * (time.perf_counter() - t0))
            return replace(cached, request=request)
        try:
            return replace(_build_plan(plan, root, pch, force, on_stage), request=request)
        except (BuildError, _SupportUnavailable) as err:
            if plan.mode != "split" or split is True or (isinstance(err, BuildError) and err.disk_full) or (
                    isinstance(err, BuildError) and not retry_in_full_mode(err)):
                raise
            log.info("%s: the split pybind11 build failed (%s); building with full pybind11", name,
                     str(err).splitlines()[0] if str(err) else type(err).__name__)
            art = build(name, sources, **again)
            if isinstance(err, BuildError):
                remember_fallback(root, plan.entry_name)
            return replace(art, request=request)
    except OSError as exc:
        if exc.errno not in DISK_FULL_ERRNOS:
            raise
        written = exc.filename2 or exc.filename  # (shutil.copyfile: the destination is filename2)
        raise disk_full_error(name, root or cache_dir(), build_dir is not None,
                              os.fsdecode(written) if isinstance(written, (str, bytes)) else None) from exc


def rebuild(request: BuildRequest, **changes: object) -> Artifact:
    """:func:`build` a :class:`BuildRequest` again, with ``changes`` to its arguments (any of :func:`build`'s
    keyword arguments: ``cflags=[...]``, ``debug=True``, ``pch=False``, ``on_stage=...``).

    Example:
        >>> art = build("doc_request", [Source("k.c", "int four(void) { return 4; }")])
        >>> rebuild(art.request).key == art.key, rebuild(art.request, optimize="-O1").key == art.key
        (True, False)
    """
    r = request
    args: dict = {"kind": r.kind, "include_paths": r.include_paths, "cflags": r.cflags, "ldflags": r.ldflags,
                  "openmp": r.openmp, "debug": r.debug, "optimize": r.optimize,
                  "define_module_name": r.define_module_name, "split": r.split, "build_dir": r.build_dir}
    args.update(changes)
    return build(r.name, list(r.sources), **args)  # type: ignore[arg-type]


class _SupportUnavailable(ToolchainError):
    """The split support object could not be built (split builds then fall back to full pybind11)."""


def _build_plan(plan: "_Plan", root: Path, pch: Optional[bool], force: bool = False,
                on_stage: Optional[Callable[[str], None]] = None) -> Artifact:
    """Build one plan under its entry lock (unless another process published it meanwhile)."""
    stage = on_stage or (lambda text: None)
    entry_lock = FileLock(lock_path(root, plan.entry_name))
    if not entry_lock.acquire(blocking=False):
        stage(f"waiting for another build of {plan.name} ({entry_lock.holder() or 'another process'})")
    with entry_lock:
        cached = None if force else _cached(root, plan)
        if cached is not None:  # another process built it while we waited for the lock
            return cached
        log.info("building %s (cold, %s)", plan.name, plan.mode or plan.kind)
        cleanup_stale(root, held=[plan.entry_name])
        for u in plan.units if plan.mode == "split" else ():
            u.pch_ok = u.lang == "c++" and pch_eligible(u.text, u.header_paths)
        pending = None
        if plan.mode == "split" and find_support(plan.user_cflags) is None:
            # the one-time preparation: the support object compiles on one core while the precompiled
            # headers build on the other (pch=None builds them now rather than after), so this build
            # already compiles against them and the edits that follow find them ready (~6.5 s and ~6.2 s
            # of CPU: the critical path is the precompiled header, then this compile; see support.py)
            pending = start_support(plan.user_cflags)
        pch_flags, pch_seconds = _pch_flags(plan, pch, stage, alongside=pending is not None)
        art = _compile_and_publish(plan, root, pch_flags, entry_lock, force, stage, pending)
    log.info("built %s in %.2f s", plan.name, art.seconds)
    if root == cache_dir():  # a caller's own build_dir is theirs to manage
        auto_prune(root, keep=[plan.entry_name])
    if pch is None and plan.kind == "pybind11" and plan.tc.is_gcc:
        # for the next pybind11 build of this mode: start the PCHs it lacked, in the background
        for api in sorted({u.pch_ok for u in plan.units if u.lang == "c++"}):
            if not pch_flags.get(api):
                prepare_pch(wait=False, split=plan.mode == "split", api=api, **plan.pch_opts)
    return replace(art, pch_seconds=pch_seconds)


def _request(plan: "_Plan", split: Optional[bool], build_dir: Union[str, os.PathLike, None]) -> BuildRequest:
    """The :class:`BuildRequest` of a plan: its sources as read (headers included) and its arguments."""
    return BuildRequest(plan.name, tuple(Source(u.display, u.text, u.directory) for u in plan.units), plan.kind,
                        tuple(plan.include_paths), tuple(plan.user_cflags), tuple(plan.user_ldflags),
                        plan.pch_opts["openmp"], plan.pch_opts["debug"], plan.pch_opts["optimize"],
                        plan.define_module_name, split, None if build_dir is None else os.fspath(build_dir))


@dataclass
class _Plan:
    """Everything decided before compiling: sources, flags, the key and where the result goes."""

    name: str
    kind: str
    tc: Toolchain
    units: list
    cxxflags: list
    cflags: list
    ldflags: list
    user_cflags: list
    angle_dirs: list
    config: dict
    key: str
    mode: str = ""  # pybind11 kind: "split" or "full"
    pch_opts: dict = field(default_factory=dict)
    include_paths: list = field(default_factory=list)  # as the caller gave them (absolute), for BuildRequest
    user_ldflags: list = field(default_factory=list)
    define_module_name: bool = True

    @property
    def entry_name(self) -> str:
        return f"{self.name}-{self.key[:16]}"

    @property
    def lib_name(self) -> str:
        return self.name + (self.tc.ext_suffix if self.kind != "plain" else ".so")

    @property
    def langs(self) -> set:
        return {u.lang for u in self.units}


def _plan(name: str, sources: Sequence, *, kind: str, include_paths: Sequence, cflags: Sequence,
          ldflags: Sequence, openmp: bool, debug: bool, optimize: str, define_module_name: bool,
          split: Optional[bool] = None, on_stage: Optional[Callable[[str], None]] = None) -> _Plan:
    """Validate the arguments, read the sources and their local headers, pick flags, compute the key."""
    _validate(name, kind)
    optimize = check_optimize(optimize)
    ccache_mode(), remote_storage()  # a bad MSKERNEL_CCACHE* setting fails every build, not only a cold one
    if isinstance(sources, (str, os.PathLike, Source)):
        sources = [sources]
    units = [as_unit(s, i) for i, s in enumerate(sources)]
    if not any(u.lang != "header" for u in units):
        raise ValueError(f"{name}: no C/C++ source to compile among {[u.display for u in units]}")
    include_paths = [os.path.abspath(p) for p in _str_list(include_paths, "include_paths")]
    cflags, ldflags = _str_list(cflags, "cflags"), _str_list(ldflags, "ldflags")
    tc = find_toolchain()
    langs = {u.lang for u in units}
    mode, reason = choose_mode(cflags, requested=split, on_stage=on_stage) if kind == "pybind11" else ("", "")
    support = support_spec(cflags) if mode == "split" else None
    if support is not None and failed_output(key=support.key) is not None and split is not True:
        mode, reason, support = "full", "the split support object failed to build in this process", None
    opts = dict(kind=kind, optimize=optimize, debug=debug, openmp=openmp, include_paths=include_paths,
                cflags=cflags, name=name, define_module_name=define_module_name)
    split_include = str(split_headers().include) if mode == "split" else None
    glue_include = str(glue_headers().include) if mode == "split" else None
    cxxflags = source_flags(tc, lang="c++", split_include=split_include, glue_include=glue_include, **opts)
    cflags_c = source_flags(tc, lang="c", **opts) if "c" in langs else []
    lflags = link_flags(tc, kind=kind, debug=debug, openmp=openmp, ldflags=ldflags)
    if support is not None:
        lflags = [str(support.object), *LINK_FLAGS, *lflags]
    angle_dirs = include_paths + _include_dirs_from_flags(cflags) + [str(include_dir())]
    for u in units:
        found = scan_local_headers(u.text, u.directory, [], angle_dirs)
        u.headers = [(spelling, sha) for spelling, _, sha in found]
        u.header_paths = {spelling: path for spelling, path, _ in found}
        u.sha = compute_key([u.display, u.lang, sha256_bytes(u.text.encode("utf-8", "surrogateescape")), u.headers])
    config = {"layout": 1, "name": name, "kind": kind, "cxx": tc.cxx_argv, "cxx_version": tc.cxx_version,
              "cxxflags": cxxflags, "ldflags": lflags, "python": [sys.implementation.cache_tag, tc.ext_suffix],
              "mskernel": __version__}
    if "c" in langs:
        config.update(cc=tc.require("cc").cc_argv, cc_version=tc.cc_version, cflags=cflags_c)
    if kind == "pybind11":
        log.debug("%s: pybind11 %s mode (%s)", name, mode, reason)
        config.update(pybind11=tc.pybind11_version, pybind11_mode=mode)
        if support is not None:
            config.update(support=support.key, split=split_headers().key)
    key = compute_key({**config, "units": [u.sha for u in units]})
    pch_opts = dict(optimize=optimize, debug=debug, openmp=openmp, cflags=cflags)
    return _Plan(name, kind, tc, units, cxxflags, cflags_c, lflags, cflags, angle_dirs, config, key, mode, pch_opts,
                 include_paths, ldflags, define_module_name)


def _compile_and_publish(plan: _Plan, root: Path, pch_flags: dict, entry_lock: FileLock, force: bool,
                         stage: Callable[[str], None], pending=None) -> Artifact:
    """Run ninja in the op's work dir (compile, then link: ``stage`` hears of each), then publish the
    library as a new cache entry."""
    tc, name = plan.tc, plan.name
    start = time.perf_counter()
    workdir = _workdir(root, name, compute_key(plan.config)[:12])
    with FileLock(lock_path(root, f"work-{workdir.name}")) as work_lock:
        if force:  # nothing kept from earlier builds: ninja compiles every source again
            _prune(workdir, keep=set())
        ccache = compile_cache_for(root, workdir, tc.cxx_argv, force)
        cunits = write_sources(workdir, plan.units, pch_flags, own_dir_if_needed=ccache.ccache is not None)
        output = f"out/{plan.entry_name}{'.so' if plan.kind == 'plain' else tc.ext_suffix}"
        support = find_support(plan.user_cflags) if plan.mode == "split" else None
        if plan.mode == "split" and support is None and pending is None:
            pending = start_support(plan.user_cflags)
        elif support is not None:
            pending = None
        write_ninja(workdir, cxx=tc.cxx_argv, cc=tc.cc_argv if "c" in plan.langs else None, cxxflags=plan.cxxflags,
                    cflags=plan.cflags, ldflags=plan.ldflags, units=cunits, output=output,
                    compile_prefix=ccache.prefix)
        fds = (entry_lock.fileno(), work_lock.fileno())
        support_seconds = 0.0
        once = f"(once; usually ~{SUPPORT_SECONDS} s)"
        # compile the op (while the split support object compiles, the first time), then link
        stage("compiling" if pending is None else f"compiling; preparing pybind11's runtime alongside {once}")
        rc, out, failed = run_ninja(tc.ninja, workdir, "objects", pass_fds=fds, env=ccache.env)
        cached_objects = _ccache_report(name, ccache)
        if rc == 0 and pending is not None:  # (a failed compile is reported at once; the support build goes on)
            waited = time.perf_counter()
            if not pending.done():
                stage(f"preparing pybind11's runtime {once}")
            try:
                pending.result()
            except ToolchainError as exc:
                raise _SupportUnavailable(str(exc)) from exc
            support_seconds = time.perf_counter() - waited
        if rc == 0:
            stage("linking")
            rc, out2, failed = run_ninja(tc.ninja, workdir, output, pass_fds=fds, env=ccache.env)
            out += out2
        if rc != 0:
            raise _build_error(name, plan.units, out, failed, plan.angle_dirs, root, root != cache_dir())
        seconds = time.perf_counter() - start
        tmp = new_temp_dir(root, plan.entry_name)
        try:
            shutil.copyfile(workdir / output, tmp / plan.lib_name)
            (tmp / "build.log").write_text(out)
            manifest = write_manifest(tmp, plan.lib_name, plan.key, {
                "name": name, "kind": plan.kind, "compiler": list(tc.cxx_argv), "compiler_version": tc.cxx_version,
                "cxxflags": plan.cxxflags, "ldflags": plan.ldflags, "sources": [u.display for u in plan.units],
                "commands": _commands(out), "build_seconds": round(seconds, 3), "mskernel_version": __version__,
                "python": sys.implementation.cache_tag, "pybind11": plan.config.get("pybind11"),
                "pybind11_mode": plan.mode, "support": plan.config.get("support"), "ccache": cached_objects})
            publish(tmp, root / plan.entry_name)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        _prune(workdir, keep={output} | {u.obj for u in cunits} | {u.source for u in cunits})
    return Artifact(root / plan.entry_name / plan.lib_name, plan.key, name, cached=False, seconds=seconds, log=out,
                    kind=plan.kind, manifest=manifest, mode=plan.mode, support_seconds=support_seconds,
                    compile_cache=cached_objects)


def _ccache_report(name: str, ccache: CompileCache) -> dict:
    """What ccache did in this build's compile step (``{}`` when it was not used), also logged."""
    if ccache.ccache is None:
        return {}
    counts = read_stats_log(ccache.stats_log)
    log.info("%s: %d of %d object(s) from ccache (%d from its remote storage) -- %s", name, counts["hits"],
             counts["objects"], counts["remote_hits"], ccache.describe())
    if counts["remote_errors"]:
        log.warning("%s: ccache could not reach its remote storage (%s); compiled locally", name,
                    ccache.env.get("CCACHE_REMOTE_STORAGE"))
    return {"version": ccache.ccache.version, **counts}


def _commands(ninja_output: str) -> list[str]:
    """The compile/link command lines ninja ran (``ninja -v`` prints them after ``[i/n]``)."""
    return [m.group(1) for m in re.finditer(r"^\[\d+/\d+\] (.+)$", ninja_output, re.MULTILINE)]


def _cached(root: Path, plan: _Plan) -> Optional[Artifact]:
    entry = root / plan.entry_name
    manifest = verify_entry(entry, plan.key)
    if manifest is None or manifest.get("file") != plan.lib_name:
        return None
    touch(entry)  # least-recently-used eviction (mskernel.toolchain.evict) goes by this
    try:
        text = (entry / "build.log").read_text(errors="replace")
    except OSError:
        text = ""
    return Artifact(entry / plan.lib_name, plan.key, plan.name, cached=True, seconds=0.0, log=text, kind=plan.kind,
                    manifest=manifest, mode=plan.mode, compile_cache=manifest.get("ccache") or {})


def _workdir(root: Path, name: str, config_hash: str) -> Path:
    work = ensure_private_dir(root / ".work") / f"{name}-{config_hash}"
    for sub in ("src", "obj", "out"):
        (work / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    return work


def _pch_flags(plan: _Plan, pch: Optional[bool], stage: Callable[[str], None],
               alongside: bool = False) -> tuple[dict, float]:
    """``{api: [-include flags]}`` for pybind11 sources when a PCH is used (split builds: ``api``
    True for the sources marked ``pch_ok``, which get the PCH with mskernel's API; False for the
    others), and the seconds spent building them here: pch=True builds them if needed; pch=None
    only uses ready ones, unless ``alongside`` (the support object is being built: the one-time
    preparation), when it builds them too but compiles without one that fails to build (``stage``
    hears when one is built)."""
    if plan.kind != "pybind11" or pch is False or not plan.tc.is_gcc:
        return {}, 0.0
    split = plan.mode == "split"
    flags, seconds = {}, 0.0
    for api in sorted({u.pch_ok for u in plan.units if u.lang == "c++"}):
        opts = dict(split=split, api=api, **plan.pch_opts)
        found = find_pch(**opts)
        if found is None and (pch or (pch is None and alongside)):
            what = "headers and pybind11's runtime" if alongside else "headers"
            stage(f"preparing {what} (once; usually ~{SUPPORT_SECONDS if alongside else PCH_SECONDS} s)")
            try:
                found = prepare_pch(wait=True, **opts)
            except ToolchainError as exc:
                if pch:
                    raise
                log.warning("%s: compiling without a precompiled header (%s)", plan.name, str(exc).splitlines()[0])
        if found is not None:
            flags[api] = ["-include", str(found.header), "-Winvalid-pch"]
            seconds += found.seconds
    return flags, seconds


def _prune(workdir: Path, keep: set[str]) -> None:
    """Delete objects, outputs and snapshots of earlier builds from the work dir."""
    keep_abs = {os.path.normpath(os.path.join(workdir, k)) for k in keep}
    for sub in ("src", "obj", "out"):
        for entry in os.scandir(workdir / sub):
            path = os.path.normpath(entry.path)
            base = path[:-2] if path.endswith(".d") else path
            if path not in keep_abs and base not in keep_abs:
                try:
                    os.unlink(path)
                except OSError:
                    pass


def _build_error(name: str, units: Sequence[Unit], out: str, failed: str, angle_dirs: Sequence[str],
                 root: Path, own_dir: bool) -> BuildError:
    if NO_SPACE.search(out):  # the compiler or linker could not write its output
        return disk_full_error(name, root, own_dir, log_text=out)
    diags = parse_diagnostics(out)
    tables = [line_table(u.display, u.text) for u in units]
    user_files = {f for t in tables for f, _ in t}
    for u in units:
        user_files.update(p for _, p, _ in scan_local_headers(u.text, u.directory, [], angle_dirs))
    location = first_user_error(diags, user_files, tables)
    return BuildError(name, diags, out, failed, location)
