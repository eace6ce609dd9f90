"""``mindspore.train.serialization``: checkpoints in MindSpore's own formats, and the graph exports refused.

``save_checkpoint`` writes ``.ckpt`` (protobuf, :mod:`mskernel.train.checkpoint_format`) or, with
``format="safetensors"``, a ``.safetensors`` file through the safetensors library; real MindSpore reads
both, and mskernel reads MindSpore's. ``load_checkpoint`` returns ``{name: Parameter}`` (strings of
``append_dict`` stay strings) and ``load_param_into_net`` copies them into a network, returning
MindSpore's ``(param_not_load, ckpt_not_load)``. Encrypted checkpoints (``enc_key``/``dec_key``) and the
graph formats (``export``, ``load``: MindIR, AIR, ONNX) are refused: mskernel has no graph compiler.

Example:
    >>> import os, tempfile
    >>> import mskernel as ms
    >>> net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    >>> path = os.path.join(tempfile.mkdtemp(), "net.ckpt")
    >>> ms.save_checkpoint(net, path, append_dict={"epoch": 3})
    >>> params = ms.load_checkpoint(path)
    >>> sorted(params), params["epoch"].asnumpy().item()
    (['bias', 'epoch', 'weight'], 3)
    >>> ms.load_param_into_net(net, params)
    ([], ['epoch'])
"""
from __future__ import annotations

import os
import stat
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.refusals import refused_names
from mskernel.train.checkpoint_format import decode, encode

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async", "export", "load",
           "obfuscate_ckpt"]

_FORMATS = ("ckpt", "safetensors")


def _items(save_obj: Any, choice_func: Optional[Callable[[str], bool]]) -> List[Tuple[str, Any]]:
    if isinstance(save_obj, Cell):
        pairs = [(p.name, p) for _, p in save_obj.parameters_and_names()]
    elif isinstance(save_obj, dict):
        pairs = list(save_obj.items())
    elif isinstance(save_obj, list):
        pairs = []
        for item in save_obj:
            if not isinstance(item, dict) or "name" not in item or "data" not in item:
                raise TypeError("For 'save_checkpoint', when 'save_obj' is a list, each item must be a dict with "
                                "'name' and 'data'.")
            pairs.append((item["name"], item["data"]))
    else:
        raise TypeError(f"For 'save_checkpoint', the argument 'save_obj' must be nn.Cell, list or dict, but got "
                        f"{type(save_obj)}.")
    out = []
    for name, value in pairs:
        if choice_func is not None and not choice_func(name):
            continue
        out.append((name, _value(name, value)))
    return out


def _value(name: str, value: Any) -> Any:
    if isinstance(value, Tensor):
        return np.asarray(value._data)
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return np.array(value)
    if isinstance(value, int):
        return np.array(value, np.int64)
    if isinstance(value, float):
        return np.array(value, np.float32)
    if isinstance(value, np.ndarray):
        return value
    raise TypeError(f"For 'save_checkpoint', the value of '{name}' must be a Tensor, Parameter, number or str, "
                    f"but got {type(value).__name__}.")


def _with_suffix(path: str, fmt: str) -> str:
    suffix = "." + fmt
    return path if path.endswith(suffix) else path + suffix


def _write(path: str, data: bytes) -> None:
    """Replace ``path`` atomically; the file ends read-only for its owner, as MindSpore leaves it."""
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    os.chmod(path, stat.S_IRUSR)


def save_checkpoint(save_obj: Any, ckpt_file_name: str, integrated_save: bool = True, async_save: bool = False,
                    append_dict: Optional[Dict[str, Any]] = None, enc_key: Any = None, enc_mode: str = "AES-GCM",
                    choice_func: Optional[Callable[[str], bool]] = None, crc_check: bool = False,
                    format: str = "ckpt", **kwargs: Any) -> None:
    """Write a checkpoint of a Cell's parameters (or a list/dict of named values) in MindSpore's format.

    Example:
        >>> import os, tempfile, mskernel as ms
        >>> d = tempfile.mkdtemp()
        >>> save_checkpoint({"w": ms.Tensor([1.0])}, os.path.join(d, "a"))
        >>> os.listdir(d)
        ['a.ckpt']
    """
    if format not in _FORMATS:
        raise ValueError(f"For 'save_checkpoint', the 'format' must be 'ckpt' or 'safetensors', but got {format}.")
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints (enc_key) are not supported by "
                                  "mskernel; save without enc_key.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', the argument 'ckpt_file_name' must be string, but got "
                        f"{type(ckpt_file_name)}.")
    items = _items(save_obj, choice_func)
    for name, value in (append_dict or {}).items():
        items.append((name, _value(name, value)))
    path = os.path.abspath(_with_suffix(ckpt_file_name, format))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if format == "ckpt":
        _write(path, encode(items))
        return
    from safetensors.numpy import save as st_save
    arrays = {n: np.asarray(v, order="C") for n, v in items if not isinstance(v, str)}
    _write(path, st_save(arrays))


