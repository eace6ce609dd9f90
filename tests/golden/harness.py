"""Run a MindSpore program snippet against a module (real ``mindspore`` or ``mskernel``) and encode what it gave.

A *case* is a few lines of Python written for MindSpore. It runs with these names bound: ``ms`` (the
module), ``ops``, ``nn``, ``np`` (numpy, seeded with 0 before every case) and ``Tensor``. It leaves its
answer in ``result`` (any nesting of tuples/lists/dicts of Tensors, numbers, strings, dtypes, numpy
arrays and None); what it prints is kept too. An exception is the answer when one is raised.

The same code encodes both sides, so the recorder (``record.py``, inside the wheel's virtual environment)
and the tests (``test_goldens.py``, with mskernel) agree on the format. It imports neither module.

Example:
    >>> import types, numpy as np
    >>> fake = types.SimpleNamespace(ops=None, nn=None, Tensor=np.asarray)
    >>> out = run("result = (1, 2.5, 'a')\\nprint('hi')", fake)
    >>> out["stdout"], out["result"]["items"][1]
    ('hi\\n', {'t': 'float', 'v': 2.5})
"""
from __future__ import annotations

import contextlib
import io
import math
import os
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np

__all__ = ["run", "run_oracle", "encode", "compare", "Mismatch", "AsTensor", "numeric_grad"]


def _number(v: float) -> Any:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _values(arr: np.ndarray) -> Any:
    if arr.dtype.kind == "S":  # bytes: as hex text, so the JSON can hold them
        return [bytes(v).hex() for v in arr.reshape(-1).tolist()]
    if arr.dtype.kind == "f" or arr.dtype.kind == "c":
        if arr.dtype.kind == "c":
            return [[_number(float(z.real)), _number(float(z.imag))] for z in arr.reshape(-1)]
        return [_number(float(v)) for v in arr.reshape(-1)]
    return arr.reshape(-1).tolist()


def encode(value: Any) -> Any:
    """A JSON-able description of a result: kind, dtype, shape and values.

    Example:
        >>> encode(np.array([1.0, np.nan], np.float32))
        {'t': 'ndarray', 'dtype': 'float32', 'shape': [2], 'data': [1.0, 'nan']}
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return {"t": "bool", "v": value}
    if isinstance(value, int):
        return {"t": "int", "v": value}
    if isinstance(value, float):
        return {"t": "float", "v": _number(value)}
    if isinstance(value, str):
        return {"t": "str", "v": value}
    if isinstance(value, bytes):
        return {"t": "bytes", "v": value.hex()}
    if isinstance(value, np.ndarray):
        return {"t": "ndarray", "dtype": str(value.dtype), "shape": list(value.shape), "data": _values(value)}
    if isinstance(value, np.generic):
        return encode(value.item())
    if isinstance(value, (tuple, list)):
        return {"t": type(value).__name__ if type(value) in (tuple, list) else "tuple",
                "items": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"t": "dict", "items": {str(k): encode(v) for k, v in value.items()}}
    if hasattr(value, "asnumpy") and hasattr(value, "dtype"):
        kind = "parameter" if type(value).__name__ == "Parameter" else "tensor"
        arr = np.asarray(value.asnumpy())
        return {"t": kind, "dtype": str(value.dtype), "shape": list(arr.shape), "data": _values(arr)}
    if type(value).__module__.split(".")[0] in ("mindspore", "mskernel") and \
            ("dtype" in type(value).__module__ or "typing" in type(value).__module__) \
            or type(value).__name__ in ("Type", "TensorType"):
        return {"t": "dtype", "v": str(value)}
    return {"t": "other", "type": type(value).__name__, "v": str(value)}


def _source_file(src: str) -> str:
    """A real file holding the case (MindSpore reads function sources for some transforms)."""
    import hashlib
    import linecache
    import tempfile

    path = Path(tempfile.gettempdir()) / f"golden_case_{hashlib.sha1(src.encode()).hexdigest()[:16]}.py"
    if not path.exists():
        path.write_text(src)
    linecache.checkcache(str(path))
    return str(path)


def run(src: str, ms: Any, extra: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Run one case against ``ms``: ``{"result": ..., "stdout": ...}`` or ``{"error": type, "message": ...}``."""
    np.random.seed(0)
    env: Dict[str, Any] = {"__name__": "__main__", "ms": ms, "ops": getattr(ms, "ops", None),
                           "nn": getattr(ms, "nn", None), "np": np, "Tensor": getattr(ms, "Tensor", None)}
    env.update(extra or {})
    out = io.StringIO()
    cwd = os.getcwd()  # a case may change directory (to write files in a temporary one): it is restored
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(src, _source_file(src), "exec"), env)
            result = encode(env.get("result"))  # MindSpore runs ops asynchronously: errors may surface here
    except Exception as e:  # the error is the answer
        return {"error": type(e).__name__, "message": str(e).strip()[:2000], "stdout": out.getvalue()}
    finally:
        os.chdir(cwd)
    return {"result": result, "stdout": out.getvalue()}


_MS_DTYPES = {"bool": "Bool", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
              "float16": "Float16", "float32": "Float32", "float64": "Float64", "complex64": "Complex64",
              "complex128": "Complex128"}


