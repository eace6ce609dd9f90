"""Central differences in float64 on plain numpy functions of named arrays: gradients, and gradients of
directional derivatives (second order).

The stencil is of fourth order, ``f'(x) ~ (f(x - 2h) - 8 f(x - h) + 8 f(x + h) - f(x + 2h)) / 12h``, so with
``h = 1e-3`` the truncation error is near 1e-12 and rounding stays near 1e-12 for values of order one; a
second derivative taken as the difference of differences is good to about 1e-8. A function that is only
piecewise smooth reports the quantities whose signs pick its piece (relu's input, ...); :func:`on_one_piece`
freezes those signs so a stencil that steps over a kink raises :class:`KinkCrossed` instead of returning a
meaningless number.

Example:
    >>> import numpy as np
    >>> f = lambda p: float((p["x"] ** 3).sum())
    >>> g = gradient(f, {"x": np.array([1.0, 2.0])})
    >>> np.allclose(g["x"], [3.0, 12.0], rtol=1e-10)
    True
    >>> hvp = gradient(lambda p: derivative_along(f, p, {"x": np.array([1.0, 0.0])}), {"x": np.array([1.0, 2.0])})
    >>> np.allclose(hvp["x"], [6.0, 0.0], atol=1e-7)
    True
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np

__all__ = ["STEP", "KinkCrossed", "on_one_piece", "derivative_along", "gradient"]

Arrays = Dict[str, np.ndarray]
STEP = 1e-3
_STENCIL = ((-2, 1.0 / 12), (-1, -8.0 / 12), (1, 8.0 / 12), (2, -1.0 / 12))


class KinkCrossed(AssertionError):
    """A stencil point lies on another smooth piece of the function than the point differentiated at."""


def on_one_piece(f: Callable[[Arrays], Tuple[float, List[np.ndarray]]], point: Arrays) -> Callable[[Arrays], float]:
    """``f`` (returning its value and kink quantities) as a plain function that raises :class:`KinkCrossed` when
    any kink quantity has another sign than at ``point``.

    Example:
        >>> import numpy as np
        >>> relu_sum = lambda p: (float(np.maximum(p["x"], 0).sum()), [p["x"]])
        >>> f = on_one_piece(relu_sum, {"x": np.array([0.5])})
        >>> f({"x": np.array([0.7])})
        0.7
        >>> f({"x": np.array([-0.1])})
        Traceback (most recent call last):
        ...
        central_differences.KinkCrossed: a kink was crossed (quantity 0 changed sign)
    """
    _, kinks = f(point)
    signs = [np.sign(k) for k in kinks]

    def value(p: Arrays) -> float:
        v, ks = f(p)
        for i, (k, s) in enumerate(zip(ks, signs)):
            if not np.array_equal(np.sign(k), s):
                raise KinkCrossed(f"a kink was crossed (quantity {i} changed sign)")
        return v
    return value


def derivative_along(f: Callable[[Arrays], float], point: Arrays, direction: Arrays, h: float = STEP) -> float:
    """The derivative of ``f`` at ``point`` along ``direction`` (arrays for some of the names), by central differences.

    Example:
        >>> import numpy as np
        >>> round(derivative_along(lambda p: float(np.sin(p["x"]).sum()), {"x": np.zeros(2)}, {"x": np.ones(2)}), 9)
        2.0
    """
    total = 0.0
    for k, w in _STENCIL:
        moved = dict(point)
        for name, d in direction.items():
            moved[name] = point[name] + (k * h) * d
        total += w * f(moved)
    return total / h


def gradient(f: Callable[[Arrays], float], point: Arrays, h: float = STEP) -> Arrays:
    """The gradient of ``f`` at ``point`` (one array per name), element by element by central differences.

    Example:
        >>> import numpy as np
        >>> gradient(lambda p: float((p["a"] * p["b"]).sum()), {"a": np.array([2.0]), "b": np.array([3.0])})["b"]
        array([2.])
    """
    out: Arrays = {}
    for name, arr in point.items():
        g = np.zeros(np.shape(arr))
        for i in np.ndindex(g.shape):
            e = np.zeros(np.shape(arr))
            e[i] = 1.0
            g[i] = derivative_along(f, point, {name: e}, h)
        out[name] = g
    return out
