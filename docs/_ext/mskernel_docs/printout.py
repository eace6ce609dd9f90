"""Reading a stored benchmark result (``benchmarks/results/NAME.txt``): its header and the ratios it prints.

A result is what a script printed, behind ``#`` header lines written by ``benchmarks/record.py``
(``# command:``, ``# date:``, ``# machine:``, and ``# recorded with --force:`` when the load guard was
overridden). The scripts print tables whose fields are separated by two or more spaces. :func:`parse`
finds in them:

* **column ratios**: fields such as ``0.85x`` under a header field (or a bare number under a header named
  ``ratio``). Each column is named after its header, and says what it is relative to: a header such as
  ``hybrid/numpy`` or ``vs bare`` says it itself; a header ``ratio`` is explained by a ``ratio = A / B`` line
  of the printout or by a row at ``1.00x`` (the reference); a column at ``1.00x`` on every row is the
  reference of the others (``hybrid`` becomes ``hybrid / built-in``); otherwise the caller's ``relative_to``
  must name it, or parsing fails (a page of ratios nobody can read is worse than no page);
* **inline ratios**: ``1.35x np.multiply`` or ``153% of x.copy() bandwidth`` in a row's trailing note, kept
  with the note's words as printed (what they are relative to);
* **absolute values** a ratio does not apply to: rows without a ratio whose text says ``one-time``,
  ``once per`` or ``goal``;
* **notes**: lines of prose that hold a ratio or a goal (the script's own verdicts), as printed.

Malformed input (a header line that is not ``# key: value``, a missing ``command``/``date``/``machine``,
a machine line of another shape, a ratio no header names) raises :class:`PrintoutError` naming the file and
the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

UNIT = r"(?:[munµ]?s|x|%|[KMG]i?B)"
VALUE = re.compile(rf"^(?:[-+]?\d[\d.,]*(?:e[-+]?\d+)?\s*{UNIT}?(?:\s*\[\s*[\d.]+\s*\])?|-)$")
RATIO = re.compile(r"^(\d+(?:\.\d+)?)x$")
BARE = re.compile(r"^\d+(?:\.\d+)?$")
#: a ratio inside a note: ``1.35x``, or a percentage of something (``153% of x.copy() bandwidth``); not a
#: goal's threshold (``<= 2x``)
INLINE = re.compile(r"(?<!<= )(?<!>= )(?<!< )(?<!> )(?<![<>=\w.])(\d+(?:\.\d+)?)(x(?!\w)|%(?= of\b))")
FIELD = re.compile(r"[^\s|]+(?: [^\s|]+)*")
NUMBERED = re.compile(r"^\s*\d+\.\s+\S")
PROSE_START = re.compile(r"^\s*(goals?|ratio|note)\b", re.I)
DEFINITION = re.compile(r"\bratio = ([^;()\n]+?)\s*(?:[;(]|$)")
ABSOLUTE_HINT = re.compile(r"\bone-time\b|\bonce per\b|\bgoal\b", re.I)
MACHINE = re.compile(r"^(\d+) cores \((.*?)\)(?:, load average ([\d.]+) when it started)?, Python (\S+), "
                     r"numpy (\S+), mskernel (.+)$")
REQUIRED = ("command", "date", "machine")
#: how the heading of a reference column ends (a column at 1.00x on every row)
REFERENCE = " (the reference: 1.00x)"


class PrintoutError(ValueError):
    """A stored result that cannot be read as a benchmark printout; the message names the file and line.

    Example:
        >>> parse("# command\\n", "x.txt")
        Traceback (most recent call last):
        ...
        mskernel_docs.printout.PrintoutError: x.txt, line 1: a header line is '# key: value', not '# command'
    """


@dataclass(frozen=True)
class Header:
    """The ``#`` lines of a result: the command, the date, the machine (as recorded, and read into its
    parts), and why the load guard would have refused when it was recorded with ``--force``."""

    command: str
    date: str
    machine: str
    cores: int
    cpu: str
    load: Optional[float]
    python: str
    numpy: str
    commit: str
    forced: Optional[str] = None

    @property
    def setup(self) -> Tuple[int, str, str, str]:
        """What makes two results comparable: cores, CPU, Python and numpy.

        Example:
            >>> Header("python benchmarks/k.py", "2026-01-02", "...", 2, "AMD EPYC", 0.4, "3.11.7", "2.4.6",
            ...        "abc1234").setup
            (2, 'AMD EPYC', '3.11.7', '2.4.6')
        """
        return self.cores, self.cpu, self.python, self.numpy


@dataclass(frozen=True)
class Row:
    """A measured thing: its label, the 1-based line it is printed on, and one printed ratio per column of
    its table (None where the row has none; several joined by `` / `` for an inline ``0.61x / 0.61x``)."""

    label: str
    line: int
    cells: Tuple[Optional[str], ...]


@dataclass(frozen=True)
class Table:
    """Ratios as a table: ``columns`` are what each is relative to (``hybrid / numpy``); ``label`` names
    the rows' column. An inline table has two columns, the ratio and what it is relative to, as printed.

    Example:
        >>> t = Table("", "op", ("hybrid / numpy",), (Row("exp", 5, ("0.83x",)),))
        >>> [(r.label, dict(zip(t.columns, r.cells))) for r in t.rows]
        [('exp', {'hybrid / numpy': '0.83x'})]
    """

    title: str
    label: str
    columns: Tuple[str, ...]
    rows: Tuple[Row, ...]
    inline: bool = False


@dataclass(frozen=True)
class Absolute:
    """A value a ratio does not apply to (a one-time cost, a time with an absolute goal): ``value`` as
    printed, its ``unit`` where the value has none (from its column's header), and the rest of the line."""

    label: str
    line: int
    value: str
    unit: str
    note: str


@dataclass(frozen=True)
class Printout:
    """A stored result read: its header, the printout (``body``, without the header) and what it holds."""

    header: Header
    body: str
    ratios: Tuple[Table, ...]
    tables: Tuple[Table, ...]
    absolutes: Tuple[Absolute, ...]
    notes: Tuple[Tuple[int, str], ...]


Field = Tuple[int, int, str]


def fields(line: str) -> List[Field]:
    """``(start, end, text)`` of a line's fields: runs of text separated by two or more spaces (a ``|``
    separates fields too).

    Example:
        >>> [t for _, _, t in fields("x*x 256 KB     65536    72.1 | 1.30x")]
        ['x*x 256 KB', '65536', '72.1', '1.30x']
    """
    return [(m.start(), m.end(), m.group()) for m in FIELD.finditer(line)]


def _is_value(text: str) -> bool:
    return bool(VALUE.match(text)) or bool(RATIO.match(text))


def _kind(line: str) -> str:
    """``blank``, ``rule`` (dashes), ``title`` (``1. ...``), ``header``, ``row`` or ``prose``."""
    if not line.strip():
        return "blank"
    if set(line.strip()) <= set("-=") and len(line.strip()) > 3:
        return "rule"
    if NUMBERED.match(line):
        return "title"
    fs = fields(line)
    if len(fs) < 2 or PROSE_START.match(line):
        return "prose"
    if any(_is_value(t) for _, _, t in fs):
        return "row"
    if any(re.fullmatch(r"[\d.\s]+", t) for _, _, t in fs):
        return "prose"  # numbers without units, not in a table ("load average after:  0.97 1.35 2.38")
    return "header"


def _noted(line: str) -> bool:
    """Whether a line of prose is kept as a note: it holds a ratio or speaks of a goal."""
    return bool(re.search(r"\bgoals?\b", line, re.I) or INLINE.search(line))


@dataclass
class _Grid:
    """A printed table before it is read: its title, header lines and row lines (1-based numbers)."""

    title: str
    headers: List[Tuple[int, str]]
    rows: List[Tuple[int, str]]


def _grids(lines: Sequence[Tuple[int, str]]) -> Tuple[List[_Grid], List[Tuple[int, str]]]:
    """Split the printout into tables, and the prose lines."""
    grids: List[_Grid] = []
    prose: List[Tuple[int, str]] = []
    current: Optional[_Grid] = None
    title, above = "", []  # a numbered section's title; prose lines right above a header
    previous = "blank"
    for n, line in lines:
        kind = _kind(line)
        if kind == "blank":
            current, above = None, []
        elif kind == "title":
            title, current, above = line.strip(), None, []
            prose.append((n, line))
        elif kind == "header":
            if current is not None and previous == "header":
                current.headers.append((n, line))
            else:
                current = _Grid(title or " ".join(above), [(n, line)], [])
                grids.append(current)
                title, above = "", []
        elif kind == "row":
            if current is None:
                current = _Grid(title or " ".join(above), [], [])
                grids.append(current)
                title, above = "", []
            current.rows.append((n, line))
        elif kind == "prose":
            prose.append((n, line))
            if _noted(line):  # a goal or a verdict, not the title of what follows
                above = []
            else:
                above = above + [line.strip()] if previous in ("prose", "title", "blank") else [line.strip()]
            if current is not None and current.rows:
                current = None
        if kind != "rule":
            previous = kind
    return [g for g in grids if g.rows], prose


def _label(fs: Sequence[Field]) -> Tuple[str, int]:
    """A row's label (its leading fields that are not values) and how many fields it takes."""
    k = 0
    while k < len(fs) and not _is_value(fs[k][2]):
        k += 1
    return " ".join(t for _, _, t in fs[:k]), k


def _header_part(head: str, start: int, end: int, ends: Sequence[int]) -> str:
    """The text of one header line above the row field at ``start:end``: the header field ending within 3
    characters of ``end``, or spanning the field. A header field over several columns of the row (a word of it
    ends within a character of where another of the row's fields ends: ``C++ full -O2 split/full`` above
    ``0.7 us  1.03x``) is cut there, to the words above this field."""
    for s, e, t in fields(head):
        if abs(e - end) <= 3 or (s <= start and e >= end):
            words = [(m.start() + s, m.end() + s, m.group()) for m in re.finditer(r"\S+", t)]
            cuts = [we for _, we, _ in words[:-1] if any(abs(we - r) <= 1 for r in ends if r != end)]
            after = max([c for c in cuts if c < end - 1], default=-1)
            return " ".join(w for ws, we, w in words if ws > after and we <= end + 3)
    return ""


def _group(line: str, pos: int) -> int:
    return line[:pos].count("|")


def _slash(text: str) -> str:
    """``hybrid/numpy`` -> ``hybrid / numpy``."""
    return re.sub(r"\s*/\s*", " / ", text)


def _says_relative(name: str) -> bool:
    return "/" in name or name.lower().startswith("vs ")


def _generic(name: str) -> bool:
    return name.lower().split()[-1:] == ["ratio"] if name else True


def _column_ratios(grid: _Grid, where: str, definition: Optional[str], relative_to: Mapping[str, str]
                   ) -> Optional[Table]:
    """The ratio columns of a printed table, or None if it has none."""
    found: Dict[str, Dict[int, str]] = {}  # column name -> {row index: printed ratio}
    order: List[str] = []
    first_line: Dict[str, int] = {}
    rows: List[Tuple[int, str]] = []
    last = grid.headers[-1][1] if grid.headers else ""
    for n, line in grid.rows:
        fs = fields(line)
        label, k = _label(fs)
        if not label and grid.headers:  # a row named by a value (a size): say which
            head = fields(last)
            label = f"{head[0][2]} {fs[0][2]}" if len(head) > 1 else fs[0][2]
        ratio_fields = []
        for i, (s, e, t) in enumerate(fs[k:], start=k):
            name = ", ".join(p for p in (_header_part(h, s, e, [f[1] for f in fs]) for _, h in grid.headers) if p)
            if RATIO.match(t) or (BARE.match(t) and name and _generic(name)):
                ratio_fields.append((s, e, t, name))
        if not ratio_fields:
            continue
        if not grid.headers:  # "what it is: hybrid/copy  1.25x"
            if len(ratio_fields) != 1 or ": " not in label:
                raise PrintoutError(f"{where}, line {n}: ratio {ratio_fields[0][2]} has no column header above it "
                                    f"(and the row is not 'what: column  value')")
            label, column = label.rsplit(": ", 1)
            ratio_fields = [ratio_fields[0][:3] + (column,)]
        row_index = len(rows)
        rows.append((n, label))
        for s, e, t, name in ratio_fields:
            if not name:
                raise PrintoutError(f"{where}, line {n}: ratio {t} at column {s + 1} has no header field above it")
            if _generic(name) and grid.headers:
                name = f"{_qualifier(last, s, e, name)} {name}".strip()
            if row_index in found.get(name, {}):
                raise PrintoutError(f"{where}, line {n}: two ratio columns are called {name!r}")
            if name not in found:
                found[name], first_line[name] = {}, n
                order.append(name)
            found[name][row_index] = t if t.endswith("x") else f"{t}x"
    if not order:
        return None
    headings = [_heading(c, found, rows, definition, relative_to) for c in order]
    for column, heading in zip(order, headings):
        if heading is None:
            raise PrintoutError(f"{where}, line {first_line[column]}: the ratio column {column!r} does not say what "
                                f"it is relative to (a header 'a/b' or 'vs X', a 'ratio = A / B' line, or a row at "
                                f"1.00x): name it in performance.RELATIVE_TO")
    table_rows = tuple(Row(label, n, tuple(found[c].get(i) for c in order)) for i, (n, label) in enumerate(rows))
    return Table(grid.title, _label_heading(grid), tuple(headings), table_rows)


def _qualifier(head: str, start: int, end: int, name: str) -> str:
    """What tells a ``ratio`` column from others: its ``|`` group's first word (``forward``), or the header
    field left of it when several header fields are called ``ratio`` (``cold   ratio   cached   ratio``)."""
    if "|" in head:
        groups = [g.split() for g in head.split("|")]
        group = groups[min(_group(head, end), len(groups) - 1)]
        return group[0] if group else ""
    head_fields = fields(head)
    if sum(t == name for _, _, t in head_fields) < 2:
        return ""
    for i, (s, e, t) in enumerate(head_fields):
        if t == name and (abs(e - end) <= 3 or (s <= start and e >= end)):
            return head_fields[i - 1][2] if i else ""
    return ""


def _label_heading(grid: _Grid) -> str:
    """What the rows' column is called: the header fields left of the first value column, else
    ``measured``."""
    if not grid.headers:
        return "measured"
    n, line = grid.rows[0]
    fs = fields(line)
    _, k = _label(fs)
    limit = fs[k][0] if k < len(fs) else len(line)
    names = [t for _, head in grid.headers for s, e, t in fields(head) if e <= limit]
    return ", ".join(names) if names else "measured"


def _heading(column: str, found: Dict[str, Dict[int, str]], rows: Sequence[Tuple[int, str]],
             definition: Optional[str], relative_to: Mapping[str, str]) -> Optional[str]:
    """What a ratio column is relative to, as its heading (see the module's docstring); None if nothing
    says."""
    if column in relative_to:
        return relative_to[column]
    if _says_relative(column):
        return _slash(column)
    cells = found[column]
    if len(found) > 1 and len(cells) == len(rows) and all(float(v[:-1]) == 1.0 for v in cells.values()):
        return column + REFERENCE
    if _generic(column):
        qualifier = " ".join(column.split()[:-1])
        if definition:
            return f"{qualifier}: {_slash(definition)}" if qualifier else _slash(definition)
        ones = [i for i, v in cells.items() if float(v[:-1]) == 1.0]
        if len(ones) == 1 and len(cells) > 1:
            return f"vs {rows[ones[0]][1]}"
    refs = [c for c in found if c != column and len(found[c]) == len(rows)
            and all(float(v[:-1]) == 1.0 for v in found[c].values())]
    return f"{column} / {refs[0]}" if len(refs) == 1 else None


def _clauses(note: str) -> List[str]:
    """A note split at ``;`` and ``,`` outside parentheses."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(note):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and c in ";," and (c == ";" or note[i + 1:i + 2] == " "):
            out.append(note[start:i].strip())
            start = i + 1
    out.append(note[start:].strip())
    return [c for c in out if c]


def _note(line: str, fs: Sequence[Field], k: int) -> str:
    """A row's trailing text: from its first text field after its last leading value, whitespace-normalized."""
    i = k
    while i < len(fs) and _is_value(fs[i][2]):
        i += 1
    return " ".join(line[fs[i][0]:].split()) if i < len(fs) and i > k else ""


def _inline_ratios(grid: _Grid) -> Optional[Table]:
    """Ratios inside rows' notes (``1.35x np.multiply``), one table row per clause that holds them."""
    rows = []
    for n, line in grid.rows:
        fs = fields(line)
        label, k = _label(fs)
        clauses = _clauses(_note(line, fs, k))
        goals = [c for c in clauses if c.lower().startswith("goal")]
        for clause in clauses:
            tokens = list(INLINE.finditer(clause))
            if not tokens or clause.lower().startswith("goal"):
                continue
            cell = " / ".join(m.group() for m in tokens)
            lead = re.match(rf"^{re.escape(tokens[0].group())}(?:\s*/\s*{INLINE.pattern})*\s*", clause)
            rest = clause[lead.end():] if lead else INLINE.sub("…", clause)
            rows.append(Row(label, n, (cell, "; ".join([rest.strip()] + goals))))
    if not rows:
        return None
    return Table(grid.title, _label_heading(grid), ("ratio", "relative to (as printed)"), tuple(rows), inline=True)


def _unit(grid: _Grid, end: int) -> str:
    """The unit the header gives the values under a field ending at ``end``: ``wall s`` -> ``s``."""
    head = fields(grid.headers[-1][1])[1:] if grid.headers else []
    if not head:
        return ""
    last = min(head, key=lambda f: abs(f[1] - end))[2].split()[-1]
    return last if re.fullmatch(UNIT, last) else ""


def _absolutes(grid: _Grid) -> List[Absolute]:
    out = []
    for n, line in grid.rows:
        fs = fields(line)
        label, k = _label(fs)
        has_ratio = any(RATIO.match(t) for _, _, t in fs) or INLINE.search(_note(line, fs, k))
        if has_ratio or k >= len(fs) or not ABSOLUTE_HINT.search(line):
            continue
        s, e, value = fs[k]
        unit = "" if re.search(rf"\d\s*{UNIT}$", value) else _unit(grid, e)
        out.append(Absolute(label, n, value, unit, _note(line, fs, k)))
    return out


def _plain(grid: _Grid) -> Table:
    """A printed table as it is, its values under their header fields (for results that are absolute)."""
    head = fields(grid.headers[-1][1]) if grid.headers else []
    names = [t for _, _, t in head]
    rows = []
    for n, line in grid.rows:
        fs = fields(line)
        label, k = _label(fs)
        values = fs[k:]
        if len(fs) == len(head):
            cells = [t for _, _, t in values]
        else:  # under the header field whose end is nearest
            cells = [""] * (len(head) - 1)
            for s, e, t in values:
                j = min(range(1, len(head)), key=lambda i: abs(head[i][1] - e)) if len(head) > 1 else 1
                cells[j - 1] = t
        rows.append(Row(label, n, tuple(cells)))
    return Table(grid.title, names[0] if names else "measured", tuple(names[1:]), tuple(rows))


def _parse_header(lines: Sequence[str], where: str) -> Tuple[Header, int]:
    """The header of a result and the index of its first printout line."""
    keys: Dict[str, Tuple[int, str]] = {}
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        m = re.match(r"^# ([^:]+): (.*)$", lines[i])
        if not m:
            raise PrintoutError(f"{where}, line {i + 1}: a header line is '# key: value', not {lines[i]!r}")
        keys[m.group(1).strip()] = (i + 1, m.group(2).strip())
        i += 1
    for key in REQUIRED:
        if key not in keys:
            raise PrintoutError(f"{where}, line {i + 1 if not keys else 1}: no '# {key}:' line in the header "
                                f"(python benchmarks/record.py NAME writes it)")
    n, machine = keys["machine"]
    m = MACHINE.match(machine)
    if not m:
        raise PrintoutError(f"{where}, line {n}: the machine line is not 'N cores (CPU), load average L when it "
                            f"started, Python V, numpy V, mskernel COMMIT': {machine!r}")
    forced = keys.get("recorded with --force", (0, None))[1]
    header = Header(keys["command"][1], keys["date"][1], machine, int(m.group(1)), m.group(2),
                    float(m.group(3)) if m.group(3) else None, m.group(4), m.group(5), m.group(6), forced)
    return header, i


def parse(text: str, where: str, relative_to: Mapping[str, str] = {}) -> Printout:
    """Read a stored result; ``where`` names it in errors, ``relative_to`` names what ratio columns whose
    printout does not say are relative to (column name -> heading).

    Example:
        >>> text = ("# command: python benchmarks/k.py\\n# date: 2026-01-02\\n"
        ...         "# machine: 2 cores (EPYC), load average 0.4 when it started, Python 3.11.7, numpy 2.4.6, "
        ...         "mskernel abc1234\\n"
        ...         "kernel      numpy    hybrid   hybrid/numpy\\n"
        ...         "x*x 1 MB   1.0 ms    0.5 ms          2.00x\\n"
        ...         "goal: hybrid/numpy >= 1.00x: met\\n")
        >>> p = parse(text, "k.txt")
        >>> p.header.load, p.ratios[0].columns, p.ratios[0].rows[0].cells, p.notes
        (0.4, ('hybrid / numpy',), ('2.00x',), ((6, 'goal: hybrid/numpy >= 1.00x: met'),))
    """
    lines = text.splitlines()
    header, start = _parse_header(lines, where)
    body = [(i + 1, ln) for i, ln in enumerate(lines) if i >= start]
    stray = [n for n, ln in body if ln.startswith("#")]
    if stray:
        raise PrintoutError(f"{where}, line {stray[0]}: a '#' header line after the printout started")
    if not any(ln.strip() for _, ln in body):
        raise PrintoutError(f"{where}, line {start + 1}: the header is followed by no printout")
    definitions = [m.group(1) for _, ln in body for m in [DEFINITION.search(ln)] if m]
    definition = definitions[0] if len(set(definitions)) == 1 else None
    grids, prose = _grids(body)
    ratios: List[Table] = []
    for grid in grids:
        for table in (_column_ratios(grid, where, definition, relative_to), _inline_ratios(grid)):
            if table is not None:
                ratios.append(table)
    absolutes = [a for g in grids for a in _absolutes(g)]
    notes = tuple((n, ln.strip()) for n, ln in prose if _noted(ln))
    return Printout(header, "\n".join(ln for _, ln in body).strip("\n"), tuple(ratios),
                    tuple(_plain(g) for g in grids if g.headers), tuple(absolutes), notes)


def read(path: Path, relative_to: Mapping[str, str] = {}) -> Printout:
    """:func:`parse` a result file, named in errors by its path from the checkout's root.

    Example:
        >>> root = Path(__file__).resolve().parents[3]
        >>> read(root / "benchmarks" / "results" / "engine_overhead.txt").ratios[0].columns
        ('ms / numpy', 'torch / ms')
    """
    parts = path.resolve().parts
    where = "/".join(parts[parts.index("benchmarks"):]) if "benchmarks" in parts else str(path)
    return parse(path.read_text(), where, relative_to)
