"""``SummaryLandscape``: the loss landscape around the weights a ``SummaryCollector`` saved (its
``collect_landscape``), written to a summary file for MindSpore Insight.

Two kinds, each a ``landscape_size`` x ``landscape_size`` grid of losses over a plane through the final weights
``p``: the loss at ``p + a * v + b * w`` for the grid's (a, b), the loss being the ``'Loss'`` metric of the
training network (loss on, train mode) over ``num_samples // batch_size`` batches of the dataset.

* ``train`` (one per interval of saved steps): ``v`` and ``w`` are the two principal directions of the weight
  trajectory (the saved weights minus the last ones, centred, by SVD; each component's sign makes its largest
  entry positive); the trajectory's coordinates in (v, w), by least squares, are the *path* (its losses are those
  at the saved weights' projections onto the plane), and the grid spans them with a margin of 20% on each side.
  Tag ``landscape_[first, last]``, decomposition ``'PCA'``.
* ``result`` (the last saved weights): ``v`` and ``w`` are random normal vectors (numpy's global generator: seed
  it with ``np.random.seed`` for a reproducible landscape), on the grid [-1, 1]^2. Tag ``landscape_[last]``,
  decomposition ``'Random'``.

The directions are cut into one piece per parameter and each piece is scaled to that parameter's norm
(filter-wise normalization by parameter); only parameters whose name has ``weight`` or ``bias`` (and not
``moment``) move, the others keep their values. Each landscape is a ``LossLandscape`` summary value (grid axes x
and y, losses z, the path and its steps, the convergence point, the metadata decomposition/unit/step_per_epoch)
recorded at step 0.

Progress is printed as MindSpore prints it. ``device_ids`` (ints 0-7) are accepted as in MindSpore; with more
than one, MindSpore splits the grid rows among worker processes, one per device; on a CPU the parts are computed
here one after another in this process (the same values and the same progress lines per part).

Example:
    >>> import os, tempfile, numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> from mskernel.train import Model, Loss, SummaryCollector
    >>> from mskernel.train.summary.event_file import read_events
    >>> def dataset():
    ...     x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
    ...     return ms.dataset.NumpySlicesDataset({"x": x, "y": x[:, :1] * 2}, shuffle=False).batch(2)
    >>> d = tempfile.mkdtemp()
    >>> net = nn.Dense(2, 1)
    >>> spec = {"collect_landscape": {"landscape_size": 3, "unit": "step", "num_samples": 4,
    ...                               "create_landscape": {"train": True, "result": True}, "intervals": [[1, 2, 3]]}}
    >>> Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9)).train(
    ...     1, dataset(), callbacks=[SummaryCollector(d, collect_specified_data=spec)], dataset_sink_mode=False)
    >>> def callback_fn():
    ...     net = nn.Dense(2, 1)
    ...     metrics = {"Loss": Loss()}
    ...     return Model(net, nn.MSELoss(), metrics=metrics), net, dataset(), metrics
    >>> out = tempfile.mkdtemp()
    >>> np.random.seed(0)
    >>> SummaryLandscape(d).gen_landscapes_with_multi_process(callback_fn, device_ids=[0], output=out)
    ... # doctest: +ELLIPSIS
    Drawing landscape path total progress is 1/3, landscape path loss is ...
    ...
    Drawing landscape total progress: 3/3.
    ...
    Current local landscape progress is 3/3, landscape loss is ...
    >>> events = read_events(open(os.path.join(out, os.listdir(out)[0]), "rb").read())
    >>> [(v.tag, v.loss_landscape.metadata.decomposition, list(v.loss_landscape.landscape.z.dims))
    ...  for e in events[1:] for v in e.summary.value]
    [('landscape_[1, 3]', 'PCA', [3, 3]), ('landscape_[3]', 'Random', [3, 3])]
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import stat
import time
from collections import defaultdict, namedtuple
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from mskernel.train.callback.landscape_record import check_value_type
from mskernel.train.summary.event_file import DATA_TYPES, LossLandscape

__all__ = ["SummaryLandscape"]

logger = logging.getLogger(__name__)

#: a set of points of the landscape: coordinates along v (x) and w (y), and the loss (z)
Points = namedtuple("Points", ["x", "y", "z"])

_MARGIN = 0.2  # the PCA grid reaches this share of the path's extent beyond it; the random grid spans 5 * it
_JSON_KEYS = ["epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples", "landscape_size",
              "create_landscape"]


def _moves(name: str) -> bool:
    """Whether the landscape moves a parameter: weights and biases, not an optimizer's moments."""
    return ("weight" in name or "bias" in name) and "moment" not in name


