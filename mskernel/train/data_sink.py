"""``data_sink(fn, dataset, sink_size=1)``: a step function that takes its inputs from ``dataset`` itself.

Each call of the returned function runs ``fn(*data)`` ``sink_size`` times, ``data`` the next row of ``dataset``
(from the start again when it runs out), and returns the last output. MindSpore feeds the rows through a device
queue and, like its CPU wheel, refuses with device target CPU (``ValueError``: "Data sinking supports ascend or gpu
device target"); with device target ``"Ascend"`` or ``"GPU"`` (which mskernel accepts and runs on the CPU) the rows
are read in this process.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.array([[1.0], [2.0], [3.0]], np.float32)}, shuffle=False)
    >>> data_sink(lambda x: x * 10, data)()
    Traceback (most recent call last):
    ...
    ValueError: Data sinking supports ascend or gpu device target, but device target is CPU.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterator, Optional

from mskernel.context import get_context

__all__ = ["data_sink"]


class _Rows:
    """The rows of a dataset, one tuple per ``next``, starting again after the last."""

    def __init__(self, dataset: Any) -> None:
        self.dataset = dataset
        self._it: Optional[Iterator[Any]] = None

    def next(self) -> Any:
        for _ in range(2):
            if self._it is None:
                self._it = iter(self.dataset.create_tuple_iterator(num_epochs=1))
            try:
                return next(self._it)
            except StopIteration:
                self._it = None
        raise ValueError("For 'data_sink', the dataset has no rows.")


def data_sink(fn: Callable, dataset: Any, sink_size: int = 1, jit_config: Any = None,
              input_signature: Any = None) -> Callable:
    """A function that runs ``fn`` on the next ``sink_size`` rows of ``dataset`` and returns its last output.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> from mskernel import dataset as ds
        >>> ms.set_context(device_target="GPU")
        >>> data = ds.NumpySlicesDataset({"x": np.array([[1.0], [2.0]], np.float32)}, shuffle=False)
        >>> step = data_sink(lambda x: x * 10, data)
        >>> print(step(), step(), step())
        [10.] [20.] [10.]
        >>> ms.set_context(device_target="CPU")
    """
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    target = get_context("device_target")
    if target not in ("Ascend", "GPU"):
        raise ValueError(f"Data sinking supports ascend or gpu device target, but device target is {target}.")
    loop = sink_size if jit_config is not None else 1
    rows = _Rows(dataset)

    @functools.wraps(fn)
    def sink_process(*args: Any, **kwargs: Any) -> Any:
        out = None
        for _ in range(loop):
            out = fn(*rows.next())
        return out
    return sink_process
