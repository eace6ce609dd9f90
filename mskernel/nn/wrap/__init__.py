"""``mindspore.nn`` wrap: filled in by issue [12].

Example:
    >>> from mskernel.nn import wrap
    >>> isinstance(wrap.__all__, list)
    True
"""
__all__: list = []
