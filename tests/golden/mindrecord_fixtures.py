"""MindRecord files both ways: fixtures written by MindSpore 2.10, and the wheel reading what mskernel writes.

    python tests/golden/mindrecord_fixtures.py

(run by hand, like ``record.py``, whose wheel environment it uses; the tests never need the wheel). Each
scenario of ``SCENARIOS`` is a small MindSpore program that writes MindRecord files with ``FileWriter``. The
script

1. runs every scenario under the wheel and keeps its files, gzipped, in ``tests/golden/mindrecord/``;
2. has the wheel read them back (``MindDataset``, no shuffle), every row encoded as the goldens encode values;
3. runs every scenario under mskernel, has the wheel read those files too, and compares them with the wheel's:
   the data files byte for byte, the ``.db`` indexes by their SQLite schema and rows;

and writes ``tests/golden/mindrecord/record.json``: per scenario, the rows the wheel read from its own files and from
mskernel's, and whether mskernel's files were identical. ``test_mindrecord.py`` then checks, without the
wheel, that mskernel reads the wheel's files as the wheel did and still writes the same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import inspect
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "mindrecord"
RECORD = FIXTURES / "record.json"


def _small(w: Any) -> None:
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)


def types(FileWriter: Any, np: Any) -> None:
    w = FileWriter("types.mindrecord", overwrite=True)
    _small(w)
    w.add_schema({"id": {"type": "int32"}, "f": {"type": "float64"}, "g": {"type": "float32"}, "s": {"type": "string"},
                  "b": {"type": "bytes"}, "a": {"type": "float32", "shape": [-1]},
                  "m": {"type": "int64", "shape": [2, 2]}, "k": {"type": "int32", "shape": [-1]}}, "all types")
    w.add_index(["id", "s"])
    w.write_raw_data([{"id": i - 2, "f": i * 0.1, "g": np.float32(i / 3), "s": "\u00fc%d" % i * i,
                       "b": bytes([i, 255, 0, 7]), "a": np.arange(i + 1, dtype=np.float32) / 7,
                       "m": (np.arange(4, dtype=np.int64).reshape(2, 2) - 2) * 1000 ** i,
                       "k": np.array([i, -i * 300, 70000 * i], np.int32)} for i in range(5)])
    w.commit()


def pages(FileWriter: Any, np: Any) -> None:
    """Two batches over several blob pages: the second fills the first page, then starts another."""
    w = FileWriter("pages.mindrecord", overwrite=True)
    _small(w)
    w.add_schema({"id": {"type": "int64"}, "name": {"type": "string"}, "img": {"type": "bytes"}}, "pages")
    rows = [{"id": i, "name": "n%d" % i * (i % 5 + 1), "img": bytes(range(i % 256 + 1)) * 20} for i in range(60)]
    w.write_raw_data(rows[:25])
    w.write_raw_data(rows[25:])
    w.commit()


def raw_heavy(FileWriter: Any, np: Any) -> None:
    """Long strings, small blobs: raw pages fill first and row groups move to new raw pages."""
    w = FileWriter("raw_heavy.mindrecord", overwrite=True)
    _small(w)
    w.add_schema({"id": {"type": "int32"}, "text": {"type": "string"}, "b": {"type": "bytes"}})
    for k in range(6):
        w.write_raw_data([{"id": k * 10 + i, "text": "t" * (900 + 37 * i + k), "b": bytes([k, i])} for i in range(7)])
    w.commit()


def sharded(FileWriter: Any, np: Any) -> None:
    """Three files; each batch divides evenly (the wheel hands a remainder to shards chosen at random)."""
    w = FileWriter("sharded.mindrecord", shard_num=3, overwrite=True)
    _small(w)
    w.add_schema({"id": {"type": "int32"}, "v": {"type": "float32", "shape": [2]}})
    w.write_raw_data([{"id": i, "v": np.array([i, -i], np.float32)} for i in range(6)])
    w.write_raw_data([{"id": 100 + i, "v": np.array([i, 0.5], np.float32)} for i in range(9)])
    w.commit()


def blob_only(FileWriter: Any, np: Any) -> None:
    """One int64 array field: the whole blob compressed, a stand-in raw record per row."""
    w = FileWriter("blob_only.mindrecord", overwrite=True)
    _small(w)
    w.add_schema({"x": {"type": "int64", "shape": [-1]}})
    w.write_raw_data([{"x": np.array([1, -5, 1 << 40][: i + 1], np.int64)} for i in range(3)])
    w.commit()


def raw_only(FileWriter: Any, np: Any) -> None:
    """No blob field: a stand-in blob per row; large and negative ints, an empty string."""
    w = FileWriter("raw_only.mindrecord", overwrite=True)
    _small(w)
    w.add_schema({"x": {"type": "int64"}, "y": {"type": "float32"}, "z": {"type": "string"}})
    w.write_raw_data([{"x": -(1 << 40) * i, "y": 1.5 * i, "z": "" if i == 0 else "z" * 40 * i} for i in range(4)])
    w.commit()


def default_sizes(FileWriter: Any, np: Any) -> None:
    """MindSpore's default header (16 MB) and page (32 MB) sizes: a 48 MB file, mostly zeros."""
    w = FileWriter("default_sizes.mindrecord", overwrite=True)
    w.add_schema({"label": {"type": "int32"}, "image": {"type": "bytes"}})
    w.write_raw_data([{"label": i, "image": bytes([i]) * 10} for i in range(3)])
    w.commit()


def empty(FileWriter: Any, np: Any) -> None:
    w = FileWriter("empty.mindrecord", overwrite=True)
    w.add_schema({"x": {"type": "int64"}})
    w.commit()


