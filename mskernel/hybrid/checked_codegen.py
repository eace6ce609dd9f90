"""The checked build of a hybrid kernel: the debug build plus a shadow per element and a task per iteration.

:mod:`mskernel.kernelcheck` runs a kernel once in this build to find what a device would get wrong
(see ``hybrid_check.h`` for the runtime). Compared with the debug build (:mod:`.codegen` with
``debug=True``: serial, every access bounds-checked), it

* numbers the iterations of every ``parallel`` and ``vectorize`` loop as tasks
  (``chk.begin_loop`` before the loop, ``mskh_taskN`` inside it; ``reduce``, ``range``, ``serial``
  and ``grid`` loops run in their task);
* routes each access of a *tracked* tensor through ``mskh::load``/``mskh::store``, which keep the
  element's last writer and readers. A tensor is tracked for what cannot be settled before the run:
  races, when some parallel loop writes it and its accesses there are not all indexed by the loop's
  variable in one fixed dimension (then iterations touch disjoint elements); reads before writes,
  for temporaries and for outputs the kernel does not provably write in full first
  (:mod:`.coverage`). Inputs only read are never tracked;
* is otherwise the ordinary build run serially: no thread pool, no streaming stores, each loop nest
  proved in bounds before it runs (:mod:`.bounds`) with a checked copy when the proof fails, so an
  untracked loop runs at the speed of one thread;
* poisons temporaries (the caller poisons outputs not provably written in full);
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
    'y[mskh::store<1, false>(dbg, chk, y_sh, 1, mskh_task1, y_shape, y_stride, 0)]'
    >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
    >>> generate_checked(hk.specialize(hk.signature(["float32"], [1]))).tracked  # disjoint, written in full
    {}
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .check import Typed
from .codegen import Generated, _Gen
from .intrinsics import PARALLEL_KINDS

__all__ = ["CheckedGenerated", "TrackedTensor", "generate_checked"]



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
    checked_symbol: str = "mskh_kernel_checked"


def _accesses(stmts: list[ir.Stmt]) -> list[ir.Load | ir.Store]:
    """Every tensor access in ``stmts``, nested statements included."""
    found: list[ir.Load | ir.Store] = []
    for s in ir.walk_stmts(stmts):
        if isinstance(s, ir.Store):
            found.append(s)
        found += [e for root in ir.stmt_exprs(s) for e in ir.walk_exprs(root) if isinstance(e, ir.Load)]
    return found


def _disjoint(loop: ir.For, tensor: str) -> bool:
    """Do the iterations of ``loop`` touch disjoint elements of ``tensor``: is every access to it in the loop
    indexed by the loop variable itself in one fixed dimension (or is it allocated inside the loop)?"""
    if any(isinstance(s, ir.Alloc) and s.name == tensor for s in ir.walk_stmts(loop.body)):
        return True
    dims = set()
    for a in _accesses(loop.body):
        if a.tensor != tensor:
            continue
        if a.grid is not None:
            return False
        dim = next((d for d, i in enumerate(a.indices) if isinstance(i, ir.Var) and i.name == loop.var), None)
        if dim is None:
            return False
        dims.add(dim)
    return len(dims) <= 1


def _tracked(typed: Typed, covered: dict[str, int]) -> dict[str, "TrackedTensor"]:
    """The tensors the checked build must follow at run time, and how (see the module docstring)."""
    k = typed.kernel
    racy: set[str] = set()
    read_in_parallel: set[str] = set()
    for loop in ir.walk_stmts(k.body):
        if isinstance(loop, ir.For) and loop.kind in PARALLEL_KINDS:
            accesses = _accesses(loop.body)
            written = {a.tensor for a in accesses if isinstance(a, ir.Store)}
            racy |= {t for t in written if not _disjoint(loop, t)}
            read_in_parallel |= {a.tensor for a in accesses if isinstance(a, ir.Load)}
    fresh = {n for n, info in typed.tensors.items()
             if n not in k.params and (info.kind == "temp" or (info.kind == "output" and n not in covered))}
    return {n: TrackedTensor(reads=n in racy and n in read_in_parallel, init=n in fresh)
            for n in typed.tensors if n in racy or n in fresh}


class _CheckedGen(_Gen):
    MODE_NOTE = " in CHECKED mode (shadow memory, for mskernel.check_kernel)"
    RUNTIME_HEADER = "hybrid_check.h"
    EXTRA_PARAMS = ", mskh::Checker& chk"

    def __init__(self, typed: Typed):
        super().__init__(typed, debug=False)
        for p in self.plans.values():  # serial: the iterations of a parallel loop are numbered, not threaded
            p.pragma, p.nested = None, []
        self.tracked = _tracked(typed, self.covered)  # (the outputs written in full: coverage.fully_written)
        self.loops: list[tuple[str, ir.Loc]] = []
        self.loop_ids: dict[int, int] = {}
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
        fn = "store" if isinstance(node, ir.Store) else "load"
        arrays = f"{c}_shape, {c}_stride" if rank else "nullptr, nullptr"
        args = "".join(", " + i for i in idx)
        bounds = "true" if self.is_checked(node) else "false"  # (false: a bounds proof covers the access)
        return f"{c}[mskh::{fn}<{rank}, {bounds}>(dbg, chk, {c}_sh, {site}, {self.task}, {arrays}{args})]"

    def subtree_checked(self, s: ir.Stmt) -> bool:
        return True  # no streaming-store versions of loops (their vector code has no shadow)

    def keeps_order(self, s: ir.Stmt) -> bool:
        # A reduce loop that touches no tracked tensor and whose accesses are proved in bounds is reassociated
        # as in the kernel itself (the shadow sees nothing of it), so the checked run computes what the kernel
        # computes, bit for bit, at the kernel's speed.
        return any(a.tensor in self.tracked for a in _accesses([s])) or super().subtree_checked(s)

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
        if id(s) not in self.loop_ids:  # (a nest is emitted twice: proved in bounds, and checked)
            self.loop_ids[id(s)] = len(self.loops)
            self.loops.append((s.var, s.loc))
        start = self.ex.index(s.start)  # type: ignore[arg-type]
        step = self.ex.index(s.step)  # type: ignore[arg-type]
        self.emit("{  // checked: each iteration of this loop is a task")
        self.depth += 1
        self.emit(f"const int64_t mskh_base{depth} = chk.begin_loop({self.loop_ids[id(s)]}, {self.task}, "
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
        return CheckedGenerated(g.source, g.arrays, False, g.sites, tracked=self.tracked, loops=self.loops)


def generate_checked(typed: Typed) -> CheckedGenerated:
    """C++ of the checked build of one specialized kernel (see the module docstring).

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    return x\\n")
        >>> "mskh_kernel_checked" in generate_checked(hk.specialize(hk.signature(["int32"], [1]))).source
        True
    """
    return _CheckedGen(typed).run()
