"""MindSpore's activation cells (``nn.ReLU()``, ``nn.GELU()``, ...), each over its functional op.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> x = ms.Tensor([-1.0, 0.0, 2.0])
    >>> print(nn.ReLU()(x), nn.LeakyReLU(0.1)(x), get_activation("tanh")(x))
    [0. 0. 2.] [-0.1  0.   2. ] [-0.7615942  0.         0.9640276]
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["ReLU", "ReLU6", "Sigmoid", "Tanh", "GELU", "SiLU", "LeakyReLU", "Softmax", "LogSoftmax", "ELU", "PReLU",
           "PReLUExt", "Softplus", "HSwish", "HSigmoid", "Mish", "SeLU", "Softsign", "get_activation", "LogSigmoid",
           "Tanhshrink", "FastGelu", "CELU", "GLU", "HShrink", "SoftShrink", "Softmin", "Threshold", "Hardtanh",
           "RReLU", "Softmax2d"]


class _Act(Cell):
    _fn: Any = None

    def construct(self, x: Tensor) -> Tensor:
        return type(self)._fn(x)


def _act(name: str, fn: Any, doc: str, out: str, x: str = "[-1.0, 0.0, 2.0]") -> type:
    """An activation cell over ``fn``; its docstring is ``doc`` and an example: the cell on the Tensor ``x``
    prints ``out`` (run by tests/test_doctests.py, as every class of this module)."""
    doc += ("\n\nExample:\n    >>> import mskernel as ms\n    >>> from mskernel import nn\n"
            f"    >>> print(nn.{name}()(ms.Tensor({x})))\n    {out}\n")
    return type(name, (_Act,), {"_fn": staticmethod(fn), "__doc__": doc, "__module__": __name__})


ReLU = _act("ReLU", F.relu, "``nn.ReLU()``: max(x, 0).", "[0. 0. 2.]")
ReLU6 = _act("ReLU6", F.relu6, "``nn.ReLU6()``: min(max(x, 0), 6).", "[0. 3. 6.]", x="[-1.0, 3.0, 8.0]")
Sigmoid = _act("Sigmoid", F.sigmoid, "``nn.Sigmoid()``: 1 / (1 + exp(-x)).", "[0.2689414 0.5       0.880797 ]")
Tanh = _act("Tanh", F.tanh, "``nn.Tanh()``.", "[-0.7615942  0.         0.9640276]")
SiLU = _act("SiLU", F.silu, "``nn.SiLU()``: x * sigmoid(x).", "[-0.2689414  0.         1.761594 ]")
HSwish = _act("HSwish", F.hardswish, "``nn.HSwish()``: x * relu6(x + 3) / 6.",
              "[-0.33333334  0.          1.6666666 ]")
HSigmoid = _act("HSigmoid", F.hardsigmoid, "``nn.HSigmoid()``: relu6(x + 3) / 6.", "[0.3333333 0.5       0.8333334]")
Mish = _act("Mish", F.mish, "``nn.Mish()``: x * tanh(softplus(x)).", "[-0.30340147  0.          1.9439589 ]")
SeLU = _act("SeLU", F.selu, "``nn.SeLU()``: scaled ELU with MindSpore's fixed scale and alpha.",
            "[-1.1113307  0.         2.101402 ]")
Softsign = _act("Softsign", F.softsign, "``nn.Softsign()``: x / (1 + abs(x)).", "[-0.5        0.         0.6666667]")


class GELU(Cell):
    """``nn.GELU(approximate=True)``: the tanh approximation by default, as MindSpore's.

    Example:
        >>> import mskernel as ms
        >>> print(GELU(approximate=False)(ms.Tensor([1.0])))
        [0.8413447]
    """

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x: Tensor) -> Tensor:
        return F.gelu(x, self.approximate)


class LeakyReLU(Cell):
    """``nn.LeakyReLU(alpha=0.2)``.

    Example:
        >>> import mskernel as ms
        >>> print(LeakyReLU()(ms.Tensor([-1.0])))
        [-0.2]
    """

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.alpha)


class Softmax(Cell):
    """``nn.Softmax(axis=-1)``.

    Example:
        >>> import mskernel as ms
        >>> print(Softmax()(ms.Tensor([0.0, 0.0])))
        [0.5 0.5]
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor) -> Tensor:
        return F.softmax(x, self.axis)