SCENARIOS: Dict[str, Callable[[Any, Any], None]] = {f.__name__: f for f in (
    types, pages, raw_heavy, sharded, blob_only, raw_only, default_sizes, empty)}


def first_file(folder: str, scenario: str) -> str:
    """The file a scenario's dataset is opened by (the first shard)."""
    names = sorted(n for n in os.listdir(folder) if n.startswith(scenario + ".") and not n.endswith(".db"))
    return os.path.join(folder, names[0])


def read_rows(ds: Any, folder: str, scenario: str, encode: Callable[[Any], Any]) -> Any:
    """A scenario's rows as ``MindDataset`` gives them (no shuffle), with the column names."""
    d = ds.MindDataset(first_file(folder, scenario), shuffle=False)
    return {"columns": d.get_col_names(), "size": d.get_dataset_size(),
            "rows": encode([r for r in d.create_tuple_iterator(output_numpy=True)])}


def db_summary(path: str) -> Dict[str, Any]:
    """What an index ``.db`` holds: its tables' SQL, every row and every value's SQLite type."""
    con = sqlite3.connect(path)
    try:
        tables = [list(r) for r in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")]
        cols = [r[1] for r in con.execute("PRAGMA table_info(INDEXES)")]
        rows = sorted(list(r) for r in con.execute("SELECT * FROM INDEXES"))
        kinds = sorted(list(r) for r in con.execute("SELECT " + ", ".join(f"typeof({c})" for c in cols)
                                                     + " FROM INDEXES"))
        names = [list(r) for r in con.execute("SELECT * FROM SHARD_NAME")]
    finally:
        con.close()
    return {"tables": tables, "rows": rows, "kinds": kinds, "shard_name": names}


def write_all(module: Any, np: Any, folder: str) -> None:
    """Every scenario written by ``module`` (mindspore or mskernel) into ``folder``."""
    import importlib
    writer = importlib.import_module(f"{module.__name__}.mindrecord").FileWriter
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for fn in SCENARIOS.values():
            fn(writer, np)
    finally:
        os.chdir(cwd)


def inside_wheel(args: argparse.Namespace) -> None:
    """In the wheel's environment: write the fixtures, or read the files of ``--read`` into ``--out``."""
    import warnings

    warnings.filterwarnings("ignore")
    import numpy as np

    import mindspore
    import mindspore.dataset as ds
    sys.path.insert(0, str(HERE))
    from harness import encode

    if args.read:
        reads = {name: read_rows(ds, args.read, name, encode) for name in SCENARIOS}
        Path(args.out).write_text(json.dumps(reads))
        return
    with tempfile.TemporaryDirectory() as tmp:
        write_all(mindspore, np, tmp)
        if FIXTURES.exists():
            for p in FIXTURES.glob("*.gz"):
                p.unlink()
        FIXTURES.mkdir(exist_ok=True)
        for name in sorted(os.listdir(tmp)):
            with open(os.path.join(tmp, name), "rb") as src, gzip.GzipFile(FIXTURES / (name + ".gz"), "wb",
                                                                             mtime=0) as dst:
                shutil.copyfileobj(src, dst)
        reads = {name: read_rows(ds, tmp, name, encode) for name in SCENARIOS}
        Path(args.out).write_text(json.dumps({"mindspore": mindspore.__version__, "reads": reads}))


def unpack_fixtures(folder: str) -> None:
    """The gzipped fixtures, as the files MindSpore wrote, into ``folder``."""
    for p in sorted(FIXTURES.glob("*.gz")):
        with gzip.open(p, "rb") as src, open(os.path.join(folder, p.name[:-3]), "wb") as dst:
            shutil.copyfileobj(src, dst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--read", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inside:
        inside_wheel(args)
        return
    sys.path.insert(0, str(HERE))
    from record import ensure_venv
    py = ensure_venv()
    import numpy as np

    import mskernel
    with tempfile.TemporaryDirectory(prefix="mskernel-mindrecord-") as tmp:
        own = os.path.join(tmp, "wheel.json")
        subprocess.run([str(py), __file__, "--inside", "--out", own], check=True, cwd=tmp)
        mine = os.path.join(tmp, "mskernel")
        os.mkdir(mine)
        write_all(mskernel, np, mine)
        theirs = os.path.join(tmp, "wheel_reads_mskernel.json")
        subprocess.run([str(py), __file__, "--inside", "--read", mine, "--out", theirs], check=True, cwd=tmp)
        wheel_dir = os.path.join(tmp, "wheel")
        os.mkdir(wheel_dir)
        unpack_fixtures(wheel_dir)
        recorded = json.loads(Path(own).read_text())
        read_back = json.loads(Path(theirs).read_text())
        out: Dict[str, Any] = {"mindspore": recorded["mindspore"], "scenarios": {}}
        for name in SCENARIOS:
            files = sorted(n for n in os.listdir(wheel_dir) if n.startswith(name + "."))
            data = [n for n in files if not n.endswith(".db")]
            same_bytes = all(Path(wheel_dir, n).read_bytes() == Path(mine, n).read_bytes() for n in data)
            same_db = all(db_summary(os.path.join(wheel_dir, n)) == db_summary(os.path.join(mine, n))
                          for n in files if n.endswith(".db"))
            out["scenarios"][name] = {"src": inspect.getsource(SCENARIOS[name]), "files": files,
                                      "wheel_reads": recorded["reads"][name],
                                      "wheel_reads_mskernel": read_back[name],
                                      "mskernel_bytes_identical": same_bytes, "mskernel_db_identical": same_db}
            print(f"{name}: {len(files)} files; mskernel's data files identical: {same_bytes}, index: {same_db}; "
                  f"the wheel reads mskernel's the same: {read_back[name] == recorded['reads'][name]}",
                  file=sys.stderr)
        RECORD.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
