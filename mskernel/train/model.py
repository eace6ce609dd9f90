"""``mindspore.train.Model``: train, evaluate and predict a network with a dataset, callbacks and metrics.

``Model(network, loss_fn, optimizer, metrics)`` builds ``TrainOneStepCell(WithLossCell(network,
loss_fn), optimizer)`` (through ``amp.build_train_network``) and, when metrics are given, a
``WithEvalCell`` for ``eval``. A dataset is anything with ``create_tuple_iterator(num_epochs=...)``
and ``get_dataset_size()``; the iterator is made once per call and read epoch after epoch, as
MindSpore does. ``dataset_sink_mode=True`` is accepted and runs step by step (MindSpore does the
same on the CPU).

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name="w")
    ...     def construct(self, x):
    ...         return self.w * x
    >>> Model(Net()).predict(ms.Tensor([3.0]))
    Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00])
"""
from __future__ import annotations

import inspect
import logging
from collections.abc import Iterable
from typing import Any, Dict, List, Optional, Tuple, Union

from mskernel import amp
from mskernel.amp import (DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager,  # noqa: F401
                          build_train_network)
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.metrics import Loss, Metric, get_metric_fn, get_metrics
from mskernel.nn.metrics.protocol import printed_as_python
from mskernel.nn.wrap import WithEvalCell, WithLossCell
from mskernel.train.callback.progress import TimeMonitor
from mskernel.train.callback.protocol import CallbackManager, InternalCallbackParam, RunContext

__all__ = ["Model", "build_train_network", "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]

logger = logging.getLogger(__name__)

# Callbacks that ship with the framework: exempt from the old-hook-name warning, and (except TimeMonitor)
# left out of the evaluation that ``fit`` runs between epochs.
_INTERNAL_CALLBACKS = {"LossMonitor", "TimeMonitor", "ModelCheckpoint", "History", "LambdaCallback",
                       "EarlyStopping", "ReduceLROnPlateau", "SummaryCollector", "CheckpointConfig",
                       "FlopsUtilizationCollector"}
_MODEL_OPTIONS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")
_OLD_HOOKS = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
_PREDICT_KINDS = "Tensor, None, int, float, str"


def _int_at_least(value: Any, low: int) -> int:
    """``value`` when it is an int (not a bool) >= ``low``; MindSpore's ValueError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= low:
        return value
    bound = "> 0" if low == 1 else ">= 0"
    raise ValueError(f"The input value must be int and must {bound}, but got '{value}' with type "
                     f"'{type(value).__name__}'.")


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise TypeError(f"The input value must be bool, but got '{type(value).__name__}'")


def _as_list(callbacks: Any) -> list:
    """None, one callback or an iterable of callbacks, as a list."""
    if callbacks is None:
        return []
    return list(callbacks) if isinstance(callbacks, Iterable) else [callbacks]


def _tuple_iterator(dataset: Any, epochs: int) -> Any:
    """``dataset.create_tuple_iterator`` with the arguments MindSpore passes that it accepts."""
    make = dataset.create_tuple_iterator
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        params = {}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    wanted = {"num_epochs": epochs, "do_copy": True}
    return make(**{name: value for name, value in wanted.items() if takes_any or name in params})


class _EpochReader:
    """Reads one epoch from a persistent iterator: stops at its StopIteration (the next loop continues it)."""

    def __init__(self, iterator: Any) -> None:
        self._it = iterator

    def __iter__(self) -> "_EpochReader":
        return self

    def __next__(self) -> Any:
        return next(self._it)


def _row(item: Any) -> tuple:
    """A dataset row as the tuple of arguments a network is called with."""
    if isinstance(item, Tensor):
        return (item,)
    return tuple(item.values()) if isinstance(item, dict) else tuple(item)


def _steps_per_epoch(api: str, epoch: int, dataset: Any, sink_size: Any, initial_epoch: int) -> int:
    """Check ``train``/``fit``'s counting arguments in MindSpore's order; the steps one epoch runs."""
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"The input value must be int, but got '{type(sink_size).__name__}'")
    _int_at_least(epoch, 1)
    _int_at_least(initial_epoch, 0)
    if epoch <= initial_epoch:
        raise ValueError(f"For 'Model.{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', "
                         f"but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
    rows = dataset.get_dataset_size()
    if rows == 0:
        raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
    if sink_size == -1:
        return rows
    if sink_size > 0:
        return sink_size
    word = "argument" if api == "train" else "parameter"
    raise ValueError(f"For 'Model.{api}', The {word} 'sink_size' must be -1 or positive, but got {sink_size}.")


class _Scoring:
    """The metrics a Model evaluates, and where their inputs sit in the eval network's outputs.

    ``slots`` is None (every metric gets all outputs) or ``[loss, prediction, label]`` positions:
    a ``Loss`` metric reads the loss, every other metric the prediction and the label.
    """

    def __init__(self, metrics: Optional[Dict[str, Metric]], slots: Optional[List[int]]) -> None:
        self.metrics: Dict[str, Metric] = metrics or {}
        self.slots = slots

    def __bool__(self) -> bool:
        return bool(self.metrics)

    def reset(self) -> None:
        for metric in self.metrics.values():
            metric.clear()

    def add(self, outputs: Any) -> None:
        outs = (outputs,) if isinstance(outputs, Tensor) else outputs
        if not isinstance(outs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outs)}.")
        if self.slots is not None and len(outs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outs)}")
        for metric in self.metrics.values():
            metric.update(*self._inputs_of(metric, outs))

    def _inputs_of(self, metric: Metric, outs: tuple) -> tuple:
        if self.slots is None:
            return outs
        loss_at, prediction_at, label_at = self.slots
        return (outs[loss_at],) if isinstance(metric, Loss) else (outs[prediction_at], outs[label_at])

    def loss_in(self, outputs: Any) -> Any:
        return outputs[self.slots[0] if self.slots else 0]

    def results(self) -> Dict[str, Any]:
        """Each metric's ``eval()``; a numpy float64/integer scalar (a user metric's) as a Python number, so that
        the results print as MindSpore's do (on numpy 1)."""
        return {name: printed_as_python(metric.eval()) for name, metric in self.metrics.items()}


