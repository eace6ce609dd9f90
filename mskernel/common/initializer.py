"""``mindspore.common.initializer``: parameter initializers with MindSpore's distributions.

``initializer(init, shape, dtype)`` returns a Tensor filled by ``init`` -- an Initializer
object, its name (``"normal"``, ``"zeros"``, ``"xavier_uniform"``, ...), a number, or a Tensor
(copied; its shape must match). Random initializers draw from numpy's global generator
(``np.random.seed`` makes them repeatable). Fans follow MindSpore: for a 2-D ``(out, in)`` weight
``fan_in = in`` and ``fan_out = out``; for convolution weights ``(out, in, *kernel)`` both are
multiplied by the kernel size.

Example:
    >>> import numpy as np
    >>> from mskernel import float32
    >>> np.random.seed(0)
    >>> w = initializer(Normal(sigma=0.02), [64, 32], float32)
    >>> w.shape, w.dtype, abs(float(w.asnumpy().std()) - 0.02) < 0.002
    ((64, 32), mindspore.float32, True)
    >>> print(initializer("ones", (2,), float32))
    [1. 1.]
"""
from __future__ import annotations

import math
from typing import Any, Dict, Sequence, Tuple, Type as PyType, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import PROVIDERS, Tensor

__all__ = ["Initializer", "initializer", "Zero", "One", "Constant", "Normal", "Uniform", "TruncatedNormal",
           "XavierUniform", "XavierNormal", "HeUniform", "HeNormal"]


def _fans(shape: Tuple[int, ...]) -> Tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for a tensor with fewer than 2 dimensions, "
                         f"but got shape {list(shape)}.")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity: str, param: float) -> float:
    gains = {"linear": 1.0, "conv1d": 1.0, "conv2d": 1.0, "conv3d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3,
             "relu": math.sqrt(2.0), "leaky_relu": math.sqrt(2.0 / (1 + param ** 2)), "selu": 3.0 / 4}
    if nonlinearity not in gains:
        raise ValueError(f"The argument 'nonlinearity' must be one of {sorted(gains)}, but got {nonlinearity!r}.")
    return gains[nonlinearity]


class Initializer:
    """Base class: ``init(shape) -> numpy array`` (float64; cast by :func:`initializer`).

    Example:
        >>> class Arange(Initializer):  # a new initializer overrides init
        ...     def init(self, shape):
        ...         return np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        >>> print(initializer(Arange(), (2, 3)))
        [[0. 1. 2.]
         [3. 4. 5.]]
    """

    def __init__(self, **kwargs: Any) -> None:
        # the settings become attributes (``Normal(sigma=0.5).sigma``)
        for name, value in kwargs.items():
            setattr(self, name, value)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        """The values for ``shape`` (override it)."""
        raise NotImplementedError

    # no __repr__ of its own: MindSpore's initializers show as Python's default ``<... object at 0x...>``, and a
    # Cell's repr (``weight_init=...``) prints them so


class Zero(Initializer):
    """All zeros.

    Example:
        >>> print(initializer(Zero(), (2, 2)))
        [[0. 0.]
         [0. 0.]]
    """

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.zeros(shape)


class One(Initializer):
    """All ones.

    Example:
        >>> from mskernel import int32
        >>> print(initializer(One(), (3,), int32))
        [1 1 1]
    """

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.ones(shape)


class Constant(Initializer):
    """Every element ``value``.

    Example:
        >>> print(initializer(Constant(0.25), (2,)))
        [0.25 0.25]
    """

    def __init__(self, value: float) -> None:
        super().__init__(value=value)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.full(shape, self.value, dtype=np.float64)


class Normal(Initializer):
    """N(mean, sigma**2).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(Normal(sigma=0.5, mean=1.0), (10000,)).asnumpy()
        >>> round(float(w.mean()), 1), round(float(w.std()), 1)
        (1.0, 0.5)
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.random.normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    """U(-scale, scale).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(Uniform(scale=0.1), (10000,)).asnumpy()
        >>> bool(abs(w).max() <= 0.1), round(float(w.std()), 3)  # the std of U(-s, s) is s / sqrt(3)
        (True, 0.058)
    """

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.random.uniform(-self.scale, self.scale, shape)


class TruncatedNormal(Initializer):
    """N(mean, sigma**2) restricted to [a, b] (redrawn outside).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(TruncatedNormal(sigma=1.0, a=-0.5, b=0.5), (10000,)).asnumpy()
        >>> bool(w.min() >= -0.5 and w.max() <= 0.5)
        True
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        out = np.random.normal(self.mean, self.sigma, shape)
        bad = (out < self.a) | (out > self.b)
        while bad.any():
            out[bad] = np.random.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        return out


