"""Gradient reducers of data and pipeline parallelism, for rank 0 of a group of one.

``DistributedGradReducer`` all-reduces each gradient over the data-parallel group (here: one rank, so it stays as
it is) and, with ``mean``, multiplies it by ``1 / degree``; as in MindSpore the work is done in float32 and the
result cast back to the gradient's dtype, and a parameter made ``layerwise_parallel`` keeps its gradient.
``PipelineGradReducer`` hands back the gradients its pipeline accumulated (``accu_grads``, which MindSpore's
pipeline compiler fills; run directly they are zeros, as in the wheel) divided by ``scale_sense``, and clears
them; with ``opt_shard`` it scales the gradients it is given instead.

Example:
    >>> import mskernel as ms
    >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    >>> print(DistributedGradReducer([w], mean=True, degree=2)((ms.Tensor([4.0, 6.0]),))[0])
    [2. 3.]
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.communication import management as _m
from mskernel.nn.cell import Cell
from mskernel.parallel_context import get_auto_parallel_context

__all__ = ["DistributedGradReducer", "PipelineGradReducer"]


class DistributedGradReducer(Cell):
    """All-reduce (and with ``mean`` average over ``degree`` ranks) the gradients of ``parameters``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> print(DistributedGradReducer([w])((ms.Tensor([3.0]),))[0])
        [3.]
    """

    def __init__(self, parameters: Sequence[Parameter], mean: Optional[bool] = None, degree: Optional[int] = None,
                 fusion_type: int = 1, group: str = _m.HCCL_WORLD_COMM_GROUP) -> None:
        super().__init__(auto_prefix=False)
        self.mean = get_auto_parallel_context("gradients_mean") if mean is None else mean
        if degree is None:
            degree = _m.get_group_size()
        elif not isinstance(degree, int) or degree <= 0:
            raise ValueError(f"For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer should "
                             f"large than 0 and be int, degree: {degree}.")
        self.degree = Tensor(1.0 / degree, mstype.float32)
        self.allreduce_filter = tuple(not getattr(p, "layerwise_parallel", False) for p in parameters)
        self.group = group

    def construct(self, grads: Tuple[Tensor, ...]) -> Tuple[Tensor, ...]:
        out = []
        for reduce, grad in zip(self.allreduce_filter, grads):
            if reduce:
                dtype = grad.dtype
                grad = grad.astype(mstype.float32)  # all-reduced over one rank: as it is
                if self.mean:
                    grad = grad * self.degree
                grad = grad.astype(dtype)
            out.append(grad)
        return tuple(out)


class PipelineGradReducer(Cell):
    """The pipeline's accumulated gradients divided by ``scale_sense`` (and cleared); with ``opt_shard`` the given
    gradients divided by it.

    Example:
        >>> import mskernel as ms
        >>> params = ms.ParameterTuple([ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")])
        >>> print(PipelineGradReducer(params, opt_shard=True, scale_sense=2.0)((ms.Tensor([4.0, 6.0]),))[0])
        [2. 3.]
    """

    def __init__(self, parameters: Any, scale_sense: float = 1.0, opt_shard: Optional[bool] = None) -> None:
        super().__init__(auto_prefix=False)
        self.accu_grads = parameters.clone(prefix="accu_grads", init="zeros")
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(scale_sense, name="scale_sense")
        self.opt_shard = get_auto_parallel_context("enable_parallel_optimizer") if opt_shard is None else opt_shard

    def construct(self, grads: Tuple[Tensor, ...]) -> Tuple[Tensor, ...]:
        scale = self.scale_sense * self.degree
        out = []
        for grad, accu in zip(grads, self.accu_grads):
            new = (grad if self.opt_shard else accu) / scale
            accu.set_data(accu * 0)
            out.append(new)
        return tuple(out)
