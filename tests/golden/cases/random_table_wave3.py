"""The third wave of random programs over the op table ([21]): the ops that landed after the second wave's templates
were measured (image, detection, recurrent and fused optimizer primitives) and the fractional pools, drawn with
explicit random samples (or integer pooling ratios) so that they are deterministic; programs named ``table3_*``.

Same rules as random_table.py (its ``PRELUDE``, inputs and program builder) and random_table_more.py: one line per
op in ``TEMPLATES``, the ops the CPU wheel cannot run in ``WHEEL_CANNOT`` (the measured error), those without a
program in ``NOT_HERE``. The fused optimizer primitives update Parameters in place: their calls read the updated
Parameters back (what the optimizer is for), not the primitive's own outputs.
"""
import importlib.util
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"golden_cases_{name}_for_wave3", _HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


WAVE1 = _load("random_table")
WAVE2 = _load("random_table_more")

_F = "Tensor({}, ms.float32)"
_I = "Tensor({}, ms.int32)"
_U2 = "Tensor(np.array([[[0.3, 0.7], [0.5, 0.1]]]), ms.float32)"
_U3 = "Tensor(np.array([[[0.3, 0.7, 0.5]]]), ms.float32)"
_HYP = ("Tensor(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]]), ms.int64), ints({a}).reshape(-1)[:3], "
        "Tensor(np.array([2, 2, 2]), ms.int64), Tensor(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]]), "
        "ms.int64), ints({b}).reshape(-1)[:4], Tensor(np.array([2, 2, 2]), ms.int64)")
_HYP2 = ("Tensor(np.array([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]]), ms.int64), ints({a}).reshape(-1)[:6], "
         "Tensor(np.array([4, 3]), ms.int64), Tensor(np.array([[0, 0], [2, 0], [3, 0], [3, 1]]), ms.int64), "
         "ints({b}).reshape(-1)[:4], Tensor(np.array([4, 3]), ms.int64)")
_ADAM = ("(lambda p, m, v: (ops.FusedCastAdamWeightDecay()(p, m, v, Tensor(0.1, ms.float32), Tensor(0.9, ms.float32), "
         "Tensor(0.999, ms.float32), Tensor(1e-8, ms.float32), Tensor(0.05, ms.float32), {g}, Tensor(2.0, ms.float32)), "
         "p.value(), m.value(), v.value())[1:])(ms.Parameter({p}, name='var'), ms.Parameter(fin({b}) * 0.1, name='m'), "
         "ms.Parameter(ops.abs(fin({b})) + 0.1, name='v'))")
_RC = ("ms.Parameter(ops.full((3,), 0.5, dtype=ms.float32), name='r'), "
       "ms.Parameter(ops.full((4,), 0.25, dtype=ms.float32), name='c')")
_ADA = ("(lambda p, m, r, c, s: (ops.FusedAdaFactor({attrs})(Tensor(np.array([1e-30, 1e-3]), ms.float32), "
        "Tensor(1.0, ms.float32), Tensor(0.9, ms.float32), Tensor(0.4, ms.float32), Tensor(0.1, ms.float32), "
        "Tensor(0.05, ms.float32), fin({{b}}), p, m, r, c, s), p.value(), m.value(), r.value(), c.value())[1:])("
        "ms.Parameter(fin({{a}}[0]) * 0.5, name='p'), ms.Parameter(ops.zeros((3, 4), ms.float32), name='m'), " + _RC
        + ", ms.Parameter(ops.zeros(1, ms.float32), name='s'))")
_ADA_GN = ("(lambda p, m, r, c, s: (ops.FusedAdaFactorWithGlobalNorm({flags})(Tensor(np.array([1e-30, 1e-3]), "
           "ms.float32), 1.0, 0.9, Tensor(0.8, ms.float32), 0.01, 0.1, fin({{b}}) * 3, p, m, r, c, s, "
           "Tensor({gn}, ms.float32)), p.value(), m.value(), r.value(), c.value(), s.value())[1:])("
           "ms.Parameter(fin({{a}}[1]), name='p'), ms.Parameter(fin({{b}}) * 0.1, name='m'), " + _RC
           + ", ms.Parameter(ops.full((3, 4), 0.3, dtype=ms.float32), name='s'))")
