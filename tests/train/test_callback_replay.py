"""LossMonitor reused across runs (the step count starts again), TimeMonitor's data time, handle_loss."""
import re

import pytest

import mskernel as ms
from mskernel.train import LossMonitor, RunContext, TimeMonitor
from mskernel.train.callback.protocol import InternalCallbackParam, handle_loss


def _run(mon, steps, batch_num=3, sink=False):
    for step in steps:
        cb = InternalCallbackParam(cur_epoch_num=(step - 1) // batch_num + 1, cur_step_num=step, batch_num=batch_num,
                                   net_outputs=ms.Tensor(0.5), dataset_sink_mode=sink)
        mon.step_end(RunContext(cb))


def _printed_steps(out):
    return [tuple(int(v) for v in m) for m in re.findall(r"epoch: (\d+) step: (\d+)", out)]


def test_loss_monitor_prints_again_when_a_second_run_restarts_the_count(capsys):
    mon = LossMonitor(2)
    _run(mon, range(1, 7))
    first = _printed_steps(capsys.readouterr().out)
    _run(mon, range(1, 7))
    second = _printed_steps(capsys.readouterr().out)
    # every second step of 1..6, three steps an epoch: (epoch, step in epoch) of steps 2, 4, 6
    assert first == second == [(1, 2), (2, 1), (2, 3)]


def test_loss_monitor_resumed_in_the_middle(capsys):
    mon = LossMonitor(4)
    _run(mon, range(1, 13), batch_num=4)
    capsys.readouterr()
    _run(mon, range(5, 13), batch_num=4)  # resumed from step 5: prints at 4 steps after the moved-back mark
    assert _printed_steps(capsys.readouterr().out) == [(2, 4), (3, 4)]


def test_time_monitor_data_time_line(capsys):
    mon = TimeMonitor(data_time=True)
    cb = RunContext(InternalCallbackParam(mode="train", batch_num=2, dataset_sink_mode=False))
    mon.epoch_begin(cb)
    for _ in range(2):
        mon.on_train_step_begin(cb)
        mon.on_train_step_end(cb)
    mon.epoch_end(cb)
    line = capsys.readouterr().out
    assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms "
                        r"\(data time: \d+\.\d{3} ms\)\n", line)


def test_handle_loss_shapes():
    assert handle_loss(ms.Tensor([1.0, 3.0])) == pytest.approx(2.0)
    first = ms.Tensor([4.0])
    assert handle_loss([first, ms.Tensor(True)]) is first
    assert handle_loss(()) == () and handle_loss(2.5) == 2.5 and handle_loss([1.0]) == [1.0]
