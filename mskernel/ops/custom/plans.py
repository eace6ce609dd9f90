"""The plan cache of ``ops.Custom``: what a call signature was planned to, so later calls skip the planning.

Splitting the arguments, inferring the outputs and selecting the dtype row depend only on the inputs'
shapes and dtypes and the attribute values, so they run once per call signature (as MindSpore infers once
per graph): ``plans`` maps a signature — (shape, dtype) of each Tensor argument, (type, value) of each
other one — to ``(attrs, output specs, several outputs?)``. A signature whose arguments are all Tensors
also gets a fast plan once it has run: ``fast`` maps it to ``(runner, several outputs?, recorder)``, where
``runner(arrays)`` runs the kernel and ``recorder(args, outs)`` puts the call on the graph. The engine core
runs fast plans without entering Python (``mskernel/autograd/_cengine_calls.c``): it reads the op's
``_fast`` (this cache's ``fast``) and keeps the last plan it used in the op's ``_last``. An argument that
cannot be hashed (a list attribute, say) is planned at every call; at most 512 signatures are kept.

Example:
    >>> import mskernel as ms
    >>> cache = PlanCache()
    >>> key, plan, all_tensors = cache.lookup((ms.Tensor([1.0, 2.0]), 3.0))
    >>> plan is None, all_tensors, cache.remember(key, [3.0], [], False)
    (True, False, True)
    >>> cache.lookup((ms.Tensor([5.0, 6.0]), 3.0))[1]
    ([3.0], [], False)
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["PlanCache"]

LIMIT = 512  # signatures kept per op


class PlanCache:
    """The plans of one op's call signatures, and the fast plans of its all-Tensor ones.

    Example:
        >>> PlanCache().signatures_used()
        []
    """

    def __init__(self) -> None:
        self.plans: Dict[tuple, tuple] = {}  # call signature -> (attrs, output specs, multi)
        self.fast: Dict[tuple, tuple] = {}  # all-Tensor call signature -> (runner, multi, recorder)

    def lookup(self, args: tuple) -> Tuple[Optional[tuple], Optional[tuple], bool]:
        """``(signature, its plan or None, whether every argument is a Tensor)``; the signature is None when an
        argument cannot be hashed."""
        all_tensors = True
        try:
            key = []
            for a in args:
                if isinstance(a, Tensor):
                    d = a._data
                    key.append(d.shape)
                    key.append(d.dtype)
                else:
                    all_tensors = False
                    key.append(a.__class__)
                    key.append(a)
            key = tuple(key)
            return key, self.plans.get(key), all_tensors
        except TypeError:  # an unhashable attribute value (e.g. a list): no caching
            return None, None, all_tensors

    def remember(self, key: Optional[tuple], attrs: List[Any], specs: List[Any], multi: bool) -> bool:
        """Keep the plan of ``key``; whether it was kept (not without a signature, nor past the limit)."""
        if key is None or len(self.plans) >= LIMIT:
            return False
        self.plans[key] = (attrs, specs, multi)
        return True

    def add_fast(self, key: tuple, runner: Callable[[tuple], Any], multi: bool,
                 recorder: Callable[[tuple, tuple], None]) -> None:
        """Give the all-Tensor signature ``key`` (planned, and run once) its fast plan."""
        self.fast[key] = (runner, multi, recorder)

    def signatures_used(self) -> List[Tuple[Tuple[str, ...], Tuple[int, ...], Tuple[Any, ...]]]:
        """The distinct ``(tensor dtypes, tensor ranks, attribute values)`` planned, in the order first seen.

        Example:
            >>> import mskernel as ms
            >>> cache = PlanCache(); key, _, _ = cache.lookup((ms.Tensor([[1.0]]), 2))
            >>> _ = cache.remember(key, [2], [], False); cache.signatures_used()
            [(('float32',), (2,), (2,))]
        """
        out: List[Tuple[Tuple[str, ...], Tuple[int, ...], Tuple[Any, ...]]] = []
        for key, (attrs, _, _) in self.plans.items():
            tensors = [(s, d) for s, d in zip(key[::2], key[1::2]) if isinstance(s, tuple) and isinstance(d, np.dtype)]
            sig = (tuple(d.name for _, d in tensors), tuple(len(s) for s, _ in tensors), tuple(attrs))
            if sig not in out:
                out.append(sig)
        return out
