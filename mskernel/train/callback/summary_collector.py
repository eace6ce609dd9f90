"""``SummaryCollector``: a ``Model.train`` callback that writes a summary file with ``SummaryRecord``: at the first
step and every ``collect_freq`` steps (and at each epoch's end) the loss (``loss/auto``, the mean of the network's
first output), histograms of the optimizer's parameters (``<name>/auto``: the first five, or those matching
``histogram_regular``) and, when the input is an NCHW image batch, the input (``input_data/auto``).

With ``collect_landscape`` (on by default, as in MindSpore) it saves the weights at the steps or epochs of its
``intervals`` and the landscape's metadata under ``summary_dir/ckpt_dir`` for ``SummaryLandscape``
(:mod:`~mskernel.train.callback.landscape_record`). MindSpore also writes lineage files and graphs; mskernel builds
no graphs and writes no lineage, so those keys are accepted and checked but nothing is written for them.

Example:
    >>> import os, tempfile, numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> from mskernel.train import Model
    >>> net = nn.Dense(2, 1)
    >>> model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.ones((4, 1), np.float32)})
    >>> d = tempfile.mkdtemp()
    >>> model.train(1, data.batch(2), callbacks=[SummaryCollector(d, collect_freq=1)], dataset_sink_mode=False)
    >>> from mskernel.train.summary.event_file import read_events
    >>> name = [n for n in os.listdir(d) if ".out.events.summary." in n][0]
    >>> [(e.step, [v.tag for v in e.summary.value]) for e in read_events(open(os.path.join(d, name), "rb").read())][1]
    (1, ['loss/auto', 'weight/auto', 'bias/auto'])
"""
from __future__ import annotations

import logging
import os
import re
from typing import Any, Dict, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.train.callback.landscape_record import LandscapeRecorder, check_collect_landscape
from mskernel.train.callback.protocol import Callback, RunContext
from mskernel.train import summary  # noqa: F401  (the package first: its __init__ loads summary_record once)
from mskernel.train.summary.summary_record import SummaryRecord, _export_options, _make_dir

__all__ = ["SummaryCollector"]


def _check_type(name: str, value: Any, kinds: tuple, names: list) -> None:
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise TypeError(f"For `{name}` the type should be a valid type of {names}, but got {type(value).__name__}.")

logger = logging.getLogger(__name__)

