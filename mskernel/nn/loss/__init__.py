"""``mindspore.nn`` loss: filled in by issue [12].

Example:
    >>> from mskernel.nn import loss
    >>> isinstance(loss.__all__, list)
    True
"""
__all__: list = []
