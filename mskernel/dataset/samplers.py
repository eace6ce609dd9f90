"""Samplers: which rows of a source an epoch reads, in which order (``sampler=`` of the dataset sources).

Each sampler gives ``indices(n, labels)``: positions into the ``n`` rows of the source (``labels``, one per row,
are used by :class:`PKSampler`). Random ones draw from the dataset generator (``dataset.config.set_seed``).

Example:
    >>> SequentialSampler(2, 3).indices(10).tolist(), SubsetSampler([4, 1]).indices(10).tolist()
    ([2, 3, 4], [4, 1])
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence

import numpy as np

from mskernel.dataset import config

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler",
           "SubsetRandomSampler", "PKSampler", "WeightedRandomSampler", "sample_indices"]


def _check_num_samples(num_samples: Optional[int]) -> Optional[int]:
    if num_samples is None:
        return None
    if isinstance(num_samples, bool) or not isinstance(num_samples, int):
        raise TypeError(f"num_samples must be integer but was: {num_samples}.")
    if num_samples < 0:
        raise ValueError("num_samples exceeds the boundary between 0 and 9223372036854775807(INT64_MAX)!")
    return num_samples or None


class Sampler:
    """Base of the samplers; ``add_child`` chains a sampler whose indices this one then picks from.

    Example:
        >>> s = SubsetSampler([1, 0]); s.add_child(SequentialSampler(5)); s.indices(10).tolist()
        [6, 5]
    """

    def __init__(self, num_samples: Optional[int] = None) -> None:
        self.num_samples = _check_num_samples(num_samples)
        self.child: Optional[Sampler] = None

    def add_child(self, sampler: "Sampler") -> None:
        """Sample from what ``sampler`` samples."""
        self.child = sampler

    def get_num_samples(self) -> Optional[int]:
        """The ``num_samples`` given (None for all)."""
        return self.num_samples

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        raise NotImplementedError

    def indices(self, n: int, labels: Optional[Sequence[Any]] = None) -> np.ndarray:
        """The positions one epoch reads from ``n`` rows."""
        if self.child is not None:
            base = self.child.indices(n, labels)
            own = self._own(len(base), None if labels is None else [labels[i] for i in base])
            return base[own]
        out = self._own(n, labels)
        return out[:self.num_samples] if self.num_samples else out


class SequentialSampler(Sampler):
    """Rows in order from ``start_index``.

    Example:
        >>> SequentialSampler().indices(3).tolist()
        [0, 1, 2]
    """

    def __init__(self, start_index: Optional[int] = None, num_samples: Optional[int] = None) -> None:
        super().__init__(num_samples)
        if start_index is not None and start_index < 0:
            raise ValueError(f"start_index should be a positive integer value or 0, but got start_index: "
                             f"{start_index}.")
        self.start_index = start_index or 0

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        return np.arange(min(self.start_index, n), n)


class RandomSampler(Sampler):
    """A random permutation (or draws with ``replacement``, at most as many as there are rows).

    Example:
        >>> sorted(RandomSampler().indices(4).tolist())
        [0, 1, 2, 3]
    """

    def __init__(self, replacement: bool = False, num_samples: Optional[int] = None) -> None:
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement: {replacement}.")
        self.replacement = replacement

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        if self.replacement:
            return config.rng().integers(0, n, min(self.num_samples or n, n))
        return config.rng().permutation(n)


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: rows ``shard_id, shard_id + num_shards, ...`` of the (shuffled)
    order, wrapping round so that every shard has ``ceil(n / num_shards)`` rows.

    Example:
        >>> DistributedSampler(2, 1, shuffle=False).indices(5).tolist()
        [1, 3, 0]
    """

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True, num_samples: Optional[int] = None,
                 offset: int = -1) -> None:
        super().__init__(num_samples)
        if num_shards <= 0:
            raise ValueError(f"num_shards should be a positive integer value, but got num_shards: {num_shards}.")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"shard_id should be more than or equal to 0 and less than num_shards, but got "
                             f"shard_id: {shard_id}, num_shards: {num_shards}.")
        self.num_shards, self.shard_id, self.shuffle, self.offset = num_shards, shard_id, shuffle, offset

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        # every shard must draw the same permutation: a generator seeded by the dataset seed, not the shared one
        order = np.random.default_rng(config.get_seed()).permutation(n) if self.shuffle else np.arange(n)
        per = math.ceil(n / self.num_shards) if n else 0
        picks = (np.arange(per) * self.num_shards + self.shard_id) % max(n, 1)
        return order[picks] if n else np.arange(0)


