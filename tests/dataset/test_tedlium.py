"""TedliumDataset's waveform against the PCM written into the SPHERE file (the wheel hands out zeros there, so
its goldens keep only the waveform's shape; this checks the samples themselves)."""
import os

import numpy as np
import pytest

from mskernel import dataset as ds


def _sph(path, samples, rate, order):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fmt = "01" if order == "<" else "10"
    head = (f"NIST_1A\n   1024\nsample_count -i {len(samples)}\nsample_rate -i {rate}\nchannel_count -i 1\n"
            f"sample_byte_format -s2 {fmt}\nsample_n_bytes -i 2\nsample_coding -s3 pcm\nend_head\n").encode()
    with open(path, "wb") as f:
        f.write(head.ljust(1024) + np.asarray(samples, order + "i2").tobytes())


@pytest.mark.parametrize("order", ["<", ">"])
def test_waveform_is_the_segment_of_the_pcm(tmp_path, order):
    rng = np.random.default_rng(0)
    pcm = rng.integers(-32768, 32768, 400)
    rate = 100
    _sph(str(tmp_path / "train" / "sph" / "Talk.sph"), pcm, rate, order)
    segments = [(0.0, 0.37), (1.05, 2.5), (3.99, 4.0)]
    (tmp_path / "train" / "stm").mkdir(parents=True)
    (tmp_path / "train" / "stm" / "Talk.stm").write_text(
        "".join(f"Talk 1 spk {a} {b} <o,f0,male> line {i}\n" for i, (a, b) in enumerate(segments)))
    d = ds.TedliumDataset(str(tmp_path), "release1", "train", shuffle=False)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 3
    for (a, b), row in zip(segments, rows):
        want = (pcm[int(a * rate):int(b * rate)] / 32767.0).astype(np.float32)[None]
        assert row[0].dtype == np.float32 and row[0].shape == want.shape
        np.testing.assert_array_equal(row[0], want)
        assert int(row[1]) == rate


def test_segment_past_the_end_is_an_error(tmp_path):
    _sph(str(tmp_path / "data" / "sph" / "T.sph"), np.arange(10), 10, "<")
    (tmp_path / "data" / "stm").mkdir(parents=True)
    (tmp_path / "data" / "stm" / "T.stm").write_text("T 1 s 0.5 1.5 <x> too long\n")
    with pytest.raises(RuntimeError, match="failed to read data part from sph file"):
        list(ds.TedliumDataset(str(tmp_path), "release3", shuffle=False).create_tuple_iterator())
