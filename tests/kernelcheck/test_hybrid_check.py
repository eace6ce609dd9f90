"""ms.check_kernel on hybrid kernels: every finding kind, located; judged against an oracle that shares no code
with the checked build (tests/kernelcheck/access_oracle.py: the kernel run as Python, every access logged, races
decided pairwise) and against numpy."""
from __future__ import annotations

import ast
import inspect
import random
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mskernel as ms
from mskernel.cells import CellOptions
from mskernel.cells.hybrid_cell import compile_hybrid
from mskernel.hybrid import HybridKernel
from tests.hybrid.autodiff.test_random_kernels import random_kernel
from tests.hybrid.corpus import CASES
from tests.kernelcheck.access_oracle import Access, trace

TUTORIALS = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "restored"


def _kernel(text: str, name: str = "k") -> HybridKernel:
    return HybridKernel.from_source(textwrap.dedent(text), name, filename=f"<cell {name}>")


def _diverging(a: Access, b: Access) -> tuple[int, int]:
    for (ea, va), (eb, vb) in zip(a.stack, b.stack):
        if va != vb:
            return va, vb
    raise AssertionError("not concurrent")


def assert_agrees(check: ms.KernelCheck, hk: HybridKernel, source: str, tensors: list, attrs: list = (),
                  first_line: int = 1) -> None:
    """The check's findings are the oracle's: the same uninitialised reads (tensor, line), the same unwritten
    elements per output, races on the same tensors, and each race reported is a pair the oracle saw."""
    allocs = {a.loc[0]: n for n, a in hk.ir.allocs.items()}
    tr = trace(source, hk.name, [np.asarray(t) for t in tensors], list(attrs), first_line, allocs)
    assert {(f.tensor, f.line) for f in check.of_kind("uninitialised-read")} == tr.uninitialised_reads()
    assert {f.tensor: f.count for f in check.of_kind("unwritten-output")} == tr.unwritten()
    pairs = tr.races()
    assert {f.tensor for f in check.of_kind("race")} == {b.tensor for _, b in pairs}
    for f in check.of_kind("race"):
        seen = [(a, b) for a, b in pairs if b.tensor == f.tensor and b.index == f.index and b.line == f.line]
        assert any(_diverging(a, b) == f.iterations for a, b in seen), (f, seen[:3])
    assert not check.of_kind("out-of-bounds")


# -- each kind, located -------------------------------------------------------------------------------------
SUM = """
def total(x):
    y = output_tensor((1,), x.dtype)
    for i in parallel(x.shape[0]):
        y[0] = y[0] + x[i]
    return y
"""


def test_a_parallel_sum_into_one_element_is_a_race_and_an_uninitialised_read():
    hk = _kernel(SUM, "total")
    x = np.arange(1, 6, dtype=np.float32)
    check = ms.check_kernel(hk, x)
    assert not check.ok and not check
    race, uninit = check.findings
    assert (race.kind, race.tensor, race.index, race.line, race.loop, race.iterations) == \
        ("race", "y", (0,), 5, "i", (0, 1))
    assert race.file == "<cell total>" and race.source.strip() == "y[0] = y[0] + x[i]"
    assert "iteration i=0" in race.message and "iteration i=1" in race.message and "line 4" in race.message
    assert (uninit.kind, uninit.tensor, uninit.index, uninit.line) == ("uninitialised-read", "y", (0,), 5)
    assert "output_tensor at line 3" in uninit.message
    assert np.isnan(check.outputs[0][0])  # poisoned, not the emulation's zeros: the sum is lost
    assert hk.run([x])[0][0] == 15  # while the ordinary build runs it serially and gets the exact sum
    assert_agrees(check, hk, SUM, [x])


def test_a_clean_parallel_map_is_ok_and_computes_what_numpy_computes():
    hk = _kernel("""
    def square(x):
        y = output_tensor(x.shape, x.dtype)
        for i in parallel(x.shape[0]):
            for j in vectorize(x.shape[1]):
                y[i, j] = x[i, j] * x[i, j]
        return y
    """, "square")
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    check = ms.check_kernel(hk, x)
    assert check.ok and check.findings == []
    np.testing.assert_array_equal(check.outputs[0], x * x)
    assert str(check).startswith("check_kernel(square): ok, no findings (ran once, serially, on inputs of shape (5, 3)")
    assert "ok" in check._repr_html_() and "<table" not in check._repr_html_()


