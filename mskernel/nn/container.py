"""``SequentialCell``, ``CellList``, ``CellDict``: filled in by issue [12].

Example:
    >>> from mskernel.nn import container
    >>> isinstance(container.__all__, list)
    True
"""
__all__: list = []
