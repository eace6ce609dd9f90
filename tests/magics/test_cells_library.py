"""mskernel.cells without IPython: language detection, option checks, error rendering, the
forward/backward binding's error paths, the progress ticker."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import mskernel as ms
from mskernel.cells import CellError, CellOptions, ForwardBackwardOp, Ticker, detect_language, run_cell
from mskernel.errors import SourceLocation


@pytest.mark.parametrize("code, lang", [
    ("#include <vector>\nint f();", "cpp"),
    ("  #  include \"ms_extension.h\"", "cpp"),
    ("PYBIND11_MODULE(MS_EXTENSION_NAME, m) {}", "cpp"),
    ("class Mul : public Function<Mul> {};", "cpp"),
    ("def f(x):\n    return x  # include this", "hybrid"),
])
def test_detect_language(code, lang):
    assert detect_language(code) == lang


def test_option_checks_name_the_option():
    with pytest.raises(ValueError, match="--lang must be one of cpp, hybrid, but got 'rust'"):
        CellOptions().check("rust")
    with pytest.raises(ValueError, match="--backward needs --forward too"):
        CellOptions(backward="b").check("cpp")
    with pytest.raises(ValueError, match="-I applies to C\\+\\+ cells"):
        CellOptions(include_dirs=["/x"]).check("hybrid")
    with pytest.raises(ValueError, match="--show-source applies to hybrid cells"):
        CellOptions(show_source=True).check("cpp")


def test_error_rendering_marks_the_line_and_keeps_the_log_collapsed():
    err = CellError("op", "boom <here>", code="a\nb\nc\nd\ne\nf", first_line=2,
                    location=SourceLocation("<cell op>", 5, 1), log="g++ <log>")
    err.kept = "op is unchanged"
    text = err.render_text()
    assert text.splitlines()[0] == "%%custom_op op: boom <here> (cell line 5)"
    assert ">    5 | d" in text and "     3 | b" in text and "     7 | f" in text and "| a" not in text
    page = err.render_html()
    assert "boom &lt;here&gt;" in page and "<details><summary>full compiler log</summary><pre>g++ &lt;log&gt;" in page
    assert "op is unchanged" in page


def test_run_cell_without_ipython_and_a_failing_runtime_statement_restores_name():
    ns = {}
    code = "def k(x):\n    y = output_tensor(x.shape, x.dtype)\n    return y\n"
    run_cell("k", code, CellOptions(), ns)
    old = ns["k"]
    with pytest.raises(ZeroDivisionError):  # the cell's own Python fails: a normal Python error
        run_cell("k", code + "1 / 0\n", CellOptions(), ns)
    assert ns["k"] is old


def test_a_hybrid_cell_failing_after_its_checks_leaves_the_namespace_exactly_as_before():
    code = ("def mulk(x, w):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n"
            "        y[i] = x[i] * w[i]\n    return y\n")
    ns = {"np": np, "OLD": 1}
    run_cell("mulk", code, CellOptions(), ns)
    before = dict(ns)
    with pytest.raises(CellError, match="different dtypes float32 and int32"):  # found compiling for the example
        run_cell("mulk", code + "OLD = 2\nNEW = 3\n", CellOptions(example="(np.ones(2, np.float32), "
                                                                           "np.ones(2, np.int32))"), ns)
    with pytest.raises(CellError, match="'out_shape' must be one of"):  # ops.Custom rejects it, after the cell ran
        run_cell("mulk", code + "OLD = 2\nNEW = 3\n", CellOptions(out_shape="5"), ns)
    assert ns.keys() == before.keys() and all(ns[k] is v for k, v in before.items())
    x = ms.Tensor(np.array([2.0, 3.0], np.float32))
    np.testing.assert_array_equal(ns["mulk"](x, x).asnumpy(), [4, 9])


def test_forward_backward_op_error_paths():
    x = ms.Tensor(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="the backward function must be callable"):
        ForwardBackwardOp("f", lambda a: a, None)
    with pytest.raises(TypeError, match="must return a Tensor"):
        ForwardBackwardOp("f", lambda a: 3, lambda a, o, d: d)(x)
    two = ForwardBackwardOp("f", lambda a: a * 2.0, lambda a, o, d: (d, d))
    with pytest.raises(TypeError, match="one gradient per input \\(1\\), but returned 2"):
        ms.grad(two)(x)
    bad = ForwardBackwardOp("f", lambda a: a * 2.0, lambda a, o, d: 1.0)
    with pytest.raises(TypeError, match="gradient 0 from the backward function must be a Tensor or None"):
        ms.grad(bad)(x)
    pair = ForwardBackwardOp("p", lambda a, b: (a * b, a + b), lambda a, b, o, d: (d[0] * b + d[1], d[0] * a + d[1]))
    ga, gb = ms.grad(lambda a, b: pair(a, b)[0] + pair(a, b)[1], grad_position=(0, 1))(x, x * 3.0)
    np.testing.assert_array_equal(ga.asnumpy(), [4.0, 7.0])
    np.testing.assert_array_equal(gb.asnumpy(), [2.0, 3.0])


def _runs(seen: list) -> list:
    """The stages of consecutive reports, each once (the current stage is reported again while it lasts)."""
    return [s for i, s in enumerate(seen) if i == 0 or seen[i - 1] != s]


def test_ticker_reports_each_stage_as_it_begins_from_its_thread_and_nothing_after_the_block():
    seen, entered = [], threading.Event()
    with Ticker(lambda stage, t: (seen.append((stage, t, threading.current_thread().name)), entered.set()),
                delay=0.0, interval=3600.0) as t:  # no periodic report in this test: every one is a stage change
        t.stage("compiling")
        assert entered.wait(60)  # reported at once, not after the interval
        t.stage("compiling")  # a repeat is not a new stage
        t.stage("linking")
    n = len(seen)
    assert not t._thread.is_alive() and len(seen) == n  # joined: no report can come after the block
    assert _runs([stage for stage, _, _ in seen]) == ["compiling", "linking"]
    assert {name for _, _, name in seen} == {"mskernel-progress"} and all(s >= 0 for _, s, _ in seen)
    assert [stage for stage, _ in t.stages()] == ["compiling", "linking"]


def test_ticker_repeats_the_current_stage_every_interval():
    seen, three = [], threading.Event()

    def report(stage, seconds):
        seen.append((stage, seconds))
        if len(seen) >= 3:
            three.set()

    with Ticker(report, delay=0.0, interval=0.0) as t:
        t.stage("compiling")
        assert three.wait(60)
    assert {stage for stage, _ in seen} == {"compiling"}
    assert [s for _, s in seen] == sorted(s for _, s in seen)  # the time in the stage goes on


def test_ticker_shows_nothing_for_work_done_before_the_delay_but_records_its_stages():
    quiet = []
    with Ticker(lambda s, e: quiet.append(s), delay=3600.0) as t:
        t.stage("checking the build cache")
        t.stage("loading")
    assert quiet == [] and [stage for stage, _ in t.stages()] == ["checking the build cache", "loading"]


def test_each_option_is_declared_once_and_the_magic_parses_it():
    from dataclasses import fields

    from IPython.core.magic_arguments import parse_argstring

    from magics.custom_op import CustomOpMagics

    magic = CustomOpMagics.custom_op
    doc = magic.__doc__
    for f in fields(CellOptions):  # every option of the library is an option of the magic, with its help
        assert f.metadata["flags"][-1] in doc and f.metadata["argparse"]["help"][:30] in " ".join(doc.split())
    line = ('op -c "-O3 -DN=4" --cflags=-g --ldflags=-lm -I "/inc dir" --out-shape "(2, 3)" --example "(x,)" '
            '--bprop g --debug --force --quiet --backend GPU')
    args = parse_argstring(magic, line)
    assert args.name == "op"
    assert CellOptions.from_parsed(args) == CellOptions(
        cflags=["-O3", "-DN=4", "-g"], ldflags=["-lm"], include_dirs=["/inc dir"], out_shape="(2, 3)",
        example="(x,)", bprop="g", debug=True, force=True, quiet=True, backend="GPU")
    assert CellOptions.from_parsed(parse_argstring(magic, "op")) == CellOptions()  # the defaults agree


def test_info_says_why_a_kernel_has_no_default_source():
    from mskernel.cells.info import render_info

    code = ("def k2(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n"
            "        for j in range(x.shape[1]):\n            y[i, j] = x[i, j]\n    return y\n")
    result = run_cell("k2", code, CellOptions(), {})
    text, page = render_info(result)
    assert "// no generated C++ without example inputs:" in text and "x.shape[1]" in text  # and why
