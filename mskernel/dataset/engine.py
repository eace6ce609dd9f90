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

__all__ = ["Dataset", "TupleIterator", "DictIterator", "to_column", "output_value"]

Row = Tuple[Any, ...]  # one value per column: a numpy array, or a Python dict (a "Python object" column)


def to_column(value: Any, position: Optional[int] = None) -> Any:
    """One value of a row as the pipeline holds it (MindSpore's conversion of what a source or ``map`` returns):
    a dict stays a Python dict, a Tensor becomes its array, anything else ``np.asarray`` (strings give ``<U``
    arrays, bytes ``S`` arrays, Python ints int64, floats float64); a value numpy can only hold as ``object``
    (a ragged list gives numpy's own error) is refused with MindSpore's ``TypeError``. ``position`` (1-based)
    names the item of a multi-column row in the message.

    Example:
        >>> to_column("abc"), to_column([1, 2]).dtype, to_column({"k": 1})
        (array('abc', dtype='<U3'), dtype('int64'), {'k': 1})
        >>> to_column(object(), 1)
        Traceback (most recent call last):
        ...
        TypeError: Data type of 1th item of the input or its converted Numpy array is expected to be int or ...
    """
    if isinstance(value, dict):
        return value
    if isinstance(value, Tensor):
        return value.asnumpy()
    item = np.asarray(value)
    if item.dtype == object:
        which = "the input" if position is None else f"{position}th item of the input"
        raise TypeError(f"Data type of {which} or its converted Numpy array is expected to be int or float or str, "
                        f"but got object.")
    return item


def output_value(value: Any, numpy: bool) -> Any:
    """What an iterator hands out for one column value: with ``output_numpy`` the array; else a Tensor, except
    that strings and bytes stay numpy arrays (MindSpore has no string Tensor on this path). A dict column comes
    out as a dict whose leaves are converted the same way (lists element by element, nested dicts too).

    Example:
        >>> output_value({"a": [1, 2], "b": "s"}, numpy=True)
        {'a': [array(1), array(2)], 'b': array('s', dtype='<U1')}
        >>> output_value(np.array("s"), numpy=False)
        array('s', dtype='<U1')
    """
    if isinstance(value, dict):
        return {k: output_value(v, numpy) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not isinstance(value, np.ndarray):
        return type(value)(output_value(v, numpy) for v in value)
    arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    if numpy or arr.dtype.kind in "USO":
        return arr
    return Tensor(arr)


def _column_type(value: Any) -> np.dtype:
    """A column's dtype as ``output_types`` reports it: strings ``<U``, bytes ``S``, dicts ``object``."""
    if isinstance(value, dict):
        return np.dtype("O")
    dt = np.asarray(value).dtype
    return np.dtype(dt.kind) if dt.kind in "US" else dt


def _as_list(cols: Any) -> Optional[List[str]]:
    if cols is None:
        return None
    return [cols] if isinstance(cols, str) else list(cols)


def _check_workers(num: Optional[int]) -> None:
    """MindSpore's bound on ``num_parallel_workers``: 1 to this machine's CPU count (accepted, then unused)."""
    if num is None:
        return
    import os
    cpus = os.cpu_count() or 1
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"Argument num_parallel_workers with value {num} is not of type [<class 'int'>], but got "
                        f"{type(num)}.")
    if not 1 <= num <= cpus:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {cpus}!")


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
        """The shape of each column in the first row (a dict column reports ``[0]``, as MindSpore's does)."""
        return [[0] if isinstance(c, dict) else list(np.shape(c)) for c in self._first()]

    def output_types(self) -> List[np.dtype]:
        """The numpy dtype of each column in the first row (``<U`` for strings, ``S`` for bytes, ``object`` for
        dicts, without a length, as MindSpore reports them)."""
        return [_column_type(c) for c in self._first()]

    def __len__(self) -> int:
        return self.get_dataset_size()

    # -- pipeline ops ------------------------------------------------------------------------------
    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: Optional[int] = None,
              per_batch_map: Optional[Callable] = None, input_columns: Any = None, output_columns: Any = None,
              **kwargs: Any) -> "Dataset":
        """Stack ``batch_size`` rows into one (the last smaller unless ``drop_remainder``)."""
        out = PIPELINE["batch"](self, batch_size, drop_remainder, per_batch_map, _as_list(input_columns),
                                _as_list(output_columns))
        out.num_parallel_workers = num_parallel_workers
        return out

    def shuffle(self, buffer_size: int) -> "Dataset":
        """Shuffle through a buffer of ``buffer_size`` rows (seeded by ``dataset.config.set_seed``)."""
        return PIPELINE["shuffle"](self, buffer_size)

    def map(self, operations: Any = None, input_columns: Any = None, output_columns: Any = None,
            num_parallel_workers: Optional[int] = None, python_multiprocessing: bool = False, **kwargs: Any
            ) -> "Dataset":
        """Apply ``operations`` (a callable or a list, applied in order) to ``input_columns``; ``callbacks``
        (``DSCallback`` objects) are called as the rows pass."""
        out = PIPELINE["map"](self, operations, _as_list(input_columns), _as_list(output_columns),
                              kwargs.get("callbacks"))
        out.num_parallel_workers = num_parallel_workers
        return out

    def filter(self, predicate: Callable[..., Any], input_columns: Any = None,
               num_parallel_workers: Optional[int] = None) -> "Dataset":
        """Keep the rows for which ``predicate(*values of input_columns)`` is true (all columns by default).

        Example:
            >>> import numpy as np
            >>> from mskernel import dataset as ds
            >>> d = ds.NumpySlicesDataset({"v": np.arange(5)}, shuffle=False).filter(lambda v: v % 2 == 0)
            >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()
            ([0, 2, 4], 3)
        """
        if not callable(predicate):
            raise TypeError("Predicate should be a Python function or a callable Python object.")
        if input_columns is not None:
            if not isinstance(input_columns, (list, str)):
                raise TypeError(f"Argument input_columns with value {input_columns} is not of type [<class 'list'>, "
                                f"<class 'str'>], but got {type(input_columns)}.")
            if not input_columns:
                raise ValueError("input_columns should not be empty.")
        _check_workers(num_parallel_workers)
        return PIPELINE["filter"](self, predicate, _as_list(input_columns))

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
        elif any(n.startswith("_meta-") for n in self._ds.get_col_names()):  # shown only once renamed
            row = tuple(c for c, n in zip(row, self._ds.get_col_names()) if not n.startswith("_meta-"))
        return [output_value(c, self._numpy) for c in row]

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
        names = self._ds.get_col_names()
        if self._index is None:
            names = [n for n in names if not n.startswith("_meta-")]
        return dict(zip(names, values))
