"""The performance page: the method and the machine once, then for each benchmark its ratios as a table, a plot,
its goals, and the raw printout folded away.

A benchmark's result is the text it printed, kept in ``benchmarks/results/NAME.txt`` by
``python benchmarks/record.py NAME`` (with the command, date and machine in a header). The page is generated
from those files when the site is built (:mod:`.printout` reads them, :mod:`.perf_plot` draws them); the
benchmarks themselves never run during a build. The goals are ``benchmarks/readme_table.py``'s ``GOALS``, read by
its own code: all of them in one table under the method, and each benchmark's beside its ratios. The README's
"What runs" summary counts the same rows.
"""
from __future__ import annotations

import ast
import html
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .perf_plot import plot
from .printout import Absolute, Header, Printout, Table, read

#: the scripts of benchmarks/ that are tools, not benchmarks (the recorder; the goals and the README's summary)
TOOLS = ("record.py", "readme_table.py")

#: what a ratio column is relative to where the printout's header does not say (result -> column -> heading),
#: from each script's docstring
RELATIVE_TO: Dict[str, Dict[str, str]] = {
    "build_layer": {"ratio": "mskernel / bare -O2"},
    "kernel_check": {"default threads": "checked / kernel on the default threads"},
    "parallel_policy": {"ratio": "one-thread time / default time (median of the rounds)",
                        "mean ratio": "one-thread time / default time (the phase's means)"},
    "stream_threshold": {"in a chain": "stream / ordinary, the kernel followed by one reading its output"},
    "widgets": {"of goal": "GraphView time / goal"},
}

#: benchmarks that report absolute values, and why a ratio would not say more
ABSOLUTE: Dict[str, str] = {
    "cpp_cell_edits": "This benchmark reports absolute times, on purpose: its goals are waits a user sees after "
                      "editing a C++ cell (an edit ready in at most 2 s, the one-time preparation of the first "
                      "cell in at most 15 s on a 2-core machine), and there is no other way of building the cell "
                      "to divide by (`magics` below compares the kinds of cell as ratios). `wall` is the time "
                      "waited, `cpu` the compilers' user+system time; the first row is a one-time cost.",
    "reload_cost": "This benchmark reports absolute amounts, on purpose: what each reload of an edited op leaves "
                   "in the process (resident memory, mapped libraries) is an amount kept per edit, not a speed; "
                   "the torch row is the peer to compare with.",
}


def load_tool(root: Path, name: str) -> ModuleType:
    """A script of ``benchmarks/`` (``record``, ``readme_table``) imported by its path.

    Example:
        >>> load_tool(Path(__file__).resolve().parents[3], "record").MAX_LOAD_PER_CORE
        0.75
    """
    module_name = f"_mskernel_bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, root / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def _summary(script: Path) -> Tuple[str, str]:
    """The first line and the rest of the first paragraph of a script's docstring."""
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    first, _, rest = doc.partition("\n")
    para = rest.strip().split("\n\n")[0] if rest.strip() else ""
    return first.strip(), para


def md(text: str) -> str:
    """``text`` with the characters markdown would read as markup escaped (for table cells and prose).

    Example:
        >>> md("x*x | a_b")
        'x\\\\*x \\\\| a\\\\_b'
    """
    return re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", text)


def _code(text: str) -> str:
    ticks = "``" if "`" in text else "`"
    return f"{ticks} {text} {ticks}" if ticks == "``" else f"`{text}`"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> List[str]:
    """A markdown table (cells already escaped); ``right``: which columns align right (numbers)."""
    rule = ["--:" if r else "---" for r in right]
    return ["| " + " | ".join(head) + " |", "|" + "|".join(rule) + "|"] + ["| " + " | ".join(r) + " |" for r in rows]


def readable(value: str, unit: str = "") -> str:
    """A printed absolute value in a unit that reads at a glance: seconds from 1 s, else ms or µs; three
    significant digits. Values of other units are kept as printed.

    Example:
        >>> readable("16189.25 ms"), readable("5.23", "s"), readable("8.17 ms"), readable("0.02 MiB")
        ('16.2 s', '5.23 s', '8.17 ms', '0.02 MiB')
    """
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ns|us|µs|ms|s)?", value.strip())
    scale = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
    u = (m.group(2) or unit) if m else ""
    if not m or u not in scale:
        return f"{value} {unit}".strip()
    seconds = float(m.group(1)) * scale[u]
    for limit, name, factor in ((1.0, "s", 1.0), (1e-3, "ms", 1e3), (0.0, "µs", 1e6)):
        if seconds >= limit:
            return f"{seconds * factor:.3g} {name}"
    return value


