"""Random dataset transforms and samplers, by properties (their draws cannot match the wheel's random stream):
each result is one of the outcomes the transform allows, for many seeds of ``dataset.config``."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel.dataset as ds
import mskernel.dataset.transforms as T
import mskernel.dataset.vision as V

SEEDS = range(12)
IMG = (np.arange(6 * 7 * 3) * 37 % 256).astype(np.uint8).reshape(6, 7, 3)


@pytest.fixture(params=SEEDS)
def seed(request):
    ds.config.set_seed(request.param)
    return request.param


def test_random_crop_is_a_window(seed):
    out = V.RandomCrop((3, 4))(IMG)
    windows = [IMG[t:t + 3, s:s + 4] for t in range(4) for s in range(4)]
    assert any(np.array_equal(out, w) for w in windows)


def test_random_flips_and_invert_are_all_or_nothing(seed):
    for op, done in ((V.RandomInvert(0.5), V.Invert()(IMG)), (V.RandomEqualize(0.5), V.Equalize()(IMG)),
                     (V.RandomAutoContrast(prob=0.5), V.AutoContrast()(IMG))):
        out = op(IMG)
        assert np.array_equal(out, IMG) or np.array_equal(out, done)


def test_random_posterize_keeps_high_bits(seed):
    out = V.RandomPosterize((2, 6))(IMG)
    assert any(np.array_equal(out, V.Posterize(b)(IMG)) for b in range(2, 7))


def test_random_solarize_inverts_a_range(seed):
    out = V.RandomSolarize((10, 200))(IMG)
    assert np.all((out == IMG) | (out == 255 - IMG))


def test_random_rotation_by_right_angles_keeps_pixels(seed):
    square = IMG[:6, :6]
    out = V.RandomRotation((90, 90))(square)
    assert sorted(out.ravel().tolist()) == sorted(square.ravel().tolist())


def test_random_resized_crop_box_inside_and_in_range(seed):
    for _ in range(5):
        top, left, h, w = V.random_ops.random_resized_crop_box(60, 80, (0.2, 0.6), (0.5, 2.0))
        assert 0 <= top and top + h <= 60 and 0 <= left and left + w <= 80
        assert 0.15 <= h * w / (60 * 80) <= 0.65 or (h, w) in ((60, 80),)


def test_cutout_and_erasing_zero_a_bounded_region(seed):
    ones = np.ones((20, 20, 3), np.uint8)
    out = V.CutOut(4, num_patches=2)(ones)
    assert 0 < (out == 0).all(-1).sum() <= 2 * 16
    chw = np.ones((3, 20, 20), np.float32)
    erased = V.RandomErasing(prob=1.0, value=0)(chw)
    rows, cols = np.nonzero((erased == 0).all(0))
    if rows.size:  # a rectangle
        assert rows.size == (rows.max() - rows.min() + 1) * (cols.max() - cols.min() + 1)


def test_mixing_labels_stay_distributions(seed):
    imgs = np.stack([IMG] * 4)
    labels = np.eye(4, dtype=np.int64)
    for op in (V.CutMixBatch(V.ImageBatchFormat.NHWC, 1.0, 1.0), V.MixUpBatch(0.5)):
        out, lab = op(imgs, labels)
        assert out.shape == imgs.shape and out.dtype == imgs.dtype
        np.testing.assert_allclose(lab.sum(1), 1.0, rtol=1e-6)
        assert np.all(lab >= 0)


def test_random_choice_apply_order(seed):
    x = np.array([1, 2])
    assert T.RandomChoice([lambda a: a + 1, lambda a: a * 10])(x).tolist() in ([2, 3], [10, 20])
    assert T.RandomApply([lambda a: a + 1], 0.5)(x).tolist() in ([1, 2], [2, 3])
    assert T.RandomOrder([lambda a: a + 1, lambda a: a * 2])(x).tolist() in ([4, 6], [3, 5])
    assert V.UniformAugment([lambda a: a + 1, lambda a: a * 2], 2)(x).tolist() in ([1, 2], [2, 3], [2, 4],
                                                                                   [3, 5], [4, 6])


def test_random_samplers(seed):
    n = 10
    assert sorted(ds.RandomSampler().indices(n).tolist()) == list(range(n))
    assert sorted(ds.SubsetRandomSampler([7, 2, 5]).indices(n).tolist()) == [2, 5, 7]
    drawn = ds.WeightedRandomSampler([0, 3, 0, 1], 50).indices(4)
    assert set(drawn.tolist()) <= {1, 3}
    shards = [ds.DistributedSampler(3, k).indices(n) for k in range(3)]
    assert sorted(set(np.concatenate(shards).tolist())) == list(range(n))
    assert all(len(s) == 4 for s in shards)
    pk = ds.PKSampler(2, shuffle=True).indices(6, [0, 1, 0, 1, 2, 2])
    assert sorted(np.array([0, 1, 0, 1, 2, 2])[pk].tolist()) == [0, 0, 1, 1, 2, 2]


def test_augment_policies_keep_shape_and_dtype(seed):
    for op in (V.AutoAugment(), V.RandAugment(), V.TrivialAugmentWide()):
        out = op(IMG)
        assert out.shape == IMG.shape and out.dtype == IMG.dtype


def test_random_color_adjust_identity_at_defaults(seed):
    assert np.array_equal(V.RandomColorAdjust()(IMG), IMG)
    assert np.array_equal(V.RandomColor((1.0, 1.0))(IMG), IMG)