SCATTER = """
def scatter(x, idx):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[idx[i]] = x[i]
    return y
"""


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=8))
def test_a_data_dependent_scatter_races_exactly_when_the_indices_collide(values):
    hk = _kernel(SCATTER, "scatter")
    values = [v % len(values) for v in values]  # in bounds: y has one element per x
    idx = np.array(values, np.int64)
    x = np.arange(8, dtype=np.float64)[:len(values)] + 1
    check = ms.check_kernel(hk, x, idx)
    races = check.of_kind("race")
    seen: dict[int, int] = {}
    first = None
    for b, v in enumerate(values):
        if v in seen and first is None:
            first = (seen[v], b, v)
        seen[v] = b
    if first is None:
        assert races == []
    else:  # the first collision in the serial order: the element, the two iterations
        a, b, v = first
        assert [(r.index, r.iterations, r.line) for r in races] == [((v,), (a, b), 5)]
    unwritten = check.of_kind("unwritten-output")
    missing = len(values) - len(set(values))
    assert [u.count for u in unwritten] == ([missing] if missing else [])
    assert_agrees(check, hk, SCATTER, [x, idx])


def test_a_scratch_buffer_read_before_anything_wrote_it():
    src = """
    def shift(x):
        y = output_tensor(x.shape, x.dtype)
        t = allocate(x.shape, x.dtype)
        for i in range(x.shape[0] - 1):
            t[i + 1] = x[i]
        for i in range(x.shape[0]):
            y[i] = t[i]
        return y
    """
    hk = _kernel(src, "shift")
    x = np.arange(4, dtype=np.float32)
    check = ms.check_kernel(hk, x)
    [f] = check.findings
    assert (f.kind, f.tensor, f.index, f.line) == ("uninitialised-read", "t", (0,), 8)
    assert "allocate at line 4" in f.message
    assert np.isnan(check.outputs[0][0]) and list(check.outputs[0][1:]) == [0, 1, 2]
    assert_agrees(check, hk, textwrap.dedent(src), [x])


def test_an_output_element_never_written():
    src = """
    def head(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0] - 1):
            y[i] = x[i]
        return y
    """
    hk = _kernel(src, "head")
    check = ms.check_kernel(hk, np.arange(5, dtype=np.int32))
    [f] = check.findings
    assert (f.kind, f.tensor, f.index, f.line, f.count) == ("unwritten-output", "y", (4,), 3, 1)
    assert check.outputs[0][4] == np.int32(np.uint32(0xA5A5A5A5).view(np.int32))  # the poison, not 0


def test_an_index_out_of_bounds_stops_the_checked_run_and_is_reported():
    hk = _kernel("""
    def over(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i + 1] = x[i]
        return y
    """, "over")
    check = ms.check_kernel(hk, np.ones(3, np.float32))
    kinds = [f.kind for f in check.findings]
    assert kinds == ["out-of-bounds"]  # no unwritten-output: the run stopped at the bad access
    f = check.findings[0]
    assert (f.tensor, f.index, f.line) == ("y", (3,), 5) and "shape (3,)" in f.message
    assert "stopped" in " ".join(check.notes)


def test_nested_parallel_loops_race_in_the_inner_loop():
    src = """
    def rows(x):
        y = output_tensor((x.shape[0],), x.dtype)
        for i in parallel(x.shape[0]):
            y[i] = 0.0
            for j in parallel(x.shape[1]):
                y[i] = y[i] + x[i, j]
        return y
    """
    hk = _kernel(src, "rows")
    x = np.ones((3, 4))
    check = ms.check_kernel(hk, x)
    [race] = check.findings
    assert (race.kind, race.index, race.line, race.loop, race.iterations) == ("race", (0,), 7, "j", (0, 1))
    assert_agrees(check, hk, textwrap.dedent(src), [x])


def test_reduce_accumulation_and_private_temporaries_are_not_races():
    src = """
    def rowsum(x):
        y = output_tensor((x.shape[0],), x.dtype)
        for i in parallel(x.shape[0]):
            t = allocate((2,), x.dtype)
            t[0] = 0.0
            for k in reduce(x.shape[1]):
                t[0] = t[0] + x[i, k]
            y[i] = t[0]
        return y
    """
    hk = _kernel(src, "rowsum")
    x = np.arange(12.0).reshape(3, 4)
    check = ms.check_kernel(hk, x)
    assert check.ok, str(check)
    np.testing.assert_array_equal(check.outputs[0], x.sum(axis=1))


