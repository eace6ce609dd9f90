"""mindspore.boost where the 2.10 CPU wheel cannot run it, checked against float64 numpy.

The wheel has no CPU kernel for the Ascend float-status register the plain loss-scaled step reads
(``NPUGetFloatStatusV2``), for the group loss scale (``_DynamicLossScale``) or for gradient centralisation
(``Centralization``), it cannot build AdaSum without ``init()``, and its process dies in a DimReduce step over two
ranks; here they run (or raise), and these tests say what they must compute.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

import mskernel as ms
from mskernel import boost, nn
from mskernel.boost.boost import AutoBoost
from mskernel.boost.pca_mat import compute_pca_mat


@pytest.fixture(autouse=True)
def fresh_auto_boost():
    """A new AutoBoost, and the level table back as it was (manual mode writes into it, as MindSpore's does)."""
    from mskernel.boost import boost as boost_module

    saved = copy.deepcopy(boost_module._boost_config_level)
    AutoBoost._instance = None
    yield
    AutoBoost._instance = None
    boost_module._boost_config_level.clear()
    boost_module._boost_config_level.update(saved)


def _linear(w0: np.ndarray) -> nn.Cell:
    return nn.Dense(w0.shape[1], w0.shape[0], weight_init=ms.Tensor(w0.astype(np.float32)), has_bias=False)


def _mse_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d/dw mean((x @ w.T - y) ** 2)."""
    r = x @ w.T - y
    return 2.0 * r.T @ x / r.size


def test_loss_scaled_step_divides_the_scale_and_skips_overflow():
    rng = np.random.RandomState(3)
    w0, x, y = rng.randn(2, 3), rng.randn(4, 3), rng.randn(4, 2)
    net = _linear(w0)
    step = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                                    nn.SGD(net.trainable_params(), 0.1), ms.Tensor(np.float32(1024.0)))
    w = w0.copy()
    for _ in range(3):
        loss, overflow, scale = step(ms.Tensor(x.astype(np.float32)), ms.Tensor(y.astype(np.float32)))
        assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 1024.0
        assert float(loss.asnumpy()) == pytest.approx(np.mean((x @ w.T - y) ** 2), rel=1e-5)
        w = w - 0.1 * _mse_grad(w, x, y)
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5, atol=1e-6)
    bad = x.copy()
    bad[0, 0] = np.inf
    _, overflow, _ = step(ms.Tensor(bad.astype(np.float32)), ms.Tensor(y.astype(np.float32)))
    assert bool(overflow.asnumpy())
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5, atol=1e-6)


def test_loss_scaled_step_with_an_update_cell_halves_on_overflow():
    net = _linear(np.ones((1, 2)))
    update = nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 1000)
    step = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                                    nn.SGD(net.trainable_params(), 0.1), update)
    x = np.array([[np.inf, 1.0]], np.float32)
    _, overflow, scale = step(ms.Tensor(x), ms.Tensor(np.zeros((1, 1), np.float32)))
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2.0 ** 9
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((1, 2), np.float32))


def test_group_loss_scale_scales_the_gradient_by_the_ratio():
    manager = boost.GroupLossScaleManager(8.0, [])
    manager.set_loss_scale_status(3, [2.0, 8.0, 32.0])
    x = np.array([1.0, -2.0, 0.5], np.float32)
    scales = [1.0, 2.0, 8.0, 32.0, 1.0]
    for layer1, layer2 in ((0, 1), (1, 2), (2, 3), (3, 4)):
        out = manager(ms.Tensor(x), layer1, layer2)
        np.testing.assert_array_equal(out.asnumpy(), x)
        grad = ms.grad(lambda t, a=layer1, b=layer2: (manager(t, a, b) * ms.Tensor(x)).sum())(ms.Tensor(x))
        np.testing.assert_allclose(grad.asnumpy(), x.astype(np.float64) * scales[layer1] / scales[layer2], rtol=1e-6)


def test_adasum_after_init_in_one_group_applies_old_minus_delta():
    from mskernel.communication import init, release

    init()
    try:
        w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        old = np.array([3.0, -1.0])
        delta = np.array([0.25, 0.5])
        ada = boost.AdaSum(0, 1, 1, (w,))
        ada((ms.Tensor(delta.astype(np.float32)),), (w,), (ms.Tensor(old.astype(np.float32)),))
        np.testing.assert_allclose(w.asnumpy(), old - delta)
        with pytest.raises(ValueError, match="rank_ids"):
            boost.AdaSum(0, 8, 2, (w,))
    finally:
        release()


def test_gradient_centralisation_of_wide_weights():
    rng = np.random.RandomState(5)
    w0, x, y = rng.randn(2, 16), rng.randn(3, 16), rng.randn(3, 2)
    net = _linear(w0)
    opt = nn.SGD([{"params": net.trainable_params(), "grad_centralization": True}], 0.1)
    nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)(ms.Tensor(x.astype(np.float32)),
                                                                  ms.Tensor(y.astype(np.float32)))
    g = _mse_grad(w0, x, y)
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1 * (g - g.mean(axis=1, keepdims=True)), rtol=1e-5,
                               atol=1e-6)


def test_pca_mat_is_the_principal_directions():
    rng = np.random.RandomState(0)
    basis = rng.randn(2, 7)
    data = rng.randn(30, 2) @ basis + rng.randn(7) * 3.0  # rank 2 around a mean
    _, _, vt = np.linalg.svd(data - data.mean(axis=0), full_matrices=False)
    for randomized in (False, True):
        got = compute_pca_mat(data.copy(), 2, randomized=randomized)
        for row, want in zip(got, vt[:2]):
            want = want * np.sign(want[np.argmax(np.abs(want))])
            np.testing.assert_allclose(row, want, atol=1e-8)


def test_dim_reduce_boost_matches_dim_reduce(tmp_path):
    """The ``dim_reduce`` boost (AutoBoost writes this rank's PCA rows, the step loads them) takes the steps
    DimReduce itself takes (both checked against the wheel in the golden suite; here from a PCA file of
    another shape and with a loss scale)."""
    def make():
        return nn.WithLossCell(nn.Dense(3, 2, weight_init=ms.Tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(
            np.float32)), bias_init="zeros"), nn.MSELoss())

    pca = np.random.RandomState(1).randn(4, 8) / 5
    np.save(tmp_path / "pca.npy", pca)
    x = ms.Tensor(np.linspace(-1, 1, 9).reshape(3, 3).astype(np.float32))
    y = ms.Tensor(np.linspace(0, 1, 6).reshape(3, 2).astype(np.float32))
    auto = AutoBoost("O0", {"boost": {"mode": "manual", "dim_reduce": True},
                            "dim_reduce": {"n_components": 4, "pca_mat_path": str(tmp_path / "pca.npy"), "timeout": 1}})
    net_a = make()
    net_a, opt = auto.network_auto_process_train(net_a, nn.Momentum(net_a.trainable_params(), 0.1, 0.9))
    assert type(opt).__name__ == "SGD" and opt.dim_reduce
    step = boost.BoostTrainOneStepCell(net_a, opt, sens=1.0)
    assert step.enable_dim_reduce
    net_b = make()
    w = ms.ParameterTuple(net_b.trainable_params())
    direct = boost.DimReduce(net_b, nn.SGD(w, 1), w, pca.astype(np.float32), 4, 0.55, 0.9, 0.001, 0.4, 0, 1)
    clone = w.clone("clone")
    for _ in range(3):
        step(x, y)
        loss, grads = ms.value_and_grad(net_b, None, w)(x, y)
        direct(loss, grads, ms.Tensor(np.float32(1.0)), w, clone, x, y)
    for a, b in zip(net_a.trainable_params(), net_b.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_dim_reduce_over_two_ranks_builds_but_does_not_step():
    net = nn.WithLossCell(nn.Dense(2, 1, "ones", "zeros"), nn.MSELoss())
    w = ms.ParameterTuple(net.trainable_params())
    dr = boost.DimReduce(net, nn.SGD(w, 1.0), w, np.ones((1, 3), np.float32), 2, 0.55, 0.9, 0.001, 0.4, 1, 2)
    x, y = ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.zeros((1, 1), np.float32))
    loss, grads = ms.value_and_grad(net, None, w)(x, y)
    with pytest.raises(RuntimeError, match="'rank_size' 2 needs 2 ranks"):
        dr(loss, grads, ms.Tensor(np.float32(1.0)), w, w.clone("clone"), x, y)
