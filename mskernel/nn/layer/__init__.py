"""``mindspore.nn`` layer: filled in by issue [12].

Example:
    >>> from mskernel.nn import layer
    >>> isinstance(layer.__all__, list)
    True
"""
__all__: list = []
