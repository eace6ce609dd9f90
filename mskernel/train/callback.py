"""``mindspore.train`` callback: filled in by issue [12].

Example:
    >>> from mskernel.train import callback
    >>> isinstance(callback.__all__, list)
    True
"""
__all__: list = []
