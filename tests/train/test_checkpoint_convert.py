"""ckpt_to_safetensors / safetensors_to_ckpt over a directory of rank* subdirectories (the wheel's directory mode
writes a progress bar that needs a real terminal stream, so it is checked here against the safetensors library
and the values written, not recorded as a golden)."""
import os

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

import mskernel as ms


def test_safetensors_dir_to_ckpt_and_back(tmp_path):
    for r in (0, 1):
        os.makedirs(tmp_path / f"rank{r}")
        save_file({"w": np.full(3, r + 0.5, np.float32), "skip": np.zeros(1, np.float32)},
                  str(tmp_path / f"rank{r}" / "m.safetensors"))
    ms.safetensors_to_ckpt(str(tmp_path), save_path=str(tmp_path / "out"), name_map={"w": "weight"})
    for r in (0, 1):
        params = ms.load_checkpoint(str(tmp_path / "out" / f"rank{r}" / "m.ckpt"))
        assert sorted(params) == ["skip", "weight"]
        np.testing.assert_array_equal(params["weight"].asnumpy(), np.full(3, r + 0.5, np.float32))
    ms.ckpt_to_safetensors(str(tmp_path / "out"), file_name_regex=r"^m\.")
    back = load_file(str(tmp_path / "out" / "rank1" / "m.safetensors"))
    np.testing.assert_array_equal(back["weight"], np.full(3, 1.5, np.float32))


def test_save_path_must_be_a_directory(tmp_path):
    f = tmp_path / "a.ckpt"
    ms.save_checkpoint({"w": ms.Parameter(ms.Tensor([1.0]))}, str(f))
    with pytest.raises(ValueError, match="the save_path must be a directory, but got 'x.bin'"):
        ms.ckpt_to_safetensors(str(f), save_path="x.bin")
    with pytest.raises(ValueError, match="the type of 'name_map' must be a directory"):
        ms.ckpt_to_safetensors(str(f), name_map=[("w", "v")])
