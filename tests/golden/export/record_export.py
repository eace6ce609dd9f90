"""Record what real MindSpore computes with exported ops (run by hand; the tests never need MindSpore).

    MSKERNEL_MS_VENV=/work/msvenv PYTHONPATH=. python tests/golden/export/record_export.py [CASE ...]

Outside the wheel, every case of ``export_cases.py`` is built with mskernel and exported
(``mskernel.export_mindspore``) into a temporary directory. Then, inside MindSpore 2.10's virtual
environment (``tests/golden/record.py`` makes it), each file is imported and run:

* hybrid: ``forward`` and ``backward`` through MindSpore's own ``@kernel`` emulator on the numpy
  inputs; then the whole ``op`` in PyNative with its bprop, MindSpore running each ``@kernel`` as
  ``func_type="pyfunc"`` (its documented way to run a DSL function as Python on the CPU; the
  registered attribute defaults are bound as the kernels' trailing arguments, since a pyfunc op takes
  tensors only), gradients by
  ``mindspore.grad`` of ``sum(out * dout)``;
* pyfunc: the op and its gradients the same way;
* C++: ``builder.load()`` compiles the sources with MindSpore's CustomOpBuilder, then the ``Op`` cell
  and its gradients.

Everything -- the exported text, inputs, douts, MindSpore's outputs or errors, and the wheel's table
of hybrid intrinsics -- goes to ``tests/golden/export/export.json``.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OUT = HERE / "export.json"


def encode(a) -> dict:
    import numpy as np

    a = np.asarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def decode(d: dict):
    import numpy as np

    return np.array(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def backward_args(text: str) -> list:
    """How ``backward`` is called: each parameter is ("input", k), ("output", k), ("dout", k) or ("attr", k)."""
    tree = ast.parse(text)
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    alias = {n.targets[0].id: n.value.id for n in tree.body if isinstance(n, ast.Assign)
             and isinstance(n.value, ast.Name) and isinstance(n.targets[0], ast.Name)}
    fwd, bwd = funcs[alias["forward"]], funcs.get(alias.get("backward", ""))
    if bwd is None:
        return []
    params = [a.arg for a in fwd.args.args]
    ret = next(n for n in ast.walk(fwd) if isinstance(n, ast.Return)).value
    outs = [e.id for e in (ret.elts if isinstance(ret, ast.Tuple) else [ret])]
    n_attr = len(ast.literal_eval(next(n.value for n in tree.body if isinstance(n, ast.Assign)
                                       and getattr(n.targets[0], "id", "") == "ATTRS"))) \
        if "ATTRS = " in text else 0
    n_tensor = len(params) - n_attr
    out, douts = [], 0
    bparams = [a.arg for a in bwd.args.args]
    for k, p in enumerate(bparams):
        if k >= len(bparams) - n_attr:
            out.append(["attr", k - (len(bparams) - n_attr)])
        elif p in params[:n_tensor] and k < n_tensor:
            out.append(["input", params.index(p)])
        elif p in outs and p not in params and not douts:
            out.append(["output", outs.index(p)])
        else:
            out.append(["dout", douts])
            douts += 1
    return out


def export_all(names: list, tmp: Path) -> dict:
    """Outside the wheel: build and export every case under ``tmp``; the job for the inside run."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from export_cases import CASES

    from mskernel.mindspore_export import export_mindspore

    job = {}
    for name in names:
        case = CASES[name]()
        example = (*case.inputs, *case.attrs)
        path = export_mindspore(case.op, tmp / name / ("op" if case.kind == "cpp" else f"{name}.py"), example=example)
        text = path.read_text() if path.is_file() else next(path.glob("*.py")).read_text()
        job[name] = {"kind": case.kind, "path": str(path), "text": text,
                     "inputs": [encode(a) for a in case.inputs], "attrs": list(case.attrs),
                     "douts": [encode(d) for d in case.douts],
                     "backward_args": backward_args(text) if case.kind == "hybrid" else []}
    return job


def batches(job: dict) -> list:
    """The cases split into runs in which no two export the same kernel (MindSpore keeps the registration
    a kernel got first in a process, so a second file with other dtypes would not be selected)."""
    out: list = []
    seen: dict = {}
    for name, case in job.items():
        m = re.search(r"^forward = (\w+)$", case["text"], re.MULTILINE)
        key = m.group(1) if m else name
        k = seen[key] = seen.get(key, -1) + 1
        while len(out) <= k:
            out.append({})
        out[k][name] = case
    return out


def _swap_hybrid_to_pyfunc(ops) -> None:
    import inspect
    import linecache

    """Make ``ops.Custom(..., func_type="hybrid")`` build a pyfunc op over the same @kernel function, with the
    registered attribute defaults appended to its arguments (MindSpore's CPU cannot compile hybrid kernels)."""
    original = ops.Custom

    def value(spec: dict):
        t, v = spec.get("type"), spec.get("defaultValue")
        return {"float": float, "int": int}.get(t, lambda s: s.lower() == "true")(v)

    class PyfuncCustom(original):
        def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
            if func_type == "hybrid":
                attrs = tuple(value(a) for a in (reg_info or {}).get("attr", []))
                if attrs:  # bound here: a pyfunc op takes tensors only (one parameter each)
                    names = list(inspect.signature(func).parameters)[:-len(attrs)]
                    scope = {"kernel_fn": func, "attrs": attrs}
                    args = ", ".join(names)
                    src = f"def {func.__name__}({args}):\n    return kernel_fn({args}, *attrs)\n"
                    filename = f"<pyfunc wrapper of {func.__name__}>"
                    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)  # its source
                    exec(compile(src, filename, "exec"), scope)  # noqa: S102 - the test's own wrapper
                    func, reg_info = scope[func.__name__], {**reg_info, "attr": []}
                func_type = "pyfunc"
            super().__init__(func, out_shape, out_dtype, func_type, bprop, reg_info)

    ops.Custom = PyfuncCustom


