"""``ckpt_to_safetensors`` and ``safetensors_to_ckpt``: convert checkpoint files between MindSpore's ``.ckpt``
format and Hugging Face's ``.safetensors``, one file or every matching file of a directory's ``rank*``
subdirectories (the layout a multi-device run saves), renaming parameters through ``name_map``.

Example:
    >>> import os, tempfile, mskernel as ms
    >>> d = tempfile.mkdtemp()
    >>> ms.save_checkpoint({"w": ms.Tensor([1.0, 2.0])}, os.path.join(d, "net.ckpt"))
    >>> ckpt_to_safetensors(os.path.join(d, "net.ckpt"), name_map={"w": "weight"})
    >>> print(ms.load_checkpoint(os.path.join(d, "net.safetensors"), format="safetensors")["weight"].asnumpy())
    [1. 2.]
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from mskernel.train.serialization import load_checkpoint, save_checkpoint

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt"]

_SUFFIX = {"ckpt": ".ckpt", "safetensors": ".safetensors"}


def _convert_one(src: str, dst: str, src_format: str, dst_format: str, name_map: Optional[Dict[str, str]]) -> None:
    params = load_checkpoint(src, format=src_format)
    renamed = {(name_map or {}).get(n, n): p for n, p in params.items()}
    save_checkpoint(renamed, dst, format=dst_format)


def _rank_tasks(file_path: str, save_path: Optional[str], regex: Optional[str], src_format: str,
                dst_format: str, api: str) -> List[Tuple[str, str]]:
    ranks = sorted(d for d in os.listdir(file_path) if d.startswith("rank")
                   and os.path.isdir(os.path.join(file_path, d)))
    if not ranks:
        raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
    tasks = []
    for rank in ranks:
        src_dir = os.path.join(file_path, rank)
        dst_dir = os.path.join(save_path, rank) if save_path is not None else src_dir
        os.makedirs(dst_dir, exist_ok=True)
        for name in sorted(os.listdir(src_dir)):
            if name.endswith(_SUFFIX[src_format]) and (regex is None or re.search(regex, name)):
                dst = os.path.join(dst_dir, name.replace(_SUFFIX[src_format], _SUFFIX[dst_format]))
                tasks.append((os.path.join(src_dir, name), dst))
    return tasks


def _convert(file_path: str, save_path: Optional[str], name_map: Optional[Dict[str, str]],
             file_name_regex: Optional[str], src_format: str, dst_format: str, api: str) -> None:
    is_dir, is_file = os.path.isdir(file_path), os.path.isfile(file_path)
    if not is_dir and not is_file:
        raise ValueError(f"For {api}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {api}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {api}, the type of 'name_map' must be a directory, but got '{type(name_map)}'")
    if is_dir:
        for src, dst in _rank_tasks(file_path, save_path, file_name_regex, src_format, dst_format, api):
            _convert_one(src, dst, src_format, dst_format, name_map)
        return
    suffix, new_suffix = _SUFFIX[src_format], _SUFFIX[dst_format]
    if not file_path.endswith(suffix):
        raise ValueError(f"For {api}, the input file must be a {suffix} file, but got {file_path}")
    if file_name_regex is not None and not re.findall(file_name_regex, file_path):
        raise ValueError(f"For {api}, the input file does not match the regular expression.")
    if save_path:
        os.makedirs(save_path, exist_ok=True)
    name = os.path.basename(file_path).replace(suffix, new_suffix)
    _convert_one(file_path, os.path.join(save_path or os.path.dirname(file_path), name), src_format, dst_format,
                 name_map)


def ckpt_to_safetensors(file_path: str, save_path: Optional[str] = None, name_map: Optional[Dict[str, str]] = None,
                        file_name_regex: Optional[str] = None, processes_num: int = 1) -> None:
    """Convert a ``.ckpt`` file, or the ``.ckpt`` files of ``file_path``'s ``rank*`` directories, to
    ``.safetensors`` beside them or under ``save_path`` (the files are converted one after another here, so
    ``processes_num`` only is accepted). See the module example.

    Example:
        >>> ckpt_to_safetensors("/no/such.ckpt")
        Traceback (most recent call last):
        ...
        ValueError: For ckpt_to_safetensors, the input path must be a valid path or file, but got /no/such.ckpt
    """
    _convert(file_path, save_path, name_map, file_name_regex, "ckpt", "safetensors", "ckpt_to_safetensors")


def safetensors_to_ckpt(file_path: str, save_path: Optional[str] = None, name_map: Optional[Dict[str, str]] = None,
                        file_name_regex: Optional[str] = None, processes_num: int = 1) -> None:
    """Convert a ``.safetensors`` file, or those of ``file_path``'s ``rank*`` directories, to MindSpore's ``.ckpt``
    beside them or under ``save_path``.

    Example:
        >>> import os, tempfile, mskernel as ms
        >>> d = tempfile.mkdtemp()
        >>> ms.save_checkpoint({"b": ms.Tensor([3.0])}, os.path.join(d, "m"), format="safetensors")
        >>> safetensors_to_ckpt(os.path.join(d, "m.safetensors"), os.path.join(d, "out"))
        >>> print(ms.load_checkpoint(os.path.join(d, "out", "m.ckpt"))["b"])
        Parameter (name=b, shape=(1,), dtype=Float32, requires_grad=True)
    """
    _convert(file_path, save_path, name_map, file_name_regex, "safetensors", "ckpt", "safetensors_to_ckpt")
