"""Record MindSpore 2.10's public surface: every public name of the namespaces mskernel mirrors, with its kind
and signature text (run by hand; the tests read the file it writes and never need MindSpore).

    python tests/golden/record_surface.py

It runs itself inside the wheel's virtual environment (the one ``record.py`` makes) and writes
``mskernel/compat_surface.json``: per namespace, per name, ``[kind, signature]``. Names and signatures are
facts about the wheel; no docstring or code of MindSpore is stored. :mod:`mskernel.compat_surface` reads the
file and gives every name a status.

What counts as a public name of a namespace:

* a module with ``__all__``: the names of ``__all__`` that resolve (``mindspore.mint.__all__`` also lists
  ``mint.nn``'s classes, which ``mint`` itself does not have: those are ``mint.nn``'s), plus ``EXTRA``:
  names outside ``__all__`` that MindSpore documents for that namespace (``mindspore.grad``, ``mint.ones``,
  ``mint.nn.Dropout``, the public submodules); a name of ``EXTRA`` the wheel lacks stops the recording;
* a module without ``__all__`` (``dataset.transforms``, ``dataset.vision``): its classes and functions
  defined under it;
* ``Tensor``: every attribute of ``mindspore.Tensor`` not starting with ``_``.

An overloaded ``mint`` function, whose signature inspect gives as ``(*args, **kwargs)``, is recorded with the
calling forms its error message lists (``"add(input=<number,Tensor>, other=<number>, *, alpha=<number>) | ..."``).

Kinds: ``function`` (any callable that is not a class), ``class``, ``primitive`` (a subclass of
``ops.Primitive``), ``module``, ``constant``; for ``Tensor``, ``method`` and ``property``.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "mskernel" / "compat_surface.json"

#: the namespaces recorded, in the order the compatibility page shows them
NAMESPACES = ["mindspore", "mindspore.ops", "mindspore.nn", "mindspore.Tensor", "mindspore.mint",
              "mindspore.mint.nn", "mindspore.mint.nn.functional", "mindspore.mint.optim", "mindspore.mint.linalg",
              "mindspore.mint.special", "mindspore.mint.distributed", "mindspore.dataset",
              "mindspore.dataset.transforms", "mindspore.dataset.vision"]

_W = str.split
#: documented public names outside the namespace's ``__all__``
EXTRA: Dict[str, List[str]] = {
    "mindspore": _W("""grad value_and_grad get_grad jvp vjp vmap jacfwd jacrev from_dlpack to_dlpack
        amp boost common communication context dataset device_context experimental graph hal mindrecord mint
        multiprocessing nn numpy ops parallel profiler rewrite runtime tools train utils"""),
    "mindspore.ops": _W("composite functional operations primitive"),
    "mindspore.mint": _W("equal ones linspace unique trunc fix ge addcmul nn optim linalg special distributed"),
    "mindspore.mint.nn": _W("CrossEntropyLoss Dropout Dropout2d Embedding GLU LayerNorm MaxPool2d NLLLoss Softshrink "
                            "functional"),
    "mindspore.mint.nn.functional": _W("hardshrink hardsigmoid hardswish l1_loss mish selu softplus softshrink "
                                       "smooth_l1_loss"),
}

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def signature_text(obj: Any) -> Optional[str]:
    """``str(inspect.signature(obj))`` with memory addresses removed, or None where inspect gives none."""
    try:
        return _ADDRESS.sub("", str(inspect.signature(obj)))
    except (TypeError, ValueError):
        return None


def overloads(obj: Any) -> Optional[str]:
    """What an overloaded function (``mint.add``, signature ``(*args, **kwargs)``) says of its parameters when
    called wrongly: the calling forms it lists, ``" | "``-joined, or, where it lists none, the parameters its
    error for a call without arguments names as required (``"(input, dim, ...)"``); else None."""
    for args in ({"_surface_probe": None}, {}):
        try:
            obj(**args)
        except Exception as e:  # the wheel's own message is the fact recorded
            text = str(e)
            if "The valid calling should be:" in text:
                forms = text.split("The valid calling should be:")[1].split("\n\n")[0]
                return " | ".join(ln.strip().strip('"') for ln in forms.splitlines() if ln.strip().startswith('"'))
            found = re.search(r"missing \d+ required positional arguments?: (.*?)\.?$", text.splitlines()[0])
            if found and not args:
                names = re.findall(r"'?(\w+)'?(?:,| and|$)", found.group(1))
                return f"({', '.join(names)}, ...)"
    return None


def kind_of(obj: Any, primitive: type) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "primitive" if issubclass(obj, primitive) else "class"
    return "function" if callable(obj) else "constant"


def module_names(mod: Any, namespace: str) -> List[str]:
    listed = getattr(mod, "__all__", None)
    if listed is None:
        return sorted(n for n, v in vars(mod).items() if not n.startswith("_")
                      and (inspect.isclass(v) or inspect.isroutine(v))
                      and (getattr(v, "__module__", "") or "").startswith(namespace))
    names = [n for n in dict.fromkeys(listed) if hasattr(mod, n)]
    for n in EXTRA.get(namespace, []):
        if not hasattr(mod, n):
            raise SystemExit(f"record_surface: EXTRA lists {namespace}.{n}, which the wheel lacks")
        if n not in names:
            names.append(n)
    return sorted(names)


def record_inside() -> Dict[str, Any]:
    """Runs in the wheel's environment: the surface as a JSON-able dict."""
    import warnings

    warnings.filterwarnings("ignore")
    import mindspore
    from mindspore.ops import Primitive

    out: Dict[str, Any] = {"mindspore": mindspore.__version__, "namespaces": {}}
    for ns in NAMESPACES:
        entries: Dict[str, List[Optional[str]]] = {}
        if ns == "mindspore.Tensor":
            for n in sorted(n for n in dir(mindspore.Tensor) if not n.startswith("_")):
                static = inspect.getattr_static(mindspore.Tensor, n)
                kind = "property" if isinstance(static, property) or inspect.isdatadescriptor(static) else \
                    "method" if callable(static) or isinstance(static, (staticmethod, classmethod)) else "constant"
                entries[n] = [kind, signature_text(getattr(mindspore.Tensor, n)) if kind == "method" else None]
        else:
            mod = importlib.import_module(ns)
            for n in module_names(mod, ns):
                obj = getattr(mod, n)
                kind = kind_of(obj, Primitive)
                sig = signature_text(obj) if kind in ("function", "class", "primitive") else None
                if sig == "(*args, **kwargs)" and kind == "function" and ns.startswith("mindspore.mint"):
                    sig = overloads(obj) or sig
                entries[n] = [kind, sig]
        out["namespaces"][ns] = entries
    return out


