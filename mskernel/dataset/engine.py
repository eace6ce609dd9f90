"""The dataset pipeline: sources yield rows (tuples of numpy arrays, one per column); each op wraps its parent.

Everything runs in memory, in one process, lazily: a pipeline is a chain of :class:`Dataset` objects,
and each epoch of an iterator walks the chain again. ``num_parallel_workers`` and
``python_multiprocessing`` are accepted and run in this process.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> d = ds.NumpySlicesDataset({"x": np.arange(5), "y": np.arange(5) * 2}, shuffle=False)
    >>> b = d.map(lambda v: v + 1, input_columns=["x"]).batch(2)
    >>> [row["x"].tolist() for row in b.create_dict_iterator(output_numpy=True)], b.get_dataset_size()
    ([[1, 2], [3, 4], [5]], 3)
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["Dataset", "TupleIterator", "DictIterator"]

Row = Tuple[np.ndarray, ...]


def _as_list(cols: Any) -> Optional[List[str]]:
    if cols is None:
        return None
    return [cols] if isinstance(cols, str) else list(cols)


# The pipeline steps (batch, shuffle, map, ...) are Datasets themselves, defined in mskernel.dataset.ops
# on top of this module; that module fills this table when it loads (mskernel.dataset imports it), so
# the builder methods below reach them without importing upward.
PIPELINE: "dict[str, type]" = {}


class Dataset:
    """Base of every dataset: the pipeline ops and the iterators (MindSpore's ``Dataset`` methods).

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset(np.arange(4), shuffle=False).skip(1).take(2).get_dataset_size()
        2
    """

    def __init__(self, column_names: List[str], children: Sequence["Dataset"] = ()) -> None:
        self._columns = list(column_names)
        self.children = list(children)

    # -- what subclasses provide ---------------------------------------------------------------------
    def _rows(self) -> Iterator[Row]:
        raise NotImplementedError

    # -- metadata -----------------------------------------------------------------------------------
    def get_col_names(self) -> List[str]:
        """The column names, in order."""
        return list(self._columns)

    def get_dataset_size(self) -> int:
        """The number of rows (batches after ``batch``) of one epoch."""
        return sum(1 for _ in self._rows())

    def get_batch_size(self) -> int:
        """The batch size (1 before ``batch``)."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self) -> int:
        """How many times ``repeat`` repeats the data (1 without it)."""
        return self.children[0].get_repeat_count() if self.children else 1

    def _first(self) -> Row:
        for row in self._rows():
            return row
        raise RuntimeError("The dataset is empty: it has no rows to describe.")

    def output_shapes(self, estimate: bool = False) -> List[List[int]]:
        """The shape of each column in the first row."""
        return [list(np.shape(c)) for c in self._first()]

    def output_types(self) -> List[np.dtype]:
        """The numpy dtype of each column in the first row."""
        return [np.asarray(c).dtype for c in self._first()]

    def __len__(self) -> int:
        return self.get_dataset_size()

    # -- pipeline ops ------------------------------------------------------------------------------
    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: Optional[int] = None,
              per_batch_map: Optional[Callable] = None, input_columns: Any = None, output_columns: Any = None,
              **kwargs: Any) -> "Dataset":
        """Stack ``batch_size`` rows into one (the last smaller unless ``drop_remainder``)."""
        return PIPELINE["batch"](self, batch_size, drop_remainder, per_batch_map, _as_list(input_columns),
                            _as_list(output_columns))

    def shuffle(self, buffer_size: int) -> "Dataset":
        """Shuffle through a buffer of ``buffer_size`` rows (seeded by ``dataset.config.set_seed``)."""
        return PIPELINE["shuffle"](self, buffer_size)

    def map(self, operations: Any = None, input_columns: Any = None, output_columns: Any = None,
            num_parallel_workers: Optional[int] = None, python_multiprocessing: bool = False, **kwargs: Any
            ) -> "Dataset":
        """Apply ``operations`` (a callable or a list, applied in order) to ``input_columns``."""
        return PIPELINE["map"](self, operations, _as_list(input_columns), _as_list(output_columns))

    def repeat(self, count: Optional[int] = None) -> "Dataset":
        """The data ``count`` times over (``None`` or -1: forever)."""
        return PIPELINE["repeat"](self, count)

    def take(self, count: int = -1) -> "Dataset":
        """The first ``count`` rows."""
        return PIPELINE["take"](self, count)

    def skip(self, count: int) -> "Dataset":
        """All but the first ``count`` rows."""
        return PIPELINE["skip"](self, count)

    def project(self, columns: Any) -> "Dataset":
        """Keep only ``columns``, in that order."""
        return PIPELINE["project"](self, _as_list(columns))

    def rename(self, input_columns: Any, output_columns: Any) -> "Dataset":
        """Rename columns."""
        return PIPELINE["rename"](self, _as_list(input_columns), _as_list(output_columns))

    def zip(self, datasets: Any) -> "Dataset":
        """Rows side by side with those of ``datasets`` (as long as the shortest)."""
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return PIPELINE["zip"]([self, *others])

    def concat(self, datasets: Any) -> "Dataset":
        """This dataset's rows, then those of ``datasets``."""
        others = list(datasets) if isinstance(datasets, (tuple, list)) else [datasets]
        return PIPELINE["concat"]([self, *others])

    def __add__(self, other: "Dataset") -> "Dataset":
        return self.concat(other)

    # -- iterators ---------------------------------------------------------------------------------
    def create_tuple_iterator(self, columns: Any = None, num_epochs: int = -1, output_numpy: bool = False,
                              do_copy: bool = True) -> "TupleIterator":
        """Rows as lists (Tensors, or numpy arrays with ``output_numpy``); ``num_epochs`` epochs."""
        return TupleIterator(self, _as_list(columns), num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False, do_copy: bool = True
                             ) -> "DictIterator":
        """Rows as dicts column name -> value."""
        return DictIterator(self, None, num_epochs, output_numpy)

    def __iter__(self) -> "TupleIterator":
        return self.create_tuple_iterator(num_epochs=1)

    def _col_index(self, names: List[str], op: str) -> List[int]:
        out = []
        for n in names:
            if n not in self._columns:
                raise ValueError(f"For '{op}', column '{n}' does not exist in the dataset; its columns are "
                                 f"{self._columns}.")
            out.append(self._columns.index(n))
        return out