def _filter(names: Sequence[str], filter_prefix: Any, specify_prefix: Any) -> List[str]:
    def prefixes(p: Any) -> Tuple[str, ...]:
        return (p,) if isinstance(p, str) else tuple(p)
    out = list(names)
    if specify_prefix is not None:
        out = [n for n in out if n.startswith(prefixes(specify_prefix))]
    if filter_prefix is not None:
        out = [n for n in out if not n.startswith(prefixes(filter_prefix))]
    return out


def load_checkpoint(ckpt_file_name: str, net: Optional[Cell] = None, strict_load: bool = False,
                    filter_prefix: Any = None, dec_key: Any = None, dec_mode: str = "AES-GCM",
                    specify_prefix: Any = None, choice_func: Optional[Callable[[str], bool]] = None,
                    crc_check: bool = False, remove_redundancy: bool = False, format: str = "ckpt"
                    ) -> Dict[str, Any]:
    """Read a checkpoint into ``{name: Parameter}`` (and into ``net`` when given).

    Example:
        >>> load_checkpoint("/no/such.ckpt")
        Traceback (most recent call last):
        ...
        ValueError: For 'load_checkpoint', the checkpoint file: /no/such.ckpt does not exist, please check ...
    """
    if format not in _FORMATS:
        raise ValueError(f"For 'load_checkpoint', the 'format' must be 'ckpt' or 'safetensors', but got {format}.")
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints (dec_key) are not supported by "
                                  "mskernel.")
    if not isinstance(ckpt_file_name, str) or not os.path.isfile(ckpt_file_name):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {ckpt_file_name} does not exist, please "
                         f"check whether the 'ckpt_file_name' is correct.")
    if format == "safetensors" or ckpt_file_name.endswith(".safetensors"):
        from safetensors.numpy import load_file
        items: List[Tuple[str, Any]] = list(load_file(ckpt_file_name).items())
    else:
        with open(ckpt_file_name, "rb") as f:
            data = f.read()
        try:
            items = decode(data)
        except Exception as e:  # a damaged or foreign file: say which
            raise ValueError(f"For 'load_checkpoint', the file {ckpt_file_name} is not a MindSpore checkpoint "
                             f"(it could not be parsed: {e}).") from None
    keep = set(_filter([n for n, _ in items], filter_prefix, specify_prefix))
    out: Dict[str, Any] = {}
    for name, value in items:
        if name not in keep or (choice_func is not None and not choice_func(name)):
            continue
        out[name] = value if isinstance(value, str) else Parameter(Tensor(value), name=name)
    if net is not None:
        load_param_into_net(net, out, strict_load)
    return out


def load_checkpoint_async(ckpt_file_name: str, net: Optional[Cell] = None, **kwargs: Any) -> Any:
    """MindSpore's asynchronous load, done at once here: a finished future holding the parameter dict.

    Example:
        >>> load_checkpoint_async("/no/such.ckpt")
        Traceback (most recent call last):
        ...
        ValueError: For 'load_checkpoint', the checkpoint file: /no/such.ckpt does not exist, please check ...
    """
    from concurrent.futures import Future
    fut: Future = Future()
    fut.set_result(load_checkpoint(ckpt_file_name, net, **kwargs))
    return fut


def load_param_into_net(net: Cell, parameter_dict: Dict[str, Any], strict_load: bool = False,
                        remove_redundancy: bool = False) -> Tuple[List[str], List[str]]:
    """Copy checkpoint values into ``net``'s parameters by name; returns ``(param_not_load, ckpt_not_load)``.

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.Dense(2, 1)
        >>> load_param_into_net(net, {"weight": ms.Parameter(ms.Tensor([[1.0, 2.0]]), name="weight")})
        (['bias'], [])
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got "
                        f"{type(parameter_dict)}.")
    param_not_load: List[str] = []
    used = set()
    for _, param in net.parameters_and_names():
        name = param.name
        if name not in parameter_dict:
            param_not_load.append(name)
            continue
        used.add(name)
        new = parameter_dict[name]
        arr = np.asarray(new._data if isinstance(new, Tensor) else new)
        if arr.shape != param._data.shape:
            raise ValueError(f"For 'load_param_into_net', {name} in the argument 'net' should have the same shape as "
                             f"{name} in the argument 'parameter_dict'. But got its shape {param.shape} in the "
                             f"argument 'net' and shape {tuple(arr.shape)} in the argument 'parameter_dict'.May you "
                             f"need to check whether the checkpoint you loaded is correct or the batch size and so on "
                             f"in the 'net' and 'parameter_dict' are same.")
        if arr.dtype != param._data.dtype and strict_load:
            raise TypeError(f"For 'load_param_into_net', {name} in the argument 'net' and in the argument "
                            f"'parameter_dict' have different dtypes: {param.dtype} and {Tensor(arr).dtype}.")
        param.set_data(Tensor(arr.astype(param._data.dtype)))
    ckpt_not_load = [n for n in parameter_dict if n not in used]
    return param_not_load, ckpt_not_load


#: refused (the table and the reasons: :mod:`mskernel.refusals`): raise RefusedError naming the reason when called
_REFUSED = refused_names("mindspore")
export = _REFUSED["export"]
load = _REFUSED["load"]
obfuscate_ckpt = _REFUSED["obfuscate_ckpt"]

