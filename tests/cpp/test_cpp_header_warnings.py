"""mskernel's own headers compile clean under -Wall -Wextra -Werror, with the flags the build layer
gives a pybind11 source (pybind11 and Python stay -isystem: their warnings are not ours).

One translation unit includes every header (one compiler run, ~5-10 s; a warning names the header
it is in, and the assertion lists ours that the compiler output mentions)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from mskernel.toolchain import find_toolchain, include_dir
from mskernel.toolchain.flags import source_flags

STRICT = ["-Wall", "-Wextra", "-Werror", "-fsyntax-only"]


def _flags() -> list[str]:
    tc = find_toolchain()
    return list(tc.cxx_argv) + source_flags(tc, kind="pybind11", lang="c++", optimize="-O2", debug=False,
                                            openmp=False, include_paths=[], cflags=[], name="mk_headers",
                                            define_module_name=True) + STRICT


def _compile(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    tu = tmp_path / "headers.cpp"
    tu.write_text(text)
    return subprocess.run(_flags() + [str(tu)], capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_every_header_of_ours_compiles_without_warnings(tmp_path):
    root = include_dir()
    headers = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.h"))
    assert {"ms_extension.h", "mskernel/function.h", "custom_aot_extra.h"} <= set(headers)
    proc = _compile(tmp_path, "".join(f'#include "{h}"\n' for h in headers))
    named = [h for h in headers if re.search(rf"/{re.escape(h)}:\d+:\d+: (error|warning)", proc.stderr)]
    assert proc.returncode == 0, f"warnings in {named or 'headers of ours'}:\n{proc.stderr[-4000:]}"
    assert proc.stderr == ""


def test_the_strict_flags_turn_a_warning_into_a_failure(tmp_path):
    """The check above can fail: the same command rejects a header-like snippet with a warning."""
    proc = _compile(tmp_path, "#include <stdexcept>\n"
                              "inline int f() { try { return 1; } catch (const std::exception &) { throw; }\n"
                              "  catch (const std::runtime_error &) { throw; } }\n")
    assert proc.returncode != 0 and "-Werror=exceptions" in proc.stderr
