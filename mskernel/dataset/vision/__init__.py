"""``mindspore.dataset.vision``: image transforms on numpy arrays (HWC unless stated).

``Decode``, ``Resize`` (bilinear or nearest), ``Rescale``, ``Normalize``, ``HWC2CHW``, ``ToTensor``, ``CenterCrop``,
``RandomCrop``, ``RandomHorizontalFlip``, ``RandomVerticalFlip``; the random ones draw from
``dataset.config``'s generator (``config.set_seed`` makes them repeatable).

Example:
    >>> import numpy as np
    >>> img = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(2, 2, 3)
    >>> HWC2CHW()(Rescale(1 / 255, 0)(img)).shape, Resize((4, 4))(img).shape
    ((3, 2, 2), (4, 4, 3))
"""
from __future__ import annotations

from mskernel.dataset.vision import augment, basic, bbox, color, convert, erase_mix, geometry, io, random_ops, video
from mskernel.dataset.vision.augment import *  # noqa: F401,F403
from mskernel.dataset.vision.basic import *  # noqa: F401,F403
from mskernel.dataset.vision.bbox import *  # noqa: F401,F403
from mskernel.dataset.vision.color import *  # noqa: F401,F403
from mskernel.dataset.vision.convert import *  # noqa: F401,F403
from mskernel.dataset.vision.erase_mix import *  # noqa: F401,F403
from mskernel.dataset.vision.geometry import *  # noqa: F401,F403
from mskernel.dataset.vision.io import *  # noqa: F401,F403
from mskernel.dataset.vision.random_ops import *  # noqa: F401,F403
from mskernel.dataset.vision.video import *  # noqa: F401,F403

__all__ = [n for m in (basic, augment, bbox, color, convert, erase_mix, geometry, io, random_ops, video)
           for n in m.__all__ if n not in ("gray", "warp", "random_resized_crop_box")]
