"""%kernel_bench in a real IPython shell: the text with its method, the figure, sweeps, and one-line errors."""
from __future__ import annotations

from IPython.core.error import UsageError

FAST = "--warmup 0 --max-rounds 3"


def test_kernel_bench_shows_text_and_figure(run):
    r = run("kb_x = ms.Tensor(np.linspace(-1, 1, 64).astype(np.float32))\n"
            f"%kernel_bench ms.ops.square 'lambda a: a * a' --on kb_x --no-flush {FAST} -o kb_result")
    assert r.success, r.error
    text = r.text()
    assert "benchmark ms.ops.square/lambda a: a * a: 2 implementation(s) on (float32[64])" in text
    assert "agreement: lambda a: a * a match ms.ops.square on values and gradients" in text
    assert "method: warm-up 0 s per implementation (time budget)" in text and "environment: " in text
    assert any("image/png" in o.data for o in r.outputs)
    kept = run("print(type(kb_result).__name__, kb_result.names)")
    assert kept.stdout.strip() == "BenchResult ['ms.ops.square', 'lambda a: a * a']"


def test_kernel_bench_text_only_and_sweep(run):
    r = run("def kb_make(n):\n    return np.ones(n)\n"
            f"%kernel_bench np.negative np.positive --no-check --sizes '[8, 64]' --inputs kb_make --text {FAST}")
    assert r.success, r.error
    assert not any("image/png" in o.data for o in r.outputs)
    lines = r.text().splitlines()
    assert lines[0] == "sweep np.negative/np.positive over size: median time per call"
    assert [ln.split()[0] for ln in lines[2:4]] == ["8", "64"]


def test_kernel_bench_refuses_disagreeing_implementations(run):
    r = run("kb_x = ms.Tensor(np.linspace(-1, 1, 64).astype(np.float32))\n"
            f"%kernel_bench 'lambda a: a * a' 'lambda a: a * a + 1' --on kb_x {FAST}")
    assert not r.success and isinstance(r.error, UsageError)
    assert "'lambda a: a * a + 1' differs from 'lambda a: a * a' in output 0 at index (31,)" in str(r.error)
    assert "64 of 64 elements differ" in str(r.error)


def test_kernel_bench_usage_errors(run):
    cases = {
        "%kernel_bench np.negative": "say what to run on: --on ARGS",
        "%kernel_bench np.negative --sizes '[1]'": "a sweep needs both --sizes and --inputs",
        "%kernel_bench kb_missing --on kb_x": "cannot evaluate the implementation 'kb_missing': NameError",
        "%kernel_bench np.negative --on kb_x --sizes '[1]' --inputs kb_make": "either --on (fixed inputs) or",
    }
    for line, message in cases.items():
        r = run(line)
        assert not r.success and isinstance(r.error, UsageError), line
        assert message in str(r.error), (line, str(r.error))
