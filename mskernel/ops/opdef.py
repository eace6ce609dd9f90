"""One op, declared once: :class:`Op` — MindSpore's signature, the forward, the backward, the dtype rule.

An entry of the op table (``mskernel/ops/table/*.py``) is one ``Op(...)`` line. From it come the
functional op (``ops.exp``), the primitive class (``ops.Exp()(x)``), the Tensor method (``x.exp()``,
and ``x.exp_()`` where MindSpore has the in-place form) and the compatibility table; see
:mod:`mskernel.ops.registry`, which builds them.

The pieces of an entry:

* ``name`` and ``sig``: the functional name and MindSpore's parameter list, written as Python
  (``"input, axis=None, keep_dims=False"``). The first ``inputs`` parameters are the op's tensor
  inputs; the rest are attributes.
* ``forward(*arrays, **attrs)``: numpy in, numpy out (an array, or a tuple for several outputs).
* ``backward``: a function whose parameter names say what it needs — ``g`` (the output gradient;
  a tuple for several outputs), ``out`` (the outputs), the tensor inputs and attributes by their
  names in ``sig``, ``NAME_shape`` for only an input's shape — returning one gradient per tensor
  input (None where there is none); or a tuple of formulas, one per tensor input, each returning
  that input's gradient (only those of inputs that need one run). It is written with ops, so the
  engine records it and higher-order gradients work. The engine core binds it to each call and
  keeps only what it names (:mod:`mskernel.autograd.rule`).
* ``dtype``: how tensor inputs are coerced — ``"any"`` (Tensors of any dtype), ``"float"`` (floating
  only: MindSpore's TypeError otherwise), ``"to_float"`` (integers become Float32), ``"number"``
  (like ``any``, and Python numbers become Tensors), ``"promote"`` (operands promoted together,
  Python numbers included, as MindSpore's binary ops do), ``"promote_float"`` (promoted, then integers
  become Float32).
* ``prim``: the primitive class: ``"Exp"`` (called with the tensor inputs), or
  ``"ReduceSum(keep_dims=False)(x, axis=()) -> x, axis, keep_dims"``: MindSpore's constructor
  attributes, then its call parameters, then the arguments handed to the functional op.
* ``method``: Tensor method names (``True`` for the functional name) and ``inplace`` for the
  ``name_`` form.
* ``label``: the name errors and the graph use when it is not the primitive's (an entry without a class of
  its own, e.g. ``ops.max``'s kernel is MindSpore's ``ArgMaxWithValue``).
* ``fn``: an implementation written by hand (for the hottest ops, which have a C fast path); the
  entry still declares its signature, primitive and methods. Its ``init_check`` attribute, when set, is called
  with the primitive's constructor arguments as the primitive is built (where MindSpore checks them); the
  common checks (types, ranges, names) are rows of the table :data:`mskernel.ops.init_checks.INIT_CHECKS`
  instead, which every primitive class consults by its name.

Example:
    >>> import numpy as np, mskernel as ms
    >>> op = Op("twice", "input", forward=lambda x: x * 2, backward=lambda g: (g * 2,), dtype="float",
    ...         prim="Twice")
    >>> f = op.functional()
    >>> x = ms.Tensor([1.0, 2.0])
    >>> print(f(x), ms.grad(lambda a: f(a).sum())(x))
    [2. 4.] [2. 2.]
    >>> f(ms.Tensor([1]))
    Traceback (most recent call last):
    ...
    TypeError: For 'Twice', the input argument 'input' must be a type of {Float16, Float32, Float64}, but got Int64.
"""
from __future__ import annotations

import inspect
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.node import STATE, _record_rule
from mskernel.autograd.rule import rule as make_rule
from mskernel.common.tensor import Tensor
from mskernel.ops.codecache import compiled
from mskernel.ops._core import as_tensor, binary_args, broadcast_error, cast_tensor, check_tensor, float_input

__all__ = ["Op", "Front", "apply", "coerce", "F"]


class _Functions:
    """The functional ops by name, filled by :mod:`mskernel.ops.registry` once the table is built; backward
    rules call ops through it (``F.cos(x)``), so a table module needs no import of the registry."""


F: Any = _Functions()

#: names a signature's defaults may use, as MindSpore writes them (``dtype=mindspore.float32``)
SIG_NAMES: Dict[str, Any] = {"mindspore": mstype}

_new = Tensor._wrap


def _to_float(x: Tensor) -> Tensor:
    return cast_tensor(x, mstype.float32) if x._data.dtype.kind in "biu" else x