def _ratio_table(t: Table) -> List[str]:
    if t.inline:
        head = [md(t.label), "ratio", "relative to (as printed)"]
        rows = [[md(r.label), md(r.cells[0] or ""), md(r.cells[1] or "")] for r in t.rows]
        return _table(head, rows, [False, True, False])
    head = [md(t.label)] + [md(c) for c in t.columns]
    rows = [[md(r.label)] + [md(c) if c else "—" for c in r.cells] for r in t.rows]
    return _table(head, rows, [False] + [True] * len(t.columns))


def _plain_table(t: Table) -> List[str]:
    head = [md(t.label)] + [md(c) for c in t.columns]
    rows = [[md(r.label)] + [md(c or "") for c in r.cells] for r in t.rows]
    return _table(head, rows, [False] + [True] * len(t.columns))


def _absolute(a: Absolute) -> str:
    note = f" ({md(a.note)})" if a.note else ""
    return f"- {md(a.label)}: **{md(readable(a.value, a.unit))}**{note}"


def _goals(goal_rows: Sequence[Sequence[str]]) -> List[str]:
    rows = [[md(c) if i in (0, 3) else md(c).replace(" ", "\u00a0") for i, c in enumerate(r[:4])]  # "≥ 0.95x" whole
            for r in goal_rows]
    return _table(["Goal", "Measured", "Target", "Met"], rows, [False, True, True, False])


def _all_goals(readme_table: ModuleType, results: Path) -> List[str]:
    """Every performance goal in one table: what is measured, the value, the target, whether it is met, where."""
    rows = readme_table.rows(results)
    met = sum(r[3] == "yes" for r in rows)
    targeted = sum(r[2] != "—" for r in rows)
    out = ["## Goals", "",
           f"{met} of {targeted} goals are met in the recorded runs. Each row names the result file, the line and "
           "the column it reads; \"op call\" rows are one call on 8 elements, the custom op's time over the "
           "built-in op's, and \"torch / ms\" is how many times faster than torch eager.", ""]
    cells = [[md(r[0]), md(r[1]).replace(" ", "\u00a0"), md(r[2]).replace(" ", "\u00a0"), r[3], md(r[4])]
             for r in rows]
    return out + _table(["Goal", "Measured", "Target", "Met", "From"], cells, [False, True, True, False, False]) + [""]


def _load(h: Header) -> str:
    load = f"{h.load:.1f}" if h.load is not None else "not recorded"
    return f"{load} (forced: {h.forced})" if h.forced else load


def _args(h: Header, name: str) -> str:
    args = h.command.split(f"{name}.py", 1)[-1].strip()
    return _code(args) if args else "none"


def _method(printouts: Mapping[str, Printout], max_load_per_core: float) -> List[str]:
    """The page's opening sections: how the numbers were made, and on what machine(s) at what load."""
    out = ["## How these numbers were made", "",
           "Each script in `benchmarks/` runs mskernel and what it is compared with (numpy, a bare `g++` build, "
           "torch, numba, Cython, where installed) in **one process, on the same inputs**. Per-call figures are "
           "the best or the median of repeated rounds (each table's title, or the raw printout, says which); most "
           "scripts **interleave** the compared runs round by round, so that a burst of load on the machine "
           "falls on all of them. Builds and cell edits run in fresh processes with fresh caches: they are "
           "about first builds.", "",
           "The tables give the **ratios** the scripts print; each column's heading says what a ratio is "
           "relative to (`hybrid / numpy`: the hybrid kernel's figure divided by numpy's). The section's summary "
           "says what the figure is (a time, or a bandwidth), and so which side of 1 is better. Absolute times "
           "move with the machine and its load and do not compare across machines: they are in each section's "
           "raw printout, one click away. Where a ratio does not apply (a one-time build, a wait measured "
           "against an absolute goal), a value is given with its unit and what it is.", "",
           "To record a result again, on a quiet machine:", "",
           "```bash", "python benchmarks/record.py NAME      # e.g. op_table; no NAME: all of them (long)", "```", "",
           f"It refuses to start while the 1-minute load average is above {max_load_per_core:g} per core "
           "(`--max-load` sets another limit; `--force` records anyway and the result's header says so), and "
           "writes the command, the date, the machine and the load into the result's header. Then rebuild the "
           "site (`python -m mskernel docs`): the site never runs a benchmark. Every script also runs on its "
           "own (`python benchmarks/NAME.py --help`). The goals below are the rows of `GOALS` in "
           "`benchmarks/readme_table.py`, which also writes the README's summary of them. Torch columns need "
           "`pip install torch==2.13.0` (never a dependency).", ""]
    out += ["## Machine", ""]
    setups = sorted({p.header.setup for p in printouts.values()})
    if len(setups) == 1:
        cores, cpu, python, numpy = setups[0]
        out += [f"All {len(printouts)} results were recorded on one setup: {cores} cores ({md(cpu)}), Python "
                f"{python}, numpy {numpy}. The load is the 1-minute load average when the benchmark started; the "
                f"recorder's limit there is {max_load_per_core * cores:g}.", ""]
    else:
        out += [f"The {len(printouts)} results come from {len(setups)} different setups (cores, CPU, Python, "
                "numpy): compare ratios within a result, not across setups. The load is the 1-minute load "
                "average when the benchmark started.", ""]
    head = ["Result", "Date", "Load", "mskernel commit", "Arguments"]
    head += ["Cores", "CPU", "Python", "numpy"] if len(setups) > 1 else []
    rows = []
    for name, h in ((n, p.header) for n, p in printouts.items()):
        rows.append([f"[`{name}`](#{name})", h.date, md(_load(h)), md(h.commit), _args(h, name)]
                    + ([str(h.cores), md(h.cpu), h.python, h.numpy] if len(setups) > 1 else []))
    forced = [n for n, p in printouts.items() if p.header.forced]
    out += _table(head, rows, [False, False, True, False, False] + [False] * (len(head) - 5))
    out += ["", f"Recorded with `--force` (above the load limit): {', '.join(forced)}." if forced else
            "None was recorded with `--force`.", ""]
    return out


