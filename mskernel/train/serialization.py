"""``mindspore.train`` serialization: filled in by issue [12].

Example:
    >>> from mskernel.train import serialization
    >>> isinstance(serialization.__all__, list)
    True
"""
__all__: list = []
