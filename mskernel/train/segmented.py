"""``load_segmented_checkpoints``: load every ``.ckpt`` file of a directory (a network saved in segments, one file
per part) into one parameter dict, and into ``net`` when given.

Example:
    >>> import os, tempfile, mskernel as ms
    >>> d = tempfile.mkdtemp()
    >>> ms.save_checkpoint({"a": ms.Parameter(ms.Tensor([1.0]))}, os.path.join(d, "part0.ckpt"))
    >>> ms.save_checkpoint({"b": ms.Parameter(ms.Tensor([2.0]))}, os.path.join(d, "part1.ckpt"))
    >>> sorted(load_segmented_checkpoints(d))
    ['a', 'b']
"""
from __future__ import annotations

import glob
import os
from typing import Any, Callable, Dict, Optional

from mskernel.train.serialization import load_checkpoint

__all__ = ["load_segmented_checkpoints"]


def load_segmented_checkpoints(ckpt_file_dir: str, net: Any = None, strict_load: bool = False,
                               filter_prefix: Any = None, dec_key: Any = None, dec_mode: str = "AES-GCM",
                               specify_prefix: Any = None, choice_func: Optional[Callable[[str], bool]] = None
                               ) -> Dict[str, Any]:
    """The parameters of all ``*.ckpt`` files in ``ckpt_file_dir`` (in name order; a later file's parameter
    replaces an earlier one of the same name), each file loaded as :func:`~mskernel.load_checkpoint` loads it.

    Example:
        >>> load_segmented_checkpoints(3)
        Traceback (most recent call last):
        ...
        TypeError: The ckpt_file_dir should be a str.
    """
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    params: Dict[str, Any] = {}
    for path in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        params.update(load_checkpoint(path, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
                                      choice_func))
    return params