def coerce(rule: str, op: str, names: Sequence[str], values: Sequence[Any]) -> List[Tensor]:
    """The tensor inputs after the entry's dtype rule (see the module docstring).

    Example:
        >>> import mskernel as ms
        >>> [t.dtype for t in coerce("promote", "Add", ("x", "y"), (ms.Tensor([1], ms.int32), 2.5))]
        [mindspore.float32, mindspore.float32]
    """
    if rule == "promote" or rule == "promote_float":
        if len(values) == 2:
            ts = list(binary_args(values[0], values[1], op))
        else:
            ts = [as_tensor(v, op, n) for n, v in zip(names, values)]
            dt = ts[0].dtype
            for t in ts[1:]:
                dt = mstype.promote(dt, t.dtype)
            ts = [cast_tensor(t, dt) for t in ts]
        return [_to_float(t) for t in ts] if rule == "promote_float" else ts
    if rule == "float":
        return [float_input(v, op, n) for n, v in zip(names, values)]
    if rule == "to_float":
        return [_to_float(check_tensor(v, op, n)) for n, v in zip(names, values)]
    if rule == "number":
        return [as_tensor(v, op, n) for n, v in zip(names, values)]
    return [check_tensor(v, op, n) for n, v in zip(names, values)]


class Op:
    """One table entry (see the module docstring for each argument).

    Example:
        >>> op = Op("neg2", "input", forward=np.negative, backward=lambda g: (-g,), prim="Neg2")
        >>> op.params, op.tensor_names
        (['input'], ['input'])
    """

    def __init__(self, name: str, sig: str, forward: Optional[Callable] = None, backward: Optional[Callable] = None,
                 *, inputs: int = 1, dtype: str = "any", prim: Union[None, str, Tuple[str, ...]] = None,
                 method: Union[bool, str, Tuple[str, ...]] = False, inplace: bool = False,
                 fn: Optional[Callable] = None, aliases: Tuple[str, ...] = (), outputs: int = 1,
                 doc: str = "", note: str = "", label: str = "") -> None:
        self.name = name
        self.sig = sig
        self.forward = forward
        self.backward = backward
        self.n_inputs = inputs
        self.dtype = dtype
        self.prim_spec = prim
        self.prim_name = label or _prim_name(prim) or "".join(p.capitalize() for p in name.split("_"))
        self.methods: Tuple[str, ...] = ((name,) if method is True else (method,) if isinstance(method, str)
                                         else tuple(method) if method else ())
        self.inplace = inplace
        self.fn = fn
        self.aliases = aliases
        self.outputs = outputs
        self.doc = doc
        self.note = note
        params = inspect.signature(eval(f"lambda {sig}: None", SIG_NAMES)).parameters  # noqa: S307 (our table text)
        self.params: List[str] = list(params)
        self.tensor_names: List[str] = self.params[:inputs]
        self.attr_names: List[str] = self.params[inputs:]
        # the engine's rule: what the backward reads, by its parameter names (mskernel.autograd.rule)
        self.rule = make_rule(self.prim_name, self.tensor_names, backward, self.attr_names, outputs != 1) \
            if backward is not None else None
        fns = () if backward is None else (backward,) if callable(backward) else [f for f in backward if f]
        self._rule_reads = {p for f in fns for p in inspect.signature(f).parameters}
        self._functional: Optional[Callable] = None

    # -- the functional op -------------------------------------------------------------------------
    def functional(self) -> Callable:
        """The functional op (built once): MindSpore's signature, calling :func:`apply` or ``fn``.

        Example:
            >>> import mskernel as ms
            >>> Op("half", "input", forward=lambda x: x / 2, dtype="float").functional()(ms.Tensor([3.0]))
            Tensor(shape=[1], dtype=Float32, value= [ 1.50000000e+00])
        """
        if self._functional is not None:
            return self._functional
        if self.fn is not None:
            f = self.fn
        else:
            src = self._fast_source() if self.outputs == 1 and self.tensor_names else None
            if src is None:
                tensors = ", ".join(self.tensor_names) + ("," if self.tensor_names else "")
                attrs = ", ".join(f"{a!r}: {a}" for a in self.attr_names)
                src = f"def {self.name}({self.sig}):\n    return _apply(_op, ({tensors}), {{{attrs}}})\n"
            scope: Dict[str, Any] = {**SIG_NAMES, "_apply": apply, "_op": self, "_Tensor": Tensor, "_nd": np.ndarray,
                                     "_asarray": np.asarray, "_new": _new, "_coerce": coerce, "_STATE": STATE,
                                     "_record_rule": _record_rule, "_rule": self.rule, "_fwd": self.forward,
                                     "_berr": broadcast_error}
            exec(compiled(src, f"<op table: {self.name}>"), scope)  # noqa: S102 (our own table text)
            f = scope[self.name]
            f.__module__ = "mskernel.ops.functional"
            f.__qualname__ = self.name
        if not f.__doc__:
            f.__doc__ = self.doc or f"MindSpore's ``ops.{self.name}({self.sig})``."
        self._functional = f
        return f

    def _fast_source(self) -> str:
        """The functional op as straight-line code for one output: the dtype rule's common case inline (the
        rest goes through :func:`coerce`), the forward, and one recorded node whose backward reads only what
        the rule names. Same behaviour as :func:`apply`, at the cost of a hand-written op."""
        ts = self.tensor_names
        slow = {"any": "", "number": "", "float": ' or {t}._data.dtype.kind not in "fc"',
                "to_float": ' or {t}._data.dtype.kind not in "fc"', "promote": "",
                "promote_float": ' or {t}._data.dtype.kind not in "fc"'}[self.dtype]
        cond = " or ".join(f"{t}.__class__ is not _Tensor" + slow.format(t=t) for t in ts)
        if self.dtype.startswith("promote") and len(ts) > 1:
            cond += "".join(f" or {t}._data.dtype is not {ts[0]}._data.dtype" for t in ts[1:])
        names = ", ".join(repr(t) for t in ts)
        lines = [f"def {self.name}({self.sig}):",
                 f"    if {cond}:",
                 f"        {', '.join(ts)}, = _coerce({self.dtype!r}, {self.prim_name!r}, ({names},), "
                 f"({', '.join(ts)},))"]
        call = ", ".join([f"{t}._data" for t in ts] + [f"{a}={a}" for a in self.attr_names])
        if len(ts) > 1:
            lines += ["    try:", f"        _r = _fwd({call})", "    except ValueError as _e:",
                      "        if 'broadcast' in str(_e):",
                      f"            raise _berr({self.prim_name!r}, {ts[0]}, {ts[1]}) from None", "        raise"]
        else:
            lines.append(f"    _r = _fwd({call})")
        lines.append("    _o = _new(_r if _r.__class__ is _nd else _asarray(_r))")
        if self.rule is not None:
            any_rg = " or ".join(f"{t}._rg" for t in ts)
            attrs = f"({''.join(f'{a}, ' for a in self.attr_names)})" if self._rule_reads & set(self.attr_names) \
                else "None"
            lines += [f"    if _STATE.enabled and ({any_rg}):",
                      f"        _record_rule(_rule, ({', '.join(ts)},), _o, {attrs})"]
        lines.append("    return _o")
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"Op({self.name}({self.sig}))"


