"""The checks MindSpore's primitive classes make of their constructor's arguments, as one table.

MindSpore checks a primitive's arguments when it is built (``ops.Pack(1.5)`` raises at once), with a
handful of message shapes from its validators. :data:`INIT_CHECKS` holds, per primitive name, the checks of
its arguments, in the order of its constructor's parameters; each check is one of the *kinds* of
:mod:`mskernel.ops.check_kinds` (a
callable ``check(prim, arg, value, args)`` that raises or returns ``None``; ``args`` are all the bound
arguments, for the few checks that name another one). A table entry is one check or a tuple of checks made in
turn. A primitive without an entry is built unchecked, as is an argument without a check: the table lists
only what the MindSpore 2.10 CPU wheel was measured to refuse at construction
(``tests/golden/cases/prim_init_checks.py``).

:func:`install` is called by :class:`~mskernel.ops.primitive.Primitive` for each subclass mskernel defines: a
class named in the table has its ``__init__`` wrapped to check first (a class without an entry costs one
dictionary look-up, once, when it is defined).

Example:
    >>> from mskernel import ops
    >>> ops.Pack(1.5)
    Traceback (most recent call last):
    ...
    TypeError: For 'Pack', the type of 'axis' should be 'int', but got type 'float'.
    >>> check_args("TopK", {"sorted": "a"})
    Traceback (most recent call last):
    ...
    TypeError: For 'TopK', the type of 'sorted' should be 'bool', but got type 'str'.
    >>> check_args("Conv2D", {"out_channel": 4, "kernel_size": 3, "data_format": "NCHW"}) is None
    True
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

from mskernel.ops.check_kinds import (Arg, Argument, Bool, Check, Compare, DtypeIn, Enum, Int, IsDtype, IsNumber,
                                      MustStr, PadZero, Range, Size2D, Size3D, StrIn, ToPair, Type, TypeName)

__all__ = ["INIT_CHECKS", "check_args", "install"]

# ---- one-off checks (one primitive's own message) ----------------------------------------------------------------

def _group_name(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    """A communication group's name (the message of the group-size query the constructor makes)."""
    if not isinstance(value, str):
        raise TypeError(f"For 'get_group_size', the argument '{arg}' must be type of string, "
                        f"but got '{arg}' type : {type(value)}.")


