"""Random computation DAGs (tests/autograd/random_dags.py, programs 0-299) as recorded from MindSpore 2.10: the
loss and every input and weight gradient, first and second order, float64 for even and float32 for odd numbers.

The same programs are held to float64 central differences on numpy by tests/autograd/test_random_dags_fd.py, so
a case pinned here because MindSpore 2.10 is wrong (``differs``) still asserts something real there. Pinned
reasons name the MindSpore bug, then what the case shrinks to when loss terms are dropped while MindSpore stays
wrong (the arrows follow the data).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "autograd"))
from random_dags import programs  # noqa: E402

PROGRAMS = programs(0, 300)
CASES = {p.name: p.source() for p in PROGRAMS}

TWICE = "MindSpore 2.10 differentiating twice is wrong here"
MATMUL = "MindSpore 2.10 differentiating twice misses MatMul's cross term between its two operands"
REDUCE = "MindSpore 2.10 differentiating twice drops the terms through a reduction that removes axes"
STRIDED = ("MindSpore 2.10 raises RuntimeError (StridedSliceGrad: input memory out of bounds) for an in-place update "
           "of a strided slice of a 3-D tensor")
PINNED = {
    "dag_009": TWICE + " (v = stack(sum(x.T), ...); v[:, :] *= sum(x.T): an in-place update differentiated twice)",
    "dag_012": STRIDED + ": v[:, ::2, :1] += x",
    "dag_038": REDUCE + " (x.mean() -> log(m^2 + 1))",
    "dag_052": MATMUL + " (x @ w -> + w2 -> abs -> mean(axis 0); w's gradient)",
    "dag_057": MATMUL + " (mean(x, keep), sum(cat(x, x), axis 0) -> * -> @ x2; x2's gradient)",
    "dag_060": MATMUL + " (matmul(tanh(x1), x1); x1's gradient)",
    "dag_062": STRIDED + " (differentiated twice)",
    "dag_066": TWICE + " (sigmoid(x) -> nn.Dense -> maximum(., x))",
    "dag_118": MATMUL + " (square(x2) @ (f(x0) - x2); x2's gradient)",
    "dag_120": MATMUL + " (MatMul(x1, expand_dims(x0)) @ broadcast_to(...); x0's gradient)",
    "dag_127": MATMUL + " (matmul(x0 + x0, x1) -> mean -> tanh; x0's gradient)",
    "dag_140": TWICE + " (broadcast_to(x, (3, 3)).T -> log(v^2 + 1))",
    "dag_146": MATMUL + " (matmul(mean(x2, keep), x3); x2's gradient)",
    "dag_165": MATMUL + " (matmul(x0[...], x3); x0's gradient)",
    "dag_168": TWICE + " (v = reshape(x); cos(concat(v + w, v)))",
    "dag_197": MATMUL + " (matmul(exp(x), w); w's gradient)",
    "dag_198": MATMUL + " (matmul(x1, sqrt((w + x0)^2 + 0.5)); x0's and w's gradients)",
    "dag_225": MATMUL + " (matmul(x * w2, w3) -> minimum; w3's gradient)",
    "dag_235": TWICE + " (v[:, 1:] = v[:, :-1] * x with v = cat(stack(x, x), ...), then nn.Dense: an in-place "
                       "update differentiated twice)",
    "dag_256": TWICE + " (v = unsqueeze(x); (v * v).sum())",
    "dag_279": TWICE + " (v = broadcast_to(x, (2, 3)); maximum(-x1 * v^2, v * x))",
    "dag_281": TWICE + " (x0[2, :, 1:2] / (x2^2 + 0.5) -> depend -> astype -> / (x3^2 + 0.5))",
    "dag_288": TWICE + " (t = cat(mean(x, keep), x); t[1:] = t[:-1] * relu(w + exp(x)))",
}
_TOLERANCE = {"float64": {"rtol": 1e-9, "atol": 1e-9}, "float32": {"rtol": 1e-4, "atol": 1e-4}}
OPTIONS = {p.name: dict(_TOLERANCE[p.dtype]) for p in PROGRAMS}
for _name, _why in PINNED.items():
    OPTIONS[_name].update(differs=_why, held_by="tests/autograd/test_random_dags_fd.py")
