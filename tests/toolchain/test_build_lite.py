"""Lite pybind11 builds: mode choice, the full-mode fallbacks, the override, the support library."""
from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mskernel.toolchain import BuildError, Source, build, load_python_module
from mskernel.toolchain.cache import verify_entry
from mskernel.toolchain.lite import choose_mode, fell_back, pch_eligible
from mskernel.toolchain.support import find_support, prepare_support, support_spec
from mskernel.toolchain.discover import ToolchainError, include_dir

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "tests" / "seeds" / "function_ops.cpp"
MS_EXT = [str(include_dir() / "ms_extension.h")]

LITE_SRC = """#include "ms_extension.h"
#ifdef PYBIND11_MAYBE_CONSTEXPR  // defined by pybind11/pybind11.h and nothing else
#error "pybind11/pybind11.h was included"
#endif
static int version() {{ return {version}; }}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.def("version", &version); }}
"""


def _mode_entries(cache: Path, name: str) -> dict:
    """{pybind11_mode: entry name} of the published entries of ``name`` in ``cache``."""
    out = {}
    for manifest in cache.glob(f"{name}-*/manifest.json"):
        out[json.loads(manifest.read_text()).get("pybind11_mode")] = manifest.parent.name
    return out


# ---- choosing the mode ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,why", [
    ("#include <pybind11/pybind11.h>", "includes <pybind11/pybind11.h>"),
    ('#include "pybind11/numpy.h"', "includes <pybind11/numpy.h>"),
    ("py::class_<A>(m, \"A\");", "uses py::class_"),
    ("pybind11::enum_<E>(m, \"E\");", "uses py::enum_"),
    ("void bind(py::module_ &m);", "uses py::module_"),
    ("py::array_t<float> a;", "uses py::array_t"),
    ("using namespace pybind11;", "uses 'using namespace' for pybind11"),
    ("namespace pb = pybind11;\npb::class_<A> a;", "uses py::class_"),
    ("PYBIND11_MODULE(n, m, py::mod_gil_not_used()) {}", "uses py::mod_gil_not_used"),
    ("PYBIND11_MAKE_OPAQUE(std::vector<int>)", "uses PYBIND11_MAKE_OPAQUE"),
    ("PYBIND11_MODULE(n, m) { auto s = m.def_submodule(\"s\"); }", "calls module_::def_submodule"),
])
def test_the_scan_picks_full_mode_for_anything_outside_the_subset(text, why):
    assert choose_mode([text], [], headers=MS_EXT) == ("full", why)


def test_the_scan_picks_lite_mode_for_the_tutorial_subset():
    assert choose_mode([SEED.read_text()], [], headers=MS_EXT)[0] == "lite"
    text = ('m.def("f", &f, "doc", py::arg("x"), py::arg("y") = 2, py::kw_only(), py::arg("z"));\n'
            "py::object g(py::list l, py::dict d, py::args a, py::kwargs k) { return py::none(); }\n"
            "// a comment naming py::class_ does not count\n")
    assert choose_mode([text], [], headers=MS_EXT)[0] == "lite"
    assert choose_mode([text], [])[0] == "full"  # no mskernel header: nothing to gain


def test_a_users_own_header_is_scanned_too(tmp_path):
    header = tmp_path / "binds.h"
    header.write_text("inline void bind(py::module_ &m) {}\n")
    mode, why = choose_mode(["#include \"binds.h\""], [], headers=MS_EXT + [str(header)])
    assert mode == "full" and "py::module_" in why and str(header) in why


def test_the_override_and_requests():
    assert choose_mode([SEED.read_text()], ["-DMSKERNEL_FULL_PYBIND11"], headers=MS_EXT)[0] == "full"
    assert choose_mode([SEED.read_text()], [], headers=MS_EXT, requested=False) == ("full", "requested")
    assert choose_mode(["py::class_<A> a;"], [], headers=MS_EXT, requested=True) == ("lite", "requested")


def test_the_lite_pch_is_used_only_where_it_cannot_change_the_meaning():
    assert pch_eligible(SEED.read_text(), {})
    assert pch_eligible('// c\n#include <vector>\n#include "ms_extension/api.h"\n', {})
    assert not pch_eligible('#define MSKERNEL_GLUE\n#include "ms_extension.h"\n', {})
    assert not pch_eligible('#include "mine.h"\n#include "ms_extension.h"\n', {"mine.h": "/x/mine.h"})
    assert not pch_eligible('#include "ms_extension.h"\n', {"ms_extension.h": "/elsewhere/ms_extension.h"})
    assert not pch_eligible("#include <mskernel/tensor.h>\n", {})


# ---- lite builds ---------------------------------------------------------------------------------

