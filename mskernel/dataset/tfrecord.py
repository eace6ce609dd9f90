"""``TFRecordDataset``: ``tf.train.Example`` records from TFRecord files, without TensorFlow.

A TFRecord file is a sequence of records, each ``uint64 length``, ``uint32`` masked CRC-32C of the length, the
bytes, and their masked CRC (``compression_type`` 'GZIP' or 'ZLIB' compresses the whole file). Each record is
an ``Example`` protobuf: a map from feature name to a list of bytes, floats or int64s, decoded here from the
protobuf wire format. Without a ``schema`` the columns are the first record's features in sorted order:
int64 lists as int64, float lists as float32, a bytes value as its uint8 bytes; a ``schema`` gives each
column's type (``string`` makes the bytes values a string array) and shape, and its ``numRows`` the number of
rows.

Example:
    >>> TFRecordDataset("/no/such/*.tfrecord")
    Traceback (most recent call last):
    ...
    ValueError: The following patterns did not match any files: ['/no/such/*.tfrecord'].
"""
from __future__ import annotations

import gzip
import struct
import zlib
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset.corpus import pipeline_error
from mskernel.dataset.engine import Row
from mskernel.dataset.file_sources import _files, _interleave, _LineSource
from mskernel.dataset.schema import Schema

__all__ = ["TFRecordDataset", "read_tfrecord", "parse_example"]


def _varint(buf: bytes, pos: int) -> Tuple[int, int]:
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def _fields(buf: bytes) -> List[Tuple[int, int, Any]]:
    """The (field number, wire type, value) of a protobuf message, in order."""
    out, pos = [], 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.append((num, wire, value))
    return out


def _int64s(fields: List[Tuple[int, int, Any]]) -> List[int]:
    values: List[int] = []
    for num, wire, v in fields:
        if num != 1:
            continue
        if wire == 0:
            values.append(v)
        else:  # packed
            pos = 0
            while pos < len(v):
                x, pos = _varint(v, pos)
                values.append(x)
    return [x - (1 << 64) if x >= 1 << 63 else x for x in values]


def _floats(fields: List[Tuple[int, int, Any]]) -> List[float]:
    values: List[float] = []
    for num, wire, v in fields:
        if num == 1:
            values += list(struct.unpack(f"<{len(v) // 4}f", v)) if wire == 2 else [struct.unpack("<f", v)[0]]
    return values


def parse_example(record: bytes) -> Dict[str, Tuple[str, list]]:
    """A serialized ``tf.train.Example``: feature name → (kind, values), kind ``bytes``, ``float`` or ``int64``.

    Example:
        >>> parse_example(bytes.fromhex("0a0d" "0a0b" "0a0178" "1206" "1a04" "0a020107"))
        {'x': ('int64', [1, 7])}
    """
    out: Dict[str, Tuple[str, list]] = {}
    for num, _, features in _fields(record):
        if num != 1:
            continue
        for fnum, _, entry in _fields(features):
            if fnum != 1:
                continue
            name, feature = "", b""
            for enum, _, v in _fields(entry):
                if enum == 1:
                    name = v.decode("utf-8")
                elif enum == 2:
                    feature = v
            kind, values = "int64", []
            for knum, _, lst in _fields(feature):
                sub = _fields(lst)
                if knum == 1:
                    kind, values = "bytes", [bytes(v) for n, _, v in sub if n == 1]
                elif knum == 2:
                    kind, values = "float", _floats(sub)
                elif knum == 3:
                    kind, values = "int64", _int64s(sub)
            out[name] = (kind, values)
    return out


def read_tfrecord(path: str, compression_type: str = "") -> List[bytes]:
    """The records of one TFRecord file (lengths checked; the CRCs are not).

    Example:
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "a.tfrecord")
        >>> _ = open(p, "wb").write(struct.pack("<Q", 2) + b"\\0" * 4 + b"hi" + b"\\0" * 4)
        >>> read_tfrecord(p)
        [b'hi']
    """
    with open(path, "rb") as f:
        raw = f.read()
    if compression_type == "GZIP":
        raw = gzip.decompress(raw)
    elif compression_type == "ZLIB":
        raw = zlib.decompress(raw)
    out, pos = [], 0
    while pos < len(raw):
        if pos + 12 > len(raw):
            raise pipeline_error(f"Invalid file, failed to read TFRecord file: {path}, the record is truncated.")
        (n,) = struct.unpack_from("<Q", raw, pos)
        if pos + 16 + n > len(raw):
            raise pipeline_error(f"Invalid file, failed to read TFRecord file: {path}, the record is truncated.")
        out.append(raw[pos + 12:pos + 12 + n])
        pos += 16 + n
    return out


