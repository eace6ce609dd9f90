"""MindSpore's own docstring examples, run under mskernel: what each name's examples did.

``compat_audit.json`` beside this module is written by ``tests/golden/audit_examples.py --surface``: for every
public name of MindSpore 2.10 (:mod:`mskernel.compat_surface`), MindSpore's docstring examples were run in the
CPU wheel and, with ``mindspore`` replaced by ``mskernel``, here; the printed text is compared (numbers within
1e-4 relative). Each name has one state:

* ``agree``: the wheel ran its examples and mskernel printed the same;
* ``differ``: the wheel ran them and mskernel printed something else or raised (the detail says what);
* ``wheel-fails``: the CPU wheel itself raises on them (a device it lacks, a file or model the example only
  names, a kernel with no CPU implementation): not counted;
* ``wheel-varies``: run twice in fresh processes, the wheel printed two different texts (unseeded random
  numbers, an object's address, the time), so no program can print "the same": not counted;
* ``hung``: the wheel's example did not finish: not counted;
* ``no-example``: the docstring has none.

The examples' code stays in MindSpore's wheel (the audit reads it from the installed package), so only these
states are stored. :data:`REASONS` says, for the examples that differ on purpose or by nature, why.

Example:
    >>> agree, runnable = totals()
    >>> 0 < agree <= runnable
    True
    >>> state("ops.exp")[0] in STATES
    True
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Dict, List, Tuple

__all__ = ["STATES", "REASONS", "load", "state", "totals", "by_namespace", "reason", "markdown_lines"]

#: the states an API's examples can be in
STATES = ("agree", "differ", "wheel-fails", "wheel-varies", "hung", "no-example")
_DATA = Path(__file__).with_name("compat_audit.json")

_RANDOM = ("its example prints random numbers: mskernel's generator is seeded like MindSpore's but is not the "
           "wheel's Philox stream, so the values differ (shapes, dtypes and ranges agree)")
_NAN = ("a NaN meets a comparison: mskernel propagates NaN, the wheel's CPU kernel drops or keeps it by position "
        "(the golden suite edge_values documents each case)")
_TANH = ("the wheel's CPU float32 tanh is a fast approximation (tanh(5) = 1.0000098 > 1); mskernel's is exact to "
         "float32, as a numpy float64 oracle shows")

#: why an API's examples differ, where that is a decision or the nature of the example
REASONS: Dict[str, str] = {
    **{api: _RANDOM for api in (
        "ops.StandardNormal", "ops.randperm", "nn.EmbeddingExt", "ops.LogUniformCandidateSampler",
        "ops.log_uniform_candidate_sampler", "ops.Multinomial", "ops.MultinomialWithReplacement",
        "ops.multinomial_with_replacement", "ops.ParameterizedTruncatedNormal", "dataset.vision.RandomRotation",
        "nn.SampledSoftmaxLoss", "ops.SampleDistortedBoundingBoxV2")},
    "ops.CTCLoss": ("its example gives a label equal to the blank class (the last one); the gradients agree, but the "
                    "wheel's loss for that label is not the CTC loss of its documented formula, and how its kernel "
                    "arrives at it is not known (mskernel computes the documented loss; golden ops_recurrent_prims "
                    "checks the other labels)"),
    **{api: ("the wheel's CPU kernel returns the result but leaves the tensor unchanged; mskernel writes it in "
             "place, as the method's trailing underscore and MindSpore's documentation say")
       for api in ("Tensor.mul_", "Tensor.remainder_", "Tensor.floor_divide_")},
    "ops.fft": ("a float32 last digit (-0.5885514 against -0.58855134) changes how numpy spaces the complex "
                "columns; the values agree to 1e-7"),
    "ops.FFTWithSize": ("the wheel prints float32 rounding noise (-2.38e-07) where the exact value is 0; the "
                        "values agree to 1e-6"),
    "run_check": "it reports mskernel's own version and says it is mskernel, not MindSpore",
    "register_saved_tensors_hooks": ("the example runs the hooks under jit, where the wheel compiles them into its "
                                     "graph and their Python print never runs; mskernel's jit runs eagerly, so the "
                                     "packing/unpacking lines show (the gradients agree)"),
    "ops.aminmax": _NAN,
    "ops.tanh": _TANH, "mint.tanh": _TANH, "mint.nn.functional.tanh": _TANH,
    "ops.Print": ("the wheel's Print writes from C++ straight to the process's stdout, which the audit (capturing "
                  "Python's) does not see; mskernel prints the same text through Python"),
    "nn.ForwardValueAndGrad": ("SoftmaxCrossEntropyWithLogits with labels summing to 2: the wheel's gradient is "
                               "softmax - labels (exact only for labels summing to 1) and none for the labels; "
                               "mskernel's is the derivative, as float64 differences confirm"),
}


@functools.lru_cache(maxsize=None)
def load() -> Dict[str, Tuple[str, str]]:
    """API path (relative to ``mindspore``) → (state, detail), as the audit wrote it.

    Example:
        >>> load()["ops.exp"][0] in STATES
        True
    """
    return {api: (st, detail) for api, (st, detail) in json.loads(_DATA.read_text()).items()}


def state(api: str) -> Tuple[str, str]:
    """(state, detail) of one API's examples.

    Example:
        >>> state("no.such.api")
        ('no-example', '')
    """
    return load().get(api, ("no-example", ""))


def namespace_of(api: str) -> str:
    """MindSpore's namespace of an API path: the longest recorded namespace it lies in.

    Example:
        >>> namespace_of("mint.nn.functional.relu"), namespace_of("ops.exp"), namespace_of("set_seed")
        ('mindspore.mint.nn.functional', 'mindspore.ops', 'mindspore')
    """
    from mskernel.compat_surface import surface
    for ns in sorted(surface(), key=len, reverse=True):
        prefix = ns[len("mindspore."):] if ns != "mindspore" else ""
        if prefix and api.startswith(prefix + ".") and api[len(prefix) + 1:] in surface()[ns]:
            return ns
    return "mindspore"


def by_namespace() -> Dict[str, Dict[str, int]]:
    """Namespace → state → number of APIs (every state present).

    Example:
        >>> c = by_namespace()["mindspore.ops"]
        >>> c["agree"] <= c["agree"] + c["differ"]
        True
    """
    out: Dict[str, Dict[str, int]] = {}
    for api, (st, _) in load().items():
        out.setdefault(namespace_of(api), {s: 0 for s in STATES})[st] += 1
    return out


def totals() -> Tuple[int, int]:
    """(examples that agree, examples the wheel runs): the audit's score.

    Example:
        >>> a, n = totals()
        >>> 0 <= a <= n
        True
    """
    states = [st for st, _ in load().values()]
    return states.count("agree"), states.count("agree") + states.count("differ")


def reason(api: str) -> str:
    """Why an API's examples differ: :data:`REASONS`, else "missing in mskernel" for a name mskernel lacks, else
    the audit's detail (what mskernel printed or raised).

    Example:
        >>> reason("ops.StandardNormal").startswith("its example prints random numbers")
        True
    """
    if api in REASONS:
        return REASONS[api]
    from mskernel.compat_surface import status
    ns = namespace_of(api)
    name = api[len(ns) - len("mindspore"):].lstrip(".") if ns != "mindspore" else api
    try:
        st = status(ns, name)[0]
    except KeyError:
        st = "runs"
    if st == "missing":
        return "missing in mskernel"
    if st == "refused":
        return "refused: " + status(ns, name)[1]
    detail = state(api)[1]
    if detail.startswith("RefusedError"):
        return "it uses a refused name: " + detail.split(": ", 1)[1]
    return detail or "prints something else"


def markdown_lines() -> List[str]:
    """The audit's part of the compatibility page: the score overall and per namespace, then every API whose
    examples the wheel runs and mskernel does not print the same, with the reason.

    Example:
        >>> markdown_lines()[0]
        "## MindSpore's own examples"
    """
    agree, runnable = totals()
    table = by_namespace()
    out = ["## MindSpore's own examples", "",
           "Every docstring example of every public name above was run in MindSpore 2.10's CPU wheel and, with "
           "`mindspore` replaced by `mskernel`, here (`python tests/golden/audit_examples.py --surface`; the "
           "examples' code is read from the installed wheel, only the outcome is stored in "
           "`mskernel/compat_audit.json`). An example *agrees* when it prints the same text, numbers within 1e-4 "
           "relative. Examples the CPU wheel itself cannot run (a device it lacks, files or models the example "
           "only names), and examples the wheel prints differently each time it runs them (unseeded random numbers, "
           "addresses: run twice in fresh processes, its two outputs differ), are not counted.", "",
           f"**{agree} of {runnable} runnable examples agree ({100.0 * agree / max(runnable, 1):.1f}%).**", "",
           "| namespace | agree | differ | agree % | wheel fails | wheel varies | no example |",
           "|---|---|---|---|---|---|---|"]
    for ns, c in sorted(table.items()):
        n = c["agree"] + c["differ"]
        pct = f"{100.0 * c['agree'] / n:.1f}" if n else "–"
        out.append(f"| `{ns}` | {c['agree']} | {c['differ']} | {pct} | {c['wheel-fails']} | {c['wheel-varies']} | "
                   f"{c['no-example']} |")
    out += ["", "### Examples that print something else", "", "| API | why |", "|---|---|"]
    for api, (st, _) in sorted(load().items()):
        if st == "differ":
            out.append(f"| `{api}` | {reason(api).replace('|', '/')} |")
    return out + [""]