def test_a_read_of_a_neighbour_another_iteration_writes_is_a_race():
    src = """
    def shift_left(x):
        for i in parallel(x.shape[0] - 1):
            x[i] = x[i + 1]
        return x
    """
    hk = _kernel(src, "shift_left")
    x = np.arange(5, dtype=np.float32)
    check = ms.check_kernel(hk, x)
    [race] = check.findings
    assert (race.index, race.line, race.iterations) == ((1,), 4, (0, 1))
    assert "read by iteration i=0" in race.message and "written by iteration i=1" in race.message
    assert list(x) == [0, 1, 2, 3, 4]  # the caller's in-place input is not written by the check
    assert list(check.outputs[0]) == [1, 2, 3, 4, 4]
    assert_agrees(check, hk, textwrap.dedent(src), [np.arange(5, dtype=np.float32)])


def test_attributes_reach_the_checked_build():
    hk = _kernel("""
    def affine(x, a, n):
        y = output_tensor(x.shape, x.dtype)
        for i in parallel(x.shape[0]):
            y[i] = x[i] * a + n
        return y
    """, "affine")
    x = np.arange(4, dtype=np.float64)
    check = ms.check_kernel(hk, x, 2.5, 3)
    assert check.ok
    np.testing.assert_array_equal(check.outputs[0], x * 2.5 + 3)


# -- every way a hybrid op is held ------------------------------------------------------------------------
def test_ops_custom_akg_and_hybrid_and_a_cell_op_are_checked():
    from mskernel.cells.hybrid_cell import remember_source

    ns: dict = {}
    remember_source("<sum>", textwrap.dedent(SUM), 1)  # ops.Custom reads a kernel's source, as from a file
    exec(compile(textwrap.dedent(SUM), "<sum>", "exec"), ns)
    akg = ms.ops.Custom(ns["total"], out_shape=lambda s: (1,), out_dtype=lambda d: d, func_type="akg")
    x = ms.Tensor(np.ones(3, np.float32))
    assert [f.kind for f in ms.check_kernel(akg, x).findings] == ["race", "uninitialised-read"]
    result = compile_hybrid("total", textwrap.dedent(SUM), CellOptions(lang="hybrid"), {}, filename="<cell total>",
                            first_line=2)
    [race, _] = ms.check_kernel(result.value, x).findings
    assert (race.file, race.line) == ("<cell total>", 6)  # the cell's own line numbers


def test_anything_else_is_refused_naming_what_is_accepted():
    with pytest.raises(TypeError, match=r"check_kernel: op must be a hybrid op .* or a C\+\+ op .* but got function"):
        ms.check_kernel(lambda x: x, np.ones(2))
    with pytest.raises(TypeError, match=r"takes 1 inputs .* got 2 tensors"):
        ms.check_kernel(_kernel(SUM, "total"), np.ones(2), np.ones(2))
    with pytest.raises(TypeError, match=r"but got ops.Custom with func_type 'pyfunc'"):
        ms.check_kernel(ms.ops.Custom(lambda x: x, lambda s: s, lambda d: d, func_type="pyfunc"), np.ones(2))
    with pytest.raises(TypeError, match=r"its parameter x is an attribute: it must be a bool, int or float .* "
                                        r"but got str 'abc'"):
        ms.check_kernel(_kernel(SUM, "total"), "abc")


# -- clean kernels stay clean; every verdict is the oracle's ---------------------------------------------
# range_steps writes every third element of y and returns the rest as the emulation's zeros: on a device those
# elements are whatever the memory held. The checker is right to say so.
DEVICE_UNSAFE = {"range_steps": {"unwritten-output"}}


@pytest.mark.parametrize("name", sorted(CASES))
def test_corpus_kernels(name):
    case = CASES[name]
    hk = HybridKernel.from_function(case.func)
    tensors, attrs = case.inputs(np.random.default_rng(3), case.dtypes[0], 6, 4)
    check = ms.check_kernel(hk, *tensors, *attrs)
    assert {f.kind for f in check.findings} == DEVICE_UNSAFE.get(name, set()), str(check)
    lines, start = inspect.getsourcelines(case.func)
    assert_agrees(check, hk, "".join(lines), tensors, attrs, first_line=start)
    if check.ok:
        for got, want in zip(check.outputs, case.reference(*tensors, *attrs)):
            np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-5)


