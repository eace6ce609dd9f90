"""``mindspore.mint.nn``: torch-style layers and losses, and :mod:`mskernel.mint.nn.functional`.

MindSpore's own classes shared with ``mindspore.nn`` are the same objects here (``mint.nn.ReLU`` is
``nn.ReLU``, ``mint.nn.Linear`` is ``nn.Linear``, ``mint.nn.LayerNorm`` is ``nn.LayerNormExt``, ...); the rest
are mint's own (:mod:`mskernel.mint.nn.conv`, :mod:`mskernel.mint.nn.normalization`,
:mod:`mskernel.mint.nn.layers`). The compatibility page lists the mint.nn names not here.

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> net = mint.nn.Linear(2, 1, weight_init="ones", bias_init="zeros")
    >>> print(mint.nn.ReLU()(net(ms.Tensor([[1.0, -3.0]]))), mint.nn.functional.relu(ms.Tensor([-1.0, 2.0])))
    [[0.]] [0. 2.]
"""
from mskernel import nn as _nn
from mskernel.mint.nn import functional
from mskernel.mint.nn import conv, layers, losses, normalization, padding
from mskernel.mint.nn.conv import *  # noqa: F401,F403
from mskernel.mint.nn.layers import *  # noqa: F401,F403
from mskernel.mint.nn.normalization import *  # noqa: F401,F403
from mskernel.mint.nn.losses import *  # noqa: F401,F403
from mskernel.mint.nn.padding import *  # noqa: F401,F403
from mskernel.mint.nn.sync_batch_norm import SyncBatchNorm  # noqa: F401

F = functional
#: mint.nn names that are mindspore.nn's classes (the same objects in the wheel)
_SHARED = {"ReLU": _nn.ReLU, "Identity": _nn.Identity, "Hardsigmoid": _nn.HSigmoid, "Hardswish": _nn.HSwish,
           "AdaptiveMaxPool2d": _nn.AdaptiveMaxPool2d, "Linear": _nn.Linear, "LayerNorm": _nn.LayerNormExt,
           "Dropout": _nn.DropoutExt, "Embedding": _nn.EmbeddingExt, "PReLU": _nn.PReLUExt,
           "LogSoftmax": _nn.LogSoftmaxExt, "MaxPool2d": _nn.MaxPool2dExt, "AvgPool2d": _nn.AvgPool2dExt,
           "AvgPool1d": _nn.AvgPool1dExt, "Upsample": _nn.Upsample, "L1Loss": _nn.L1Loss,
           "SoftMarginLoss": _nn.SoftMarginLoss,
           "Hardshrink": _nn.HShrink, "Softshrink": _nn.SoftShrink, "PixelShuffle": _nn.PixelShuffle,
           "Dropout2d": _nn.Dropout2dExt, "AvgPool3d": _nn.AvgPool3dExt,
           "MaxUnpool2d": _nn.MaxUnpool2d}
globals().update(_SHARED)

__all__ = sorted([*conv.__all__, *normalization.__all__, *layers.__all__, *losses.__all__, *padding.__all__, *_SHARED,
                  "functional", "SyncBatchNorm"])
