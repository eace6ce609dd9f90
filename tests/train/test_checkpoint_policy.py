"""CheckpointConfig's settled policy and ModelCheckpoint's appended counters, callable names and thinning."""
import os
import time

import mskernel as ms
from mskernel.train import CheckpointConfig, ModelCheckpoint, RunContext, load_checkpoint
from mskernel.train.callback.protocol import InternalCallbackParam


def _net():
    net = ms.nn.Cell()
    net.w = ms.Parameter(ms.Tensor([1.0]), name="w")
    return net


def _rc(step, net, batch_num=2):
    return RunContext(InternalCallbackParam(cur_step_num=step, cur_epoch_num=(step - 1) // batch_num + 1,
                                            batch_num=batch_num, train_network=net))


def test_policy_defaults_as_documented():
    # a step count wins over seconds; a maximum count wins over minutes; neither: keep one file
    assert CheckpointConfig(save_checkpoint_steps=3, save_checkpoint_seconds=9).save_checkpoint_seconds is None
    c = CheckpointConfig(keep_checkpoint_max=4, keep_checkpoint_per_n_minutes=2)
    assert (c.keep_checkpoint_max, c.keep_checkpoint_per_n_minutes) == (4, None)
    c = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=0)
    assert (c.keep_checkpoint_max, c.keep_checkpoint_per_n_minutes) == (1, 0)
    assert CheckpointConfig(append_info=[]).append_dict is None
    assert CheckpointConfig(append_info=["epoch_num", {"lr": 0.5}]).append_dict == {"epoch_num": 0, "lr": 0.5}


def test_appended_counters_are_saved(tmp_path):
    net = _net()
    config = CheckpointConfig(save_checkpoint_steps=2, append_info=["epoch_num", "step_num", {"tag": 7}])
    ck = ModelCheckpoint("a", str(tmp_path), config)
    for step in range(1, 5):
        ck.step_end(_rc(step, net))
    saved = load_checkpoint(ck.latest_ckpt_file_name)
    assert ck.latest_ckpt_file_name.endswith("a-2_2.ckpt")
    assert int(saved["epoch_num"].asnumpy()) == 2 and int(saved["step_num"].asnumpy()) == 4
    assert int(saved["tag"].asnumpy()) == 7 and "w" in saved


def test_callable_prefix_and_directory(tmp_path):
    net = _net()
    ck = ModelCheckpoint(lambda cb: f"s{cb.cur_step_num}", lambda cb: str(tmp_path / f"e{cb.cur_epoch_num}"))
    for step in range(1, 4):
        ck.step_end(_rc(step, net))
    assert sorted(os.listdir(tmp_path)) == ["e1", "e2"]
    assert sorted(os.listdir(tmp_path / "e1")) == ["s1.ckpt", "s2.ckpt"] and os.listdir(tmp_path / "e2") == ["s3.ckpt"]


def test_keep_one_file_per_minutes(tmp_path):
    net = _net()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=5)
    ck = ModelCheckpoint("k", str(tmp_path), config)
    for step in range(1, 4):
        ck.step_end(_rc(step, net))
        old = time.time() - 10 + step  # distinct mtimes in the order written, all within the five minutes
        os.utime(ck.latest_ckpt_file_name, (old, old))
    # before each save the files of the last five minutes are thinned to their oldest
    assert sorted(os.listdir(tmp_path)) == ["k-1_1.ckpt", "k-2_1.ckpt"]
