"""The performance page's generator (docs/_ext/mskernel_docs/performance.py), on the stored results, without
building the site: a section per result with its ratios exactly as printed, the method and machine once, the
raw printout folded away, deterministic plots, and clear errors. The page is read back here with its own small
parsers (markdown tables, the results' header lines), not with the generator's."""
from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from mskernel_docs import perf_plot, performance, printout
from mskernel_docs.printout import REFERENCE

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: a ratio as the benchmarks print it, not a goal's threshold (``<= 2x``)
PRINTED_RATIO = re.compile(r"(?<![<>=] )(?<![<>=\w.])\d+\.\d+x(?!\w)")


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Tuple[str, Path]:
    img = tmp_path_factory.mktemp("perf")
    return performance.markdown(ROOT, img), img


def _sections(text: str) -> Dict[str, str]:
    parts = re.split(r"^## `(\w+)`\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _cells(row: str) -> List[str]:
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip()[1:-1])]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _tables(section: str) -> List[Tuple[List[str], List[List[str]]]]:
    """Every markdown table of a section, outside its raw printout: (header cells, rows of cells)."""
    shown = section.split("<details>")[0]
    out = []
    for block in re.findall(r"(?:^\|.*\|\n)+", shown, flags=re.M):
        lines = block.splitlines()
        out.append(([_unescape(c) for c in _cells(lines[0])], [[_unescape(c) for c in _cells(ln)] for ln in lines[2:]]))
    return out


def _body(result: Path) -> List[Tuple[int, str]]:
    return [(i + 1, ln) for i, ln in enumerate(result.read_text().splitlines()) if not ln.startswith("#")]


def _source_line(body: List[Tuple[int, str]], label: str) -> List[Tuple[int, str]]:
    """The printout's lines a table row's label names: the line starting with it (whitespace aside), or for a
    row named by a value (``nodes 8``), the line starting with that value."""
    want = " ".join(label.split())
    hits = [(n, ln) for n, ln in body if " ".join(ln.split()).startswith(want)]
    if not hits and " " in want:
        hits = [(n, ln) for n, ln in body if ln.split()[:1] == [want.split()[-1]]]
    if not hits and ": " in want:  # "what: column  1.25x" rows are labelled by the part before the column
        hits = [(n, ln) for n, ln in body if " ".join(ln.split()).startswith(want + ":")]
    return hits


def _numbers_on(line: str) -> List[float]:
    return [float(m.group()) for m in NUMBER.finditer(line)]


def _ratio_tables(section: str):
    return [(head, rows) for head, rows in _tables(section)
            if head[0] != "Goal" and head[0] != "Result"
            and any(re.fullmatch(r"\d+(?:\.\d+)?(x|%)( / \d+(?:\.\d+)?(x|%))*", c) for r in rows for c in r[1:])]


def test_every_result_has_its_section_and_every_benchmark_a_table(page):
    text, _ = page
    sections = _sections(text)
    results = sorted(p.stem for p in RESULTS.glob("*.txt"))
    assert len(results) >= 16
    assert set(results) <= set(sections)
    for name in results:
        ratio_tables = _ratio_tables(sections[name])
        if name in performance.ABSOLUTE:
            assert "reports absolute" in sections[name] and _tables(sections[name]), name
        else:
            assert ratio_tables, f"{name}: no table of ratios"


def test_each_table_cell_is_a_ratio_printed_on_the_rows_line(page):
    text, _ = page
    sections = _sections(text)
    for result in sorted(RESULTS.glob("*.txt")):
        body = _body(result)
        for head, rows in _ratio_tables(sections[result.stem]):
            inline = head[1:] == ["ratio", "relative to (as printed)"]
            for row in rows:
                hits = _source_line(body, row[0])
                assert hits, (result.name, row[0])
                n, line = hits[0]
                cells = row[1:2] if inline else row[1:]
                at = 0  # the columns keep the printout's left-to-right order
                for cell in (c for c in cells if c != "—"):
                    for value in NUMBER.findall(cell):
                        assert float(value) in _numbers_on(line), (result.name, n, row[0], cell)
                        found = re.compile(rf"(?<![\d.]){re.escape(value)}(x|%|\s|$)").search(line, at)
                        assert found, (result.name, n, row[0], cell, "not after the cell before it")
                        at = found.end()
                if inline:  # what the ratio is relative to is the line's own words
                    for piece in re.split(r"…|; ", row[2]):
                        assert " ".join(piece.split()) in " ".join(line.split()), (result.name, n, piece)


