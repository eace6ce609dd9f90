"""%%custom_op with C++ cells, driven through a real IPython shell and the real compiler.

Builds take seconds on a shared machine: the Function<T> module is built once per session (and comes
from the build cache on later runs); each other test builds at most one module.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import threading
import uuid
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import last_result
from mskernel.toolchain import cache_dir, pch_dir

REPO = Path(__file__).resolve().parents[2]
RATIO_CPP = (REPO / "docs" / "howto" / "examples" / "ratio_ops.cpp").read_text()  # Function<Ratio>: x / y
# MindSpore's Function tutorial, read from beside the checkout (this repository keeps no copy of it)
TUTORIAL_CPP = REPO.parent / "shared" / "seeds" / "restored" / "function_ops.cpp"

# two plain functions (ms::Tensor in, ms::Tensor out), float64, no PYBIND11_MODULE: --forward/--backward bind them
CUBE_CPP = """#include "ms_extension.h"
ms::Tensor cube(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>();
  double *o = out.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) o[i] = a[i] * a[i] * a[i];
  return out;
}
ms::Tensor cube_grad(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  ms::Tensor dx(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>(), *d = dout.data_ptr<double>();
  double *g = dx.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) g[i] = 3.0 * a[i] * a[i] * d[i];
  return dx;
}
"""

TINY_CPP = """#include <pybind11/pybind11.h>
int answer() { return ANSWER; }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("answer", &answer); }
"""


@pytest.fixture(scope="module")
def ratio_module(run, shell):
    ran = run(f"%%custom_op cpp_ratio --backend Ascend\n{RATIO_CPP}")
    assert ran.success, ran.text()
    return ran


def test_function_op_cell_binds_the_module_with_gradients(ratio_module, shell):
    assert ratio_module.stderr == "" and ratio_module.stdout == ""
    text = ratio_module.text()
    assert "%%custom_op cpp_ratio: C++ module, bound module cpp_ratio, cpp_ratio.ratio(" in text
    assert "backend 'Ascend' is not available here: the op runs on the CPU" in text
    mod = shell.user_ns["cpp_ratio"]
    x, y = ms.Tensor(3.0, ms.float32), ms.Tensor(2.0, ms.float32)
    gx, gy = ms.grad(lambda a, b: mod.ratio(a, b), grad_position=(0, 1))(x, y)
    assert (float(mod.ratio(x, y).asnumpy()), float(gx.asnumpy()), float(gy.asnumpy())) == (1.5, 0.5, -0.75)


@pytest.mark.skipif(not TUTORIAL_CPP.is_file(), reason=f"MindSpore's Function tutorial is read from {TUTORIAL_CPP} "
                                                        f"(../shared/seeds beside the checkout), which is not here")
def test_the_function_tutorial_runs_as_a_cell(run, shell):
    ran = run(f"%%custom_op cpp_tutorial --backend Ascend --quiet\n{TUTORIAL_CPP.read_text()}")
    assert ran.success, ran.text()
    mod = shell.user_ns["cpp_tutorial"]
    x, y = ms.Tensor(2.0, ms.float32), ms.Tensor(3.0, ms.float32)
    gx, gy = ms.grad(lambda a, b: mod.mul(a, b), grad_position=(0, 1))(x, y)
    assert (float(mod.mul(x, y).asnumpy()), float(gx.asnumpy()), float(gy.asnumpy())) == (6.0, 3.0, 2.0)


def test_unchanged_cell_loads_from_the_cache_without_the_compiler(ratio_module, run, shell):
    first = last_result("cpp_ratio").artifact
    ran = run(f"%%custom_op cpp_ratio --backend Ascend\n{RATIO_CPP}")
    again = last_result("cpp_ratio").artifact
    assert ran.success and again.cached and again.seconds == 0.0  # Artifact.cached: no compiler, no ninja
    assert again.key == first.key and "loaded from the cache" in ran.text()
    assert [stage for stage, _ in last_result("cpp_ratio").stages] == ["checking the build cache", "loading"]
    info = run("%custom_op_info cpp_ratio")
    assert "C++ module (pybind11)" in info.text() and again.key in info.text() and str(again.path) in info.text()
    assert "class Ratio" in info.text()  # the source


def test_force_rebuilds_with_live_progress_replaced_by_the_summary(ratio_module, run):
    ran = run(f"%%custom_op cpp_ratio --backend Ascend --force\n{RATIO_CPP}")
    assert ran.success and ran.stderr == ""
    result = last_result("cpp_ratio")
    art = result.artifact
    assert not art.cached and art.seconds > 0
    assert [stage for stage, _ in result.stages] == ["checking the build cache", "compiling", "linking", "loading"]
    texts = [o.data.get("text/plain", "") for o in ran.outputs]
    shown = [m.group(1) for t in texts if (m := re.fullmatch(r"%%custom_op cpp_ratio: (.+)\.\.\. \d+\.\d s", t))]
    runs = [s for i, s in enumerate(shown) if i == 0 or shown[i - 1] != s]
    # each stage is shown as it begins (a compile takes longer than the display's 0.3 s delay)
    assert runs[-3:] == ["compiling", "linking", "loading"] and set(runs[:-3]) <= {"checking the build cache"}, texts
    assert ran.outputs[-1].update and "built in" in texts[-1]  # the progress display became the summary
    assert re.search(r"built in \d+\.\d+ s \(.*compiling \d+\.\d s", texts[-1]), texts[-1]


def test_forward_backward_bind_one_differentiable_op(run, shell):
    ran = run(f"%%custom_op cpp_cube --forward cube --backward cube_grad\n{CUBE_CPP}")
    assert ran.success, ran.text()
    assert "cpp_cube(arg0: Tensor) -> Tensor (forward cube, backward cube_grad)" in ran.text()
    op = shell.user_ns["cpp_cube"]
    x = ms.Tensor(np.array([1.0, 2.0, -3.0]))
    np.testing.assert_array_equal(op(x).asnumpy(), [1.0, 8.0, -27.0])
    np.testing.assert_array_equal(ms.grad(op)(x).asnumpy(), [3.0, 12.0, 27.0])
    shell.user_ns["xc"] = np.array([0.5, -1.5, 2.0])
    check = run("%gradcheck cpp_cube(xc)")
    assert "gradcheck passed" in check.text(), check.text()
    # second order through a raw C++ backward is refused clearly
    with pytest.raises(RuntimeError, match="Second-order gradients through the C\\+\\+ Backward of 'cpp_cube'"):
        ms.grad(ms.grad(op))(ms.Tensor(np.array([1.0, 2.0])))


def test_compile_error_at_the_cell_line_keeps_the_previous_module(ratio_module, run, shell):
    good = shell.user_ns["cpp_ratio"]
    broken = RATIO_CPP.replace("BaseTensorPtr out = EmptyLike(x);", "BaseTensorPtr out = EmptyLike(z);")
    line = 1 + RATIO_CPP.splitlines().index("    BaseTensorPtr out = EmptyLike(x);") + 1  # the magic line is line 1
    ran = run(f"%%custom_op cpp_ratio\n{broken}")
    assert not ran.success and type(ran.error).__name__ == "CustomOpError"
    text = ran.text()
    plain = text.replace("\u2018", "'").replace("\u2019", "'")  # gcc's typographic quotes
    assert re.search(rf"compile error: 'z' was not declared in this scope.*\(cell line {line}\)", plain)
    assert f">{line:5d} |     BaseTensorPtr out = EmptyLike(z);" in text
    assert "cpp_ratio is still the op of its last successful run (module cpp_ratio)" in text
    assert "<details><summary>full compiler log</summary>" in ran.html() and "FAILED" in ran.html()
    assert "Traceback" not in ran.stdout
    assert shell.user_ns["cpp_ratio"] is good


def test_options_cflags_include_ldflags_debug_verbose(run, shell, tmp_path):
    (tmp_path / "answer_base.h").write_text("#define ANSWER_BASE 40\n")
    cell = ("%%custom_op cpp_opts -c='-DEXTRA=2' --cflags=-Wall -I " + str(tmp_path) +
            " --ldflags=-lm --debug --verbose\n#include \"answer_base.h\"\n" + TINY_CPP.replace(
                "ANSWER", "ANSWER_BASE + EXTRA", 1))
    ran = run(cell)
    assert ran.success, ran.text()
    assert shell.user_ns["cpp_opts"].answer() == 42
    art = last_result("cpp_opts").artifact
    flags = art.manifest["cxxflags"]
    assert "-DEXTRA=2" in flags and "-Wall" in flags and "-O0" in flags and "-g" in flags
    assert "-lm" in art.manifest["ldflags"]
    assert "$ " in ran.text() and "-DEXTRA=2" in ran.text()  # --verbose: the commands


@pytest.mark.parametrize("opts, code, message", [
    ("--bprop g", TINY_CPP, "--bprop applies to hybrid cells"),
    ("--forward answer", TINY_CPP, "--forward needs --backward too"),
    ("--out-shape x", TINY_CPP, "--out-shape applies to hybrid cells"),
    ("--lang cpp", "int f() { return 1; }\n", "a C++ cell must define PYBIND11_MODULE"),
])
def test_cpp_option_errors(run, shell, opts, code, message):
    ran = run(f"%%custom_op cpp_bad {opts}\n{code}")
    assert not ran.success and message in ran.text()
    assert "cpp_bad" not in shell.user_ns


def test_forward_naming_a_missing_function(run):
    ran = run(f"%%custom_op cpp_missing --forward cube --backward nope\n{CUBE_CPP}")
    assert not ran.success
    assert "in the bindings added for --forward/--backward" in ran.text()


def test_a_full_disk_is_reported_as_such_and_keeps_the_previous_module(run, shell, tmp_path, monkeypatch):
    monkeypatch.setenv("MSKERNEL_PCH_DIR", str(pch_dir()))  # the shared one-time artifacts stay where they are
    root = tmp_path / "cache"
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(root))
    cell = f"%%custom_op cpp_full\n{TINY_CPP.replace('ANSWER', '3', 1)}"
    assert run(cell).success
    good, art = shell.user_ns["cpp_full"], last_result("cpp_full").artifact
    entry = art.path.parent
    [workdir] = (root / ".work").glob("cpp_full-*")
    shutil.rmtree(entry)  # (as if evicted) so the next run links again ...
    out = workdir / "out" / (entry.name + art.path.name[len("cpp_full"):])
    out.unlink()
    out.symlink_to("/dev/full")  # ... into a file that is always full (ENOSPC)
    ran = run(cell)
    assert not ran.success and type(ran.error).__name__ == "CustomOpError"
    text = ran.text()
    assert f"cpp_full: build failed: the build cache directory {root} is full (" in text, text
    assert "MSKERNEL_CACHE_DIR" in text and "compile error" not in text
    assert shell.user_ns["cpp_full"] is good and not entry.exists()


def _compilers_in(workdir_prefix: str) -> list[int]:
    """Processes whose working directory is a work dir of this op (ninja and the compilers it runs)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/cwd").startswith(workdir_prefix):
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def test_interrupted_build_stops_the_compiler_and_the_next_run_works(run, shell, tmp_path):
    """The cell includes a named pipe: the compiler blocks reading it until someone writes, which
    nobody does. Opening the pipe for writing returns once the compiler has opened it -- then the
    kernel is interrupted; nothing is timed."""
    name = f"cpp_slow_{uuid.uuid4().hex[:8]}"  # never cached
    prefix = str(cache_dir() / ".work" / f"{name}-")
    fifo = tmp_path / "blocks.h"
    os.mkfifo(fifo)
    main, cell_done, writer = threading.main_thread().ident, threading.Event(), []

    def interrupt_when_compiling():
        writer.append(os.open(fifo, os.O_WRONLY))  # returns when the compiler opens the header
        if not cell_done.is_set():
            signal.pthread_kill(main, signal.SIGINT)

    watcher = threading.Thread(target=interrupt_when_compiling, daemon=True)
    watcher.start()
    try:
        ran = run(f'%%custom_op {name}\n#include "{fifo}"\n{TINY_CPP.replace("ANSWER", "1", 1)}')
    finally:
        cell_done.set()
        if watcher.is_alive():  # the compiler never opened the pipe: release the watcher
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        watcher.join()
        for fd in writer:
            os.close(fd)
    assert isinstance(ran.error, KeyboardInterrupt), ran.text()  # the compile could not have finished
    assert f"%%custom_op {name}: interrupted; the build was stopped and {name} is unchanged" in ran.text()
    assert name not in shell.user_ns
    assert _compilers_in(prefix) == []  # ninja and its compilers were reaped before the interrupt propagated
    good = run(f"%%custom_op {name}\n{TINY_CPP.replace('ANSWER', '7', 1)}")
    assert good.success, good.text()
    assert shell.user_ns[name].answer() == 7
