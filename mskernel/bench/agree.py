"""Before timing: do the implementations compute the same thing? Values, and gradients where they flow.

The first implementation is the reference. Each other one is called on the same inputs; every
output must have the reference's shape, and its values must be close (``rtol``/``atol``, by default
from the dtype). When some inputs are float :class:`~mskernel.Tensor` s and an implementation returns
Tensors, its gradients with respect to those inputs are computed with :func:`mskernel.grad` of a
fixed random weighting of its outputs, and must match the reference's too. An implementation whose
backward raises (a pyfunc op without bprop, say) is listed as "values only" with the reason; one
that returns numpy arrays is compared on values only.

A difference raises :class:`DisagreementError`, naming the implementation, the output or gradient,
the worst element's index and both values.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    >>> rep = check_agreement({"mul": lambda a: a * a, "pow": lambda a: a ** 2}, (x,))
    >>> rep.reference, rep.grads_compared
    ('mul', ['mul', 'pow'])
    >>> check_agreement({"mul": lambda a: a * a, "bad": lambda a: a * a + (a > 2.5)}, (x,))
    Traceback (most recent call last):
    ...
    mskernel.bench.agree.DisagreementError: benchmark: 'bad' differs from 'mul' in output 0 at index (2,): got 10, ...
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import numpy as np

from mskernel.errors import MskernelError

__all__ = ["DisagreementError", "Agreement", "check_agreement", "to_arrays", "default_tolerance"]


class DisagreementError(MskernelError):
    """Two implementations of one op disagree: ``impl`` differs from ``reference`` in ``what``
    (``"output 0"``, ``"gradient of input 1"``) at ``index``.

    Example:
        >>> import mskernel as ms
        >>> try:
        ...     ms.benchmark([ms.ops.square, lambda a: a * 2], ms.Tensor([1.0, 2.0]), flush=False, warmup=0)
        ... except DisagreementError as e:
        ...     print(e.impl, "|", e.what, "|", e.index)
        <lambda> | output 0 | (0,)
    """

    def __init__(self, message: str, impl: str, reference: str, what: str,
                 index: Optional[tuple[int, ...]] = None) -> None:
        super().__init__(message)
        self.impl, self.reference, self.what, self.index = impl, reference, what, index


@dataclass
class Agreement:
    """What the agreement check compared: the reference, who matched on values and gradients, who was
    compared on values only (with why), and the largest absolute difference seen per implementation.

    Example:
        >>> import mskernel as ms
        >>> agreement = check_agreement({"square": ms.ops.square, "mul": lambda a: a * a}, [ms.Tensor([1.0, 2.0])])
        >>> agreement.reference, agreement.describe()
        ('square', 'agreement: mul match square on values and gradients')
    """

    reference: str
    values_compared: list[str]
    grads_compared: list[str] = field(default_factory=list)
    values_only: dict[str, str] = field(default_factory=dict)
    max_abs_diff: dict[str, float] = field(default_factory=dict)

    def describe(self) -> str:
        """One line: what agreed with what.

        Example:
            >>> Agreement("a", ["a", "b"], ["a", "b"]).describe()
            'agreement: b match a on values and gradients'
        """
        others = [n for n in self.values_compared if n != self.reference]
        if not others:
            return f"agreement: only one implementation ({self.reference}); nothing compared"
        grads = [n for n in others if n in self.grads_compared]
        text = f"agreement: {', '.join(others)} match {self.reference} on values"
        if grads and len(grads) == len(others) and self.reference in self.grads_compared:
            return text + " and gradients"
        if grads and self.reference in self.grads_compared:
            text += f"; gradients of {', '.join(grads)} match too"
        for name, why in self.values_only.items():
            text += f"; {name}: values only ({why})"
        return text


def to_arrays(out: Any) -> list[np.ndarray]:
    """An implementation's output as a list of numpy arrays (Tensors, arrays, scalars, tuples of them).

    Example:
        >>> [a.tolist() for a in to_arrays((np.ones(2), 3.0))]
        [[1.0, 1.0], 3.0]
    """
    items = out if isinstance(out, (tuple, list)) else (out,)
    return [np.asarray(o.asnumpy() if hasattr(o, "asnumpy") else o) for o in items]


def default_tolerance(dtype: np.dtype) -> tuple[float, float]:
    """``(rtol, atol)`` for comparing values of ``dtype`` computed in different orders.

    Example:
        >>> default_tolerance(np.dtype("float64")), default_tolerance(np.dtype("int32"))
        ((1e-09, 1e-12), (0.0, 0.0))
    """
    if dtype.kind not in "fc":
        return 0.0, 0.0
    if dtype.itemsize <= 2:
        return 1e-2, 1e-3
    if dtype.itemsize <= 4 or dtype.kind == "c" and dtype.itemsize <= 8:
        return 1e-4, 1e-5
    return 1e-9, 1e-12


def _fmt(v: Any) -> str:
    return f"{v:.6g}" if isinstance(v, (float, np.floating)) else str(v)


def _compare(got: np.ndarray, want: np.ndarray, impl: str, ref: str, what: str,
             rtol: Optional[float], atol: Optional[float]) -> float:
    if got.shape != want.shape:
        raise DisagreementError(f"benchmark: {impl!r} differs from {ref!r} in {what}: shape {got.shape}, "
                                f"expected {want.shape}", impl, ref, what)
    drt, dat = default_tolerance(np.result_type(got.dtype, want.dtype))
    rt, at = (drt if rtol is None else rtol), (dat if atol is None else atol)
    if got.size == 0:
        return 0.0
    g = got.astype(np.float64) if got.dtype.kind != "c" else got
    w = want.astype(np.float64) if want.dtype.kind != "c" else want
    with np.errstate(invalid="ignore"):
        diff = np.abs(g - w)
        both_nan = np.isnan(g) & np.isnan(w)
        excess = np.where(both_nan, 0.0, diff - (at + rt * np.abs(w)))
        bad = np.isnan(excess) | (excess > 0)
    if bad.any():
        flat = int(np.argmax(np.where(np.isnan(excess), np.inf, excess)))
        idx = tuple(int(i) for i in np.unravel_index(flat, got.shape))
        raise DisagreementError(
            f"benchmark: {impl!r} differs from {ref!r} in {what} at index {idx}: got {_fmt(got[idx])}, expected "
            f"{_fmt(want[idx])} ({int(bad.sum())} of {got.size} elements differ; rtol={rt:g}, atol={at:g})",
            impl, ref, what, idx)
    finite = diff[~both_nan]
    return float(finite.max()) if finite.size else 0.0


def _gradients(fn: Callable[..., Any], args: Sequence[Any], positions: tuple[int, ...],
               weights: list[np.ndarray]) -> list[np.ndarray]:
    from mskernel.autograd import grad
    from mskernel.common.tensor import Tensor

    def loss(*xs: Any) -> Any:
        outs = fn(*xs)
        outs = outs if isinstance(outs, (tuple, list)) else (outs,)
        total = None
        for o, w in zip(outs, weights):
            if not isinstance(o, Tensor) or o.dtype is None or np.dtype(w.dtype).kind != "f":
                continue
            term = (o * Tensor(w)).sum()
            total = term if total is None else total + term
        return total

    gs = grad(loss, grad_position=positions)(*args)
    return [np.asarray(g.asnumpy()) for g in (gs if isinstance(gs, tuple) else (gs,))]


def check_agreement(impls: dict[str, Callable[..., Any]], args: Sequence[Any], rtol: Optional[float] = None,
                    atol: Optional[float] = None, grads: bool = True) -> Agreement:
    """Check that every implementation matches the first on ``args`` (values, then gradients).

    ``grads=False`` compares values only. Raises :class:`DisagreementError` at the first difference.

    Example:
        >>> import numpy as np
        >>> check_agreement({"np": np.sqrt, "pow": lambda a: a ** 0.5}, (np.arange(4.0),)).values_compared
        ['np', 'pow']
    """
    from mskernel.common.tensor import Tensor

    names = list(impls)
    if not names:
        raise ValueError("benchmark: no implementations to compare")
    ref = names[0]
    outs = {}
    for name in names:
        try:
            outs[name] = impls[name](*args)
        except Exception as exc:
            raise type(exc)(f"benchmark: implementation {name!r} failed on the inputs: {exc}") from exc
    arrays = {n: to_arrays(o) for n, o in outs.items()}
    report = Agreement(ref, names)
    for name in names[1:]:
        if len(arrays[name]) != len(arrays[ref]):
            raise DisagreementError(f"benchmark: {name!r} returns {len(arrays[name])} outputs, {ref!r} returns "
                                    f"{len(arrays[ref])}", name, ref, "outputs")
        report.max_abs_diff[name] = max([_compare(g, w, name, ref, f"output {k}", rtol, atol)
                                         for k, (g, w) in enumerate(zip(arrays[name], arrays[ref]))] or [0.0])
    positions = tuple(i for i, a in enumerate(args)
                      if isinstance(a, Tensor) and np.dtype(a.asnumpy().dtype).kind == "f")
    if not grads or not positions:
        return report
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(a.shape).astype(a.dtype) if a.dtype.kind == "f" else a for a in arrays[ref]]
    ref_grads: Optional[list[np.ndarray]] = None
    for name in names:
        out_items = outs[name] if isinstance(outs[name], (tuple, list)) else (outs[name],)
        if not all(isinstance(o, Tensor) for o in out_items):
            report.values_only[name] = "returns numpy arrays"
            continue
        try:
            g = _gradients(impls[name], args, positions, weights)
        except Exception as exc:  # a backward that cannot run: say so, compare values only
            report.values_only[name] = f"no gradient: {str(exc).splitlines()[0][:240]}"
            continue
        if name == ref:
            ref_grads = g
            report.grads_compared.append(name)
            continue
        if ref_grads is None:
            report.values_only[name] = f"the reference {ref!r} has no gradient to compare with"
            continue
        for pos, gg, wg in zip(positions, g, ref_grads):
            try:
                d = _compare(gg, wg, name, ref, f"gradient of input {pos}", rtol, atol)
            except DisagreementError as exc:  # say how to compare values only (a graph cut by numpy, ...)
                raise DisagreementError(f"{exc} -- grads=False compares values only", name, ref, exc.what,
                                        exc.index) from None
            report.max_abs_diff[name] = max(report.max_abs_diff.get(name, 0.0), d)
        report.grads_compared.append(name)
    return report
