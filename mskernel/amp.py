"""``mindspore.amp``: mixed precision and loss scaling.

``auto_mixed_precision(net, level)`` casts a network for low-precision training: 'O0' leaves it,
'O1' runs the white-list cells (Dense, Conv*, RNN cells) in ``dtype`` and casts their outputs back to
float32, 'O2' runs the whole network in ``dtype`` except the black-list cells (BatchNorm, LayerNorm)
and returns float32, 'O3' runs all of it in ``dtype`` and returns float32. On the CPU float16 is
computed by numpy (slow but exact to float16 rounding).

``StaticLossScaler``/``DynamicLossScaler`` scale a loss and unscale gradients in functional training
loops; ``all_finite(grads)`` says whether none is inf/NaN. The ``LossScaleManager`` classes configure
``Model``/``build_train_network``.

Example:
    >>> import mskernel as ms
    >>> scaler = StaticLossScaler(1024)
    >>> print(scaler.scale(ms.Tensor(0.5)), scaler.unscale(ms.Tensor(512.0)))
    512.0 0.5
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell, _cast_floats
from mskernel.nn.wrap import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, TrainOneStepCell,
                              WithLossCell)

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "DynamicLossScaler", "StaticLossScaler", "LossScaler", "auto_mixed_precision", "all_finite",
           "get_white_list", "get_black_list"]

logger = logging.getLogger(__name__)

_WHITE = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense", "LSTMCell",
          "RNNCell", "GRUCell"]
#: primitives MindSpore's O1 casts wherever a cell calls them (its nn.ReLU and nn.PReLU are one such call each)
_WHITE_PRIMITIVES = ["Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput", "MatMul",
                     "BatchMatMul", "PReLU", "ReLU", "Ger"]
_WHITE_PRIMITIVE_CELLS = ["ReLU", "PReLU"]
_BLACK = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm"]


def get_white_list() -> list:
    """The cell classes 'O1' runs in low precision (by name here; MindSpore lists classes and primitives).

    Example:
        >>> "Dense" in get_white_list()
        True
    """
    return list(_WHITE)


def get_black_list() -> list:
    """The cell classes 'O2' keeps in float32 (by name).

    Example:
        >>> get_black_list()[0]
        'BatchNorm1d'
    """
    return list(_BLACK)


class _CastOutput(Cell):
    """Run the wrapped cell and cast its float outputs to ``dtype`` (its parameters keep their names; its
    attributes read through, as MindSpore's ``_OutputTo16``/``_OutputTo32`` copy them)."""

    def __init__(self, cell: Cell, dtype: mstype.Type) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = cell
        self._out_dtype = dtype

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            backbone = self.__dict__.get("_cells", {}).get("_backbone")
            if backbone is None:
                raise
            return getattr(backbone, name)

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return _cast_floats(self._backbone(*args, **kwargs), self._out_dtype)


class _CastPrimitive:
    """A white-list primitive as O1 runs it: float Tensor inputs cast to ``dtype``, float outputs back to
    float32 (MindSpore's rewrite puts a cast pair around each such call)."""

    def __init__(self, primitive: Any, dtype: mstype.Type) -> None:
        self._primitive = primitive
        self._dtype = dtype

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_primitive"], name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        out = self._primitive(*_cast_floats(args, self._dtype), **kwargs)
        return _cast_floats(out, mstype.float32)


def _class_names(cell: Cell) -> set:
    return {c.__name__ for c in type(cell).__mro__}


def _replace_children(cell: Cell, rule: Any) -> None:
    """Put ``rule(child)`` in place of each sub-cell for which it is not None; go into the others."""
    for name, child in list(cell._own_cells().items()):
        if child is None:
            continue
        new = rule(child)
        if new is None:
            _replace_children(child, rule)
        else:
            cell.insert_child_to_cell(name, new)


def auto_mixed_precision(network: Cell, amp_level: str = "O0", dtype: mstype.Type = mstype.float16) -> Cell:
    """Cast ``network`` for mixed precision at ``amp_level`` ('O0', 'O1', 'O2', 'O3'); returns the network.

    Example:
        >>> import mskernel as ms
        >>> class Id(Cell):
        ...     def construct(self, x):
        ...         return x * 2
        >>> net = auto_mixed_precision(Id(), "O3")
        >>> net(ms.Tensor([1.0])).dtype
        mindspore.float32
        >>> auto_mixed_precision(Id(), "O4")
        Traceback (most recent call last):
        ...
        ValueError: The amp level O4 is not supported
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    allowed = [mstype.float16] + ([mstype.bfloat16] if hasattr(mstype, "bfloat16") else [])
    if dtype not in allowed:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    if amp_level == "O0":
        return network
    previous = getattr(network, "_amp_level", None)
    if previous in ("O1", "O2", "O3", "auto"):
        logger.warning("The network's auto mixed-precision level is adjusted from %s to %s, and repeated calls to "
                       "mixed-precision interfaces can cause performance degradation.", previous, amp_level)
    cast = _LEVEL_CASTS.get(amp_level)
    if cast is None:
        raise ValueError(f"The amp level {amp_level} is not supported")
    network = cast(network, dtype)
    object.__setattr__(network, "_amp_level", amp_level)
    return network


def _wrap_matching(network: Cell, names: list, run_in: mstype.Type, give: mstype.Type) -> Cell:
    """Each cell of ``network`` (itself, or else its sub-cells, searched from the top) whose class is in
    ``names``, made to run in ``run_in`` and to hand its float outputs on as ``give``."""
    def rule(cell: Cell) -> Optional[Cell]:
        return _CastOutput(cell.to_float(run_in), give) if _class_names(cell) & set(names) else None
    top = rule(network)
    if top is not None:
        return top
    _replace_children(network, rule)
    return network


def _cast_o1(network: Cell, dtype: mstype.Type) -> Cell:
    """The white-list cells in ``dtype``, their outputs back in float32; so are ``nn.ReLU``/``nn.PReLU`` (one
    white-list primitive each) and every white-list primitive a cell holds as an attribute."""
    from mskernel.ops.primitive import Primitive
    network = _wrap_matching(network, _WHITE + _WHITE_PRIMITIVE_CELLS, dtype, mstype.float32)
    for _, cell in network.cells_and_names():
        if getattr(cell, "mixed_precision_type", None) is not None:
            continue  # already runs in low precision
        for name, value in list(cell.__dict__.items()):
            if isinstance(value, Primitive) and value.name in _WHITE_PRIMITIVES:
                object.__setattr__(cell, name, _CastPrimitive(value, dtype))
    return network


def _cast_o2(network: Cell, dtype: mstype.Type) -> Cell:
    """All in ``dtype`` but the black-list cells (float32 inside, ``dtype`` out); float32 out of the network."""
    network.to_float(dtype)
    _replace_children(network, lambda cell: (_CastOutput(cell.to_float(mstype.float32), dtype)
                                             if _class_names(cell) & set(_BLACK) else None))
    return _CastOutput(network, mstype.float32)


def _cast_o3(network: Cell, dtype: mstype.Type) -> Cell:
    """All in ``dtype``; float32 out of the network."""
    return _CastOutput(network.to_float(dtype), mstype.float32)


_LEVEL_CASTS = {"O1": _cast_o1, "O2": _cast_o2, "O3": _cast_o3}


class LossScaleManager:
    """Base class of loss-scale managers (used by ``Model`` and ``build_train_network``).

    Example:
        >>> LossScaleManager().get_loss_scale() is None
        True
    """

    def get_loss_scale(self) -> Any:
        """The current loss scale.

        Example:
            >>> FixedLossScaleManager(64).get_loss_scale()
            64
        """

    def update_loss_scale(self, overflow: bool) -> None:
        """Adjust the scale after a step (``overflow``: whether gradients overflowed).

        Example:
            >>> m = DynamicLossScaleManager(8, 2, 100); m.update_loss_scale(True); m.get_loss_scale()
            4.0
        """

    def get_update_cell(self) -> Any:
        """The cell ``TrainOneStepWithLossScaleCell`` updates the scale with (None: no scaling cell).

        Example:
            >>> type(DynamicLossScaleManager().get_update_cell()).__name__
            'DynamicLossScaleUpdateCell'
        """


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale; ``drop_overflow_update`` skips steps whose gradients overflow.

    Example:
        >>> FixedLossScaleManager(0.5)
        Traceback (most recent call last):
        ...
        ValueError: The argument 'loss_scale' must be >= 1, but got 0.5
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._scale = loss_scale
        self._skip_overflowing_steps = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._scale

    def get_drop_overflow_update(self) -> bool:
        """Whether an overflowing step is skipped.

        Example:
            >>> FixedLossScaleManager(drop_overflow_update=False).get_drop_overflow_update()
            False
        """
        return self._skip_overflowing_steps

    def update_loss_scale(self, overflow: bool) -> None:
        return None

    def get_update_cell(self) -> Optional[FixedLossScaleUpdateCell]:
        return FixedLossScaleUpdateCell(self._scale) if self._skip_overflowing_steps else None


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale divided by ``scale_factor`` on overflow and multiplied after ``scale_window`` clean steps.

    The scale never drops below 1. A run of more than 1000 overflowing steps in a row raises
    ``RuntimeError``: no scale makes such gradients finite.

    Example:
        >>> m = DynamicLossScaleManager(init_loss_scale=4, scale_factor=2, scale_window=1)
        >>> m.update_loss_scale(False); m.get_loss_scale()
        8
    """

    _MOST_OVERFLOWS_IN_A_ROW = 1000

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        if not isinstance(scale_window, int) or isinstance(scale_window, bool) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be int and must > 0, but got "
                             f"'{scale_window}' with type '{type(scale_window).__name__}'.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self._clean_steps = 0  # steps without an overflow since the last one (or since the start)
        self._overflows = 0  # overflowing steps in a row

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        if overflow:
            # shrink (multiplying by the reciprocal, as MindSpore does: the same float for any factor)
            self.loss_scale = max(self.loss_scale * (1 / self.scale_factor), 1)
            self._clean_steps = 0
            self._overflows += 1
            if self._overflows > self._MOST_OVERFLOWS_IN_A_ROW:
                raise RuntimeError(f"Dynamic loss scale Continuous overflow {self._overflows} times, has exceeded "
                                   f"maximum threshold.")
            return
        self._overflows = 0
        self._clean_steps += 1
        if self._clean_steps % self.scale_window == 0:  # each full window of clean steps grows the scale once
            self.loss_scale *= self.scale_factor

    def get_drop_overflow_update(self) -> bool:
        """Always True: overflowing steps are skipped.

        Example:
            >>> DynamicLossScaleManager().get_drop_overflow_update()
            True
        """
        return True

    def get_update_cell(self) -> DynamicLossScaleUpdateCell:
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


_LEVELS = {"O0": (mstype.float32, False), "O1": (mstype.float32, False), "O2": (mstype.float16, True),
           "O3": (mstype.float16, False), "auto": (mstype.float32, False)}


class _WithLossCast(Cell):
    """``loss_fn(float32(backbone(data)), float32(label))`` for networks that run in low precision."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        out = _cast_floats(self._backbone(data), mstype.float32)
        return self._loss_fn(out, _cast_floats(label, mstype.float32))


def build_train_network(network: Cell, optimizer: Cell, loss_fn: Optional[Cell] = None, level: str = "O0",
                        boost_level: str = "O0", **kwargs: Any) -> Cell:
    """The training cell ``Model`` builds: mixed precision at ``level``, the loss, loss scaling, one step.

    ``kwargs``: ``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager`` (MindSpore's names). On the
    CPU, as in MindSpore, only ``loss_scale_manager=None`` or ``FixedLossScaleManager(drop_overflow_update=False)``
    is accepted.

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.Dense(1, 1, weight_init=ms.Tensor([[1.0]]), has_bias=False)
        >>> train = build_train_network(net, ms.nn.SGD(net.trainable_params()), ms.nn.L1Loss(), level="O2",
        ...                             loss_scale_manager=None)
        >>> print(type(train).__name__, train(ms.Tensor([[3.0]]), ms.Tensor([[0.0]])))
        TrainOneStepCell 3.0
    """
    if level not in _LEVELS:
        raise ValueError(f"The amp level {level} is not supported")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got {boost_level}.")
    for key in kwargs:
        if key not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{key}'")
    cast_type, keep_bn = _LEVELS[level]
    manager = DynamicLossScaleManager() if level == "O2" else None
    cast_type = kwargs.get("cast_model_type", cast_type)
    manager = kwargs.get("loss_scale_manager", manager)
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', the 'loss_scale_manager' must be a LossScaleManager, but got "
                        f"{type(manager).__name__}.")
    if level in ("O1", "O2", "O3"):
        network = auto_mixed_precision(network, level)
    elif cast_type == mstype.float16:
        network = auto_mixed_precision(network, "O3")
    if loss_fn is not None:
        low = cast_type == mstype.float16 or getattr(network, "_amp_level", None) in ("O2", "O3", "auto")
        network = _WithLossCast(network, loss_fn) if low else WithLossCell(network, loss_fn)
    scale = None
    if manager is not None:
        scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            raise ValueError("Only `loss_scale_manager=None` or "
                             "`loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False)`"
                             "are supported on device `CPU`. ")
    if boost_level in ("O1", "O2"):  # mindspore.boost's training step (gradient freezing, accumulation, ...)
        from mskernel.boost import BoostTrainOneStepCell

        return BoostTrainOneStepCell(network, optimizer, scale).set_train()
    return TrainOneStepCell(network, optimizer, scale).set_train()


def all_finite(inputs: Any) -> Tensor:
    """A bool Tensor: True when no Tensor in ``inputs`` (a Tensor or a tuple/list of them) holds inf or NaN.

    Example:
        >>> import mskernel as ms
        >>> print(all_finite((ms.Tensor([1.0]), ms.Tensor([float("nan")]))))
        False
    """
    items = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    return Tensor(all(bool(np.isfinite(t.asnumpy()).all()) for t in items))


def _map(inputs: Any, fn: Any) -> Any:
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(x, fn) for x in inputs)
    return fn(inputs)


class LossScaler:
    """Base class of loss scalers: ``scale``, ``unscale`` and ``adjust``.

    Example:
        >>> issubclass(StaticLossScaler, LossScaler)
        True
    """

    # three separate hooks a scaler overrides; their bodies are alike only in having none here
    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` (a Tensor or tuple) by the scale.

        Example:
            >>> import mskernel as ms
            >>> print(StaticLossScaler(4).scale(ms.Tensor(1.0)))
            4.0
        """
        raise NotImplementedError

    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` by the scale.

        Example:
            >>> import mskernel as ms
            >>> print(StaticLossScaler(4).unscale(ms.Tensor(1.0)))
            0.25
        """
        raise NotImplementedError

    def adjust(self, grads_finite: Any) -> Any:
        """Update the scale after a step.

        Example:
            >>> import mskernel as ms
            >>> StaticLossScaler(4).adjust(ms.Tensor(True))
            False
        """
        raise NotImplementedError


class _ScalerBase(LossScaler):
    def __init__(self, scale_value: Any) -> None:
        if not isinstance(scale_value, (float, int)) or isinstance(scale_value, bool):
            raise TypeError(f"For '{type(self).__name__}', the type of 'scale_value' must be float or int, but got "
                            f"'{type(scale_value).__name__}'.")
        if scale_value < 1.0:
            raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
        self.scale_value = Parameter(Tensor(scale_value, mstype.float32), name="scale_value")

    def scale(self, inputs: Any) -> Any:
        return _map(inputs, lambda x: x * self.scale_value.astype(x.dtype))

    def unscale(self, inputs: Any) -> Any:
        return _map(inputs, lambda x: x * (1 / self.scale_value).astype(x.dtype))


class StaticLossScaler(_ScalerBase):
    """A constant loss scale for functional training loops.

    Example:
        >>> StaticLossScaler(0.5)
        Traceback (most recent call last):
        ...
        ValueError: The argument 'scale_value' must be > 1, but got 0.5
    """

    def adjust(self, grads_finite: Any) -> bool:
        return False


class DynamicLossScaler(_ScalerBase):
    """A loss scale divided by ``scale_factor`` when gradients overflow and multiplied by it after
    ``scale_window`` finite steps (as long as the product stays finite).

    Example:
        >>> import mskernel as ms
        >>> s = DynamicLossScaler(1024, 2, 1000)
        >>> _ = s.adjust(ms.Tensor(False)); print(s.scale_value.asnumpy())
        512.0
    """

    def __init__(self, scale_value: Any, scale_factor: int, scale_window: int) -> None:
        super().__init__(scale_value)
        for name, v in (("scale_window", scale_window), ("scale_factor", scale_factor)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For 'DynamicLossScaler', the '{name}' must be int and must > 0, but got '{v}' "
                                 f"with type '{type(v).__name__}'.")
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.counter = Parameter(Tensor(0, mstype.int32), name="counter")

    def adjust(self, grads_finite: Any) -> bool:
        finite = bool(np.all(grads_finite.asnumpy())) if isinstance(grads_finite, Tensor) else bool(grads_finite)
        value = np.float32(self.scale_value.asnumpy())
        counter = int(self.counter.asnumpy())
        if finite:
            with np.errstate(over="ignore"):  # a growth past float32's range is skipped, not warned about
                grown = np.float32(value * self.scale_factor)
            if counter == self.scale_window - 1 and np.isfinite(grown):
                value = grown
            counter = (counter + 1) % self.scale_window
        else:
            value = max(np.float32(1.0), np.float32(value / self.scale_factor))
            counter = 0
        self.scale_value.set_data(Tensor(np.float32(value)))
        self.counter.set_data(Tensor(counter, mstype.int32))
        return True