class Front:
    """Another front end of the op table: a name under another namespace's signature (``mint.sum(input, dim=None,
    keepdim=False, *, dtype=None)``) whose body is one call of the table's functional ops (``call``, an expression
    over the parameters; by default the op of the same name called with the parameters as they are). The rule
    stays the table entry's: the front end only renames and reorders arguments and fills defaults, so
    gradients, dtypes and errors come from the entry. :func:`mskernel.ops.registry.front_ends` builds them.

    Example:
        >>> f = Front("std", "input, dim=None, *, correction=1, keepdim=False",
        ...           "std(input, dim, ddof=correction, keepdims=keepdim)")
        >>> f.call, Front("abs", "input").call, Front("cat", "tensors, dim=0", "concat(tensors, dim)").params
        ('std(input, dim, ddof=correction, keepdims=keepdim)', 'abs(input)', ['tensors', 'dim'])
    """

    def __init__(self, name: str, sig: str, call: Optional[str] = None, *, doc: str = "") -> None:
        self.name = name
        self.sig = sig
        params = inspect.signature(eval(f"lambda {sig}: None", SIG_NAMES)).parameters  # noqa: S307 (our table text)
        self.params: List[str] = list(params)
        if call is None:
            args = []
            for p in params.values():
                prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
                args.append(f"{p.name}={p.name}" if p.kind == p.KEYWORD_ONLY else prefix + p.name)
            call = f"{name}({', '.join(args)})"
        self.call = call
        self.doc = doc

    def __repr__(self) -> str:
        return f"Front({self.name}({self.sig}) -> {self.call})"


def _prim_name(spec: Union[None, str, Tuple[str, ...]]) -> Optional[str]:
    if isinstance(spec, tuple):
        spec = spec[0]
    return re.match(r"\s*(\w+)", spec).group(1) if spec else None


def apply(op: Op, values: Tuple[Any, ...], attrs: Dict[str, Any]) -> Any:
    """Run a table op: coerce the tensor inputs, call the forward on their arrays, record the backward.

    Example:
        >>> import mskernel as ms
        >>> op = Op("sq", "input", forward=np.square, backward=lambda g, input: (g * 2 * input,), dtype="float")
        >>> x = ms.Tensor([3.0])
        >>> print(ms.grad(lambda a: apply(op, (a,), {}).sum())(x))
        [6.]
    """
    name = op.prim_name
    ins = coerce(op.dtype, name, op.tensor_names, values)
    try:
        res = op.forward(*[t._data for t in ins], **attrs)
    except ValueError as e:
        if len(ins) == 2 and "broadcast" in str(e):
            raise broadcast_error(name, ins[0], ins[1]) from None
        raise
    if op.outputs == 1:
        outs: Tuple[Tensor, ...] = (_new(res if res.__class__ is np.ndarray else np.asarray(res)),)
    else:
        outs = tuple(_new(r if r.__class__ is np.ndarray else np.asarray(r)) for r in res)
    if op.rule is not None and STATE.enabled:
        for t in ins:
            if t._rg:
                _record_rule(op.rule, tuple(ins), outs[0] if op.outputs == 1 else outs,
                             tuple(attrs[a] for a in op.attr_names))
                break
    return outs[0] if op.outputs == 1 else outs
