"""The performance page: every benchmark script, its stored result and a plot of its ratios.

A benchmark's result is the text it printed, kept in ``benchmarks/results/NAME.txt`` by
``python benchmarks/record.py NAME`` (with the command, date and machine in a header). The page is
generated from those files when the site is built; the benchmarks themselves never run during a build.
The ratio columns of each table (values such as ``0.85x``) are drawn as bars.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import List, Tuple

RATIO = re.compile(r"^(\d+(?:\.\d+)?)x$")
#: the scripts of benchmarks/ that are tools, not benchmarks (the recorder; the README table's generator)
TOOLS = ("record.py", "readme_table.py")


def _summary(script: Path) -> Tuple[str, str]:
    """The first line and the rest of the first paragraph of a script's docstring."""
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    first, _, rest = doc.partition("\n")
    para = rest.strip().split("\n\n")[0] if rest.strip() else ""
    return first.strip(), para


VALUE = re.compile(r"^(?:[-+]?\d[\d.,]*(?:e[-+]?\d+)?\s*(?:[munµ]?s|x|%|[KMG]i?B)?|-)$")
FIELD = re.compile(r"\S+(?: \S+)*")


def _fields(line: str) -> List[Tuple[int, int, str]]:
    """``(start, end, text)`` of a table line's fields: runs of text separated by two or more spaces."""
    return [(m.start(), m.end(), m.group()) for m in FIELD.finditer(line.replace(" | ", "  |  "))
            if m.group() != "|"] if "  " in line else [(0, len(line), line.strip())]


def ratio_rows(text: str) -> List[Tuple[str, List[Tuple[str, float]]]]:
    """``[(row label, [(column name, ratio), ...]), ...]`` for every table line holding ratios such as
    ``0.85x`` in columns of their own. Fields are separated by two or more spaces; the label is the
    leading fields that are not values. A ratio's column is named after the ``|``-separated group of the
    header line above it (when header and row have the same groups), else after the header field(s) that
    end where it ends; ``ratio N`` when there is no header.

    Example:
        >>> ratio_rows("op   | fwd    ratio | bwd    ratio\\nexp  | 1us    0.83x | 2us    1.24x\\n")
        [('exp', [('fwd', 0.83), ('bwd', 1.24)])]
    """
    rows: List[Tuple[str, List[Tuple[str, float]]]] = []
    headers: List[str] = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            headers = []
            continue
        fields = _fields(line)
        ratios = [(s, e, t) for s, e, t in fields if RATIO.match(t)]
        if not ratios or len(fields) < 2 or re.match(r"\s*(goals?|ratio|note)\b", line, re.I):
            if any(c.isalpha() for c in line) and not ratios:
                headers = (headers + [line])[-2:]
            continue
        label_fields = []
        for _, _, t in fields:
            if VALUE.match(t):
                break
            label_fields.append(t)
        label = " ".join(label_fields)
        if not label:  # the row is named by a value (a size): say which
            head = [f for f in _fields(headers[-1])] if headers else []
            label = f"{head[0][2]} {fields[0][2]}" if len(head) > 1 else fields[0][2]
        values = []
        for s, e, t in ratios:
            values.append((_column(line, headers, s, e) or f"ratio {len(values) + 1}", float(RATIO.match(t).group(1))))
        rows.append((label, values))
    return rows


def _column(line: str, headers: List[str], start: int, end: int) -> str:
    if not headers:
        return ""
    head = headers[-1]
    if "|" in line and head.count("|") == line.count("|"):
        group = line[:start].count("|")
        words = head.split("|")[group].split()
        return words[0] if words else ""
    names = []
    for i, h in enumerate(headers):
        fields = _fields(h)
        if len(fields) < 2:  # a table's title line, not its header
            continue
        near = [t for s, e, t in fields if abs(e - end) <= 3 or (s <= start and e >= end)]
        if near:
            words = near[0].split()
            names.append(" ".join(words[-3:]) if i == len(headers) - 1 and names else near[0])
    return f"{names[0]} ({' '.join(names[1:])})" if len(names) > 1 else "".join(names)


def plot(rows: List[Tuple[str, List[Tuple[str, float]]]], title: str, out: Path) -> bool:
    """Draw the ratios as grouped horizontal bars into ``out`` (SVG); False when there is nothing to draw."""
    if not rows:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns: List[str] = []
    for _, vals in rows:
        for name, _ in vals:
            if name not in columns:
                columns.append(name)
    height = 0.8 / max(len(columns), 1)
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.32 * len(rows) * max(1, len(columns) * 0.6)))
    for ci, col in enumerate(columns):
        ys, xs = [], []
        for ri, (_, vals) in enumerate(rows):
            for name, v in vals:
                if name == col:
                    ys.append(ri + ci * height)
                    xs.append(v)
        ax.barh(ys, xs, height=height, label=col)
    ax.set_yticks([i + height * (len(columns) - 1) / 2 for i in range(len(rows))])
    ax.set_yticklabels([label for label, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("ratio (as printed by the benchmark; 1.0 = parity)")
    ax.set_title(title, fontsize=10)
    if len(columns) > 1:
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return True


def markdown(root: Path, img_dir: Path) -> str:
    """The performance page (MyST markdown); plots are written into ``img_dir`` (next to the page)."""
    bench = root / "benchmarks"
    out = ["# Performance", "",
           "The scripts in `benchmarks/` time mskernel against a floor (numpy, bare `g++`) and its peers (torch, "
           "numba, Cython, where installed) in one process and print side-by-side tables. Quote the **ratios**: the "
           "machines are shared and noisy, and absolute times do not compare across runs.", "",
           "Each result below is the text a script printed in one run, stored in `benchmarks/results/` with the "
           "command, date and machine it ran on; the bars draw its ratio columns. A run on a busy machine (the "
           "header gives the load where it was recorded) shows it: the README quotes the ratios measured on quiet "
           "machines over several runs. The site never runs a benchmark: to refresh a result, run", "",
           "```bash", "python benchmarks/record.py NAME      # e.g. op_table; no NAME: all of them (long)", "```",
           "", "and rebuild the site (`python -m mskernel docs`). Every script also runs on its own: "
           "`python benchmarks/NAME.py --help`. The README's performance table, one row per goal, is generated "
           "from these files by `python benchmarks/readme_table.py`. Torch columns need "
           "`pip install torch==2.13.0` (never a dependency).", ""]
    img_dir.mkdir(parents=True, exist_ok=True)
    for script in sorted(bench.glob("*.py")):
        if script.name in TOOLS:
            continue
        name = script.stem
        first, para = _summary(script)
        out += [f"## `{name}`", "", first, ""]
        if para:
            out += [para, ""]
        result = bench / "results" / f"{name}.txt"
        if not result.exists():
            out += [f"No stored result yet: `python benchmarks/record.py {name}` makes one.", ""]
            continue
        text = result.read_text()
        head = [ln[2:] for ln in text.splitlines() if ln.startswith("# ")]
        body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("# "))
        if head:
            out += ["Recorded: " + "; ".join(head) + ".", ""]
        out += ["```text", body.strip("\n"), "```", ""]
        if plot(ratio_rows(text), name, img_dir / f"{name}.svg"):
            out += [f"![ratios of {name}](_perf/{name}.svg)", ""]
    return "\n".join(out) + "\n"
