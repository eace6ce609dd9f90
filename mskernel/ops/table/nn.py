"""Op table: the neural-network functional ops (activations, losses), gathered from their family modules.

Example:
    >>> from mskernel.ops.table import nn
    >>> "softmax" in [op.name for op in nn.OPS]
    True
"""
from __future__ import annotations

from typing import List

from mskernel.ops.opdef import Op
from mskernel.ops.table import nn_act, nn_loss, nn_shrink, nn_shuffle

OPS: List[Op] = [*nn_act.OPS, *nn_shrink.OPS, *nn_shuffle.OPS, *nn_loss.OPS]
EXAMPLES = {**nn_act.EXAMPLES, **nn_shrink.EXAMPLES, **nn_shuffle.EXAMPLES, **nn_loss.EXAMPLES}
