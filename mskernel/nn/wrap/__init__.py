"""``mindspore.nn`` wrappers: loss/eval cells, one training step, loss scaling (and ``LossBase`` for losses).

Example:
    >>> from mskernel.nn import wrap
    >>> "TrainOneStepCell" in wrap.__all__
    True
"""
from mskernel.nn.wrap.cell_wrapper import (ForwardValueAndGrad, TrainOneStepCell, WithEvalCell, WithGradCell,
                                           WithLossCell)
from mskernel.nn.wrap.loss_base import LossBase
from mskernel.nn.wrap.parameter_update import ParameterUpdate
from mskernel.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                         TrainOneStepWithLossScaleCell)
from mskernel.nn.wrap.micro_batch import (GradAccumulationCell, MicroBatchInterleaved, PipelineCell,
                                          VirtualDatasetCellTriple)
from mskernel.nn.wrap.grad_reducer import DistributedGradReducer, PipelineGradReducer

__all__ = ["ForwardValueAndGrad", "TrainOneStepCell", "WithLossCell", "WithGradCell", "WithEvalCell", "LossBase",
           "TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "ParameterUpdate"]
__all__ += ["PipelineCell", "GradAccumulationCell", "MicroBatchInterleaved", "VirtualDatasetCellTriple",
            "DistributedGradReducer", "PipelineGradReducer"]
