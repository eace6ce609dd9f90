"""``mindspore.nn`` metrics: filled in by issue [12].

Example:
    >>> from mskernel.nn import metrics
    >>> isinstance(metrics.__all__, list)
    True
"""
__all__: list = []