_DEFAULTS: Dict[str, Any] = {
    "collect_metric": True, "collect_graph": True, "collect_train_lineage": True, "collect_eval_lineage": True,
    "collect_input_data": True, "collect_dataset_graph": True, "histogram_regular": None,
    "collect_landscape": {"landscape_size": 40, "unit": "step", "num_samples": 2048,
                          "create_landscape": {"train": True, "result": True},
                          "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
}
_HISTOGRAMS_BY_DEFAULT = 5
_TENSOR_SUMMARY_LIMIT = 20


class SummaryCollector(Callback):
    """Collect the loss, parameter histograms and image inputs of ``Model.train`` into a summary file in
    ``summary_dir`` every ``collect_freq`` steps. ``collect_specified_data`` switches items off
    (``{'collect_metric': False}``) or picks the histogrammed parameters (``{'histogram_regular': '^conv1.*'}``);
    with ``keep_default_action=False`` only the given items are collected. ``max_file_size`` and ``export_options``
    go to the ``SummaryRecord``.

    Example:
        >>> import tempfile
        >>> SummaryCollector(tempfile.mkdtemp(), collect_specified_data={"collect_metric": False}).collect_freq
        10
    """

    def __init__(self, summary_dir: str, collect_freq: int = 10, num_process: int = 32,
                 collect_specified_data: Optional[dict] = None, keep_default_action: bool = True,
                 custom_lineage_data: Optional[dict] = None, collect_tensor_freq: Optional[int] = None,
                 max_file_size: Optional[int] = None, export_options: Optional[dict] = None) -> None:
        super().__init__()
        self._summary_dir = _make_dir(summary_dir, "summary_dir")
        self._record: Optional[SummaryRecord] = None
        self._check_positive("collect_freq", collect_freq)
        self.collect_freq = collect_freq
        self._check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        self._check_positive("max_file_size", max_file_size, allow_none=True)
        self._max_file_size = max_file_size
        self._export_options = _export_options(export_options)
        _check_type("keep_default_action", keep_default_action, (bool,), ["bool"])
        self._specified = self._process_specified(collect_specified_data, keep_default_action)
        _check_type("collect_landscape", self._specified.get("collect_landscape"), (dict, type(None)),
                    ["dict", "NoneType"])
        self._landscape: Optional[LandscapeRecorder] = None
        landscape = self._specified.get("collect_landscape")
        if landscape:
            check_collect_landscape(type(self).__name__, landscape)
            self._landscape = LandscapeRecorder(_make_dir(os.path.join(self._summary_dir, "ckpt_dir"), "path"),
                                                landscape)
        _check_type("custom_lineage_data", custom_lineage_data, (dict, type(None)), ["dict", "NoneType"])
        self._custom_lineage_data = custom_lineage_data
        self._num_process = num_process
        self._first_step, self._loss_ok, self._optimizer, self._has_recorded = True, True, None, False
        self._tensor_range: Any = range(0)

    def _check_positive(self, name: str, value: Any, allow_none: bool = False) -> None:
        if allow_none and value is None:
            return
        _check_type(name, value, (int,), ["int"])
        if value <= 0:
            raise ValueError(f'For "{type(self).__name__}", the value of `{name}` should be greater than 0, but got '
                             f'`{value}`.')

    def _process_specified(self, specified: Any, keep: bool) -> Dict[str, Any]:
        _check_type("collect_specified_data", specified, (dict, type(None)), ["dict", "NoneType"])
        if specified is None:
            return dict(_DEFAULTS) if keep else {}
        for key in specified:
            _check_type(key, key, (str,), ["str"])
        unexpected = set(specified) - set(_DEFAULTS)
        if unexpected:
            raise ValueError(f'For "{type(self).__name__}", the keys {unexpected} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(_DEFAULTS)}')
        if "histogram_regular" in specified:
            regular = specified["histogram_regular"]
            _check_type("histogram_regular", regular, (str, type(None)), ["str", "NoneType"])
            if isinstance(regular, str):
                try:
                    re.match(regular, "")
                except re.error as exc:
                    raise ValueError("For `collect_specified_data`, the value of `histogram_regular` is not a valid "
                                     f"regular expression. Detail: {exc}.") from exc
        for key in set(_DEFAULTS) - {"histogram_regular", "collect_landscape"}:
            if key in specified:
                _check_type(key, specified[key], (bool,), ["bool"])
        return {**_DEFAULTS, **specified} if keep else dict(specified)

    def __enter__(self) -> "SummaryCollector":
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step = True
        return self

    def __exit__(self, *err: Any) -> None:
        if self._record is not None:
            self._record.close()

    def begin(self, run_context: RunContext) -> None:
        """Check that this is the only SummaryCollector and set the record's mode.

        Example:
            >>> import tempfile
            >>> with SummaryCollector(tempfile.mkdtemp()) as sc:
            ...     sc.begin(RunContext({"mode": "train", "list_callback": [sc], "dataset_sink_mode": False}))
        """
        params = run_context.original_args()
        if sum(type(cb).__name__ == type(self).__name__ for cb in params.get("list_callback") or []) > 1:
            raise ValueError(f"There are more than one {type(self).__name__} instance in callback list,but expected "
                             f"only one {type(self).__name__} instance.")
        if params.get("mode") not in ("train", "eval"):
            raise ValueError("Only support `train` (model.train) and `eval` (model.eval) mode, but got "
                             "`{cb_params.mode}` mode.")
        self._record.set_mode(params["mode"])  # type: ignore[union-attr]

    def step_end(self, run_context: RunContext) -> None:
        """Collect at the first step and every ``collect_freq`` steps.

        Example:
            >>> SummaryCollector.step_end.__name__
            'step_end'
        """
        params = run_context.original_args()
        if params.get("mode") != "train":
            return
        if not self._has_recorded:  # MindSpore records its graphs here: what the summary operators gave goes too
            self._has_recorded = True
            self._record.record(params["cur_step_num"])  # type: ignore[union-attr]
        self._collect(params)
        if self._landscape is not None:
            self._landscape.maybe_save(params, "step")

    def epoch_end(self, run_context: RunContext) -> None:
        """Collect as at a step's end, then flush.

        Example:
            >>> SummaryCollector.epoch_end.__name__
            'epoch_end'
        """
        params = run_context.original_args()
        self._collect(params)
        if self._landscape is not None:
            self._landscape.maybe_save(params, "epoch")
        self._record.flush()  # type: ignore[union-attr]

    def end(self, run_context: RunContext) -> None:
        """Record what is left (nothing of the summary operators).

        Example:
            >>> SummaryCollector.end.__name__
            'end'
        """
        self._record.set_mode("eval")  # type: ignore[union-attr]
        self._record.record(step=0)  # type: ignore[union-attr]
        params = run_context.original_args()
        if self._landscape is not None and params.get("mode") == "train":
            self._landscape.save_metadata(params.get("batch_num"))

    def _tensor_collect_range(self, params: Any) -> Any:
        total = params["epoch_num"] * params["batch_num"]
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        if len(range(0, total + 1, self.collect_freq)) > _TENSOR_SUMMARY_LIMIT:
            freq = total // (_TENSOR_SUMMARY_LIMIT - 1)
            if freq > 1:
                return range(0, total + 1, freq)[:_TENSOR_SUMMARY_LIMIT]
            return range(0, total + 1)[:_TENSOR_SUMMARY_LIMIT + 1]
        return range(0, total + 1, self.collect_freq)

    def _collect(self, params: Any) -> None:
        if params.get("mode") != "train":
            return
        if self._first_step:
            self._tensor_range = self._tensor_collect_range(params)
            self._collect_now(params, None)
            self._first_step = False
            self._record.flush()  # type: ignore[union-attr]
            return
        current = params["cur_step_num"]
        if current % self.collect_freq == 0 and current in self._tensor_range:
            self._collect_now(params, None)
        elif current in self._tensor_range:
            self._collect_now(params, lambda plugin: plugin == "tensor")
        elif current % self.collect_freq == 0:
            self._collect_now(params, lambda plugin: plugin != "tensor")

    def _collect_now(self, params: Any, plugin_filter: Any) -> None:
        self._collect_input(params)
        self._collect_loss(params)
        self._collect_histograms(params)
        self._record.record(params["cur_step_num"], plugin_filter=plugin_filter)  # type: ignore[union-attr]

    def _collect_input(self, params: Any) -> None:
        if not self._specified.get("collect_input_data"):
            return
        data = params.get("train_dataset_element")
        if not isinstance(data, (Tensor, list, tuple)) or (not isinstance(data, Tensor) and not data):
            logger.warning("The input data of the network is not a Tensor/list/tuple, so SummaryCollector will not "
                           "collect input data.")
            self._specified["collect_input_data"] = False
            return
        if isinstance(data, (list, tuple)):
            data = data[0]
        try:
            self._record.add_value("image", "input_data/auto", data)  # type: ignore[union-attr]
        except (TypeError, ValueError):
            logger.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._specified["collect_input_data"] = False

    def _collect_loss(self, params: Any) -> None:
        if not self._specified.get("collect_metric") or not self._loss_ok:
            return
        out = params.get("net_outputs")
        if isinstance(out, (list, tuple)) and out:
            out = out[0]
        if not isinstance(out, (int, float, Tensor)):
            logger.warning("The output type could not be identified, so no loss was recorded in SummaryCollector.")
            self._loss_ok = False
            return
        arr = out.asnumpy() if isinstance(out, Tensor) else np.asarray(out)
        try:
            self._record.add_value("scalar", "loss/auto", Tensor(np.mean(arr)))  # type: ignore[union-attr]
        except ValueError:
            logger.warning("The output of network is not a scalar, so SummaryCollector will not collect loss.")
            self._specified["collect_metric"] = False

    def _collect_histograms(self, params: Any) -> None:
        if "histogram_regular" not in self._specified:
            return
        from mskernel.nn.optim.optimizer import Optimizer

        if self._optimizer is None:
            opt = params.get("optimizer")
            if opt is None:
                net = params.get("train_network")
                opt = next((c for _, c in net.cells_and_names() if isinstance(c, Optimizer)), None) if net else None
            if not isinstance(opt, Optimizer):
                logger.warning("Can not find optimizer in network, so SummaryCollector will not collect histograms.")
                opt = "Failed"
            self._optimizer = opt
        if self._optimizer == "Failed":
            return
        regular = self._specified["histogram_regular"]
        params_list = list(self._optimizer.parameters)
        chosen = ([p for p in params_list if re.match(regular, p.name)] if regular is not None
                  else params_list[:_HISTOGRAMS_BY_DEFAULT])
        for p in chosen:
            self._record.add_value("histogram", p.name + "/auto", Tensor(p.asnumpy()))  # type: ignore[union-attr]
