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
from typing import Any, Dict, List, Optional, Union

from mskernel import amp
from mskernel.amp import (DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager,  # noqa: F401
                          build_train_network)
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.metrics import Loss, get_metric_fn, get_metrics
from mskernel.nn.wrap import WithEvalCell, WithLossCell
from mskernel.train.callback_base import CallbackManager, InternalCallbackParam, RunContext

__all__ = ["Model", "build_train_network", "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]

logger = logging.getLogger(__name__)

_INTERNAL_CALLBACKS = {"LossMonitor", "TimeMonitor", "ModelCheckpoint", "History", "LambdaCallback",
                       "EarlyStopping", "ReduceLROnPlateau", "SummaryCollector", "CheckpointConfig"}


def _positive_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


def _non_negative_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


def _check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"The input value must be bool, but got '{type(value).__name__}'")
    return value


def _tuple_iterator(dataset: Any, epochs: int) -> Any:
    """``dataset.create_tuple_iterator`` with the arguments MindSpore passes that it accepts."""
    make = dataset.create_tuple_iterator
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        params = {}
    has_var_kw = any(p.kind is p.VAR_KEYWORD for p in params.values())
    kwargs: Dict[str, Any] = {}
    if "num_epochs" in params or has_var_kw:
        kwargs["num_epochs"] = epochs
    if "do_copy" in params or has_var_kw:
        kwargs["do_copy"] = True
    return make(**kwargs)


class _EpochReader:
    """Reads one epoch from a persistent iterator: stops at its StopIteration (the next loop continues it)."""

    def __init__(self, iterator: Any) -> None:
        self._it = iterator

    def __iter__(self) -> "_EpochReader":
        return self

    def __next__(self) -> Any:
        return next(self._it)


