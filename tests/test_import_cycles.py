"""The package's imports form no cycle — neither at module level nor counting the imports inside
functions — and ``import mskernel`` runs every module once.

Layers import only downward at module level (tensor/dtype -> autograd -> ops -> kernel kinds ->
gradcheck). An import inside a function reaches an upper layer lazily (the heavy toolchain and
hybrid compiler load on first use), but two modules importing each other, even lazily, is a cycle
worked around rather than a structure: where a lower layer needs something from an upper one, the
upper one registers it in a table the lower one owns (``Tensor``'s ``PROVIDERS``, the dataset
``PIPELINE``). Imports under ``if TYPE_CHECKING:`` never run and are not edges.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("mskernel", "magics")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(root: Path = ROOT, packages: Sequence[str] = PACKAGES) -> Dict[str, Path]:
    """{dotted name: file} of every module of ``packages`` (folders under ``root``)."""
    return {_module_name(p, root): p for pkg in packages if (root / pkg).is_dir() for p in (root / pkg).rglob("*.py")}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(body: List[ast.stmt]) -> List[ast.stmt]:
    """Import statements run when the module runs: not in functions/classes' methods, not under TYPE_CHECKING."""
    out: List[ast.stmt] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If):
            out += ([] if _is_type_checking(node.test) else _top_level_imports(node.body)) + \
                _top_level_imports(node.orelse)
        elif isinstance(node, (ast.Try, ast.With, ast.ClassDef)):
            for block in ("body", "orelse", "finalbody"):
                out += _top_level_imports(getattr(node, block, []))
            for handler in getattr(node, "handlers", []):
                out += _top_level_imports(handler.body)
    return out


def _all_imports(body: List[ast.stmt]) -> List[ast.stmt]:
    """Every import statement that can run: module level and inside functions, not under TYPE_CHECKING."""
    out: List[ast.stmt] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            out += _all_imports(node.orelse)
        else:
            out += _all_imports([c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)])
    return out


def _edges(name: str, path: Path, modules: Dict[str, Path], all_levels: bool = False) -> Set[str]:
    """The package modules ``name`` imports at module level, or anywhere with ``all_levels`` (``from pkg import
    sub`` counts as pkg.sub)."""
    def known(mod: str) -> Optional[str]:
        while mod and mod not in modules:
            mod = mod.rpartition(".")[0]
        return mod or None

    is_pkg = path.name == "__init__.py"
    out: Set[str] = set()
    walk = _all_imports if all_levels else _top_level_imports
    for node in walk(ast.parse(path.read_text(), str(path)).body):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".")[: len(name.split(".")) - node.level + (1 if is_pkg else 0)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        out |= {m for m in map(known, targets) if m and m != name}
    return out


def _find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    state: Dict[str, int] = {}  # 1 on the current path, 2 done
    stack: List[str] = []

    def visit(m: str) -> Optional[List[str]]:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (cycle := visit(n)):
                return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (cycle := visit(m)):
            return cycle
    return None


def import_graph(all_levels: bool = False) -> Dict[str, Set[str]]:
    """{module: the package modules it imports at module level (or anywhere)} for mskernel/ and magics/."""
    modules = _modules()
    return {name: _edges(name, path, modules, all_levels) for name, path in modules.items()}


def test_the_walker_sees_the_import_forms():
    graph = import_graph()
    assert "mskernel.autograd.node" in graph["mskernel.autograd.engine"]  # from x.y import z
    assert "mskernel.ops.math" in graph["mskernel.ops.table.arith"]  # from pkg import submodule
    assert "mskernel.ops" in graph["mskernel"]  # from pkg import name-of-a-submodule, in an __init__
    assert not any(m.startswith("mskernel.ops") for m in graph["mskernel.common.tensor"])


def test_a_cycle_is_found_and_printed():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_relative_imports_resolve(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .sub import leaf\n")
    (pkg / "sub" / "__init__.py").write_text("from .. import other\nfrom .leaf import f\n")
    (pkg / "sub" / "leaf.py").write_text("from ..other import g\ndef h():\n    from pkg import sub\n")
    (pkg / "other.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub import leaf\n")
    modules = _modules(tmp_path, ("pkg",))
    graph = {n: _edges(n, p, modules) for n, p in modules.items()}
    assert graph == {"pkg": {"pkg.sub.leaf"}, "pkg.sub": {"pkg.other", "pkg.sub.leaf"},
                     "pkg.sub.leaf": {"pkg.other"}, "pkg.other": set()}
    everywhere = {n: _edges(n, p, modules, all_levels=True) for n, p in modules.items()}
    assert everywhere["pkg.sub.leaf"] == {"pkg.other", "pkg.sub"}  # the import inside h() counts
    assert everywhere["pkg.other"] == set()  # TYPE_CHECKING imports never run


def test_imports_inside_functions_and_methods_are_seen(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("class A:\n    def m(self):\n        if True:\n            from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    try:\n        import pkg.a\n    finally:\n        pass\n")
    modules = _modules(tmp_path, ("pkg",))
    graph = {n: _edges(n, p, modules, all_levels=True) for n, p in modules.items()}
    assert _find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]


def test_no_module_level_import_cycle():
    cycle = _find_cycle(import_graph())
    assert cycle is None, "module-level import cycle: " + " -> ".join(cycle)


def test_no_import_cycle_at_any_level():
    cycle = _find_cycle(import_graph(all_levels=True))
    assert cycle is None, "import cycle (counting imports inside functions): " + " -> ".join(cycle)


# Lower layers never import upper ones at module level (a prefix names a module and its submodules).
LAYERS = [
    ("mskernel.errors", "mskernel.dtype", "mskernel._format", "mskernel._accel", "mskernel.common.tensor"),
    ("mskernel.autograd",),
    ("mskernel.kernels",),  # numpy in, numpy out: below the ops that dispatch to them
    ("mskernel.ops", "mskernel.cpp"),
    ("mskernel.nn", "mskernel.gradcheck"),
    ("mskernel.train", "mskernel.amp", "mskernel.dataset"),  # the training surface sits on nn ([12])
]


def _layer(module: str) -> int:
    return next((i for i, prefixes in enumerate(LAYERS)
                 if any(module == p or module.startswith(p + ".") for p in prefixes)), -1)


def test_layers_import_only_downward():
    upward = [f"{m} -> {n}" for m, deps in import_graph().items() for n in deps
              if _layer(m) >= 0 and _layer(n) > _layer(m)]
    assert not upward, "imports from a lower layer into a higher one: " + ", ".join(sorted(upward))


def test_import_mskernel_runs_each_module_once():
    code = ("import sys, collections\n"
            "seen = collections.Counter()\n"
            "class Once:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        seen[name] += 1\n"
            "        return None\n"
            "sys.meta_path.insert(0, Once())\n"
            "import mskernel\n"
            "twice = {n: c for n, c in seen.items() if c > 1 and n.startswith('mskernel')}\n"
            "assert not twice, twice\n"
            )
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    loaded = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")
              and "|" in line]
    ours = [m for m in loaded if m.startswith("mskernel")]
    assert "mskernel.common.tensor" in ours and "mskernel.ops" in ours
    assert len(ours) == len(set(ours)), f"imported twice: {[m for m in ours if ours.count(m) > 1]}"
    assert "mskernel.toolchain" not in ours and "mskernel.hybrid" not in ours  # the heavy layers load lazily