def _section(name: str, script: Path, printout: Optional[Printout], goal_rows: Sequence[Sequence[str]],
            img_dir: Path) -> List[str]:
    """One benchmark's section: summary, ratio tables (or absolute ones, with the reason), absolute values,
    goals, plot, and the raw printout in a collapsed block."""
    first, para = _summary(script)
    out = [f"## `{name}`", "", first, ""]
    if para:
        out += [para, ""]
    if printout is None:
        return out + [f"No stored result yet: `python benchmarks/record.py {name}` makes one.", ""]
    if name in ABSOLUTE:
        out += [ABSOLUTE[name], ""]
        for t in printout.tables:
            out += ([f"*{md(t.title)}*", ""] if t.title else []) + _plain_table(t) + [""]
    for t in printout.ratios:
        out += ([f"*{md(t.title)}*", ""] if t.title else []) + _ratio_table(t) + [""]
    absolutes = [a for a in printout.absolutes if name not in ABSOLUTE]
    if absolutes:
        out += ["Absolute values, where a ratio does not apply (a one-time cost is paid once per machine or "
                "cache, not per build or call):", ""] + [_absolute(a) for a in absolutes] + [""]
    if goal_rows:
        out += _goals(goal_rows) + [""]
    if printout.notes:
        out += ["The printout's own goal and note lines:", ""] + [f"- {_code(t)}" for _, t in printout.notes] + [""]
    if plot(printout.ratios, name, img_dir / f"{name}.svg"):
        out += [f"![the ratios of {name} as bars](_perf/{name}.svg)", ""]
    h = printout.header
    fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", printout.body)), default=0))
    out += ["<details>",
            f"<summary>Raw printout of <code>{html.escape(h.command)}</code> ({html.escape(h.date)}, load "
            f"{html.escape(_load(h))}, mskernel {html.escape(h.commit)})</summary>", "",
            f"{fence}text", printout.body, fence, "", "</details>", ""]
    return out


def markdown(root: Path, img_dir: Path) -> str:
    """The performance page (MyST markdown); plots are written into ``img_dir`` (next to the page).

    Example:
        >>> import tempfile
        >>> page = markdown(Path(__file__).resolve().parents[3], Path(tempfile.mkdtemp()))
        >>> page.startswith("# Performance") and "## Machine" in page and "<details>" in page
        True
    """
    bench = root / "benchmarks"
    readme_table = load_tool(root, "readme_table")
    scripts = [s for s in sorted(bench.glob("*.py")) if s.name not in TOOLS]
    results = {s.stem: bench / "results" / f"{s.stem}.txt" for s in scripts}
    printouts = {name: read(path, RELATIVE_TO.get(name, {})) for name, path in results.items() if path.exists()}
    for name, p in printouts.items():
        if not p.ratios and name not in ABSOLUTE:
            raise ValueError(f"benchmarks/results/{name}.txt: no ratio found; make the printout hold one, or say "
                             f"in performance.ABSOLUTE why it reports absolute values")
    out = ["# Performance", "",
           "How fast mskernel is, as **ratios** to numpy, a bare `g++`, torch, numba and Cython, measured by the "
           "scripts in `benchmarks/`: a section each below, with a table of its ratios, a plot, its goals, and "
           "what it printed.", ""]
    out += _method(printouts, load_tool(root, "record").MAX_LOAD_PER_CORE)
    out += _all_goals(readme_table, bench / "results")
    img_dir.mkdir(parents=True, exist_ok=True)
    for script in scripts:
        name = script.stem
        goals = [g for g in readme_table.GOALS if g.file == name]
        goal_rows = readme_table.rows(bench / "results", goals) if goals and name in printouts else []
        out += _section(name, script, printouts.get(name), goal_rows, img_dir)
    return "\n".join(out) + "\n"
