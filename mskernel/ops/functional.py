"""``mindspore.ops.functional`` (imported as ``F``): every functional op of the op table.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import functional as F
    >>> print(F.mul(ms.Tensor([2.0]), 4), F.atan2(ms.Tensor([1.0]), ms.Tensor([1.0])))
    [8.] [0.7853981]
"""
import sys

from mskernel.ops.registry import FUNCTIONS


def _found_at_home(fn: object) -> bool:
    """Whether doctest finds ``fn`` in the module it was written in (a function of that module's namespace)."""
    home = sys.modules.get(getattr(fn, "__module__", None) or "")
    return home is not None and getattr(fn, "__globals__", None) is vars(home) and id(fn) in {
        id(value) for value in vars(home).values()}


#: the functional ops doctest would not find where they were written -- those generated from the op table, and
#: lambdas and closures of its entries -- so that their examples run from here (computed before the ops below
#: shadow builtins such as ``any``)
__test__ = {name: fn for name, fn in FUNCTIONS.items() if not name.startswith("_") and not _found_at_home(fn)}

globals().update(FUNCTIONS)

__all__ = sorted(n for n in FUNCTIONS if not n.startswith("_"))

from mskernel.ops.graph_prims import linearize  # noqa: E402  (MindSpore's ops.functional has these too)
from mskernel.ops.taylor import derivative, jet  # noqa: E402

__all__ += ["linearize", "jet", "derivative"]