_OFF = "ops.tile({b}.reshape(-1), (6,)).reshape(1, 12, 2, 3) * 0.5"
TEMPLATES = {
    # image primitives
    '_extract_glimpse': ('v', ["ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, "
                               "noise='zero')({a}.reshape(1, 3, 4, 2), " + _I.format("np.array([2, 3])") + ", "
                               + _F.format("np.array([[1.0, 1.5]])") + ")",
                               "ops.ExtractGlimpse(centered=True, normalized=True, uniform_noise=False, noise='zero')("
                               "{a}.reshape(2, 3, 2, 2), " + _I.format("np.array([2, 2])") + ", ops.tanh({b}[:2, :2]))"]),
    '_scale_and_translate': ('d', ["ops.ScaleAndTranslate()({a}.reshape(1, 3, 4, 2), "
                                   + _I.format("np.array([5, 3])") + ", " + _F.format("np.array([1.5, 0.7])") + ", "
                                   + _F.format("np.array([0.1, -0.3])") + ")",
                                   "ops.ScaleAndTranslate('triangle', antialias=False)({a}.reshape(2, 3, 4, 1), "
                                   + _I.format("np.array([4, 6])") + ", " + _F.format("np.array([1.2, 1.4])") + ", "
                                   + _F.format("np.array([0.0, 0.5])") + ")"]),
    '_extract_volume_patches': ('d', ["ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')("
                                      "{a}.reshape(1, 1, 2, 3, 4))",
                                      "ops.ExtractVolumePatches((1, 1, 1, 2, 3), (1, 1, 1, 2, 2), 'SAME')("
                                      "{a}.reshape(1, 2, 1, 3, 4))"]),
    '_deformable_offsets': ('d', ["ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))({a}.reshape(1, 2, 3, 4), "
                                  + _OFF + ")"]),
    'deformable_conv2d': ('d', ["ops.deformable_conv2d({a}.reshape(1, 2, 3, 4), {a}.reshape(3, 2, 2, 2) * 0.5, "
                                + _OFF + ", (2, 2), (1, 1, 1, 1), (0, 0, 0, 0))",
                                "ops.deformable_conv2d({a}.reshape(1, 2, 3, 4), {b}.reshape(2, 2, 1, 3), "
                                "ops.tile({b}.reshape(-1), (5,))[:54].reshape(1, 9, 3, 2) * 0.5, (1, 3), (1, 1, 1, 1), "
                                "(0, 0, 0, 0), bias=" + _F.format("np.array([0.1, -0.2])") + ")"]),
    # detection
    '_non_max_suppression_with_overlaps': ('v', ["ops.NonMaxSuppressionWithOverlaps()(ops.sigmoid({a}.reshape(6, 4)[:4]), "
                                                 "{b}.reshape(-1)[:4], Tensor(3, ms.int32), Tensor(0.5, ms.float32), "
                                                 "Tensor(-0.5, ms.float32))",
                                                 "ops.NonMaxSuppressionWithOverlaps()(ops.abs({a}[0]).reshape(2, 6)[:, :2]"
                                                 " * ops.abs({a}[1]).reshape(6, 2)[:2], {a}[1, 0, :2], "
                                                 "Tensor(2, ms.int32), Tensor(0.3, ms.float32), Tensor(0.0, ms.float32))"]),
    '_combined_non_max_suppression': ('v', ["ops.CombinedNonMaxSuppression()({a}.reshape(1, 6, 1, 4), "
                                            "ops.sigmoid({b}.reshape(1, 6, 2)), Tensor(3, ms.int32), Tensor(5, ms.int32), "
                                            "Tensor(0.4, ms.float32), Tensor(0.2, ms.float32))",
                                            "ops.CombinedNonMaxSuppression(pad_per_class=True, clip_boxes=False)("
                                            "{a}.reshape(1, 3, 2, 4), ops.sigmoid({b}.reshape(1, 3, 4)[..., :2]), "
                                            "Tensor(2, ms.int32), Tensor(4, ms.int32), Tensor(0.5, ms.float32), "
                                            "Tensor(0.3, ms.float32))"]),
    # sequences
    '_edit_distance': ('v', ["ops.EditDistance()(" + _HYP + ")", "ops.EditDistance(False)(" + _HYP2 + ")"]),
    # fused optimizer primitives (their updated Parameters)
    '_fused_cast_adam_weight_decay': ('v', [_ADAM.format(p="fin({a}[0])", g="fin({b}) * 0.5", b="{b}"),
                                            _ADAM.format(p="fin({a}[1]).astype(ms.float16)",
                                                         g="(fin({b}) * 0.5).astype(ms.float16)", b="{b}")]),
    '_fused_ada_factor': ('v', [_ADA.format(attrs=""),
                                _ADA.format(attrs="enable_scale_parameter=True, enable_first_moment=True, "
                                                  "enable_weight_decay=True")]),
    '_fused_ada_factor_with_global_norm': ('v', [_ADA_GN.format(flags="True, True, True", gn=2.5),
                                                 _ADA_GN.format(flags="False, False, False", gn=0.5)]),
    # fractional pools with their random samples given (or integer ratios, which draw nothing)
    '_fractional_max_pool_with_fixed_ksize': ('v', ["ops.FractionalMaxPoolWithFixedKsize(2, (2, 3))("
                                                    "{a}.reshape(1, 2, 3, 4), " + _U2 + ")",
                                                    "ops.FractionalMaxPoolWithFixedKsize((1, 2), 2)({a}.reshape(2, 1, 3, 4), "
                                                    "Tensor(np.array([[[0.9, 0.2]], [[0.4, 0.6]]]), ms.float32))"]),
    '_fractional_max_pool3d_with_fixed_ksize': ('v', ["ops.FractionalMaxPool3DWithFixedKsize((1, 1, 2), (1, 2, 2))("
                                                      "{a}.reshape(1, 1, 2, 3, 4), " + _U3 + ")"]),
    'fractional_max_pool2d': ('v', ["ops.fractional_max_pool2d({a}.reshape(1, 2, 3, 4), 2, output_size=(2, 2), "
                                    "return_indices=True, _random_samples=" + _U2 + ")",
                                    "ops.fractional_max_pool2d({a}.reshape(2, 3, 4), (1, 2), output_ratio=(0.7, 0.5), "
                                    "_random_samples=" + _U2 + ")"]),
    'fractional_max_pool3d': ('v', ["ops.fractional_max_pool3d({a}.reshape(1, 1, 2, 3, 4), (1, 1, 2), "
                                    "output_size=(1, 2, 2), return_indices=True, _random_samples=" + _U3 + ")",
                                    "ops.fractional_max_pool3d({a}.reshape(1, 2, 3, 4), 1, output_ratio=0.5, "
                                    "_random_samples=" + _U3 + ")"]),
    '_fractional_max_pool': ('v', ["ops.FractionalMaxPool([1.0, 2.0, 2.0, 1.0])({a}.reshape(1, 4, 6, 1))",
                                   "ops.FractionalMaxPool([1.0, 1.0, 2.0, 1.0], overlapping=True)({a}.reshape(2, 3, 4, 1))"]),
    '_fractional_avg_pool': ('d', ["ops.FractionalAvgPool([1.0, 2.0, 3.0, 1.0])({a}.reshape(1, 4, 6, 1))",
                                   "ops.FractionalAvgPool([1.0, 1.0, 2.0, 1.0], overlapping=True)({a}.reshape(2, 3, 4, 1))"]),
}

