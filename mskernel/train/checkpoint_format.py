"""MindSpore's ``.ckpt`` file format: a protobuf ``Checkpoint`` message, built here from its field layout.

The layout (fields and numbers are MindSpore's ``checkpoint.proto``): ``Checkpoint { repeated Value value = 1; }``,
``Value { required string tag = 1; oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }``,
``TensorProto { repeated int64 dims = 1; required string tensor_type = 2; required bytes tensor_content = 3; }``.
The message classes come from a descriptor made in code (no ``protoc`` step) in a private pool, and the
protobuf library does the encoding. Tensor types are MindSpore's dtype names (``Float32``, ``Int64``,
``Bool``, ...); strings are stored as ``str`` with dims ``[0]`` and their UTF-32 text, as MindSpore stores them.

Example:
    >>> import numpy as np
    >>> data = encode([("w", np.ones((2, 2), np.float32)), ("tag", "hello")])
    >>> [(k, v.dtype if hasattr(v, "dtype") else v) for k, v in decode(data)]
    [('w', dtype('float32')), ('tag', 'hello')]
"""
from __future__ import annotations

from typing import Any, Iterable, List, Tuple

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from mskernel import dtype as mstype

__all__ = ["encode", "decode", "Checkpoint"]

_F = descriptor_pb2.FieldDescriptorProto


def _message_classes() -> Any:
    fdp = descriptor_pb2.FileDescriptorProto(name="mskernel_checkpoint.proto", syntax="proto2")
    tensor = fdp.message_type.add(name="TensorProto")
    tensor.field.add(name="dims", number=1, label=_F.LABEL_REPEATED, type=_F.TYPE_INT64)
    tensor.field.add(name="tensor_type", number=2, label=_F.LABEL_REQUIRED, type=_F.TYPE_STRING)
    tensor.field.add(name="tensor_content", number=3, label=_F.LABEL_REQUIRED, type=_F.TYPE_BYTES)
    maptensor = fdp.message_type.add(name="MapTensorProto")
    maptensor.field.add(name="tensor", number=1, label=_F.LABEL_REPEATED, type=_F.TYPE_MESSAGE,
                        type_name=".TensorProto")
    ckpt = fdp.message_type.add(name="Checkpoint")
    value = ckpt.nested_type.add(name="Value")
    value.field.add(name="tag", number=1, label=_F.LABEL_REQUIRED, type=_F.TYPE_STRING)
    value.oneof_decl.add(name="value")
    value.field.add(name="tensor", number=2, label=_F.LABEL_OPTIONAL, type=_F.TYPE_MESSAGE,
                    type_name=".TensorProto", oneof_index=0)
    value.field.add(name="maptensor", number=3, label=_F.LABEL_OPTIONAL, type=_F.TYPE_MESSAGE,
                    type_name=".MapTensorProto", oneof_index=0)
    ckpt.field.add(name="value", number=1, label=_F.LABEL_REPEATED, type=_F.TYPE_MESSAGE,
                   type_name=".Checkpoint.Value")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint"))


Checkpoint = _message_classes()

_BY_NAME = {str(t): t for t in mstype.Type._by_np.values()}


def encode(items: Iterable[Tuple[str, Any]]) -> bytes:
    """The bytes of a checkpoint holding ``(name, numpy array or str)`` items, in order.

    Example:
        >>> len(encode([("x", np.zeros(1, np.float32))])) > 0
        True
    """
    msg = Checkpoint()
    for name, value in items:
        v = msg.value.add()
        v.tag = name
        if isinstance(value, str):
            v.tensor.dims.append(0)  # MindSpore writes one dim of 0 for a string
            v.tensor.tensor_type = "str"
            v.tensor.tensor_content = np.array(value).tobytes()
            continue
        arr = np.asarray(value, order="C")  # (ascontiguousarray would turn a 0-d value into 1-d)
        v.tensor.dims.extend(int(d) for d in arr.shape)
        v.tensor.tensor_type = str(mstype.Type._by_np[arr.dtype])
        v.tensor.tensor_content = arr.tobytes()
    return msg.SerializeToString()


def decode(data: bytes) -> List[Tuple[str, Any]]:
    """``(name, numpy array or str)`` items of a checkpoint; values split over several entries with one tag
    (MindSpore splits very large tensors) are joined.

    Example:
        >>> decode(encode([("n", np.array(3, np.int64))]))[0][1].item()
        3
    """
    msg = Checkpoint()
    msg.ParseFromString(data)
    parts: dict = {}
    order: List[str] = []
    for v in msg.value:
        kind = v.WhichOneof("value")
        if kind != "tensor":
            raise ValueError(f"checkpoint entry '{v.tag}' holds a {kind}, which mskernel does not read")
        if v.tag not in parts:
            parts[v.tag] = []
            order.append(v.tag)
        parts[v.tag].append(v.tensor)
    out: List[Tuple[str, Any]] = []
    for tag in order:
        chunks = parts[tag]
        ttype = chunks[0].tensor_type
        content = b"".join(c.tensor_content for c in chunks)
        if ttype == "str":
            out.append((tag, np.frombuffer(content, np.dtype(f"<U{len(content) // 4}")).item().rstrip("\x00")
                        if content else ""))
            continue
        if ttype not in _BY_NAME:
            raise ValueError(f"checkpoint entry '{tag}' has tensor type {ttype}, which mskernel does not support")
        arr = np.frombuffer(content, _BY_NAME[ttype].np).copy()
        dims = list(chunks[0].dims)
        if len(chunks) > 1 and int(np.prod(dims)) != arr.size and dims:
            dims[0] = arr.size // int(np.prod(dims[1:], dtype=np.int64) or 1)
        out.append((tag, arr.reshape(dims)))
    return out
