"""Split pybind11 builds: derived headers, the support object, mode choice and the full-mode fallbacks."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mskernel.toolchain import BuildError, Source, build, load_python_module
from mskernel.toolchain import split as split_mod
from mskernel.toolchain.cache import verify_entry
from mskernel.toolchain.discover import ToolchainError, find_toolchain
from mskernel.toolchain.pch import pch_eligible
from mskernel.toolchain.split import DeriveError, choose_mode, derive, fell_back, split_headers
from mskernel.toolchain.support import find_support, prepare_support, support_spec

REPO = Path(__file__).resolve().parents[2]
FUNCTION_CPP = REPO / "docs" / "howto" / "examples" / "ratio_ops.cpp"  # a C++ Function<T> op: x / y

VERSION_SRC = """#include "ms_extension.h"
static int version() {{ return {version}; }}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.def("version", &version); }}
"""


def _mode_entries(cache: Path, name: str) -> dict:
    """{pybind11_mode: entry name} of the published entries of ``name`` in ``cache``."""
    out = {}
    for manifest in cache.glob(f"{name}-*/manifest.json"):
        out[json.loads(manifest.read_text()).get("pybind11_mode")] = manifest.parent.name
    return out


def _symbols(path: Path, *, undefined: bool) -> str:
    return subprocess.run(["nm", "-C", "-u" if undefined else "--defined-only", str(path)], capture_output=True,
                          text=True, check=True).stdout


# ---- deriving the headers ------------------------------------------------------------------------

def test_declare_and_drop_keep_everything_else():
    text = textwrap.dedent("""\
        struct A {
          inline int f(int x) { if (x) { return "}"[0] + '{'; } /* } */ return 0; }  // }
          int g() const;
        };
        inline int A::g() const { return R"x(})x"[0]; }
        int h() { return 1; }
        """)
    out = derive(text, [(r"inline int f\(", "declare"), (r"inline int A::g\(\) const", "drop")])
    assert out == textwrap.dedent("""\
        struct A {
        #ifdef MSKERNEL_SPLIT_SUPPORT
          __attribute__((used)) inline int f(int x) { if (x) { return "}"[0] + '{'; } /* } */ return 0; }
        #else
          int f(int x);
        #endif
          // }
          int g() const;
        };
        #ifdef MSKERNEL_SPLIT_SUPPORT
        __attribute__((used)) inline int A::g() const { return R"x(})x"[0]; }
        #endif
        int h() { return 1; }
        """)


def test_a_rule_inside_another_rules_definition_is_refused():
    text = "inline int f() {\n  struct L { static int g() { return 1; } };\n  return L::g();\n}\n"
    with pytest.raises(DeriveError, match="inside another rule's definition"):
        derive(text, [(r"inline int f\(", "declare"), (r"static int g\(", "declare")], "x.h")


@pytest.mark.parametrize("anchor,message", [
    (r"int nowhere\(", "matches 0 times"),
    (r"int h\(", "matches 2 times"),
    (r"int g\(\) const", "does not start a function definition"),
])
def test_a_rule_that_does_not_fit_is_refused(anchor, message):
    text = "struct A { int g() const; };\nint h() { return 1; }\nint h(int) { return 2; }\n"
    with pytest.raises(DeriveError, match=message):
        derive(text, [(anchor, "declare")], "x.h")


def _without_support_definitions(text: str) -> str:
    """What a compile without ``MSKERNEL_SPLIT_SUPPORT`` sees of a derived header (its #ifdef branches dropped)."""
    return re.sub(r"#ifdef MSKERNEL_SPLIT_SUPPORT\n.*?(?:#else\n(.*?))?#endif\n", lambda m: m.group(1) or "", text,
                  flags=re.DOTALL)


def test_the_derived_tree_declares_the_runtime_and_copies_the_rest():
    headers = split_headers()
    root = headers.include / "pybind11"
    text = (root / "pybind11.h").read_text()
    rules_here = sum(f == "pybind11/pybind11.h" for f, _, _ in split_mod.RULES)
    assert text.count("#ifdef MSKERNEL_SPLIT_SUPPORT\n") == rules_here
    seen = _without_support_definitions(text)
    assert "void initialize_generic(" in seen and "error_already_set::what()" not in seen
    installed_root = Path(find_toolchain().pybind11_include) / "pybind11"
    assert (root / "stl.h").read_text() == (installed_root / "stl.h").read_text()  # copied as is
    assert (root / "detail" / "class.h").read_text() == (installed_root / "detail" / "class.h").read_text()
    installed = (Path(find_toolchain().pybind11_include) / "pybind11" / "pybind11.h").read_text()
    assert len(seen) < len(installed) - 10_000  # the bodies are gone
    assert split_headers() == headers  # created once


def test_headers_the_rules_do_not_fit_give_full_mode_with_the_reason(tmp_path, monkeypatch):
    """Checked against the installed version: a pybind11 whose functions changed is not derived."""
    fake = tmp_path / "include"
    (fake / "pybind11" / "detail").mkdir(parents=True)
    for rel in {f for f, _, _ in split_mod.RULES}:
        (fake / rel).write_text("// a pybind11 that changed\n")
    reason = split_mod._split_headers(fake, tmp_path / "pch")
    assert isinstance(reason, str) and "do not fit mskernel's split rules" in reason and "matches 0 times" in reason
    assert not list((tmp_path / "pch").glob("pybind11-split-*"))
    monkeypatch.setattr(split_mod, "split_headers_or_reason", lambda on_stage=None: reason)
    assert choose_mode([]) == ("full", reason)


# ---- choosing the mode ---------------------------------------------------------------------------

def test_the_override_and_requests():
    assert choose_mode([])[0] == "split"
    assert choose_mode(["-DMSKERNEL_FULL_PYBIND11"]) == ("full", "-DMSKERNEL_FULL_PYBIND11 was given")
    assert choose_mode(["-D", "MSKERNEL_FULL_PYBIND11"])[0] == "full"
    assert choose_mode([], requested=False) == ("full", "requested")


def test_the_api_pch_is_used_only_where_it_cannot_change_the_meaning():
    assert pch_eligible(FUNCTION_CPP.read_text(), {})
    assert pch_eligible('// c\n#include <vector>\n#include "ms_extension/api.h"\n', {})
    assert not pch_eligible('#define MSKERNEL_GLUE\n#include "ms_extension.h"\n', {})
    assert not pch_eligible('#include "mine.h"\n#include "ms_extension.h"\n', {"mine.h": "/x/mine.h"})
    assert not pch_eligible('#include "ms_extension.h"\n', {"ms_extension.h": "/elsewhere/ms_extension.h"})
    assert not pch_eligible("#include <mskernel/tensor.h>\n", {})


# ---- split builds --------------------------------------------------------------------------------

def test_a_function_op_builds_split_and_its_object_has_no_pybind11_runtime(cache, pch_ready):
    art = build("split_function", [FUNCTION_CPP], kind="pybind11")
    assert art.mode == "split" and art.manifest["pybind11_mode"] == "split"
    assert art.manifest["support"] == support_spec().key
    mod = load_python_module(art, "split_function")
    import mskernel as ms

    x, y = ms.Tensor([1.0, 2.0], ms.float32), ms.Tensor([3.0, 4.0], ms.float32)
    assert mod.ratio(y, x).asnumpy().tolist() == [3.0, 2.0]
    assert mod.ratio.__doc__ == ("ratio(arg0: Tensor, arg1: Tensor) -> Tensor\n\n"
                                 "x / y, elementwise, with its gradient.\n")
    [obj] = (cache / ".work").glob("split_function-*/obj/*.o")
    assert "pybind11::cpp_function::initialize_generic" in _symbols(obj, undefined=True)  # referenced only
    assert "pybind11::cpp_function::dispatcher" not in _symbols(obj, undefined=False)
    assert any("MSKERNEL_SPLIT_SUPPORT" not in c and str(split_headers().include) in c
               for c in art.manifest["commands"] if " -c " in c)


def test_any_pybind11_api_builds_split(cache, pch_ready):
    src = Source("<cell>", textwrap.dedent("""\
        #include <pybind11/pybind11.h>
        #include <pybind11/numpy.h>
        namespace py = pybind11;
        struct Counter { int n = 0; int inc() { return ++n; } };
        PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
          py::class_<Counter>(m, "Counter", py::module_local()).def(py::init<>()).def("inc", &Counter::inc);
          m.def("total", [](py::array_t<double> a) {
            auto r = a.unchecked<1>(); double s = 0; for (py::ssize_t i = 0; i < r.shape(0); ++i) s += r(i); return s;
          });
          m.def("sub", [](py::module_ &mm) { return mm.def_submodule("inner").attr("__name__"); });
        }
        """))
    art = build("split_class", [src], kind="pybind11")
    assert art.mode == "split"
    mod = load_python_module(art, "split_class")
    c = mod.Counter()
    assert (c.inc(), c.inc()) == (1, 2)
    import numpy as np

    assert mod.total(np.array([1.0, 2.5])) == 3.5


def test_a_split_source_edits_reload(cache, pch_ready):
    v1 = build("split_ver", [Source("<cell>", VERSION_SRC.format(version=1))], kind="pybind11")
    v2 = build("split_ver", [Source("<cell>", VERSION_SRC.format(version=2))], kind="pybind11")
    assert (v1.mode, v2.mode) == ("split", "split") and v1.key != v2.key
    m1, m2 = load_python_module(v1, "split_ver"), load_python_module(v2, "split_ver")
    assert (m1.version(), m2.version()) == (1, 2)
    again = build("split_ver", [Source("<cell>", VERSION_SRC.format(version=1))], kind="pybind11")
    assert again.cached and load_python_module(again, "split_ver") is m1


def test_the_key_covers_the_mode(cache, pch_ready):
    src = [Source("<cell>", VERSION_SRC.format(version=3))]
    split = build("split_key", src, kind="pybind11")
    full = build("split_key", src, kind="pybind11", cflags=["-DMSKERNEL_FULL_PYBIND11"])
    assert (split.mode, full.mode) == ("split", "full") and split.key != full.key
    assert set(_mode_entries(cache, "split_key")) == {"split", "full"}
    again = build("split_key", src, kind="pybind11"), build("split_key", src, kind="pybind11", split=False)
    assert [(a.cached, a.mode) for a in again] == [(True, "split"), (False, "full")]
    assert build("split_key", src, kind="pybind11", split=False).cached  # a full build of its own


def test_a_split_failure_that_mentions_pybind11_is_rebuilt_in_full_mode(cache, pch_ready):
    """Including pybind11.h by its installed path (not through the include path) clashes with the
    derived header the split precompiled header holds; full mode builds it."""
    installed = Path(find_toolchain().pybind11_include) / "pybind11" / "pybind11.h"
    text = (f'#include "{installed}"\nstatic int v() {{ return 7; }}\n'
            'PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("v", &v); }\n')
    art = build("split_retry", [Source("<cell>", text)], kind="pybind11")
    assert art.mode == "full" and load_python_module(art, "split_retry").v() == 7
    assert set(_mode_entries(cache, "split_retry")) == {"full"}  # the failed split build published nothing
    from mskernel.toolchain.api import _plan

    plan = _plan("split_retry", [Source("<cell>", text)], kind="pybind11", include_paths=[], cflags=[], ldflags=[],
                 openmp=False, debug=False, optimize="-O2", define_module_name=True)
    assert plan.mode == "split" and fell_back(cache, plan.entry_name)
    assert build("split_retry", [Source("<cell>", text)], kind="pybind11").cached


def test_an_error_points_at_the_users_line_and_is_not_retried(cache):
    src = Source("<cell 8>", '#include "ms_extension.h"\nint f() { return undeclared_name; }\n'
                             "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\"f\", &f); }\n")
    with pytest.raises(BuildError) as info:
        build("split_plain_error", [src], kind="pybind11")
    assert (info.value.location.file, info.value.location.line) == ("<cell 8>", 2)
    assert str(split_headers().include) in info.value.command  # reported from the split build
    assert not (cache / ".fallback").exists()
    assert not list(cache.glob("split_plain_error-*"))  # failures are never cached


def test_the_override_flag_and_argument(cache, pch_ready):
    src = [Source("<cell>", VERSION_SRC.format(version=4))]
    forced = build("split_over", src, kind="pybind11", cflags=["-DMSKERNEL_FULL_PYBIND11"])
    assert forced.mode == "full"
    assert any(str(pch_ready.header) in c for c in forced.manifest["commands"])  # the usual pybind11 PCH
    assert build("split_over", src, kind="pybind11", split=False).mode == "full"
    from mskernel.ops import CustomOpBuilder

    b = CustomOpBuilder("split_over_b", [str(FUNCTION_CPP)], cflags="-DMSKERNEL_FULL_PYBIND11")
    b.load()
    assert b.build_artifact().mode == "full"


# ---- the support object --------------------------------------------------------------------------

def test_the_support_object_defines_the_runtime_the_rules_declare_and_not_all_of_pybind11(cache):
    """What a split module refers to is defined (the declared functions, and the vtable of the class whose key
    function was dropped); pybind11 code none of them reaches is left to the modules that use it."""
    defined = _symbols(prepare_support().object, undefined=False)
    for name in ("pybind11::cpp_function::initialize_generic(", "pybind11::cpp_function::dispatcher(",
                 "pybind11::detail::get_internals()", "pybind11::error_already_set::what() const",
                 "vtable for pybind11::error_already_set", "typeinfo for pybind11::error_already_set"):
        assert name in defined
    assert "pybind11::module_::def_submodule(" not in defined  # (test_any_pybind11_api_builds_split uses it)


def test_a_corrupted_support_object_is_rebuilt(cache):
    first = prepare_support()
    data = bytearray(first.object.read_bytes())
    data[len(data) // 2] ^= 0xFF
    os.chmod(first.object, 0o600)
    first.object.write_bytes(bytes(data))
    assert find_support() is None  # the checksum no longer matches
    again = prepare_support()
    assert not again.cached and again.object == first.object
    assert verify_entry(again.entry, again.key) is not None and find_support() is not None


def test_a_compiler_that_cannot_build_the_support_object_gives_full_builds(cache, tmp_path, monkeypatch):
    """A g++ that fails the support object's compile: it is never cached, and pybind11 builds fall back
    to full mode."""
    wrapper = tmp_path / "gxx"
    wrapper.write_text('#!/bin/sh\ncase " $* " in *" -DMSKERNEL_SPLIT_SUPPORT "*) '
                       'echo "g++: error: unrecognized option" >&2; exit 1 ;; esac\nexec g++ "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CXX", str(wrapper))
    with pytest.raises(ToolchainError, match="runtime and mskernel's glue for split builds failed"):
        prepare_support()
    assert find_support() is None and not support_spec().entry.exists()
    with pytest.raises(ToolchainError, match="split builds failed"):
        prepare_support()  # tried again: a failure is never cached
    art = build("split_nosupport", [Source("<cell>", VERSION_SRC.format(version=5))], kind="pybind11")
    assert art.mode == "full" and load_python_module(art, "split_nosupport").version() == 5


@pytest.mark.slow
def test_a_killed_support_build_leaves_no_entry_and_two_builders_build_once(tmp_path, run_python):
    """Two processes need a support object nobody has built: one compiles it, the other waits;
    killing the compiling one publishes nothing, and the next build succeeds."""
    env = {"MSKERNEL_PCH_DIR": str(tmp_path / "pch"), "MSKERNEL_CACHE_DIR": str(tmp_path / "cache")}
    code = ("from mskernel.toolchain.support import prepare_support\n"
            "s = prepare_support(); print(s.cached, s.object, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "pch" / ".tmp").glob("pybind11-support-*")):
        assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read() if proc.poll() else ""
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not list((tmp_path / "pch").glob("pybind11-support-*"))  # nothing half-built was published
    procs = [subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    cached = sorted(out.split()[0] for out, _ in outs)
    assert cached == ["False", "True"] and len({out.split()[1] for out, _ in outs}) == 1
    assert not list((tmp_path / "pch" / ".tmp").iterdir())