def _fill(arr: np.ndarray, out: Any) -> None:
    """A TensorProto with ``arr``'s dtype, shape and values (stored as floats)."""
    code = DATA_TYPES.get(arr.dtype.type)
    if code is None:
        raise TypeError("No match for proto data type.")
    out.data_type = code
    out.float_data.extend(arr.reshape(-1).tolist())
    out.dims.extend(arr.shape)


def _principal_directions(trajectory: np.ndarray) -> np.ndarray:
    """The first two principal components (columns, scaled by their singular values) of ``trajectory``
    (parameters x checkpoints), its columns centred first; each component's largest entry made positive."""
    from scipy import linalg

    x = trajectory - trajectory.mean(axis=0)
    u, s, _ = linalg.svd(x, full_matrices=False)
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), range(u.shape[1])])
    u = u * signs
    s = np.where(s == 0, 1e-19, s)
    return u[:, :2] * s[:2]


class _Landscape:
    """One landscape's points and facts, and its ``LossLandscape`` message."""

    def __init__(self, intervals: List[int], decomposition: str, grid: Points, convergence: Points,
                 path: Optional[Points] = None) -> None:
        self.intervals, self.decomposition, self.grid = intervals, decomposition, grid
        self.convergence, self.path = convergence, path
        self.unit, self.step_per_epoch = "step", 1

    def message(self) -> Any:
        msg = LossLandscape()
        _fill(self.grid.x[0], msg.landscape.x)
        _fill(self.grid.y[:, 0], msg.landscape.y)
        _fill(self.grid.z, msg.landscape.z)
        if self.path:
            msg.loss_path.intervals.extend(self.intervals)
            for axis in "xyz":
                _fill(getattr(self.path, axis), getattr(msg.loss_path.points, axis))
        for axis in "xyz":
            _fill(getattr(self.convergence, axis), getattr(msg.convergence_point, axis))
        msg.metadata.decomposition = self.decomposition
        msg.metadata.unit = self.unit
        msg.metadata.step_per_epoch = self.step_per_epoch
        return msg


def _parts(rows: Any, n: int) -> List[Any]:
    """``rows`` cut into ``n`` parts of ``len // n`` rows, the last taking the rest (MindSpore's split)."""
    size, out, start = len(rows) // n, [], 0
    for i in range(n):
        out.append(rows[start:start + size] if i != n - 1 else rows[start:])
        start += size
    return out


def _axis(coords: np.ndarray, size: int) -> np.ndarray:
    """``size`` points from the path's least coordinate to its greatest, widened by the margin on both sides (the
    extent in the coordinates' precision, the rest in float64, as MindSpore's numpy 1.x computes it)."""
    lo, hi = coords.min(), coords.max()
    extent = float(hi - lo)
    return np.linspace(float(lo) - _MARGIN * extent, float(hi) + _MARGIN * extent, size)


