"""The child process of a checked C++ run: ``python -m mskernel.kernelcheck._cpp_child DIR``.

:func:`mskernel.kernelcheck.cpp.check_cpp` starts it with the sanitizer runtime preloaded. ``DIR/call.json``
says what to call: ``path`` and ``module`` (the sanitized extension and its module name), ``function``
(an attribute of the module) and ``inputs``, each ``{"npy": file, "as": "tensor" | "array"}`` (a
``.npy`` file in DIR, passed as a :class:`mskernel.Tensor` or a numpy array) or ``{"json": value}``.
The child calls the function once and writes ``DIR/result.json``: ``{"outputs": [...]}`` (each
``{"npy": file, "as": "tensor" | "array"}``, ``{"json": value}`` or ``{"repr": text}``) or
``{"raised": "Type: message"}``. A sanitizer that stops the process leaves no result: its report on
stderr is what the parent reads.

Example:
    >>> import json, os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> _write_json(os.path.join(d, "r.json"), {"outputs": []})
    >>> json.load(open(os.path.join(d, "r.json")))
    {'outputs': []}
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

__all__ = ["main"]


def _write_json(path: str, value: Any) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f)
    os.replace(tmp, path)


def _output(directory: str, i: int, value: Any) -> dict:
    import numpy as np

    from mskernel.common.tensor import Tensor

    kind = "tensor" if isinstance(value, Tensor) else "array"
    if isinstance(value, Tensor):
        value = value.asnumpy()
    if isinstance(value, np.ndarray):
        name = f"out{i}.npy"
        np.save(os.path.join(directory, name), value, allow_pickle=False)
        return {"npy": name, "as": kind}
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return {"repr": repr(value)}
    return {"json": value}


def main(argv: list[str]) -> int:
    """Run the call described in ``argv[0]/call.json``; 0 when a result was written."""
    directory = argv[0]
    with open(os.path.join(directory, "call.json")) as f:
        spec = json.load(f)
    import numpy as np

    from mskernel.common.tensor import Tensor
    from mskernel.toolchain.loader import load_python_module

    module = load_python_module(spec["path"], spec["module"])
    function = getattr(module, spec["function"])
    args = []
    for item in spec["inputs"]:
        if "npy" in item:
            array = np.load(os.path.join(directory, item["npy"]), allow_pickle=False)
            args.append(Tensor(array) if item.get("as") == "tensor" else array)
        else:
            args.append(item["json"])
    print("mskernel check_kernel: calling", spec["function"], file=sys.stderr, flush=True)
    try:
        out = function(*args)
    except Exception as exc:  # the op's own error (a TORCH_CHECK, a wrong argument): the parent reports it
        _write_json(os.path.join(directory, "result.json"), {"raised": f"{type(exc).__name__}: {exc}"})
        return 0
    outs = out if isinstance(out, (tuple, list)) else (out,)
    _write_json(os.path.join(directory, "result.json"),
                {"outputs": [_output(directory, i, o) for i, o in enumerate(outs)]})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
