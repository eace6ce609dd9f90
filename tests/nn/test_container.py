"""SequentialCell / CellList / CellDict: naming, renumbering, errors."""
from collections import OrderedDict

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


class Lin(nn.Cell):
    def __init__(self, v=1.0):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.full((2,), v, np.float32)))

    def construct(self, x):
        return x * self.weight


class Holder(nn.Cell):
    def __init__(self, body):
        super().__init__()
        self.body = body


def names(cell):
    return [p.name for p in cell.get_parameters()]


def test_sequential_runs_in_order_and_names_by_path():
    h = Holder(nn.SequentialCell([Lin(2.0), Lin(3.0)]))
    assert names(h) == ["body.0.weight", "body.1.weight"]
    np.testing.assert_allclose(h.body(ms.Tensor(np.ones(2, np.float32))).asnumpy(), [6.0, 6.0])
    h.body.append(Lin())
    assert names(h)[-1] == "body.2.weight"
    del h.body[0]
    assert names(h) == ["body.0.weight", "body.1.weight"]
    assert [n for n, _ in h.cells_and_names()] == ["", "body", "body.0", "body.1"]


def test_sequential_ordered_dict_keeps_keys_on_delete():
    seq = nn.SequentialCell(OrderedDict([("a", Lin()), ("b", Lin())]))
    del seq[0]
    assert list(seq.name_cells()) == ["b"] and names(seq) == ["b.weight"]


def test_sequential_errors():
    with pytest.raises(TypeError, match="must be Cell, list or orderedDict"):
        nn.SequentialCell(3)
    with pytest.raises(IndexError, match=r"range \[-1, 1\), but got 1"):
        nn.SequentialCell([Lin()])[1]


def test_celllist_insert_renumbers_following_cells():
    h = Holder(nn.CellList([Lin(), Lin()]))
    h.body.insert(1, Lin())
    assert names(h) == ["body.0.weight", "body.1.weight", "body.2.weight"]
    assert [n for n, _ in h.parameters_and_names()] == names(h)
    with pytest.raises(TypeError, match="should be instance of list"):
        h.body.extend(Lin())


def test_celldict_keys_and_validation():
    h = Holder(nn.CellDict({"x": Lin()}))
    h.body["y"] = Lin()
    assert names(h) == ["body.x.weight", "body.y.weight"]
    with pytest.raises(KeyError, match="can not contain"):
        h.body["a.b"] = Lin()
    with pytest.raises(TypeError, match="can not be CellDict, CellList or SequentialCell"):
        h.body["z"] = nn.CellList()
    assert h.body.pop("x") is not None and list(h.body) == ["y"]
