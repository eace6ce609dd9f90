"""MindSpore's summary file: framed records, each a protobuf ``Event``, built here from the field layout.

A record is ``uint64 length`` (little endian), the masked CRC-32C of those 8 bytes (``uint32``), the ``Event``
bytes and their masked CRC — the framing TensorFlow's event files use too. The layout (names and numbers are
MindSpore's ``summary.proto`` and ``anf_ir.proto``): ``Event { required double wall_time = 1; optional int64 step
= 2; oneof what { string version = 3; Summary summary = 5; } }``, ``Summary { repeated Value value = 1; }``,
``Value { required string tag = 1; oneof value { float scalar_value = 3; Image image = 4; TensorProto tensor = 8;
Histogram histogram = 9; LossLandscape loss_landscape = 10; } }``, ``LossLandscape { Point landscape = 1; LossPath
loss_path = 2; Metadata metadata = 3; Point convergence_point = 4; }`` (``Point { TensorProto x = 1, y = 2, z = 3;
}``, ``LossPath { repeated int32 intervals = 1; Point points = 2; }``, ``Metadata { string decomposition = 1;
string unit = 2; int32 step_per_epoch = 3; }``). The message classes come from a descriptor made in code in a
private pool.

Example:
    >>> import io
    >>> ev = Event(wall_time=1.0, version="MindSpore.Event:1")
    >>> buf = io.BytesIO(); write_record(buf, ev.SerializeToString())
    >>> [e.version for e in read_events(buf.getvalue())]
    ['MindSpore.Event:1']
"""
from __future__ import annotations

import struct
from typing import Any, List

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["Event", "TensorProto", "LossLandscape", "DATA_TYPES", "crc32c", "masked_crc", "write_record", "read_events"]

_F = descriptor_pb2.FieldDescriptorProto
_PKG = "mskernel.summary"

# anf_ir.proto's DataType numbers for the dtypes a summary tensor may have
DATA_TYPES = {np.bool_: 1, np.int8: 2, np.int16: 3, np.int32: 4, np.int64: 5, np.uint8: 6, np.uint16: 7,
              np.uint32: 8, np.uint64: 9, np.float16: 10, np.float32: 11, np.float64: 12}


def _field(msg: Any, name: str, number: int, kind: int, label: int = _F.LABEL_OPTIONAL, type_name: str = "",
           oneof: int = -1, packed: bool = False) -> None:
    f = msg.field.add(name=name, number=number, label=label, type=kind)
    if type_name:
        f.type_name = f".{_PKG}.{type_name}"
    if oneof >= 0:
        f.oneof_index = oneof
    if packed:
        f.options.packed = True


