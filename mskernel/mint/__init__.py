"""``mindspore.mint``: MindSpore's torch-style functions, layers and optimizers, on mskernel's op table.

Each function is a front end of an op table entry (:mod:`mskernel.mint.frontends`: one line per name, mint's
signature and the table call computing it), so ``mint.sum`` and ``ops.sum`` share one rule, one backward and
one set of errors. Submodules: :mod:`mskernel.mint.nn` (layers, and ``nn.functional``), :mod:`mskernel.mint.optim`,
:mod:`mskernel.mint.linalg`, :mod:`mskernel.mint.special`, :mod:`mskernel.mint.distributed` (its point-to-point
functions refused: one process has no peer). The compatibility page lists which mint names run and which are
missing.

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> x = ms.Tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> print(mint.add(x, 1, alpha=2), ms.grad(lambda a: mint.std(a))(x))
    [[3. 0.]
     [5. 6.]] [[-0.06299409 -0.4409586 ]
     [ 0.18898225  0.31497043]]
"""
from typing import Any, Callable, Dict

from mskernel.mint.frontends import EXAMPLES, HELPERS, MINT, front_end_examples
from mskernel.ops.registry import front_ends
from mskernel.refusals import refused_names

#: the imports every mint example starts with
IMPORTS = ("import mskernel as ms", "from mskernel import mint")
FUNCTIONS: Dict[str, Callable[..., Any]] = front_ends(MINT, __name__, HELPERS, front_end_examples(""), IMPORTS)
globals().update(FUNCTIONS)
globals().update(refused_names("mindspore.mint"))  # refused with their reason (mskernel.refusals)
#: the generated functions, so that doctest runs their examples from here
__test__ = dict(FUNCTIONS)

from mskernel.mint import distributed, linalg, nn, optim, special  # noqa: E402  (they use FUNCTIONS' builder)

__all__ = sorted(FUNCTIONS) + ["distributed", "linalg", "nn", "optim", "special"]
del EXAMPLES
