"""The MindRecord file format, as MindSpore 2.10 writes and reads it (written for mskernel from the format's facts).

A MindRecord data file ("shard") is a header followed by pages:

* bytes ``[0, 8)``: the header's length, little-endian uint64; then the header, compact JSON
  (``header_size``, ``index_fields``, ``page``, ``page_size``, ``compression_size``, ``schema``,
  ``shard_addresses``, ``shard_id``, ``statistics``, ``version`` "3.0", in that order); the rest of the first
  ``header_size`` bytes is zeros;
* page ``p`` starts at ``header_size + p * page_size``; only its first ``page_size`` bytes of the header's page
  entry are used, and the file ends after the last used byte of the last page. A page is ``BLOB_DATA`` (per row:
  its length as little-endian uint64, then the row's blob) or ``RAW_DATA`` (per row: the length, then the row's
  non-blob fields as a MessagePack map with sorted keys). A raw page lists its row groups as
  ``(blob page type id, offset)``: the group's rows are those of that blob page, their raw records one after
  another from the offset.
* the blob of a row: its blob fields (``bytes`` and arrays, in sorted field order), each as an 8-byte
  big-endian length and the bytes; a schema with a single blob field stores just its bytes. When the schema has
  an int32/int64 array, integer arrays are stored compressed (``compress_ints``).

Beside each data file, ``<file>.db`` (SQLite) indexes its rows: ``INDEXES`` (row id, raw and blob page and
offsets, the index fields) and ``SHARD_NAME``. Python's ``sqlite3`` reads and writes it; no other dependency.

Example:
    >>> unpack_msgpack(pack_msgpack({"s": "str0", "id": 7, "f": 0.5}))
    {'f': 0.5, 'id': 7, 's': 'str0'}
    >>> pack_msgpack({"id": 0}).hex()
    '81a2696400'
"""
from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

__all__ = ["VERSION", "DEFAULT_HEADER_SIZE", "DEFAULT_PAGE_SIZE", "MIN_HEADER_SIZE", "MAX_HEADER_SIZE",
           "MIN_PAGE_SIZE", "MAX_PAGE_SIZE", "MIN_SHARD_COUNT", "MAX_SHARD_COUNT", "BLOB_PAGE", "RAW_PAGE", "Page",
           "pack_msgpack", "unpack_msgpack", "compress_ints", "decompress_ints", "header_json", "read_header",
           "blob_fields_of", "has_integer_array"]

VERSION = "3.0"
SUPPORTED_VERSIONS = ("2.0", "3.0")
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
BLOB_PAGE, RAW_PAGE = "BLOB_DATA", "RAW_DATA"
_F32_MAX = float(np.finfo(np.float32).max)


# ---- MessagePack (the subset MindRecord's raw records use) ------------------------------------------------
def pack_msgpack(value: Any) -> bytes:
    """``value`` (dict, list, str, int, float, bool, None) as MessagePack, in the smallest form of each kind;
    a float goes as float32 when float32 holds it exactly, and dict keys are sorted (MindRecord's records).

    Example:
        >>> pack_msgpack([1, -1, 300, 0.1, True]).hex()
        '9501ffcd012ccb3fb999999999999ac3'
    """
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def _pack(v: Any, out: bytearray) -> None:
    if v is None:
        out.append(0xC0)
    elif isinstance(v, bool):
        out.append(0xC3 if v else 0xC2)
    elif isinstance(v, int):
        _pack_int(v, out)
    elif isinstance(v, float):
        if math.isfinite(v) and -_F32_MAX <= v <= _F32_MAX and float(np.float32(v)) == v:
            out += b"\xca" + struct.pack(">f", v)
        else:
            out += b"\xcb" + struct.pack(">d", v)
    elif isinstance(v, str):
        data = v.encode("utf-8")
        n = len(data)
        if n <= 31:
            out.append(0xA0 | n)
        elif n <= 0xFF:
            out += bytes([0xD9, n])
        elif n <= 0xFFFF:
            out += b"\xda" + struct.pack(">H", n)
        else:
            out += b"\xdb" + struct.pack(">I", n)
        out += data
    elif isinstance(v, (list, tuple)):
        n = len(v)
        out += bytes([0x90 | n]) if n <= 15 else (b"\xdc" + struct.pack(">H", n) if n <= 0xFFFF
                                                 else b"\xdd" + struct.pack(">I", n))
        for item in v:
            _pack(item, out)
    elif isinstance(v, dict):
        n = len(v)
        out += bytes([0x80 | n]) if n <= 15 else (b"\xde" + struct.pack(">H", n) if n <= 0xFFFF
                                                 else b"\xdf" + struct.pack(">I", n))
        for key in sorted(v, key=lambda k: k.encode("utf-8")):
            _pack(key, out)
            _pack(v[key], out)
    else:
        raise TypeError(f"MindRecord: a raw field's value must be a number or a string, but got "
                        f"{type(v).__name__}.")


