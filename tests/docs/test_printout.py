"""Reading stored benchmark printouts (docs/_ext/mskernel_docs/printout.py): the shapes the benchmarks print,
what each ratio column is relative to, and clear errors for malformed results. The printouts here are made up
in the benchmarks' shapes; tests/docs/test_performance_page.py checks the page made from the stored ones."""
from __future__ import annotations

import pytest

from mskernel_docs.printout import REFERENCE, PrintoutError, parse

MACHINE = "2 cores (AMD EPYC), load average 0.4 when it started, Python 3.11.7, numpy 2.4.6, mskernel abc1234"
HEAD = f"# command: python benchmarks/x.py\n# date: 2026-01-02\n# machine: {MACHINE}\n"


def read(body: str, **relative_to: str):
    return parse(HEAD + body, "benchmarks/results/x.txt", relative_to)


def test_the_header_is_read_into_its_parts():
    cpu = "Intel(R) Xeon(R) CPU @ 2.20GHz"
    text = (f"# command: python benchmarks/k.py --quick\n# date: 2026-03-04\n# machine: 4 cores ({cpu}), load "
            f"average 2.3 when it started, Python 3.12.1, numpy 2.1.0, mskernel 0123abc\n"
            "# recorded with --force: the load average is 2.30, above 1.50\nop   a/b\nexp  1.50x\n")
    h = parse(text, "k.txt").header
    assert (h.command, h.date, h.cores, h.cpu, h.load, h.python, h.numpy, h.commit) == (
        "python benchmarks/k.py --quick", "2026-03-04", 4, cpu, 2.3, "3.12.1", "2.1.0", "0123abc")
    assert h.forced == "the load average is 2.30, above 1.50"
    old = parse(HEAD.replace("load average 0.4 when it started, ", "") + "op   a/b\nexp  1.50x\n", "k.txt")
    assert old.header.load is None and old.header.forced is None  # recorded before the load was


def test_a_column_at_one_on_every_row_is_the_reference_of_the_others():
    body = ("per-call time, and its ratio to the built-in op\n"
            f"{'':<20}" + "".join(f"{k:>16}" for k in ("built-in", "hybrid", "cpp Function")) + "\n"
            + f"{'forward, n=8':<20}" + "".join(f"{f'{t} us {r:5.2f}x':>16}" for t, r in
                                                ((0.4, 1.0), (0.7, 1.73), (0.6, 1.5))) + "\n")
    (table,) = read(body).ratios
    assert table.columns == ("built-in" + REFERENCE, "hybrid / built-in", "cpp Function / built-in")
    assert table.rows[0].cells == ("1.00x", "1.73x", "1.50x")
    assert table.title == "per-call time, and its ratio to the built-in op"
    assert table.rows[0].line == 6  # the line of the file, header included


def test_bare_ratios_under_ratio_headers_take_the_printouts_definition():
    body = ("\nedit-to-ready time, best of 1; ratio = time / C++ %%custom_op\n\n"
            f"{'':28}{'cold':>10}{'ratio':>8}{'cached':>12}{'ratio':>8}\n"
            f"{'hybrid %%custom_op':28}{0.13:9.3f}s{0.08:8.2f}{4.8:10.1f}ms{0.75:8.2f}\n"
            f"{'C++ %%custom_op':28}{1.6:9.3f}s{1.0:8.2f}{6.4:10.1f}ms{1.0:8.2f}\n")
    (table,) = read(body).ratios
    assert table.columns == ("cold: time / C++ %%custom_op", "cached: time / C++ %%custom_op")
    assert [r.cells for r in table.rows] == [("0.08x", "0.75x"), ("1.00x", "1.00x")]


def test_groups_two_line_headers_and_a_header_over_a_time_and_a_ratio():
    groups = ("op        numpy | forward hand    table  ratio | fwd+bwd hand    table  ratio\n"
              "exp       0.28us |       0.67us   0.57us  0.86x |      11.79us  11.66us  0.99x\n"
              "ratio = table-generated / hand-written (below 1.00: the table's op is cheaper)\n")
    (table,) = read(groups).ratios
    assert table.columns == ("forward: table-generated / hand-written", "fwd+bwd: table-generated / hand-written")
    assert table.label == "op" and table.rows[0].cells == ("0.86x", "0.99x")
    two_lines = ("kernel                        backward kernel   grad step        grad step\n"
                 "                                  auto / hand auto / hand  auto / built-in\n"
                 "conv 3x3 on 128^2                       0.86x       0.90x                -\n")
    (table,) = read(two_lines).ratios
    assert table.columns == ("backward kernel, auto / hand", "grad step, auto / hand")
    assert table.rows[0].label == "conv 3x3 on 128^2"
    spanning = ("                 C++ split  C++ full -O2 split/full       numpy\n"
                "  forward, n=1      0.7 us        0.7 us      1.03x      0.3 us\n")
    assert read(spanning).ratios[0].columns == ("split / full",)


