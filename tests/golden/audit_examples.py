"""Run MindSpore's own docstring examples under both MindSpore 2.10 and mskernel and compare what they print.

A development tool, not a test: MindSpore's example code stays in MindSpore's wheel (it is read from the
installed package's docstrings at run time and never copied into this tree), so it needs the wheel's
virtual environment (``$MSKERNEL_MS_VENV``, made by ``record.py``). Our own cases for the same behaviours
are the golden suites (``cases/transforms.py``, ``cell.py``, ...), which the tests run without the wheel.

    python tests/golden/audit_examples.py              # every API below; one line per example
    python tests/golden/audit_examples.py ops.jvp      # some of them
    python tests/golden/audit_examples.py --census     # every census op, primitive, Tensor method and nn name
    python tests/golden/audit_examples.py --surface    # every name of MindSpore's surface (compat_surface.json)

``--surface`` keeps the wheel's answers in ``~/.cache/mskernel/audit/`` (they hold MindSpore's example code,
so they stay outside the tree and are reused until the wheel changes) and writes what each name's examples
did, without their code, to ``mskernel/compat_audit.json``: the summary the compatibility page and the
README count from.

Each example runs in a fresh namespace with ``mindspore`` replaced by ``mskernel`` in its source; an
example agrees when the printed text is equal (numbers within 1e-4 relative, as the goldens compare).
Both sides run in a scratch directory that is deleted afterwards: what the examples write, and what the
wheel drops into its working directory (``rank_0/om/analyze_fail.ir`` when a graph fails to compile,
``kernel_meta/``), never lands in the checkout.
"""
from __future__ import annotations

import contextlib
import doctest
import io
import json
import linecache
import re
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, Iterator, List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: the autodiff, hook and tensor APIs whose examples the issue asks to run
APIS = ["ops.grad", "ops.value_and_grad", "ops.jvp", "ops.vjp", "ops.jacfwd", "ops.jacrev", "ops.vmap",
        "ops.GradOperation", "ops.HookBackward", "ops.InsertGradientOf", "ops.HyperMap", "ops.MultitypeFuncGraph",
        "ops.stop_gradient", "ops.Custom", "nn.Cell.register_forward_pre_hook", "nn.Cell.register_forward_hook",
        "nn.Cell.register_backward_hook", "nn.Cell.register_backward_pre_hook", "nn.Cell.bprop",
        "Tensor", "Tensor.from_numpy", "Tensor.asnumpy", "Tensor.init_data", "Parameter", "ParameterTuple",
        "set_seed", "ops.max", "ops.cumsum", "ops.split", "ops.tile", "ops.pad", "ops.gather", "ops.one_hot",
        "ops.topk", "ops.sort", "ops.arange", "ops.einsum", "ops.interpolate", "ops.norm", "ops.var",
        "Tensor.register_hook", "ops.depend", "ops.derivative", "jit", "mutable"]


def surface_apis() -> List[str]:
    """Every name of the recorded surface (mskernel/compat_surface.json), as API paths from ``mindspore``."""
    from mskernel.compat_surface import surface
    out = []
    for ns, names in surface().items():
        prefix = ns[len("mindspore"):].lstrip(".")
        out += [f"{prefix}.{n}" if prefix else n for n in names]
    return out


def census_apis() -> List[str]:
    """Every functional op, primitive and Tensor method of the census (mskernel/compat.py), as API paths."""
    from mskernel.compat import CENSUS
    return ([f"ops.{n}" for n in CENSUS["ops"]] + [f"ops.{n}" for n in CENSUS["primitives"]]
            + [f"Tensor.{n}" for n in CENSUS["tensor"]] + [f"nn.{n}" for n in CENSUS["nn"]])
_NUM = re.compile(r"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")


def _resolve(root, path: str):
    obj = root
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def extract(apis: List[str]) -> Dict[str, List[str]]:
    """Inside the wheel: each API's docstring examples, one program per docstring."""
    import mindspore
    out = {}
    parser = doctest.DocTestParser()
    for api in apis:
        try:
            doc = _resolve(mindspore, api).__doc__ or ""
        except AttributeError:
            continue
        examples = parser.get_examples(doc)
        if examples:
            out[api] = [e.source for e in examples]
    return out


#: what MindSpore's docs pages import before their examples (many docstrings use these names unimported)
PRELUDE = ("import numpy as np\nimport mindspore\nimport mindspore as ms\nfrom mindspore import Tensor, Parameter, "
           "ParameterTuple, nn, ops, context\nfrom mindspore import dtype as mstype\n"
           "from mindspore.ops import operations as P\n")