class SubsetSampler(Sampler):
    """The given ``indices``, in order.

    Example:
        >>> SubsetSampler([3, 0, 3]).indices(5).tolist()
        [3, 0, 3]
    """

    def __init__(self, indices: Sequence[int], num_samples: Optional[int] = None) -> None:
        super().__init__(num_samples)
        idx = [indices] if isinstance(indices, int) else list(indices)
        for i in idx:
            if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
                raise TypeError(f"SubsetSampler: Type of indices element must be int, but got list[{idx.index(i)}]: "
                                f"{i}, type: {type(i)}.")
        self.indices_ = np.asarray(idx, np.int64)

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        bad = self.indices_[(self.indices_ < 0) | (self.indices_ >= n)]
        if bad.size:
            raise RuntimeError(f"SubsetSampler: Sample ID ({int(bad[0])}) is out of bound, expected range "
                               f"[0, {n - 1}]")
        return self.indices_.copy()


class SubsetRandomSampler(SubsetSampler):
    """The given ``indices`` in a random order.

    Example:
        >>> sorted(SubsetRandomSampler([3, 0]).indices(5).tolist())
        [0, 3]
    """

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        return config.rng().permutation(super()._own(n, labels))


class PKSampler(Sampler):
    """``num_val`` rows of each class (the classes in ascending order of label; a class with fewer rows repeats
    them), the classes shuffled with ``shuffle``.

    Example:
        >>> PKSampler(2).indices(5, [1, 0, 1, 1, 0]).tolist()
        [1, 4, 0, 2]
    """

    def __init__(self, num_val: int, num_class: Optional[int] = None, shuffle: bool = False,
                 class_column: str = "label", num_samples: Optional[int] = None) -> None:
        super().__init__(num_samples)
        if num_class is not None:
            raise NotImplementedError("num_class is not supported yet.")
        if num_val <= 0:
            raise ValueError(f"num_val should be a positive integer value, but got num_val: {num_val}.")
        self.num_val, self.shuffle, self.class_column = num_val, shuffle, class_column

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        if labels is None:
            raise RuntimeError("PKSampler: the source has no label column to sample classes by.")
        lab = np.asarray([int(np.asarray(v)) for v in labels])
        classes = np.unique(lab)
        if self.shuffle:
            classes = config.rng().permutation(classes)
        out: List[int] = []
        for c in classes:
            rows = np.nonzero(lab == c)[0]
            if self.shuffle:
                rows = config.rng().permutation(rows)
            out += [int(rows[k % len(rows)]) for k in range(self.num_val)]
        return np.asarray(out, np.int64)


class WeightedRandomSampler(Sampler):
    """``num_samples`` rows drawn with probabilities proportional to ``weights`` (with ``replacement`` by
    default).

    Example:
        >>> WeightedRandomSampler([0, 1, 0], 2).indices(3).tolist()
        [1, 1]
    """

    def __init__(self, weights: Sequence[float], num_samples: Optional[int] = None, replacement: bool = True
                 ) -> None:
        super().__init__(num_samples)
        w = np.asarray(weights, np.float64)
        if w.size == 0:
            raise ValueError("weights size should not be 0")
        if np.any(w < 0):
            raise ValueError("weights should not contain negative numbers.")
        if not np.any(w > 0):
            raise ValueError("elements of weights should not be all zeros.")
        self.weights, self.replacement = w, replacement

    def _own(self, n: int, labels: Optional[Sequence[Any]]) -> np.ndarray:
        count = self.num_samples or len(self.weights)
        p = self.weights / self.weights.sum()
        return config.rng().choice(len(self.weights), count, replace=self.replacement, p=p)


def sample_indices(sampler: Any, n: int, shuffle: bool, num_samples: Optional[int],
                   labels: Optional[Sequence[Any]] = None) -> np.ndarray:
    """The rows an epoch of a source reads: the ``sampler``'s (a :class:`Sampler` or a list of indices) if
    given, else all rows, shuffled with ``shuffle``, the first ``num_samples``.

    Example:
        >>> sample_indices(None, 4, False, 2).tolist(), sample_indices([2, 0], 4, False, None).tolist()
        ([0, 1], [2, 0])
    """
    if sampler is not None:
        s = sampler if isinstance(sampler, Sampler) else SubsetSampler(list(np.asarray(sampler).tolist()))
        idx = s.indices(n, labels)
        return idx[:num_samples] if num_samples else idx
    idx = config.rng().permutation(n) if shuffle else np.arange(n)
    return idx[:num_samples] if num_samples else idx
