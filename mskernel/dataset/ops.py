"""The pipeline ops: batch, shuffle, map, filter, repeat, take, skip, project, rename, zip, concat.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> d = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
    >>> [r[0].tolist() for r in d.concat(d).rename(["a"], ["b"]).batch(4).create_tuple_iterator(output_numpy=True)]
    [[0, 1, 2, 0], [1, 2]]
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, List, Optional

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.engine import PIPELINE, Dataset, Row, to_column

__all__ = ["BatchDataset", "ShuffleDataset", "MapDataset", "FilterDataset", "RepeatDataset", "TakeDataset",
           "SkipDataset", "ProjectDataset", "RenameDataset", "ZipDataset", "ConcatDataset"]


def user_error(e: Exception) -> RuntimeError:
    """MindSpore's RuntimeError for an exception a user's function of the pipeline raised (its type and text
    follow the banner, as in the wheel's 'Python Call Stack').

    Example:
        >>> str(user_error(ZeroDivisionError("division by zero"))).split(". ")[1]
        'ZeroDivisionError: division by zero'
    """
    return RuntimeError(f"Exception thrown from user defined Python function in dataset. {type(e).__name__}: {e}")


def user_call(fn: Any, *args: Any) -> Any:
    """Call a user's function of the pipeline; its exception becomes MindSpore's RuntimeError (which names it).

    Example:
        >>> user_call(lambda x: x + 1, 1)
        2
        >>> user_call(int, "seven")
        Traceback (most recent call last):
        ...
        RuntimeError: Exception thrown from user defined Python function in dataset. ValueError: invalid literal ...
    """
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 (re-raised with MindSpore's wrapper text, the cause chained)
        if getattr(fn, "__module__", "").startswith("mskernel.dataset") and isinstance(e, (ValueError, TypeError)):
            raise  # our own transforms raise MindSpore's errors directly
        raise user_error(e) from e


def _shape_text(shape: tuple) -> str:
    """A shape as MindSpore's dataset errors write it: ``<2,3>``."""
    return "<" + ",".join(str(d) for d in shape) + ">"


class BatchDataset(Dataset):
    """Rows stacked ``batch_size`` at a time; ``per_batch_map`` gets the columns as lists of arrays.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset(np.arange(5), shuffle=False).batch(2, drop_remainder=True).get_dataset_size()
        2
    """

    def __init__(self, parent: Dataset, batch_size: int, drop_remainder: bool, per_batch_map: Optional[Callable],
                 input_columns: Optional[List[str]], output_columns: Optional[List[str]]) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("batch_size is not within the required interval of [1, 2147483647].")
        cols = parent.get_col_names()
        if per_batch_map is not None and output_columns:
            cols = [c for c in cols if c not in (input_columns or cols)] + output_columns
        super().__init__(cols, [parent])
        self.batch_size, self.drop_remainder = batch_size, drop_remainder
        self.per_batch_map, self.input_columns = per_batch_map, input_columns
        self.output_columns = output_columns

    def get_batch_size(self) -> int:
        return self.batch_size

    def _rows(self) -> Iterator[Row]:
        parent = self.children[0]
        buf: List[Row] = []
        batch_num = 0
        for row in parent._rows():
            buf.append(row)
            if len(buf) == self.batch_size:
                yield self._make(buf, parent, batch_num)
                batch_num += 1
                buf = []
        if buf and not self.drop_remainder:
            yield self._make(buf, parent, batch_num)

    def _make(self, rows: List[Row], parent: Dataset, batch_num: int) -> Row:
        columns = [list(c) for c in zip(*rows)]
        if self.per_batch_map is not None:
            names = parent.get_col_names()
            idx = parent._col_index(self.input_columns or names, "batch")

            class _Info:
                def get_batch_num(self_inner) -> int:
                    return batch_num

                def get_epoch_num(self_inner) -> int:
                    return 0
            out = user_call(self.per_batch_map, *[columns[i] for i in idx], _Info())
            out = out if isinstance(out, tuple) else (out,)
            rest = [columns[i] for i in range(len(columns)) if i not in idx]
            if self.output_columns:
                columns = rest + [list(o) for o in out]
            else:
                columns = [list(o) for o in out] + rest
        for c, col in enumerate(columns):
            first = np.shape(col[0])
            for v in col[1:]:
                if np.shape(v) != first:
                    raise RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error "
                                       f"Message'. Cannot batch tensors with different shapes in column {c}. First "
                                       f"element had shape {_shape_text(first)} and this element had shape "
                                       f"{_shape_text(np.shape(v))}")
        return tuple(np.stack([np.asarray(v) for v in col]) for col in columns)