def _as_tuple(item: Any) -> tuple:
    if isinstance(item, Tensor):
        return (item,)
    if isinstance(item, dict):
        return tuple(item.values())
    return tuple(item)


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
        for key in kwargs:
            if key not in ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level"):
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' "
                                 f"or 'boost_config_dict' or 'acc_level', but got '{key}'.")
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the type of 'network' must be Cell, but got '{type(network).__name__}'.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._eval_network = eval_network
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._metrics = metrics
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        self._train_network = self._build_train_network()
        self._eval_indexes: Optional[List[int]] = None
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = self._network
        self._backbone_is_train = True
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1

    # -- building ----------------------------------------------------------------------------------------
    def _build_train_network(self) -> Cell:
        network = self._network
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if self._optimizer is not None:
            config: Dict[str, Any] = {}
            if self._loss_scale_manager_set:
                config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                       boost_level=self._boost_level, **config)
        if self._loss_fn is not None:
            return WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics: Any, eval_network: Optional[Cell], eval_indexes: Any) -> None:
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(f"The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError(
                "If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't want an "
                "evaluation.\nIf evaluation is required, you need to specify `eval_network`, which will be used in the "
                "framework to evaluate the model.\nFor the simple scenarios with one data, one label and one logits, "
                "`eval_network` is optional, and then you can set `eval_network` or `loss_fn`. For the latter case, "
                "framework will automatically build an evaluation network with `network` and `loss_fn`.")
        self._eval_network = WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        """The training cell (TrainOneStepCell or WithLossCell or the network).

        Example:
            >>> Model(Cell()).train_network.cls_name
            'Cell'
        """
        return self._train_network

    @property
    def eval_network(self) -> Optional[Cell]:
        """The evaluation cell.

        Example:
            >>> Model(Cell()).eval_network is None
            True
        """
        return self._eval_network

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs.

        Example:
            >>> c = Cell(); Model(c).predict_network is c
            True
        """
        return self._predict_network

    # -- helpers ---------------------------------------------------------------------------------------
    def _check_network_mode(self, network: Cell, is_train: bool) -> Cell:
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)
        return network

    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs: Any) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self) -> Dict[str, Any]:
        return {key: metric.eval() for key, metric in self._metric_fns.items()}

    @staticmethod
    def _callback_list(callbacks: Any) -> list:
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _check_custom_callbacks(callbacks: Any, mode: str) -> None:
        old_names = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
        for cb in callbacks if isinstance(callbacks, list) else [callbacks]:
            name = type(cb).__name__
            if name in _INTERNAL_CALLBACKS:
                continue
            old = set(type(cb).__dict__) & old_names
            if not old:
                continue
            text = (f"For {name} callback, {old} methods may not be supported in later version, Use methods prefixed "
                    f"with 'on_train' or 'on_eval' instead when using customized callbacks.")
            if mode in ("train", "eval"):
                logger.warning(text)
            else:
                raise ValueError(text)

    def _check_train_args(self, api: str, epoch: int, train_dataset: Any, sink_size: int, initial_epoch: int) -> int:
        if not isinstance(sink_size, int) or isinstance(sink_size, bool):
            raise TypeError(f"The input value must be int, but got '{type(sink_size).__name__}'")
        _positive_int(epoch)
        _non_negative_int(initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', "
                             f"but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        size = train_dataset.get_dataset_size()
        if size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = size
        if sink_size < -1 or sink_size == 0:
            word = "argument" if api == "train" else "parameter"
            raise ValueError(f"For 'Model.{api}', The {word} 'sink_size' must be -1 or positive, but got "
                             f"{sink_size}.")
        return sink_size

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
        _check_bool(dataset_sink_mode)
        sink_size = self._check_train_args("train", epoch, train_dataset, sink_size, initial_epoch)
        if callbacks:
            self._check_custom_callbacks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

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
        _check_bool(dataset_sink_mode)
        _check_bool(valid_dataset_sink_mode)
        sink_size = self._check_train_args("fit", epoch, train_dataset, sink_size, initial_epoch)
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._check_custom_callbacks(callbacks, "fit")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    (valid_dataset, valid_frequency, valid_dataset_sink_mode))

    def _train(self, epoch: int, train_dataset: Any, callbacks: Any, sink_mode: bool, sink_size: int,
               initial_epoch: int, valid_infos: Any = (None, 1, False)) -> None:
        cb = InternalCallbackParam()
        cb.cur_step_num = 0
        cb.train_network = self._train_network
        cb.epoch_num = epoch - initial_epoch
        cb.batch_num = sink_size if sink_mode and sink_size > 0 else train_dataset.get_dataset_size()
        self.batch_num = cb.batch_num
        cb.mode = "train"
        cb.loss_fn = self._loss_fn
        cb.optimizer = self._optimizer
        cb.parallel_mode = "stand_alone"
        cb.device_number = 1
        cb.train_dataset = train_dataset
        cb.list_callback = self._callback_list(callbacks)
        cb.train_dataset_element = None
        cb.network = self._network
        cb.last_save_ckpt_step = None
        cb.latest_ckpt_file = None
        cb.loss_scale_mananger = self._loss_scale_manager  # MindSpore's spelling
        cb.initial_step = None
        with CallbackManager(cb.list_callback) as manager:
            self._train_process(epoch, train_dataset, manager, cb, initial_epoch, valid_infos)

    def _train_process(self, epoch: int, dataset: Any, callbacks: CallbackManager, cb: InternalCallbackParam,
                       initial_epoch: int, valid_infos: Any) -> None:
        reader = _EpochReader(_tuple_iterator(dataset, epoch))
        cb.dataset_sink_mode = False
        run_context = RunContext(cb)
        callbacks.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb.cur_epoch_num = i + 1
            self._current_epoch_num = cb.cur_epoch_num
            self._current_step_num = 0
            callbacks.on_train_epoch_begin(run_context)
            for element in reader:
                count = len(element)
                element = _as_tuple(element)
                if self._loss_fn and count != 2:
                    raise ValueError(f"When 'loss_fn' is not None, 'train_dataset' should return two elements, but "
                                     f"got {count}, please check the number of elements returned by 'train_dataset'")
                cb.cur_step_num += 1
                self._current_step_num = (cb.cur_step_num - 1) % cb.batch_num + 1
                cb.train_dataset_element = element
                callbacks.on_train_step_begin(run_context)
                self._check_network_mode(self._train_network, True)
                outputs = self._train_network(*element)
                cb.net_outputs = outputs
                manager = self._loss_scale_manager
                if manager is not None and manager.get_drop_overflow_update() and isinstance(outputs, tuple):
                    manager.update_loss_scale(bool(outputs[1].asnumpy().all()))
                callbacks.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._eval_during_train(valid_infos, cb, callbacks)
            if hasattr(dataset, "reset"):
                dataset.reset()
            callbacks.on_train_epoch_end(run_context)
            cb.pop("metrics", None)
            cb.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        callbacks.on_train_end(run_context)

    def _eval_during_train(self, valid_infos: Any, cb: InternalCallbackParam, callbacks: CallbackManager) -> None:
        valid_dataset, frequency, _ = valid_infos
        if not valid_dataset:
            return
        due = cb.cur_epoch_num % frequency == 0 if isinstance(frequency, int) else cb.cur_epoch_num in frequency
        if not due:
            return
        saved = (cb.cur_step_num, cb.batch_num, cb.dataset_sink_mode, cb.get("net_outputs"))
        from mskernel.train.callback_monitors import TimeMonitor

        eval_callbacks = [c for c in callbacks._callbacks
                          if type(c).__name__ not in _INTERNAL_CALLBACKS or isinstance(c, TimeMonitor)]
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = valid_dataset.get_dataset_size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        self._clear_metrics()
        with CallbackManager(eval_callbacks) as manager:
            self._eval_process(valid_dataset, manager, cb, add_eval_loss=True)
        cb.mode = "train"
        cb.cur_step_num, cb.batch_num, cb.dataset_sink_mode, cb.net_outputs = saved

    # -- evaluation and prediction --------------------------------------------------------------------
    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> Dict[str, Any]:
        """Evaluate the metrics over ``valid_dataset``: ``{name: value}``.

        Example:
            >>> Model(Cell()).eval(None)
            Traceback (most recent call last):
            ...
            ValueError: For Model.eval, the model argument 'metrics' can not be None or empty, you should set the argument 'metrics' for model.
        """  # noqa: E501
        _check_bool(dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        if callbacks:
            self._check_custom_callbacks(callbacks, "eval")
        cb = InternalCallbackParam()
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = valid_dataset.get_dataset_size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        cb.list_callback = self._callback_list(callbacks)
        cb.network = self._network
        self._clear_metrics()
        with CallbackManager(callbacks) as manager:
            return self._eval_process(valid_dataset, manager, cb)

    def _eval_process(self, dataset: Any, callbacks: CallbackManager, cb: InternalCallbackParam,
                      add_eval_loss: bool = False) -> Dict[str, Any]:
        run_context = RunContext(cb)
        cb.dataset_sink_mode = False
        callbacks.on_eval_begin(run_context)
        reader = _EpochReader(_tuple_iterator(dataset, 1))
        callbacks.on_eval_epoch_begin(run_context)
        eval_loss = get_metric_fn("loss") if add_eval_loss else None
        for element in reader:
            cb.cur_step_num += 1
            element = _as_tuple(element)
            cb.eval_dataset_element = element
            callbacks.on_eval_step_begin(run_context)
            self._check_network_mode(self._eval_network, False)
            outputs = self._eval_network(*element)
            cb.net_outputs = outputs
            callbacks.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss is not None:
                eval_loss.update(outputs[self._eval_indexes[0] if self._eval_indexes else 0])
            if run_context.get_stop_requested():
                break
        callbacks.on_eval_epoch_end(run_context)
        if hasattr(dataset, "reset"):
            dataset.reset()
        metrics = self._get_metrics()
        cb.metrics = metrics
        if eval_loss is not None:
            cb.eval_results = dict(metrics)
            cb.eval_results["eval_loss"] = eval_loss.eval()
        callbacks.on_eval_end(run_context)
        return metrics

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
        for item in predict_data:
            if item is None:
                continue
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
                continue
            if not isinstance(item, (int, float, str)):
                kinds = "Tensor, None, int, float, str"
                raise TypeError(f"The types of input data must be in the Union({kinds}, tuple[{kinds}], "
                                f"list[{kinds}], dict[{kinds}]), but got type {type(item).__name__}.")
        self._check_network_mode(self._predict_network, False)
        return self._predict_network(*predict_data)


_ = amp
