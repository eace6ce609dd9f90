"""Cells of notebooks/04_hybrid_kernels.ipynb: the akg hybrid DSL compiled to native code.

Every kernel here is this project's own (MindSpore's tutorials are run by tests/seeds, which reads them from
../shared/seeds); a tutorial must show its code in full, so `duplicates` pairs with tests, docs or benchmarks
are intended.
"""

CELLS = [
    ("md", """
# Hybrid (akg) kernels, compiled on your CPU

MindSpore's hybrid DSL lets you write an operator as Python loops over tensors. MindSpore
compiles it with AKG and cannot run it on a CPU; mskernel compiles it to C++ in place — in well
under a second — and runs it on the tensors' own buffers. The same function also runs as plain
Python on numpy arrays, which is the reference semantics.
"""),
    ("code", """
import numpy as np
import mskernel as ms
from mskernel import ops
from mskernel.ops import kernel
"""),
    ("md", """
## An akg op with an akg bprop, written for the GPU

An `akg` op may be a plain function: `output_tensor` is a DSL intrinsic, not a Python name. Here
`softsign(x) = x / (1 + |x|)`, and its bprop calls a second akg op (created once, outside the bprop
function) computing `dout / (1 + |x|)²`. The context asks for a GPU, as code written for one does.
"""),
    ("code", """
ms.set_context(mode=ms.GRAPH_MODE, device_target="GPU")

def softsign(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] / (1.0 + abs(x[i]))
    return y

def softsign_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        d = 1.0 + abs(x[i])
        dx[i] = dout[i] / (d * d)
    return dx

softsign_grad_op = ops.Custom(softsign_grad, lambda x, _: x, lambda x, _: x, func_type="akg")

def softsign_bprop(x, out, dout):
    return (softsign_grad_op(x, dout),)

class Softsign(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.Custom(softsign, lambda x: x, lambda x: x, bprop=softsign_bprop, func_type="akg")

    def construct(self, x):
        return self.op(x)

x = ms.Tensor(np.array([-3.0, 0.0, 1.0], np.float32))
print(Softsign()(x), ms.grad(Softsign())(x))
"""),
    ("md", """
(The GPU request ran on the CPU, with a one-time warning.)

## `@kernel`: one function, three ways to run

Decorated with `@kernel`, a function runs as Python when called on numpy arrays, and compiles
when used in `ops.Custom(func_type="hybrid")`. `out_shape`/`out_dtype` may be omitted: they are
inferred from the kernel.
"""),
    ("code", """
@kernel
def softmax_rows(x):
    out = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            out[i, j] = exp(x[i, j] - m)
            s = s + out[i, j]
        for j in range(x.shape[1]):
            out[i, j] = out[i, j] / s
    return out

a = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
ref = np.exp(a - a.max(1, keepdims=True)); ref /= ref.sum(1, keepdims=True)

python_result = softmax_rows(a)                                  # Python emulation
op = ops.Custom(softmax_rows, func_type="hybrid")                # compiled
compiled = op(ms.Tensor(a)).asnumpy()
print(np.allclose(python_result, ref, atol=1e-6), np.allclose(compiled, ref, atol=1e-6))
print(op(ms.Tensor(np.zeros((2, 7), np.float32))).shape, "- a new shape, no recompile")
"""),
    ("md", """
## The generated C++

Shapes are runtime arguments; each DSL line is noted next to the code it became.
"""),
    ("code", """
from mskernel.hybrid import HybridKernel
hk = HybridKernel.from_function(softmax_rows)
print(hk.source([np.float32], [2]))
"""),
    ("md", """
## Attributes, several outputs, scheduling keywords

Trailing scalar parameters are attributes. `parallel` loops run on all cores (OpenMP) when
their iterations are independent; `reduce` loops declare a reduction: compiled, their sums, products,
max and min run over SIMD lanes (float sums in a different order, blocked and pairwise; max, min and
integer sums exact), while a `range` loop and the Python emulation accumulate in order.
"""),
    ("code", """
@kernel
def scaled_stats(x, scale):
    total = output_tensor((x.shape[0],), x.dtype)
    biggest = output_tensor((x.shape[0],), x.dtype)
    for i in parallel(x.shape[0]):
        acc = 0.0
        top = x[i, 0]
        for j in reduce(x.shape[1]):
            acc = acc + x[i, j] * scale
            top = max(top, x[i, j])
        total[i] = acc
        biggest[i] = top
    return total, biggest

stats = ops.Custom(scaled_stats, func_type="hybrid")
t, b = stats(ms.Tensor(a), 2.0)
print(np.allclose(t.asnumpy(), 2 * a.sum(1), atol=1e-5), np.allclose(b.asnumpy(), a.max(1)))
"""),
    ("md", """
## Gradients

Hybrid ops get gradients through `bprop` — which can be another hybrid op — and `gradcheck`
verifies it.
"""),
    ("code", """
@kernel
def cube(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * x[i]
    return y

@kernel
def cube_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 3.0 * x[i] * x[i] * dout[i]
    return dx

cube_grad_op = ops.Custom(cube_grad, func_type="hybrid")
cube_op = ops.Custom(cube, func_type="hybrid", bprop=lambda x, out, dout: (cube_grad_op(x, dout),))
print(ms.grad(lambda t: cube_op(t).sum())(ms.Tensor([1.0, 2.0, 3.0])))
print(ms.gradcheck(cube_op, (ms.Tensor([0.5, 1.5, -2.0], ms.float64),)))
"""),
    ("md", """
## No bprop needed: the backward is derived from the DSL

A hybrid or akg op without `bprop` gets its backward automatically, as in MindSpore: mskernel
differentiates the kernel in reverse mode and generates a backward *kernel* — DSL code that
compiles through the same compiler (and runs as Python too). `op.backward_source(...)` shows it.
This softmax overwrites its running maximum and reuses one row buffer for every row, so the
backward first replays the forward and records those values on tapes; each `parallel` loop says
whether it stayed parallel.
"""),
    ("code", """
def softmax(x):
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        m = x[i, 0]
        for j in range(1, x.shape[1]):
            m = max(m, x[i, j])
        total = 0.0
        for j in range(x.shape[1]):
            row[j] = exp(x[i, j] - m)
            total = total + row[j]
        for j in range(x.shape[1]):
            y[i, j] = row[j] / total
    return y

softmax_op = ops.Custom(softmax, func_type="akg")   # no bprop
x = ms.Tensor(np.random.default_rng(0).standard_normal((3, 5)))
print(softmax_op.backward_source(x))
"""),
    ("md", """
The derived gradient passes gradcheck and equals the gradient of the same function built from
MindSpore's ops:
"""),
    ("code", """
print(ms.gradcheck(softmax_op, (x,)))
w = ms.Tensor(np.random.default_rng(1).standard_normal((3, 5)))
def composed(x):
    e = ops.exp(x - ops.stop_gradient(ops.amax(x, axis=1, keepdims=True)))
    return e / e.sum(axis=1, keepdims=True)
auto = ms.grad(lambda x: (softmax_op(x) * w).sum())(x)
built_in = ms.grad(lambda x: (composed(x) * w).sum())(x)
print("same gradient as the composed ops:", np.allclose(auto.asnumpy(), built_in.asnumpy(), rtol=1e-12))
"""),
    ("md", """
Loops whose length varies (triangular, ragged) are fine: values they overwrite are recorded on a
stack. What cannot be differentiated correctly is refused at the line that makes it impossible —
never a silently wrong gradient. Here the inner loop's length is a running count, so the backward
cannot run that loop again:
"""),
    ("code", """
from mskernel.hybrid import HybridError

def running_sums(x):
    y = output_tensor(x.shape, x.dtype)
    n = 0
    for i in range(x.shape[0]):
        n = n + 1
        acc = 0.0
        for j in range(n):
            acc = acc + x[j] * x[j]
        y[i] = acc
    return y

sums = ops.Custom(running_sums, func_type="akg")
print(sums(ms.Tensor([1.0, 2.0, 3.0])))      # the forward runs
try:
    ms.grad(lambda x: sums(x).sum())(ms.Tensor([1.0, 2.0, 3.0]))
except HybridError as e:
    print(e)
"""),
    ("md", """
## Errors point at your line

Every DSL rule is checked before any C++ is generated; the error names the kernel, the file
and line, and shows the line. (`HybridError` is both a `TypeError` and a `ValueError`, like the
errors MindSpore raises for these rules.)
"""),
    ("code", """
from mskernel.hybrid import HybridError

def bad_loop(x):
    y = output_tensor(x.shape, x.dtype)
    i = 0
    while i < x.shape[0]:
        y[i] = x[i]
    return y

try:
    ops.Custom(bad_loop, func_type="akg")
except HybridError as e:
    print(e)
"""),
    ("md", """
## Debug mode: bounds-checked kernels

`ops.Custom(..., debug=True)` compiles bounds checks: an out-of-range index raises an
`IndexError` naming the tensor, the index values and the DSL line instead of corrupting memory.
"""),
    ("code", """
@kernel
def shift_left(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i + 1]
    return y

checked = ops.Custom(shift_left, func_type="hybrid", debug=True)
try:
    checked(ms.Tensor([1.0, 2.0, 3.0]))
except IndexError as e:
    print(e)
"""),
    ("md", """
## How fast is it, and how far from the hardware?

`ms.benchmark` (or `%kernel_bench` in a cell) times one or several implementations of an op on the
same inputs. It first checks that they agree — values, and gradients where they flow — then times
them warm-cache and cache-flushed, interleaved, until the spread settles, and states the method and
the machine with the numbers. For a hybrid kernel it also counts the loads, stores and flops from the
kernel itself and places it on the machine's roofline (its bandwidth and peak, measured once and
cached). Here: the elementwise `y = x * x` as a hybrid kernel, against the built-in `ops.square` and
numpy on the same buffer (`asnumpy()` is a view, not a copy).
"""),
    ("code", """
@kernel
def square_kernel(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y

def numpy_square(t):
    return np.square(t.asnumpy())

implementations = {"ops.square": ops.square,
                   "hybrid": ops.Custom(square_kernel, func_type="hybrid"),
                   "numpy": numpy_square}
x = ms.Tensor(np.linspace(-1.0, 1.0, 1 << 16).astype(np.float32))
"""),
    ("md", """
Timings differ from run to run and machine to machine, so the notebook's stored numbers are one
run's; the test suite does not compare them. The table gives the median per call with its quantile
band; the figure shows the same bars and the kernel's point under the roofs.
"""),
    ("code", """
# NBVAL_IGNORE_OUTPUT
result = ms.benchmark(implementations, x)
print(result)
result
"""),
    ("md", """
What does not depend on the run: the agreement check, and the kernel's static counts — one load, one
store and one multiply per element, so 8 compulsory bytes per flop in float32 (intensity 0.125
flop/byte): a kernel this simple is bound by memory bandwidth, and the roofline says how much of it
it reaches.
"""),
    ("code", """
print(result.agreement.describe())
counts = result.counts["hybrid"]
print("counts", counts.describe())
print("loads, stores, flops per element:", counts.loads / x.size, counts.stores / x.size, counts.flops / x.size)
"""),
    ("md", """
A size sweep shows where the call path (small sizes) and where memory (large sizes) dominates.
`sizes=` and `inputs=` (a function of the size) give one result per size, a table and a line plot;
`flush=False` times warm-cache only, which keeps it short; the roofline needs cache-flushed times (warm
data in cache moves faster than memory bandwidth), so no point is placed then.
"""),
    ("code", """
# NBVAL_IGNORE_OUTPUT
sweep = ms.benchmark(implementations, sizes=[2**k for k in (8, 12, 16, 20)],
                     inputs=lambda n: ms.Tensor(np.linspace(-1.0, 1.0, n).astype(np.float32)),
                     flush=False, max_time=0.5)
print(sweep)
sweep
"""),
    ("code", """
print(sweep.sizes, sweep.names)
print(sorted({r.agreement.describe() for r in sweep.results}))
"""),
    ("md", """
In a notebook, the same in one line: `%kernel_bench IMPL ... --on ARGS` (after `%load_ext mskernel`),
with `--sizes`/`--inputs` for a sweep, `--no-flush` for warm-cache timings only (and so no roofline:
it compares against memory bandwidth, which warm-cache times do not measure), `--no-roofline` to skip it
anyway, and `--text` for the table without the figure.
"""),
    ("code", """
# NBVAL_IGNORE_OUTPUT
%load_ext mskernel
hybrid_square = implementations["hybrid"]
%kernel_bench ops.square hybrid_square --on x --no-flush --max-time 0.5 --text
"""),
    ("md", """
## Right on the device too: `check_kernel`

Two things make the CPU forgiving. A `parallel` loop whose iterations mskernel cannot prove
independent runs serially here, and new memory (`output_tensor`, `allocate`) starts as zeros, as in
MindSpore's Python emulation. An Ascend or GPU device runs the iterations at the same time and does
not clear memory, so a kernel can be right here and wrong there. `ms.check_kernel(op, *inputs)` runs
the op once in a checked build that watches for exactly that: a shadow for each element it must
follow, a task for each parallel iteration, new memory poisoned (NaN) instead of zeroed.

This sum gives the right total on the CPU:
"""),
    ("code", """
@kernel
def racy_sum(x):
    y = output_tensor((1,), x.dtype)
    for i in parallel(x.shape[0]):
        y[0] = y[0] + x[i]
    return y

racy = ops.Custom(racy_sum, func_type="hybrid")
v = np.arange(1, 9, dtype=np.float32)
print(racy(ms.Tensor(v)), "on the CPU")
check = ms.check_kernel(racy, v)
check
"""),
    ("md", """
Both bugs are visible in the kernel's text alone, so compiling it already warned (the two
`PortabilityWarning`s above, at the kernel's line; `ms.export_mindspore` would refuse to export
it). The checked run confirms them on real inputs, and also finds what only the data shows (an
index read from a tensor). On a device the iterations read `y[0]` together and each writes back its
own sum, losing the others' additions; and the first one reads `y[0]` before anything wrote it. Each finding is located:
its kind, the element, the line of the cell, and for a race the two iterations that met. `count` is
how many accesses the finding stands for. The checked run's output shows the poison where the
uninitialised value went:
"""),
    ("code", """
race = check.findings[0]
print(race.kind, race.element, "at line", race.line, "iterations", race.iterations, "count", race.count)
print(check.outputs[0])
"""),
    ("md", """
The fix: accumulation is a `reduce` loop, which a device runs in order, and the accumulator gets its
first value from the kernel, not from the memory.
"""),
    ("code", """
@kernel
def fixed_sum(x):
    y = output_tensor((1,), x.dtype)
    y[0] = 0.0
    for i in reduce(x.shape[0]):
        y[0] = y[0] + x[i]
    return y

fixed = ops.Custom(fixed_sum, func_type="hybrid")
print(ms.check_kernel(fixed, v))
print(fixed(ms.Tensor(v)))
"""),
    ("md", """
In a `%%custom_op` cell, `--check` runs the check as soon as the op is bound, on the `--example`
inputs, and shows the findings under the cell's summary; `%custom_op_info NAME` shows the op's last
check. This row-centring kernel shares one scratch row between all the iterations of its parallel
loop: a race even though every iteration writes the row before reading it. (Allocating `row` inside
the loop gives each iteration its own.)
"""),
    ("code", """
%%custom_op centre_rows --check --example "np.arange(6, dtype=np.float32).reshape(2, 3)"
def centre_rows(x):
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in parallel(x.shape[0]):
        s = 0.0
        for j in range(x.shape[1]):
            row[j] = x[i, j]
            s = s + row[j]
        for j in range(x.shape[1]):
            y[i, j] = row[j] - s / x.shape[1]
    return y
"""),
    ("md", """
The finding does not unbind the op: `centre_rows` is callable as usual while you fix it. The how-to
*Find races and uninitialised reads before the device does* in the documentation goes through the
other kinds (a scatter whose indices collide, an output element never written, an index out of
bounds) and what the checked build tracks.
"""),
]
