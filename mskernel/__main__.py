"""Command line: ``python -m mskernel <command>`` (also installed as ``mskernel``).

Commands:
    doctor    check Python, numpy, compiler, ninja, pybind11, Python headers, OpenMP and the
              build cache, then build and run a tiny kernel and a tiny pybind11 module.
    compat    print the MindSpore compatibility table (``--write`` regenerates docs/compatibility.md).
    docs      build the documentation site into docs/_build/html (``--out DIR`` elsewhere) with Sphinx: from
              scratch, warnings are errors and every cross-reference must resolve. Needs the ``docs`` extra.
    cache     print the build cache directory (``--pch`` for the precompiled-header directory);
              ``--usage`` prints what it holds; ``--prune [--max-size 2G] [--older-than DAYS]
              [--dry-run]`` removes least recently used builds (it also happens after every cold
              build, down to ``$MSKERNEL_CACHE_MAX_SIZE``, default 10G).

Example:
    >>> main(["cache"])  # doctest: +ELLIPSIS
    /...
    0
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    from mskernel._version import __version__

    parser = argparse.ArgumentParser(
        prog="python -m mskernel",
        description="mskernel: develop MindSpore-style custom differentiable operators on a CPU.")
    parser.add_argument("--version", action="version", version=f"mskernel {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    sub.add_parser("doctor", help="check the toolchain and build a tiny op end to end",
                   description="Check Python, numpy, the C++ compiler, ninja, pybind11 and Python headers, "
                               "OpenMP and the build cache, then build and run a tiny extern \"C\" kernel and a "
                               "tiny pybind11 module. Exits 0 when everything works.")
    compat = sub.add_parser("compat", help="print the MindSpore compatibility table",
                            description="Every MindSpore name real code uses, and whether mskernel runs it.")
    compat.add_argument("--write", action="store_true", help="regenerate docs/compatibility.md in the source tree")
    docs = sub.add_parser("docs", help="build the documentation site (needs pip install -e '.[docs]')",
                          description="Build the documentation site with Sphinx from docs/: from scratch (-E), "
                                      "warnings as errors (-W --keep-going), every cross-reference resolved (-n).")
    docs.add_argument("--out", metavar="DIR", help="where the HTML goes (default: docs/_build/html)")
    cache = sub.add_parser("cache", help="print, measure or prune the build cache")
    cache.add_argument("--pch", action="store_true", help="print the precompiled-header directory instead")
    cache.add_argument("--usage", action="store_true", help="print how much the cache holds")
    cache.add_argument("--prune", action="store_true", help="remove least recently used builds")
    cache.add_argument("--max-size", metavar="SIZE", help="with --prune: keep at most SIZE (e.g. 2G, 500M, 0)")
    cache.add_argument("--older-than", metavar="DAYS", type=float, help="with --prune: remove builds unused that long")
    cache.add_argument("--dry-run", action="store_true", help="with --prune: only list what would go")
    return parser


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def _cache_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from mskernel.toolchain import cache_dir, pch_dir
    from mskernel.toolchain.evict import cache_entries, directory_bytes, parse_size, prune

    if not args.prune and (args.max_size or args.older_than is not None or args.dry_run):
        parser.error("--max-size, --older-than and --dry-run go with --prune")
    if not (args.usage or args.prune):
        print(pch_dir() if args.pch else cache_dir())
        return 0
    root = cache_dir()
    if args.prune:
        try:
            limit = parse_size(args.max_size) if args.max_size else None
        except ValueError as exc:
            parser.error(f"--max-size: {exc}")
        if args.max_size and limit is None:
            limit = 0  # "--max-size 0": remove everything that is not in use
        if limit is None and args.older_than is None:
            parser.error("--prune needs --max-size and/or --older-than")
        result = prune(root, max_bytes=limit, older_than_days=args.older_than, dry_run=args.dry_run)
        verb = "would remove" if args.dry_run else "removed"
        for e in result.removed:
            print(f"{verb} {e.kind} {e.name} ({_mb(e.bytes)})")
        for e in result.skipped_busy:
            print(f"kept {e.kind} {e.name}: in use by another process")
        print(f"{verb} {len(result.removed)} entries, {_mb(result.freed_bytes)}; "
              f"{_mb(result.kept_bytes)} left in {root}")
    if args.usage:
        entries = cache_entries(root)
        arts = [e for e in entries if e.kind == "artifact"]
        work = [e for e in entries if e.kind == "work"]
        print(f"{root}: {len(arts)} builds {_mb(sum(e.bytes for e in arts))}, {len(work)} work dirs "
              f"{_mb(sum(e.bytes for e in work))}; precompiled headers and support library "
              f"{_mb(directory_bytes(pch_dir()))} ({pch_dir()})")
    return 0


def docs_command_line(out: Optional[str] = None) -> list:
    """The sphinx-build command ``python -m mskernel docs`` runs (source: the checkout's ``docs/``).

    Example:
        >>> docs_command_line("/tmp/site")[-5:]  # doctest: +ELLIPSIS
        ['-b', 'html', '--keep-going', '.../docs', '/tmp/site']
    """
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    return [sys.executable, "-m", "sphinx", "-E", "-n", "-W", "-b", "html", "--keep-going", str(docs),
            out or str(docs / "_build" / "html")]


def _docs_command(out: Optional[str]) -> int:
    import importlib.util
    import subprocess

    missing = [m for m in ("sphinx", "myst_nb", "furo", "sphinx_copybutton") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"python -m mskernel docs: {', '.join(missing)} not installed; pip install -e \".[docs]\"",
              file=sys.stderr)
        return 1
    cmd = docs_command_line(out)
    print("$", " ".join(cmd[1:]), flush=True)
    status = subprocess.call(cmd)
    if status == 0:
        print(f"open {cmd[-1]}/index.html")
    return status


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status.

    Example:
        >>> main(["cache", "--pch"])  # the precompiled-header directory, then the exit status
        /...
        0
    """
    parser = _parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.command == "doctor":
        from mskernel.doctor import run_doctor

        return 1 if run_doctor() else 0
    if args.command == "cache":
        return _cache_command(parser, args)
    if args.command == "docs":
        return _docs_command(args.out)
    if args.command == "compat":
        from pathlib import Path

        from mskernel.compat import markdown

        text = markdown()
        if args.write:
            (Path(__file__).resolve().parents[1] / "docs" / "compatibility.md").write_text(text)
        else:
            sys.stdout.write(text)
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