def dumps(data: Dict[str, Any]) -> str:
    """The JSON text, one name a line (so that a new wheel's difference reads as a diff of names)."""
    lines = ["{", f'"mindspore": {json.dumps(data["mindspore"])},', '"namespaces": {']
    for i, (ns, entries) in enumerate(data["namespaces"].items()):
        lines.append(f"{json.dumps(ns)}: {{")
        items = sorted(entries.items())
        lines += [f"  {json.dumps(n)}: {json.dumps(v)}" + ("," if j < len(items) - 1 else "")
                  for j, (n, v) in enumerate(items)]
        lines.append("}" + ("," if i < len(data["namespaces"]) - 1 else ""))
    return "\n".join(lines + ["}}"]) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inside:
        data = record_inside()
        OUT.write_text(dumps(data))
        counts = ", ".join(f"{ns} {len(v)}" for ns, v in data["namespaces"].items())
        print(f"{OUT}: {counts}", file=sys.stderr)
        return
    sys.path.insert(0, str(HERE))
    from record import ensure_venv

    py = ensure_venv()
    with tempfile.TemporaryDirectory(prefix="mskernel-surface-") as scratch:  # the wheel writes into its cwd
        subprocess.run([str(py), str(Path(__file__).resolve()), "--inside"], check=True, cwd=scratch)


if __name__ == "__main__":
    main()