class TupleIterator:
    """An iterator over the epochs of a dataset; each epoch ends with ``StopIteration`` and the next starts
    when iterated again (MindSpore's ``num_epochs`` behaviour).

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> it = ds.NumpySlicesDataset(np.arange(3), shuffle=False).create_tuple_iterator(num_epochs=2)
        >>> len(list(it)), len(list(it)), len(list(it))
        (3, 3, 0)
    """

    def __init__(self, dataset: Dataset, columns: Optional[List[str]], num_epochs: int, output_numpy: bool) -> None:
        self._ds = dataset
        self._index = dataset._col_index(columns, "create_tuple_iterator") if columns else None
        self._epochs_left = -1 if num_epochs in (None, -1) else int(num_epochs)
        self._numpy = output_numpy
        self._current: Optional[Iterator[Row]] = None

    def __iter__(self) -> "TupleIterator":
        return self

    def _convert(self, row: Row) -> Any:
        if self._index is not None:
            row = tuple(row[i] for i in self._index)
        if self._numpy:
            return [np.asarray(c) for c in row]
        return [Tensor(np.asarray(c)) for c in row]

    def __next__(self) -> Any:
        if self._current is None:
            if self._epochs_left == 0:
                raise StopIteration
            self._current = iter(self._ds._rows())
        try:
            return self._convert(next(self._current))
        except StopIteration:
            self._current = None
            if self._epochs_left > 0:
                self._epochs_left -= 1
            raise

    def stop(self) -> None:
        """End iteration early."""
        self._epochs_left, self._current = 0, None


class DictIterator(TupleIterator):
    """Like :class:`TupleIterator`, with rows as dicts keyed by column name.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> next(ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False).create_dict_iterator(output_numpy=True))
        {'a': array(1)}
    """

    def _convert(self, row: Row) -> Dict[str, Any]:
        values = super()._convert(row)
        return dict(zip(self._ds.get_col_names(), values))
