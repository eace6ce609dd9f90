"""MindSpore's argument signatures of primitives (``mindspore.ops.signature``): how each input of a primitive is
read or written (``sig_rw``), its Python kind (``sig_kind``) and its dtype group for implicit casts
(``sig_dtype``), made with :func:`make_sig` and listed in a primitive's ``__mindspore_signature__``.

mskernel's ops cast their inputs themselves, so a signature is a record a primitive carries: what it says is
kept and shown, and nothing reads it to convert arguments.

Example:
    >>> from mskernel.ops import signature as sig
    >>> s = sig.make_sig('x', sig.sig_rw.RW_WRITE, dtype=sig.sig_dtype.T)
    >>> s.name, s.rw, s.dtype
    ('x', signature_rw.RW_WRITE, signature_dtype.T)
"""
from __future__ import annotations

import enum
from typing import Any

__all__ = ["Signature", "make_sig", "sig_dtype", "sig_kind", "sig_rw"]


class _Named(enum.Enum):
    def __repr__(self) -> str:
        return f"{self._prefix()}.{self.name}"

    __str__ = __repr__

    @classmethod
    def _prefix(cls) -> str:
        return ""


class sig_rw(_Named):  # noqa: N801 (MindSpore's name)
    """Whether a primitive reads an argument or writes it in place."""
    RW_READ = 0
    RW_WRITE = 1
    RW_REF = 2
    RW_EMPTY_DEFAULT_VALUE = 3

    @classmethod
    def _prefix(cls) -> str:
        return "signature_rw"


class sig_kind(_Named):  # noqa: N801
    """The Python kind of an argument (positional or keyword, ``*args``, keyword-only, ``**kwargs``)."""
    KIND_POSITIONAL_KEYWORD = 0
    KIND_VAR_POSITIONAL = 1
    KIND_KEYWORD_ONLY = 2
    KIND_VAR_KEYWARD = 3
    KIND_EMPTY_DEFAULT_VALUE = 4

    @classmethod
    def _prefix(cls) -> str:
        return "signature_kind"


class sig_dtype(_Named):  # noqa: N801
    """The dtype group of an argument: arguments of one group are cast to a common dtype."""
    T = 0
    T1 = 1
    T2 = 2
    T3 = 3
    T4 = 4
    T5 = 5
    T6 = 6
    T7 = 7
    T8 = 8
    T9 = 9
    T_EMPTY_DEFAULT_VALUE = 10

    @classmethod
    def _prefix(cls) -> str:
        return "signature_dtype"


class Signature:
    """One argument's signature: its name, how it is read or written, its kind, its default and dtype group.

    Example:
        >>> Signature('x', sig_rw.RW_READ, sig_kind.KIND_POSITIONAL_KEYWORD, 1, sig_dtype.T).default
        1
    """

    def __init__(self, name: str, rw: sig_rw, kind: sig_kind, default: Any, dtype: sig_dtype) -> None:
        self.name, self.rw, self.kind, self.default, self.dtype = name, rw, kind, default, dtype

    def __repr__(self) -> str:
        return f"Signature(name={self.name!r}, rw={self.rw}, kind={self.kind}, dtype={self.dtype})"


def make_sig(name: str = "var", rw: sig_rw = sig_rw.RW_READ, kind: sig_kind = sig_kind.KIND_POSITIONAL_KEYWORD,
             default: Any = sig_kind.KIND_EMPTY_DEFAULT_VALUE,
             dtype: sig_dtype = sig_dtype.T_EMPTY_DEFAULT_VALUE) -> Signature:
    """The signature of one argument of a primitive (see the module docstring).

    Example:
        >>> make_sig('y').rw
        signature_rw.RW_READ
    """
    for what, value, kind_of in (("rw", rw, sig_rw), ("kind", kind, sig_kind), ("dtype", dtype, sig_dtype)):
        if not isinstance(value, kind_of):
            raise TypeError(f"For 'make_sig', '{what}' must be a {kind_of.__name__}, but got {value!r}.")
    return Signature(name, rw, kind, default, dtype)