def test_the_seed_op_builds_lite_without_pybind11_h(cache, tmp_path):
    """The lite translation unit never sees pybind11.h: every header its compile command reads
    (``-M``; no PCH here, so that list is complete)."""
    art = build("lite_seed", [SEED], kind="pybind11", pch=False)
    assert art.mode == "lite" and art.manifest["pybind11_mode"] == "lite"
    assert art.manifest["support"] == support_spec().key
    mod = load_python_module(art, "lite_seed")
    import mskernel as ms

    x, y = ms.Tensor([1.0, 2.0], ms.float32), ms.Tensor([3.0, 4.0], ms.float32)
    assert mod.mul(x, y).asnumpy().tolist() == [3.0, 8.0]
    assert mod.mul.__doc__ == "mul(arg0: Tensor, arg1: Tensor) -> Tensor\n\nCalculate the value x multiplied by y.\n"
    [compile_cmd] = [c for c in art.manifest["commands"] if " -c " in c]
    argv = shlex.split(compile_cmd)
    argv[argv.index("-MF") + 1] = str(tmp_path / "deps.d")
    argv[argv.index("-MMD")] = "-M"  # system headers too
    [work] = (cache / ".work").glob("lite_seed-*")
    subprocess.run(argv, cwd=work, check=True)
    deps = (tmp_path / "deps.d").read_text()
    assert "pybind11/cast.h" in deps and "mskernel/pybind11_lite.h" in deps and "-DMSKERNEL_PYBIND11_LITE=1" in argv
    assert "pybind11/pybind11.h" not in deps and "pybind11/stl.h" not in deps


def test_a_lite_source_compiles_without_pybind11_h_and_edits_reload(cache):
    v1 = build("lite_ver", [Source("<cell>", LITE_SRC.format(version=1))], kind="pybind11")
    v2 = build("lite_ver", [Source("<cell>", LITE_SRC.format(version=2))], kind="pybind11")
    assert (v1.mode, v2.mode) == ("lite", "lite") and v1.key != v2.key
    m1, m2 = load_python_module(v1, "lite_ver"), load_python_module(v2, "lite_ver")
    assert (m1.version(), m2.version()) == (1, 2)
    again = build("lite_ver", [Source("<cell>", LITE_SRC.format(version=1))], kind="pybind11")
    assert again.cached and load_python_module(again, "lite_ver") is m1


def test_the_key_covers_the_mode(cache):
    src = [Source("<cell>", LITE_SRC.format(version=3).replace("#error", "#warning"))]
    lite = build("lite_key", src, kind="pybind11")
    full = build("lite_key", src, kind="pybind11", cflags=["-DMSKERNEL_FULL_PYBIND11"])
    assert (lite.mode, full.mode) == ("lite", "full") and lite.key != full.key
    assert set(_mode_entries(cache, "lite_key")) == {"lite", "full"}
    again = build("lite_key", src, kind="pybind11"), build("lite_key", src, kind="pybind11", lite=False)
    assert [(a.cached, a.mode) for a in again] == [(True, "lite"), (False, "full")]
    assert build("lite_key", src, kind="pybind11", lite=False).cached  # a full build of its own


def test_a_source_outside_the_subset_builds_full_by_scan(cache):
    src = Source("<cell>", textwrap.dedent("""\
        #include "ms_extension.h"
        struct Counter { int n = 0; int inc() { return ++n; } };
        PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
          py::class_<Counter>(m, "Counter", py::module_local()).def(py::init<>()).def("inc", &Counter::inc);
        }
        """))
    art = build("lite_class", [src], kind="pybind11")
    assert art.mode == "full"
    c = load_python_module(art, "lite_class").Counter()
    assert (c.inc(), c.inc()) == (1, 2)


FALLBACK_SRC = """#include <type_traits>
#include "ms_extension.h"
static bool has_generic_type() {{ return std::is_class<py::detail::generic_type>::value; }}  // pybind11.h only
PYBIND11_MODULE(MS_EXTENSION_NAME, m) {{ m.def("check", &has_generic_type); m.attr("v") = {v}; }}
"""


def test_a_lite_failure_that_mentions_pybind11_is_rebuilt_in_full_mode(cache):
    art = build("lite_retry", [Source("<cell>", FALLBACK_SRC.format(v=1))], kind="pybind11")
    assert art.mode == "full" and load_python_module(art, "lite_retry").check() is True
    assert set(_mode_entries(cache, "lite_retry")) == {"full"}  # the failed lite build published nothing
    lite_entry = f"lite_retry-{_lite_key(FALLBACK_SRC.format(v=1))[:16]}"
    assert fell_back(cache, lite_entry)
    assert build("lite_retry", [Source("<cell>", FALLBACK_SRC.format(v=1))], kind="pybind11").cached


