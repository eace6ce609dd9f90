"""``FileWriter``: MindRecord files as MindSpore 2.10 writes them, byte for byte, with their SQLite index.

Rows are checked against the schema as MindSpore's ``FileWriter`` checks them (a row that does not match is
left out with a warning in the log; a batch with no row left raises), split into raw fields (MessagePack) and a
blob (``bytes`` and arrays), and laid out in pages by MindSpore's algorithm: each ``write_raw_data`` batch is
divided among the shards (``shard_num`` files, each its own share in turn), its rows fill the last blob page and
then new ones, a blob page's rows make one row group of the raw pages, and a row group that would overflow its
raw page moves whole to a new one. ``commit`` writes each shard's header and its ``.db`` index.

Where MindSpore leaves a choice to chance (which shards take the remainder of a batch that does not divide
evenly: a random device in the wheel), the first shards take it here.

Example:
    >>> import os, tempfile
    >>> import numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "demo.mindrecord")
    >>> writer = FileWriter(path, shard_num=1, overwrite=True)
    >>> writer.add_schema({"label": {"type": "int32"}, "data": {"type": "float32", "shape": [-1]}}, "demo")
    >>> writer.write_raw_data([{"label": i, "data": np.arange(i + 1, dtype=np.float32)} for i in range(3)])
    >>> writer.commit()
    >>> sorted(os.listdir(os.path.dirname(path)))
    ['demo.mindrecord', 'demo.mindrecord.db']
"""
from __future__ import annotations

import logging
import os
import re
import sqlite3
import stat
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.mindrecord import shard as fmt
from mskernel.mindrecord.errors import (MRMAddSchemaError, MRMDefineIndexError, MRMGetMetaError,
                                        MRMInvalidSchemaError, ParamTypeError, ParamValueError)

__all__ = ["FileWriter", "check_filename", "write_index"]

logger = logging.getLogger(__name__)

_SCALAR_TYPES = ["int32", "int64", "float32", "float64", "string", "bytes"]
_ARRAY_TYPES = ["int32", "int64", "float32", "float64"]
#: Python type name of a value -> the schema types it may fill (MindSpore's VALUE_TYPE_MAP; a str value is a
#: substring test there, which only "string" passes)
_VALUE_TYPES: Dict[str, Any] = {"int": ["int32", "int64"], "float": ["float32", "float64"], "str": "string",
                                "bytes": "bytes", "int32": "int32", "int64": "int64", "float32": "float32",
                                "float64": "float64", "ndarray": ["int32", "int64", "float32", "float64"]}
_SQL_TYPES = {"string": "TEXT", "int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL"}
_PIPELINE = "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. "