def run_inside(job: dict) -> dict:
    """Inside the wheel: import and run every exported op."""
    import importlib.util
    import traceback
    import warnings

    warnings.filterwarnings("ignore")
    import numpy as np
    import mindspore as ms
    from mindspore import ops
    from mindspore.ops.operations._ms_kernel import VariableUsage

    ms.set_device("CPU")
    _swap_hybrid_to_pyfunc(ops)
    results = {"mindspore": ms.__version__,
               "intrinsics": sorted(set(VariableUsage.intrin_runtime) | {"max", "min", "len"}),
               "cpu_unavailable": sorted(VariableUsage.intrin_cpu_not_support), "cases": {}}
    for name, c in job.items():
        rec = {k: c[k] for k in ("kind", "text", "inputs", "attrs", "douts", "backward_args")}
        inputs = [decode(a) for a in c["inputs"]]
        douts = [decode(d) for d in c["douts"]]
        try:
            path = Path(c["path"])
            if c["kind"] == "cpp":
                sys.path.insert(0, str(path))
                path = next(path.glob("*.py"))
            spec = importlib.util.spec_from_file_location(f"exported_{name}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            rec["import"] = "ok"
        except Exception:
            rec["import"] = traceback.format_exc()[-2000:]
            results["cases"][name] = rec
            print(f"{name}: IMPORT ERROR", file=sys.stderr)
            continue
        if c["kind"] == "hybrid":
            try:
                outs = mod.forward(*[a.copy() for a in inputs], *c["attrs"])
                outs = list(outs) if isinstance(outs, tuple) else [outs]
                rec["emulator_forward"] = [encode(o) for o in outs]
                if mod.backward is not None:
                    pools = {"input": inputs, "output": outs, "dout": douts, "attr": c["attrs"]}
                    args = [pools[kind][k] for kind, k in c["backward_args"]]
                    grads = mod.backward(*[a.copy() if hasattr(a, "copy") else a for a in args])
                    rec["emulator_backward"] = [encode(g) for g in (grads if isinstance(grads, tuple) else [grads])]
            except Exception:
                rec["emulator_error"] = traceback.format_exc()[-2000:]
        try:
            op = mod.Op() if c["kind"] == "cpp" else mod.op
            floats = [k for k, a in enumerate(inputs) if a.dtype.kind == "f"]

            def loss(*ts):
                out = op(*ts)
                out = out if isinstance(out, tuple) else (out,)
                return sum((o * ms.Tensor(d)).sum() for o, d in zip(out, douts))

            out = op(*[ms.Tensor(a.copy()) for a in inputs])
            rec["op_forward"] = [encode(o.asnumpy()) for o in (out if isinstance(out, tuple) else (out,))]
            if floats:
                g = ms.grad(loss, grad_position=tuple(floats))(*[ms.Tensor(a.copy()) for a in inputs])
                rec["op_grads"] = [encode(t.asnumpy()) for t in (g if isinstance(g, tuple) else (g,))]
        except Exception:
            rec["op_error"] = traceback.format_exc()[-2000:]
        results["cases"][name] = rec
        print(f"{name}: {'ok' if not any(k.endswith('error') for k in rec) else 'ERROR'}", file=sys.stderr)
    del np
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--inside", nargs=2, metavar=("JOB", "RESULT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inside:
        job = json.loads(Path(args.inside[0]).read_text())
        Path(args.inside[1]).write_text(json.dumps(run_inside(job)))
        return
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from export_cases import CASES

    sys.path.insert(0, str(HERE.parent))
    from record import ensure_venv

    names = args.cases or list(CASES)
    exports = tempfile.TemporaryDirectory(prefix="mskernel_export_")
    job = export_all(names, Path(exports.name))
    result: dict = {"cases": {}}
    for batch in batches(job):  # MindSpore registers a kernel's dtypes once per process: one export of each per run
        with tempfile.TemporaryDirectory() as tmp:
            jf, rf = Path(tmp) / "job.json", Path(tmp) / "result.json"
            jf.write_text(json.dumps(batch))
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the wheel's numpy and mindspore only
            subprocess.run([str(ensure_venv()), __file__, "--inside", str(jf), str(rf)], check=True, cwd=tmp, env=env)
            got = json.loads(rf.read_text())
        result = {**got, "cases": {**result["cases"], **got["cases"]}}
    exports.cleanup()
    if args.cases and OUT.exists():  # some cases again: keep the others
        old = json.loads(OUT.read_text())
        old["cases"].update(result["cases"])
        result["cases"] = old["cases"]
    OUT.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