class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(XavierUniform(), (30, 20)).asnumpy()  # fan_in 20, fan_out 30: b = sqrt(6 / 50)
        >>> bool(abs(w).max() <= math.sqrt(6 / 50)), bool(abs(w).max() > 0.9 * math.sqrt(6 / 50))
        (True, True)
    """

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return np.random.uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    """N(0, s**2) with s = gain * sqrt(2 / (fan_in + fan_out)).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(XavierNormal(gain=2), (300, 500)).asnumpy()  # s = 2 * sqrt(2 / 800) = 0.1
        >>> round(float(w.std()), 2)
        0.1
    """

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        return np.random.normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


class HeUniform(Initializer):
    """U(-b, b) with b = gain(nonlinearity, negative_slope) * sqrt(3 / fan) (fan per ``mode``).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(HeUniform(nonlinearity="relu"), (50, 24)).asnumpy()  # b = sqrt(2) * sqrt(3 / 24)
        >>> bool(abs(w).max() <= 0.5), bool(abs(w).max() > 0.45)
        (True, True)
    """

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"The argument 'mode' must be 'fan_in' or 'fan_out', but got {mode!r}.")

    def _std(self, shape: Tuple[int, ...]) -> float:
        fan_in, fan_out = _fans(shape)
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan_in if self.mode == "fan_in" else fan_out)

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        bound = math.sqrt(3.0) * self._std(shape)
        return np.random.uniform(-bound, bound, shape)


class HeNormal(HeUniform):
    """N(0, s**2) with s = gain(nonlinearity, negative_slope) / sqrt(fan) (fan per ``mode``).

    Example:
        >>> np.random.seed(0)
        >>> w = initializer(HeNormal(mode="fan_out"), (200, 300)).asnumpy()  # s = sqrt(2) / sqrt(200) = 0.1
        >>> round(float(w.std()), 2)
        0.1
    """

    def init(self, shape: Tuple[int, ...]) -> np.ndarray:
        return np.random.normal(0.0, self._std(shape), shape)


#: the names ``initializer("...")`` accepts (MindSpore's aliases), one per line
NAMES: Dict[str, PyType[Initializer]] = {
    "zeros": Zero, "zero": Zero,
    "ones": One, "one": One,
    "normal": Normal,
    "uniform": Uniform,
    "truncatednormal": TruncatedNormal, "truncated_normal": TruncatedNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform,
    "he_normal": HeNormal, "henormal": HeNormal,
}


def initializer(init: Union[Initializer, str, float, int, Tensor], shape: Union[int, Sequence[int], None] = None,
                dtype: mstype.Type = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled by ``init`` (see the module docstring).

    Example:
        >>> from mskernel import float32
        >>> print(initializer(Constant(0.5), [3], float32))
        [0.5 0.5 0.5]
    """
    if isinstance(init, Tensor):
        if shape is not None and tuple(init.shape) != (tuple(shape) if not isinstance(shape, int) else (shape,)):
            raise ValueError(f"For 'initializer', the shape of the Tensor init {list(init.shape)} must be the same as "
                             f"'shape' {list(shape) if not isinstance(shape, int) else [shape]}.")
        return Tensor(init.asnumpy().astype(dtype.np))
    if shape is None:
        raise ValueError("For 'initializer', 'shape' must be given unless 'init' is a Tensor.")
    shp = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 0 for d in shp):
        raise ValueError(f"For 'initializer', the dimensions of 'shape' must be positive, but got {list(shp)}.")
    if isinstance(init, str):
        cls = NAMES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the 'init' name must be one of {sorted(NAMES)}, but got {init!r}.")
        init = cls()
    elif isinstance(init, (bool, int, float)):
        init = Constant(init)
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', 'init' must be an Initializer, a str, a number or a Tensor, but got "
                        f"{type(init).__name__}.")
    return Tensor(np.asarray(init.init(shp)).astype(dtype.np))


PROVIDERS["initializer"] = initializer  # Tensor(shape=, dtype=, init=) calls it
