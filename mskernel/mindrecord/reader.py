"""Reading MindRecord files (MindSpore's or mskernel's): the shards a file names, their rows, their columns.

A row's columns come out as MindSpore's ``MindDataset`` gives them: scalars as 0-d arrays of the schema's type
(``string`` as a ``<U`` array), ``bytes`` as a 1-element ``S`` array, arrays reshaped to the schema's shape.

Example:
    >>> import os, tempfile
    >>> import numpy as np
    >>> from mskernel.mindrecord import FileWriter
    >>> path = os.path.join(tempfile.mkdtemp(), "r.mindrecord")
    >>> w = FileWriter(path); w.add_schema({"x": {"type": "float64"}, "b": {"type": "bytes"}})
    >>> w.write_raw_data([{"x": 0.25, "b": b"ab"}]); w.commit()
    >>> shards = MindRecordFiles(path)
    >>> shards.columns, next(shards.rows(["x", "b"]))
    (['b', 'x'], (array(0.25), array([b'ab'], dtype='|S2')))
"""
from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.mindrecord import shard as fmt

__all__ = ["MindRecordFiles", "decode_row"]

_NUMPY = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


def decode_row(record: Dict[str, Any], blob: bytes, schema: Dict[str, Any], blob_fields: List[str],
               compressed: bool, columns: Sequence[str]) -> Tuple[np.ndarray, ...]:
    """One row's ``columns`` from its raw record and its blob.

    Example:
        >>> decode_row({"id": 3}, b"xy", {"id": {"type": "int32"}, "b": {"type": "bytes"}}, ["b"], False, ["id", "b"])
        (array(3, dtype=int32), array([b'xy'], dtype='|S2'))
    """
    parts = fmt.split_blob(blob, blob_fields) if blob_fields else {}
    out = []
    for name in columns:
        spec = schema[name]
        kind = spec["type"]
        if name in parts:
            data = parts[name]
            if kind == "bytes":
                out.append(np.array([data]))
                continue
            if compressed and kind in ("int32", "int64"):
                values = fmt.decompress_ints(data).astype(_NUMPY[kind])
            else:
                values = np.frombuffer(data, _NUMPY[kind]).copy()
            out.append(values.reshape(spec["shape"]))
        elif kind == "string":
            out.append(np.array(record[name]))
        else:
            out.append(np.array(record[name], _NUMPY[kind]))
    return tuple(out)


class MindRecordFiles:
    """The shards of a MindRecord dataset: one file name (its header lists the others, found beside it) or a
    list of files (just those), each with its ``.db`` as MindSpore requires.

    Example:
        >>> MindRecordFiles("/no/such/file.mindrecord")
        Traceback (most recent call last):
        ...
        ValueError: The file /no/such/file.mindrecord does not exist or permission denied!
    """

    def __init__(self, dataset_files: Any) -> None:
        if isinstance(dataset_files, (list, tuple)):
            paths = [str(p) for p in dataset_files]
            for p in paths:
                self._check(p)
        else:
            self._check(str(dataset_files))
            header = fmt.read_header(str(dataset_files))
            folder = os.path.dirname(str(dataset_files))
            paths = [os.path.join(folder, name) for name in header["shard_addresses"]]
            for p in paths:
                self._check(p)
        self.paths = paths
        self.headers = [fmt.read_header(p) for p in paths]
        self.schema, self.blob_fields, self.desc = fmt.schema_of(self.headers[0])
        self.columns = sorted(self.schema)
        self.compressed = fmt.has_integer_array(self.schema)

    @staticmethod
    def _check(path: str) -> None:
        if not os.path.isfile(path):
            raise ValueError(f"The file {os.path.realpath(path)} does not exist or permission denied!")
        if not os.path.isfile(path + ".db"):
            raise RuntimeError(f"The input: {path}.db is not exists.")

    def __len__(self) -> int:
        return sum(1 for _ in self._locations())

    def _locations(self) -> Iterator[Tuple[int, int, int, int]]:
        """(shard, raw record offset in the file, blob offset in the file, row id) of every row, shard by shard
        in row order."""
        for shard, header in enumerate(self.headers):
            pages = fmt.pages_of(header)
            hsize, psize = header["header_size"], header["page_size"]
            blob_pages = {p.page_type_id: p for p in pages if p.page_type == fmt.BLOB_PAGE}
            found = []
            with open(self.paths[shard], "rb") as f:
                for raw_page in (p for p in pages if p.page_type == fmt.RAW_PAGE):
                    for group_id, raw_offset in raw_page.row_group_ids:
                        blob_page = blob_pages[group_id]
                        raw_at = hsize + psize * raw_page.page_id + raw_offset
                        blob_at = hsize + psize * blob_page.page_id
                        for row_id in range(blob_page.start_row_id, blob_page.end_row_id):
                            found.append((row_id, raw_at, blob_at))
                            f.seek(raw_at)
                            raw_at += 8 + int.from_bytes(f.read(8), "little")
                            f.seek(blob_at)
                            blob_at += 8 + int.from_bytes(f.read(8), "little")
            for row_id, raw_at, blob_at in sorted(found):
                yield shard, raw_at, blob_at, row_id

    def rows(self, columns: Optional[Sequence[str]] = None,
             order: Optional[Sequence[int]] = None) -> Iterator[Tuple[np.ndarray, ...]]:
        """The rows' ``columns`` (all, sorted by name, by default), in file order or in ``order`` (positions)."""
        columns = list(columns or self.columns)
        locations = list(self._locations())
        handles: Dict[int, Any] = {}
        try:
            for k in (range(len(locations)) if order is None else order):
                shard, raw_at, blob_at, _ = locations[int(k)]
                f = handles.get(shard)
                if f is None:
                    f = handles[shard] = open(self.paths[shard], "rb")  # noqa: SIM115 (closed below)
                f.seek(raw_at)
                record = fmt.unpack_msgpack(f.read(int.from_bytes(f.read(8), "little")))
                f.seek(blob_at)
                blob = f.read(int.from_bytes(f.read(8), "little"))
                yield decode_row(record, blob, self.schema, self.blob_fields, self.compressed, columns)
        finally:
            for f in handles.values():
                f.close()
