"""``DatasetHelper``: a dataset as the training loop reads it, one tuple of Tensors per step. With
``dataset_sink_mode`` MindSpore hands the data to the device in chunks of ``sink_size`` steps; mskernel has no
device queue, so it refuses sink mode with the CPU wheel's own reason and reads the dataset step by step.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.arange(4)}).batch(2)
    >>> [tuple(t.shape for t in step) for step in DatasetHelper(data, dataset_sink_mode=False)]
    [((2, 2), (2,)), ((2, 2), (2,))]
"""
from __future__ import annotations

from typing import Any, Iterator, List, Tuple

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


class DatasetHelper:
    """Iterate ``dataset`` as the training loop does: each step a list of Tensors, for ``epoch_num`` epochs.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> DatasetHelper(ds.NumpySlicesDataset({"x": np.ones((2, 1))}), dataset_sink_mode=True)
        Traceback (most recent call last):
        ...
        RuntimeError: Unsupported op [InitDataSetQueue] on CPU: data sinking sends the dataset to a device queue, ...
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1, epoch_num: int = 1) -> None:
        if dataset_sink_mode:
            raise RuntimeError("Unsupported op [InitDataSetQueue] on CPU: data sinking sends the dataset to a device "
                               "queue, which mskernel (one CPU process) does not have; use dataset_sink_mode=False")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int) or sink_size < -1 or sink_size == 0:
            raise ValueError(f"For 'DatasetHelper', 'sink_size' must be -1 or a positive int, but got {sink_size!r}")
        self.dataset, self._sink_size, self.epoch_num = dataset, sink_size, epoch_num
        self._iter = dataset.create_tuple_iterator(num_epochs=epoch_num)

    def __iter__(self) -> Iterator[List[Any]]:
        return iter(self._iter)

    def sink_size(self) -> int:
        """Steps per sink: the dataset's size when ``sink_size`` is -1."""
        return self.dataset.get_dataset_size() if self._sink_size == -1 else self._sink_size

    def types_shapes(self) -> Tuple[List[Any], List[Tuple[int, ...]]]:
        """The dtypes and shapes of one step's columns."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def stop_send(self) -> None:
        """Stop sending data to the device (there is no device queue)."""

    def continue_send(self) -> None:
        """Continue sending data to the device (there is no device queue)."""

    def release(self) -> None:
        """Free the device queue (there is none)."""


def connect_network_with_dataset(network: Any, dataset_helper: DatasetHelper) -> Any:
    """The network fed by ``dataset_helper``'s device queue in sink mode. A ``DatasetHelper`` here reads the data
    step by step (mskernel has no device queue), so this raises MindSpore's error for a helper not in sink mode.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds, nn
        >>> helper = DatasetHelper(ds.NumpySlicesDataset({"x": np.ones((2, 1))}), dataset_sink_mode=False)
        >>> connect_network_with_dataset(nn.Dense(1, 1), helper)
        Traceback (most recent call last):
        ...
        RuntimeError: The API 'connect_network_with_dataset' should be called in dataset sink mode.
    """
    raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode.")