def check_filename(path: Any, arg_name: str = "") -> bool:
    """MindSpore's checks of a MindRecord file name (not empty, a string, no directory-only path, none of
    ``\\/:*?"<>|`&;'`` in the name, no space at either end).

    Example:
        >>> check_filename("a:b.mindrecord")
        Traceback (most recent call last):
        ...
        mskernel.mindrecord.errors.ParamValueError: [ParamValueError]: Invalid parameter value. File name should ...
    """
    name = "File path" if not arg_name else f"'{arg_name}'"
    if not path:
        raise ParamValueError(f"{name} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    base = os.path.basename(path)
    if set(base) & set("\\/:*?\"<>|`&';"):
        raise ParamValueError("File name should not contains \\/:*?\\\"<>|`&;\\'")
    if base.startswith(" ") or base.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")
    return True


def _validate_schema(content: Any) -> str:
    """The reason ``content`` is not a MindRecord schema ('' when it is one), in MindSpore's words."""
    if not content:
        return "Schema content is empty."
    if not isinstance(content, dict):
        return "Schema content should be dict."
    for k, v in content.items():
        if not re.match(r"^[0-9a-zA-Z\_]+$", k):
            return f"Field '{k}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
        if not v or not isinstance(v, dict):
            return f"Field '{k}' should be dict."
        if len(v) == 1 and "type" in v:
            if v["type"] not in _SCALAR_TYPES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
        elif len(v) == 2 and "type" in v:
            if v["type"] not in _ARRAY_TYPES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
            if "shape" not in v:
                return f"Field '{v}' contains illegal attributes."
            if not isinstance(v["shape"], list):
                return f"Field '{k}' contain illegal attribute '{v['shape']}'."
        else:
            return f"Field '{v}' contains illegal attributes."
    return ""


def _row_problem(i: int, row: Dict[str, Any], schema: Dict[str, Any]) -> Optional[str]:
    """Why row ``i`` does not fit the schema (MindSpore's warning text), or None."""
    for name in sorted(schema):
        spec = schema[name]
        if name not in row:
            return f"for schema, {i} th data is wrong, there is not field: '{name}' in the raw data."
        value = row[name]
        kind = type(value).__name__
        if kind not in _VALUE_TYPES:
            return f"for schema, {i} th data is wrong, data type: '{kind}' for field: '{name}' is not matched."
        if spec["type"] not in _VALUE_TYPES[kind]:
            return f"for schema, {i} th data is wrong, data type: '{spec['type']}' for field: '{name}' is not matched."
        if kind == "ndarray":
            if "shape" not in spec:
                return f"for schema, {i} th data is wrong, data shape for field: '{name}' is not specified."
            if spec["type"] != str(value.dtype):
                return (f"for schema, {i} th data is wrong, data type: '{value.dtype}' for field: '{name}' is not "
                        f"matched.")
            try:
                np.reshape(value, spec["shape"])
            except ValueError:
                return (f"for schema, {i} th data is wrong, data shape: '{value.shape}' for field: '{name}' is not "
                        f"matched.")
    return None


def _plain(value: Any) -> Any:
    """numpy scalars of the four numeric types as Python numbers (what MindSpore stores in a raw record)."""
    return value.item() if isinstance(value, (np.int32, np.int64, np.float32, np.float64)) else value


def _checked_size(kind: str, size: int, low: int, high: int) -> int:
    """A header or page size within MindSpore's range and a multiple of 4, else its error."""
    if not low <= size <= high:
        raise RuntimeError(f"{_PIPELINE}Invalid data, {kind} size: {size} should be in range [{low} bytes, {high} "
                           f"bytes].")
    if size % 4:
        raise RuntimeError(f"{_PIPELINE}Invalid data, {kind} size {size} should be divided by four.")
    return int(size)


class _Shards:
    """The data files of one writer and their pages, written by MindSpore's page algorithm."""

    def __init__(self, paths: List[str], schema: Dict[str, Any], desc: str, index_fields: List[str],
                 header_size: int, page_size: int) -> None:
        self.paths, self.schema, self.desc, self.index_fields = paths, schema, desc, index_fields
        self.header_size, self.page_size = header_size, page_size
        self.pages: List[List[fmt.Page]] = [[] for _ in paths]
        self.files = [open(p, "w+b") for p in paths]  # noqa: SIM115 (closed by commit)
        self.compression_size = 0
        self.blob_fields = fmt.blob_fields_of(schema)
        self.compress = fmt.has_integer_array(schema)

    # -- a batch ------------------------------------------------------------------------------------
    def write(self, raws: List[bytes], blobs: List[bytes]) -> None:
        self.raw_size = [8 + len(r) for r in raws]
        self.blob_size = [8 + len(b) for b in blobs]
        if max(self.raw_size + self.blob_size) > self.page_size:
            raise RuntimeError(f"{_PIPELINE}Invalid data, Page size: {self.page_size} is too small to save a row. "
                               f"Please try to use the mindrecord api 'set_page_size(value)' to enable larger page "
                               f"size, and the value range is in [{fmt.MIN_PAGE_SIZE}, {fmt.MAX_PAGE_SIZE}] bytes.")
        self.raws, self.blobs = raws, blobs
        n, count = len(raws), len(self.paths)
        start = 0
        for shard in range(count):  # each shard its share in turn, the remainder to the first shards
            end = start + n // count + (1 if shard < n % count else 0)
            if end > start:
                self._write_shard(shard, start, end)
            start = end

    def _last(self, shard: int, kind: str) -> Optional[fmt.Page]:
        for page in reversed(self.pages[shard]):
            if page.page_type == kind:
                return page
        return None

    def _put(self, shard: int, offset: int, data: bytes) -> None:
        f = self.files[shard]
        f.seek(offset)
        f.write(data)

    def _at(self, page_id: int, offset: int = 0) -> int:
        return self.header_size + self.page_size * page_id + offset

    def _blob_chunk(self, rows: Tuple[int, int]) -> bytes:
        return b"".join(len(self.blobs[j]).to_bytes(8, "little") + self.blobs[j] for j in range(*rows))

    def _write_shard(self, shard: int, start: int, end: int) -> None:
        last_raw, last_blob = self._last(shard, fmt.RAW_PAGE), self._last(shard, fmt.BLOB_PAGE)
        groups = self._cut_row_groups(start, end, last_raw, last_blob)
        if last_blob is not None and groups[0][0] != groups[0][1]:  # the first group fills the last blob page
            self._put(shard, self._at(last_blob.page_id, last_blob.page_size), self._blob_chunk(groups[0]))
            last_blob.page_size += sum(self.blob_size[groups[0][0]:groups[0][1]])
            last_blob.end_row_id += groups[0][1] - groups[0][0]
        page_id = len(self.pages[shard]) - 1
        type_id = last_blob.page_type_id if last_blob else -1
        row = last_blob.end_row_id if last_blob else 0
        for rows in groups[1:]:  # each further group is a new blob page
            self._put(shard, self._at(page_id + 1), self._blob_chunk(rows))
            page_id, type_id = page_id + 1, type_id + 1
            size = sum(self.blob_size[rows[0]:rows[1]])
            self.pages[shard].append(fmt.Page(page_id, shard, fmt.BLOB_PAGE, type_id, row, row + rows[1] - rows[0],
                                              [], size))
            row += rows[1] - rows[0]
        last_raw = self._shift_raw_page(shard, groups[0], last_raw)
        self._write_raw_pages(shard, groups, last_raw)

    def _cut_row_groups(self, start: int, end: int, last_raw: Optional[fmt.Page],
                        last_blob: Optional[fmt.Page]) -> List[Tuple[int, int]]:
        """Rows ``[start, end)`` cut where a blob page or the last raw row group would overflow; the first group
        (possibly empty) continues the last blob page."""
        n_blob = last_blob.page_size if last_blob else 0
        n_raw = (last_raw.page_size - last_raw.row_group_ids[-1][1]) if last_raw and last_raw.row_group_ids else \
            (last_raw.page_size if last_raw else 0)
        groups, first = [], start
        for i in range(start, end):
            if n_blob == 0 or n_blob + self.blob_size[i] > self.page_size or n_raw + self.raw_size[i] > self.page_size:
                groups.append((first, i))
                first, n_blob, n_raw = i, self.blob_size[i], self.raw_size[i]
            else:
                n_blob += self.blob_size[i]
                n_raw += self.raw_size[i]
        groups.append((first, end))
        return groups

    def _shift_raw_page(self, shard: int, first: Tuple[int, int], last_raw: Optional[fmt.Page]) -> Optional[fmt.Page]:
        """When the rows continuing the last row group do not fit its raw page, that group moves to a new one."""
        if first[0] == first[1] or last_raw is None:
            return last_raw
        if sum(self.raw_size[first[0]:first[1]]) + last_raw.page_size <= self.page_size:
            return last_raw
        group_id, offset = last_raw.row_group_ids[-1]
        moved = last_raw.page_size - offset
        f = self.files[shard]
        f.seek(self._at(last_raw.page_id, offset))
        data = f.read(moved)
        page_id = len(self.pages[shard])
        self._put(shard, self._at(page_id), data)
        last_raw.page_size = offset
        last_raw.row_group_ids.pop()
        page = fmt.Page(page_id, shard, fmt.RAW_PAGE, last_raw.page_id + 1, 0, 0, [(group_id, 0)], moved)
        self.pages[shard].append(page)
        return page

    def _write_raw_pages(self, shard: int, groups: List[Tuple[int, int]], last_raw: Optional[fmt.Page]) -> None:
        last_group = last_raw.row_group_ids[-1][0] if last_raw and last_raw.row_group_ids else -1
        for chunk, rows in enumerate(groups):
            if rows[0] == rows[1]:
                continue
            size = sum(self.raw_size[rows[0]:rows[1]])
            if last_raw is None or last_raw.page_size + size > self.page_size:
                page = fmt.Page(len(self.pages[shard]), shard, fmt.RAW_PAGE,
                                (last_raw.page_id if last_raw else -1) + 1, 0, 0, [], 0)
                self.pages[shard].append(page)
                last_raw = page
            n = last_raw.page_size
            data = b"".join(len(self.raws[j]).to_bytes(8, "little") + self.raws[j] for j in range(*rows))
            self._put(shard, self._at(last_raw.page_id, n), data)
            if chunk > 0:
                last_group += 1
                last_raw.row_group_ids.append((last_group, n))
            last_raw.page_size = n + size

    # -- commit -------------------------------------------------------------------------------------
    def commit(self) -> None:
        addresses = [os.path.basename(p) for p in self.paths]
        for shard, f in enumerate(self.files):
            text = fmt.header_json(self.schema, self.desc, self.index_fields, self.pages[shard], self.header_size,
                                   self.page_size, max(self.compression_size, 0), addresses, shard).encode("utf-8")
            if len(text) + 8 > self.header_size:
                raise RuntimeError(f"{_PIPELINE}Invalid data, the size of mindrecord file header {len(text) + 8} "
                                   f"is larger than the header size {self.header_size}. Please use 'set_header_size' "
                                   f"to set a larger value.")
            f.seek(0)
            f.write(len(text).to_bytes(8, "little") + text)
            f.close()
        for shard, path in enumerate(self.paths):
            write_index(path, self.schema, self.index_fields, self.pages[shard], self.header_size, self.page_size)


def write_index(path: str, schema: Dict[str, Any], index_fields: Sequence[str], pages: List[fmt.Page],
                header_size: int, page_size: int) -> None:
    """Write ``<path>.db``, the SQLite index MindSpore reads a data file through: table ``INDEXES`` (one row per
    record: its id, raw and blob pages and offsets, the index fields' values) and ``SHARD_NAME``.

    Example:
        >>> import os, tempfile
        >>> p = os.path.join(tempfile.mkdtemp(), "empty.mindrecord")
        >>> _ = open(p, "wb").write(b"")
        >>> write_index(p, {"id": {"type": "int32"}}, ["id"], [], 1 << 14, 1 << 15)
        >>> con = sqlite3.connect(p + ".db"); con.execute("SELECT NAME FROM SHARD_NAME").fetchall()
        [('empty.mindrecord',)]
    """
    columns = "".join(f",INC_{k} INT, {name}_0 {_SQL_TYPES[schema[name]['type']]}"
                      for k, name in enumerate(index_fields))
    keys = "".join(f",INC_{k}" for k in range(len(index_fields)))
    create = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL"
              ", PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL"
              ", ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL"
              ", PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL"
              f"{columns}, PRIMARY KEY(ROW_ID{keys}));")
    rows = []
    blob_pages = {p.page_type_id: p for p in pages if p.page_type == fmt.BLOB_PAGE}
    with open(path, "rb") as f:
        for raw_page in (p for p in pages if p.page_type == fmt.RAW_PAGE):
            for group_id, raw_offset in raw_page.row_group_ids or [(0, 0)]:
                blob_page = blob_pages[group_id]
                blob_offset = 0
                for row_id in range(blob_page.start_row_id, blob_page.end_row_id):
                    f.seek(header_size + page_size * raw_page.page_id + raw_offset)
                    n = int.from_bytes(f.read(8), "little")
                    record = fmt.unpack_msgpack(f.read(n))
                    raw_end = raw_offset + 8 + n
                    f.seek(header_size + page_size * blob_page.page_id + blob_offset)
                    blob_end = blob_offset + 8 + int.from_bytes(f.read(8), "little")
                    values = [row_id, group_id, raw_page.page_id, raw_offset, raw_end, blob_page.page_id,
                              blob_offset, blob_end]
                    for name in index_fields:
                        values += [0, record[name]]
                    rows.append(values)
                    raw_offset, blob_offset = raw_end, blob_end
    con = sqlite3.connect(path + ".db")
    try:
        con.execute("DROP TABLE IF EXISTS INDEXES;")
        con.execute(create)
        con.execute("DROP TABLE IF EXISTS SHARD_NAME;")
        con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
        con.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?);", (os.path.basename(path),))
        fields = "".join(f",INC_{k},{name}_0" for k, name in enumerate(index_fields))
        marks = ",".join("?" * (8 + 2 * len(index_fields)))
        con.executemany("INSERT INTO INDEXES (ROW_ID,ROW_GROUP_ID,PAGE_ID_RAW,PAGE_OFFSET_RAW,PAGE_OFFSET_RAW_END,"
                        f"PAGE_ID_BLOB,PAGE_OFFSET_BLOB,PAGE_OFFSET_BLOB_END{fields}) VALUES ({marks})", rows)
        con.commit()
    finally:
        con.close()


