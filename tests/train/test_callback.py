"""Callbacks: hook aliases, RunContext, LossMonitor/TimeMonitor lines, History, EarlyStopping, checkpoints."""
import os
import re

import numpy as np
import pytest

import mskernel as ms
from mskernel.train import (Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback, LossMonitor,
                            ModelCheckpoint, RunContext, TimeMonitor)
from mskernel.train.callback.protocol import CallbackManager, InternalCallbackParam


def _params(**kw):
    base = dict(cur_epoch_num=1, cur_step_num=1, batch_num=2, net_outputs=ms.Tensor(0.5), dataset_sink_mode=False,
                mode="train")
    base.update(kw)
    return InternalCallbackParam(base)


def test_new_hooks_call_old_names_and_manager_fans_out():
    log = []

    class Old(Callback):
        def step_end(self, rc):
            log.append("step_end")

        def end(self, rc):
            log.append("end")
    with CallbackManager([Old(), Old()]) as cbs:
        cbs.on_train_step_end(RunContext({}))
        cbs.on_eval_end(RunContext({}))
    assert log == ["step_end", "step_end", "end", "end"]
    with pytest.raises(TypeError, match="must be Callback functions"):
        CallbackManager([Old(), 3])
    with pytest.raises(TypeError, match="not a Callback or a list"):
        CallbackManager(3)


def test_run_context():
    rc = RunContext({"x": 1})
    assert not rc.get_stop_requested()
    rc.request_stop()
    assert rc.get_stop_requested() and rc.original_args() == {"x": 1}
    with pytest.raises(TypeError, match="should be dict type"):
        RunContext([1])


def test_loss_monitor_lines_and_nan(capsys):
    mon = LossMonitor(2)
    for step in range(1, 5):
        mon.step_end(RunContext(_params(cur_step_num=step, cur_epoch_num=(step - 1) // 2 + 1)))
    assert capsys.readouterr().out == "epoch: 1 step: 2, loss is 0.5\nepoch: 2 step: 2, loss is 0.5\n"
    LossMonitor().step_end(RunContext(_params(net_outputs=(ms.Tensor(0.25), ms.Tensor(True)))))
    assert capsys.readouterr().out == "epoch: 1 step: 1, loss is 0.25\n"
    with pytest.raises(ValueError, match="loss is NAN or INF"):
        LossMonitor().step_end(RunContext(_params(net_outputs=ms.Tensor(float("nan")))))
    with pytest.raises(TypeError, match="must be int"):
        LossMonitor("1")


def test_time_monitor_line_format(capsys):
    mon = TimeMonitor(data_time=True)
    rc = RunContext(_params(mode="eval"))
    mon.epoch_begin(rc)
    mon.on_train_step_begin(rc)
    mon.on_train_step_end(rc)
    mon.epoch_end(rc)
    line = capsys.readouterr().out
    assert re.fullmatch(r"Eval epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms \(data time: \d+\.\d{3} ms\)\n",
                        line)
    with pytest.raises(ValueError, match="must > 0"):
        TimeMonitor().epoch_end(RunContext({}))


def test_history_lambda_and_early_stopping(capsys):
    h = History()
    h.begin(RunContext({}))
    h.epoch_end(RunContext(_params(net_outputs=(ms.Tensor(np.array([1.0, 3.0], np.float32)),), metrics={"a": 1})))
    assert h.history == {"net_output": [2.0], "a": [1]}
    calls = []
    LambdaCallback(on_eval_end=lambda rc: calls.append(1)).on_eval_end(RunContext({}))
    assert calls == [1]
    es = EarlyStopping(monitor="acc", patience=1, verbose=True)
    es.on_train_begin(RunContext({}))
    for epoch, acc in enumerate([0.5, 0.6, 0.6], 1):
        rc = RunContext({"cur_epoch_num": epoch, "eval_results": {"acc": acc}})
        es.on_train_epoch_end(rc)
    assert rc.get_stop_requested() and es.stopped_epoch == 3
    es.on_train_end(rc)
    assert capsys.readouterr().out == "Epoch 00003: early stopping\n"


def test_checkpoint_config_and_prefix_checks(tmp_path):
    c = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=10, keep_checkpoint_max=0,
                         keep_checkpoint_per_n_minutes=1)
    assert c.save_checkpoint_seconds == 10 and c.keep_checkpoint_max == 0 and c.keep_checkpoint_per_n_minutes == 1
    with pytest.raises(ValueError, match="must >= 0"):
        CheckpointConfig(save_checkpoint_steps=-1)
    with pytest.raises(TypeError, match="append_info"):
        CheckpointConfig(append_info="epoch_num")
    (tmp_path / "net-1_2.ckpt").write_bytes(b"")
    assert ModelCheckpoint("net", str(tmp_path))._prefix == "net_1"
    (tmp_path / "net_1-1_2.ckpt").write_bytes(b"")
    assert ModelCheckpoint("net", str(tmp_path))._prefix == "net_2"
    assert ModelCheckpoint("other", str(tmp_path / "new"))._prefix == "other"
    assert os.path.isdir(tmp_path / "new")


def test_model_checkpoint_writes_files(tmp_path):
    net = ms.nn.Cell()
    net.w = ms.Parameter(ms.Tensor([1.0]), name="w")
    ck = ModelCheckpoint("m", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2))
    for step in range(1, 6):
        ck.step_end(RunContext(_params(cur_step_num=step, cur_epoch_num=(step - 1) // 2 + 1, train_network=net)))
    ck.end(RunContext(_params(cur_step_num=5, cur_epoch_num=3, train_network=net)))
    assert sorted(os.listdir(tmp_path)) == ["m-2_2.ckpt", "m-3_1.ckpt"]
    assert ck.latest_ckpt_file_name == str(tmp_path / "m-3_1.ckpt")
