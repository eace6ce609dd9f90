"""The README's "What runs" summary is what ``benchmarks/readme_table.py`` makes of the stored results (so the two
cannot drift), and the generator reads the benchmarks' table shapes and fails loudly on a missing line."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("readme_table", ROOT / "benchmarks" / "readme_table.py")
rt = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("readme_table", rt)  # (dataclasses look their module up)
_spec.loader.exec_module(rt)

# the shapes the benchmarks print (format strings as in call_path.py, engine_overhead.py, magics.py,
# hybrid_kernels.py), filled with made-up numbers
CALL_PATH = ("per-call time of z = x * y, and its ratio to the built-in op (best of 9 interleaved rounds)\n"
             + f"{'':<26}" + "".join(f"{k:>18}" for k in ("built-in", "hybrid", "aot", "pyfunc", "cpp Function"))
             + "\n" + "\n".join(f"{label:<26}" + "".join(f"{f'{t:>10} {r:5.2f}x':>18}" for t, r in cells)
                                for label, cells in [
                                    ("forward, n=8", [("2.5 us", 1.0), ("8.1 us", 3.24), ("4.4 us", 1.76),
                                                      ("31.2 us", 12.48), ("5.0 us", 2.0)]),
                                    ("forward+backward, n=8", [("60 us", 1.0), ("75 us", 1.25), ("70 us", 1.17),
                                                               ("130 us", 2.17), ("66 us", 1.1)]),
                                    ("forward, n=80", [("3 us", 1.0), ("9 us", 3.0), ("4 us", 1.33),
                                                       ("30 us", 10.0), ("5 us", 1.67)])])
             + "\ngoal: every custom kind within 2x the built-in op, forward and forward+backward: "
               "not met (worst 12.48x)\n")
MAGICS = ("\nedit-to-ready time (cell run + first call), best of 1; ratio = time / C++ %%custom_op\n\n"
          + f"{'':28}{'cold':>10}{'ratio':>8}{'cached':>12}{'ratio':>8}\n"
          + f"{'hybrid %%custom_op':28}{0.13:9.3f}s{0.15:8.2f}{6.6:10.1f}ms{0.5:8.2f}\n"
          + f"{'C++ %%custom_op':28}{0.88:9.3f}s{1.0:8.2f}{13.2:10.1f}ms{1.0:8.2f}\n")
KERNELS = ("what                            time  note\n"
           "x.copy()                   250.10 us  bandwidth + allocation\n"
           "hybrid square, allocating  367.80 us    68% of x.copy() bandwidth\n")


def _results(tmp_path: Path, **files: str) -> Path:
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text("# command: python benchmarks/x.py\n# date: 2026-01-02\n" + text)
    return tmp_path


def test_the_readme_summary_is_what_the_generator_makes_of_the_stored_results():
    readme = (ROOT / "README.md").read_text()
    assert rt.START in readme and rt.END in readme
    assert rt.replace_section(readme, rt.summary()) == readme, \
        "README.md's \"What runs\" summary is out of date: run python benchmarks/readme_table.py"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "readme_table.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_the_summary_counts_agree_with_the_files_they_come_from(tmp_path):
    import json
    import re

    text = rt.summary()
    # goldens: counted here from the json files directly
    cases = sum(len(json.loads(p.read_text())["cases"]) for p in (ROOT / "tests" / "golden").glob("*.json"))
    suites = len(list((ROOT / "tests" / "golden").glob("*.json")))
    assert f"{cases} programs in {suites} suites" in text
    # performance: one "met" per goal row whose Met column says yes
    table = rt.render()
    met = sum(1 for ln in table.splitlines()[2:] if ln.split(" | ")[3] == "yes")
    targeted = sum(1 for ln in table.splitlines()[2:] if ln.split(" | ")[2] != "—")
    assert f"{met} of {targeted} met" in text
    # a goal that is not met is named; flipping a result flips the count
    res = _results(tmp_path, call_path=CALL_PATH)
    goals = [rt.Goal("hybrid fwd", "call_path", "forward, n=8", "hybrid", "<= 2x"),
             rt.Goal("aot fwd", "call_path", "forward, n=8", "aot", "<= 2x")]
    assert rt.goal_counts(res, goals) == (1, ["hybrid fwd"])
    # the whole surface: as many names as the recorded surface file holds
    from mskernel import compat_surface
    names = sum(len(v) for v in compat_surface.surface().values())
    assert f"({names} names of" in text and names > 3000
    # MindSpore's own examples: counted here from the stored states
    audit = json.loads((ROOT / "mskernel" / "compat_audit.json").read_text())
    states = [st for st, _ in audit.values()]
    runnable = states.count("agree") + states.count("differ")
    assert f"{states.count('agree')} of {runnable} that the CPU wheel runs" in text
    # the census line: the counts of mskernel.compat's statuses
    from mskernel import compat
    runs = sum(1 for r in compat.rows() if r[2] == "runs")
    assert re.search(rf"\b{runs} of {len(compat.rows())} run as in MindSpore", text)


def test_the_readme_has_no_generated_table_left_in_python_blocks():
    from tests.test_readme import readme_blocks

    assert not any(rt.START in b or "| Goal |" in b for b in readme_blocks())


def test_the_random_program_pins_are_read_without_importing_the_test(tmp_path):
    f = tmp_path / "test_x.py"
    f.write_text("import not_a_module\nPINNED: dict = {'program_001': 1, 'program_007': 2}\n")
    assert rt._pinned_names(f) == ["program_001", "program_007"]
    f.write_text("PINNED = make()\n")
    with pytest.raises(rt.TableError, match="no PINNED dict literal"):
        rt._pinned_names(f)


def test_values_are_read_under_their_column_in_each_benchmarks_table_shape(tmp_path):
    res = _results(tmp_path, call_path=CALL_PATH, magics=MAGICS, hybrid_kernels=KERNELS)
    goals = [rt.Goal("hybrid fwd", "call_path", "forward, n=8", "hybrid", "<= 2x"),
             rt.Goal("pyfunc fwd", "call_path", "forward, n=8", "pyfunc", "<= 2x"),  # 12.48x: no space before it
             rt.Goal("cpp fwd+bwd", "call_path", "forward+backward, n=8", "cpp Function", "<= 2x"),
             rt.Goal("worst", "call_path", "goal:", None, None),
             rt.Goal("hybrid cell", "magics", "hybrid %%custom_op", "cold", "<= 0.3 s"),
             rt.Goal("hybrid cell cached", "magics", "hybrid   %%custom_op", "cached", None, unit="s"),
             rt.Goal("bandwidth", "hybrid_kernels", "hybrid square, allocating", None, ">= 80%")]
    got = {r[0]: r[1:4] for r in rt.rows(res, goals)}
    assert got == {"hybrid fwd": ["3.24x", "≤ 2x", "no"], "pyfunc fwd": ["12.48x", "≤ 2x", "no"],
                   "cpp fwd+bwd": ["1.10x", "≤ 2x", "yes"], "worst": ["12.48x", "—", "—"],
                   "hybrid cell": ["0.13 s", "≤ 0.3 s", "yes"], "hybrid cell cached": ["6.6 ms", "—", "—"],
                   "bandwidth": ["68%", "≥ 80%", "no"]}
    assert "`benchmarks/results/call_path.txt`, 2026-01-02, line `forward, n=8`, column `hybrid`" in \
        rt.rows(res, goals[:1])[0][4]


def test_a_missing_result_file_reads_not_recorded_and_a_dash_not_measured(tmp_path):
    text = ("graph             size            mskernel  numpy floor  torch eager  ms/numpy  torch/ms\n"
            "----------------------------------------------------------------------------------------\n"
            "20-op chain       tiny (8)        438.4 us     125.5 us            -     3.49x         -\n")
    res = _results(tmp_path, engine_overhead=text)
    (absent,), (dash,), (there,) = (rt.rows(res, [g]) for g in (
        rt.Goal("a", "call_path", "forward, n=8", "hybrid", "<= 2x"),
        rt.Goal("b", "engine_overhead", "20-op chain tiny (8)", "torch/ms", ">= 2.5x"),
        rt.Goal("c", "engine_overhead", "20-op   chain tiny (8)", "ms/numpy", "<= 2.5x")))
    assert absent[1:] == ["not recorded", "≤ 2x", "—", "`benchmarks/results/call_path.txt` (not recorded yet)"]
    assert dash[1:4] == ["not measured (`-` in the result)", "≥ 2.5x", "—"]
    assert there[1:4] == ["3.49x", "≤ 2.5x", "no"]


def test_an_existing_file_without_the_line_or_column_is_an_error_naming_both(tmp_path):
    res = _results(tmp_path, call_path=CALL_PATH, magics=MAGICS)
    with pytest.raises(rt.TableError, match=r"benchmarks/results/call_path\.txt has no line starting with "
                                            r"'forward, n=1024'"):
        rt.rows(res, [rt.Goal("x", "call_path", "forward, n=1024", "hybrid", "<= 2x")])
    with pytest.raises(rt.TableError, match=r"call_path\.txt: no header with a column 'numba' above line 5"):
        rt.rows(res, [rt.Goal("x", "call_path", "forward, n=8", "numba", "<= 2x")])
    _results(tmp_path, twice=CALL_PATH + "\n" + CALL_PATH)
    with pytest.raises(rt.TableError, match=r"twice\.txt has 2 lines starting with 'forward, n=8' \(lines 5, 12\)"):
        rt.rows(res, [rt.Goal("x", "twice", "forward, n=8", "hybrid", "<= 2x")])
    with pytest.raises(rt.TableError, match=r"magics\.txt, line 6: column 'ratio' appears 2 times"):
        rt.rows(res, [rt.Goal("x", "magics", "C++ %%custom_op", "ratio", "<= 2x")])
    with pytest.raises(rt.TableError, match=r"holds no value in % under the column 'hybrid'"):
        rt.rows(res, [rt.Goal("x", "call_path", "forward, n=8", "hybrid", ">= 80%")])
    with pytest.raises(rt.TableError, match=r"goal '< 2x' is not"):
        rt.rows(res, [rt.Goal("x", "call_path", "forward, n=8", "hybrid", "< 2x")])


def test_the_readme_section_needs_its_markers():
    with pytest.raises(rt.TableError, match="README.md has no"):
        rt.replace_section("# README\nno table here\n", "| a |")
    new = rt.replace_section(f"a\n{rt.START}\nold\n{rt.END}\nb\n", "| new |")
    assert new == f"a\n{rt.START}\n| new |\n{rt.END}\nb\n"


def test_the_summary_counts_every_wave_of_random_table_programs():
    """The README's random-table count adds up the waves test_random_table.py compares (read from its WAVES)."""
    import ast

    tree = ast.parse((ROOT / "tests" / "golden" / "test_random_table.py").read_text())
    waves = next(ast.literal_eval(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "WAVES")
    assert tuple(waves) == rt._TABLE_WAVES
