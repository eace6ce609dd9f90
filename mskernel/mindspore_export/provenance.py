"""Where an exported op came from, and which signature it is exported for.

:func:`origin` names the source of an op for the exported file's docstring: the ``%%custom_op`` cell
(its name and cell key) when a cell bound it, else the function's file and line and a hash of its
text. :func:`choose_signature` picks the one call signature a hybrid export is specialised to (the
derived backward depends on the dtypes and ranks): ``example=`` when given, else the only signature
the op was called with, else the cell's ``--example``; several or none is an :class:`ExportError`
asking for ``example=``.

Example:
    >>> choose_signature("f", None, [(("float32",), (1,), ())], None)
    (('float32',), (1,), ())
    >>> try:
    ...     choose_signature("f", None, [], None)
    ... except ExportError as e:
    ...     print(e.construct)
    an op never called
"""
from __future__ import annotations

import hashlib
import inspect
import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from mskernel._version import __version__
from mskernel.cells.result import CellResult
from mskernel.mindspore_export.refusals import ExportError

__all__ = ["Origin", "Signature", "choose_signature", "example_signature", "origin"]

#: (tensor dtype names, tensor ranks, attribute values)
Signature = tuple[tuple[str, ...], tuple[int, ...], tuple[Any, ...]]


@dataclass(frozen=True)
class Origin:
    """The facts a docstring states: ``what`` (one line), ``source_hash`` and the mskernel version."""

    what: str
    source_hash: str
    version: str = __version__

    def lines(self) -> list[str]:
        """The provenance lines of an exported file's docstring.

        Example:
            >>> Origin("%%custom_op f", "ab" * 8).lines()[0]
            'Exported from: %%custom_op f'
        """
        return [f"Exported from: {self.what}", f"Source hash: {self.source_hash}", f"mskernel version: {self.version}"]


def origin(result: Optional[CellResult], func: Any = None, text: str = "") -> Origin:
    """The origin of an op bound by ``result`` (a cell), else of ``func`` (its text ``text``).

    Example:
        >>> def f(x):
        ...     return x
        >>> origin(None, f, "def f(x): ...").what
        'the function f (<doctest mskernel.mindspore_export.provenance.origin[0]>:1)'
    """
    if result is not None:
        return Origin(f"the %%custom_op {result.name} cell ({result.lang})", f"cell key {result.key[:16]}")
    name = getattr(func, "__name__", repr(func))
    code = getattr(inspect.unwrap(func), "__code__", None)
    where = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}" if code is not None else "no source file"
    return Origin(f"the function {name} ({where})", f"sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")


def example_signature(example: Any) -> Signature:
    """The signature of example call arguments: leading Tensors/arrays, then attributes.

    Example:
        >>> import numpy as np
        >>> example_signature((np.zeros((2, 3), np.float32), 2.0))
        (('float32',), (2,), (2.0,))
    """
    import numpy as np

    args = example if isinstance(example, (tuple, list)) else (example,)
    arrays, attrs = [], []
    for a in args:
        if hasattr(a, "asnumpy") or isinstance(a, np.ndarray):
            if attrs:
                raise TypeError(f"example: tensors come first, then attributes; got a tensor after {attrs[-1]!r}")
            arrays.append(a.asnumpy() if hasattr(a, "asnumpy") else a)
        else:
            attrs.append(a)
    return (tuple(a.dtype.name for a in arrays), tuple(a.ndim for a in arrays), tuple(attrs))


def _show(sig: Signature) -> str:
    dtypes, ranks, attrs = sig
    text = ", ".join(f"{d} rank {r}" for d, r in zip(dtypes, ranks))
    return text + (f"; attributes {', '.join(map(repr, attrs))}" if attrs else "")


def choose_signature(op: str, example: Any, used: Sequence[Signature], cell_example: Any) -> Signature:
    """The signature to export for: ``example`` (call arguments), the only ``used`` one, or the cell's example."""
    if example is not None:
        return example_signature(example)
    if len(used) == 1:
        return used[0]
    if len(used) > 1:
        raise ExportError(op, "an op called with several signatures",
                          "the derived backward and the registration are made for one signature (dtypes, ranks and "
                          "attribute values), and it was called with " + "; ".join(f"({_show(s)})" for s in used),
                          "pass example=(inputs...) like a call, e.g. export_mindspore(op, path, example=(x, y))")
    if cell_example is not None:
        return example_signature(cell_example)
    raise ExportError(op, "an op never called", "the export is specialised to the dtypes and ranks of its inputs, and "
                      "there are none to go by", "call the op once, or pass example=(inputs...) like a call")
