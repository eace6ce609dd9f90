"""SummaryLandscape against a float64 numpy oracle (the PCA plane and the losses of a linear model on it), its
split of the grid among ``device_ids`` (computed in this process: the same landscape as one device), and the FLOP
counter of FlopsUtilizationCollector against the products' sizes. The values against MindSpore's wheel are the
golden suite ``landscape_flops``."""
from __future__ import annotations

import contextlib
import io
import os
import sys

import numpy as np

import mskernel as ms
from mskernel import nn
from mskernel.train import Loss, Model, SummaryCollector, SummaryLandscape
from mskernel.train.callback.flops_collector import _FlopCounter
from mskernel.train.summary.event_file import read_events

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2) ** 3
Y = (X @ np.array([[1.5], [-0.5]], np.float32) + 0.25).astype(np.float32)


def _data():
    return ms.dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(3)


def _net():
    return nn.Dense(2, 1, weight_init=ms.Tensor(np.array([[0.1, 0.2]], np.float32)), bias_init="zeros")


def _callback():
    net = _net()
    metrics = {"Loss": Loss()}
    return Model(net, nn.MSELoss(), metrics=metrics), net, _data(), metrics


def _trained(tmp_path, size=5, result=True):
    folder = str(tmp_path / "summary")
    net = _net()
    spec = {"collect_landscape": {"landscape_size": size, "unit": "step", "num_samples": 12,
                                  "create_landscape": {"train": True, "result": result}, "intervals": [[1, 2, 3, 4]]}}
    Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9)).train(
        1, _data(), callbacks=[SummaryCollector(folder, collect_specified_data=spec)], dataset_sink_mode=False)
    return folder


def _generate(folder, out, device_ids):
    np.random.seed(3)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        SummaryLandscape(folder).gen_landscapes_with_multi_process(_callback, device_ids=device_ids, output=out)
    name = [n for n in os.listdir(out) if n.endswith("_MS")][0]
    events = read_events(open(os.path.join(out, name), "rb").read())
    return [(v.tag, v.loss_landscape) for e in events[1:] for v in e.summary.value], buf.getvalue()


def _arr(t):
    return np.array(t.float_data).reshape(list(t.dims))


def test_pca_landscape_matches_a_float64_oracle(tmp_path):
    folder = _trained(tmp_path, result=False)
    (tag, got), = _generate(folder, str(tmp_path / "out"), [0])[0]
    assert tag == "landscape_[1, 4]"
    # the oracle: the weights at steps 1..4, the principal plane of their differences from the last, the path's
    # coordinates in it and the mean squared error on the grid, all in float64 numpy
    steps = [ms.load_checkpoint(os.path.join(folder, "ckpt_dir", f"Dense_{i}_step.ckpt")) for i in range(1, 5)]
    flat = np.array([np.concatenate([s["weight"].asnumpy().ravel(), s["bias"].asnumpy().ravel()]) for s in steps],
                    np.float64)
    diffs = (flat[:-1] - flat[-1]).T
    diffs = diffs - diffs.mean(axis=0)
    u, s, _ = np.linalg.svd(diffs, full_matrices=False)
    u = u * np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])
    pcs = u[:, :2] * s[:2]
    final = flat[-1]
    dirs = []
    for comp in (pcs[:, 0], pcs[:, 1]):
        w, b = comp[:2], comp[2:]
        dirs.append(np.concatenate([w * np.linalg.norm(final[:2]) / np.linalg.norm(w),
                                    b * np.linalg.norm(final[2:]) / np.linalg.norm(b)]))
    basis = np.stack(dirs, 1)
    coefs = np.linalg.lstsq(basis, (flat - final).T, rcond=None)[0].T
    np.testing.assert_allclose(_arr(got.loss_path.points.x), coefs[:, 0], rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(_arr(got.loss_path.points.y), coefs[:, 1], rtol=1e-3, atol=1e-5)

    def mse(p):
        pred = X.astype(np.float64) @ p[:2].reshape(2, 1) + p[2]
        return np.mean((pred - Y) ** 2)

    xs, ys = _arr(got.landscape.x), _arr(got.landscape.y)
    ext = coefs.max(0) - coefs.min(0)
    np.testing.assert_allclose(xs, np.linspace(coefs[:, 0].min() - 0.2 * ext[0], coefs[:, 0].max() + 0.2 * ext[0], 5),
                               rtol=1e-3, atol=1e-5)
    want = np.array([[mse(final + a * dirs[0] + b * dirs[1]) for a in xs] for b in ys])
    np.testing.assert_allclose(_arr(got.landscape.z), want, rtol=1e-4)
    # the path's losses are those at the steps' projections onto the plane
    np.testing.assert_allclose(_arr(got.loss_path.points.z), [mse(final + a * dirs[0] + b * dirs[1]) for a, b in coefs],
                               rtol=1e-4)
    assert (got.metadata.decomposition, got.metadata.unit, got.metadata.step_per_epoch) == ("PCA", "step", 4)
    assert list(got.loss_path.intervals) == [1, 2, 3, 4]


def test_device_ids_split_the_grid_in_this_process(tmp_path):
    folder = _trained(tmp_path)
    one, printed_one = _generate(folder, str(tmp_path / "one"), [0])
    three, printed_three = _generate(folder, str(tmp_path / "three"), [0, 1, 2])
    assert [t for t, _ in one] == [t for t, _ in three] == ["landscape_[1, 4]", "landscape_[4]"]
    for (_, a), (_, b) in zip(one, three):
        assert a.SerializeToString() == b.SerializeToString()
    # each part reports its own progress: 5 rows in parts of 1, 1 and 3
    assert "Drawing landscape total progress: 1/1." in printed_three
    assert "Drawing landscape total progress: 3/3." in printed_three
    assert "Drawing landscape total progress: 5/5." in printed_one


def test_flop_counter_counts_products_and_convolutions():
    x = ms.Tensor(np.ones((4, 3, 6, 6), np.float32))
    w = ms.Parameter(ms.Tensor(np.ones((5, 3, 3, 3), np.float32)), name="w")
    m = ms.Parameter(ms.Tensor(np.ones((5 * 4 * 4, 2), np.float32)), name="m")
    previous = sys.getprofile()
    counter = _FlopCounter()
    counter.start()
    ms.grad(lambda w, m: ms.ops.matmul(ms.ops.conv2d(x, w).reshape(4, -1), m).sum(), (0, 1))(w, m)
    counter.stop()
    assert sys.getprofile() is previous
    conv = 2 * (4 * 5 * 4 * 4) * 3 * 3 * 3  # output elements x input channels x kernel
    mat = 2 * 4 * 80 * 2
    # forward of both; backward: the product's two operands (its input comes from the convolution), the
    # convolution's weight only (x needs no gradient)
    assert counter.flops == conv + mat + 2 * mat + conv