class SummaryLandscape:
    """Compute loss landscapes from what a ``SummaryCollector`` with ``collect_landscape`` saved in
    ``summary_dir`` (see the module).

    Example:
        >>> import tempfile
        >>> SummaryLandscape(tempfile.mkdtemp()).gen_landscapes_with_multi_process(lambda: None, device_ids=[0])
        Traceback (most recent call last):
        ...
        FileNotFoundError: For "SummaryLandscape", train_metadata.json file does not exist under the path, please \
use summary_collector to collect information to create the json file
    """

    def __init__(self, summary_dir: str) -> None:
        from mskernel.train.summary.summary_record import _make_dir

        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        _make_dir(self._ckpt_dir, "path")
        self._model_params_file_map: Dict[str, str] = {}
        self._epoch_group: Any = defaultdict(list)

    def clean_ckpt(self) -> None:
        """Delete the saved checkpoints (``summary_dir/ckpt_dir``).

        Example:
            >>> import os, tempfile
            >>> d = tempfile.mkdtemp(); SummaryLandscape(d).clean_ckpt(); os.listdir(d)
            []
        """
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    # -- the entry point ---------------------------------------------------------------------------------------
    def gen_landscapes_with_multi_process(self, callback_fn: Callable[[], Tuple[Any, Any, Any, Any]],
                                          collect_landscape: Optional[dict] = None, device_ids: Any = None,
                                          output: Optional[str] = None) -> None:
        """Compute the landscapes ``train_metadata.json`` asks for and write them to a summary file in ``output``
        (default: ``summary_dir``). ``callback_fn()`` returns ``(model, network, dataset, metrics)``: a Model
        with the loss and ``metrics`` holding ``'Loss'``, the network the checkpoints load into, the dataset the
        losses are computed on. ``collect_landscape`` overrides keys of the metadata (``SummaryCollector``'s
        keys; new ``intervals`` are saved into the json). ``device_ids`` is a list of ints 0-7.

        Example:
            >>> import tempfile
            >>> SummaryLandscape(tempfile.mkdtemp()).gen_landscapes_with_multi_process(lambda: None, device_ids=[9])
            Traceback (most recent call last):
            ...
            ValueError: For "SummaryLandscape.gen_landscapes_with_multi_process", the parameter "device_ids" should \
be between 0 and 7, but got 9.
        """
        from mskernel.train.summary.summary_record import SummaryRecord

        workers = len(device_ids)  # type: ignore[arg-type]  (None: MindSpore's TypeError too)
        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        record = SummaryRecord(output_path)
        try:
            self._check_device_ids(device_ids)
            if collect_landscape is not None:
                self._update_metadata(collect_landscape)
            for interval, landscape in self._list_landscapes(callback_fn, workers):
                record.add_value("landscape", f"landscape_{interval}", landscape)
                record.record(0)
                record.flush()
        finally:
            record.close()

    def _update_metadata(self, collect_landscape: dict) -> None:
        self._check_collect_landscape_data(collect_landscape)
        path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file path of {path} not exists.')
        with open(path, "r", encoding="utf-8") as f:
            data = json.load(f)
        for key, value in collect_landscape.items():
            if key in data:
                data[key] = value
        if "intervals" in collect_landscape:
            for i, interval in enumerate(collect_landscape["intervals"]):
                self._epoch_group[i].extend(interval)
            data["epoch_group"] = self._epoch_group
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.chmod(path, stat.S_IRUSR)

    def _list_landscapes(self, callback_fn: Callable, workers: int) -> Iterator[Tuple[List[int], Any]]:
        path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file does not exist under the '
                                    'path, please use summary_collector to collect information to create the json '
                                    'file')
        with open(path, "r", encoding="utf-8") as f:
            data = json.load(f)
        self._check_json_file_data(data)
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        size, create = data["landscape_size"], data["create_landscape"]
        start = time.time()
        made: List[Tuple[List[int], _Landscape]] = []
        if create["train"]:
            for i, epochs in enumerate(self._epoch_group.values()):
                self._log_message(create, index=i, interval=epochs)
                landscape = self._by_pca(epochs, size, callback_fn, workers)
                made.append(([epochs[0], epochs[-1]], landscape))
                yield self._finish(landscape, data, made[-1][0])
        if create["result"]:
            final = [list(self._epoch_group.values())[-1][-1]]
            self._log_message(create, final_epochs=final)
            yield self._finish(self._by_random(final, size, callback_fn, workers), data, final)
        logger.info("Total use time: %s s.", round(time.time() - start, 6))

    @staticmethod
    def _finish(landscape: _Landscape, data: dict, interval: List[int]) -> Tuple[List[int], Any]:
        landscape.unit, landscape.step_per_epoch = data["unit"], data["step_per_epoch"]
        return interval, landscape.message()

    def _log_message(self, create: dict, index: int = 0, interval: Any = None, final_epochs: Any = None) -> None:
        total = len(self._epoch_group)
        if final_epochs is None:
            of = total + 1 if create["result"] else total
            logger.info("Start to create the %s/%s landscapes, checkpoint is %s, decomposition is PCA.",
                        index + 1, of, interval)
        else:
            of = total + 1 if create["train"] else 1
            logger.info("Start to create the %s/%s landscapes, checkpoint is %s, decomposition is Random.",
                        of, of, final_epochs)

    # -- the two kinds -----------------------------------------------------------------------------------------
    def _params_at(self, epochs: List[int]) -> List[List[Any]]:
        from mskernel.train.serialization import load_checkpoint

        return [list(load_checkpoint(self._model_params_file_map.get(str(e))).values()) for e in epochs]

    def _by_pca(self, epochs: List[int], size: int, callback_fn: Callable, workers: int) -> _Landscape:
        snapshots = self._params_at(epochs)
        final = snapshots[-1]
        moving = [p for p in final if _moves(p.name)]
        flat = np.vstack([np.concatenate([p.asnumpy().reshape(-1) for p in ps if _moves(p.name)])
                          for ps in snapshots])
        trajectory = flat.astype(np.float64)  # the PCA in float64; the path's coordinates in float32
        components = _principal_directions((trajectory[:-1] - trajectory[-1]).T)
        v_all, w_all = self._directions(final, components[:, 0], components[:, -1])
        v_mov, w_mov = self._directions(moving, components[:, 0], components[:, -1])
        basis = np.vstack([np.concatenate([a.reshape(-1) for a in v_mov]),
                           np.concatenate([a.reshape(-1) for a in w_mov])]).T
        origin = np.concatenate([p.asnumpy().reshape(-1) for p in moving])
        coefs = np.array([np.hstack(np.linalg.lstsq(basis, row - origin, rcond=None)[0]) for row in flat])
        cx, cy = coefs[:, 0], coefs[:, 1]
        xs, ys = np.meshgrid(_axis(cx, size), _axis(cy, size))
        paths: List[Any] = []
        rows: List[Any] = []
        for coef_part, y_part in zip(_parts(coefs, workers), _parts(ys, workers)):
            p, z = self._losses(callback_fn, final, v_all, w_all, xs, y_part, coef_part)
            paths += p
            rows += z
        path = Points(cx, cy, np.array(paths).T[0])
        zero = np.argwhere(path.x == 0).reshape(-1)
        if zero.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        convergence = Points(np.array([0]), np.array([0]), np.array([path.z[int(zero[0])]]))
        return _Landscape(epochs, "PCA", Points(xs, ys, np.vstack(rows)), convergence, path)

    def _by_random(self, epochs: List[int], size: int, callback_fn: Callable, workers: int) -> _Landscape:
        final = self._params_at(epochs)[-1]
        total = sum(p.asnumpy().size for p in final)
        v_all, w_all = self._directions(final, np.random.normal(size=total), np.random.normal(size=total),
                                        every=True)
        x_axis = np.linspace(-_MARGIN * 5, _MARGIN * 5, size)
        y_axis = np.linspace(-_MARGIN * 5, _MARGIN * 5, size)
        xs, ys = np.meshgrid(x_axis, y_axis)
        rows: List[Any] = []
        for y_part in _parts(ys, workers):
            rows += self._losses(callback_fn, final, v_all, w_all, xs, y_part)[1]
        mid_x, mid_y = len(x_axis) // 2, len(y_axis) // 2
        convergence = Points(np.array([x_axis[mid_x]]), np.array([y_axis[mid_y]]), np.array([rows[mid_x][mid_y]]))
        return _Landscape(epochs, "Random", Points(xs, ys, np.vstack(rows)), convergence)

    @staticmethod
    def _directions(params: List[Any], v: np.ndarray, w: np.ndarray, every: bool = False
                    ) -> Tuple[List[np.ndarray], List[np.ndarray]]:
        """``v`` and ``w`` cut into one float32 array per parameter (over the moving parameters only, unless
        ``every``), each scaled to its parameter's norm; zero for a parameter that does not move."""
        out_v, out_w, at = [], [], 0
        for p in params:
            data = p.asnumpy()
            if not every and not _moves(p.name):
                out_v.append(np.zeros_like(data, np.float32))
                out_w.append(np.zeros_like(data, np.float32))
                continue
            pv = np.array(v[at:at + data.size].reshape(data.shape), np.float32)
            pw = np.array(w[at:at + data.size].reshape(data.shape), np.float32)
            at += data.size
            if _moves(p.name):
                with np.errstate(divide="ignore", invalid="ignore"):
                    pv, pw = pv * (np.linalg.norm(data) / np.linalg.norm(pv)), pw * (
                        np.linalg.norm(data) / np.linalg.norm(pw))
            else:
                pv, pw = pv * 0, pw * 0
            out_v.append(pv)
            out_w.append(pw)
        return out_v, out_w

    # -- losses ------------------------------------------------------------------------------------------------
    def _losses(self, callback_fn: Callable, final: List[Any], v: List[np.ndarray], w: List[np.ndarray],
                xs: np.ndarray, ys: Any, coefs: Any = None) -> Tuple[List[Any], List[Any]]:
        """The losses along the path (``coefs``) and on the grid rows ``ys``, with a fresh model from
        ``callback_fn``."""
        from mskernel.common.parameter import Parameter
        from mskernel.common.tensor import Tensor

        model, network, dataset, metrics = callback_fn()
        with open(os.path.join(self._ckpt_dir, "train_metadata.json"), "r", encoding="utf-8") as f:
            data = json.load(f)
        self._check_json_file_data(data)
        dataset = dataset.take(data["num_samples"] // dataset.get_batch_size())
        base = [p.asnumpy() for p in final]
        params = [Parameter(Tensor(p.asnumpy()), name=p.name, requires_grad=True) for p in final]
        paths = []
        if coefs is not None:
            for i, coef in enumerate(coefs):
                loss = self._cont_loss(dataset, network, model, metrics, params, base, [coef[0]], coef[1], v, w,
                                       path=True)
                paths.append(loss)
                print("Drawing landscape path total progress is %s/%s, landscape path loss is %s."
                      % (i + 1, len(coefs), loss[0]))
        rows = []
        for i, y_row in enumerate(ys):
            print("Drawing landscape total progress: %s/%s." % (i + 1, len(ys)))
            rows.append(self._cont_loss(dataset, network, model, metrics, params, base, xs[i], y_row[0], v, w))
        return paths, rows

    def _cont_loss(self, dataset: Any, network: Any, model: Any, metrics: Any, params: List[Any],
                   base: List[np.ndarray], alphas: Any, beta: Any, v: List[np.ndarray], w: List[np.ndarray],
                   path: bool = False) -> np.ndarray:
        from mskernel.common.tensor import Tensor
        from mskernel.train.serialization import load_param_into_net

        vals: Any = []
        for i, alpha in enumerate(alphas):
            for j, p in enumerate(params):
                p.set_data(Tensor((base[j] + alpha * v[j] + beta * w[j]).astype(np.float32)))
            load_param_into_net(network, {p.name: p for p in params})
            loss = self._loss_compute(model, dataset, metrics).get("Loss")
            if not path:
                print("Current local landscape progress is %s/%s, landscape loss is %s." % (i + 1, len(alphas), loss))
            vals = np.append(vals, loss)
        return vals

    @staticmethod
    def _loss_compute(model: Any, dataset: Any, metrics: Any) -> Dict[str, Any]:
        from mskernel.common.tensor import Tensor
        from mskernel.nn.metrics.by_name import get_metrics
        from mskernel.train.dataset_helper import DatasetHelper

        fns = get_metrics(metrics)
        for metric in fns.values():
            metric.clear()
        network = model.train_network
        network.set_train(True)
        for inputs in DatasetHelper(dataset, False):
            outputs = network(*((inputs,) if isinstance(inputs, Tensor) else inputs))
            if isinstance(outputs, Tensor):
                outputs = (outputs,)
            if not isinstance(outputs, tuple):
                raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}. Modify 'output' to "
                                 "Tensor or tuple. ")
            for metric in fns.values():
                metric.update(outputs[0])
        return {key: metric.eval() for key, metric in fns.items()}

    # -- checks (MindSpore's texts) ----------------------------------------------------------------------------
    def _check_unit(self, unit: Any) -> None:
        check_value_type("unit", unit, str)
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{type(self).__name__}", the "unit" in train_metadata.json should be step or epoch, '
                             f'but got the: {unit}')

    def _check_landscape_size(self, size: Any) -> None:
        check_value_type("landscape_size", size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{type(self).__name__}", "landscape_size" in train_metadata.json should be between '
                             f'3 and 256, but got the: {size}')

    def _check_create_landscape(self, create: Any) -> None:
        check_value_type("create_landscape", create, dict)
        for key, value in create.items():
            if key not in ("train", "result"):
                raise ValueError(f'For "{type(self).__name__}", the key of "create_landscape" should be in ["train", '
                                 f'"result"], but got the: {key}.')
            if len(create) < 2:
                raise ValueError(f'For "{type(self).__name__}", the key of "create_landscape" should be train and '
                                 f'result, but only got the: {key}')
            check_value_type(key, value, bool)

    def _check_intervals(self, intervals: Any) -> None:
        check_value_type("intervals", intervals, list)
        for interval in intervals:
            check_value_type("each interval in intervals", interval, list)
            if len(interval) < 3:
                raise ValueError(f'For "{type(self).__name__}", the length of each list in "intervals" should not be '
                                 f'less than three, but got the: {interval}.')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{type(self).__name__}", the type of each value in "intervals" should be '
                                    f'int, but got the: {type(j)}.')

    def _check_device_ids(self, device_ids: Any) -> None:
        check_value_type("device_ids", device_ids, list)
        where = f'For "{type(self).__name__}.gen_landscapes_with_multi_process", the parameter "device_ids"'
        for i in device_ids:
            if not isinstance(i, int):
                raise TypeError(f"{where} type should be int, but got the: {type(i)}.")
            if i < 0 or i > 7:
                raise ValueError(f"{where} should be between 0 and 7, but got {i}.")

    def _check_collect_landscape_data(self, collect_landscape: dict) -> None:
        for key in collect_landscape:
            if key not in ("landscape_size", "unit", "num_samples", "create_landscape", "intervals"):
                raise ValueError(f'For "{type(self).__name__}", the key of collect landscape should be landscape_size, '
                                 f'unit, num_samples create_landscape or intervals, but got the: {key}. ')
        if "landscape_size" in collect_landscape:
            self._check_landscape_size(collect_landscape["landscape_size"])
        if "unit" in collect_landscape:
            self._check_unit(collect_landscape["unit"])
        if "num_samples" in collect_landscape:
            check_value_type("num_samples", collect_landscape["num_samples"], int)
        if "create_landscape" in collect_landscape:
            self._check_create_landscape(collect_landscape["create_landscape"])
        if "intervals" in collect_landscape:
            self._check_intervals(collect_landscape["intervals"])

    def _check_json_file_data(self, data: dict) -> None:
        for key in data:
            if key not in _JSON_KEYS:
                raise ValueError(f'"train_metadata" json file should be {_JSON_KEYS}, but got the: {key}')
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{type(self).__name__}", the "epoch_group" in train_metadata.json, length of '
                                 f'each list in "epoch_group" should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in data["model_params_file_map"]:
                    raise ValueError(f'For "{type(self).__name__}", the "model_params_file_map" in '
                                     f'train_metadata.json does not exist {epoch}th checkpoint in intervals.')
        check_value_type("step_per_epoch", data["step_per_epoch"], int)
        self._check_landscape_size(data["landscape_size"])
        self._check_unit(data["unit"])
        check_value_type("num_samples", data["num_samples"], int)
        self._check_create_landscape(data["create_landscape"])
