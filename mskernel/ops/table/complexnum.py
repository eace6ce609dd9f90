"""Op table: complex numbers — real and imaginary parts, conjugate, angle, ``polar``, ``Complex``,
``ComplexAbs``, ``view_as_real`` — and the sign-like ops that read them (``sgn``, ``isreal``, ``positive``).

Tensors hold Complex64/Complex128 as numpy does. A real input passes through ``real``/``conj`` unchanged and
gives zeros of its own dtype from ``imag`` (MindSpore 2.10's CPU wheel); ``angle`` wants a complex input.
Float32 parts make Complex64, Float64 parts Complex128.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> z = ops.Complex()(ms.Tensor([1.0, 0.0]), ms.Tensor([2.0, -1.0]))
    >>> print(z, ops.real(z), ops.imag(z), ops.ComplexAbs()(z))
    [1.+2.j 0.-1.j] [1. 0.] [ 2. -1.] [2.236068 1.      ]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.special import _F3264, check_types


def _real_part(x: np.ndarray) -> np.ndarray:
    return np.array(x.real) if x.dtype.kind == "c" else x.copy()


def _imag_part(x: np.ndarray) -> np.ndarray:
    return np.array(x.imag) if x.dtype.kind == "c" else np.zeros_like(x)


def _conj(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.bool_:
        raise TypeError("For primitive[Conj], the input argument[input] must be a type of {Tensor[BFloat16], "
                        "Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32], Tensor[Float64], "
                        "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], "
                        "Tensor[UInt64], Tensor[UInt8]}, but got Tensor[Bool].")
    return np.conj(x)


def _angle(x: np.ndarray) -> np.ndarray:
    check_types("Angle", ("input",), (x,), ("Complex64", "Complex128"))
    return np.angle(x).astype(np.float32 if x.dtype == np.complex64 else np.float64)


def _complex(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    check_types("Complex", ("imag", "real"), (imag, real), _F3264)
    real, imag = np.broadcast_arrays(real, imag)
    out = np.empty(real.shape, np.complex64 if real.dtype == np.float32 else np.complex128)
    out.real, out.imag = real, imag  # not real + 1j * imag: 1j * inf has a NaN real part
    return out


def _polar(abs: np.ndarray, angle: np.ndarray) -> np.ndarray:
    check_types("Polar", ("abs", "angle"), (abs, angle), _F3264)
    return _complex(abs * np.cos(angle), abs * np.sin(angle))


def _complex_abs(x: np.ndarray) -> np.ndarray:
    return np.abs(x)


def _view_as_real(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind != "c":
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return np.ascontiguousarray(np.stack([x.real, x.imag], axis=-1))


def _sgn(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.bool_:
        raise TypeError("Select CPU operator[Sign] fail! Unsupported data type!")
    if x.dtype.kind != "c":
        return np.sign(x)
    wide = x.astype(np.complex128)  # divided in double precision: 15+20j gives 0.6+0.8j exactly in complex64
    mag = np.abs(wide)
    return np.where(mag == 0, 0, wide / np.where(mag == 0, 1, mag)).astype(x.dtype)


def _isreal(x: np.ndarray) -> np.ndarray:
    return x.imag == 0 if x.dtype.kind == "c" else np.ones(x.shape, bool)


def _polar_grad(g: Tensor, abs: Tensor, angle: Tensor) -> tuple:
    """For a real loss of the complex output ``abs * e^(i angle)``: the gradient arrives as ``gr + i gi``."""
    gr, gi = F.real(g), F.imag(g)
    c, s = F.cos(angle), F.sin(angle)
    return (gr * c + gi * s, abs * (gi * c - gr * s))


def _real_grad(g: Tensor, input: Tensor) -> tuple:
    """A complex input's gradient is ``d/d real + i d/d imag`` (MindSpore's convention for a real loss); MindSpore
    2.10 gives it complex for a real input too."""
    return (F._complex(g, F.zeros_like(g)),)


def _imag_grad(g: Tensor, input: Tensor) -> tuple:
    return (F._complex(F.zeros_like(g), g) if input._data.dtype.kind == "c" else F.zeros_like(g),)


def is_complex(input: Any) -> bool:
    """Whether ``input``'s dtype is complex.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> is_complex(ms.Tensor(np.array([1 + 1j], np.complex64))), is_complex(ms.Tensor([1]))
        (True, False)
    """
    if not isinstance(input, Tensor):
        raise TypeError("The input must be Tensor!")
    return input._data.dtype.kind == "c"


OPS: List[Op] = [
    Op("real", "input", _real_part, _real_grad, prim="Real", method=True),
    Op("imag", "input", _imag_part, _imag_grad, prim="Imag", method=True),
    Op("conj", "input", _conj, lambda g: (F.conj(g),), prim="Conj", method=True),
    Op("angle", "input", _angle, prim="Angle", method=True),
    Op("_complex", "real, imag", _complex, lambda g: (F.real(g), F.imag(g)), inputs=2, prim="Complex"),
    Op("polar", "abs, angle", _polar, _polar_grad, inputs=2, prim="Polar"),
    Op("_complex_abs", "x", _complex_abs, prim="ComplexAbs"),
    Op("view_as_real", "input", _view_as_real),
    Op("sgn", "input", _sgn, lambda g: (F.zeros_like(g),), method=True),
    Op("isreal", "input", _isreal, method=True),
    Op("positive", "input", lambda x: x.copy(), lambda g: (g,), method=True),
    Op("is_complex", "input", fn=is_complex, method=True),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
_NP = "import numpy as np"
_Z = "z = ms.Tensor(np.array([1.5 + 2j, -1j], np.complex64))"
EXAMPLES = {
    "real": (_NP, _Z, "ops.real(z)", "[ 1.5 -0. ]"),
    "imag": (_NP, _Z, "ops.imag(z)", "[ 2. -1.]"),
    "conj": (_NP, _Z, "ops.conj(z)", "[ 1.5-2.j -0. +1.j]"),
    "angle": (_NP, "ops.angle(ms.Tensor(np.array([-1 + 1j, 3 - 3j], np.complex64)))", "[ 2.3561945 -0.7853981]"),
    "polar": ("ops.polar(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 3.1415927]))",
              "[ 1.+0.0000000e+00j -2.-1.7484555e-07j]"),
    "view_as_real": (_NP, "ops.view_as_real(ms.Tensor(np.array([2 + 1j, 2 - 1j], np.complex64)))",
                     "[[ 2.  1.]\n [ 2. -1.]]"),
    "sgn": (_NP, "ops.sgn(ms.Tensor(np.array([3 + 4j, 0, 8], np.complex64)))", "[0.6+0.8j 0. +0.j  1. +0.j ]"),
    "isreal": (_NP, "ops.isreal(ms.Tensor(np.array([1 + 0j, 1 + 2j], np.complex64)))", "[ True False]"),
    "positive": ("ops.positive(ms.Tensor([-5.0, 1.5]))", "[-5.   1.5]"),
    "Complex": ("ops.Complex()(ms.Tensor([1.0]), ms.Tensor([2.0]))", "[1.+2.j]"),
    "ComplexAbs": (_NP, "ops.ComplexAbs()(ms.Tensor(np.array([3 + 4j], np.complex64)))", "[5.]"),
}