class AsTensor:
    """An oracle's stand-in for a Tensor: a numpy array that encodes as a tensor of MindSpore's name for its dtype.

    Example:
        >>> encode(AsTensor(np.array([1, 2], np.int64)))
        {'t': 'tensor', 'dtype': 'Int64', 'shape': [2], 'data': [1, 2]}
    """

    def __init__(self, array: Any) -> None:
        self._array = np.asarray(array)
        self.dtype = _MS_DTYPES[str(self._array.dtype)]

    def asnumpy(self) -> np.ndarray:
        return self._array


def numeric_grad(f: Any, *args: Any, wrt: int = 0, eps: float = 1e-6) -> np.ndarray:
    """The gradient of the scalar ``f(*args)`` with respect to ``args[wrt]``: float64 central differences.

    Example:
        >>> numeric_grad(lambda a: (a ** 2).sum(), np.array([1.0, -3.0])).round(6)
        array([ 2., -6.])
    """
    xs = [np.array(a, np.float64) for a in args]
    x = xs[wrt]
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        keep = x[i]
        x[i] = keep + eps
        hi = float(np.sum(f(*xs)))
        x[i] = keep - eps
        lo = float(np.sum(f(*xs)))
        x[i] = keep
        out[i] = (hi - lo) / (2 * eps)
    return out


def run_oracle(src: str) -> Any:
    """Run an oracle (numpy only, no MindSpore and no mskernel) and encode its ``result``.

    An oracle states what mskernel documents where it knowingly differs from the wheel. It runs with ``np``,
    ``math``, ``as_tensor`` (:class:`AsTensor`), ``numeric_grad`` and, so that it can start from a case's own
    setup lines, ``Tensor`` (``np.asarray``) and ``ms.Parameter`` (a copy of the array).

    Example:
        >>> run_oracle("x = Tensor([1.0, 2.0])\\nresult = as_tensor((x * 2).astype(np.float32))")
        {'t': 'tensor', 'dtype': 'Float32', 'shape': [2], 'data': [2.0, 4.0]}
    """
    import types

    np.random.seed(0)
    fake_ms = types.SimpleNamespace(Parameter=lambda value, name=None, **_: np.array(value))
    env: Dict[str, Any] = {"np": np, "math": math, "as_tensor": AsTensor, "numeric_grad": numeric_grad,
                           "Tensor": np.asarray, "ms": fake_ms}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NaN where the program divides by zero is the answer
        exec(compile(src, "<oracle>", "exec"), env)
    return encode(env["result"])


class Mismatch(AssertionError):
    """A result that differs from the recorded one; the message says where."""


def _close(a: List[Any], b: List[Any], rtol: float, atol: float) -> bool:
    def arr(v: List[Any]) -> np.ndarray:
        return np.array([float(x) if not isinstance(x, list) else complex(float(x[0]), float(x[1])) for x in v])
    x, y = arr(a), arr(b)
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))


def compare(want: Any, got: Any, rtol: float = 1e-5, atol: float = 1e-6, path: str = "result") -> None:
    """Raise :class:`Mismatch` naming the first place where ``got`` differs from ``want`` (both encoded).

    Tensors and Parameters must agree in kind, dtype, shape and values (within ``rtol``/``atol``);
    containers in kind and length; numbers within the same tolerance.

    Example:
        >>> compare(encode((1.0, [2])), encode((1.0, [2])))
        >>> compare(encode((1.0,)), encode([1.0]))
        Traceback (most recent call last):
        ...
        harness.Mismatch: result: expected a tuple, got a list
    """
    if want is None or got is None:
        if want is not got:
            raise Mismatch(f"{path}: expected {want!r}, got {got!r}")
        return
    wt, gt = want["t"], got["t"]
    if wt != gt:
        raise Mismatch(f"{path}: expected a {wt}, got a {gt}")
    if wt in ("tuple", "list"):
        if len(want["items"]) != len(got["items"]):
            raise Mismatch(f"{path}: expected {len(want['items'])} items, got {len(got['items'])}")
        for i, (a, b) in enumerate(zip(want["items"], got["items"])):
            compare(a, b, rtol, atol, f"{path}[{i}]")
    elif wt == "dict":
        if set(want["items"]) != set(got["items"]):
            raise Mismatch(f"{path}: expected keys {sorted(want['items'])}, got {sorted(got['items'])}")
        for k in want["items"]:
            compare(want["items"][k], got["items"][k], rtol, atol, f"{path}[{k!r}]")
    elif wt in ("tensor", "parameter", "ndarray"):
        for key in ("dtype", "shape"):
            if want[key] != got[key]:
                raise Mismatch(f"{path}: expected {key} {want[key]}, got {got[key]}")
        if str(want["dtype"]).lstrip("<>|=")[:1] in ("U", "S"):  # numpy strings and bytes: exactly
            if want["data"] != got["data"]:
                raise Mismatch(f"{path}: values differ:\n  expected {want['data'][:12]}\n  got      {got['data'][:12]}")
            return
        if not _close(want["data"], got["data"], rtol, atol):
            raise Mismatch(f"{path}: values differ:\n  expected {want['data'][:12]}\n  got      {got['data'][:12]}")
    elif wt == "float":
        if not _close([want["v"]], [got["v"]], rtol, atol):
            raise Mismatch(f"{path}: expected {want['v']}, got {got['v']}")
    elif want.get("v") != got.get("v"):
        raise Mismatch(f"{path}: expected {want.get('v')!r}, got {got.get('v')!r}")
