"""``no_init_parameters()``: a context in which ``Parameter.init_param`` is False.

MindSpore uses the flag to skip initializing the parameters a network builds, to fill them from a checkpoint
later. mskernel's parameters are never lazy (their data is made when they are), so the flag only says what
MindSpore code reads back: False inside the context, True again after it (also when it raises).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> with nn.no_init_parameters():
    ...     inside = ms.Parameter.init_param
    >>> inside, ms.Parameter.init_param
    (False, True)
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from mskernel.common.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextmanager
def no_init_parameters() -> Iterator[None]:
    """Set ``Parameter.init_param`` to False for the body of the ``with`` block.

    Example:
        >>> from mskernel.common.parameter import Parameter
        >>> with no_init_parameters():
        ...     print(Parameter.init_param)
        False
    """
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = True
