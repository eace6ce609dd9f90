"""The checked build of a hybrid kernel: the debug build plus a shadow per element and a task per iteration.

:mod:`mskernel.kernelcheck` runs a kernel once in this build to find what a device would get wrong
(see ``hybrid_check.h`` for the runtime). Compared with the debug build (:mod:`.codegen` with
``debug=True``: serial, every access bounds-checked), it

* numbers the iterations of every ``parallel`` and ``vectorize`` loop as tasks
  (``chk.begin_loop`` before the loop, ``mskh_taskN`` inside it; ``reduce``, ``range``, ``serial``
  and ``grid`` loops run in their task);
* routes each access of a *tracked* tensor through ``mskh::load``/``mskh::store``, which keep the
  element's last writer and readers: outputs and temporaries (a read before any write is a
  finding), and every tensor written inside a parallel loop (races). Inputs only read are untracked;
* poisons temporaries (the caller poisons outputs);
* has one entry, ``mskh_kernel_checked(data, shape, stride, attr, err, shadows, flags, report, cap)``,
  on C-contiguous arrays (the checker passes contiguous copies, so an element's offset is its
  row-major index and indexes the shadow too).

Example:
    >>> from mskernel.hybrid import HybridKernel
    >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n")
    >>> g = generate_checked(hk.specialize(hk.signature(["float32"], [1])))
    >>> g.tracked, g.loops
    ({'y': TrackedTensor(reads=True, init=True)}, [('i', (3, 5))])
    >>> line = next(ln.strip() for ln in g.source.splitlines() if "mskh::store" in ln)
    >>> line.split(" = ")[0]
    'y[mskh::store<1>(dbg, chk, y_sh, 2, mskh_task1, y_shape, y_stride, 0)]'
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .check import Typed
from .codegen import Generated, _Gen

__all__ = ["CheckedGenerated", "TrackedTensor", "generate_checked", "PARALLEL_KINDS"]

#: loop kinds whose iterations run concurrently on a device
PARALLEL_KINDS = ("parallel", "vectorize")


@dataclass(frozen=True)
class TrackedTensor:
    """How the checked build tracks one tensor: its readers too (``reads``), reads before writes (``init``)."""

    reads: bool
    init: bool


@dataclass
class CheckedGenerated(Generated):
    """:class:`~mskernel.hybrid.codegen.Generated` plus what the checker needs to read its report."""

    tracked: dict[str, TrackedTensor] = field(default_factory=dict)
    loops: list[tuple[str, ir.Loc]] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)
    checked_symbol: str = "mskh_kernel_checked"


def _accessed_in_parallel(kernel: ir.Kernel) -> tuple[set[str], set[str]]:
    """(tensors written, tensors read) inside some parallel or vectorize loop."""
    written: set[str] = set()
    read: set[str] = set()

    def visit(stmts: list[ir.Stmt], inside: bool) -> None:
        for s in stmts:
            if inside:
                if isinstance(s, ir.Store):
                    written.add(s.tensor)
                for root in ir.stmt_exprs(s):
                    read.update(e.tensor for e in ir.walk_exprs(root) if isinstance(e, ir.Load))
            if isinstance(s, ir.For):
                visit(s.body, inside or s.kind in PARALLEL_KINDS)
            elif isinstance(s, ir.If):
                visit(s.then, inside)
                visit(s.orelse, inside)

    visit(kernel.body, False)
    return written, read


class _CheckedGen(_Gen):
    MODE_NOTE = " in CHECKED mode (shadow memory, for mskernel.check_kernel)"
    RUNTIME_HEADER = "hybrid_check.h"
    EXTRA_PARAMS = ", mskh::Checker& chk"

    def __init__(self, typed: Typed):
        super().__init__(typed, debug=True)
        written, read = _accessed_in_parallel(self.k)
        fresh = {n for n, info in typed.tensors.items() if info.kind in ("output", "temp")}
        fresh -= set(self.k.params)
        self.tracked = {n: TrackedTensor(reads=n in written and n in read, init=n in fresh)
                        for n in typed.tensors if n in written or n in fresh}
        self.loops: list[tuple[str, ir.Loc]] = []
        self.roles: dict[int, str] = {}
        self.task = "0"
        self.task_loops: list[ir.For] = []

    # ------------------------------------------------------------------ tensors
    def access(self, node: ir.Load | ir.Store, idx: list[str]) -> str:
        if node.tensor not in self.tracked:
            return super().access(node, idx)
        c = self.cname(node.tensor)
        rank = self.t.tensors[node.tensor].rank
        self.sites.append((node.tensor, node.loc))
        site = len(self.sites) - 1
        self.roles[site] = "write" if isinstance(node, ir.Store) else "read"
        fn = "store" if isinstance(node, ir.Store) else "load"
        arrays = f"{c}_shape, {c}_stride" if rank else "nullptr, nullptr"
        args = "".join(", " + i for i in idx)
        return f"{c}[mskh::{fn}<{rank}>(dbg, chk, {c}_sh, {site}, {self.task}, {arrays}{args})]"

    def prologue(self) -> list[str]:
        arrays = super().prologue()
        for slot, name in enumerate(arrays):
            if name in self.tracked:
                self.emit(f"mskh::Shadow {self.cname(name)}_sh = chk.tensor({slot});")
        return arrays

    def s_Alloc(self, s: ir.Alloc) -> None:
        if s.kind == "output":
            self.comment(s.loc, "  (allocated poisoned by the checker)")
            return
        super().s_Alloc(s)
        c = self.cname(s.name)
        rank = self.t.tensors[s.name].rank
        total = " * ".join(f"{c}_n{d}" for d in range(rank)) or "1"
        self.emit(f"mskh::poison({c}, {total});  // never the zeros of the emulation")
        if s.name in self.tracked:
            reads = "true" if self.tracked[s.name].reads else "false"
            self.emit(f"mskh::TempShadow {c}_shb({total}, {reads});")
            self.emit(f"mskh::Shadow& {c}_sh = {c}_shb.sh;")

    # ------------------------------------------------------------------ loops
    def s_For(self, s: ir.For) -> None:
        if s.kind not in PARALLEL_KINDS:
            super().s_For(s)
            return
        depth = len(self.task_loops) + 1
        self.loops.append((s.var, s.loc))
        start = self.ex.index(s.start)  # type: ignore[arg-type]
        step = self.ex.index(s.step)  # type: ignore[arg-type]
        self.emit("{  // checked: each iteration of this loop is a task")
        self.depth += 1
        self.emit(f"const int64_t mskh_base{depth} = chk.begin_loop({len(self.loops) - 1}, {self.task}, "
                  f"{self.trip(s)}, {start}, {step});")
        self.emit(f"int64_t mskh_k{depth} = 0;")
        self.task_loops.append(s)
        super().s_For(s)
        self.task_loops.pop()
        self.depth -= 1
        self.emit("}")

    def loop_body(self, s: ir.For, pragma: bool) -> None:
        outer = self.task
        if self.task_loops and self.task_loops[-1] is s:
            depth = len(self.task_loops)
            self.emit(f"const int64_t mskh_task{depth} = mskh_base{depth} + mskh_k{depth}++;")
            self.task = f"mskh_task{depth}"
        super().loop_body(s, pragma)
        self.task = outer

    # ------------------------------------------------------------------ the file
    def entries(self, impl: str) -> list[str]:
        return [
            'extern "C" int mskh_kernel_checked(void* const* data, const int64_t* shape, const int64_t* stride,',
            "                                   const mskh::Attr* attr, int64_t* err, void* const* shadows,",
            "                                   const int64_t* flags, int64_t* report, int64_t cap) {",
            "  mskh::Checker chk(shadows, flags, report, cap);",
            f"  return {impl}<true>(data, shape, stride, attr, err, chk);",
            "}",
        ]

    def run(self) -> CheckedGenerated:  # type: ignore[override]
        g = super().run()
        return CheckedGenerated(g.source, g.arrays, False, g.sites, tracked=self.tracked, loops=self.loops,
                                roles=self.roles)


def generate_checked(typed: Typed) -> CheckedGenerated:
    """C++ of the checked build of one specialized kernel (see the module docstring).

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
        >>> "mskh_kernel_checked" in generate_checked(hk.specialize(hk.signature(["int32"], [1]))).source
        True
    """
    return _CheckedGen(typed).run()