def _training_cell(network: Cell, loss_fn: Optional[Cell], optimizer: Optional[Cell], amp_level: str,
                   boost_level: str, options: Dict[str, Any]) -> Cell:
    """What ``train`` calls per step: the full train step with an optimizer, else the loss, else the network."""
    if optimizer is None:
        if options.get("loss_scale_manager") is not None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        return network if loss_fn is None else WithLossCell(network, loss_fn)
    forwarded = {key: options[key] for key in ("loss_scale_manager",) if key in options}
    if options.get("keep_batchnorm_fp32") is not None:
        forwarded["keep_batchnorm_fp32"] = options["keep_batchnorm_fp32"]
    return build_train_network(network, optimizer, loss_fn, level=amp_level, boost_level=boost_level, **forwarded)


def _boosted(network: Cell, optimizer: Optional[Cell], eval_network: Optional[Cell], metrics: Any, boost_level: str,
             boost_config_dict: Any) -> Tuple[Cell, Optional[Cell], Optional[Cell]]:
    """``(network, optimizer, eval_network)`` with ``mindspore.boost``'s boosts at ``boost_level`` 'O1'/'O2'
    (through the ``AutoBoost`` singleton, as MindSpore does: only with an optimizer, and with metrics or an
    ``eval_network``; otherwise a warning and no boost)."""
    from mskernel.boost import AutoBoost

    processor = AutoBoost(boost_level, boost_config_dict)
    if processor.level not in ("O1", "O2"):
        return network, optimizer, eval_network
    if optimizer is None:
        logger.warning("In boost mode, the optimizer must be defined.")
        return network, optimizer, eval_network
    if eval_network is None and metrics is None:
        logger.warning("In boost mode, the eval_network and metrics cannot be undefined at the same time.")
        return network, optimizer, eval_network
    network, optimizer = processor.network_auto_process_train(network, optimizer)
    if eval_network is not None:
        eval_network = processor.network_auto_process_eval(eval_network)
    return network, optimizer, eval_network


