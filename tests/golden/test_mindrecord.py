"""MindRecord both ways with MindSpore 2.10, without the wheel (its answers recorded by mindrecord_fixtures.py).

* mskernel reads the files the wheel wrote (``tests/golden/mindrecord/``) and gets the rows the wheel read;
* mskernel writes every scenario byte for byte as the wheel did (data files), with the same ``.db`` index
  (tables, rows and value types: SQLite's own page layout is not compared), so the wheel reads mskernel's
  files; at record time the wheel did read them, and got what it read from its own.
"""
from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import mindrecord_fixtures as fx  # noqa: E402
from harness import compare, encode  # noqa: E402

import mskernel  # noqa: E402
from mskernel import dataset as ds  # noqa: E402

RECORD = json.loads(fx.RECORD.read_text())["scenarios"]


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheel")
    fx.unpack_fixtures(str(folder))
    return str(folder)


@pytest.fixture(scope="module")
def our_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mskernel")
    fx.write_all(mskernel, np, str(folder))
    return str(folder)


@pytest.mark.parametrize("name", sorted(fx.SCENARIOS))
def test_scenario_is_the_recorded_one(name):
    assert RECORD[name]["src"] == inspect.getsource(fx.SCENARIOS[name]), \
        f"scenario {name} changed after it was recorded: run python tests/golden/mindrecord_fixtures.py"


@pytest.mark.parametrize("name", sorted(fx.SCENARIOS))
def test_mskernel_reads_the_wheels_files(name, wheel_files):
    got = fx.read_rows(ds, wheel_files, name, encode)
    want = RECORD[name]["wheel_reads"]
    assert (got["columns"], got["size"]) == (want["columns"], want["size"])
    compare(want["rows"], got["rows"], rtol=0, atol=0)


@pytest.mark.parametrize("name", sorted(fx.SCENARIOS))
def test_mskernel_writes_the_wheels_bytes(name, wheel_files, our_files):
    rec = RECORD[name]
    assert rec["mskernel_bytes_identical"] and rec["mskernel_db_identical"], "at record time mskernel's files differed"
    assert rec["wheel_reads_mskernel"] == rec["wheel_reads"], "at record time the wheel read mskernel's files otherwise"
    ours = sorted(n for n in os.listdir(our_files) if n.startswith(name + "."))
    assert ours == rec["files"]
    for n in ours:
        if n.endswith(".db"):
            assert fx.db_summary(os.path.join(our_files, n)) == fx.db_summary(os.path.join(wheel_files, n)), n
        else:
            assert Path(our_files, n).read_bytes() == Path(wheel_files, n).read_bytes(), f"{n} differs from the wheel's"
