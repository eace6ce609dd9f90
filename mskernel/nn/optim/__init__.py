"""``mindspore.nn`` optim: filled in by issue [12].

Example:
    >>> from mskernel.nn import optim
    >>> isinstance(optim.__all__, list)
    True
"""
__all__: list = []