def _evaluation(network: Cell, loss_fn: Optional[Cell], amp_level: str, metrics: Any, eval_network: Optional[Cell],
                eval_indexes: Any) -> Tuple[Optional[Cell], _Scoring]:
    """The cell ``eval`` runs and how its outputs feed the metrics."""
    found = get_metrics(metrics)
    if not found:
        return eval_network, _Scoring(None, None)
    if eval_network is not None:
        if not (eval_indexes is None or (isinstance(eval_indexes, list) and len(eval_indexes) == 3)):
            raise ValueError(f"The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                             f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
        return eval_network, _Scoring(found, eval_indexes)
    if loss_fn is None:
        raise ValueError(
            "If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't want an "
            "evaluation.\nIf evaluation is required, you need to specify `eval_network`, which will be used in the "
            "framework to evaluate the model.\nFor the simple scenarios with one data, one label and one logits, "
            "`eval_network` is optional, and then you can set `eval_network` or `loss_fn`. For the latter case, "
            "framework will automatically build an evaluation network with `network` and `loss_fn`.")
    cast_to_fp32 = amp_level in ("O2", "O3", "auto")
    return WithEvalCell(network, loss_fn, cast_to_fp32), _Scoring(found, [0, 1, 2])


def _warn_old_hooks(callbacks: Any, api: str) -> None:
    """User callbacks that define the pre-2.0 hook names: a warning from train/eval, an error from fit."""
    for cb in callbacks if isinstance(callbacks, list) else [callbacks]:
        name = type(cb).__name__
        old = set(type(cb).__dict__) & _OLD_HOOKS
        if name in _INTERNAL_CALLBACKS or not old:
            continue
        text = (f"For {name} callback, {old} methods may not be supported in later version, Use methods prefixed "
                f"with 'on_train' or 'on_eval' instead when using customized callbacks.")
        if api == "fit":
            raise ValueError(text)
        logger.warning(text)


class Model:
    """High-level training and evaluation of ``network`` (MindSpore's ``mindspore.train.Model``).

    ``metrics`` is a set of names ({'accuracy', 'loss'}) or a dict ``{name: Metric}``; ``eval_network``
    returns ``(loss, outputs, label)`` at ``eval_indexes`` (default: built from ``loss_fn``).
    ``amp_level`` 'O0'..'O3' as in :func:`mskernel.amp.build_train_network`; ``kwargs``:
    ``loss_scale_manager``, ``keep_batchnorm_fp32``, ``boost_config_dict``, ``acc_level``.

    Example:
        >>> Model(Cell(), metrics={"acc"})
        Traceback (most recent call last):
        ...
        ValueError: If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't want an evaluation.
        If evaluation is required, you need to specify `eval_network`, which will be used in the framework to evaluate the model.
        For the simple scenarios with one data, one label and one logits, `eval_network` is optional, and then you can set `eval_network` or `loss_fn`. For the latter case, framework will automatically build an evaluation network with `network` and `loss_fn`.
    """  # noqa: E501

    def __init__(self, network: Cell, loss_fn: Optional[Cell] = None, optimizer: Optional[Cell] = None,
                 metrics: Optional[Union[set, dict]] = None, eval_network: Optional[Cell] = None,
                 eval_indexes: Optional[List[int]] = None, amp_level: str = "O0", boost_level: str = "O0",
                 **kwargs: Any) -> None:
        unknown = [key for key in kwargs if key not in _MODEL_OPTIONS]
        if unknown:
            raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' "
                             f"or 'boost_config_dict' or 'acc_level', but got '{unknown[0]}'.")
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the type of 'network' must be Cell, but got '{type(network).__name__}'.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        if "acc_level" in kwargs:
            boost_level = kwargs["acc_level"]
            logger.warning("Next version acc_level will be removed, please replace with boost_level")
        network, optimizer, eval_network = _boosted(network, optimizer, eval_network, metrics, boost_level,
                                                    kwargs.get("boost_config_dict", ""))
        self._net = network
        self._loss = loss_fn
        self._opt = optimizer
        self._scale_manager = kwargs.get("loss_scale_manager")
        self._trainer = _training_cell(network, loss_fn, optimizer, amp_level, boost_level, kwargs)
        self._evaluator, self._scoring = _evaluation(network, loss_fn, amp_level, metrics, eval_network, eval_indexes)
        self._mode = "train"  # the mode the shared backbone was last put in: "train" or "infer"
        self.epoch_iter = 0
        self.batch_num = -1

    @property
    def train_network(self) -> Cell:
        """The training cell (TrainOneStepCell or WithLossCell or the network).

        Example:
            >>> Model(Cell()).train_network.cls_name
            'Cell'
        """
        return self._trainer

    @property
    def eval_network(self) -> Optional[Cell]:
        """The evaluation cell.

        Example:
            >>> Model(Cell()).eval_network is None
            True
        """
        return self._evaluator

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs.

        Example:
            >>> c = Cell(); Model(c).predict_network is c
            True
        """
        return self._net

    def _switch(self, network: Cell, mode: str) -> None:
        """Put the backbone in ``mode`` through ``network`` when that changes; inference also records no grads."""
        if mode != self._mode:
            self._mode = mode
            network.set_train(mode == "train")
        if mode == "infer":
            network.set_grad(False)

    # -- training --------------------------------------------------------------------------------------
    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train ``epoch`` epochs over ``train_dataset`` (``(data, label)`` rows when ``loss_fn`` is set).

        Example:
            >>> Model(Cell()).train(0, None)
            Traceback (most recent call last):
            ...
            ValueError: The input value must be int and must > 0, but got '0' with type 'int'.
        """
        _flag(dataset_sink_mode)
        steps = _steps_per_epoch("train", epoch, train_dataset, sink_size, initial_epoch)
        if callbacks:
            _warn_old_hooks(callbacks, "train")
        self._fit_loop(epoch, initial_epoch, train_dataset, steps if dataset_sink_mode else None, callbacks)

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None, valid_frequency: Union[int, list] = 1,
            callbacks: Any = None, dataset_sink_mode: bool = False, valid_dataset_sink_mode: bool = False,
            sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs (or at the listed epochs).

        Example:
            >>> Model(Cell()).fit(1, None, valid_frequency=1.5)
            Traceback (most recent call last):
            ...
            AttributeError: 'NoneType' object has no attribute 'get_dataset_size'
        """
        _flag(dataset_sink_mode)
        _flag(valid_dataset_sink_mode)
        steps = _steps_per_epoch("fit", epoch, train_dataset, sink_size, initial_epoch)
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset and not self._scoring:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            _warn_old_hooks(callbacks, "fit")
        self._fit_loop(epoch, initial_epoch, train_dataset, steps if dataset_sink_mode else None, callbacks,
                       valid_dataset, valid_frequency)

    def _fit_loop(self, epoch: int, initial_epoch: int, dataset: Any, sink_steps: Optional[int], callbacks: Any,
                  valid_dataset: Any = None, valid_frequency: Union[int, list] = 1) -> None:
        """The epoch loop of ``train`` and ``fit``; every key of ``cb_params`` is one MindSpore's callbacks read."""
        params = InternalCallbackParam(
            cur_step_num=0, train_network=self._trainer, epoch_num=epoch - initial_epoch,
            batch_num=sink_steps or dataset.get_dataset_size(), mode="train", loss_fn=self._loss,
            optimizer=self._opt, parallel_mode="stand_alone", device_number=1, train_dataset=dataset,
            list_callback=_as_list(callbacks), train_dataset_element=None, network=self._net,
            last_save_ckpt_step=None, latest_ckpt_file=None,
            loss_scale_mananger=self._scale_manager,  # sic: MindSpore's key
            initial_step=None)
        self.batch_num = params.batch_num
        with CallbackManager(params.list_callback) as hooks:
            rows = _tuple_iterator(dataset, epoch)
            params.dataset_sink_mode = False
            ctx = RunContext(params)
            hooks.on_train_begin(ctx)
            for number in range(initial_epoch + 1, epoch + 1):
                params.cur_epoch_num = number
                hooks.on_train_epoch_begin(ctx)
                for item in _EpochReader(rows):
                    self._train_step(item, params, hooks, ctx)
                    if ctx.get_stop_requested():
                        break
                if valid_dataset and self._validation_due(number, valid_frequency):
                    self._validate(valid_dataset, params, hooks)
                if hasattr(dataset, "reset"):
                    dataset.reset()
                hooks.on_train_epoch_end(ctx)
                for key in ("metrics", "eval_results"):
                    params.pop(key, None)
                if ctx.get_stop_requested():
                    break
            hooks.on_train_end(ctx)

    def _train_step(self, item: Any, params: InternalCallbackParam, hooks: CallbackManager, ctx: RunContext) -> None:
        given = len(item)
        if self._loss and given != 2:
            raise ValueError(f"When 'loss_fn' is not None, 'train_dataset' should return two elements, but "
                             f"got {given}, please check the number of elements returned by 'train_dataset'")
        args = _row(item)
        params.cur_step_num += 1
        params.train_dataset_element = args
        hooks.on_train_step_begin(ctx)
        self._switch(self._trainer, "train")
        params.net_outputs = outputs = self._trainer(*args)
        scaler = self._scale_manager
        if scaler is not None and scaler.get_drop_overflow_update() and isinstance(outputs, tuple):
            scaler.update_loss_scale(bool(outputs[1].asnumpy().all()))
        hooks.on_train_step_end(ctx)

    @staticmethod
    def _validation_due(epoch_number: int, frequency: Union[int, list]) -> bool:
        if isinstance(frequency, int):
            return epoch_number % frequency == 0
        return epoch_number in frequency

    def _validate(self, valid_dataset: Any, params: InternalCallbackParam, hooks: CallbackManager) -> None:
        """``fit``'s evaluation after an epoch: user callbacks (and TimeMonitor) see it through the same cb_params."""
        kept = {key: params.get(key) for key in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        chosen = [c for c in hooks.callbacks
                  if isinstance(c, TimeMonitor) or type(c).__name__ not in _INTERNAL_CALLBACKS]
        params.update(eval_network=self._evaluator, valid_dataset=valid_dataset,
                      batch_num=valid_dataset.get_dataset_size(), mode="eval", cur_step_num=0)
        self._scoring.reset()
        with CallbackManager(chosen) as eval_hooks:
            self._evaluate(valid_dataset, params, eval_hooks, with_loss=True)
        params.update(kept, mode="train")

    # -- evaluation and prediction --------------------------------------------------------------------
    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> Dict[str, Any]:
        """Evaluate the metrics over ``valid_dataset``: ``{name: value}``.

        Example:
            >>> Model(Cell()).eval(None)
            Traceback (most recent call last):
            ...
            ValueError: For Model.eval, the model argument 'metrics' can not be None or empty, you should set the argument 'metrics' for model.
        """  # noqa: E501
        _flag(dataset_sink_mode)
        if not self._scoring:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        if callbacks:
            _warn_old_hooks(callbacks, "eval")
        params = InternalCallbackParam(eval_network=self._evaluator, valid_dataset=valid_dataset,
                                       batch_num=valid_dataset.get_dataset_size(), mode="eval", cur_step_num=0,
                                       list_callback=_as_list(callbacks), network=self._net)
        self._scoring.reset()
        with CallbackManager(callbacks) as hooks:
            return self._evaluate(valid_dataset, params, hooks)

    def _evaluate(self, dataset: Any, params: InternalCallbackParam, hooks: CallbackManager,
                  with_loss: bool = False) -> Dict[str, Any]:
        """One pass over ``dataset`` through the eval network; ``with_loss`` adds ``eval_loss`` (for ``fit``)."""
        ctx = RunContext(params)
        params.dataset_sink_mode = False
        hooks.on_eval_begin(ctx)
        rows = _tuple_iterator(dataset, 1)
        hooks.on_eval_epoch_begin(ctx)
        mean_loss = get_metric_fn("loss") if with_loss else None
        for item in _EpochReader(rows):
            params.cur_step_num += 1
            params.eval_dataset_element = args = _row(item)
            hooks.on_eval_step_begin(ctx)
            self._switch(self._evaluator, "infer")
            params.net_outputs = outputs = self._evaluator(*args)
            hooks.on_eval_step_end(ctx)
            self._scoring.add(outputs)
            if mean_loss is not None:
                mean_loss.update(self._scoring.loss_in(outputs))
            if ctx.get_stop_requested():
                break
        hooks.on_eval_epoch_end(ctx)
        if hasattr(dataset, "reset"):
            dataset.reset()
        params.metrics = results = self._scoring.results()
        if mean_loss is not None:
            params.eval_results = {**results, "eval_loss": mean_loss.eval()}
        hooks.on_eval_end(ctx)
        return results

    def predict(self, *predict_data: Any, backend: Optional[str] = None, config: Optional[dict] = None) -> Any:
        """Run the network on ``predict_data`` in inference mode.

        Example:
            >>> Model(Cell()).predict(backend="gpu")
            Traceback (most recent call last):
            ...
            ValueError: For Model.predict, `backend` should be 'lite' or None, but got gpu
        """
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}")
        for value in predict_data:
            if isinstance(value, Tensor) and value.size == 0:
                raise ValueError("The input data can not be empty.")
            if value is not None and not isinstance(value, (Tensor, int, float, str)):
                raise TypeError(f"The types of input data must be in the Union({_PREDICT_KINDS}, "
                                f"tuple[{_PREDICT_KINDS}], list[{_PREDICT_KINDS}], dict[{_PREDICT_KINDS}]), "
                                f"but got type {type(value).__name__}.")
        self._switch(self._net, "infer")
        return self._net(*predict_data)


_ = amp