class ShuffleDataset(Dataset):
    """A shuffle buffer of ``buffer_size`` rows (the whole dataset when it is at least that big).

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.config.set_seed(0)
        >>> sorted(r[0].item() for r in ds.NumpySlicesDataset(np.arange(5), shuffle=False).shuffle(10)
        ...        .create_tuple_iterator(output_numpy=True))
        [0, 1, 2, 3, 4]
    """

    def __init__(self, parent: Dataset, buffer_size: int) -> None:
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size < 2:
            raise ValueError("buffer_size is not within the required interval of [2, 2147483647].")
        super().__init__(parent.get_col_names(), [parent])
        self.buffer_size = buffer_size

    def _rows(self) -> Iterator[Row]:
        rng = config.rng()
        buf: List[Row] = []
        for row in self.children[0]._rows():
            buf.append(row)
            if len(buf) >= self.buffer_size:
                yield buf.pop(int(rng.integers(len(buf))))
        while buf:
            yield buf.pop(int(rng.integers(len(buf))))


class MapDataset(Dataset):
    """``operations`` applied to ``input_columns`` (the first column by default), results named ``output_columns``.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> d = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False).map(lambda a: (a, a * 10), ["a"], ["a", "b"])
        >>> d.get_col_names(), [r[1].item() for r in d.create_tuple_iterator(output_numpy=True)]
        (['a', 'b'], [10, 20])
    """

    def __init__(self, parent: Dataset, operations: Any, input_columns: Optional[List[str]],
                 output_columns: Optional[List[str]], callbacks: Any = None) -> None:
        from mskernel.dataset.callbacks import DSCallback, DSRunContext
        cbs = [] if callbacks is None else (list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks])
        for cb in cbs:
            if not isinstance(cb, DSCallback):
                raise TypeError(f"Argument callbacks[0] with value {cb} is not of type [<class "
                                f"'mindspore.dataset.callback.ds_callback.DSCallback'>], but got {type(cb)}.")
        self.callbacks, self._ds_context, self._ds_started, self._quiet = cbs, DSRunContext(), False, False
        names = parent.get_col_names()
        self.input_columns = input_columns or names[:1]  # MindSpore passes the first column by default
        parent._col_index(self.input_columns, "map")
        self.output_columns = output_columns or self.input_columns
        ops = operations if isinstance(operations, (list, tuple)) else [operations]
        for op in ops:
            if not callable(op):
                raise TypeError(f"For 'map', every operation must be callable, but got {type(op).__name__}.")
        self.operations = list(ops)
        self._parent_names = names
        super().__init__(self._place(names, self.output_columns), [parent])

    def _place(self, row: List[Any], outputs: List[Any]) -> List[Any]:
        """MindSpore's column order after ``map``, for the names or the values of a row (``row`` is the parent's,
        ``outputs`` what replaces the inputs): as many outputs as inputs replace the input columns where they
        stand (the k-th output at the k-th input column's place); otherwise the outputs come first, then the
        other columns in order."""
        if len(outputs) == len(self.input_columns):
            out = list(row)
            for k, col in enumerate(self.input_columns):
                out[self._parent_names.index(col)] = outputs[k]
            return out
        return list(outputs) + [v for n, v in zip(self._parent_names, row) if n not in self.input_columns]

    def _rows(self) -> Iterator[Row]:
        parent = self.children[0]
        idx = parent._col_index(self.input_columns, "map")

        def process(row: Row) -> Row:
            vals: Any = tuple(row[i] for i in idx)
            for op in self.operations:
                vals = user_call(op, *vals)
                vals = vals if isinstance(vals, tuple) else (vals,)
            if len(vals) != len(self.output_columns):
                raise ValueError(f"For 'map', the operations returned {len(vals)} columns but 'output_columns' "
                                 f"names {len(self.output_columns)}: {self.output_columns}.")
            return tuple(self._place(list(row), [to_column(v) for v in vals]))
        if self.callbacks and not self._quiet:
            from mskernel.dataset.callbacks import run_with_callbacks
            yield from run_with_callbacks(self, self.callbacks, parent._rows(), process)
            return
        for row in parent._rows():
            yield process(row)

    def get_dataset_size(self) -> int:
        """The parent's row count (the callbacks are not called for it)."""
        return self.children[0].get_dataset_size()

    def _first(self) -> Row:
        self._quiet = True  # describing the columns is not a pass of the pipeline: no callbacks
        try:
            return super()._first()
        finally:
            self._quiet = False


class FilterDataset(Dataset):
    """The parent's rows for which ``predicate`` (given ``input_columns``, all by default) is true. A column
    that does not exist, or an exception of the predicate (its result's truth value included), raises
    MindSpore's RuntimeError when the rows are read, as the wheel's pipeline does.

    Example:
        >>> from mskernel import dataset as ds
        >>> d = ds.NumpySlicesDataset({"s": ["a", "bb", "c"]}, shuffle=False).filter(lambda s: len(str(s)) == 1)
        >>> [str(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
        ['a', 'c']
    """

    def __init__(self, parent: Dataset, predicate: Callable[..., Any], input_columns: Optional[List[str]]) -> None:
        super().__init__(parent.get_col_names(), [parent])
        self.predicate, self.input_columns = predicate, input_columns

    def _keep(self, values: List[Any]) -> bool:
        try:
            return bool(self.predicate(*values))
        except Exception as e:  # noqa: BLE001 (re-raised with MindSpore's wrapper text, the cause chained)
            raise user_error(e) from e

    def _rows(self) -> Iterator[Row]:
        parent = self.children[0]
        names = parent.get_col_names()
        wanted = self.input_columns or names
        for name in wanted:
            if name not in names:
                raise RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error "
                                   f"Message'. Invalid parameter, column name: {name} does not exist in the dataset "
                                   f"columns.")
        idx = [names.index(n) for n in wanted]
        for row in parent._rows():
            if self._keep([row[i] for i in idx]):
                yield row


