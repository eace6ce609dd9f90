"""The error reference, generated from the error classes themselves.

Every public exception class defined in ``mskernel`` (and ``magics``) is found by importing the packages'
modules and walking the class hierarchy from its roots (``MskernelError`` and the few that derive from a
builtin exception only). Each entry gives the class, its bases, when it is raised (its docstring) and an
example message: the docstring's doctest example, which the test suite runs.
"""
from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
from typing import Dict, List, Optional

_SKIP_MODULES = ("mskernel.autograd._cengine",)


def _import_all(package: str) -> None:
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        if info.name not in _SKIP_MODULES:
            importlib.import_module(info.name)


def error_classes() -> List[type]:
    """Public exception classes defined in mskernel and magics, parents before children."""
    for package in ("mskernel", "magics"):
        _import_all(package)
    found: Dict[type, None] = {}

    def ours(cls: type) -> bool:
        return (cls.__module__.split(".")[0] in ("mskernel", "magics") and not cls.__name__.startswith("_")
                and not any(part.startswith("_") and part != "__main__" for part in cls.__module__.split(".")))

    def walk(cls: type) -> None:
        for sub in sorted(cls.__subclasses__(), key=lambda c: (c.__module__, c.__name__)):
            if ours(sub) and sub not in found:
                found[sub] = None
            walk(sub)

    walk(BaseException)
    return sorted(found, key=_order_key(found))


def _order_key(found: Dict[type, None]):
    def depth_path(cls: type) -> tuple:
        chain = [c.__name__ for c in reversed(cls.__mro__) if c in found]
        return tuple(chain)
    return depth_path


def _split_doc(doc: str) -> tuple:
    m = re.search(r"^(Examples?|Example message):?\s*$", doc, re.M)
    return (doc[:m.start()].strip(), doc[m.end():]) if m else (doc.strip(), "")


def _example_text(text: str) -> str:
    lines = []
    for ex in doctest.DocTestParser().get_examples(text):
        src = ex.source.rstrip("\n").split("\n")
        lines += [">>> " + src[0]] + ["... " + s for s in src[1:]]
        lines += ex.want.rstrip("\n").split("\n") if ex.want else []
        if ex.exc_msg is not None and "Traceback" not in ex.want:
            lines += ["Traceback (most recent call last):", "..."]
    return "\n".join(lines)


def markdown(documented: Dict[int, str]) -> str:
    """The error reference page (MyST markdown); ``documented`` maps id(class) to its API entry."""
    classes = error_classes()
    out = ["# Error reference", "",
           "Every error class mskernel defines: what it derives from (catch the builtin base, as MindSpore code "
           "does, or mskernel's own), when it is raised, and an example message. Errors raised because of "
           "*your* code (a hybrid kernel, a C++ source, a notebook cell) derive from `UserCodeError` and carry "
           "a `location` (file or cell, line, column) the notebook tools point at. One entry is a warning, not an "
           "error: `PortabilityWarning`, for a hybrid kernel that is right here but races or reads uninitialised "
           "memory on a device (a racing kernel is an `ExportError` at export).", "",
           "Generated from the classes and their docstrings when the site is built; each example is a doctest "
           "the test suite runs.", ""]
    for cls in classes:
        path = documented.get(id(cls))
        bases = ", ".join(_name(b, documented) for b in cls.__bases__)
        title = cls.__name__
        desc, rest = _split_doc(inspect.getdoc(cls) or "")
        example = _example_text(rest)
        out += [f"## {title}", "", f"`{cls.__module__}.{cls.__qualname__}`, derives from {bases}."
                + (f" API entry: {{py:class}}`{path}`." if path else ""), "",
                "**When it is raised.** " + (_rst_roles_to_md(desc) or "(no description)"), ""]
        if example:
            out += ["**Example.**", "", "```pycon", example, "```", ""]
        else:
            out += ["**Example.** Its docstring has no example yet.", ""]
    return "\n".join(out) + "\n"


def _name(cls: type, documented: Dict[int, str]) -> str:
    if cls.__module__ == "builtins":
        return f"`{cls.__name__}`"
    path: Optional[str] = documented.get(id(cls))
    return f"{{py:class}}`{cls.__name__} <{path}>`" if path else f"`{cls.__name__}`"


def _rst_roles_to_md(text: str) -> str:
    """Docstrings use reST (``code``, :class:`x`): turn them into MyST's spelling for the generated page."""
    text = re.sub(r":(\w+):`([^`]+)`", lambda m: f"`{m.group(2).lstrip('~')}`", text)
    return text.replace("``", "`")