class LogSoftmax(Softmax):
    """``nn.LogSoftmax(axis=-1)``.

    Example:
        >>> import mskernel as ms
        >>> print(LogSoftmax()(ms.Tensor([0.0, 0.0])))
        [-0.6931472 -0.6931472]
    """

    def construct(self, x: Tensor) -> Tensor:
        return F.log_softmax(x, self.axis)


class ELU(Cell):
    """``nn.ELU(alpha=1.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(ELU()(ms.Tensor([-1.0, 1.0])))
        [-0.63212055  1.        ]
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha)


class Softplus(Cell):
    """``nn.Softplus(beta=1.0, threshold=20.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(Softplus()(ms.Tensor([0.0])))
        [0.6931472]
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, x: Tensor) -> Tensor:
        return F.softplus(x, self.beta, self.threshold)


class PReLU(Cell):
    """``nn.PReLU(channel=1, w=0.25)``: a learnable negative slope (Parameter ``alpha``).

    Example:
        >>> import mskernel as ms
        >>> print(PReLU()(ms.Tensor([-2.0, 1.0])))
        [-0.5  1. ]
    """

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        import numpy as np
        data = w._data if isinstance(w, Tensor) else np.full((channel,), w, np.float32)
        self.alpha = Parameter(Tensor(np.asarray(data, np.float32)), name="alpha")

    def construct(self, x: Tensor) -> Tensor:
        w = self.alpha
        if x.ndim >= 2 and w.shape[0] > 1:
            w = F.reshape(w, (w.shape[0],) + (1,) * (x.ndim - 2))
        return F.prelu(x, w)


_BY_NAME: Dict[str, type] = {"relu": ReLU, "relu6": ReLU6, "sigmoid": Sigmoid, "tanh": Tanh, "gelu": GELU,
                             "silu": SiLU, "leakyrelu": LeakyReLU, "softmax": Softmax, "logsoftmax": LogSoftmax,
                             "elu": ELU, "prelu": PReLU, "softplus": Softplus, "hswish": HSwish,
                             "hsigmoid": HSigmoid, "mish": Mish, "selu": SeLU, "softsign": Softsign}


def _late_names() -> None:
    """The activations defined below ``get_activation``'s table, by the names MindSpore gives them."""
    _BY_NAME.update({"softmin": Softmin, "softmax2d": Softmax2d, "rrelu": RReLU, "tanhshrink": Tanhshrink,
                     "hardtanh": Hardtanh, "fast_gelu": FastGelu, "logsigmoid": LogSigmoid, "softshrink": SoftShrink,
                     "hshrink": HShrink})


def get_activation(name: Any, prim_name: Any = None) -> Any:
    """The activation cell for a MindSpore name (``"relu"``, ``"gelu"``, ...); None for None.

    Example:
        >>> get_activation("relu")
        ReLU()
    """
    if name is None:
        return None
    if not isinstance(name, str) or name.lower() not in _BY_NAME:
        raise KeyError(f"For 'get_activation', the activation name must be one of {sorted(_BY_NAME)}, but got "
                       f"{name!r}.")
    return _BY_NAME[name.lower()]()