def _pack_int(v: int, out: bytearray) -> None:
    if v >= 0:
        if v < 0x80:
            out.append(v)
        elif v <= 0xFF:
            out += bytes([0xCC, v])
        elif v <= 0xFFFF:
            out += b"\xcd" + struct.pack(">H", v)
        elif v <= 0xFFFFFFFF:
            out += b"\xce" + struct.pack(">I", v)
        else:
            out += b"\xcf" + struct.pack(">Q", v)
    elif v >= -32:
        out += struct.pack(">b", v)
    elif v >= -0x80:
        out += b"\xd0" + struct.pack(">b", v)
    elif v >= -0x8000:
        out += b"\xd1" + struct.pack(">h", v)
    elif v >= -0x80000000:
        out += b"\xd2" + struct.pack(">i", v)
    else:
        out += b"\xd3" + struct.pack(">q", v)


_FIXED = {0xCA: (">f", 4), 0xCB: (">d", 8), 0xCC: (">B", 1), 0xCD: (">H", 2), 0xCE: (">I", 4), 0xCF: (">Q", 8),
          0xD0: (">b", 1), 0xD1: (">h", 2), 0xD2: (">i", 4), 0xD3: (">q", 8)}


def unpack_msgpack(data: bytes) -> Any:
    """The value a MessagePack record holds (maps, arrays, strings, binaries, numbers, booleans, nil).

    Example:
        >>> unpack_msgpack(bytes.fromhex("82a161cb3fb999999999999aa162d0f6"))
        {'a': 0.1, 'b': -10}
    """
    value, end = _unpack(memoryview(data), 0)
    if end != len(data):
        raise ValueError(f"MindRecord: a raw record has {len(data) - end} bytes after its MessagePack value.")
    return value


def _unpack(buf: memoryview, i: int) -> Tuple[Any, int]:
    b = buf[i]
    i += 1
    if b < 0x80:
        return b, i
    if b >= 0xE0:
        return b - 0x100, i
    if 0x80 <= b <= 0x8F:
        return _unpack_map(buf, i, b & 0x0F)
    if 0x90 <= b <= 0x9F:
        return _unpack_array(buf, i, b & 0x0F)
    if 0xA0 <= b <= 0xBF:
        n = b & 0x1F
        return bytes(buf[i:i + n]).decode("utf-8"), i + n
    if b == 0xC0:
        return None, i
    if b in (0xC2, 0xC3):
        return b == 0xC3, i
    if b in _FIXED:
        fmt, n = _FIXED[b]
        return struct.unpack(fmt, buf[i:i + n])[0], i + n
    if b in (0xD9, 0xDA, 0xDB, 0xC4, 0xC5, 0xC6):
        width = {0xD9: 1, 0xDA: 2, 0xDB: 4, 0xC4: 1, 0xC5: 2, 0xC6: 4}[b]
        n = int.from_bytes(buf[i:i + width], "big")
        i += width
        raw = bytes(buf[i:i + n])
        return (raw if b in (0xC4, 0xC5, 0xC6) else raw.decode("utf-8")), i + n
    if b in (0xDC, 0xDD):
        width = 2 if b == 0xDC else 4
        return _unpack_array(buf, i + width, int.from_bytes(buf[i:i + width], "big"))
    if b in (0xDE, 0xDF):
        width = 2 if b == 0xDE else 4
        return _unpack_map(buf, i + width, int.from_bytes(buf[i:i + width], "big"))
    raise ValueError(f"MindRecord: unsupported MessagePack type byte 0x{b:02x} in a raw record.")


def _unpack_map(buf: memoryview, i: int, n: int) -> Tuple[Dict[Any, Any], int]:
    out: Dict[Any, Any] = {}
    for _ in range(n):
        key, i = _unpack(buf, i)
        out[key], i = _unpack(buf, i)
    return out, i


