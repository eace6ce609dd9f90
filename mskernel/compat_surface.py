"""MindSpore 2.10's whole public surface, name by name, and what mskernel does with each name.

``compat_surface.json`` beside this module holds every public name of the namespaces mskernel mirrors (the
top level, ``ops`` functions and primitive classes, ``nn``, ``Tensor``'s methods and properties, ``mint`` and
its submodules, ``dataset``), with its kind and signature text, as the CPU wheel has them. It is recorded
from the wheel by ``tests/golden/record_surface.py`` (which says what counts as public) and never edited by
hand. :func:`status` gives each name one of three states, looked up in mskernel itself so that the table
cannot drift:

* ``runs``: mskernel has the name (a function or class callable, a module importable);
* ``refused``: mskernel has it only to refuse it, with the reason (:mod:`mskernel.refusals`);
* ``missing``: mskernel does not have it.

:func:`markdown_lines` is the part of ``docs/compatibility.md`` generated from it (see :mod:`mskernel.compat`).

Example:
    >>> status("mindspore.ops", "exp")
    ('runs', '')
    >>> status("mindspore.ops", "Send")[0]
    'refused'
    >>> counts()["mindspore.mint.linalg"]["runs"] >= 1
    True
"""
from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from mskernel.refusals import REFUSED, is_refusal

__all__ = ["STATES", "surface", "groups", "lookup", "status", "rows", "counts", "markdown_lines"]

#: the states a surface name can be in
STATES = ("runs", "refused", "missing")
_DATA = Path(__file__).with_name("compat_surface.json")
_ABSENT = object()


@functools.lru_cache(maxsize=None)
def _load() -> Dict[str, Any]:
    return json.loads(_DATA.read_text())


@functools.lru_cache(maxsize=None)
def surface() -> Dict[str, Dict[str, Tuple[str, Optional[str]]]]:
    """namespace → name → (kind, signature text or None), as recorded from the wheel (one shared dict: read it,
    do not change it).

    Example:
        >>> surface()["mindspore.mint"]["sum"]
        ('function', '(input, dim=None, keepdim=False, *, dtype=None)')
    """
    return {ns: {n: (k, s) for n, (k, s) in names.items()} for ns, names in _load()["namespaces"].items()}


def groups() -> List[Tuple[str, str, List[str]]]:
    """The compatibility page's sections: (key, title, names), in the recorder's order; ``mindspore.ops`` is
    shown as its functions and its primitive classes.

    Example:
        >>> [key for key, _, _ in groups()][:4]
        ['mindspore', 'mindspore.ops', 'mindspore.ops.primitives', 'mindspore.nn']
    """
    out = []
    for ns, names in surface().items():
        if ns == "mindspore.ops":
            out.append((ns, "`mindspore.ops`: functions and other names",
                        [n for n, (k, _) in names.items() if k != "primitive"]))
            out.append(("mindspore.ops.primitives", "`mindspore.ops`: primitive classes",
                        [n for n, (k, _) in names.items() if k == "primitive"]))
        elif ns == "mindspore.Tensor":
            out.append((ns, "`mindspore.Tensor`: methods and properties", list(names)))
        else:
            out.append((ns, f"`{ns}`", list(names)))
    return out


def _module(namespace: str) -> Any:
    return importlib.import_module("mskernel" + namespace[len("mindspore"):])


def lookup(namespace: str, name: str) -> Any:
    """mskernel's object for MindSpore's ``namespace.name`` (``mskernel.mint.nn.functional.relu`` for
    ``("mindspore.mint.nn.functional", "relu")``), or None where mskernel has none. A module is looked up by
    importing it, so the answer does not depend on what was imported before.

    Example:
        >>> import mskernel
        >>> lookup("mindspore.Tensor", "abs") is mskernel.Tensor.abs, lookup("mindspore", "no_such_name")
        (True, None)
    """
    kind = surface().get(namespace, {}).get(name, ("",))[0]
    if namespace == "mindspore.Tensor":
        import mskernel

        return getattr(mskernel.Tensor, name, None)
    try:
        mod = _module(namespace)
    except ImportError:
        return None
    if kind == "module":
        try:
            return importlib.import_module(f"{mod.__name__}.{name}")
        except ImportError:
            pass
    obj = getattr(mod, name, _ABSENT)
    return None if obj is _ABSENT else obj