class RepeatDataset(Dataset):
    """The parent's rows ``count`` times.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset(np.arange(2), shuffle=False).repeat(3).get_dataset_size()
        6
    """

    def __init__(self, parent: Dataset, count: Optional[int]) -> None:
        super().__init__(parent.get_col_names(), [parent])
        self.count = -1 if count is None else int(count)

    def get_repeat_count(self) -> int:
        return self.count

    def _rows(self) -> Iterator[Row]:
        rounds = itertools.count() if self.count == -1 else range(self.count)
        for _ in rounds:
            yield from self.children[0]._rows()


class TakeDataset(Dataset):
    """The first ``count`` rows (all with -1).

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset(np.arange(5), shuffle=False).take(3).get_dataset_size()
        3
    """

    def __init__(self, parent: Dataset, count: int) -> None:
        super().__init__(parent.get_col_names(), [parent])
        self.count = count

    def _rows(self) -> Iterator[Row]:
        rows = self.children[0]._rows()
        yield from (rows if self.count == -1 else itertools.islice(rows, self.count))


class SkipDataset(Dataset):
    """All but the first ``count`` rows.

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset(np.arange(5), shuffle=False).skip(3).get_dataset_size()
        2
    """

    def __init__(self, parent: Dataset, count: int) -> None:
        super().__init__(parent.get_col_names(), [parent])
        self.count = count

    def _rows(self) -> Iterator[Row]:
        yield from itertools.islice(self.children[0]._rows(), self.count, None)


class ProjectDataset(Dataset):
    """Only the named columns, in that order.

    Example:
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset({"a": [1], "b": [2]}).project(["b"]).get_col_names()
        ['b']
    """

    def __init__(self, parent: Dataset, columns: List[str]) -> None:
        self._idx = parent._col_index(columns, "project")
        super().__init__(columns, [parent])

    def _rows(self) -> Iterator[Row]:
        for row in self.children[0]._rows():
            yield tuple(row[i] for i in self._idx)


class RenameDataset(Dataset):
    """The same rows under new column names.

    Example:
        >>> from mskernel import dataset as ds
        >>> ds.NumpySlicesDataset({"a": [1]}).rename("a", "z").get_col_names()
        ['z']
    """

    def __init__(self, parent: Dataset, input_columns: List[str], output_columns: List[str]) -> None:
        if len(input_columns) != len(output_columns):
            raise ValueError("input_columns and output_columns should have the same length.")
        parent._col_index(input_columns, "rename")
        mapping = dict(zip(input_columns, output_columns))
        self.input_columns, self.output_columns = list(input_columns), list(output_columns)
        super().__init__([mapping.get(c, c) for c in parent.get_col_names()], [parent])

    def _rows(self) -> Iterator[Row]:
        return self.children[0]._rows()


class ZipDataset(Dataset):
    """Rows of several datasets side by side (column names must not repeat).

    Example:
        >>> from mskernel import dataset as ds
        >>> a, b = ds.NumpySlicesDataset({"a": [1, 2]}), ds.NumpySlicesDataset({"b": [3]})
        >>> ds.zip((a, b)).get_col_names(), ds.zip((a, b)).get_dataset_size()
        (['a', 'b'], 1)
    """

    def __init__(self, datasets: List[Dataset]) -> None:
        cols = [c for d in datasets for c in d.get_col_names()]
        if len(set(cols)) != len(cols):
            raise ValueError(f"Duplicate column names across the zipped datasets: {cols}.")
        super().__init__(cols, datasets)

    def _rows(self) -> Iterator[Row]:
        for parts in zip(*(d._rows() for d in self.children)):
            yield tuple(c for p in parts for c in p)


class ConcatDataset(Dataset):
    """The rows of several datasets one after another (same columns).

    Example:
        >>> import numpy as np
        >>> from mskernel import dataset as ds
        >>> (ds.NumpySlicesDataset(np.arange(2)) + ds.NumpySlicesDataset(np.arange(3))).get_dataset_size()
        5
    """

    def __init__(self, datasets: List[Dataset]) -> None:
        first = datasets[0].get_col_names()
        for d in datasets[1:]:
            if len(d.get_col_names()) != len(first):
                raise ValueError(f"For 'concat', every dataset must have the same columns as the first, {first}, "
                                 f"but one has {d.get_col_names()}.")
        super().__init__(first, datasets)

    def _rows(self) -> Iterator[Row]:
        for d in self.children:
            yield from d._rows()


PIPELINE.update(batch=BatchDataset, shuffle=ShuffleDataset, map=MapDataset, filter=FilterDataset,
                repeat=RepeatDataset, take=TakeDataset, skip=SkipDataset, project=ProjectDataset,
                rename=RenameDataset, zip=ZipDataset, concat=ConcatDataset)
