"""mskernel.amp (mixed precision, loss scaling, managers) with Model, and mskernel.communication."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import amp, nn
from mskernel.communication import GlobalComm, create_group, get_group_size, get_rank, init, release


class Dense2(nn.Cell):
    """A white-list cell by name."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[0.5], [0.25]], np.float32)), name="w")

    def construct(self, x):
        return ms.ops.matmul(x, self.w)


Dense2.__name__ = "Dense"


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = Dense2()

    def construct(self, x):
        out = self.fc(x)
        self.seen = out.dtype
        return out * 2


def test_o1_runs_white_list_cells_in_float16_and_returns_float32():
    net = amp.auto_mixed_precision(Net(), "O1")
    out = net(ms.Tensor(np.array([[1.0, 2.0]], np.float32)))
    assert net.seen == ms.float32 and out.dtype == ms.float32
    assert out.asnumpy().tolist() == [[2.0]]
    assert [p.name for p in net.trainable_params()] == ["fc.w"]
    assert net.fc._backbone.mixed_precision_type == ms.float16


def test_o2_o3_and_errors():
    for level in ("O2", "O3"):
        base = Net()
        net = amp.auto_mixed_precision(base, level)
        out = net(ms.Tensor(np.array([[1.0, 2.0]], np.float32)))
        assert base.seen == ms.float16 and out.dtype == ms.float32 and net._amp_level == level
    with pytest.raises(TypeError, match="should be Cell"):
        amp.auto_mixed_precision(lambda x: x, "O1")
    with pytest.raises(ValueError, match="dtype should be one of"):
        amp.auto_mixed_precision(Net(), "O1", ms.float32)


def test_build_train_network_levels():
    class Opt(nn.Cell):
        def __init__(self, params):
            super().__init__()
            self.parameters = ms.ParameterTuple(params)

        def construct(self, grads):
            return True

    class L(nn.Cell):
        def construct(self, out, label):
            return ((out - label) ** 2).mean()
    net = Net()
    train = amp.build_train_network(net, Opt(net.trainable_params()), L(), level="O3")
    loss = train(ms.Tensor(np.array([[1.0, 2.0]], np.float32)), ms.Tensor(np.array([[1.0]], np.float32)))
    assert loss.dtype == ms.float32 and float(loss.asnumpy()) == 1.0
    with pytest.raises(ValueError, match="are supported on device `CPU`"):
        amp.build_train_network(Net(), Opt(net.trainable_params()), L(), level="O2")
    with pytest.raises(ValueError, match="Unsupported arg 'foo'"):
        amp.build_train_network(Net(), Opt(net.trainable_params()), foo=1)
    fixed = amp.FixedLossScaleManager(8.0, drop_overflow_update=False)
    assert amp.build_train_network(Net(), Opt(net.trainable_params()), loss_scale_manager=fixed).sens == 8.0
    assert ms.train.FixedLossScaleManager is amp.FixedLossScaleManager


def test_scalers_and_all_finite():
    s = amp.DynamicLossScaler(4, 2, 1)
    g = s.unscale(s.scale((ms.Tensor(np.array([1.0], np.float16)),)))
    assert g[0].dtype == ms.float16 and g[0].asnumpy().tolist() == [1.0]
    s.adjust(ms.Tensor(True))
    assert float(s.scale_value.asnumpy()) == 8.0
    assert bool(amp.all_finite(ms.Tensor([1.0]))) and not bool(amp.all_finite([ms.Tensor([float("inf")])]))
    with pytest.raises(ValueError, match="'scale_window' must be int"):
        amp.DynamicLossScaler(4, 2, 0)
    with pytest.raises(ValueError, match="'scale_factor' must be > 0"):
        amp.DynamicLossScaleManager(scale_factor=0)


def test_communication_single_process():
    init()
    assert (get_rank(), get_group_size(), GlobalComm.INITED) == (0, 1, True)
    create_group("pair", [0])
    assert get_group_size("pair") == 1
    with pytest.raises(ValueError, match="only rank 0"):
        create_group("bad", [0, 1])
    with pytest.raises(RuntimeError, match="backend_name"):
        init("gloo")
    release()
    assert not GlobalComm.INITED
