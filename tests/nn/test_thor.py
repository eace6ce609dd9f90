"""THOR where the MindSpore 2.10 CPU wheel cannot run it (no ThorIm2Col / CholeskyTrsm kernels): Conv2dThor's
statistics and nn.thor's step, each against a numpy float64 oracle written from THOR's definition. (What the wheel
does run — the other layers' statistics, the optimizer's construction, the conversions — is the golden suite
``thor``.)"""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn


def _patches64(x: np.ndarray, k: int, s: int) -> np.ndarray:
    """(C*k*k, N, Ho*Wo) "same" patches, written independently of the library (explicit loops)."""
    n, c, h, w = x.shape
    ho, wo = -(-h // s), -(-w // s)
    ph, pw = max((ho - 1) * s + k - h, 0), max((wo - 1) * s + k - w, 0)
    top, left = ph // 2, pw // 2
    out = np.zeros((c, k, k, n, ho, wo))
    for ci in range(c):
        for i in range(k):
            for j in range(k):
                for b in range(n):
                    for oy in range(ho):
                        for ox in range(wo):
                            y, xx = oy * s + i - top, ox * s + j - left
                            if 0 <= y < h and 0 <= xx < w:
                                out[ci, i, j, b, oy, ox] = x[b, ci, y, xx]
    return out.reshape(c * k * k, n, ho * wo)


@pytest.mark.parametrize("k,s,hw", [(3, 1, 5), (2, 2, 5), (3, 2, 4)])
def test_conv2d_thor_statistics(k: int, s: int, hw: int) -> None:
    rng = np.random.default_rng(k * 10 + s)
    x = rng.standard_normal((3, 2, hw, hw)).astype(np.float32)
    w = rng.standard_normal((4, 2, k, k)).astype(np.float32)
    net = nn.Conv2dThor(2, 4, k, stride=s, weight_init=ms.Tensor(w))
    out = net(ms.Tensor(x))
    p = _patches64(x.astype(np.float64), k, s).mean(axis=1)
    ho = -(-hw // s)
    np.testing.assert_allclose(net.matrix_a_cov.asnumpy(), p @ p.T / (ho * ho), rtol=1e-5, atol=1e-5)
    assert net.a_normalizer.asnumpy().tolist() == [ho * ho]
    # the output itself: a "same" convolution, from the same patches
    full = _patches64(x.astype(np.float64), k, s)
    ref = np.einsum("ok,knp->nop", w.reshape(4, -1).astype(np.float64), full).reshape(3, 4, ho, ho)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-4)
    # matrix_g from the output gradient of loss = sum(out^3)
    ms.grad(lambda t: (net(t) ** 3).sum())(ms.Tensor(x))
    d = (3 * ref ** 2).mean(axis=0).reshape(4, -1)
    np.testing.assert_allclose(net.matrix_g_cov.asnumpy(), d @ d.T / (ho * ho), rtol=1e-4)
    assert net.g_normalizer.asnumpy().tolist() == [ho * ho]


def _blockinv64(m: np.ndarray, split: int = 128) -> np.ndarray:
    out = np.zeros_like(m)
    for b in range(0, m.shape[0], split):
        e = min(b + split, m.shape[0])
        out[b:e, b:e] = np.linalg.inv(m[b:e, b:e])
    return out


class _Net(nn.Cell):
    def __init__(self, width: int) -> None:
        super().__init__()
        rng = np.random.default_rng(3)
        self.emb = nn.Embedding(6, 4, embedding_table=ms.Tensor(rng.standard_normal((6, 4)).astype(np.float32)))
        self.fc = nn.Dense(4, width, weight_init=ms.Tensor(rng.standard_normal((width, 4)).astype(np.float32) / 2))
        self.out = nn.Dense(width, 3, weight_init=ms.Tensor(rng.standard_normal((3, width)).astype(np.float32)
                                                             / 4))
        self.norm = nn.LayerNorm((3,))

    def construct(self, ids: ms.Tensor) -> ms.Tensor:
        return self.norm(self.out(ms.ops.tanh(self.fc(self.emb(ids).sum(axis=1)))))


def _oracle_grads(opt, grads, damping, batch, loss_scale):
    """THOR's preconditioned gradients in float64 from the layers' statistics."""
    new = []
    for i, (p, g) in enumerate(zip(opt.parameters, grads)):
        g = np.asarray(g.asnumpy(), np.float64) / loss_scale
        t, kind = opt.fim_idx[i], opt.type_idx[i]
        if kind in (2, 3):
            a = opt.matrix_a_cov[t].asnumpy().astype(np.float64)
            gm = opt.matrix_g_cov[t].asnumpy().astype(np.float64) / loss_scale ** 2 * batch ** 2
            gm = gm + np.sqrt(damping) * np.eye(gm.shape[0])
            if kind == 3:
                g = (1 / (a / batch + np.sqrt(damping)))[:, None] * g @ np.linalg.inv(gm)
            else:
                a_inv = _blockinv64(a + np.sqrt(damping) * np.eye(a.shape[0]))
                g = _blockinv64(gm) @ g @ a_inv
        elif kind == 4:
            g = g / (g * g / batch + np.sqrt(damping))
        new.append(g)
    return new


def _kept_grads(opt, grads, saved, damping_then, damping_now, loss_scale, batch=3.0):
    """A step with ``opt.thor = False``: the inverses of the saved statistics and the damping they had; a
    LayerNorm's rule has no stored inverse and uses this step's damping."""
    new = []
    for i, g in enumerate(grads):
        g = np.asarray(g.asnumpy(), np.float64) / loss_scale
        kind = opt.type_idx[i]
        if i not in saved:
            new.append(g / (g * g / batch + np.sqrt(damping_now)) if kind == 4 else g)
            continue
        a, gm = saved[i]
        gm = gm / loss_scale ** 2 * batch ** 2 + np.sqrt(damping_then) * np.eye(gm.shape[0])
        if kind == 3:
            new.append((1 / (a / batch + np.sqrt(damping_then)))[:, None] * g @ np.linalg.inv(gm))
        else:
            new.append(_blockinv64(gm) @ g @ _blockinv64(a + np.sqrt(damping_then) * np.eye(a.shape[0])))
    return new


@pytest.mark.parametrize("width,loss_scale,nesterov", [(5, 1.0, False), (130, 4.0, True)])
def test_thor_step_matches_float64_oracle(width: int, loss_scale: float, nesterov: bool) -> None:
    net = _Net(width)
    lr = ms.Tensor(np.array([0.1, 0.05, 0.02], np.float32))
    damping = ms.Tensor(np.array([0.3, 0.2, 0.1], np.float32))
    opt = nn.thor(net, lr, damping, 0.9, loss_scale=loss_scale, batch_size=3, use_nesterov=nesterov, frequency=2)
    assert [type(c).__name__ for c in (net.emb, net.fc, net.out)] == ["EmbeddingThor", "DenseThor", "DenseThor"]
    ids = ms.Tensor(np.array([[0, 1, 1], [2, 5, 3], [4, 4, 0]], np.int32))
    target = ms.Tensor(np.array([[1.0, 0.0, -1.0], [0.5, 0.2, 0.1], [-1.0, 2.0, 0.0]], np.float32))
    weights = [p.asnumpy().astype(np.float64) for p in opt.parameters]
    moments = [np.zeros_like(w) for w in weights]
    saved: dict = {}
    for step in range(3):
        opt.thor = step != 1  # the middle step reuses the inverses of the first
        grads = ms.grad(lambda t: ((net(t) - target) ** 2).sum() * loss_scale, None, opt.parameters)(ids)
        assert all(np.abs(g.asnumpy()).max() > 1e-3 for g in grads)
        if opt.thor:
            expect = _oracle_grads(opt, grads, float(damping.asnumpy()[step]), 3.0, loss_scale)
        else:  # the stored inverses: those of step 0's statistics and damping
            expect = _kept_grads(opt, grads, saved, 0.3, float(damping.asnumpy()[1]), loss_scale)
        for i, g in enumerate(expect):
            moments[i] = moments[i] * 0.9 + g
            upd = g + moments[i] * 0.9 if nesterov else moments[i]
            weights[i] = weights[i] - float(lr.asnumpy()[step]) * upd
        if step == 0:
            saved.update({i: (opt.matrix_a_cov[opt.fim_idx[i]].asnumpy().astype(np.float64),
                         opt.matrix_g_cov[opt.fim_idx[i]].asnumpy().astype(np.float64))
                     for i in range(len(weights)) if opt.fim_idx[i] >= 0})
        assert opt(grads)
        for p, w in zip(opt.parameters, weights):
            np.testing.assert_allclose(p.asnumpy(), w, rtol=2e-3, atol=2e-4, err_msg=f"{p.name} step {step}")
    assert opt.cov_step.asnumpy().tolist() == [3]


def test_thor_weight_decay_and_clip() -> None:
    net = nn.SequentialCell([nn.Dense(3, 2, weight_init="ones", has_bias=False)])
    lr, damping = ms.Tensor(np.array([0.5], np.float32)), ms.Tensor(np.array([0.04], np.float32))
    opt = nn.thor(net, lr, damping, 0.0, weight_decay=0.1, batch_size=1, enable_clip_grad=True)
    x = np.array([[1.0, -2.0, 3.0]])
    grads = ms.grad(lambda t: (net(t) * 10).sum(), None, opt.parameters)(ms.Tensor(x.astype(np.float32)))
    a = x.T @ x / 3 + 0.2 * np.eye(3)
    gm = np.full((2, 2), 100.0) + 0.2 * np.eye(2)
    g = np.linalg.inv(gm) @ np.tile(10 * x, (2, 1)) @ np.linalg.inv(a) + 0.1 * np.ones((2, 3))
    g = g / max(np.linalg.norm(g), 1.0)
    opt(grads)
    np.testing.assert_allclose(net[0].weight.asnumpy(), np.ones((2, 3)) - 0.5 * g, rtol=1e-4, atol=1e-5)


def test_model_thor_alternates_thor_steps() -> None:
    from mskernel.train.train_thor import ModelThor
    net = nn.SequentialCell([nn.Dense(2, 1)])
    opt = nn.thor(net, ms.Tensor(np.full(8, 0.01, np.float32)), ms.Tensor(np.full(8, 0.1, np.float32)), 0.9,
                  frequency=3)
    model = ms.ConvertModelUtils.convert_to_thor_model(ms.Model(net), net, nn.MSELoss(), opt)
    assert isinstance(model, ModelThor)
    flags = []
    seen = opt.construct

    def spy(grads):
        flags.append(opt.thor)
        return seen(grads)
    opt.construct = spy
    data = [(np.ones((2, 2), np.float32), np.zeros((2, 1), np.float32))] * 7
    model.train(1, ms.dataset.GeneratorDataset(data, ["x", "y"]))
    assert flags == [True, False, False, True, False, False, True]


class _ConvNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        rng = np.random.default_rng(5)
        self.conv = nn.Conv2d(2, 3, 3, weight_init=ms.Tensor(rng.standard_normal((3, 2, 3, 3)).astype(np.float32)))
        self.fc = nn.Dense(12, 2, weight_init=ms.Tensor(rng.standard_normal((2, 12)).astype(np.float32) / 3))

    def construct(self, x: ms.Tensor) -> ms.Tensor:
        return self.fc(ms.ops.tanh(self.conv(x)).reshape(x.shape[0], -1))


def test_thor_conv_step_matches_float64_oracle() -> None:
    net = _ConvNet()
    opt = nn.thor(net, ms.Tensor([0.05, 0.05]), ms.Tensor([0.2, 0.1]), 0.0, batch_size=2)
    assert type(net.conv).__name__ == "Conv2dThor" and opt.conv_idx[0] == 0
    x = ms.Tensor(np.random.default_rng(6).standard_normal((2, 2, 2, 2)).astype(np.float32))
    w0 = net.conv.weight.asnumpy().astype(np.float64)
    grads = ms.grad(lambda t: (net(t) ** 2).sum(), None, opt.parameters)(x)
    a = net.conv.matrix_a_cov.asnumpy().astype(np.float64)
    gm = net.conv.matrix_g_cov.asnumpy().astype(np.float64)
    an, gn = float(net.conv.a_normalizer.asnumpy()[0]), float(net.conv.g_normalizer.asnumpy()[0])
    assert (an, gn) == (4.0, 4.0)
    fmap = np.sqrt(1 / an)
    a_inv = np.linalg.inv(a + np.sqrt(0.2 / an) * np.eye(18)) * fmap
    g_inv = np.linalg.inv(gm * 4.0 + np.sqrt(0.2 / gn) * np.eye(3)) * fmap
    g = grads[0].asnumpy().astype(np.float64).reshape(3, -1)
    opt(grads)
    expect = w0 - 0.05 * (g_inv @ g @ a_inv).reshape(w0.shape)
    np.testing.assert_allclose(net.conv.weight.asnumpy(), expect, rtol=1e-3, atol=1e-5)


def test_embedding_lookup_thor_device_statistics() -> None:
    table = np.arange(10, dtype=np.float32).reshape(5, 2) / 4
    e = nn.EmbeddingLookupThor(5, 2, param_init=ms.Tensor(table), target="DEVICE")
    ids = np.array([[1, 4, 1], [0, 1, 3]])
    out = e(ms.Tensor(ids.astype(np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), table[ids])
    np.testing.assert_array_equal(e.matrix_a.asnumpy(), np.bincount(ids.ravel(), minlength=5))
    ms.grad(lambda t: (e(t) ** 2).sum(), None, e.trainable_params())(ms.Tensor(ids.astype(np.int32)))
    d = (2 * table[ids]).reshape(-1, 2).astype(np.float64)
    np.testing.assert_allclose(e.matrix_g.asnumpy().astype(np.float64), d.T @ d / 2, rtol=2e-3)
