"""``mindspore._extends``: the few internal names real MindSpore files import from it.

``cell_attr_register`` decorates a Cell's ``__init__`` and records its arguments as the text
``cell_init_args`` (MindSpore uses it to tell cells apart when compiling graphs; here it is kept for
code that reads it). :mod:`mskernel._extends.parse.compile_config` takes MindSpore's graph-compiler
switches and ignores them: mskernel runs every program eagerly.

Example:
    >>> import mskernel as ms
    >>> class Scale(ms.nn.Cell):
    ...     @cell_attr_register
    ...     def __init__(self, k, bias=0.0):
    ...         super().__init__()
    ...         self.k = k
    >>> Scale(2).cell_init_args
    'Scaledict_values([2])'
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Optional, Union

__all__ = ["cell_attr_register"]


def cell_attr_register(fn: Optional[Callable] = None, attrs: Union[None, str, list] = None) -> Callable:
    """Record a Cell ``__init__``'s arguments (or the named attributes) in ``self.cell_init_args``.

    Example:
        >>> class A:
        ...     @cell_attr_register(attrs=["n"])
        ...     def __init__(self, n):
        ...         self.n = n
        >>> A(3).cell_init_args
        'A[3]'
    """
    if attrs is not None and not isinstance(attrs, (list, str)):
        raise ValueError("attrs must be list or string")

    def wrap(init: Callable) -> Callable:
        @functools.wraps(init)
        def deco(self: Any, *args: Any, **kwargs: Any) -> None:
            values: Any = []
            if attrs is None:  # MindSpore writes the bound arguments' dict view, defaults left out
                bound = dict(inspect.signature(init).bind(self, *args, **kwargs).arguments)
                del bound["self"]
                values = bound.values()
            init(self, *args, **kwargs)
            if isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, item):
                        values.append(getattr(self, item))
            elif isinstance(attrs, str):
                values = getattr(self, attrs, [])
            object.__setattr__(self, "cell_init_args", type(self).__name__ + str(values))
        return deco
    return wrap(fn) if fn is not None else wrap
