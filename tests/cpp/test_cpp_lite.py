"""Lite pybind11 builds behave exactly like full pybind11 builds of the same source.

``src/lite_features.cpp`` uses every part of the lite subset (STL containers, optionals, strings,
tensor lists, keyword/default/kw-only arguments, overloads, docstrings, module attributes,
exceptions of every kind, py::object/dict/args/kwargs, a GIL-releasing call guard). It is built
twice: lite (the default) and full (``-DMSKERNEL_FULL_PYBIND11``); every call below must give the
same result, or raise the same exception type with the same message, in both.
"""
from __future__ import annotations

import os
import types
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

SRC = Path(__file__).parent / "src"


def _build(tmp_path_factory, scoped_env, cflags):
    from mskernel.toolchain import pch_dir
    from mskernel.ops import CustomOpBuilder

    cache = tmp_path_factory.mktemp("lite_cache")
    with scoped_env(MSKERNEL_PCH_DIR=os.environ.get("MSKERNEL_PCH_DIR") or str(pch_dir()),
                    MSKERNEL_CACHE_DIR=str(cache)):
        builder = CustomOpBuilder("mk_lite_features", [str(SRC / "lite_features.cpp")], cflags=cflags)
        return builder.load(), builder.build_artifact()


@pytest.fixture(scope="module")
def both(tmp_path_factory, scoped_env) -> tuple[types.ModuleType, types.ModuleType]:
    lite, lite_art = _build(tmp_path_factory, scoped_env, None)
    full, full_art = _build(tmp_path_factory, scoped_env, "-DMSKERNEL_FULL_PYBIND11")
    assert (lite_art.mode, full_art.mode) == ("lite", "full")
    return lite, full


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
]


@pytest.mark.parametrize("name,args,kwargs", CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_lite_and_full_give_the_same_outcome(both, name, args, kwargs):
    lite, full = both
    assert _outcome(getattr(lite, name), *args, **kwargs) == _outcome(getattr(full, name), *args, **kwargs)


def test_docstrings_signatures_and_attributes_are_the_same(both):
    lite, full = both
    names = sorted({c[0] for c in CALLS})
    assert [getattr(lite, n).__doc__ for n in names] == [getattr(full, n).__doc__ for n in names]
    assert lite.__doc__ == full.__doc__ == "lite features"
    assert lite.answer == full.answer == 42
    assert "Overloaded function." in lite.over.__doc__ and "the string overload" in lite.over.__doc__
    assert lite.sum.__doc__.startswith("sum(arg0: collections.abc.Sequence[")


def test_exceptions_are_translated_like_pybind11(both):
    lite, _ = both
    with pytest.raises(ValueError, match="bad value"):
        lite.raise_invalid("bad value")
    with pytest.raises(IndexError, match="out of range"):
        lite.raise_out_of_range()
    with pytest.raises(RuntimeError, match="runtime trouble"):
        lite.raise_runtime()
    with pytest.raises(KeyError):
        lite.call(_raise_key_error)  # the Python exception itself, restored by pybind11
    with pytest.raises(TypeError, match="incompatible function arguments"):
        lite.sum("not a list")
