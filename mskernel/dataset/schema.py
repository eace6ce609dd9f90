"""``Schema``: the columns (name, type, shape) of a dataset, as MindSpore's JSON schema files write them.

Example:
    >>> import mskernel as ms
    >>> s = Schema(); s.add_column("a", ms.int32, [2]); s.columns
    [{'name': 'a', 'rank': 1, 'shape': [2], 'type': 'int32'}]
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

__all__ = ["Schema"]

_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "string", "bytes")


def _type_name(de_type: Any) -> str:
    """A MindSpore dtype (or its name) as the schema's type name; numpy dtypes are refused, as in MindSpore."""
    if isinstance(de_type, str):
        name = {"bool_": "bool", "str": "string"}.get(de_type, de_type)
    elif hasattr(de_type, "attr") and (hasattr(de_type, "np") or de_type.attr == "string_"):  # string: no np
        name = {"bool_": "bool", "string_": "string"}.get(de_type.attr, de_type.attr)
    else:
        name = ""
    if name not in _TYPES:
        raise TypeError("Unknown column type.")
    return name


class Schema:
    """Columns of a dataset: ``add_column``, ``parse_columns``, ``to_json``, ``from_json`` (``schema_file``: a
    JSON file with a ``columns`` entry); printing shows the JSON.

    Example:
        >>> import mskernel as ms
        >>> s = Schema(); s.add_column("x", ms.float32); print(s)
        {
          "columns": [
            {
              "name": "x",
              "rank": 1,
              "type": "float32"
            }
          ]
        }
    """

    def __init__(self, schema_file: Optional[str] = None) -> None:
        self.columns: List[Dict[str, Any]] = []
        self.num_rows: Optional[int] = None
        self.dataset_type = ""
        if schema_file is not None:
            with open(schema_file) as f:
                self.from_json(json.load(f))

    def add_column(self, name: str, de_type: Any, shape: Optional[Sequence[int]] = None) -> None:
        """Append a column; without ``shape`` it is recorded with rank 1 and no shape."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"Argument name with value {name} is not of type [<class 'str'>], but got "
                            f"{type(name)}." if not isinstance(name, str) else "name should not be empty.")
        col: Dict[str, Any] = {"name": name, "type": _type_name(de_type)}
        if shape is None:
            col["rank"] = 1
        else:
            col["shape"], col["rank"] = [int(v) for v in shape], len(shape)
        self.columns.append(dict(sorted(col.items())))

    def parse_columns(self, columns: Union[Dict[str, Dict[str, Any]], List[Dict[str, Any]]]) -> None:
        """Replace the columns by ``{name: {"type": ..., "shape": ...}}`` or ``[{"name": ..., "type": ...}]``
        (a missing shape means a scalar)."""
        self.columns = []
        items = columns.items() if isinstance(columns, dict) else [(c.get("name"), c) for c in columns]
        for name, spec in items:
            if name is None or "type" not in spec:
                raise RuntimeError("Column's name and type are missing.")
            self.add_column(name, spec["type"], spec.get("shape", []))

    def from_json(self, json_obj: Dict[str, Any]) -> None:
        """Read a schema dict (``columns``, optionally ``numRows`` and ``datasetType``)."""
        if "columns" not in json_obj:
            raise RuntimeError("Columns are missing.")
        self.num_rows = json_obj.get("numRows")
        self.dataset_type = json_obj.get("datasetType", "")
        self.parse_columns(json_obj["columns"])

    def to_json(self) -> str:
        """The schema as JSON text (two-space indent)."""
        out: Dict[str, Any] = {"columns": self.columns}
        if self.num_rows is not None:
            out["numRows"] = self.num_rows
        if self.dataset_type:
            out["datasetType"] = self.dataset_type
        return json.dumps(out, indent=2)

    def __str__(self) -> str:
        return self.to_json()

    def np_types(self) -> List[Any]:
        """The numpy dtype of each column (``<U`` for strings)."""
        return [np.dtype("U") if c["type"] in ("string", "bytes") else np.dtype(c["type"]) for c in self.columns]

    @staticmethod
    def get_num_rows(schema: "Schema") -> Optional[int]:
        """The ``numRows`` of a schema (None when not given)."""
        if not isinstance(schema, Schema):
            raise TypeError(f"schema should be a Schema, but got {type(schema)}.")
        return schema.num_rows