def _unpack_array(buf: memoryview, i: int, n: int) -> Tuple[List[Any], int]:
    out = []
    for _ in range(n):
        item, i = _unpack(buf, i)
        out.append(item)
    return out, i


# ---- integer arrays, compressed ----------------------------------------------------------------------------
def compress_ints(raw: bytes, itemsize: int) -> bytes:
    """An int32 (``itemsize`` 4) or int64 (8) array's little-endian bytes as MindRecord stores them when
    compressing: the element count (4 bytes, big-endian), a map of 2 bits per element (4 to a byte, first
    element in the high bits: 0 int8, 1 int16, 2 int32, 3 int64, the narrowest that holds it), then each
    element little-endian in that width.

    Example:
        >>> compress_ints(np.array([0, 1, 300, -2], np.int64).tobytes(), 8).hex()
        '000000040400012c01fe'
    """
    values = np.frombuffer(raw, "<i4" if itemsize == 4 else "<i8").astype(np.int64)
    kinds = np.full(values.shape, 3, np.uint8)
    for code, dt in ((2, np.int32), (1, np.int16), (0, np.int8)):
        info = np.iinfo(dt)
        kinds[(values >= info.min) & (values <= info.max)] = code
    bitmap = bytearray((len(values) + 3) // 4)
    for k, code in enumerate(kinds.tolist()):
        bitmap[k // 4] |= code << (2 * (3 - k % 4))
    body = b"".join(int(v).to_bytes(1 << int(c), "little", signed=True) for v, c in zip(values.tolist(), kinds))
    return len(values).to_bytes(4, "big") + bytes(bitmap) + body


def decompress_ints(data: bytes) -> np.ndarray:
    """The int64 values :func:`compress_ints` stored in ``data``.

    Example:
        >>> decompress_ints(compress_ints(np.array([5, -70000], np.int32).tobytes(), 4)).tolist()
        [5, -70000]
    """
    n = int.from_bytes(data[:4], "big")
    pos = 4 + (n + 3) // 4
    out = np.empty(n, np.int64)
    for k in range(n):
        code = (data[4 + k // 4] >> (2 * (3 - k % 4))) & 3
        width = 1 << code
        out[k] = int.from_bytes(data[pos:pos + width], "little", signed=True)
        pos += width
    return out


# ---- pages and the header ------------------------------------------------------------------------------------
@dataclass
class Page:
    """One page of a shard, as the header describes it.

    Example:
        >>> Page(0, 0, BLOB_PAGE, 0, 0, 3, [], 156).to_json()["row_group_ids"]
        [{'id': 0, 'offset': 0}]
    """

    page_id: int
    shard_id: int
    page_type: str
    page_type_id: int
    start_row_id: int
    end_row_id: int
    row_group_ids: List[Tuple[int, int]] = field(default_factory=list)
    page_size: int = 0

    def to_json(self) -> Dict[str, Any]:
        """The header's entry for this page (a page without row groups lists one ``{id: 0, offset: 0}``)."""
        groups = self.row_group_ids or [(0, 0)]
        return {"end_row_id": self.end_row_id, "page_id": self.page_id, "page_size": self.page_size,
                "page_type": self.page_type, "page_type_id": self.page_type_id,
                "row_group_ids": [{"id": g, "offset": o} for g, o in groups], "shard_id": self.shard_id,
                "start_row_id": self.start_row_id}

    @classmethod
    def from_json(cls, entry: Dict[str, Any]) -> "Page":
        """A page from its header entry."""
        return cls(entry["page_id"], entry["shard_id"], entry["page_type"], entry["page_type_id"],
                   entry["start_row_id"], entry["end_row_id"],
                   [(g["id"], g["offset"]) for g in entry["row_group_ids"]], entry["page_size"])


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def blob_fields_of(schema: Dict[str, Any]) -> List[str]:
    """The fields stored in a row's blob: ``bytes`` and arrays (those with a ``shape``), in sorted order.

    Example:
        >>> blob_fields_of({"label": {"type": "int32"}, "img": {"type": "bytes"},
        ...                 "m": {"type": "float32", "shape": [-1]}})
        ['img', 'm']
    """
    return [k for k in sorted(schema) if schema[k]["type"] == "bytes" or "shape" in schema[k]]


def has_integer_array(schema: Dict[str, Any]) -> bool:
    """Whether integer arrays are stored compressed: the schema has an int32 or int64 field with a shape.

    Example:
        >>> has_integer_array({"m": {"type": "int64", "shape": [2]}}), has_integer_array({"m": {"type": "int64"}})
        (True, False)
    """
    return any("shape" in v and v["type"] in ("int32", "int64") for v in schema.values())


def header_json(schema: Dict[str, Any], desc: str, index_fields: List[str], pages: List[Page], header_size: int,
                page_size: int, compression_size: int, addresses: List[str], shard_id: int) -> str:
    """A shard's header text, key for key as MindSpore writes it.

    Example:
        >>> header_json({"a": {"type": "int32"}}, "", ["a"], [], 16384, 32768, 0, ["x.mindrecord"], 0)[:72]
        '{"header_size":16384,"index_fields":[{"index_field":"a","schema_id":0}],'
    """
    index = _dump([{"index_field": f, "schema_id": 0} for f in index_fields]) if index_fields else "null"
    page = _dump([p.to_json() for p in pages]) if pages else "null"
    schema_text = _dump([{"blob_fields": blob_fields_of(schema), "desc": desc, "schema": schema}])
    return (f'{{"header_size":{header_size},"index_fields":{index},"page":{page},"page_size":{page_size},'
            f'"compression_size":{compression_size},"schema":{schema_text},"shard_addresses":{_dump(addresses)},'
            f'"shard_id":{shard_id},"statistics":null,"version":"{VERSION}"}}')


def read_header(path: str) -> Dict[str, Any]:
    """A shard's header (parsed JSON), checked as MindSpore checks it.

    Example:
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "junk.mindrecord")
        >>> _ = open(p, "wb").write(b"\\x05" + bytes(7) + b"hello")
        >>> read_header(p)
        Traceback (most recent call last):
        ...
        RuntimeError: Invalid file, the header of ... is not MindRecord's JSON header (Expecting value: ...).
    """
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise RuntimeError(f"Invalid file, {path} is too small to be a MindRecord file.")
        n = struct.unpack("<Q", head)[0]
        if n > MAX_HEADER_SIZE:
            raise RuntimeError(f"Invalid file, the header size of {path} ({n} bytes) is larger than "
                               f"{MAX_HEADER_SIZE}: it is not a MindRecord file.")
        text = f.read(n)
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RuntimeError(f"Invalid file, the header of {path} is not MindRecord's JSON header ({e}).") from None
    if header.get("version") not in SUPPORTED_VERSIONS:
        raise RuntimeError(f"Invalid file, the version of {path} is {header.get('version')!r}; MindRecord "
                           f"versions {list(SUPPORTED_VERSIONS)} are supported.")
    return header


def pages_of(header: Dict[str, Any]) -> List[Page]:
    """The pages a shard's header lists.

    Example:
        >>> pages_of({"page": None})
        []
    """
    return [Page.from_json(p) for p in header.get("page") or []]


def schema_of(header: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str], str]:
    """``(schema, blob fields, description)`` of a shard's header.

    Example:
        >>> schema_of({"schema": [{"blob_fields": [], "desc": "d", "schema": {"a": {"type": "int32"}}}]})
        ({'a': {'type': 'int32'}}, [], 'd')
    """
    entry = header["schema"][0]
    return entry["schema"], list(entry["blob_fields"]), entry.get("desc", "")


def index_fields_of(header: Dict[str, Any]) -> List[str]:
    """The index fields a shard's header lists.

    Example:
        >>> index_fields_of({"index_fields": [{"index_field": "id", "schema_id": 0}]})
        ['id']
    """
    return [f["index_field"] for f in header.get("index_fields") or []]


def split_blob(blob: bytes, blob_fields: List[str]) -> Dict[str, bytes]:
    """A row's blob cut into its fields' bytes (still compressed where integer arrays are).

    Example:
        >>> split_blob(bytes(7) + b"\\x01" + b"x" + bytes(7) + b"\\x02" + b"yz", ["a", "b"])
        {'a': b'x', 'b': b'yz'}
    """
    if len(blob_fields) == 1:
        return {blob_fields[0]: blob}
    out, pos = {}, 0
    for name in blob_fields:
        n = int.from_bytes(blob[pos:pos + 8], "big")
        out[name] = blob[pos + 8:pos + 8 + n]
        pos += 8 + n
    return out
