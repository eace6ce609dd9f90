"""Split pybind11 builds behave exactly like full pybind11 builds of the same source.

``src/pybind_features.cpp`` uses what custom ops use (STL containers, optionals, strings, tensor
lists, keyword/default/kw-only arguments, overloads, docstrings, module attributes, exceptions of
every kind, py::object/dict/args/kwargs, a GIL-releasing call guard) and more (a bound class, a
numpy array). It is built twice: split (the default) and full (``-DMSKERNEL_FULL_PYBIND11``);
every call below must give the same result, or raise the same exception type with the same
message, in both.
"""
from __future__ import annotations

import os
import re
import types
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

SRC = Path(__file__).parent / "src"


def _build(tmp_path_factory, scoped_env, cflags):
    from mskernel.toolchain import pch_dir
    from mskernel.ops import CustomOpBuilder

    cache = tmp_path_factory.mktemp("split_cache")
    with scoped_env(MSKERNEL_PCH_DIR=os.environ.get("MSKERNEL_PCH_DIR") or str(pch_dir()),
                    MSKERNEL_CACHE_DIR=str(cache)):
        builder = CustomOpBuilder("mk_pybind_features", [str(SRC / "pybind_features.cpp")], cflags=cflags)
        return builder.load(), builder.build_artifact()


@pytest.fixture(scope="module")
def both(tmp_path_factory, scoped_env) -> tuple[types.ModuleType, types.ModuleType]:
    split, split_art = _build(tmp_path_factory, scoped_env, None)
    full, full_art = _build(tmp_path_factory, scoped_env, "-DMSKERNEL_FULL_PYBIND11")
    assert (split_art.mode, full_art.mode) == ("split", "full")
    return split, full


def _outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 -- the exception is the outcome being compared
        return ("raised", type(e).__name__, str(e))
    if isinstance(value, ms.Tensor):
        return ("tensor", value.asnumpy().tolist())
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], ms.Tensor):
        return ("tensors", [v.asnumpy().tolist() for v in value])
    return ("value", type(value).__name__, value)


def _raise_key_error():
    raise KeyError("from python")


T = ms.Tensor(np.arange(3, dtype=np.float32))
CALLS = [
    ("sum", ([1, 2, 3],), {}), ("sum", ((4, 5),), {}), ("sum", ([1, "x"],), {}), ("sum", ("123",), {}),
    ("sum", ({1, 2},), {}), ("sum", (), {}),
    ("scale", ([1.0, 2.0],), {}), ("scale", ([1.0],), {"k": 3.0}), ("scale", (), {"v": [2.0], "k": 0.5}),
    ("scale", ([1.0],), {"q": 1}),
    ("greet", ("ann",), {}), ("greet", ("bob", 2), {}), ("greet", ("bob",), {"times": None}), ("greet", (3,), {}),
    ("maybe", (True,), {}), ("maybe", (False,), {}), ("maybe", (1,), {}),
    ("counts", (["a", "b", "a"],), {}), ("unique", ([3, 1, 3],), {}), ("nested", (2,), {}),
    ("count_defined", ([T, None, T],), {}), ("count_defined", ([T, 1],), {}),
    ("pair", (T,), {}), ("pair", (T, T * 2), {}), ("pair", (T,), {"y": None}), ("pair", ([1.0],), {}),
    ("add", (1.0,), {}), ("add", (1.0, 5.0), {}), ("add", (), {"a": 1, "b": 1}), ("add", ("x",), {}),
    ("kwonly", (1,), {"b": 2}), ("kwonly", (1, 2), {}),
    ("over", (3,), {}), ("over", ("s",), {}), ("over", (1.5,), {}),
    ("raise_invalid", ("bad value",), {}), ("raise_out_of_range", (), {}), ("raise_runtime", (), {}),
    ("raise_py_value_error", (), {}), ("raise_py_key_error", (), {}), ("raise_custom", (), {}),
    ("raise_int", (), {}),
    ("call", (lambda: 7,), {}), ("call", (_raise_key_error,), {}),
    ("invert", ({"a": 1, "b": 2},), {}), ("invert", ([1],), {}),
    ("info", (1, 2), {"k": 3}), ("spin", (1000,), {}), ("lambda_capture", (5,), {}),
    ("array_sum", ([1.0, 2.5],), {}), ("array_sum", (np.arange(4).reshape(2, 2),), {}), ("array_sum", ("x",), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_split_and_full_give_the_same_outcome(both, name, args, kwargs):
    split, full = both
    assert _outcome(getattr(split, name), *args, **kwargs) == _outcome(getattr(full, name), *args, **kwargs)


def test_docstrings_signatures_and_attributes_are_the_same(both):
    split, full = both
    names = sorted({c[0] for c in CALLS})
    assert [getattr(split, n).__doc__ for n in names] == [getattr(full, n).__doc__ for n in names]
    assert split.__doc__ == full.__doc__ == "pybind11 features"
    assert split.answer == full.answer == 42
    assert "Overloaded function." in split.over.__doc__ and "the string overload" in split.over.__doc__
    assert split.sum.__doc__.startswith("sum(arg0: collections.abc.Sequence[")
    def unmangled(doc: str) -> str:  # each load has its own package name (_mskernel_<key>.<module>)
        return re.sub(r"_mskernel_[0-9a-f]+\.", "", doc)

    assert unmangled(split.Counter.inc.__doc__) == unmangled(full.Counter.inc.__doc__)
    assert "Counter" in unmangled(split.Counter.inc.__doc__)


def test_a_bound_class_works_the_same(both):
    for mod in both:
        c = mod.Counter()
        assert (c.inc(), c.inc(by=5)) == (1, 6)
        with pytest.raises(TypeError, match="incompatible function arguments"):
            c.inc("x")


def test_exceptions_are_translated_like_pybind11(both):
    split, _ = both
    with pytest.raises(ValueError, match="bad value"):
        split.raise_invalid("bad value")
    with pytest.raises(IndexError, match="out of range"):
        split.raise_out_of_range()
    with pytest.raises(RuntimeError, match="runtime trouble"):
        split.raise_runtime()
    with pytest.raises(KeyError):
        split.call(_raise_key_error)  # the Python exception itself, restored by pybind11
    with pytest.raises(TypeError, match="incompatible function arguments"):
        split.sum("not a list")
