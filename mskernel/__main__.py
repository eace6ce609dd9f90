"""Command line: ``python -m mskernel <command>`` (also installed as ``mskernel``).

Commands:
    doctor    check Python, numpy, compiler, ninja, pybind11, Python headers, OpenMP and the
              build cache, then build and run a tiny kernel and a tiny pybind11 module.
    cache     print the build cache directory (``--pch`` for the precompiled-header directory).

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
    cache = sub.add_parser("cache", help="print the build cache directory")
    cache.add_argument("--pch", action="store_true", help="print the precompiled-header directory instead")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status.

    Example:
        >>> main(["--version"])  # doctest: +SKIP
        mskernel 0.1.0
    """
    parser = _parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.command == "doctor":
        from mskernel.doctor import run_doctor

        return 1 if run_doctor() else 0
    if args.command == "cache":
        from mskernel.build import cache_dir, pch_dir

        print(pch_dir() if args.pch else cache_dir())
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
