"""``mindspore.mint.distributed``: its point-to-point functions, refused with the reason (:mod:`mskernel.refusals`).

mskernel runs one process; a point-to-point send or receive has no peer there. The collective functions
(``all_reduce``, ``broadcast``, ...) are not here yet: the compatibility page lists them as missing.

Example:
    >>> from mskernel.mint import distributed
    >>> distributed.send(None)
    Traceback (most recent call last):
    ...
    mskernel.errors.RefusedError: mindspore.mint.distributed.send cannot run in mskernel: point-to-point ...
"""
from mskernel.refusals import refused_names

_REFUSED = refused_names("mindspore.mint.distributed")
globals().update(_REFUSED)
__all__ = sorted(_REFUSED)
