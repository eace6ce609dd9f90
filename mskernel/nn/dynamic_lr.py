"""``mindspore.nn`` dynamic_lr: filled in by issue [12].

Example:
    >>> from mskernel.nn import dynamic_lr
    >>> isinstance(dynamic_lr.__all__, list)
    True
"""
__all__: list = []