def _lite_key(text: str) -> str:
    from mskernel.toolchain.api import _plan

    return _plan("lite_retry", [Source("<cell>", text)], kind="pybind11", include_paths=[], cflags=[], ldflags=[],
                 openmp=False, debug=False, optimize="-O2", define_module_name=True).key


def test_an_error_in_both_modes_points_at_the_users_line(cache):
    src = Source("<cell 7>", '#include "ms_extension.h"\nint f() {\n  return py::detail::no_such_thing;\n}\n'
                             "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\"f\", &f); }\n")
    with pytest.raises(BuildError) as info:
        build("lite_both", [src], kind="pybind11")
    assert (info.value.location.file, info.value.location.line) == ("<cell 7>", 3)
    assert "no_such_thing" in str(info.value)
    assert not list(cache.glob("lite_both-*"))  # failures are never cached


def test_an_ordinary_error_is_reported_from_the_lite_build(cache):
    src = Source("<cell 8>", '#include "ms_extension.h"\nint f() { return undeclared_name; }\n'
                             "PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def(\"f\", &f); }\n")
    with pytest.raises(BuildError) as info:
        build("lite_plain_error", [src], kind="pybind11")
    assert (info.value.location.file, info.value.location.line) == ("<cell 8>", 2)
    assert "-DMSKERNEL_PYBIND11_LITE=1" in info.value.command  # no full-mode retry for it
    assert not (cache / ".fallback").exists()


def test_the_override_flag_and_argument(cache, pch_ready):
    src = [Source("<cell>", LITE_SRC.format(version=4).replace("#error", "#warning"))]
    forced = build("lite_over", src, kind="pybind11", cflags=["-DMSKERNEL_FULL_PYBIND11"])
    assert forced.mode == "full"
    assert any(str(pch_ready.header) in c for c in forced.manifest["commands"])  # the usual pybind11 PCH
    assert build("lite_over", src, kind="pybind11", lite=False).mode == "full"
    from mskernel.ops import CustomOpBuilder

    b = CustomOpBuilder("lite_over_b", [str(SEED)], cflags="-DMSKERNEL_FULL_PYBIND11")
    b.load()
    assert b.build_artifact().mode == "full"


# ---- the support library -------------------------------------------------------------------------

def test_a_corrupted_support_library_is_rebuilt(cache):
    first = prepare_support()
    data = bytearray(first.object.read_bytes())
    data[len(data) // 2] ^= 0xFF
    os.chmod(first.object, 0o600)
    first.object.write_bytes(bytes(data))
    assert find_support() is None  # the checksum no longer matches
    again = prepare_support()
    assert not again.cached and again.object == first.object
    assert verify_entry(again.entry, again.key) is not None and find_support() is not None


def test_a_failing_support_build_is_not_cached_and_lite_falls_back(cache, monkeypatch):
    flags = ["-DMSKERNEL_LITE_SUPPORT_TEST_FAILURE"]  # lite_support.cpp #errors on it
    with pytest.raises(ToolchainError, match="lite pybind11 support library failed"):
        prepare_support(flags)
    assert find_support(flags) is None and not support_spec(flags).entry.exists()
    with pytest.raises(ToolchainError, match="lite pybind11 support library failed"):
        prepare_support(flags)  # tried again: a failure is never cached
    src = LITE_SRC.format(version=5).replace("#error", "#warning")  # builds in full mode too
    art = build("lite_nosupport", [Source("<cell>", src)], kind="pybind11", cflags=flags)
    assert art.mode == "full" and load_python_module(art, "lite_nosupport").version() == 5


@pytest.mark.slow
def test_a_killed_support_build_leaves_no_entry_and_two_builders_build_once(tmp_path, run_python):
    """Two processes need a support library nobody has built: one compiles it, the other waits;
    killing the compiling one publishes nothing, and the next build succeeds."""
    env = {"MSKERNEL_PCH_DIR": str(tmp_path / "pch"), "MSKERNEL_CACHE_DIR": str(tmp_path / "cache")}
    code = ("from mskernel.toolchain.support import prepare_support\n"
            "s = prepare_support(); print(s.cached, s.object, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "pch" / ".tmp").glob("lite-support-*")):
        assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read() if proc.poll() else ""
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not list((tmp_path / "pch").glob("lite-support-*"))  # nothing half-built was published
    procs = [subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    cached = sorted(out.split()[0] for out, _ in outs)
    assert cached == ["False", "True"] and len({out.split()[1] for out, _ in outs}) == 1
    assert not list((tmp_path / "pch" / ".tmp").iterdir())