def test_a_generic_ratio_column_needs_a_reference_row_a_definition_or_a_name():
    body = "framework     median step  ratio\ntorch              2.82ms  1.00x\nmskernel           5.29ms  1.88x\n"
    assert read(body).ratios[0].columns == ("vs torch",)
    unclear = "phase        one thread   default  ratio\nidle, map        0.65ms    0.63ms  1.04x\n"
    with pytest.raises(PrintoutError, match=r"^benchmarks/results/x\.txt, line 5: the ratio column 'ratio' does "
                                            r"not say what it is relative to .* performance\.RELATIVE_TO$"):
        read(unclear)
    assert read(unclear, ratio="one thread / default").ratios[0].columns == ("one thread / default",)


def test_inline_ratios_keep_what_they_are_relative_to_and_goal_thresholds_are_not_ratios():
    body = ("  bare module, plain g++ -O2        4809.00 ms  best   4809.00 ms, median   4809.00 ms\n"
            "  seed op: cold build + load      2917.51 ms  best   2917.51 ms, median   2917.51 ms; "
            "0.61x / 0.61x bare (best / median), goal <= 0.6x\n"
            "  seed op: no PCH                 4294.61 ms  0.89x median bare\n"
            "per call: ops.Custom(akg mul)        0.70 us   1.63x mskernel's built-in mul (goal <= 2x)\n"
            "numba first call (compile)         543.984 ms  hybrid cold = 0.34x of it\n"
            "hybrid square, allocating           59.11 us   153% of x.copy() bandwidth\n")
    (table,) = read(body).ratios
    assert table.inline and table.columns == ("ratio", "relative to (as printed)")
    assert [(r.label, r.cells) for r in table.rows] == [
        ("seed op: cold build + load", ("0.61x / 0.61x", "bare (best / median); goal <= 0.6x")),
        ("seed op: no PCH", ("0.89x", "median bare")),
        ("per call: ops.Custom(akg mul)", ("1.63x", "mskernel's built-in mul (goal <= 2x)")),
        ("numba first call (compile)", ("0.34x", "hybrid cold = … of it")),
        ("hybrid square, allocating", ("153%", "of x.copy() bandwidth"))]


def test_one_time_costs_and_absolute_goals_are_kept_with_their_unit():
    body = ("case                                               wall s   cpu s  vs bare\n"
            "pybind11 module: bare g++ -O2                 4.76 [ 4.76]    4.76    1.00x\n"
            "pybind11 module: mskernel                     1.13 [ 1.13]    1.11    0.24x\n"
            "one-time pybind11 PCH build (pch dir)                 5.23\n"
            "cached build() call, in process                    0.23 ms\n"
            "\n"
            "  seed op: cached load, fresh process    8.17 ms  best 8.02 ms, median 8.17 ms of 5; goal < 20 ms\n")
    p = read(body)
    assert [(a.label, a.value, a.unit, a.note) for a in p.absolutes] == [
        ("one-time pybind11 PCH build (pch dir)", "5.23", "s", ""),
        ("seed op: cached load, fresh process", "8.17 ms", "", "best 8.02 ms, median 8.17 ms of 5; goal < 20 ms")]
    assert p.ratios[0].rows[1].cells == ("0.24x",) and p.ratios[0].label == "case"


def test_a_row_without_a_header_names_its_column_after_a_colon_and_goal_lines_are_notes():
    body = ("kernel      numpy   hybrid/numpy\nx*x 1 MB   1.0 ms          2.00x\n"
            "goal: hybrid/numpy >= 1.00x: MET\n\n"
            "default threads (2), x*x at 16 MB: hybrid/copy  1.25x\n")
    p = read(body)
    assert [(t.columns, t.rows[0].label) for t in p.ratios] == [
        (("hybrid / numpy",), "x*x 1 MB"), (("hybrid / copy",), "default threads (2), x*x at 16 MB")]
    assert p.notes == ((6, "goal: hybrid/numpy >= 1.00x: MET"),)
    with pytest.raises(PrintoutError, match=r"x\.txt, line 4: ratio 1\.25x has no column header above it"):
        read("x*x at 16 MB  1.25x\n")


@pytest.mark.parametrize("text, message", [
    ("# command python benchmarks/x.py\n", r"x\.txt, line 1: a header line is '# key: value', not "),
    ("# command: python benchmarks/x.py\n# date: 2026-01-02\nop  a/b\n", r"x\.txt, line 1: no '# machine:' line"),
    ("# command: c\n# date: d\n# machine: a fast one\nop  a/b\n", r"x\.txt, line 3: the machine line is not "),
    (HEAD, r"x\.txt, line 4: the header is followed by no printout"),
    (HEAD + "op   a/b\n# note: late\n", r"x\.txt, line 5: a '#' header line after the printout started"),
    (HEAD + "op  n  ratio\nexp  8  1.5x\nsin  8  1.4x\n", r"x\.txt, line 5: the ratio column 'ratio' does not say"),
])
def test_a_malformed_result_names_the_file_and_the_line(text, message):
    with pytest.raises(PrintoutError, match=message):
        parse(text, "benchmarks/results/x.txt")
