"""``mindspore.boost``: training accelerations that rewrite the network, the optimizer or the step.

``Model(..., boost_level="O1"/"O2", boost_config_dict=...)`` applies them through :class:`AutoBoost`;
each is also usable alone: :class:`LessBN`, :class:`GradientFreeze`/:class:`FreezeOpt`/:func:`freeze_cell`,
:class:`GradientAccumulation`, :class:`DimReduce`, :class:`GroupLossScaleManager`, the training cells
:class:`BoostTrainOneStepCell`/:class:`BoostTrainOneStepWithLossScaleCell`, and the optimizer rebuilders
:class:`OptimizerProcess`/:class:`ParameterProcess`. :class:`AdaSum` needs 16 or more ranks: building it in
one process raises as the CPU wheel does.

Example:
    >>> from mskernel import boost
    >>> sorted(boost.__all__)[:3]
    ['AdaSum', 'AutoBoost', 'BoostTrainOneStepCell']
"""
from mskernel.boost.adasum import AdaSum
from mskernel.boost.base import OptimizerProcess, ParameterProcess
from mskernel.boost.boost import AutoBoost
from mskernel.boost.boost_cell_wrapper import BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell
from mskernel.boost.dim_reduce import DimReduce
from mskernel.boost.grad_accumulation import GradientAccumulation
from mskernel.boost.grad_freeze import FreezeOpt, GradientFreeze, freeze_cell
from mskernel.boost.group_loss_scale_manager import GroupLossScaleManager
from mskernel.boost.less_batch_normalization import LessBN

__all__ = ["AutoBoost", "OptimizerProcess", "ParameterProcess", "BoostTrainOneStepCell",
           "BoostTrainOneStepWithLossScaleCell", "LessBN", "GradientFreeze", "FreezeOpt", "freeze_cell",
           "GradientAccumulation", "AdaSum", "DimReduce", "GroupLossScaleManager"]