def status(namespace: str, name: str) -> Tuple[str, str]:
    """(state, note) of one surface name: ``runs``, ``refused`` (the note is the reason) or ``missing``.

    Example:
        >>> status("mindspore", "load_mindir")[1].startswith("it reads or writes MindIR")
        True
    """
    kind = surface()[namespace][name][0]
    reason = REFUSED.get(namespace, {}).get(name)
    if reason is not None:
        return "refused", reason
    obj = lookup(namespace, name)
    if obj is None:
        return "missing", ""
    if is_refusal(obj):  # a refusal object under a name the table does not refuse: a mistake in the table
        raise RuntimeError(f"mskernel has {namespace}.{name} as a refusal, but mskernel.refusals does not list it")
    if kind in ("function", "class", "primitive", "method") and not callable(obj):
        return "missing", f"mskernel's {name} is not callable (a {type(obj).__name__})"
    return "runs", ""


def rows(key: str) -> List[Tuple[str, str, str, str]]:
    """(name, kind, state, note) for every name of one section of :func:`groups`.

    Example:
        >>> rows("mindspore.mint.special")[0][:3]
        ('erfc', 'function', 'runs')
    """
    for k, _, names in groups():
        if k == key:
            ns = "mindspore.ops" if key == "mindspore.ops.primitives" else key
            table = surface()[ns]
            return [(n, table[n][0], *status(ns, n)) for n in names]
    raise KeyError(key)


def counts() -> Dict[str, Dict[str, int]]:
    """Section → state → number of names (every state present, zeros included).

    Example:
        >>> c = counts()["mindspore.mint.distributed"]
        >>> c["refused"] >= 7, sum(c.values()) == len(surface()["mindspore.mint.distributed"])
        (True, True)
    """
    out: Dict[str, Dict[str, int]] = {}
    for key, _, _ in groups():
        c = {st: 0 for st in STATES}
        for _, _, st, _ in rows(key):
            c[st] += 1
        out[key] = c
    return out


def _sig(sig: Optional[str]) -> str:
    return "" if not sig else f"`{sig}`".replace("|", "\\|")


def markdown_lines() -> List[str]:
    """The surface part of the compatibility page: a summary with the counts per section, then one table per
    section listing every name with its kind, state and note (a refusal's reason).

    Example:
        >>> lines = markdown_lines()
        >>> lines[0], lines[6].startswith("| `mindspore` |")
        ('## MindSpore 2.10, every public name', True)
    """
    table = counts()
    total = {st: sum(c[st] for c in table.values()) for st in STATES}
    out = ["## MindSpore 2.10, every public name", "",
           f"Every public name of MindSpore {_load()['mindspore']}'s namespaces below, recorded from the CPU wheel "
           "(`tests/golden/record_surface.py` → `mskernel/compat_surface.json`; `mskernel/compat_surface.py` "
           "gives each its state): *runs* (mskernel has it), *refused* (mskernel has it only to raise "
           "`RefusedError` with the reason: `mskernel/refusals.py`) or *missing*.", "",
           "| namespace | names | runs | refused | missing |", "|---|---|---|---|---|"]
    titles = {key: title for key, title, _ in groups()}
    for key, c in table.items():
        out.append(f"| {titles[key]} | {sum(c.values())} | {c['runs']} | {c['refused']} | {c['missing']} |")
    out += [f"| all | {sum(total.values())} | {total['runs']} | {total['refused']} | {total['missing']} |", ""]
    sigs = surface()
    for key, title, _ in groups():
        ns = "mindspore.ops" if key == "mindspore.ops.primitives" else key
        out += [f"### {title}", "", "| name | kind | state | MindSpore's signature / note |", "|---|---|---|---|"]
        for name, kind, st, note in rows(key):
            out.append(f"| `{name}` | {kind} | {st} | {note or _sig(sigs[ns][name][1])} |")
        out.append("")
    return out