def test_every_printed_ratio_is_in_a_table_or_quoted(page):
    """The converse: nothing the printout states as a ratio is left out of the page (outside the raw block)."""
    text, _ = page
    sections = _sections(text)
    for result in sorted(RESULTS.glob("*.txt")):
        if result.stem in performance.ABSOLUTE:
            continue
        section = sections[result.stem]
        shown = section.split("<details>")[0]
        tabled: Dict[int, List[float]] = {}
        body = _body(result)
        for _, rows in _ratio_tables(section):
            for row in rows:
                n, _line = _source_line(body, row[0])[0]
                tabled.setdefault(n, []).extend(float(v) for c in row[1:] for v in NUMBER.findall(c))
        for n, line in body:
            for m in PRINTED_RATIO.finditer(line):
                quoted = f"`{line.strip()}`" in shown
                assert quoted or float(m.group()[:-1]) in tabled.get(n, []), (result.name, n, m.group(), line)


def test_the_machine_section_lists_each_results_date_load_and_commit(page):
    text, _ = page
    machine = text.split("## Machine\n", 1)[1].split("\n## ", 1)[0]
    (head, rows), = [t for t in _tables(machine) if t[0][0] == "Result"]
    by_name = {re.search(r"`(\w+)`", r[0]).group(1): dict(zip(head, r)) for r in rows}
    assert set(by_name) == {p.stem for p in RESULTS.glob("*.txt")}
    setups = set()
    for result in RESULTS.glob("*.txt"):
        header = dict(re.findall(r"^# ([^:]+): (.*)$", result.read_text(), flags=re.M))
        row = by_name[result.stem]
        load = re.search(r"load average ([\d.]+) when it started", header["machine"]).group(1)
        assert float(row["Load"].split()[0]) == float(load), result.name
        assert row["Date"] == header["date"] and row["mskernel commit"] == header["machine"].rsplit(" ", 1)[1]
        setups.add(re.sub(r", load average [\d.]+ when it started|, mskernel \S+$", "", header["machine"]))
    if len(setups) == 1:  # the machine, stated once
        cores, cpu = re.match(r"(\d+) cores \((.*)\), Python", setups.pop()).groups()
        assert f"recorded on one setup: {cores} cores ({cpu})" in machine
    method = text.split("## How these numbers were made\n", 1)[1].split("\n## ", 1)[0]
    assert "python benchmarks/record.py NAME" in method and "interleave" in method and "ratio" in method


def test_the_raw_printout_is_folded_away_in_each_section(page):
    text, _ = page
    sections = _sections(text)
    for result in RESULTS.glob("*.txt"):
        section = sections[result.stem]
        assert section.count("<details>") == 1 and "<details open" not in section
        folded = section[section.index("<details>"):section.index("</details>")]
        summary = re.search(r"<summary>(.*)</summary>", folded).group(1)
        command = re.search(r"^# command: (.*)$", result.read_text(), flags=re.M).group(1)
        assert f"<code>{command}</code>" in summary
        raw = "\n".join(ln for _, ln in _body(result)).strip("\n")
        assert f"```text\n{raw}\n```" in folded, result.name


def test_the_goals_are_goals_rows_and_each_value_is_on_its_printed_line(page):
    text, _ = page
    sections = _sections(text)
    goals = {g.what: g for g in performance.load_tool(ROOT, "readme_table").GOALS}
    overall = text.split("## Goals", 1)[1].split("\n## ", 1)[0]
    (head, all_rows), = _tables(overall)
    assert head == ["Goal", "Measured", "Target", "Met", "From"] and [r[0] for r in all_rows] == list(goals)
    for result in RESULTS.glob("*.txt"):
        tables = [rows for head, rows in _tables(sections[result.stem]) if head[0] == "Goal"]
        rows = tables[0] if tables else []
        assert [r[0] for r in rows] == [w for w, g in goals.items() if g.file == result.stem], result.name
        lines = result.read_text().splitlines()
        for what, measured, *_ in rows:
            label = " ".join(goals[what].line.split())
            line = next(ln for ln in lines if " ".join(ln.split()).startswith(label))
            number = NUMBER.search(measured.replace("\u00a0", " ")).group()
            shown = float(number)  # rounded to 3 digits, and times may be shown in another unit (ms for us)
            assert any(abs(v * k - shown) <= 0.006 * shown for v in _numbers_on(line) for k in (1, 1e3, 1e-3)), \
                (result.name, what, measured, line)
            overall_row = next(r for r in all_rows if r[0] == what)
            assert overall_row[1:4] == [measured, *_][:3], (overall_row, what)


