"""Checkpoints in MindSpore's formats: files written by the real wheel load here, and ours are the same bytes.

tests/train/fixtures/ms.* were written by MindSpore 2.10 (tests/train/make_fixtures.py, which also checks
that MindSpore loads mskernel's files: run it as its docstring says).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from mskernel.train.checkpoint_format import Checkpoint, decode, encode

FIX = Path(__file__).with_name("fixtures")
VALUES = {"layer.weight": np.arange(6, dtype=np.float32).reshape(2, 3) / 4,
          "layer.bias": np.array([0.5, -1.5], np.float16),
          "steps": np.array([3, 1, 4], np.int32)}
APPEND = {"epoch_num": 7, "lr": 0.125, "note": "mindspore"}


@pytest.mark.parametrize("name, fmt", [("ms.ckpt", "ckpt"), ("ms.safetensors", "safetensors")])
def test_files_written_by_mindspore_load(name, fmt):
    loaded = ms.load_checkpoint(str(FIX / name), format=fmt)
    for k, v in VALUES.items():
        assert isinstance(loaded[k], ms.Parameter) and loaded[k].name == k
        got = loaded[k].asnumpy()
        assert got.dtype == v.dtype and np.array_equal(got, v)
    if fmt == "ckpt":
        assert loaded["epoch_num"].dtype == ms.int64 and loaded["epoch_num"].shape == ()
        assert loaded["epoch_num"].asnumpy().item() == 7 and loaded["lr"].asnumpy().item() == 0.125
        assert loaded["note"] == "mindspore"


def test_our_ckpt_bytes_equal_mindspores(tmp_path):
    params = [{"name": k, "data": ms.Tensor(v)} for k, v in VALUES.items()]
    ms.save_checkpoint(params, str(tmp_path / "mk.ckpt"), append_dict=APPEND)
    assert (tmp_path / "mk.ckpt").read_bytes() == (FIX / "ms.ckpt").read_bytes()


def test_round_trip_into_a_network_and_file_mode(tmp_path):
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    path = str(tmp_path / "net")
    ms.save_checkpoint(net, path)
    assert stat.S_IMODE(os.stat(path + ".ckpt").st_mode) == stat.S_IRUSR  # read-only, as MindSpore leaves it
    ms.save_checkpoint(net, path)  # overwriting a read-only checkpoint works, as in MindSpore
    fresh = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    assert ms.load_param_into_net(fresh, ms.load_checkpoint(path + ".ckpt")) == ([], [])
    x = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())
    ms.save_checkpoint(net, path, format="safetensors")
    assert sorted(ms.load_checkpoint(path + ".safetensors", format="safetensors")) == \
        ["0.bias", "0.weight", "2.bias", "2.weight"]


def test_load_param_into_net_reports_and_checks(tmp_path):
    net = nn.Dense(2, 2)
    extra = {"weight": ms.Parameter(ms.Tensor(np.ones((2, 2), np.float32)), name="weight"),
             "other": ms.Parameter(ms.Tensor([1.0]), name="other")}
    assert ms.load_param_into_net(net, extra) == (["bias"], ["other"])
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((2, 2)))
    with pytest.raises(ValueError, match="should have the same shape"):
        ms.load_param_into_net(net, {"weight": ms.Tensor(np.ones((3, 2), np.float32))})
    with pytest.raises(TypeError, match="different dtypes"):
        ms.load_param_into_net(net, {"weight": ms.Tensor(np.ones((2, 2), np.float64))}, strict_load=True)


def test_prefix_filters_and_choice_func(tmp_path):
    path = str(tmp_path / "p.ckpt")
    ms.save_checkpoint({"a.w": ms.Tensor([1.0]), "a.b": ms.Tensor([2.0]), "c.w": ms.Tensor([3.0])}, path,
                       choice_func=lambda n: n != "a.b")
    assert sorted(ms.load_checkpoint(path)) == ["a.w", "c.w"]
    assert sorted(ms.load_checkpoint(path, filter_prefix="a.")) == ["c.w"]
    assert sorted(ms.load_checkpoint(path, specify_prefix=["c"])) == ["c.w"]


def test_values_split_over_entries_are_joined():
    msg = Checkpoint()
    for chunk in (np.arange(4, dtype=np.float32), np.arange(4, 8, dtype=np.float32)):
        v = msg.value.add()
        v.tag = "big"
        v.tensor.dims.extend([4, 2])
        v.tensor.tensor_type = "Float32"
        v.tensor.tensor_content = chunk.tobytes()
    (name, arr), = decode(msg.SerializeToString())
    assert name == "big" and arr.shape == (4, 2) and arr.reshape(-1).tolist() == list(range(8))


def test_errors_name_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\xff\x00not a checkpoint")
    with pytest.raises(ValueError, match="is not a MindSpore checkpoint"):
        ms.load_checkpoint(str(bad))
    with pytest.raises(NotImplementedError, match="encrypted"):
        ms.save_checkpoint({"w": ms.Tensor([1.0])}, str(tmp_path / "e"), enc_key=b"0" * 16)
    with pytest.raises(TypeError, match="'save_obj' must be nn.Cell, list or dict"):
        ms.save_checkpoint(3, str(tmp_path / "x"))
    with pytest.raises(ValueError, match="'format' must be"):
        ms.save_checkpoint({"w": ms.Tensor([1.0])}, str(tmp_path / "x"), format="pt")
    for fn in (ms.export, ms.load):
        with pytest.raises(NotImplementedError, match="no graph compiler"):
            fn("model.mindir")


def test_encode_decode_every_dtype():
    items = [(str(dt), np.arange(3).astype(dt.np)) for dt in (ms.float16, ms.float32, ms.float64, ms.int8, ms.int16,
                                                              ms.int32, ms.int64, ms.uint8, ms.bool_)]
    back = decode(encode(items))
    for (n, a), (m, b) in zip(items, back):
        assert n == m and a.dtype == b.dtype and np.array_equal(a, b)
