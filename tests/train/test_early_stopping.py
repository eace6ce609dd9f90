"""EarlyStopping's counter, baseline and best-weight restore over a scripted run of monitored values."""
import numpy as np

import mskernel as ms
from mskernel.train import EarlyStopping, RunContext
from mskernel.train.callback.protocol import InternalCallbackParam


def _net():
    net = ms.nn.Cell()
    net.w = ms.Parameter(ms.Tensor(np.array([0.0], np.float32)), name="w")
    return net


def _run(es, values, net=None):
    """Feed ``values`` (eval_loss per epoch); the weight is set to the epoch number before each check."""
    waits, stopped_at = [], None
    es.on_train_begin(RunContext(InternalCallbackParam()))
    for epoch, value in enumerate(values, 1):
        if net is not None:
            net.w.set_data(ms.Tensor(np.array([float(epoch)], np.float32)))
        rc = RunContext(InternalCallbackParam(cur_epoch_num=epoch, eval_results={"eval_loss": value},
                                              train_network=net))
        es.on_train_epoch_end(rc)
        waits.append(es.wait)
        if rc.get_stop_requested():
            stopped_at = epoch
            break
    return waits, stopped_at


def test_patience_counts_epochs_without_improvement():
    es = EarlyStopping(patience=2)
    waits, stopped = _run(es, [1.0, 0.8, 0.9, 0.85, 0.7])
    assert waits == [0, 0, 1, 2] and stopped == 4 and es.stopped_epoch == 4 and es.best == 0.8


def test_min_delta_and_baseline():
    es = EarlyStopping(patience=3, min_delta=0.15)
    waits, _ = _run(es, [1.0, 0.9, 0.7])  # 0.9 is not 0.15 better than 1.0; 0.7 is better than 1.0 - 0.15
    assert waits == [0, 1, 0] and es.best == 0.7
    es = EarlyStopping(patience=3, baseline=0.5)
    waits, stopped = _run(es, [1.0, 0.8, 0.6])  # improving, but never below the baseline: the count goes on
    assert waits == [1, 2, 3] and stopped == 3 and es.best == 0.6


def test_restore_best_weights(capsys):
    net = _net()
    es = EarlyStopping(patience=2, restore_best_weights=True, verbose=True)
    _, stopped = _run(es, [1.0, 0.5, 0.6, 0.7], net)
    assert stopped == 4
    assert net.w.asnumpy().tolist() == [2.0]  # the weights of epoch 2, the best one
    assert capsys.readouterr().out == "Restoring model weights from the end of the best epoch.\n"
