"""The API reference pages, generated from the packages' public names (``__all__``) at build time.

Every public name of ``mskernel``'s top level and of its main subpackages gets an entry, grouped by layer
(``LAYERS``): the first place an object appears gets its full autodoc entry (signature with type hints,
docstring with its example); every other public path of the same object gets a short entry pointing there,
so ``mskernel.Tensor`` and ``mskernel.common.Tensor`` both resolve. ``public_names()`` is what the tests
check the built inventory against.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


@dataclass
class Layer:
    """One reference page: a title, an introduction and the modules whose public names it documents."""

    slug: str
    title: str
    intro: str
    modules: List[str] = field(default_factory=list)


LAYERS: List[Layer] = [
    Layer("tensors", "Tensors, parameters and dtypes",
          "``Tensor`` holds data (numpy buffers, zero-copy views); ``Parameter`` is a named trainable Tensor. "
          "The dtypes print and promote as MindSpore's do.",
          ["mskernel.common", "mskernel.dtype", "mskernel.common.initializer"]),
    Layer("autograd", "Autograd",
          "One engine records every differentiable call (built-in ops, every ``ops.Custom`` kind, C++ "
          "``Function`` ops, Cells with a ``bprop``); ``grad`` and ``value_and_grad`` read it.",
          ["mskernel.autograd"]),
    Layer("ops", "Ops",
          "The functional ops (``ops.x``) and primitive classes (``ops.X``) generated from the op table, the "
          "grad transforms, hooks, and ``ops.Custom`` with its operator information.",
          ["mskernel.ops"]),
    Layer("custom", "Kernel kinds and the C++ bridge",
          "What runs behind ``ops.Custom`` for each ``func_type``, and the Python side of the C++ headers "
          "(``Function<T>``, ``ms::Tensor``, aclnn).",
          ["mskernel.kernels", "mskernel.cpp"]),
    Layer("hybrid", "The hybrid DSL compiler",
          "``@kernel`` functions run as Python, compiled to C++, or inside ``ops.Custom``; the backward of a "
          "hybrid op is derived from its DSL source.",
          ["mskernel.hybrid"]),
    Layer("toolchain", "The build layer",
          "Compiler discovery, ninja, the content-addressed cache and its trust rules, and "
          "``CustomOpBuilder``.",
          ["mskernel.toolchain"]),
    Layer("cells", "Notebook cells and the %%custom_op magics",
          "What a ``%%custom_op`` cell does, usable without IPython (``mskernel.cells``), and the IPython "
          "extension over it (``magics``).",
          ["mskernel.cells", "magics"]),
    Layer("gradients", "Gradient checks and views",
          "``gradcheck`` compares the engine's Jacobians with finite differences; the widgets draw the "
          "check and the autograd graph.",
          ["mskernel.gradcheck", "mskernel.widgets"]),
    Layer("kernelcheck", "Checking kernels for the device",
          "``ms.check_kernel`` runs an op once in a checked build and reports what a device would get wrong "
          "that the CPU hides: races between parallel iterations, reads of memory nothing wrote, output "
          "elements never written, indices out of bounds.",
          ["mskernel.kernelcheck"]),
    Layer("bench", "Benchmarking kernels",
          "``ms.benchmark`` and ``%kernel_bench``: implementations checked to agree, timed with the method "
          "stated, hybrid kernels placed on the machine's roofline from their static counts.",
          ["mskernel.bench"]),
    Layer("export", "Carrying an op to MindSpore",
          "``ms.export_mindspore`` and ``%custom_op_export``: a hybrid op with its derived backward, a pyfunc "
          "op or a C++ cell written as code real MindSpore runs unchanged.",
          ["mskernel.mindspore_export"]),
    Layer("nn", "Neural networks: mskernel.nn",
          "Cells, layers, losses, optimizers, learning-rate schedules, metrics and training wrappers, as "
          "``mindspore.nn`` has them.",
          ["mskernel.nn"]),
    Layer("mint", "mindspore.mint: mskernel.mint",
          "``mindspore.mint``'s torch-style functions, each a front end of an op table entry (one line of "
          "``mskernel.mint.frontends``: mint's signature and the table call), its layers, losses and ``SGD``.",
          ["mskernel.mint", "mskernel.mint.nn", "mskernel.mint.nn.functional", "mskernel.mint.optim",
           "mskernel.mint.linalg", "mskernel.mint.special", "mskernel.mint.distributed"]),
    Layer("train", "Training: Model, callbacks, checkpoints, amp",
          "``Model``, callbacks and checkpoint files as ``mindspore.train``; mixed precision, the boosts of "
          "``mindspore.boost`` and the one-process communication surface.",
          ["mskernel.train", "mskernel.amp", "mskernel.boost", "mskernel.communication"]),
    Layer("dataset", "Datasets: mskernel.dataset and mskernel.mindrecord",
          "In-memory pipelines, image folders and MindRecord files with MindSpore's dataset API; MindRecord "
          "files are written and read in MindSpore's own format.",
          ["mskernel.dataset", "mskernel.dataset.transforms", "mskernel.dataset.vision", "mskernel.mindrecord"]),
    Layer("numpy", "mskernel.numpy",
          "``mindspore.numpy``: numpy-style functions on Tensors.",
          ["mskernel.numpy"]),
    Layer("context", "Context, compatibility and errors",
          "Execution context, ``jit``'s op wrappers and infer functions (``mindspore.graph``), the compatibility "
          "census and MindSpore's whole surface, the refusal table, the error base classes and the command line.",
          ["mskernel.context", "mskernel.graph", "mskernel.compat", "mskernel.compat_surface", "mskernel.refusals",
           "mskernel.errors", "mskernel.__main__"]),
]

TOP = "mskernel"
_PLAIN = (int, float, str, bytes, bool, tuple, type(None))


def module_names(modname: str) -> List[str]:
    """The public names of a module: its ``__all__``, else its non-underscore attributes (submodules of a
    package without ``__all__`` excluded: they are documented through their own names)."""
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")
                 and not (isinstance(getattr(mod, n), types.ModuleType) and getattr(mod, n).__name__.startswith(
                     modname + "."))]
        names = [n for n in names if not _imported_helper(getattr(mod, n))]
    names = list(names) + sorted(getattr(mod, "_LAZY", {}))  # imported on first use (``ops.kernel``)
    seen: Dict[str, None] = {}
    for n in names:
        seen.setdefault(n, None)
    return list(seen)


def _imported_helper(obj: object) -> bool:
    """Names a module without ``__all__`` only imported for itself: other modules (``math``), typing
    constructs, ``from __future__`` features, functions and classes defined outside mskernel."""
    import __future__

    if isinstance(obj, types.ModuleType):
        return True
    if isinstance(obj, __future__._Feature) or getattr(obj, "__module__", None) == "typing":
        return True
    return (inspect.isclass(obj) or inspect.isroutine(obj)) and not _ours(obj)


def public_names() -> List[str]:
    """Every documented public path: ``mskernel.<name>`` for the top level's ``__all__`` and
    ``<module>.<name>`` for each module of ``LAYERS``."""
    out = [f"{TOP}.{n}" for n in module_names(TOP)]
    for layer in LAYERS:
        out += [f"{m}.{n}" for m in layer.modules for n in module_names(m)]
    return out


def _key(obj: object) -> Optional[int]:
    return None if isinstance(obj, _PLAIN) else id(obj)


def _kind(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if inspect.isroutine(obj) or (callable(obj) and hasattr(obj, "__code__")):
        return "function"
    return "data"


def _summary(obj: object) -> str:
    doc = inspect.getdoc(obj) if not isinstance(obj, _PLAIN) else None
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ")


def _ours(obj: object) -> bool:
    """Defined in mskernel or magics (numpy's ufuncs re-exported as DSL intrinsics are not)."""
    mod = getattr(obj, "__module__", None) if not isinstance(obj, types.ModuleType) else obj.__name__
    return isinstance(mod, str) and mod.split(".")[0] in ("mskernel", "magics")


def _attr_doc(modname: str, name: str, obj: object) -> str:
    """The ``#:`` comment above a module constant, looked up where it is defined (the module itself or one of
    its loaded submodules holding the same object)."""
    from sphinx.pycode import ModuleAnalyzer
    from sphinx.errors import PycodeError
    import sys

    for mname, mod in sorted(sys.modules.items()):
        if not (mname == modname or mname.startswith(modname + ".")) or mod is None:
            continue
        if getattr(mod, name, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(mname).find_attr_docs()
        except PycodeError:
            continue
        if ("", name) in docs:
            return " ".join(line.strip() for line in docs[("", name)]).strip()
    return ""


def reexport_example(modname: str, name: str) -> str:
    """The example kept for a name a module re-exports from another package (numpy's ``int8`` as a hybrid DSL
    cast), whose docstring is not ours: ``__test__[name]`` of the module or of one of its loaded submodules,
    where doctest runs it ("" if there is none)."""
    import sys

    for mname, mod in sorted(sys.modules.items()):
        if mod is not None and (mname == modname or mname.startswith(modname + ".")):
            text = (getattr(mod, "__test__", None) or {}).get(name)
            if isinstance(text, str):
                return text
    return ""


def _full_entry(path: str, obj: object) -> List[str]:
    kind = _kind(obj)
    if kind != "module" and isinstance(getattr(obj, "__module__", None), str) and not _ours(obj):
        origin = f"{getattr(obj, '__module__', None) or type(obj).__module__}.{getattr(obj, '__name__', '')}"
        example = reexport_example(*path.rsplit(".", 1))
        lines = [".. rubric:: Example", ""] + example.splitlines() + [""] if example else []
        return _directive("function" if kind == "function" else "data", path) + [
            "", f"   ``{origin.rstrip('.')}``, re-exported here.", ""] + [f"   {ln}".rstrip() for ln in lines]
    if kind == "data" and (isinstance(obj, _PLAIN) or inspect.getdoc(obj) == inspect.getdoc(type(obj))):
        modname, _, name = path.rpartition(".")
        doc = _attr_doc(modname, name, obj)
        if not doc and _ours(type(obj)) and type(obj).__doc__:
            doc = _summary(type(obj))
        doc = doc or f"A ``{type(obj).__name__}``."
        typ = f":type: {type(obj).__name__}" if type(obj).__module__ == "builtins" and obj is not None else ""
        value = repr(obj)
        value = f":value: {value}" if len(value) <= 60 and "\n" not in value else ""
        return _directive("data", path, typ, value) + ["", f"   {_plain(doc)}", ""]
    if kind == "module":
        text = _summary(obj) or f"The module ``{obj.__name__}``."
        return _directive("data", path) + ["", f"   Module ``{obj.__name__}``. {_plain(text)}", ""]
    if kind == "class":
        stops = ", ".join(c.__name__ for c in obj.__mro__[1:] if c not in _parts(obj))
        return [f".. autoclass:: {path}", "   :members:", f"   :inherited-members: {stops}", "", ""]
    if kind == "function":
        return [f".. autofunction:: {path}", ""]
    return [f".. autodata:: {path}", "   :no-value:" if not isinstance(obj, _PLAIN) else "", ""]


def _directive(kind: str, path: str, *options: str) -> List[str]:
    """A Python-domain directive for ``path`` (given as name + ``:module:``, so the page's current module is not
    prefixed to it)."""
    modname, _, name = path.rpartition(".")
    return [f".. py:{kind}:: {name}", f"   :module: {modname}"] + [f"   {o}" for o in options if o]


def _alias_entry(path: str, target: str, obj: object) -> List[str]:
    kind = _kind(obj)
    if kind in ("class", "function"):
        return _directive(kind, path, ":no-index-entry:") + ["", f"   The same object as :py:obj:`{target}`.", ""]
    return _directive("data", path, ":no-index-entry:") + [
        "", f"   The same object as :py:obj:`{target}`.", ""]


def _plain(text: str) -> str:
    """A docstring paragraph with its cross-reference roles turned into literals (intros may name modules
    that have no entry of their own)."""
    return re.sub(r":\w+:`~?([^`<]*?)(?:\s*<[^>]+>)?`", r"``\1``", text)


def _submodules(modname: str, skip: List[str]) -> List[str]:
    """Entries for the modules inside a package, so ``:mod:`` references to them resolve (``skip``: modules
    with entries elsewhere; a module whose name its package also uses for a public name is left out too)."""
    mod = importlib.import_module(modname)
    if not hasattr(mod, "__path__"):
        return []
    lines: List[str] = []
    for info in sorted(pkgutil.walk_packages(mod.__path__, modname + "."), key=lambda i: i.name):
        parent, _, last = info.name.rpartition(".")
        if (any(part.startswith("_") for part in info.name.split(".")[1:]) or info.name in skip
                or last in module_names(parent)):
            continue
        try:
            sub = importlib.import_module(info.name)
        except ImportError:
            continue
        doc = (inspect.getdoc(sub) or "").split("\n\n")[0].replace("\n", " ")
        lines += [f".. py:module:: {info.name}", "", f"``{info.name}``: {_plain(doc)}", "", ""]
    return lines


def _heading(text: str, ch: str) -> List[str]:
    return [text, ch * len(text), ""]


@functools.lru_cache(maxsize=None)
def _public_classes() -> frozenset:
    """The ids of the classes that are public names (each has an entry of its own)."""
    return frozenset(id(obj) for _, obj in full_entries() if inspect.isclass(obj))


def _parts(cls: type) -> List[type]:
    """``cls`` and the classes its entry documents with it: the bases it is built from that have no entry of
    their own (``nn.Cell``'s ``CellState``, ``CellTree``, ``CellModesMixin``, ``CellHooksMixin``), up to the
    first public or foreign one, whose members are documented there."""
    parts = [cls]
    for base in cls.__mro__[1:]:
        if not _ours(base) or id(base) in _public_classes():
            break
        parts.append(base)
    return parts


def _routines(obj: object) -> List[object]:
    """The functions whose signatures autodoc shows for ``obj``: a function, or a class's constructor and the
    public methods and properties of it and its parts (:func:`_parts`)."""
    if not inspect.isclass(obj):
        return [obj] if inspect.isfunction(obj) else []
    out = [obj.__dict__["__init__"]] if "__init__" in obj.__dict__ else []
    for part in _parts(obj):
        for name, value in vars(part).items():
            value = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
            value = value.fget if isinstance(value, property) else value
            if not name.startswith("_") and inspect.isfunction(value):
                out.append(value)
    return out


def _classes_in(hint: object, found: Dict[int, type], scope: Dict[str, object]) -> None:
    while isinstance(hint, (str, typing.ForwardRef)):  # a quoted name (``-> "RegOp"``), alone or in a generic
        try:
            hint = eval(hint if isinstance(hint, str) else hint.__forward_arg__, scope)  # noqa: S307 (our code)
        except Exception:  # a name only imported for type checkers: autodoc cannot resolve it either
            return
    if inspect.isclass(hint) and _ours(hint):
        found.setdefault(id(hint), hint)
    for arg in getattr(hint, "__args__", None) or ():
        _classes_in(arg, found, scope)


def hinted_classes(obj: object) -> List[type]:
    """The mskernel classes the type hints of ``obj``'s signatures name (see :func:`_routines`); a hint autodoc
    shows is a cross-reference, so each of them needs an entry."""
    found: Dict[int, type] = {}
    for fn in _routines(obj):
        scope = getattr(fn, "__globals__", {})
        for hint in getattr(fn, "__annotations__", {}).values():
            _classes_in(hint, found, scope)
    return list(found.values())


#: classes of internal modules named in public signatures, documented without a signature of their own (see
#: :func:`supporting_section`): autodoc-process-signature leaves theirs out, so their fields' types need no entry
SUPPORTING: set = set()


def supporting_section(classes: List[type]) -> List[str]:
    """A page section documenting the classes of internal modules that public signatures name, so those names
    lead somewhere: each class's docstring (and its example), not its constructor."""
    lines = _heading("Classes named in signatures", "-") + [
        "Classes of internal modules that the signatures above name, documented here so their names lead "
        "somewhere; they are not public names of the package (you get them from the calls above).", ""]
    for cls in sorted(classes, key=lambda c: c.__name__.lower()):
        path = f"{cls.__module__}.{cls.__qualname__}"
        SUPPORTING.add(path)
        lines += [f".. autoclass:: {path}", ""]
    return lines


def _layer_of(modname: str) -> Optional[Layer]:
    best: Tuple[int, Optional[Layer]] = (0, None)
    for layer in LAYERS:
        for m in layer.modules:
            if (modname == m or modname.startswith(m + ".")) and len(m) > best[0]:
                best = (len(m), layer)
    return best[1]


def generate() -> Tuple[Dict[str, str], Dict[int, str]]:
    """The reference pages as ``{file name: reStructuredText}`` -- ``index.rst`` (the top-level namespace and
    the layers' table of contents) and one page per layer -- and ``{id(object): path of its full entry}``."""
    documented: Dict[int, str] = {}
    hinted: Dict[int, type] = {}
    pages: Dict[str, str] = {}
    skip = [m for la in LAYERS for m in la.modules]
    for layer in LAYERS:
        lines = _heading(layer.title, "=") + [layer.intro, ""]
        for modname in layer.modules:
            mod = importlib.import_module(modname)
            lines += _heading(f"``{modname}``", "-")
            lines += [f".. py:module:: {modname}", "   :no-index:" if modname == TOP else "", ""]
            doc = inspect.getdoc(mod) or ""
            lines += [_plain(doc.split("\n\n")[0].replace("\n", " ")) if doc else "", ""]
            for name in sorted(module_names(modname), key=str.lower):
                obj = getattr(mod, name)
                path = f"{modname}.{name}"
                key = _key(obj)
                if key is not None and key in documented:
                    lines += _alias_entry(path, documented[key], obj)
                    continue
                if key is not None:
                    documented[key] = path
                if isinstance(obj, types.ModuleType) and obj.__name__ in skip:  # has a section of its own
                    documented[id(obj)] = obj.__name__
                    if path == obj.__name__:  # the module's own entry is this name's
                        lines += [f"``{path}``: the module :py:mod:`{obj.__name__}`.", ""]
                    else:
                        lines += _directive("data", path) + ["", f"   The module :py:mod:`{obj.__name__}`.", ""]
                    continue
                lines += _full_entry(path, obj)
        for modname in layer.modules:
            mod = importlib.import_module(modname)
            for name in module_names(modname):
                for cls in hinted_classes(getattr(mod, name)):
                    hinted.setdefault(id(cls), cls)
        subs = []
        for m in layer.modules:
            subs += _submodules(m, skip)
            skip += [line.split()[-1] for line in subs if line.startswith(".. py:module::")]
        if subs:
            lines += _heading("Modules", "-") + ["The modules inside these packages (their public names are above).",
                                                   ""] + subs
        pages[f"{layer.slug}.rst"] = "\n".join(lines) + "\n"
    extra: Dict[str, List[type]] = {}
    for key, cls in hinted.items():
        layer = _layer_of(cls.__module__)
        if key not in documented and layer is not None:
            extra.setdefault(layer.slug, []).append(cls)
            documented[key] = f"{cls.__module__}.{cls.__qualname__}"
    for slug, classes in extra.items():
        pages[f"{slug}.rst"] += "\n" + "\n".join(supporting_section(classes)) + "\n"
    top = importlib.import_module(TOP)
    lines = _heading("API reference", "=") + [
        "Every public name, generated from the docstrings and type hints; each example in them is a doctest "
        "the test suite runs. The layers, from the data up:", "",
        ".. toctree::", "   :maxdepth: 1", ""] + [f"   {layer.slug}" for layer in LAYERS] + [""]
    lines += _heading("The ``mskernel`` namespace", "-") + [
        "MindSpore's top-level names (``import mskernel as ms``): each entry points at its layer.", "",
        f".. py:module:: {TOP}", ""]
    for name in sorted(module_names(TOP), key=str.lower):
        obj = getattr(top, name)
        key = _key(obj)
        if f"{TOP}.{name}" in skip:  # ``mskernel.gradcheck``: the function shadows its module's name
            lines += [f"``{TOP}.{name}`` is :py:obj:`{documented.get(key or 0, TOP + '.' + name)}` (the module of the "
                      f"same name is :py:mod:`{TOP}.{name}`).", ""]
        elif key is not None and key in documented:
            lines += _alias_entry(f"{TOP}.{name}", documented[key], obj)
        else:
            if key is not None:
                documented[key] = f"{TOP}.{name}"
            lines += _full_entry(f"{TOP}.{name}", obj)
    pages["index.rst"] = "\n".join(lines) + "\n"
    return pages, documented


def example_of(path: str, obj: object) -> str:
    """The example the full entry of ``path`` shows: its docstring, or for a name re-exported from another
    package the one kept in ``__test__`` (:func:`reexport_example`)."""
    if not _ours(obj) and not _ours(type(obj)):
        return reexport_example(*path.rsplit(".", 1))
    return inspect.getdoc(obj) or ""


def needs_example(obj: object) -> bool:
    """A class, a function, or something callable from another package (numpy's ufuncs); not a constant, a
    module or a callable instance of one of our classes (its class has the example)."""
    if isinstance(obj, (_PLAIN, types.ModuleType)):
        return False
    return _kind(obj) in ("class", "function") or (callable(obj) and not _ours(type(obj)))


def full_entries() -> List[Tuple[str, object]]:
    """``(path, object)`` of every full entry of the reference, each object once, as :func:`generate` places
    them (the layers first, then the top-level names not documented in a layer)."""
    seen: Dict[int, str] = {}
    out: List[Tuple[str, object]] = []
    for modname in [m for layer in LAYERS for m in layer.modules] + [TOP]:
        mod = importlib.import_module(modname)
        for n in sorted(module_names(modname), key=str.lower):
            obj = getattr(mod, n)
            k = _key(obj)
            if k is None or k in seen:
                continue
            seen[k] = f"{modname}.{n}"
            out.append((f"{modname}.{n}", obj))
    return out


def without_example() -> List[str]:
    """The public paths whose full entry needs an example (:func:`needs_example`) and shows no ``>>>`` one."""
    return [p for p, obj in full_entries() if needs_example(obj) and ">>>" not in example_of(p, obj)]
