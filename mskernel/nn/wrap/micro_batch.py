"""Cells that run a network on slices of its batch and add the results: ``PipelineCell``,
``GradAccumulationCell``, ``MicroBatchInterleaved``; and ``VirtualDatasetCellTriple``.

In MindSpore these mark a network for pipeline parallelism, gradient accumulation or interleaved micro-batches,
which its auto-parallel compiler spreads over devices; run directly (as in PyNative mode) each cuts every input
into equal slices along axis 0 (``micro_size`` or ``interleave_num`` of them; axis 0 must divide), runs the
network once per slice and returns the sum of the outputs. mskernel runs one process, so that is all they do
here, with the same values and gradients.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    >>> print(PipelineCell(net, 2)(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
    [[10.]]
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Optional, Tuple

from mskernel.nn.cell import Cell

__all__ = ["PipelineCell", "GradAccumulationCell", "MicroBatchInterleaved", "VirtualDatasetCellTriple"]

logger = logging.getLogger(__name__)


def micro_batch(i: int, count: int, inputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """Slice ``i`` of ``count`` equal slices along axis 0 of each input.

    Example:
        >>> import mskernel as ms
        >>> print(micro_batch(1, 2, (ms.Tensor([1, 2, 3, 4]),))[0])
        [3 4]
    """
    out = []
    for x in inputs:
        n = x.shape[0]
        if n % count:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({n}) must be divided "
                             f"by micro size({count})")
        step = n // count
        out.append(x[step * i:step * (i + 1)])
    return tuple(out)


def _check_count(owner: str, arg: str, value: Any) -> None:
    if not isinstance(value, int):
        raise TypeError(f"For '{owner}', the argument '{arg}' must be integer, but got the type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the argument '{arg}' must be large than 0, but got {value}.")


class _Summed(Cell):
    """A network run on each of ``micro_size`` slices of its inputs, the outputs added."""

    _owner = ""

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For '{self._owner}', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        _check_count(self._owner, "micro_size", micro_size)
        self.network = network
        self.micro_size = micro_size

    def construct(self, *inputs: Any) -> Any:
        ret = None
        for i in range(self.micro_size):
            out = self.network(*micro_batch(i, self.micro_size, inputs))
            ret = out if ret is None else ret + out
        return ret


class GradAccumulationCell(_Summed):
    """The network run on ``micro_size`` slices of its batch, the outputs (losses) added, so that one backward
    pass accumulates the gradients of every slice.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
        >>> print(GradAccumulationCell(net, 3)(ms.Tensor([[1.0], [2.0], [3.0]])))
        [[6.]]
    """

    _owner = "GradAccumulationCell"


class PipelineCell(_Summed):
    """The network run on ``micro_size`` micro-batches, the outputs added (one pipeline stage: this process).
    ``stage_config`` / ``segment_config`` (cell name -> number) set the named cells' ``pipeline_stage`` /
    ``pipeline_segment``; a name the network lacks is a KeyError.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
        >>> print(PipelineCell(net, 2)(ms.Tensor([[1.0], [2.0]])))
        [[3.]]
    """

    _owner = "PipelineCell"

    def __init__(self, network: Cell, micro_size: int, stage_config: Optional[Dict[str, int]] = None,
                 segment_config: Optional[Dict[str, int]] = None) -> None:
        super().__init__(network, micro_size)
        if stage_config is not None:
            self._configure(dict(stage_config), "pipeline_stage", "stage_config")
        if segment_config is not None:
            self._configure(dict(segment_config), "pipeline_segment", "segment_config")

    def _configure(self, config: Dict[str, int], attr: str, arg: str) -> None:
        left = dict(config)
        for name, cell in self.network.cells_and_names():
            if name and name in left:
                setattr(cell, attr, left.pop(name))
        if str(self.network) in left:
            setattr(self.network, attr, left.pop(str(self.network)))
        if left:
            raise KeyError(f"For 'PipelineCell', the argument '{arg}' : {left} is not found in 'network' : "
                           f"{self.network}")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None, device: str = "Ascend",
              level: int = 0) -> None:
        """A PipelineCell cannot be sharded."""
        raise ValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")


class MicroBatchInterleaved(Cell):
    """The network run on ``interleave_num`` slices of its batch, the outputs added to ``0.0``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
        >>> print(MicroBatchInterleaved(net, 2)(ms.Tensor([[1.0], [2.0]])))
        [[3.]]
    """

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        _check_count("MicroBatchInterleaved", "interleave_num", interleave_num)
        self.network = network
        self.interleave_num = interleave_num

    def construct(self, *inputs: Any) -> Any:
        output: Any = 0.0
        for i in range(self.interleave_num):
            output = output + self.network(*micro_batch(i, self.interleave_num, inputs))
        return output


class VirtualDatasetCellTriple(Cell):
    """The backbone called with three inputs (deprecated in MindSpore, which logs a warning when one is made).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> class Add3(nn.Cell):
        ...     def construct(self, a, b, c):
        ...         return a + b + c
        >>> print(VirtualDatasetCellTriple(Add3())(ms.Tensor([1]), ms.Tensor([2]), ms.Tensor([3])))
        [6]
    """

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        logger.warning("WARN_DEPRECATED: The usage of VirtualDatasetCellTriple is deprecated.")
        self._backbone = backbone

    def construct(self, a: Any, b: Any, c: Any) -> Any:
        return self._backbone(a, b, c)