def run(statements: List[str], module_name: str) -> Dict[str, str]:
    """Run one docstring's examples as an interactive session (expressions show their repr, as doctest
    does); the printed text, or the text up to the exception and the exception."""
    import numpy as np
    buf = io.StringIO()
    np.random.seed(0)
    namespace = {"__name__": "__main__"}
    try:
        with contextlib.redirect_stdout(buf):
            prelude = PRELUDE.replace("mindspore", module_name)
            exec(compile(prelude, "<prelude>", "exec"), namespace)  # noqa: S102 (imports)
            for k, source in enumerate(statements):
                if module_name == "mskernel":
                    source = re.sub(r"\bmindspore\b", "mskernel", source)
                name = f"<example {abs(hash(source))}:{k}>"
                linecache.cache[name] = (len(source), None, source.splitlines(True), name)  # for inspect
                exec(compile(source, name, "single"), namespace)  # noqa: S102 (an example)
    except Exception as e:  # noqa: BLE001 (the example's own failure is its result)
        return {"stdout": buf.getvalue(), "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    return {"stdout": buf.getvalue()}


def _timed(statements: List[str], module_name: str, seconds: int = 30) -> Dict[str, str]:
    """:func:`run` with a time limit (some examples train for a while or wait on devices)."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"the example ran longer than {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        return run(statements, module_name)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _same(a: str, b: str) -> bool:
    a, b = (re.sub(r"\[\s+", "[", re.sub(r"\s+\]", "]", t)) for t in (a, b))  # numpy pads to the widest number
    a, b = (re.sub(r" at 0x[0-9a-f]+", " at 0x", t) for t in (a, b))  # object addresses differ between processes
    if _NUM.sub("#", " ".join(a.split())) != _NUM.sub("#", " ".join(b.split())):
        return False
    for x, y in zip(_NUM.findall(a), _NUM.findall(b)):
        if abs(float(x) - float(y)) > 1e-4 * max(1.0, abs(float(x))):
            return False
    return True


@contextlib.contextmanager
def _in_scratch_dir() -> Iterator[Path]:
    """Work in a fresh temporary directory (the current one while inside), deleted afterwards."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="mskernel-audit-") as scratch:
        os.chdir(scratch)
        try:
            yield Path(scratch)
        finally:
            os.chdir(before)


def _record_in_wheel(py: str, apis: List[str], hang: int = 300, args: tuple = ("--inside",)) -> Dict[str, dict]:
    """Run the examples in the wheel's environment. An example stuck in native code (no Python-level
    timeout stops it) makes the run exceed ``hang`` seconds: it is recorded as hung and the rest run again."""
    done: Dict[str, dict] = {}
    todo = list(apis)
    while todo:
        timed_out = False
        try:
            out = subprocess.run([py, str(Path(__file__).resolve()), *args, *todo], capture_output=True,
                                 text=True, timeout=hang).stdout  # in the caller's scratch directory
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            timed_out = True
        else:
            timed_out = any(a not in out for a in todo[-1:])  # a crash ends the process early
        for line in out.splitlines():
            if line.startswith("{"):
                rec = json.loads(line)
                done[rec.pop("api")] = rec
        todo = [a for a in todo if a not in done]
        if not timed_out:
            break
        if todo:  # the first one not answered hung (or crashed the process)
            done[todo.pop(0)] = {"source": ["(hung)"], "stdout": "", "error": "TimeoutError: hung or crashed"}
    return {a: r for a, r in done.items() if r.get("source")}


def main(argv: List[str]) -> int:
    if argv[:1] == ["--inside"]:
        progs = extract(argv[1:] or APIS)
        for api in argv[1:] or APIS:  # one JSON line per API, as it finishes (an empty source: no example)
            src = progs.get(api, [])
            print(json.dumps({"api": api, "source": src, **(_timed(src, "mindspore") if src else {})}), flush=True)
        return 0
    if argv[:1] == ["--ours"]:  # inside our own interpreter: the wheel's examples, read from a file
        progs = json.loads(Path(argv[1]).read_text())
        for api in argv[2:]:
            rec = _timed(progs[api], "mskernel")
            rec["stdout"] = rec["stdout"].replace("mskernel", "mindspore")
            print(json.dumps({"api": api, "source": progs[api], **rec}), flush=True)
        return 0
    if argv[:1] == ["--surface"]:
        from record import ensure_venv
        py = ensure_venv()
        with _in_scratch_dir():
            return _surface(str(py), argv[1:] or surface_apis())
    if argv[:1] == ["--census"]:
        argv = census_apis()
    from record import ensure_venv
    py = ensure_venv()
    with _in_scratch_dir():
        return _compare(str(py), argv or APIS)


def _compare(py: str, apis: List[str]) -> int:
    """Run each API's examples in the wheel, then here; print one line per example and the count that agree."""
    wheel = _record_in_wheel(py, apis)
    agree = 0
    for api, rec in wheel.items():
        if rec.get("error", "").startswith("TimeoutError"):
            print(f"skip   {api}  (the wheel's example ran over its time limit)")
            continue
        ours = _timed(rec["source"], "mskernel")
        ours["stdout"] = ours["stdout"].replace("mskernel", "mindspore")  # the module's own name, as swapped
        ok = ("error" in rec) == ("error" in ours) and _same(rec["stdout"], ours["stdout"])
        agree += ok
        detail = "" if ok else f"  wheel: {rec.get('error') or rec['stdout'][:80]!r}  mskernel: " \
                               f"{ours.get('error') or ours['stdout'][:80]!r}"
        print(f"{'agree ' if ok else 'DIFFER'} {api}{detail}")
    print(f"{agree} of {len(wheel)} examples agree")
    return 0


SUMMARY = HERE.parents[1] / "mskernel" / "compat_audit.json"
WHEEL_CACHE = Path.home() / ".cache" / "mskernel" / "audit"


def _state(wheel: dict, ours: dict, again: Optional[dict] = None) -> List[str]:
    """[state, detail] of one API's examples: ``agree``, ``differ``, ``wheel-fails`` (the CPU wheel itself
    raises: not counted), ``wheel-varies`` (``again``, the wheel's second run in a fresh process, printed
    something else than its first: unseeded random numbers, addresses, the time; not counted), ``hung`` or
    ``no-example``."""
    if not wheel.get("source"):
        return ["no-example", ""]
    if wheel.get("error", "").startswith("TimeoutError"):
        return ["hung", "the wheel's example ran over its time limit"]
    if "error" in wheel:
        return ["wheel-fails", wheel["error"][:160]]
    if "error" not in ours and _same(wheel["stdout"], ours["stdout"]):
        return ["agree", ""]
    if again is not None and "error" not in again and not _same(wheel["stdout"], again["stdout"]):
        first, second = (" ".join(r["stdout"].split())[:70] for r in (wheel, again))
        return ["wheel-varies", f"the wheel printed {first} then {second}"]
    return ["differ", (ours.get("error") or "prints " + " ".join(ours["stdout"].split())[:100])[:160]]


def _second_wheel_run(py: str, apis: List[str]) -> Dict[str, dict]:
    """The wheel's answers for ``apis`` from a second run in a fresh process (cached beside the first), to tell
    an example the wheel itself cannot repeat from one mskernel prints differently."""
    cache_file = WHEEL_CACHE / "wheel-2.10-again.json"
    again = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    todo = [a for a in apis if a not in again]
    if todo:
        got = _record_in_wheel(py, todo)
        again.update({a: got.get(a, {"source": []}) for a in todo})
        cache_file.write_text(json.dumps(again))
    return {a: again[a] for a in apis if again[a].get("source")}


def _surface(py: str, apis: List[str], chunk: int = 150) -> int:
    """The whole surface: the wheel's answers (cached), ours, and the summary written to ``SUMMARY``."""
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
    cache_file = WHEEL_CACHE / "wheel-2.10.json"
    wheel = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    todo = [a for a in apis if a not in wheel]
    for k in range(0, len(todo), chunk):  # saved after each chunk: a long run can stop and go on
        part = todo[k:k + chunk]
        got = _record_in_wheel(py, part)
        wheel.update({a: got.get(a, {"source": []}) for a in part})
        cache_file.write_text(json.dumps(wheel))
        print(f"wheel: {min(k + chunk, len(todo))} of {len(todo)}", file=sys.stderr, flush=True)
    runnable = [a for a in apis if wheel[a].get("source") and "error" not in wheel[a]]
    progs_file = Path("programs.json")
    progs_file.write_text(json.dumps({a: wheel[a]["source"] for a in runnable}))
    ours: Dict[str, dict] = {}
    for k in range(0, len(runnable), chunk):
        ours.update(_record_in_wheel(sys.executable, runnable[k:k + chunk], hang=600,
                                     args=("--ours", str(progs_file.resolve()))))
        print(f"mskernel: {min(k + chunk, len(runnable))} of {len(runnable)}", file=sys.stderr, flush=True)
    differ = [a for a in runnable if _state(wheel[a], ours.get(a, {"error": "no answer"}))[0] == "differ"]
    again = _second_wheel_run(py, differ)
    old = json.loads(SUMMARY.read_text()) if SUMMARY.exists() else {}
    old.update({a: _state(wheel[a], ours.get(a, {"error": "no answer"}), again.get(a)) for a in apis})
    SUMMARY.write_text("{\n" + ",\n".join(f"{json.dumps(a)}: {json.dumps(v)}" for a, v in sorted(old.items()))
                       + "\n}\n")
    states: Dict[str, int] = {}
    for a in apis:
        states[old[a][0]] = states.get(old[a][0], 0) + 1
    print(", ".join(f"{n} {k}" for k, n in sorted(states.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
