"""Every functional op and primitive class of the op table carries a runnable example: the table modules'
``EXAMPLES`` (or a hand-written function's own docstring) end up in the docstrings, where the doctest run of
tests/test_doctests.py finds them."""
from __future__ import annotations

import doctest
import sys

from mskernel.ops import functional, operations
from mskernel.ops.registry import EXAMPLES, FUNCTIONS, PRIMITIVES


def test_every_op_and_primitive_has_an_example_in_its_docstring():
    missing = [n for n, f in FUNCTIONS.items() if not n.startswith("_") and ">>>" not in (f.__doc__ or "")]
    missing += [n for n, cls in PRIMITIVES.items() if ">>>" not in (cls.__doc__ or "")]
    assert not missing, f"{len(missing)} without an example (add one to EXAMPLES of their table module): {missing}"


def _found(module) -> set:
    return {t.docstring for t in doctest.DocTestFinder().find(module) if t.examples}


def test_the_doctest_run_finds_every_example():
    # generated functional ops, and lambdas or closures of entries, live in no module's namespace:
    # mskernel.ops.functional lists them in __test__; primitive classes are classes of mskernel.ops.operations
    found = _found(functional) | _found(operations)
    public = {n: f for n, f in FUNCTIONS.items() if not n.startswith("_")}
    assert len([f for f in public.values() if f.__doc__ in _found(functional)]) > 80
    homes = {f.__module__ for f in public.values()}
    for home in homes:
        found |= _found(sys.modules[home])
    assert not [n for n, f in public.items() if f.__doc__ not in found]
    assert not [n for n, cls in PRIMITIVES.items() if cls.__doc__ not in found]


def test_a_primitive_called_as_its_functional_op_shares_its_example():
    assert "print(ops.exp(ms.Tensor([0.0, 1.0])))" in FUNCTIONS["exp"].__doc__
    assert "print(ops.Exp()(ms.Tensor([0.0, 1.0])))" in PRIMITIVES["Exp"].__doc__
    assert "Exp" not in EXAMPLES  # derived, not written twice
    # a primitive with constructor attributes has its own
    assert "ops.ReduceSum(keep_dims=True)" in PRIMITIVES["ReduceSum"].__doc__

