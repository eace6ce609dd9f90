"""``mindspore.train`` model: filled in by issue [12].

Example:
    >>> from mskernel.train import model
    >>> isinstance(model.__all__, list)
    True
"""
__all__: list = []