_KERNEL = "RuntimeError: Kernel select failed: Unsupported op [{}] on CPU"
WHEEL_CANNOT = {
    '_dilation2d': "RuntimeError: Cast failed, original value: SAME, type: StringImm (every pad_mode)",
    '_non_max_suppression_v3': _KERNEL.format('NonMaxSuppressionV3'),
    '_dynamic_rnn': _KERNEL.format('DynamicRNN'),
    '_dynamic_gru_v2': _KERNEL.format('DynamicGRUV2'),
    '_fused_weight_scale_apply_momentum': _KERNEL.format('FusedWeightScaleApplyMomentum'),
}

NOT_HERE = {
    '_map_cache_idx': ("an embedding cache's lookup in a hash table it updates in place: its inputs must be a "
                       "consistent table, not random data (tests/golden/cases/graph_namespace.py compares 60 random "
                       "tables with the wheel)"),
}

PRELUDE = WAVE1.PRELUDE
PROGRAMS = WAVE1.programs(TEMPLATES, seed=2112, prefix="table3", old={**WAVE1.TEMPLATES, **WAVE2.TEMPLATES})
_ALL = {**WAVE1.TEMPLATES, **WAVE2.TEMPLATES, **TEMPLATES}
CASES = {name: WAVE1._program(chain, d, 29000 + i, _ALL) for i, (name, (chain, d)) in enumerate(PROGRAMS.items())}