def test_absolute_values_are_the_printed_ones_in_readable_units(page):
    text, _ = page
    scale = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
    seen = 0
    for name, section in _sections(text).items():
        body = _body(RESULTS / f"{name}.txt") if (RESULTS / f"{name}.txt").exists() else []
        for label, value, unit in re.findall(r"^- (.+?): \*\*([\d.]+) (ns|µs|ms|s)\*\*", section, flags=re.M):
            n, line = _source_line(body, _unescape(label))[0]
            printed = re.search(r"(\d+(?:\.\d+)?)\s*(ns|us|µs|ms|s)?(?:\s|$)", line[line.index(label[-8:]) + 8:])
            seconds = float(printed.group(1)) * scale[printed.group(2) or "s"]
            assert float(value) * scale[unit] == pytest.approx(seconds, rel=5e-3), (name, n, value, unit)
            seen += 1
    assert seen >= 3  # the one-time builds of build_and_call and build_layer at least
    build_and_call = (RESULTS / "build_and_call.txt").read_text()
    printed = re.search(r"one-time split support object build\s+([\d.]+) ms", build_and_call)
    assert f"**{float(printed.group(1)) / 1000:.3g} s** (not in the cold builds)" in _sections(text)["build_and_call"]


def test_plots_draw_each_tables_ratios_and_are_the_same_on_every_build(page, tmp_path):
    text, img = page
    for name, section in _sections(text).items():
        svg_ref = f"](_perf/{name}.svg)"
        if name in performance.ABSOLUTE:
            assert svg_ref not in section
            continue
        drawn = (img / f"{name}.svg").read_text()
        assert svg_ref in section and "<dc:date>" not in drawn
        for head, rows in _ratio_tables(section):
            inline = head[1:] == ["ratio", "relative to (as printed)"]
            drawn_columns = [1] if inline else [i for i, h in enumerate(head) if i and not h.endswith(REFERENCE)]
            for row in rows:  # each bar is labelled with its ratio as printed (the first of "0.61x / 0.61x")
                for i in drawn_columns:
                    assert f" {row[i].split(' / ')[0]}<" in drawn or row[i] == "—", (name, row[0], head[i])
    again = tmp_path / "again"
    script = (f"import sys; sys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r}); from pathlib import Path; "
              f"from mskernel_docs import performance; performance.markdown(Path({str(ROOT)!r}), Path({str(again)!r}))")
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)
    for svg in img.glob("*.svg"):
        assert (again / svg.name).read_bytes() == svg.read_bytes(), svg.name  # another process, the same bytes


def _root_with(tmp_path: Path, name: str, result: str) -> Path:
    bench = tmp_path / "benchmarks"
    (bench / "results").mkdir(parents=True)
    for tool in performance.TOOLS:
        shutil.copy(ROOT / "benchmarks" / tool, bench / tool)
    (bench / f"{name}.py").write_text('"""A made-up benchmark.\n\nIt prints one table."""\n')
    (bench / "results" / f"{name}.txt").write_text(result)
    return tmp_path


def test_a_malformed_result_stops_the_page_naming_the_file_and_line(tmp_path):
    head = "# command: python benchmarks/made_up.py\n# date: 2026-01-02\n"
    root = _root_with(tmp_path, "made_up", head + "# machine: somewhere fast\nop   a/b\nexp  1.2x\n")
    with pytest.raises(printout.PrintoutError, match=r"^benchmarks/results/made_up\.txt, line 3: the machine line"):
        performance.markdown(root, tmp_path / "img")


def test_a_result_without_ratios_must_say_why(tmp_path):
    text = ("# command: python benchmarks/made_up.py\n# date: 2026-01-02\n# machine: 2 cores (EPYC), load average "
            "0.1 when it started, Python 3.11.7, numpy 2.4.6, mskernel abc1234\nwhat     time\nbuild   2.0 s\n")
    root = _root_with(tmp_path, "made_up", text)
    with pytest.raises(ValueError, match=r"benchmarks/results/made_up\.txt: no ratio found; .* performance\.ABSOLUTE"):
        performance.markdown(root, tmp_path / "img")


@pytest.mark.parametrize("module", [printout, perf_plot, performance])
def test_the_generators_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_an_unchanged_plot_is_left_alone_and_a_changed_one_rewritten(tmp_path):
    ratios = printout.read(RESULTS / "op_table.txt").ratios
    out = tmp_path / "op_table.svg"
    assert perf_plot.plot(ratios, "op_table", out)
    os.utime(out, ns=(10**9, 10**9))
    perf_plot.plot(ratios, "op_table", out)
    assert out.stat().st_mtime_ns == 10**9  # incremental site builds see nothing new
    perf_plot.plot(ratios, "op_table, again", out)
    assert out.stat().st_mtime_ns != 10**9 and "op_table, again" in out.read_text()
    assert not perf_plot.plot([], "nothing", tmp_path / "none.svg") and not (tmp_path / "none.svg").exists()
