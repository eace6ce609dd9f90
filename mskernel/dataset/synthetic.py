"""Sources that are not read from files: ``PaddedDataset`` (given rows), ``FakeImageDataset`` and
``RandomDataset`` (random rows), and ``compare`` of two pipelines.

Example:
    >>> import numpy as np
    >>> d = PaddedDataset([{"x": np.array([1])}, {"x": np.array([2, 3])}])
    >>> [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)]
    [[1], [2, 3]]
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.engine import Dataset, Row, to_column
from mskernel.dataset.schema import Schema
from mskernel.dataset.sources import _check_sampler, _order

__all__ = ["PaddedDataset", "FakeImageDataset", "RandomDataset", "compare"]


class PaddedDataset(Dataset):
    """One row per dict of ``padded_samples`` (the columns are the first dict's keys), in order.

    Example:
        >>> PaddedDataset([{"a": 1}]).get_col_names()
        ['a']
    """

    def __init__(self, padded_samples: List[Dict[str, Any]]) -> None:
        if not isinstance(padded_samples, list):
            raise TypeError(f"Argument padded_samples with value {padded_samples} is not of type [<class 'list'>], "
                            f"but got {type(padded_samples)}.")
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        for i, row in enumerate(padded_samples):
            if not isinstance(row, dict):
                raise TypeError(f"Argument padded_sample[{i}] with value {row} is not of type [<class 'dict'>], "
                                f"but got {type(row)}.")
        names = list(padded_samples[0])
        super().__init__(names)
        self._samples = padded_samples

    def _rows(self) -> Iterator[Row]:
        for row in self._samples:
            yield tuple(to_column(row.get(n)) for n in self._columns)


class FakeImageDataset(Dataset):
    """``num_images`` random uint8 images of ``image_size`` (HWC) with uint32 labels below ``num_classes``; each
    image is drawn from a generator seeded by ``base_seed`` plus its index, so the data are repeatable.

    Example:
        >>> d = FakeImageDataset(3, (4, 4, 3), 10, 0, shuffle=False)
        >>> [(r[0].shape, r[1].dtype.name) for r in d.create_tuple_iterator(output_numpy=True)][0]
        ((4, 4, 3), 'uint32')
    """

    def __init__(self, num_images: int = 1000, image_size: Sequence[int] = (224, 224, 3), num_classes: int = 10,
                 base_seed: int = 0, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[bool] = None, sampler: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        if num_images <= 0 or num_classes <= 0:
            raise ValueError("num_images and num_classes should be positive.")
        if len(image_size) != 3:
            raise ValueError("image_size should be a list or tuple of length 3.")
        super().__init__(["image", "label"])
        self._n, self._size, self._classes, self._seed = num_images, tuple(image_size), num_classes, base_seed
        self._shuffle = True if shuffle is None else bool(shuffle)
        self._num_samples, self._shard = num_samples, (num_shards, shard_id)
        _check_sampler(sampler, shuffle, num_shards, num_samples, shard_id)
        self._sampler = sampler

    def _rows(self) -> Iterator[Row]:
        idx = _order(self._n, self._shuffle, self._num_samples, self._sampler)
        shards, sid = self._shard
        if shards:
            idx = idx[sid::shards]
        for i in idx:
            g = np.random.default_rng(self._seed + int(i))
            yield g.integers(0, 256, self._size, dtype=np.uint8), np.uint32(g.integers(0, self._classes))


class RandomDataset(Dataset):
    """``total_rows`` rows of random values: the columns of ``schema`` (or ``columns_list`` of it), or, without
    one, a random number of columns ``c0``, ``c1``, ... of random types and shapes; a dimension -1 gets a random
    length.

    Example:
        >>> import mskernel as ms
        >>> s = Schema(); s.add_column("image", ms.uint8, [2])
        >>> d = RandomDataset(schema=s, total_rows=3, num_parallel_workers=1)
        >>> d.get_dataset_size(), next(d.create_tuple_iterator(output_numpy=True))[0].shape
        (3, (2,))
    """

    _KINDS = ("uint8", "int32", "int64", "float32", "float64")

    def __init__(self, total_rows: Optional[int] = None, schema: Any = None, columns_list: Optional[List[str]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None, cache: Any = None,
                 shuffle: Optional[bool] = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None
                 ) -> None:
        from mskernel.dataset.engine import _check_workers
        _check_workers(num_parallel_workers)
        if isinstance(schema, str):
            schema = Schema(schema)
        rng = config.rng()
        if schema is None:
            cols = [{"name": f"c{i}", "type": self._KINDS[int(rng.integers(0, len(self._KINDS)))],
                     "shape": [int(v) for v in rng.integers(1, 5, int(rng.integers(0, 3)))]}
                    for i in range(int(rng.integers(1, 5)))]
        else:
            cols = [dict(c) for c in schema.columns if columns_list is None or c["name"] in columns_list]
        super().__init__([c["name"] for c in cols])
        self._specs = cols
        self._total = total_rows if total_rows else int(rng.integers(1, 1024))
        self._num_samples, self._shard = num_samples, (num_shards, shard_id)

    def _value(self, spec: Dict[str, Any]) -> np.ndarray:
        rng = config.rng()
        shape = [int(rng.integers(1, 32)) if d == -1 else d for d in spec.get("shape", [])]
        kind = spec["type"]
        if kind in ("string", "bytes"):
            return np.array("".join(chr(int(c)) for c in rng.integers(97, 123, 4)))
        dt = np.dtype("bool" if kind == "bool" else kind)
        if dt.kind == "f":
            return rng.random(shape).astype(dt)
        if dt.kind == "b":
            return rng.integers(0, 2, shape).astype(bool)
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -(2 ** 31)), min(info.max, 2 ** 31 - 1), shape, endpoint=True).astype(dt)

    def _rows(self) -> Iterator[Row]:
        n = min(self._total, self._num_samples) if self._num_samples else self._total
        shards, sid = self._shard
        for i in range(n):
            if shards and i % shards != sid:
                continue
            yield tuple(self._value(s) for s in self._specs)


def _describe(d: Dataset) -> Any:
    state = {k: v for k, v in vars(d).items() if k != "children" and not callable(v)
             and isinstance(v, (int, float, str, bool, tuple, list, type(None)))}
    return type(d).__name__, sorted(state.items(), key=lambda kv: kv[0]), [_describe(c) for c in d.children]


def compare(pipeline1: Dataset, pipeline2: Dataset) -> bool:
    """Whether two pipelines are built alike: the same steps with the same settings (not the data they give);
    their :func:`serialize` descriptions where both have one, as MindSpore compares them.

    Example:
        >>> import numpy as np
        >>> a = PaddedDataset([{"x": np.array([1])}])
        >>> compare(a, a), compare(a.repeat(2), a.repeat(3))
        (True, False)
    """
    from mskernel.dataset.serializer import serialize
    try:
        return serialize(pipeline1) == serialize(pipeline2)
    except TypeError:
        return repr(_describe(pipeline1)) == repr(_describe(pipeline2))
