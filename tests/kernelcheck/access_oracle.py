"""An oracle for the checked build that shares no code with it: the kernel run as Python, every access logged.

The kernel's source is executed as plain Python (MindSpore's emulation semantics) with its tensors
wrapped in :class:`Traced` arrays and ``parallel``/``vectorize`` replaced by generators that keep a
stack of (loop execution, iteration). Every element access is logged with that stack and its line;
the verdicts are then computed from the whole log by brute force, pairwise:

* two accesses to one element *race* when one writes and, at the first loop level where their stacks
  differ, they are the same execution of a parallel loop in different iterations;
* a read of an output/temporary element before any write of it is an *uninitialised read*;
* output elements no access wrote are *unwritten*.

New memory (outputs, temporaries) holds what the checked build puts there -- NaN, 0xA5 bytes, True -- so
that both take the same branches on values nothing wrote.
"""
from __future__ import annotations

import ast
import itertools
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from mskernel.hybrid.intrinsics import RUNTIME_NAMES


@dataclass
class Access:
    tensor: str
    buffer: int  # which allocation (a temporary allocated in a loop is a new buffer each time)
    index: tuple[int, ...]
    write: bool
    stack: tuple[tuple[int, int], ...]  # (parallel loop execution, loop variable value), outermost first
    line: int


@dataclass
class Trace:
    accesses: list[Access] = field(default_factory=list)
    fresh: set[str] = field(default_factory=set)  # outputs and temporaries (new memory)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    buffers: list[Any] = field(default_factory=list)

    def races(self) -> list[tuple[Access, Access]]:
        """Every (earlier, later) pair of accesses to one element that race."""
        by_element: dict[tuple[str, tuple[int, ...]], list[Access]] = {}
        for a in self.accesses:
            by_element.setdefault((a.buffer, a.index), []).append(a)
        pairs = []
        for accs in by_element.values():
            for i, j in itertools.combinations(range(len(accs)), 2):
                a, b = accs[i], accs[j]
                if (a.write or b.write) and concurrent(a.stack, b.stack):
                    pairs.append((a, b))
        return pairs

    def uninitialised_reads(self) -> set[tuple[str, int]]:
        written: set[tuple[int, tuple[int, ...]]] = set()
        found = set()
        for a in self.accesses:
            key = (a.buffer, a.index)
            if a.write:
                written.add(key)
            elif a.tensor in self.fresh and key not in written:
                found.add((a.tensor, a.line))
        return found

    def unwritten(self) -> dict[str, int]:
        written = {(a.tensor, a.index) for a in self.accesses if a.write}
        out = {}
        for name, arr in self.outputs.items():  # (an output is made once, at the kernel's top level)
            n = sum((name, tuple(int(v) for v in idx)) not in written for idx in np.ndindex(arr.shape))
            if n:
                out[name] = n
        return out


def concurrent(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    for (ea, ia), (eb, ib) in zip(a, b):
        if ea != eb:
            return False  # different executions of loops: one ran after the other
        if ia != ib:
            return True
    return False  # one stack is a prefix of the other: the same iteration at every shared level


class Traced:
    """A numpy array that logs every element access into a Trace."""

    def __init__(self, name: str, data: np.ndarray, trace: Trace, stack: list[tuple[int, int]]):
        self.name, self.data, self.trace, self.stack = name, data, trace, stack
        self.buffer = len(trace.buffers)
        trace.buffers.append(self)
        self.shape, self.dtype = data.shape, data.dtype

    def _index(self, key: Any) -> tuple[int, ...]:
        key = key if isinstance(key, tuple) else (key,)
        return tuple(int(k) for k in key)

    def _log(self, key: Any, write: bool) -> tuple[int, ...]:
        idx = self._index(key)
        line = sys._getframe(2).f_lineno  # the kernel's line (above: __getitem__/__setitem__, then this)
        self.trace.accesses.append(Access(self.name, self.buffer, idx, write, tuple(self.stack), line))
        return idx

    def __getitem__(self, key: Any) -> Any:
        return self.data[self._log(key, False)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self.data[self._log(key, True)] = value


def trace(source: str, name: str, tensors: list[np.ndarray], attrs: list[Any], first_line: int = 1,
          allocs: Optional[dict[int, str]] = None) -> Trace:
    """Run kernel ``name`` of ``source`` (its first line numbered ``first_line``) as Python, logging accesses.

    ``allocs`` maps a line to the name of the tensor an ``output_tensor``/``allocate`` on it makes.
    """
    log = Trace()
    stack: list[tuple[int, int]] = []
    executions = itertools.count()

    def concurrent_loop(*args: int):
        execution = next(executions)
        for v in range(*args):
            stack.append((execution, v))
            yield v
            stack.pop()

    def fresh(kind: str):
        def make(shape: Any, dtype: Any = "float32", *rest: Any) -> Traced:
            line = sys._getframe(1).f_lineno
            tensor = (allocs or {}).get(line, f"<{kind} at line {line}>")
            arr = RUNTIME_NAMES[kind](shape, dtype, *rest)
            # new memory holds what the checked build puts there (so both take the same branches on it)
            if arr.dtype.kind == "f":
                arr[...] = np.nan
            elif arr.dtype.kind == "b":
                arr[...] = True
            else:
                arr.view(np.uint8)[...] = 0xA5
            log.fresh.add(tensor)
            if kind == "output_tensor":
                log.outputs[tensor] = arr
            return Traced(tensor, arr, log, stack)
        return make

    namespace = dict(RUNTIME_NAMES)
    namespace.update(parallel=concurrent_loop, vectorize=concurrent_loop, output_tensor=fresh("output_tensor"),
                     allocate=fresh("allocate"), kernel=lambda f: f, ms_kernel=lambda f: f)
    tree = ast.parse("\n" * (first_line - 1) + textwrap.dedent(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            node.decorator_list = []  # (the corpus registers its kernels with decorators the oracle has not got)
    exec(compile(tree, "<oracle>", "exec"), namespace)  # noqa: S102 - the test's own kernels
    params = namespace[name].__code__.co_varnames[:namespace[name].__code__.co_argcount]
    args = [Traced(p, np.array(t, copy=True), log, stack) for p, t in zip(params, tensors)]
    namespace[name](*args, *attrs)
    return log
