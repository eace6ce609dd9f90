"""Oracle: mskernel's gradients of random computation DAGs agree with float64 central differences on numpy.

The programs come from random_dags.py (0-499; 0-299 are also the golden suite tests/golden/random_dags.json
recorded from MindSpore 2.10). Each runs through mskernel in float64 from its MindSpore source text, as a user's
code would; the expected loss and gradients come from the program's own numpy evaluator, written from the ops'
definitions, differentiated by fourth-order central differences (central_differences.py). Nothing on the expected
side touches mskernel. Second-order programs compare the gradient of ``sum(grad(f)(x) * d)`` with differences
of the directional derivative of ``f`` along ``d``.

Every program must agree, the in-place updates included (before mskernel.ops.alias, 74 of them did not: a rule's
saved slice or an op's saved output overwritten by a later write, and writes through views that the base's graph
did not see).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mskernel
from central_differences import derivative_along, gradient, on_one_piece
from random_dags import Program, programs

PROGRAMS = programs(0, 500)
TOL = 1e-6  # |mskernel - differences| <= TOL * (1 + |differences|); the differences are good to about 1e-8


def run_in_mskernel(program: Program) -> Any:
    """The ``result`` of the program's float64 MindSpore source, run with mskernel bound to ``ms``."""
    env = {"__name__": "__main__", "ms": mskernel, "ops": mskernel.ops, "nn": mskernel.nn, "np": np,
           "Tensor": mskernel.Tensor}
    exec(compile(program.source("float64"), f"<{program.name}>", "exec"), env)
    return env["result"]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_gradients_match_central_differences(program: Program):
    result = run_in_mskernel(program)
    point = program.point()
    f = on_one_piece(program.forward, point)
    if program.order2 is None:
        loss = f
    else:
        direction = program.direction()

        def loss(p):
            return derivative_along(f, p, direction)
    want_value, got_value = loss(point), float(result[0].asnumpy())
    assert abs(got_value - want_value) <= TOL * (1 + abs(want_value)), \
        f"loss {got_value!r}, central differences give {want_value!r}"
    want = gradient(loss, point)
    got = program.gradients_by_name(result)
    assert sorted(got) == sorted(want)
    for name, w in want.items():
        g = got[name]
        assert (str(g.dtype), tuple(g.shape)) == ("Float64", w.shape), f"gradient of {name}: {g.dtype} {g.shape}"
        close = np.abs(g.asnumpy() - w) <= TOL * (1 + np.abs(w))
        assert close.all(), f"gradient of {name}:\n  mskernel {g.asnumpy().ravel()}\n  expected {w.ravel()}"


def test_programs_cover_what_the_oracle_is_for():
    """Cells with Parameters and Dense layers, views, in-place updates, second order and fan-out all occur often."""
    ops = [s.op.name for p in PROGRAMS for s in p.steps]
    for name in ("add", "sub", "mul", "matmul", "dense", "sum", "mean", "reshape", "transpose", "getitem",
                 "expand_dims", "squeeze", "broadcast_to", "identity", "depend", "setitem", "setitem_mul",
                 "setitem_shifted", "setitem_view"):
        assert ops.count(name) >= 10, name
    assert sum(p.cell for p in PROGRAMS) >= 250 and sum(p.order2 is not None for p in PROGRAMS) >= 100

    def fans_out(p: Program) -> bool:
        reads = [a for s in p.steps for a in s.args]
        return any(reads.count(a) > 1 for a in reads)
    assert sum(fans_out(p) for p in PROGRAMS) >= 0.9 * len(PROGRAMS)


def test_every_pinned_golden_case_is_held_to_central_differences():
    """A golden case pinned because MindSpore 2.10 is wrong is one of the programs this file checks."""
    path = Path(__file__).resolve().parents[1] / "golden" / "cases" / "random_dags.py"
    spec = importlib.util.spec_from_file_location("golden_cases_random_dags", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    pinned = {name for name, opts in mod.OPTIONS.items() if "differs" in opts}
    assert pinned <= {p.name for p in PROGRAMS}


def test_helper_examples_run():
    import doctest

    import central_differences
    import random_dags
    for mod in (random_dags, central_differences):
        failed, tried = doctest.testmod(mod)
        assert tried > 0 and failed == 0, mod.__name__