class PReLUExt(Cell):
    """``nn.PReLUExt(num_parameters=1, init=0.25, dtype=None)`` (``mint.nn.PReLU``): ``max(0, x) + weight *
    min(0, x)`` with a learnable Parameter ``weight`` of ``num_parameters`` slopes (one per channel, axis 1).

    Example:
        >>> import mskernel as ms
        >>> print(PReLUExt()(ms.Tensor([-2.0, 3.0])))
        [-0.5  3. ]
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Optional[mstype.Type] = None) -> None:
        super().__init__()
        dt = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, np.float32), dt), name="weight")

    def construct(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)


# -- the piecewise, gated and randomized activations ----------------------------------------------------------------
LogSigmoid = _act("LogSigmoid", F.logsigmoid, "``nn.LogSigmoid()``: log(sigmoid(x)).",
                  "[-1.3132617  -0.6931472  -0.12692805]")
Tanhshrink = _act("Tanhshrink", F.tanhshrink, "``nn.Tanhshrink()``: x - tanh(x).",
                  "[-0.23840582  0.          1.0359724 ]")
FastGelu = _act("FastGelu", F.fast_gelu, "``nn.FastGelu()``: x * sigmoid(1.702 x).",
                "[-0.15420423  0.          1.9356586 ]")


class _Param1(Cell):
    """An activation with one attribute: ``_fn(x, getattr(self, _attr))``."""

    _fn: Any = None
    _attr = ""

    def construct(self, x: Tensor) -> Tensor:
        return type(self)._fn(x, getattr(self, self._attr))


class CELU(_Param1):
    """``nn.CELU(alpha=1.0)``: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    Example:
        >>> import mskernel as ms
        >>> print(CELU()(ms.Tensor([-2.0, -1.0, 1.0, 2.0])))
        [-0.86466473 -0.63212055  1.          2.        ]
    """

    _fn, _attr = staticmethod(F.celu), "alpha"

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha


class GLU(_Param1):
    """``nn.GLU(axis=-1)``: the two halves ``a, b`` of ``axis``, ``a * sigmoid(b)``.

    Example:
        >>> import mskernel as ms
        >>> print(GLU()(ms.Tensor([[0.1, -1.2, 0.3, 0.4]])))
        [[ 0.05744425 -0.7184255 ]]
    """

    _fn, _attr = staticmethod(F.glu), "axis"

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis


class HShrink(_Param1):
    """``nn.HShrink(lambd=0.5)``: x where ``|x| > lambd``, else 0.

    Example:
        >>> import mskernel as ms
        >>> print(HShrink()(ms.Tensor([-1.0, 0.3, 0.6])))
        [-1.   0.   0.6]
    """

    _fn, _attr = staticmethod(F.hardshrink), "lambd"

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd


class SoftShrink(HShrink):
    """``nn.SoftShrink(lambd=0.5)``: x - lambd above lambd, x + lambd below -lambd, else 0.

    Example:
        >>> import mskernel as ms
        >>> print(SoftShrink()(ms.Tensor([-1.0, 0.3, 0.75])))
        [-0.5   0.    0.25]
    """

    _fn = staticmethod(F.softshrink)


class Softmin(_Param1):
    """``nn.Softmin(axis=-1)``: softmax(-x).

    Example:
        >>> import mskernel as ms
        >>> print(Softmin()(ms.Tensor([1.0, 2.0, 3.0])))
        [0.66524094 0.24472846 0.09003057]
    """

    _fn, _attr = staticmethod(F.softmin), "axis"

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis


class Threshold(Cell):
    """``nn.Threshold(threshold, value)``: x where x > threshold, else value.

    Example:
        >>> import mskernel as ms
        >>> print(Threshold(0.5, 9.0)(ms.Tensor([0.2, 0.5, 0.7])))
        [9.  9.  0.7]
    """

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold, self.value = threshold, value

    def construct(self, x: Tensor) -> Tensor:
        return F.threshold(x, self.threshold, self.value)


class Hardtanh(Cell):
    """``nn.Hardtanh(min_val=-1.0, max_val=1.0)``: x clamped to [min_val, max_val].

    Example:
        >>> import mskernel as ms
        >>> print(Hardtanh(-1.0, 1.0)(ms.Tensor([-1.5, 0.5, 2.0])))
        [-1.   0.5  1. ]
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        if min_val > max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got {min_val} and {max_val}")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x: Tensor) -> Tensor:
        return F.hardtanh(x, self.min_val, self.max_val)


class RReLU(Cell):
    """``nn.RReLU(lower=1/8, upper=1/3)``: negative elements times a slope drawn from [lower, upper].

    Example:
        >>> import mskernel as ms
        >>> print(RReLU()(ms.Tensor([1.0, 0.0, 3.0])))
        [1. 0. 3.]
    """

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        for name, v in (("lower", lower), ("upper", upper)):
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise TypeError(f"For 'RReLU', the type of '{name}' should be one of '['float', 'int']', but got type "
                                f"'{type(v).__name__}'.")
        if lower > upper:
            raise ValueError(f"For RReLU, the value of 'upper' must be greater than or equal to 'lower', but got "
                             f"upper: {upper}, lower: {lower}.")
        self.lower, self.upper = lower, upper

    def construct(self, x: Tensor) -> Tensor:
        return F.rrelu(x, self.lower, self.upper)


class Softmax2d(Cell):
    """``nn.Softmax2d()``: softmax over the channels of (C, H, W) or (N, C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(Softmax2d()(ms.Tensor([[[0.0]], [[0.0]]])).reshape(-1))
        [0.5 0.5]
    """

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got {x.ndim}.")
        return F.softmax(x, -3)


_late_names()
