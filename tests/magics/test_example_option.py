"""``--example`` (and ``--out-shape``/``--out-dtype``) take a Python expression as written, quotes optional: the
expression runs to the next option of the magic, so spaces, brackets and negative numbers in it are fine; a name
or names of the notebook are expressions too. In a real IPython shell."""
from __future__ import annotations

import pytest

from mskernel.cells.options import take_expressions

SOFTCLIP = """
def {name}(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] / (1.0 + abs(x[i]))
    return y
"""


def _cell(name: str, options: str) -> str:
    return f"%%custom_op {name} {options}" + SOFTCLIP.format(name=name)


def test_an_unquoted_expression_with_spaces_and_negative_numbers(shell, run):
    ran = run(_cell("clip_a", "--example (ms.Tensor(np.linspace(-3, 3, 7).astype(np.float32)),) --check"))
    assert ran.success, ran.error
    assert "check_kernel(clip_a): ok" in ran.text()
    assert shell.user_ns["clip_a"] is not None


def test_a_name_or_names_of_the_notebook(shell, run):
    assert run("v = ms.Tensor(np.linspace(-1, 1, 5).astype(np.float32))\nw = v").success
    assert run(_cell("clip_b", "--example v --check")).success
    ran = run(_cell("clip_c", "--check --example v, w"))  # two names: two inputs, which this kernel refuses
    assert not ran.success and "the kernel takes 1 inputs, but got 2 tensors" in ran.text()


def test_quoted_expressions_still_work(run):
    ran = run(_cell("clip_d", "--example \"ms.Tensor(np.ones(3, np.float32))\" --check"))
    assert ran.success and "check_kernel(clip_d): ok" in ran.text()


@pytest.mark.parametrize("line, rest, found", [
    ("op --example x", "op", {"example": "x"}),
    ("op --example=(a, b) --force", "op --force", {"example": "(a, b)"}),
    ("op --example f(-1, [2, 3]) -c -O3", "op -c -O3", {"example": "f(-1, [2, 3])"}),
    ("op --example 'a --force' --quiet", "op --quiet", {"example": "'a --force'"}),
    ("op --out-shape (x.shape[0], 2) --out-dtype np.float32", "op", {"out_shape": "(x.shape[0], 2)",
                                                                       "out_dtype": "np.float32"}),
    ("op --bprop g", "op --bprop g", {}),
])
def test_take_expressions(line, rest, found):
    assert take_expressions(line) == (rest, found)
