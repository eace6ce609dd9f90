"""ms.show_graph on MindSpore-style code: a function (or Cell) and its inputs, no requires_grad anywhere."""
import re

import numpy as np
import pytest

import mskernel as ms
from mskernel import Parameter, Tensor, nn, ops


def softclip(x):
    return ops.tanh(x) * 2.0


def test_a_function_and_its_inputs_is_traced_without_requires_grad():
    x = Tensor(np.linspace(-2, 2, 6, dtype=np.float32))
    view = ms.show_graph(lambda v: softclip(v).sum(), x)
    ops_drawn = [n["op"] for n in view.snapshot.nodes]
    assert ops_drawn == ["input 0", "Tanh", "Mul", "ReduceSum"]
    assert x.requires_grad is False  # the caller's tensor is left as it was
    leaf = view.snapshot.node("n0")
    expected = np.linalg.norm(2.0 * (1.0 - np.tanh(x.asnumpy()) ** 2))
    assert leaf["stats"]["douts"][0]["norm"] == pytest.approx(expected, rel=1e-5)


def test_a_non_scalar_result_and_integer_inputs():
    x = Tensor(np.ones((2, 3), np.float32))
    idx = Tensor(np.array([0, 2], np.int32))
    view = ms.show_graph(lambda v, i: ops.gather(v, i, 1), x, idx)
    leaves = [n["op"] for n in view.snapshot.nodes if n["kind"] == "leaf"]
    assert leaves == ["input 0"]  # the integer index is not a gradient target


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([3.0, -1.0], np.float32)), name="w")
        self.unused = Parameter(Tensor(np.zeros(2, np.float32)), name="unused")

    def construct(self, x):
        return (x * self.w).sum()


def test_a_cell_shows_the_parameters_it_reads_with_their_gradients():
    net = Scale()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    view = ms.show_graph(net, x)
    leaves = {n["op"]: n for n in view.snapshot.nodes if n["kind"] == "leaf"}
    assert sorted(leaves) == ["input 0", "w"]  # "unused" is not read by the call
    assert leaves["w"]["stats"]["douts"][0]["norm"] == pytest.approx(np.linalg.norm([1.0, 2.0]), rel=1e-6)
    assert np.array_equal(net.w.asnumpy(), [3.0, -1.0])  # tracing changes no parameter


def test_a_result_tensor_still_works_when_it_has_a_graph():
    x = Tensor([1.0, 2.0])
    x.requires_grad = True
    assert ms.show_graph(ops.exp(x).sum()).summary().startswith("GraphView: 3 nodes")


@pytest.mark.parametrize("call, kind, first", [
    (lambda: ms.show_graph(softclip(Tensor([1.0])).sum()), ValueError,
     "show_graph: this result has no recorded graph"),
    (lambda: ms.show_graph(Tensor([1.0]) * 2, Tensor([1.0])), TypeError,
     "show_graph: inputs were given after a Tensor"),
    (lambda: ms.show_graph("softclip"), TypeError, "show_graph: expected a function with its inputs"),
    (lambda: ms.show_graph(lambda i: i * 2, Tensor([1, 2])), ValueError,
     "show_graph: nothing in <lambda>(...) is differentiable"),
])
def test_misuse_gets_two_lines_saying_what_to_pass(call, kind, first):
    with pytest.raises(kind) as info:
        call()
    lines = str(info.value).splitlines()
    assert len(lines) == 2 and lines[0].startswith(first)
    assert lines[1].startswith("Pass ") and "ms.show_graph(" in lines[1]


def test_the_notebook_traceback_is_short():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    shell.run_cell("import mskernel as ms\nfrom mskernel import Tensor")
    with capture_output() as cap:
        shell.run_cell("ms.show_graph((Tensor([1.0]) * 2).sum())")
    text = re.sub(r"\x1b\[[0-9;]*m", "", cap.stdout + cap.stderr)
    assert "Pass the function and its inputs instead: ms.show_graph(fn, x, ...)." in text
    assert "----> 1 ms.show_graph(" in text  # the user's line comes first
    # the library frames between the user's line and the raise are hidden; IPython always shows the last one
    assert "skipping hidden" in text and text.count("File ") == 1
