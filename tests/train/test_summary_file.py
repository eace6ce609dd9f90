"""The summary file's framing and limits, where the golden suite (tests/golden/cases/summary_record.py) does not
reach: CRC-32C against its published check value, corrupted records, max_file_size, and a callback list whose
second SummaryCollector cannot open leaving no SummaryRecord open."""
import os
import struct
import tempfile
import zlib

import numpy as np
import pytest

import mskernel as ms
from mskernel.train.callback.protocol import CallbackManager
from mskernel.train.summary.event_file import crc32c, read_events
from mskernel.train.summary.values import decode_png, encode_png


def test_crc32c_check_value():
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C catalogue's check value
    assert crc32c(b"") == 0


def test_corrupted_record_is_refused():
    d = tempfile.mkdtemp()
    with ms.SummaryRecord(d) as sr:
        sr.add_value("scalar", "x", ms.Tensor(1.0))
        sr.record(1)
    data = bytearray(open(sr.log_dir, "rb").read())
    assert [e.step for e in read_events(bytes(data))] == [0, 1]
    data[-6] ^= 0xFF
    with pytest.raises(ValueError, match="fails its CRC check"):
        read_events(bytes(data))


def test_png_round_trip_and_zlib_stream():
    img = np.random.RandomState(0).randint(0, 256, (5, 7, 3)).astype(np.uint8)
    png = encode_png(img)
    np.testing.assert_array_equal(decode_png(png), img)
    (n,) = struct.unpack(">I", png[33:37])
    assert png[37:41] == b"IDAT" and len(zlib.decompress(png[41:41 + n])) == 5 * (7 * 3 + 1)


def test_max_file_size_stops_writing_without_raising():
    d = tempfile.mkdtemp()
    with ms.SummaryRecord(d, max_file_size=100) as sr:
        sr.add_value("scalar", "x", ms.Tensor(1.0))
        assert sr.record(1)
        sr.add_value("tensor", "t", ms.Tensor(np.zeros(64, np.float32)))
        assert sr.record(2)  # too big: logged, not raised (raise_exception=False)
    assert [e.step for e in read_events(open(sr.log_dir, "rb").read())] == [0, 1]
    assert os.path.getsize(sr.log_dir) <= 100


def test_max_file_size_raises_when_asked():
    d = tempfile.mkdtemp()
    with ms.SummaryRecord(d, max_file_size=10, raise_exception=True) as sr:
        sr.add_value("scalar", "x", ms.Tensor(1.0))
        with pytest.raises(RuntimeWarning, match="'max_file_size' reached"):
            sr.record(1)


def test_failed_enter_exits_the_callbacks_entered_before():
    first, second = ms.SummaryCollector(tempfile.mkdtemp()), ms.SummaryCollector(tempfile.mkdtemp())
    with ms.SummaryRecord(tempfile.mkdtemp()):
        pass
    with pytest.raises(RuntimeError, match="only one instance"):
        with CallbackManager([first, second]):
            pass
    assert ms.SummaryRecord.count == 0
    ms.SummaryRecord(tempfile.mkdtemp()).close()
