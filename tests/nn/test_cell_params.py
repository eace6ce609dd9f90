"""Cell attribute registry, naming, traversal, printing; Parameter details."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.ones(2, np.float32)))
        self.b = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="bias")

    def construct(self, x):
        return x * self.weight + self.b


def test_auto_prefix_renames_even_named_parameters():
    s = Sub()
    assert [p.name for p in s.get_parameters()] == ["weight", "bias"]
    outer = nn.Cell()
    outer.s = s
    assert [p.name for p in s.get_parameters()] == ["s.weight", "s.b"]
    keep = Sub()
    nn.Cell(auto_prefix=False).k = keep
    assert [p.name for p in keep.get_parameters()] == ["weight", "bias"]


def test_attribute_rules():
    net = nn.Cell()
    net.s = Sub()
    net.p = ms.Parameter(1.0)
    net.p = ms.Tensor(4.0)
    assert isinstance(net.p, ms.Parameter) and net.p.asnumpy() == 4.0
    with pytest.raises(TypeError, match="Parameter 'p' already exists"):
        net.p = 3
    with pytest.raises(TypeError, match="Sub cell 's' already exists"):
        net.s = 3
    del net.s
    with pytest.raises(AttributeError, match="The 'Cell' object has no attribute 's'."):
        net.s
    with pytest.raises(KeyError, match="already exists in the network"):
        net.insert_child_to_cell("training", Sub())


def test_insert_refuses_a_name_another_attribute_holds():
    net = nn.Cell()
    net.s = Sub()
    net.p = ms.Parameter(1.0)
    with pytest.raises(KeyError) as err:
        net.insert_param_to_cell("s", ms.Parameter(2.0))
    assert err.value.args[0] == ("For 'insert_param_to_cell', the s parameter already exists in the network."
                                 "Cannot insert another parameter with the same name.")
    with pytest.raises(KeyError) as err:
        net.insert_child_to_cell("p", Sub())
    assert err.value.args[0] == ("For 'insert_child_to_cell', the p child cell already exists in the network."
                                 "Cannot insert another child cell with the same name.")
    net.insert_param_to_cell("p", ms.Parameter(3.0))  # replacing an entry of the same kind is allowed
    net.insert_child_to_cell("s", Sub())
    assert net.p.asnumpy() == 3.0 and isinstance(net.s, Sub)


def test_repr_and_modes():
    net = nn.Cell()
    net.s = Sub()
    assert repr(net) == "Cell(\n  (s): Sub()\n)"
    net.set_train(False)
    assert net.phase == "predict" and net.s.phase == "train" and net.s.training is False
    assert net.set_grad().requires_grad is True


def test_to_float_reads_parameters_in_half_and_grads_stay_float32():
    s = Sub().to_float(ms.float16)
    x = ms.Tensor(np.ones(2, np.float32))
    assert s(x).dtype == ms.float16
    assert s.weight.dtype == ms.float32
    g = ms.grad(lambda a: s(a).sum(), None, s.trainable_params())(x)
    assert g[0].dtype == ms.float32
    with pytest.raises(ValueError, match="to_float"):
        Sub().to_float(ms.int32)


def test_parameter_rules():
    p = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    assert p.set_data(ms.Tensor(np.array([1, 2, 3], np.int32))).shape == (3,) and p.dtype == ms.float32
    with pytest.raises(TypeError, match="Parameter data must be"):
        p.set_data(np.ones(2))
    with pytest.raises(TypeError, match="can not be converted to current dtype implicitly"):
        ms.Parameter(ms.Tensor(np.array([1], np.int32)), name="i").set_data(1.5)
    with pytest.raises(ValueError, match="can not be `bool`"):
        ms.Parameter(True)
    with pytest.raises(TypeError, match="must be bool type"):
        ms.Parameter(1.0, requires_grad=1)
    c = p.clone(init="zeros")
    assert c.name == "w" and c is not p and not c.asnumpy().any()
    assert ms.Parameter(1.0, name="").name.startswith("Parameter#")
    frozen = ms.Parameter(1.0, name="f", requires_grad=False)
    assert str(frozen) == "Parameter (name=f, shape=(), dtype=Float32, requires_grad=False)"
    pt = ms.ParameterTuple([p, frozen]).clone("n")
    assert [q.name for q in pt] == ["n.w", "n.f"]
    with pytest.raises(ValueError, match="already exists"):
        ms.ParameterTuple([p, ms.Parameter(1.0, name="w")])