def _message_classes() -> Any:
    fdp = descriptor_pb2.FileDescriptorProto(name="mskernel_summary.proto", package=_PKG, syntax="proto2")
    rep, req = _F.LABEL_REPEATED, _F.LABEL_REQUIRED
    tensor = fdp.message_type.add(name="TensorProto")
    _field(tensor, "dims", 1, _F.TYPE_INT64, rep, packed=True)
    _field(tensor, "data_type", 2, _F.TYPE_INT32)
    _field(tensor, "float_data", 3, _F.TYPE_FLOAT, rep, packed=True)
    summary = fdp.message_type.add(name="Summary")
    image = summary.nested_type.add(name="Image")
    for i, name in enumerate(("height", "width", "colorspace")):
        _field(image, name, i + 1, _F.TYPE_INT32, req)
    _field(image, "encoded_image", 4, _F.TYPE_BYTES, req)
    hist = summary.nested_type.add(name="Histogram")
    bucket = hist.nested_type.add(name="bucket")
    _field(bucket, "left", 1, _F.TYPE_DOUBLE, req)
    _field(bucket, "width", 2, _F.TYPE_DOUBLE, req)
    _field(bucket, "count", 3, _F.TYPE_INT64, req)
    _field(hist, "buckets", 1, _F.TYPE_MESSAGE, rep, "Summary.Histogram.bucket")
    for number, name, kind in ((2, "nan_count", _F.TYPE_INT64), (3, "pos_inf_count", _F.TYPE_INT64),
                               (4, "neg_inf_count", _F.TYPE_INT64), (5, "max", _F.TYPE_DOUBLE),
                               (6, "min", _F.TYPE_DOUBLE), (7, "sum", _F.TYPE_DOUBLE), (8, "count", _F.TYPE_INT64)):
        _field(hist, name, number, kind)
    landscape = fdp.message_type.add(name="LossLandscape")
    point = landscape.nested_type.add(name="Point")
    for i, name in enumerate("xyz"):
        _field(point, name, i + 1, _F.TYPE_MESSAGE, type_name="TensorProto")
    path = landscape.nested_type.add(name="LossPath")
    _field(path, "intervals", 1, _F.TYPE_INT32, rep)
    _field(path, "points", 2, _F.TYPE_MESSAGE, type_name="LossLandscape.Point")
    meta = landscape.nested_type.add(name="Metadata")
    _field(meta, "decomposition", 1, _F.TYPE_STRING)
    _field(meta, "unit", 2, _F.TYPE_STRING)
    _field(meta, "step_per_epoch", 3, _F.TYPE_INT32)
    for number, name, kind in ((1, "landscape", "Point"), (2, "loss_path", "LossPath"), (3, "metadata", "Metadata"),
                               (4, "convergence_point", "Point")):
        _field(landscape, name, number, _F.TYPE_MESSAGE, type_name=f"LossLandscape.{kind}")
    value = summary.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    _field(value, "tag", 1, _F.TYPE_STRING, req)
    _field(value, "scalar_value", 3, _F.TYPE_FLOAT, oneof=0)
    _field(value, "image", 4, _F.TYPE_MESSAGE, type_name="Summary.Image", oneof=0)
    _field(value, "tensor", 8, _F.TYPE_MESSAGE, type_name="TensorProto", oneof=0)
    _field(value, "histogram", 9, _F.TYPE_MESSAGE, type_name="Summary.Histogram", oneof=0)
    _field(value, "loss_landscape", 10, _F.TYPE_MESSAGE, type_name="LossLandscape", oneof=0)
    _field(summary, "value", 1, _F.TYPE_MESSAGE, rep, "Summary.Value")
    event = fdp.message_type.add(name="Event")
    event.oneof_decl.add(name="what")
    _field(event, "wall_time", 1, _F.TYPE_DOUBLE, req)
    _field(event, "step", 2, _F.TYPE_INT64)
    _field(event, "version", 3, _F.TYPE_STRING, oneof=0)
    _field(event, "summary", 5, _F.TYPE_MESSAGE, type_name="Summary", oneof=0)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return tuple(message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PKG}.{name}"))
                 for name in ("Event", "TensorProto", "LossLandscape"))


Event, TensorProto, LossLandscape = _message_classes()


def _crc_table() -> List[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """The CRC-32C (Castagnoli) of ``data``.

    Example:
        >>> hex(crc32c(b"123456789"))
        '0xe3069283'
    """
    crc = 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """The CRC-32C of ``data`` rotated right by 15 bits plus a constant, as event files store it.

    Example:
        >>> masked_crc(b"") == 0xa282ead8
        True
    """
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def write_record(stream: Any, data: bytes) -> None:
    """Append one framed record holding ``data`` to the binary ``stream``.

    Example:
        >>> import io
        >>> buf = io.BytesIO(); write_record(buf, b"ab"); len(buf.getvalue())
        18
    """
    header = struct.pack("<Q", len(data))
    stream.write(header + struct.pack("<I", masked_crc(header)) + data + struct.pack("<I", masked_crc(data)))


def read_events(data: bytes) -> List[Any]:
    """The ``Event`` messages of a summary file's bytes, in order (the CRCs are checked).

    Example:
        >>> read_events(b"")
        []
    """
    events, pos = [], 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError(f"summary file: a record header is cut off at byte {pos}")
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (hcrc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        body = data[pos + 12:pos + 12 + length]
        tail = data[pos + 12 + length:pos + 16 + length]
        if hcrc != masked_crc(header) or len(tail) != 4 or struct.unpack("<I", tail)[0] != masked_crc(body):
            raise ValueError(f"summary file: the record at byte {pos} fails its CRC check")
        ev = Event()
        ev.ParseFromString(body)
        events.append(ev)
        pos += 16 + length
    return events