def _column(kind: str, values: list, col: Optional[Dict[str, Any]]) -> np.ndarray:
    if col is None:
        if kind == "bytes":
            return np.frombuffer(values[0] if values else b"", np.uint8).copy()
        return np.array(values, np.int64 if kind == "int64" else np.float32)
    typ = col["type"]
    if typ in ("string", "bytes"):
        arr = np.array([v.decode("utf-8") for v in values]) if kind == "bytes" else np.array([str(v) for v in values])
    elif kind == "bytes":
        arr = np.frombuffer(b"".join(values), np.uint8).astype(typ)
    else:
        arr = np.array(values).astype(typ)
    shape = col.get("shape")
    return arr.reshape(shape) if shape else arr


class TFRecordDataset(_LineSource):
    """Rows of TFRecord files (globs accepted, read in sorted order): one row per ``Example``. ``columns_list``
    picks columns; several files are read a row of each in turn (file after file with one worker);
    ``num_shards``/``shard_id`` give each shard whole files (``shard_equal_rows``: an equal slice of all the
    rows taken file after file, wrapping round); ``shuffle`` (a bool or a ``Shuffle`` mode, default global)
    shuffles the rows.

    Example:
        >>> TFRecordDataset("/no/such/a.tfrecord", compression_type="LZ4")
        Traceback (most recent call last):
        ...
        ValueError: Input compression_type can only be either '' (no compression), 'ZLIB', or 'GZIP', but got 'LZ4'.
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], schema: Union[str, Schema, None] = None,
                 columns_list: Optional[Sequence[str]] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = True, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, shard_equal_rows: bool = False, cache: Any = None,
                 compression_type: Optional[str] = None) -> None:
        compression_type = compression_type or ""
        if compression_type not in ("", "ZLIB", "GZIP"):
            raise ValueError(f"Input compression_type can only be either '' (no compression), 'ZLIB', or 'GZIP', "
                             f"but got '{compression_type}'.")
        files = sorted(_files("TFRecordDataset", dataset_files))
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not num_samples:
            num_samples = schema.num_rows
        spec = {c["name"]: c for c in schema.columns} if schema is not None else None
        per_file = [[parse_example(r) for r in read_tfrecord(p, compression_type)] for p in files]
        first = next((ex for recs in per_file for ex in recs), {})
        names = [c["name"] for c in schema.columns] if schema is not None else sorted(first)
        if columns_list:
            for c in columns_list:
                if c not in first:
                    raise pipeline_error(f"Invalid columns_list, tfrecord file failed to find column name: {c}")
            names = list(columns_list)
        rows = [[self._row(ex, names, spec) for ex in recs] for recs in per_file]
        if num_shards and not shard_equal_rows:
            rows = rows[shard_id::num_shards]
        if num_shards and shard_equal_rows:  # a slice of all the rows, file after file, wrapping round
            every = [r for recs in rows for r in recs]
            per = -(-len(every) // num_shards)
            ordered = [every[(shard_id * per + k) % len(every)] for k in range(per)] if every else []
        else:
            ordered = _interleave(rows, num_parallel_workers)
        super().__init__(names, ordered, num_samples, shuffle, None, None)

    @staticmethod
    def _row(example: Dict[str, Tuple[str, list]], names: List[str], spec: Optional[Dict[str, Any]]) -> Row:
        out = []
        for n in names:
            if n not in example:
                raise pipeline_error(f"Invalid columns_list, tfrecord file failed to find column name: {n}")
            kind, values = example[n]
            out.append(_column(kind, values, None if spec is None else spec.get(n)))
        return tuple(out)
