"""What a tutorial's widget view says, checked against the text its cell stored with it.

A gradient-check view and a graph view store, beside the widget, their text/plain fallback: the report
(``gradcheck FAILED (full mode, float64: eps 1e-06 ...)`` with a line per input) or the graph's summary
(``GraphView: 5 nodes, 4 edges, 5 boxes; outputs: n4`` with its flagged nodes), written when the cell
displayed the view. What the view draws comes from the saved widget state instead. :func:`mismatches`
compares the two: the verdict, the tolerance band (eps, atol, rtol), the shown input's shape and elements
over tolerance and the worst element; the graph's node, edge and box counts, its outputs and flagged nodes.

The drawn side is a :class:`Shown`, read either from a page in a browser (tests/docs/test_docs_browser.py)
or from the widget state stored in the notebook (:func:`shown_in_state`, for tests without a browser).
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
REF = "IPY_MODEL_"

# the texts the views write (mskernel/widgets/gradcheck_view.py, graph_view.py) and the report's (gradcheck/report.py)
_REPORT_HEAD = re.compile(r"^(?:grad)?gradcheck (passed|FAILED) \((\w+) mode, (.*)\)$")
_REPORT_INPUT = re.compile(r"^  \[(ok  |FAIL)\] input (\d+) shape \[([\d, ]*)\]")
_REPORT_WORST = re.compile(r"worst: .*?: analytic (\S+), numerical (\S+?)(?: \(|$)")
_BADGE = re.compile(r"^(PASSED|FAILED)\s+gradcheck, (.*) \((steps eps/4 to 4 eps tried|at this eps only)\)$")
_STATUS = re.compile(r"^input (\d+)(?: \(.*?\))? \[([\d, ]*)\]: .*?, (\d+) elements? over tolerance")
_SUMMARY = re.compile(r"^GraphView: (\d+) nodes, (\d+) edges, (\d+) boxes; outputs: (.*)$")
_FLAGGED = re.compile(r"^  (NaN/Inf gradient|zero gradient): (\S+) ")
_HEADER = re.compile(r"^autograd graph: (\d+) nodes, (\d+) edges(?:, collapsed to \d+ boxes .*)?; outputs (.*)$")
_FLAG_NAMES = {"NaN/Inf gradient": "nonfinite", "zero gradient": "zero"}


@dataclass
class Stored:
    """One widget view output of a stored notebook: where it is, its model id and its text/plain."""
    notebook: str
    cell: str
    model_id: str
    text: str


@dataclass
class Shown:
    """What a drawn view says. A gradient-check view: its badge's and status line's text and the cells of its
    worst-elements table (heading left out); a graph view: its header's text (its first child) and each drawn
    box's flag."""
    kind: str  # "gradcheck" or "graph"
    badge: str = ""
    status: str = ""
    rows: List[List[str]] = field(default_factory=list)
    header: str = ""
    boxes: Dict[str, str] = field(default_factory=dict)  # box id -> data-flag


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def stored_views(notebook: Path) -> List[Stored]:
    """The widget view outputs of ``notebook`` that a gradient-check or graph view wrote (its text/plain says
    so), in order."""
    nb = json.loads(notebook.read_text())
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            text = _text(data.get("text/plain", ""))
            first = text.splitlines()[0] if text else ""
            if VIEW in data and (_REPORT_HEAD.match(first) or _SUMMARY.match(first)):
                out.append(Stored(notebook.stem, cell.get("id", ""), data[VIEW]["model_id"], text))
    return out


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _floats_equal(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return x == y or abs(x - y) <= 1e-6 * max(abs(x), abs(y))


def _gradcheck(text: str, shown: Shown) -> List[str]:
    lines = text.splitlines()
    head = _REPORT_HEAD.match(lines[0])
    badge = _BADGE.match(_squash(shown.badge))
    if not head or not badge:
        return [f"unreadable: text {lines[0]!r}, badge {shown.badge!r}"]
    out = []
    verdict = "PASSED" if head.group(1) == "passed" else "FAILED"
    if badge.group(1) != verdict:
        out.append(f"the badge says {badge.group(1)}, the cell's text {verdict}")
    if not head.group(3).startswith(badge.group(2)):
        out.append(f"the badge's tolerances are {badge.group(2)!r}, the cell's text's {head.group(3)!r}")
    inputs: Dict[int, Tuple[bool, str, Optional[Tuple[str, str]]]] = {}  # index -> (ok, shape, worst)
    for k, line in enumerate(lines):
        m = _REPORT_INPUT.match(line)
        if m:
            worst = _REPORT_WORST.search(lines[k + 1]) if k + 1 < len(lines) else None
            inputs[int(m.group(2))] = (m.group(1) == "ok  ", m.group(3),
                                       (worst.group(1), worst.group(2)) if worst else None)
    status = _STATUS.match(_squash(shown.status))
    if not status:
        return out + [f"unreadable status line {shown.status!r}"]
    index, shape, over = int(status.group(1)), status.group(2), int(status.group(3))
    if index not in inputs:
        return out + [f"the view shows input {index}, the cell's text has inputs {sorted(inputs)}"]
    ok, text_shape, worst = inputs[index]
    if shape != text_shape:
        out.append(f"input {index}: the view's shape [{shape}], the cell's text's [{text_shape}]")
    if not ok and over == 0:
        out.append(f"input {index}: FAIL in the cell's text, no element over tolerance in the view")
    if ok and over and badge.group(3) == "at this eps only":  # judged at one step: over tolerance is failing
        out.append(f"input {index}: ok in the cell's text, {over} elements over tolerance in the view")
    if worst is not None:  # the worst element's two values, as the table prints them (6 significant digits)
        if not any(len(r) >= 3 and _floats_equal(r[1], worst[0]) and _floats_equal(r[2], worst[1])
                   and r[-1] == "over" for r in shown.rows):
            out.append(f"input {index}: the worst element (analytic {worst[0]}, numerical {worst[1]}) is not "
                       f"among the view's elements over tolerance: {shown.rows}")
    return out


def _graph(text: str, shown: Shown) -> List[str]:
    lines = text.splitlines()
    summary = _SUMMARY.match(lines[0])
    header = _HEADER.match(_squash(shown.header))
    if not summary or not header:
        return [f"unreadable: text {lines[0]!r}, header {shown.header!r}"]
    out = []
    nodes, edges, boxes, outputs = summary.groups()
    if header.group(1, 2) != (nodes, edges):
        out.append(f"the view's header says {header.group(1)} nodes, {header.group(2)} edges; the cell's text "
                   f"{nodes}, {edges}")
    if _squash(header.group(3)) != _squash(outputs):
        out.append(f"the view's outputs are {header.group(3)!r}, the cell's text's {outputs!r}")
    if len(shown.boxes) != int(boxes):
        out.append(f"the view draws {len(shown.boxes)} boxes, the cell's text says {boxes}")
    for line in lines[1:]:
        m = _FLAGGED.match(line)
        if m and m.group(2) in shown.boxes and shown.boxes[m.group(2)] != _FLAG_NAMES[m.group(1)]:
            out.append(f"node {m.group(2)}: {m.group(1)} in the cell's text, drawn as {shown.boxes[m.group(2)]!r}")
    return out


def mismatches(stored: Stored, shown: Optional[Shown]) -> List[str]:
    """How the drawn view ``shown`` disagrees with the cell's text (``[]``: it does not), each prefixed with
    where the output is."""
    where = f"{stored.notebook} cell {stored.cell} (model {stored.model_id[:8]})"
    head = stored.text.splitlines()[0]
    kind = "graph" if _SUMMARY.match(head) else "gradcheck"
    if shown is None:
        return [f"{where}: no {kind} view drawn"]
    if shown.kind != kind:
        return [f"{where}: a {shown.kind} view drawn for a {kind} output"]
    return [f"{where}: {m}" for m in (_graph if kind == "graph" else _gradcheck)(stored.text, shown)]


# -- the drawn side, read from the stored widget state -----------------------------------------------------------

def _strip(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def shown_in_state(notebook: Path, model_id: str) -> Optional[Shown]:
    """What the view ``model_id`` of ``notebook`` draws from the widget state stored in the notebook (the state
    the docs site renders), read from its models' values as the browser shows them."""
    nb = json.loads(notebook.read_text())
    state = nb.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})

    def tree(mid: str) -> List[Dict[str, Any]]:
        s = state.get(mid, {}).get("state", {})
        kids = [c[len(REF):] for c in s.get("children", []) if isinstance(c, str) and c.startswith(REF)]
        return [s] + [x for k in kids for x in tree(k)]

    models = tree(model_id)
    classes = models[0].get("_dom_classes", []) if models else []

    def value(cls: str) -> str:
        return next((m.get("value", "") for m in models if cls in m.get("_dom_classes", [])), "")

    if "mk-gradcheck-view" in classes or "mk-gradcheck-compact" in classes:
        rows = [[_squash(_strip(td)) for td in re.findall(r"<td>(.*?)</td>", tr)]
                for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", value("mk-gc-worst"))]
        return Shown("gradcheck", badge=_strip(value("mk-gc-badge")), status=_strip(value("mk-gc-status")),
                     rows=[r for r in rows if r])
    if "mk-graph-view" in classes:  # its header is its first child (an HTML widget)
        first = models[0].get("children", [""])[0][len(REF):]
        boxes = dict(re.findall(r'<g class="mk-node" data-id="([^"]+)" data-kind="[^"]*" data-flag="([^"]*)"',
                                value("mk-graph")))
        return Shown("graph", header=_strip(state.get(first, {}).get("state", {}).get("value", "")), boxes=boxes)
    return None


# -- the drawn side, read from a page in a browser ------------------------------------------------------------

#: run in the page: for each widget view script, its model id and what the view drawn before it shows
READ_PAGE = """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
.map(s => {
  const area = s.previousElementSibling, view = area && area.classList.contains('widget-subarea') ? area : null;
  const text = sel => { const e = view && view.querySelector(sel); return e ? e.innerText : ''; };
  const kind = !view ? null : view.querySelector('.mk-gradcheck-view, .mk-gradcheck-compact') ? 'gradcheck'
             : view.querySelector('.mk-graph-view') ? 'graph' : null;
  return {model_id: JSON.parse(s.textContent).model_id, kind,
          badge: text('.mk-gc-badge'), status: text('.mk-gc-status'),
          rows: view ? [...view.querySelectorAll('.mk-gc-worst tr')].map(r => [...r.querySelectorAll('td')]
                         .map(td => td.innerText.trim())).filter(r => r.length) : [],
          header: text('.mk-graph-view > :first-child'),
          boxes: view ? Object.fromEntries([...view.querySelectorAll('.mk-graph svg g.mk-node')]
                         .map(g => [g.dataset.id, g.dataset.flag])) : {}};
})"""


def shown_in_page(found: List[Dict[str, Any]]) -> Dict[str, Shown]:
    """:data:`READ_PAGE`'s result as model id -> :class:`Shown` (views of other kinds left out)."""
    return {v["model_id"]: Shown(v["kind"], badge=v["badge"], status=v["status"], rows=v["rows"],
                                 header=v["header"], boxes=v["boxes"]) for v in found if v["kind"]}