@pytest.mark.skipif(not TUTORIALS.is_dir(), reason=f"MindSpore's tutorials are read from {TUTORIALS}")
def test_the_tutorial_kernels():
    """The akg tutorial's forward reads its output before writing it (y[i0] = y[i0] * y[i0]): MindSpore's
    emulation returns zeros, a device returns garbage. Its backward is clean."""
    text = (TUTORIALS / "seed_003_akg_bprop.py").read_text()
    defs = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}
    x = np.array([1.0, 2.0, 3.0], np.float32)
    for name, args, kinds in (("square", [x], {"uninitialised-read"}), ("square_grad", [x, x], set())):
        node = defs[name]
        source = "\n".join(text.splitlines()[node.lineno - 1:node.end_lineno]) + "\n"
        hk = HybridKernel.from_source(source, name, filename="seed_003_akg_bprop.py", first_line=node.lineno)
        check = ms.check_kernel(hk, *args)
        assert {f.kind for f in check.findings} == kinds, str(check)
        assert_agrees(check, hk, source, args, first_line=node.lineno)
        if kinds:
            assert check.findings[0].line == node.lineno + 3


def parallel_kernel(seed: int) -> str:
    """A random kernel over parallel loops: shared and private writes, neighbours, data-dependent indices,
    reduce loops, nested parallel loops, temporaries inside and outside the loop, initialised or not."""
    r = random.Random(seed)
    n = "x.shape[0]"
    index = lambda: r.choice(["i", "i", f"(i + 1) % {n}", f"(i * 2) % {n}", "0", f"idx[i] % {n}"])  # noqa: E731
    leaf = lambda: r.choice(["x[i]", f"x[{index()}]", f"y[{index()}]", f"t[{index()}]", "1.5", "s"])  # noqa: E731
    expr = lambda: r.choice([leaf(), f"{leaf()} + {leaf()}", f"{leaf()} * 0.5"])  # noqa: E731
    body = ["s = x[i] * 2.0"]
    for u in range(r.randint(1, 4)):
        body += r.choice([
            lambda: [f"y[{index()}] = {expr()}"],
            lambda: [f"y[{index()}] = y[{index()}] + {expr()}"],
            lambda: [f"t[{index()}] = {expr()}"],
            lambda: [f"for k in reduce({n}):", f"    s = s + x[k] * {leaf()}"],
            lambda: [f"for j in parallel({n}):", f"    t[{r.choice(['j', 'i', '0'])}] = x[j] + {leaf()}"],
            lambda: [f"u{u} = allocate((2,), x.dtype)", f"u{u}[0] = {expr()}", f"y[i] = u{u}[0] + s"],
            lambda: ["if x[i] > 0.0:", f"    y[{index()}] = s"],
        ])()
    init = [f"    for i in range({n}):", "        y[i] = 0.0", "        t[i] = 0.0"] if r.random() < 0.5 else []
    return "\n".join(["def pk(x, idx):", "    y = output_tensor(x.shape, x.dtype)",
                      "    t = allocate(x.shape, x.dtype)", *init, f"    for i in parallel({n}):",
                      *(f"        {line}" for line in body), "    return y", ""])


@pytest.mark.parametrize("seed", range(120))
def test_random_parallel_kernels_agree_with_the_oracle(seed):
    source = parallel_kernel(seed)
    hk = HybridKernel.from_source(source, "pk", filename=f"<random {seed}>")
    rng = np.random.default_rng(seed)
    x, idx = rng.uniform(-1, 1, 6), rng.integers(0, 6, 6)
    assert_agrees(ms.check_kernel(hk, x, idx), hk, source, [x, idx])


@pytest.mark.parametrize("seed", range(1000, 1040))
def test_random_autodiff_kernels_and_their_derived_backward_agree_with_the_oracle(seed):
    from mskernel.hybrid.autodiff import backward_kernel

    source = random_kernel(seed)
    hk = HybridKernel.from_source(source, "rk", filename=f"<random kernel {seed}>")
    rng = np.random.default_rng(seed)
    x, w = rng.uniform(-2, 2, 5), rng.uniform(-2, 2, 5)
    assert_agrees(ms.check_kernel(hk, x, w), hk, source, [x, w])
    bk, bsource = backward_kernel(hk, hk.signature(["float64", "float64"], [1, 1]))
    args = [x, w, hk.run([x, w])[0], rng.standard_normal(5)]
    check = ms.check_kernel(bk, *args)
    assert not check.of_kind("race") and not check.of_kind("unwritten-output"), str(check)
    assert_agrees(check, bk, bk.dsl_text, args, first_line=bk.ir.def_line)