class FileWriter:
    """MindSpore's ``mindrecord.FileWriter(file_name, shard_num=1, overwrite=False)``: MindRecord files the wheel
    reads, byte for byte as it writes them (``shard_num`` > 1: ``file_name0``, ``file_name1``, ...).

    Example:
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "pets.mindrecord")
        >>> w = FileWriter(path, overwrite=True)
        >>> w.add_schema({"name": {"type": "string"}, "label": {"type": "int32"}, "image": {"type": "bytes"}})
        >>> w.add_index(["label"])
        >>> w.write_raw_data([{"name": "cat", "label": 0, "image": b"\\x89PNG"}])
        >>> w.commit()
        >>> FileWriter(path).commit()
        Traceback (most recent call last):
        ...
        RuntimeError: Exception thrown from dataset pipeline. ... mindrecord files already exist. ...
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False) -> None:
        check_filename(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not fmt.MIN_SHARD_COUNT <= shard_num <= fmt.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between {fmt.MIN_SHARD_COUNT} "
                                  f"and {fmt.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._file_name = file_name
        width = len(str(shard_num - 1))
        self._paths = [file_name] if shard_num == 1 else [f"{file_name}{str(i).rjust(width, '0')}"
                                                          for i in range(shard_num)]
        self._overwrite = overwrite
        self._schema: Optional[Dict[str, Any]] = None
        self._desc = ""
        self._index_fields: List[str] = []
        self._header_size, self._page_size = fmt.DEFAULT_HEADER_SIZE, fmt.DEFAULT_PAGE_SIZE
        self._shards: Optional[_Shards] = None
        self._flushed = False
        self._parallel: Optional[bool] = None

    # -- schema and index ---------------------------------------------------------------------------
    def add_schema(self, content: Dict[str, Any], desc: Optional[str] = None) -> None:
        """Describe the fields: ``{"name": {"type": "int32"|"int64"|"float32"|"float64"|"string"|"bytes"}}``,
        arrays with a ``shape`` (``[-1]``, ``[3, 224, 224]``) and a numeric type. One schema per writer.

        Example:
            >>> FileWriter("x.mindrecord").add_schema({"img": {"type": "uint8", "shape": [-1]}})
            Traceback (most recent call last):
            ...
            mskernel.mindrecord.errors.MRMInvalidSchemaError: [MRMInvalidSchemaError]: Schema format is error. ...
        """
        problem = _validate_schema(content)
        if problem:
            raise MRMInvalidSchemaError(problem)
        if self._schema is not None:
            logger.error("Only support one schema in a MindRecord file.")
            raise MRMAddSchemaError()
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc if desc else ""

    def add_index(self, index_fields: List[str]) -> None:
        """Index these fields (scalar ones: numbers and strings) in the ``.db``; without a call, every scalar
        field is indexed.

        Example:
            >>> w = FileWriter("x.mindrecord")
            >>> w.add_schema({"label": {"type": "int32"}, "image": {"type": "bytes"}})
            >>> w.add_index(["image"])
            Traceback (most recent call last):
            ...
            mskernel.mindrecord.errors.MRMDefineIndexError: [MRMDefineIndexError]: Failed to define index field. ...
        """
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._schema is None:
            raise MRMGetMetaError()
        blobs = fmt.blob_fields_of(self._schema)
        for name in index_fields:
            if name in blobs:
                raise MRMDefineIndexError(f"Failed to set field {name} since it's not primitive type.")
            if not isinstance(name, str):
                raise ParamTypeError("index field", "str")
        for name in index_fields:
            if name not in self._schema:
                raise RuntimeError(f"{_PIPELINE}Invalid input, 'index_fields': {name} can not found in schema: "
                                   f"{fmt._dump(self._schema)}.\n Please use 'add_index' function to add proper "
                                   f"'index_fields'.")
        self._index_fields.extend(index_fields)

    def set_header_size(self, header_size: int) -> None:
        """The space reserved for each file's header (16 KB to 128 MB, a multiple of 4; 16 MB by default).

        Example:
            >>> FileWriter("x.mindrecord").set_header_size(1000)
            Traceback (most recent call last):
            ...
            RuntimeError: ... Invalid data, header size: 1000 should be in range [16384 bytes, 134217728 bytes].
        """
        self._header_size = _checked_size("header", header_size, fmt.MIN_HEADER_SIZE, fmt.MAX_HEADER_SIZE)

    def set_page_size(self, page_size: int) -> None:
        """The size of a page (32 KB to 256 MB, a multiple of 4; 32 MB by default); a row must fit in one.

        Example:
            >>> FileWriter("x.mindrecord").set_page_size((1 << 15) + 2)
            Traceback (most recent call last):
            ...
            RuntimeError: ... Invalid data, page size 32770 should be divided by four.
        """
        self._page_size = _checked_size("page", page_size, fmt.MIN_PAGE_SIZE, fmt.MAX_PAGE_SIZE)

    # -- writing ------------------------------------------------------------------------------------
    def _open(self) -> _Shards:
        if self._shards is not None:
            return self._shards
        for path in self._paths:
            for p in (path, path + ".db"):
                if os.path.exists(p):
                    if not self._overwrite:
                        raise RuntimeError(f"{_PIPELINE}Invalid file, mindrecord files already exist. Please check "
                                           f"file path: {os.path.realpath(path)}.\nIf you do not want to keep the "
                                           f"files, set the 'overwrite' parameter to True and try again.")
                    os.remove(p)
        if self._schema is None:
            raise RuntimeError(f"{_PIPELINE}Invalid data, schema is not found in header, please use 'add_schema' to "
                               f"add a schema for new mindrecord files.")
        index = self._index_fields or [k for k in sorted(self._schema)
                                       if self._schema[k]["type"] != "bytes" and "shape" not in self._schema[k]]
        self._shards = _Shards(self._paths, self._schema, self._desc, index, self._header_size, self._page_size)
        return self._shards

    def write_raw_data(self, raw_data: List[Dict[str, Any]], parallel_writer: bool = False) -> None:
        """Check ``raw_data`` (a list of dicts, one per row) against the schema and write it; rows that do not
        match are left out with a warning in the log, as MindSpore does. ``parallel_writer`` is accepted and
        writes in this process.

        Example:
            >>> import os, tempfile
            >>> w = FileWriter(os.path.join(tempfile.mkdtemp(), "x.mindrecord"))
            >>> w.add_schema({"label": {"type": "int32"}})
            >>> w.write_raw_data({"label": 1})
            Traceback (most recent call last):
            ...
            mskernel.mindrecord.errors.ParamTypeError: [ParamTypeError]: Invalid parameter type. 'raw_data' ...
        """
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel is None:
            self._parallel = parallel_writer
        if self._parallel != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        shards = self._open()
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        if self._flushed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord files.When creating new "
                               "MindRecord files, please remove `commit` before `write_raw_data`. In other cases, when "
                               "appending to existing MindRecord files, please call `open_for_append` first and then "
                               "`write_raw_data`.")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        schema = shards.schema
        problems = {}
        for i, row in enumerate(raw_data):
            why = _row_problem(i, row, schema)
            if why:
                problems[i] = why
        for i in sorted(problems, reverse=True):
            raw_data.pop(i)
            logger.warning(problems[i])
        if not raw_data:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' to mindrecord file. "
                               "Please check the abnormal input data indicated in the warning log above.")
        raws, blobs = [], []
        raw_fields = [k for k in sorted(schema) if k not in shards.blob_fields]
        for row in raw_data:
            blob = self._merge_blob(row, shards)
            if blob:
                blobs.append(blob)
            record = {k: _plain(row[k]) for k in raw_fields if k in row}
            if record:
                raws.append(fmt.pack_msgpack(record))
        if shards.compress:
            blobs = [self._compress(b, shards) for b in blobs]
        if not blobs and raws:
            blobs = [bytes(4)] * len(raws)  # MindSpore's stand-in blob when the schema has no blob field
        if blobs and not raws:
            raws = [fmt.pack_msgpack({"id": 0})] * len(blobs)  # and its stand-in record when all fields are blobs
        if len(raws) != len(blobs):
            raise RuntimeError(f"{_PIPELINE}[Internal ERROR] raw data size: {len(raws)} is not equal to blob data "
                               f"size: {len(blobs)}.")
        shards.write(raws, blobs)

    @staticmethod
    def _merge_blob(row: Dict[str, Any], shards: _Shards) -> bytes:
        fields = shards.blob_fields
        if not fields:
            return b""
        if len(fields) == 1:
            return bytes(row[fields[0]])
        parts = []
        for name in fields:
            v = row[name]
            data = np.asarray(v).astype(shards.schema[name]["type"]).tobytes() if isinstance(v, np.ndarray) else \
                bytes(v)
            parts.append(len(data).to_bytes(8, "big") + data)
        return b"".join(parts)

    @staticmethod
    def _compress(blob: bytes, shards: _Shards) -> bytes:
        """Integer arrays compressed (``shard.compress_ints``); the bytes saved count in the header."""
        def width(name: str) -> int:
            return 4 if shards.schema[name]["type"] == "int32" else 8
        fields = shards.blob_fields
        if len(fields) == 1:
            out = fmt.compress_ints(blob, width(fields[0]))
        else:
            parts = fmt.split_blob(blob, fields)
            out = b""
            for name in fields:
                data = parts[name]
                if shards.schema[name]["type"] in ("int32", "int64"):
                    data = fmt.compress_ints(data, width(name))
                out += len(data).to_bytes(8, "big") + data
        shards.compression_size += len(blob) - len(out)
        return out

    def commit(self) -> None:
        """Write the headers and the ``.db`` indexes; the files are complete (and read-only for others).

        Example:
            >>> import os, tempfile
            >>> path = os.path.join(tempfile.mkdtemp(), "empty.mindrecord")
            >>> w = FileWriter(path); w.add_schema({"label": {"type": "int32"}}); w.commit()
            >>> os.path.exists(path + ".db")
            True
        """
        shards = self._open()
        self._flushed = True
        if shards.files[0].closed:
            return
        shards.commit()
        for path in self._paths:
            for p in (path, path + ".db"):
                if os.path.exists(p):
                    os.chmod(p, stat.S_IRUSR | stat.S_IWUSR)
