"""``mindspore.nn`` learning_rate_schedule: filled in by issue [12].

Example:
    >>> from mskernel.nn import learning_rate_schedule
    >>> isinstance(learning_rate_schedule.__all__, list)
    True
"""
__all__: list = []