def _int_or_axes(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    """An int (one axis), or a list or tuple of them (the message names only the sequences)."""
    if not isinstance(value, int):
        Type("list", "tuple")(prim, arg, value, args)


def _seed(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value != -1 and value < 0:
        raise ValueError(f"Seed must be -1 or a non-negative integer, but got {value}.")


def _positive_int_attr(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, int):  # a bool passes, and so does a negative int (measured)
        raise ValueError(f"For '{prim}', attr '{arg}' must be an positive int number")


_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]


def _custom_func_type(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in _FUNC_TYPES:
        raise ValueError(f"For '{prim}', 'func_type': {value}, 'func': {args.get('func')}, 'func_type' must be one "
                         f"of {_FUNC_TYPES}, but got {value}")


def _equation(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, str):
        raise TypeError("the equation must be str!")


def _hook_fn(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not callable(value):
        raise TypeError(f"Expected a callable hook function, but got {type(value).__name__}.")


def _iou_mode(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in ("iou", "iof"):
        raise KeyError(f"For '{prim}', only 'iou' or 'iof' are supported, but got '{arg}': {value}.")


def _prim_name(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, str):
        raise TypeError("__init__(): incompatible constructor arguments. The following argument types are "
                        f"supported:\n    1. (name: str)\n\nInvoked with: {value!r}")


def _renorm_p(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value <= 0:
        raise ValueError(f"Renorm op don't support non-positive-norm, but got{value}")


def _space_to_batch_paddings(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    import numpy as np

    shape = np.array(value).shape
    if shape != (2, 2):
        raise ValueError(f"For '{prim}', the paddings shape should be = {prim}: (2, 2), but got {shape}.")


def _dump_side(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in ("in", "out"):
        raise ValueError(f"The '{arg}' argument should be one of ['in', 'out'], but got: {value}")


Entry = Union[Check, Tuple[Check, ...]]
_B, _I, _F, _S, _T = Type("bool"), Type("int"), Type("float"), Type("str"), Type("tuple")
_I_NN = Int(">=", 0)
_I_POS = Int(">", 0)
_ALIGN = StrIn("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")

#: primitive name -> {argument: check or checks}, in the order of the constructor's parameters
INIT_CHECKS: Dict[str, Dict[str, Entry]] = {
    "Adam": {"use_locking": _B, "use_nesterov": _B},
    "AdamNoUpdateParam": {"use_locking": _B, "use_nesterov": _B},
    "AdaptiveAvgPool2D": {"output_size": (Type("int", "tuple"), Argument(">=", 0, each=True))},
    "AdaptiveAvgPool3D": {"output_size": (Type("int", "tuple"), Argument(">=", 0, each=True))},
    "AdaptiveMaxPool2D": {"output_size": Arg("list of int", "tuple of int")},
    "AffineGrid": {"align_corners": _B},
    "AllGather": {"group": _S},
    "AllGatherV": {"group": _S},
    "AllReduce": {"op": MustStr(), "group": MustStr()},
    "AlltoAll": {"split_count": IsNumber(int, label="<class 'int'>", prim=False),
        "split_dim": IsNumber(int, label="<class 'int'>", prim=False),
        "concat_dim": IsNumber(int, label="<class 'int'>", prim=False), "group": _S},
    "AlltoAllV": {"group": _group_name, "block_size": _I},
    "AlltoAllVC": {"group": _group_name, "block_size": _I},
    "ApplyAdagrad": {"update_slots": _B},
    "ApplyAdagradDA": {"use_locking": _B},
    "ApplyAdagradV2": {"epsilon": _F, "update_slots": _B},
    "ApplyAdamWithAmsgrad": {"beta1": _F, "beta2": _F, "epsilon": _F, "use_locking": _B},
    "ApplyAdamWithAmsgradV2": {"use_locking": _B},
    "ApplyCenteredRMSProp": {"use_locking": _B},
    "ApplyFtrl": {"use_locking": _B},
    "ApplyKerasMomentum": {"use_locking": _B, "use_nesterov": _B},
    "ApplyMomentum": {"use_nesterov": Bool(), "use_locking": Bool(), "gradient_scale": _F},
    "ApplyProximalAdagrad": {"use_locking": _B},
    "ApplyRMSProp": {"use_locking": _B},
    "ApproximateEqual": {"tolerance": _F},
    "Argmax": {"output_type": IsDtype()},
    "Argmin": {"output_type": IsDtype()},
    "Assert": {"summarize": _I},
    "AvgPool": {"kernel_size": ToPair(), "strides": ToPair(), "pad_mode": Enum(), "data_format": Enum()},
    "AvgPool3D": {"kernel_size": Size3D(five=True), "strides": Size3D(five=True),
        "pad_mode": (_S, StrIn("VALID", "SAME", "PAD", case="upper")),
        "pad": (Type("int", "tuple", "list"), PadZero(6, "PAD")), "ceil_mode": _B, "count_include_pad": _B,
        "divisor_override": _I_NN, "data_format": StrIn("NCDHW", label="format")},
    "BCEWithLogitsLoss": {"reduction": Enum()},
    "BartlettWindow": {"periodic": _B, "dtype": Type("Type")},
    "BasicLSTMCell": {"keep_prob": _F, "forget_bias": _F, "state_is_tuple": _B, "activation": StrIn("tanh")},
    "BatchNorm": {"data_format": Enum()},
    "BatchToSpace": {"block_size": (_I, Compare(">=", 2)), "crops": Type("list", "tuple", label="crops type")},
    "BatchToSpaceND": {"block_shape": Type("list", "tuple", label="block_shape type"),
        "crops": Type("list", "tuple", label="crops type")},
    "Bernoulli": {"seed": (_I, _seed)},
    "BiasAdd": {"data_format": Enum()},
    "BinaryCrossEntropy": {"reduction": Enum()},
    "BlackmanWindow": {"periodic": _B, "dtype": Type("Type")},
    "BoundingBoxDecode": {"max_shape": _T, "means": _T, "stds": _T, "wh_ratio_clip": _F},
    "BoundingBoxEncode": {"means": _T, "stds": _T},
    "Broadcast": {"root_rank": _I, "group": _S},
    "BroadcastTo": {"shape": Arg("list of int", "Tensor", "tuple of int")},
    "Bucketize": {"boundaries": Type("list")},
    "CTCGreedyDecoder": {"merge_repeated": _B},
    "CTCLoss": {"preprocess_collapse_repeated": _B, "ctc_merge_repeated": _B, "ignore_longer_outputs_than_inputs": _B},
    "CTCLossV2": {"blank": _I, "reduction": (_S, StrIn("none", case="lower")), "zero_infinity": _B},
    "Cauchy": {"size": Type("list"), "median": _F, "sigma": _F},
    "ChannelShuffle": {"group": _positive_int_attr},
    "CholeskySolve": {"upper": _B},
    "Col2Im": {"kernel_size": (Type("int", "list", "tuple"), Int(">", 0, each=True)),
        "dilation": (Type("int", "list", "tuple"), Int(">", 0, each=True)),
        "padding": (Type("int", "list", "tuple"), Int(">=", 0, each=True)),
        "stride": (Type("int", "list", "tuple"), Int(">", 0, each=True))},
    "CollectiveGather": {"group": _S},
    "CollectiveScatter": {"group": _S},
    "CombinedNonMaxSuppression": {"pad_per_class": _B, "clip_boxes": _B},
    "ComputeAccidentalHits": {"num_true": (_I, Argument(">=", 1))},
    "ConfusionMatrix": {"num_classes": _I, "dtype": _S},
    "Conv2D": {"out_channel": _I_POS, "kernel_size": Size2D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad")), "pad": (Type("int", "tuple"), PadZero(0)),
        "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv2DBackpropInput": {"out_channel": _I_POS, "kernel_size": Size2D(),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(4)),
        "mode": Int("==", 1), "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv2DTranspose": {"out_channel": _I_POS, "kernel_size": Size2D(),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(4)),
        "mode": Int("==", 1), "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv3D": {"out_channel": _I_POS, "kernel_size": Size3D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(6)),
        "stride": Size3D(five=True), "dilation": Size3D(five=True), "group": (_I, Range(1, "out_channel", "[]")),
        "data_format": StrIn("NCDHW")},
    "Conv3DTranspose": {"in_channel": _I_POS, "out_channel": _I_POS, "kernel_size": Size3D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(6)),
        "stride": Size3D(five=True), "dilation": Size3D(five=True), "group": (_I, Range(1, "out_channel", "[]")),
        "output_padding": Size3D(five=True, pad=0, zero=True), "data_format": StrIn("NCDHW", label="format")},
    "CropAndResize": {"method": _S, "extrapolation_value": _F},
    "CumulativeLogsumexp": {"exclusive": Bool(), "reverse": Bool()},
    "Custom": {"func_type": _custom_func_type},  # checked first, as MindSpore's; the rest by Custom itself
    "DataFormatDimMap": {"src_format": StrIn("NHWC", "NCHW"), "dst_format": StrIn("NHWC", "NCHW")},
    "DataFormatVecPermute": {"src_format": StrIn("NHWC", "NCHW"), "dst_format": StrIn("NHWC", "NCHW")},
    "DeformableOffsets": {"strides": _T, "pads": _T, "ksize": Type("tuple", label="kernel_size"), "dilations": _T,
        "data_format": StrIn("NCHW", "NHWC"), "deformable_groups": _I_POS, "modulated": Bool()},
    "DepthToSpace": {"block_size": (_I, Compare(">=", 2))},
    "DepthwiseConv2dNative": {"channel_multiplier": _I_POS, "kernel_size": Size2D(), "mode": Int("==", 3),
        "pad_mode": _S, "pad": (Type("int", "tuple"), PadZero(4)), "stride": Size2D(), "dilation": Size2D(),
        "group": _I_POS},
    "Dilation2D": {"stride": Type("int", "tuple"), "dilation": Type("int", "tuple"),
        "pad_mode": StrIn("VALID", "SAME", "valid", "same"), "data_format": StrIn("NCHW", "NHWC")},
    "Dropout2D": {"keep_prob": _F},
    "Dropout3D": {"keep_prob": _F},
    "DropoutGenMask": {"Seed0": _I, "Seed1": _I},
    "DynamicGRUV2": {"direction": StrIn("UNIDIRECTIONAL"), "cell_depth": _I, "keep_prob": _F, "cell_clip": _F,
        "num_proj": _I_NN, "time_major": _B, "activation": StrIn("tanh"), "gate_order": StrIn("zrh", "rzh"),
        "reset_after": _B, "is_training": _B},
    "DynamicRNN": {"cell_type": (_S, StrIn("LSTM")), "direction": (_S, StrIn("UNIDIRECTIONAL")), "cell_depth": _I,
        "use_peephole": _B, "keep_prob": _F, "cell_clip": _F, "num_proj": _I_NN, "time_major": _B,
        "activation": (_S, StrIn("tanh")), "forget_bias": _F, "is_training": _B},
    "EditDistance": {"normalize": _B},
    "Einsum": {"equation": _equation},
    "EuclideanNorm": {"keep_dims": _B},
    "ExtractGlimpse": {"centered": _B, "normalized": _B, "uniform_noise": _B,
        "noise": (_S, StrIn("uniform", "gaussian", "zero"))},
    "ExtractImagePatches": {"ksizes": Arg("list of int", "tuple of int"), "strides": Arg("list of int", "tuple of int"),
        "rates": Arg("list of int", "tuple of int"), "padding": Enum()},
    "ExtractVolumePatches": {"kernel_size": Type("int", "list", "tuple"), "strides": Type("int", "list", "tuple"),
        "padding": Type("str", label="padding_dtype")},
    "FFTWithSize": {"norm": Enum()},
    "FillDiagonal": {"fill_value": _F, "wrap": _B},
    "FractionalAvgPool": {"pooling_ratio": Type("list"), "pseudo_random": _B, "overlapping": _B, "deterministic": _B,
        "seed": _I, "seed2": _I},
    "FractionalMaxPool": {"pooling_ratio": Type("list"), "pseudo_random": _B, "overlapping": _B, "deterministic": _B,
        "seed": _I, "seed2": _I},
    "FractionalMaxPool3DWithFixedKsize": {"ksize": Type("int", "tuple"), "output_shape": Type("int", "tuple"),
        "data_format": StrIn("NCDHW", "NDHWC")},
    "FractionalMaxPoolWithFixedKsize": {"ksize": Type("int", "tuple"), "output_shape": Type("int", "tuple"),
        "data_format": StrIn("NCHW")},
    "FusedAdaFactor": {"enable_scale_parameter": _B, "enable_first_moment": _B, "enable_weight_decay": _B},
    "FusedAdaFactorWithGlobalNorm": {"enable_scale_parameter": _B, "enable_first_moment": _B,
        "enable_weight_decay": _B},
    "FusedCastAdamWeightDecay": {"use_locking": _B},
    "FusedSparseAdam": {"use_locking": _B, "use_nesterov": _B},
    "FusedSparseFtrl": {"lr": _F, "l1": _F, "l2": _F, "lr_power": _F, "use_locking": _B},
    "FusedSparseLazyAdam": {"use_locking": _B, "use_nesterov": _B},
    "FusedSparseProximalAdagrad": {"use_locking": _B},
    "Gamma": {"seed": _I_NN, "seed2": _I_NN},
    "GridSampler2D": {"interpolation_mode": Enum(), "padding_mode": Enum()},
    "GridSampler3D": {"interpolation_mode": Enum(), "padding_mode": Enum()},
    "HShrink": {"lambd": Arg("bool", "int", "float")},
    "HammingWindow": {"periodic": _B, "alpha": _F, "beta": _F, "dtype": Type("Type")},
    "Histogram": {"bins": (_I, _I_POS), "min": _F, "max": _F},
    "HistogramFixedWidth": {"nbins": (_I, Int(">=", 1)), "dtype": StrIn("int32")},
    "HookBackward": {"hook_fn": _hook_fn},
    "IOU": {"mode": _iou_mode},
    "Im2Col": {"ksizes": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "strides": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "dilations": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "pads": (Type("int", "tuple", "list"), Int(">=", 0, each=True))},
    "InTopK": {"k": _I},
    "IndexAdd": {"axis": _I},
    "IndexPut": {"accumulate": _I},
    "InplaceAdd": {"indices": Type("tuple", "int")},
    "InplaceIndexAdd": {"axis": _I},
    "InplaceSub": {"indices": Type("tuple", "int")},
    "InplaceUpdate": {"indices": Type("int", "tuple")},
    "IsClose": {"rtol": Arg("bool", "int", "float"), "atol": Arg("bool", "int", "float")},
    "KLDivLoss": {"reduction": StrIn("none", "mean", "batchmean", "sum")},
    "L2Normalize": {"axis": _int_or_axes, "epsilon": Type("int", "float")},
    "LARSUpdate": {"epsilon": _F, "hyperpara": _F, "use_clip": _B},
    "LRN": {"depth_radius": (_I, _I_NN), "bias": _F, "alpha": _F, "beta": _F,
        "norm_region": (_S, StrIn("ACROSS_CHANNELS"))},
    "LSTM": {"input_size": _I_POS, "hidden_size": _I_POS, "num_layers": _I_POS, "has_bias": _B, "bidirectional": _B,
        "dropout": _F, "proj_size": Range(0, "hidden_size", "[)")},
    "ListDiff": {"out_idx": Type("Type")},
    "LogNormalReverse": {"mean": _F, "std": _F},
    "LogSpace": {"steps": (_I, _I_NN), "base": (_I, _I_NN), "dtype": Type("Type")},
    "LogUniformCandidateSampler": {"num_true": (_I, Argument(">=", 1)), "num_sampled": (_I, Argument(">=", 1)),
        "unique": _B, "range_max": (_I, Argument(">=", 1)), "seed": (_I, Argument(">=", 0))},
    "LowerBound": {"out_type": DtypeIn("int32", "int64")},
    "LpNorm": {"axis": Type("int", "tuple", "list"), "p": (_I, _I_NN), "keep_dims": _B, "epsilon": _F},
    "Lstsq": {"fast": TypeName(True), "l2_regularizer": TypeName(0.0)},
    "LuUnpack": {"unpack_data": _B, "unpack_pivots": _B},
    "MatrixDiagPartV3": {"align": (_S, _ALIGN)},
    "MatrixDiagV3": {"align": (_S, _ALIGN)},
    "MatrixInverse": {"adjoint": _B},
    "MatrixPower": {"n": _I},
    "MatrixSetDiagV3": {"align": (_S, _ALIGN)},
    "MatrixSolve": {"adjoint": _B},
    "MatrixSolveLs": {"fast": _B},
    "MatrixTriangularSolve": {"lower": _B, "adjoint": _B},
    "MaxPool": {"kernel_size": Size2D(), "strides": Size2D(), "pad_mode": (_S, StrIn("VALID", "SAME", case="upper")),
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "MaxPool3D": {"kernel_size": Size3D(five=True), "strides": Size3D(five=True),
        "pad_mode": (_S, StrIn("VALID", "SAME", "PAD", case="upper")), "pad_list": (Type("int", "tuple"), PadZero(6)),
        "data_format": StrIn("NCDHW")},
    "MaxPool3DWithArgmax": {"ksize": Size3D(), "strides": Size3D(), "pads": Size3D(zero=True),
        "dilation": Type("int", "tuple"), "ceil_mode": _B, "data_format": (_S, StrIn("NCDHW")),
        "argmax_type": Type("Type")},
    "MaxPoolWithArgmax": {"kernel_size": Size2D(), "strides": Size2D(), "pad_mode": _S,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "MaxPoolWithArgmaxV2": {"kernel_size": Size2D(), "pads": Size2D(zero=True), "dilation": Type("int", "tuple"),
        "ceil_mode": _B, "argmax_type": Type("Type")},
    "MaxUnpool2D": {"ksize": Size2D(), "strides": Size2D(zero=True), "pads": Size2D(zero=True), "output_shape": _T,
        "data_format": StrIn("NCHW", "NHWC")},
    "MaxUnpool3D": {"ksize": Size3D(five=True), "strides": Size3D(five=True, zero=True),
        "pads": Size3D(five=True, zero=True), "output_shape": _T, "data_format": StrIn("NCDHW", "NDHWC")},
    "Median": {"global_median": _B, "axis": _I, "keep_dims": _B, "ignore_nan": _B},
    "Meshgrid": {"indexing": Enum()},
    "MirrorPad": {"mode": StrIn("REFLECT", "SYMMETRIC")},
    "MultiMarginLoss": {"p": (_I, Int("in", {1, 2})), "margin": _F, "reduction": StrIn("none", "sum", "mean")},
    "MultilabelMarginLoss": {"reduction": StrIn("none", "sum", "mean")},
    "Multinomial": {"seed": _I_NN, "seed2": _I_NN, "dtype": Type("Type")},
    "MultinomialWithReplacement": {"numsamples": _I_NN, "replacement": _B},
    "Mvlgamma": {"p": (_I, _I_POS)},
    "NLLLoss": {"reduction": Enum()},
    "NMSWithMask": {"iou_threshold": _F},
    "NoRepeatNGram": {"ngram_size": (_I, Int(">=", 1))},
    "NonDeterministicInts": {"dtype": DtypeIn("int32", "int64", "uint32", "uint64")},
    "NthElement": {"reverse": _B},
    "NuclearNorm": {"keepdim": _B},
    "Ormqr": {"left": _B, "transpose": _B},
    "Pack": {"axis": _I},
    "Pad": {"paddings": _T},
    "PadV3": {"mode": StrIn("constant", "reflect", "edge", "circular"), "paddings_contiguous": Bool()},
    "Padding": {"pad_dim_size": (_I, _I_POS)},
    "ParameterizedTruncatedNormal": {"seed": _I, "seed2": _I},
    "Pdist": {"p": _F},
    "Poisson": {"seed": _I_NN, "seed2": _I_NN},
    "Primitive": {"name": _prim_name},  # its subclasses (PrimitiveWithInfer, ...) check by its constructor
    "PyFunc": {"in_shapes": Type("list", "tuple"), "out_shapes": Type("list", "tuple")},
    "Quantile": {"keep_dims": _B, "ignore_nan": _B},
    "RNNTLoss": {"blank_label": _I},
    "ROIAlign": {"pooled_height": _I, "pooled_width": _I, "spatial_scale": _F, "sample_num": _I,
        "roi_end_mode": (_I, Range(0, 1, "[]"))},
    "RandomCategorical": {"dtype": DtypeIn("int32", "int16", "int64")},
    "RandomChoiceWithMask": {"count": (_I, _I_POS), "seed": _I, "seed2": _I},
    "RandomGamma": {"seed": _I_NN, "seed2": _I_NN},
    "RandomPoisson": {"seed": _I, "seed2": _I, "dtype": DtypeIn("int64", "int32", "float16", "float32", "float64")},
    "RandomShuffle": {"seed": _I_NN, "seed2": _I_NN},
    "Randperm": {"max_length": (_I, Int(">=", 1)), "pad": _I,
        "dtype": DtypeIn("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                         "float32", "float64")},
    "RandpermV2": {"seed": Arg("Tensor", "int"), "offset": Arg("Tensor", "int"), "dtype": IsDtype()},
    "Reduce": {"op": _S, "group": _S},
    "ReduceScatter": {"op": _S, "group": _S},
    "ReduceScatterV": {"op": _S, "group": _S},
    "ReduceStd": {"axis": Arg("list of int", "int", "Tensor", "tuple of int")},
    "Renorm": {"p": (_I, _renorm_p), "dim": _I, "maxnorm": _F},
    "ResizeArea": {"align_corners": _B},
    "ResizeLinear1D": {"coordinate_transformation_mode": Enum()},
    "ResizeNearestNeighbor": {"size": Arg("list of int", "tuple of int")},
    "ReverseSequence": {"seq_dim": _I, "batch_dim": _I},
    "ReverseV2": {"axis": Arg("list of int", "tuple of int")},
    "Roll": {"shifts": Arg("list of int", "int", "tuple of int")},
    "SGD": {"nesterov": _B},
    "STFT": {"n_fft": _I, "hop_length": _I, "win_length": _I, "normalized": _B, "onesided": _B, "return_complex": _B},
    "SampleDistortedBoundingBoxV2": {"seed": IsNumber(int), "seed2": IsNumber(int),
        "aspect_ratio_range": Type("list", "tuple"), "area_range": Type("list", "tuple"), "max_attempts": _I_POS,
        "use_image_if_no_bounding_boxes": Bool()},
    "ScaleAndTranslate": {"kernel_type": _S, "antialias": _B},
    "ScatterAdd": {"use_locking": _B},
    "ScatterAddWithAxis": {"axis": _I},
    "ScatterDiv": {"use_locking": _B},
    "ScatterMax": {"use_locking": _B},
    "ScatterMin": {"use_locking": _B},
    "ScatterMul": {"use_locking": _B},
    "ScatterNdAdd": {"use_locking": _B},
    "ScatterNdDiv": {"use_locking": _B},
    "ScatterNdMax": {"use_locking": _B},
    "ScatterNdMin": {"use_locking": _B},
    "ScatterNdMul": {"use_locking": _B},
    "ScatterNdSub": {"use_locking": _B},
    "ScatterNdUpdate": {"use_locking": _B},
    "ScatterSub": {"use_locking": _B},
    "ScatterUpdate": {"use_locking": _B},
    "SearchSorted": {"dtype": IsDtype()},
    "SmoothL1Loss": {"beta": Arg("bool", "int", "float"), "reduction": Enum()},
    "SoftMarginLoss": {"reduction": Enum()},
    "SoftShrink": {"lambd": Arg("bool", "int", "float")},
    "Softmax": {"axis": Arg("int", "tuple of int")},
    "Sort": {"axis": _I, "descending": _B},
    "SpaceToBatch": {"block_size": (_I, Compare(">=", 2, value_name="SpaceToBatch")),
        "paddings": _space_to_batch_paddings},
    "SpaceToBatchND": {"block_shape": Type("list", "tuple", label="block_shape type"),
        "paddings": Type("list", "tuple", label="paddings type")},
    "SpaceToDepth": {"block_size": (_I, Compare(">=", 2, value_name="SpaceToDepth", prim=False))},
    "SparseApplyAdadelta": {"epsilon": _F, "use_locking": _B},
    "SparseApplyAdagrad": {"lr": IsNumber(float), "update_slots": _B, "use_locking": _B},
    "SparseApplyAdagradV2": {"lr": _F, "epsilon": _F, "use_locking": _B, "update_slots": _B},
    "SparseApplyFtrl": {"lr": _F, "l1": _F, "l2": _F, "lr_power": _F, "use_locking": _B},
    "SparseApplyFtrlV2": {"lr": _F, "l1": _F, "l2": _F, "l2_shrinkage": _F, "lr_power": _F, "use_locking": _B},
    "SparseApplyProximalAdagrad": {"use_locking": _B},
    "SparseApplyRMSProp": {"rho": _F, "momentum": _F, "epsilon": _F, "use_locking": _B},
    "SparseSoftmaxCrossEntropyWithLogits": {"is_grad": _B},
    "SparseTensorDenseMatmul": {"adjoint_st": _B, "adjoint_dt": _B},
    "SplitV": {"size_splits": Type("tuple", "list"), "split_dim": _I, "num_split": (_I, _I_POS)},
    "Squeeze": {"axis": Arg("list of int", "int", "tuple of int")},
    "Stack": {"axis": _I},
    "StandardLaplace": {"seed": _I_NN, "seed2": _I_NN},
    "StandardNormal": {"seed": _I_NN, "seed2": _I_NN},
    "TensorDump": {"input_output": _dump_side},
    "TensorScatterElements": {"axis": Arg("Tensor", "int"),
        "reduction": Enum("none", "add", "update", "multiply", label="reduce")},
    "TopK": {"sorted": _B},
    "Tril": {"diagonal": _I},
    "TrilIndices": {"row": _I_NN, "col": _I_NN, "offset": _I, "dtype": DtypeIn("int32", "int64")},
    "TripletMarginLoss": {"p": _I, "swap": _B, "eps": _F, "reduction": StrIn("none", "sum", "mean")},
    "Triu": {"diagonal": Arg("Tensor", "int")},
    "TriuIndices": {"row": _I_NN, "col": _I_NN, "offset": _I, "dtype": DtypeIn("int32", "int64")},
    "TruncatedNormal": {"dtype": DtypeIn("float16", "float32", "float64"), "seed": _I, "seed2": _I},
    "UniformCandidateSampler": {"num_true": (_I, Compare(">", 0, label="value of num_true")),
        "num_sampled": (_I, Compare(">", 0, label="value of num_sampled")), "unique": _B,
        "range_max": (_I, Compare(">", 0, label="value of range_max")),
        "seed": (_I, Compare(">=", 0, label="value of seed")), "remove_accidental_hits": _B},
    "UniformInt": {"seed": _I_NN, "seed2": _I_NN},
    "UniformReal": {"seed": _I_NN, "seed2": _I_NN},
    "Unpack": {"axis": _I},
    "Unstack": {"axis": _I},
    "UpperBound": {"out_type": DtypeIn("int32", "int64")},
    "_AllSwap": {"group": _S},
}


def check_args(prim: str, args: Mapping[str, Any]) -> None:
    """Check the arguments ``args`` (name -> value) of primitive ``prim`` as its constructor does; arguments
    missing from ``args`` are not checked.

    Example:
        >>> check_args("Softmax", {"axis": 1.5})
        Traceback (most recent call last):
        ...
        TypeError: For 'Softmax', the type of 'axis' should be one of '[int, tuple of int]', but got <class 'float'>.
    """
    for arg, entry in INIT_CHECKS.get(prim, {}).items():
        if arg in args:
            for check in entry if isinstance(entry, tuple) else (entry,):
                check(prim, arg, args[arg], args)


def _binder(init: Callable) -> Optional[Callable[..., Dict[str, Any]]]:
    """A fast ``(args, kwargs) -> {name: value}`` for ``init``'s parameters after ``self`` (defaults filled in);
    None when its signature cannot be read."""
    try:
        params = list(inspect.signature(init).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    defaults = {p.name: p.default for p in params if p.default is not p.empty and p.kind is not p.VAR_KEYWORD}

    def bind(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
        bound = dict(defaults)
        bound.update(zip(names, args))
        bound.update(kwargs)
        return bound

    return bind


def install(cls: type) -> None:
    """Wrap the ``__init__`` of ``cls`` (a primitive class mskernel defines) to check its arguments first, when
    :data:`INIT_CHECKS` has an entry under its name and the class defines its own ``__init__``.

    Example:
        >>> from mskernel.ops.primitive import Primitive
        >>> class Pack(Primitive):  # defining the class installs the check (by its name)
        ...     def __init__(self, axis=0):
        ...         super().__init__("Pack")
        >>> Pack(axis="a")
        Traceback (most recent call last):
        ...
        TypeError: For 'Pack', the type of 'axis' should be 'int', but got type 'str'.
    """
    name = cls.__name__
    init = cls.__dict__.get("__init__")
    if name not in INIT_CHECKS or init is None or getattr(init, "_init_checked", False):
        return
    bind = _binder(init)
    if bind is None:
        return

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        check_args(name, bind(args, kwargs))
        init(self, *args, **kwargs)

    __init__._init_checked = True  # type: ignore[attr-defined]
    cls.__init__ = __init__  # type: ignore[misc]
